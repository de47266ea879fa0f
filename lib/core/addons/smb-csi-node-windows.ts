/**
 * csi-driver-smb's Windows node plugin as HostProcess, written once for both front doors. It follows
 * kubernetes-csi/csi-driver-smb's `deploy/v1.20.3/csi-smb-node-windows-hostprocess.yaml` (the facts in
 * lib/core/facts/addons.ts); `SMB_CSI_NODE_WINDOWS_DIFFERENCES` lists where it differs, and why. The driver's
 * CSIDriver object and controller come from the driver's own install: this is the Windows node part only.
 */
import { IssueCollector, type ValidationIssue } from '../errors';
import { ADDON_IMAGE_FACTS } from '../facts/addons';
import type { Taint } from '../target';
import type { AgentContainer, HostProcessAgent } from './agent';
import { resolveAddonBase, type AddonDifference, type AddonOptions } from './common';

export const SMB_CSI_NODE_WINDOWS_NAME = 'smb-csi-node-windows';
/** The driver's name, and where the kubelet finds its socket and registers it (upstream's paths). */
export const SMB_DRIVER = 'smb.csi.k8s.io';
const PLUGIN_DIR = `C:\\var\\lib\\kubelet\\plugins\\${SMB_DRIVER}\\`;
const SOCKET = `${PLUGIN_DIR}csi.sock`;
const REGISTRATION_DIR = 'C:\\var\\lib\\kubelet\\plugins_registry\\';
/** The upstream manifest's priority: a storage plugin must outlive the pods whose volumes it mounts. */
export const SMB_PRIORITY_CLASS = 'system-node-critical';

/** The settings both front doors share. */
export interface SmbCsiNodeWindowsOptions extends AddonOptions {
  /**
   * The node-driver-registrar image.
   * @default - the version the upstream manifest runs, pinned in the facts (`addon.smb-csi-node-windows.image`)
   */
  readonly registrarImage?: string;
  /**
   * Remove the node's SMB mapping when the last volume on a share unmounts (`--remove-smb-mapping-during-unmount`).
   * @default true (upstream's)
   */
  readonly removeSmbMappingDuringUnmount?: boolean;
  /**
   * The ServiceAccount the plugin runs as, of the namespace. Upstream's (`csi-smb-node-sa`) may read Secrets, for
   * volumes that name theirs; the add-on creates no RBAC: it never widens it.
   * @default - the namespace's `default` account
   */
  readonly serviceAccountName?: string;
}

export interface ResolvedSmbCsiNodeWindows {
  readonly name: string;
  readonly image: string;
  readonly registrarImage: string;
  readonly taints: readonly Taint[];
  readonly removeSmbMappingDuringUnmount: boolean;
  readonly serviceAccountName?: string;
}

/** The registrar's container name and the image the facts pin for it. */
const REGISTRAR = 'node-driver-registrar';
const registrarDefault = (): string => ADDON_IMAGE_FACTS['smb-csi-node-windows'].sidecars?.[REGISTRAR] ?? '';

/**
 * Where the add-on's output differs from `deploy/v1.20.3/csi-smb-node-windows-hostprocess.yaml`, and why (the
 * comparison test fails on a difference missing here or an entry that no longer differs).
 */
export const SMB_CSI_NODE_WINDOWS_DIFFERENCES: readonly AddonDifference[] = [
  {
    kind: 'DaemonSet',
    paths: ['metadata.name', 'metadata.namespace'],
    why: "upstream is `csi-smb-node-win` in `kube-system`, which the add-on never labels; it is `smb-csi-node-windows` in a namespace you give, which must enforce 'privileged', or one it creates at 'privileged'",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.selector', 'spec.template.metadata.labels'],
    why: 'upstream labels and selects `app: csi-smb-node-win`; the add-on labels `app.kubernetes.io/name` and `app.kubernetes.io/instance`, and cdk8s-plus selects its own `cdk8s.io/metadata.addr` label',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.updateStrategy'],
    why: 'upstream writes the default (RollingUpdate, maxUnavailable 1); the add-on leaves it to the default',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.serviceAccountName'],
    why: "upstream runs as `csi-smb-node-sa`, which the driver's RBAC manifest creates in kube-system with `get` on Secrets; the add-on runs as the account you name (`serviceAccountName`) and creates no RBAC",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.securityContext.seccompProfile'],
    why: "dropped: the API server refuses `seccompProfile` on a pod with `os.name: windows` (Windows has no seccomp), the Linux-only field that had csi-driver-smb v1.17.0's Windows DaemonSet refused",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.tolerations'],
    why: "upstream tolerates `node.kubernetes.io/os` with any value; the add-on tolerates the Windows pools' taints",
  },
  {
    kind: 'DaemonSet',
    paths: [
      'spec.template.spec.containers[0].env[0].value',
      'spec.template.spec.containers[0].env[1].value',
      'spec.template.spec.containers[0].env[2].value',
      'spec.template.spec.containers[1].env[0].value',
    ],
    why: "upstream writes the socket and registration paths as plain YAML scalars, so its values hold doubled backslashes (`C:\\\\var\\\\lib…`, which Windows reads as single ones); the add-on writes the paths themselves, as upstream's init container does",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[1].env[1].valueFrom.fieldRef.apiVersion'],
    why: 'upstream writes the default `v1`; the add-on leaves it to the default',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.os'],
    why: 'added: `os.name: windows` (the API server checks Windows pods by it)',
  },
];

