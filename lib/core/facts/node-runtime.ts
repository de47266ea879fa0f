/**
 * What runs on a Windows node beside the kubelet and decides where and how a pod runs: containerd's runtime handlers
 * (what a RuntimeClass `handler` names) and the device plugins whose extended resources confine pods to their nodes.
 */
import { githubFile, type Sourced } from './types';
import type { WindowsRelease } from './windows';

/** The day the sources below were opened and read. */
const CHECKED = '2026-12-07';

/**
 * containerd's default Windows runtime handlers (the keys of its CRI `runtimes` table, which a RuntimeClass's
 * `handler` names) and the isolation each runs a pod's sandbox with.
 */
export const CONTAINERD_WINDOWS_HANDLER_FACT: {
  readonly handlers: { readonly process: string; readonly hyperv: string };
  /** The handler a pod without a RuntimeClass runs under. */
  readonly defaultHandler: string;
} & Sourced = {
  handlers: { process: 'runhcs-wcow-process', hyperv: 'runhcs-wcow-hypervisor' },
  defaultHandler: 'runhcs-wcow-process',
  sources: [
    {
      ref: githubFile('containerd/containerd', 'v2.3.4', 'internal/cri/config/config_windows.go', 57),
      materialDate: '2026-08-12',
      checked: CHECKED,
      says: 'DefaultRuntimeName: "runhcs-wcow-process"; Runtimes: "runhcs-wcow-process" (Options: ScrubLogs only) and "runhcs-wcow-hypervisor" with Options "SandboxIsolation": 1 ("SandboxIsolation specifies the isolation level of the sandbox. PROCESS (0) and HYPERVISOR (1) are the valid options.")',
    },
  ],
  note: 'These are the defaults of containerd on Windows; a node operator may define other handler names in its config. runhcs-wcow-process sets no SandboxIsolation, so it runs the sandbox at PROCESS (0).',
};

/** A device plugin that advertises extended resources only on the nodes its DaemonSets run on. */
export interface DevicePluginFact extends Sourced {
  readonly name: string;
  /** The extended resources it advertises. */
  readonly resources: readonly string[];
  /** The oldest Windows Server release its prerequisites accept: its nodes run this release or a newer one. */
  readonly minimumRelease: WindowsRelease;
  /**
   * The `node.kubernetes.io/windows-build` every DaemonSet of the project's own published deployment manifests
   * selects: installed as published, the resources exist only on nodes of this build.
   */
  readonly publishedBuild: string;
}

const DIRECTX_COMMIT = '5862bd7021cc95e576133e10419814539f9c63ff';

/** TensorWorks' Kubernetes device plugins for DirectX (MCDM compute-only and WDDM display devices). */
export const DIRECTX_DEVICE_PLUGIN_FACT: DevicePluginFact = {
  name: 'Kubernetes Device Plugins for DirectX (TensorWorks)',
  resources: ['directx.microsoft.com/compute', 'directx.microsoft.com/display'],
  minimumRelease: '2022',
  publishedBuild: '10.0.20348',
  sources: [
    {
      ref: githubFile('TensorWorks/DirectX-Device-Plugins', DIRECTX_COMMIT, 'README.md'),
      materialDate: '2024-12-19',
      checked: CHECKED,
      says: 'the MCDM plugin provides devices "under the resource name `directx.microsoft.com/compute`", the WDDM plugin "under the resource name `directx.microsoft.com/display`"; prerequisites "Windows Server 2022 or newer"; the provided deployment YAML "deploys each plugin as a Kubernetes DaemonSet that runs on every Windows Server 2022 worker node"',
    },
    {
      ref: githubFile('TensorWorks/DirectX-Device-Plugins', DIRECTX_COMMIT, 'deployments/default-daemonsets.yml', 19),
      materialDate: '2024-12-19',
      checked: CHECKED,
      says: "both DaemonSets (device-plugin-mcdm, device-plugin-wddm) select node.kubernetes.io/windows-build: '10.0.20348'; so do those of deployments/multitenancy-inline.yml and multitenancy-configmap.yml",
    },
  ],
  note: 'The README allows "Windows Server 2022 or newer": a cluster may deploy the plugins with another build selector than the published one, so the resources are on Windows Server 2022 nodes or newer ones, and on 10.0.20348 nodes only when the plugins are installed as published.',
};

/** The device plugins whose resources the rules read. */
export const DEVICE_PLUGIN_FACTS: readonly DevicePluginFact[] = [DIRECTX_DEVICE_PLUGIN_FACT];

/** The oldest containerd that runs HostProcess containers, and the one whose volume mounts behave as on Linux. */
export const HOSTPROCESS_RUNTIME_FACT: {
  /** HostProcess containers need this containerd or newer; Docker Engine runs none. */
  readonly minimumContainerd: string;
  /** Volume mounts at their `mountPath` (not only under `$CONTAINER_SANDBOX_MOUNT_POINT`) and local user groups. */
  readonly recommendedContainerd: string;
} & Sourced = {
  minimumContainerd: '1.6',
  recommendedContainerd: '1.7',
  sources: [
    {
      ref: 'https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/',
      materialDate: 'undated',
      checked: '2026-12-08',
      says: 'Limitations: "HostProcess containers require containerd 1.6 or higher container runtime and containerd 1.7 is recommended."; under "Containerd v1.7 (and greater)": "Applications running inside the container can access volume mounts directly via the volumeMount\'s specified `mountPath`"; "Running HostProcess containers as local user accounts requires containerd v1.7+" (read in the page\'s source, content/en/docs/tasks/configure-pod-container/create-hostprocess-pod.md of kubernetes/website, commit not known)',
    },
    {
      ref: 'https://learn.microsoft.com/en-ca/azure/aks/use-windows-hpc',
      materialDate: 'undated',
      checked: '2026-12-08',
      says: 'Limitations: "HostProcess containers require containerd 1.6 or higher container runtime."',
    },
  ],
  note: 'Docker Engine is not named by these pages; that it runs no HostProcess container is read from "The kubelet will communicate with containerd directly by passing the hostprocess flag via CRI" (the first page), so a docker:// runtime is reported as one that cannot.',
};
