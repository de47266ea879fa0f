/**
 * csi-proxy as a node add-on, written once for both front doors: the CSI node plugins that are not HostProcess reach
 * the host's disks, volumes and SMB shares through its named pipes. It follows kubernetes-sigs/sig-windows-tools'
 * `hostprocess/csi-proxy/csi-proxy.yaml` (the facts in lib/core/facts/addons.ts); `CSI_PROXY_DIFFERENCES` lists where
 * it differs, and why.
 */
import { IssueCollector, type ValidationIssue } from '../errors';
import type { HOST_PROCESS_USERS } from '../windows-options';
import type { Taint } from '../target';
import type { HostProcessAgent } from './agent';
import { ADDON_AGENT_RESOURCES, resolveAddonBase, type AddonDifference, type AddonOptions } from './common';

/** The upstream manifest's name for the DaemonSet and its container. */
export const CSI_PROXY_NAME = 'csi-proxy';
/** The upstream manifest runs as `NT AUTHORITY\SYSTEM`: csi-proxy formats disks and mounts volumes on the host. */
export const CSI_PROXY_ACCOUNT: (typeof HOST_PROCESS_USERS)[number] = 'NT AUTHORITY\\SYSTEM';
/** The pod labels the add-on selects by. */
export const CSI_PROXY_NAME_LABEL = 'app.kubernetes.io/name';
export const CSI_PROXY_INSTANCE_LABEL = 'app.kubernetes.io/instance';

/** The settings both front doors share: those of every add-on (`name`, `image`, `taints`). */
export type CsiProxyOptions = AddonOptions;

/** The options with every default applied. */
export interface ResolvedCsiProxy {
  readonly name: string;
  readonly image: string;
  readonly taints: readonly Taint[];
}

/**
 * Where the add-on's output differs from sig-windows-tools' `hostprocess/csi-proxy/csi-proxy.yaml`, and why (the
 * comparison test fails on a difference missing here or an entry that no longer differs).
 */
export const CSI_PROXY_DIFFERENCES: readonly AddonDifference[] = [
  {
    kind: 'DaemonSet',
    paths: ['metadata.namespace'],
    why: "upstream runs in `kube-system`, which the add-on never labels; it runs in a namespace you give, which must enforce 'privileged', or creates one at 'privileged' (HostProcess pods need it): cdk8s `windows-system`, shared by the app's node agents; Pulumi one named after the add-on",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.selector', 'spec.template.metadata.labels'],
    why: 'upstream labels and selects `name: csi-proxy`; the add-on labels `app.kubernetes.io/name` and `app.kubernetes.io/instance`, and cdk8s-plus selects its own `cdk8s.io/metadata.addr` label',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.os', 'spec.template.spec.tolerations'],
    why: "added: `os.name: windows` (the API server checks Windows pods by it) and the Windows nodes' taints, so the storage plugin's pipes exist on tainted pools too",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].resources', 'spec.template.spec.containers[0].imagePullPolicy'],
    why: "added: upstream requests nothing; the add-on gives a node agent's resources (100m CPU request, 500m limit, 600Mi memory), and `IfNotPresent` for the pinned image",
  },
];

/** Applies the defaults and checks every option; `issues` lists every problem at once (empty when none). */
export function resolveCsiProxy(options: CsiProxyOptions = {}): {
  readonly resolved: ResolvedCsiProxy;
  readonly issues: readonly ValidationIssue[];
} {
  const issues = new IssueCollector();
  const resolved = resolveAddonBase('csi-proxy', options, issues);
  return { resolved, issues: issues.issues };
}

/** The pod labels: the add-on's name and the instance. */
export function csiProxyPodLabels(resolved: ResolvedCsiProxy): Record<string, string> {
  return { [CSI_PROXY_NAME_LABEL]: CSI_PROXY_NAME, [CSI_PROXY_INSTANCE_LABEL]: resolved.name };
}

/** The DaemonSet's agent: csi-proxy alone, as SYSTEM, at a node agent's size (`ADDON_RESOURCES`). */
export function csiProxyAgent(resolved: ResolvedCsiProxy): HostProcessAgent {
  return {
    name: resolved.name,
    labels: csiProxyPodLabels(resolved),
    account: CSI_PROXY_ACCOUNT,
    taints: resolved.taints,
    initContainers: [],
    containers: [
      {
        name: CSI_PROXY_NAME,
        image: resolved.image,
        resources: ADDON_AGENT_RESOURCES,
      },
    ],
    configMapVolumes: {},
  };
}