const IMAGE = /^\S+$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Applies the defaults and checks every option; `issues` lists every problem at once (empty when none). */
export function resolveSmbCsiNodeWindows(options: SmbCsiNodeWindowsOptions = {}): {
  readonly resolved: ResolvedSmbCsiNodeWindows;
  readonly issues: readonly ValidationIssue[];
} {
  const issues = new IssueCollector();
  const { name, image, taints } = resolveAddonBase('smb-csi-node-windows', options, issues);
  const registrarImage = options.registrarImage ?? registrarDefault();
  if (typeof registrarImage !== 'string' || !IMAGE.test(registrarImage)) {
    issues.add(
      'registrarImage',
      `registrarImage ${JSON.stringify(registrarImage)} is not an image reference.`,
      `Omit it for ${registrarDefault()}, or write 'registry/repository:tag'.`,
    );
  }
  const removeSmbMappingDuringUnmount = options.removeSmbMappingDuringUnmount ?? true;
  if (typeof removeSmbMappingDuringUnmount !== 'boolean') {
    issues.add(
      'removeSmbMappingDuringUnmount',
      `removeSmbMappingDuringUnmount ${JSON.stringify(removeSmbMappingDuringUnmount)} is not a boolean.`,
      'Write true or false.',
    );
  }
  const account = options.serviceAccountName;
  if (account !== undefined && (typeof account !== 'string' || !DNS_LABEL.test(account))) {
    issues.add(
      'serviceAccountName',
      `serviceAccountName ${JSON.stringify(account)} is not a ServiceAccount name.`,
      "Name an account of the namespace, e.g. 'csi-smb-node-sa', or omit it.",
    );
  }
  return {
    resolved: {
      name,
      image,
      registrarImage,
      taints,
      removeSmbMappingDuringUnmount,
      ...(account !== undefined ? { serviceAccountName: account } : {}),
    },
    issues: issues.issues,
  };
}

/** The pod labels: the add-on's name and the instance. */
export function smbCsiNodePodLabels(resolved: ResolvedSmbCsiNodeWindows): Record<string, string> {
  return { 'app.kubernetes.io/name': SMB_CSI_NODE_WINDOWS_NAME, 'app.kubernetes.io/instance': resolved.name };
}

/**
 * The DaemonSet's agent, upstream's containers as they are: an init container that creates the plugin directory,
 * the registrar that tells the kubelet about the socket, and the plugin, sized as upstream sizes them.
 */
export function smbCsiNodeAgent(resolved: ResolvedSmbCsiNodeWindows): HostProcessAgent {
  const endpoint = { name: 'CSI_ENDPOINT', value: `unix://${SOCKET}` };
  const nodeName = { name: 'KUBE_NODE_NAME', fieldPath: 'spec.nodeName' } as const;
  const init: AgentContainer = {
    name: 'init',
    image: resolved.image,
    command: ['powershell.exe', '-c', `New-Item -ItemType Directory -Path ${PLUGIN_DIR} -Force`],
    resources: {},
  };
  const registrar: AgentContainer = {
    name: REGISTRAR,
    image: resolved.registrarImage,
    command: ['csi-node-driver-registrar.exe'],
    args: [
      '--v=2',
      '--csi-address=$(CSI_ENDPOINT)',
      '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)',
      '--plugin-registration-path=$(PLUGIN_REG_DIR)',
    ],
    env: [
      endpoint,
      { name: 'DRIVER_REG_SOCK_PATH', value: SOCKET },
      { name: 'PLUGIN_REG_DIR', value: REGISTRATION_DIR },
      nodeName,
    ],
    resources: { cpuRequestMillis: 30, memoryRequestMebibytes: 40, memoryLimitMebibytes: 150 },
  };
  const plugin: AgentContainer = {
    name: 'smb',
    image: resolved.image,
    command: ['smbplugin.exe'],
    args: [
      '--v=5',
      '--endpoint=$(CSI_ENDPOINT)',
      '--nodeid=$(KUBE_NODE_NAME)',
      '--enable-windows-host-process=true',
      `--remove-smb-mapping-during-unmount=${String(resolved.removeSmbMappingDuringUnmount)}`,
    ],
    env: [endpoint, nodeName],
    resources: { cpuRequestMillis: 10, memoryRequestMebibytes: 40, memoryLimitMebibytes: 600 },
  };
  return {
    name: resolved.name,
    labels: smbCsiNodePodLabels(resolved),
    account: 'NT AUTHORITY\\SYSTEM',
    taints: resolved.taints,
    initContainers: [init],
    containers: [registrar, plugin],
    configMapVolumes: {},
    priorityClassName: SMB_PRIORITY_CLASS,
    ...(resolved.serviceAccountName !== undefined ? { serviceAccountName: resolved.serviceAccountName } : {}),
  };
}
