/**
 * Kubernetes-side facts the rules and components act on: the labels and taints of Windows nodes, the kube-proxy
 * switch DSR needs, and the images we pin.
 */
import type { Sourced } from './types';

const CHECKED = '2026-11-27';

/** A taint as data (`effect` in the Kubernetes spelling). */
export interface TaintFact extends Sourced {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** The taint Windows nodes carry by convention (upstream's guide; AKS recommends it, our pools set it). */
export const WINDOWS_TAINT_FACT: TaintFact = {
  key: 'os',
  value: 'windows',
  effect: 'NoSchedule',
  sources: [
    {
      ref: 'https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations',
      checked: CHECKED,
      says: 'taint Windows nodes os=windows:NoSchedule',
    },
    { ref: 'https://learn.microsoft.com/azure/aks/windows-best-practices#node-taints', checked: CHECKED },
  ],
};

/**
 * The taint GKE is said to put on Windows nodes itself. Unverified for GKE: Google Distributed Cloud (GKE on
 * VMware) documents it, and upstream's kube-up GCE scripts default to `node.kubernetes.io/os=win1809:NoSchedule`.
 * Used leniently: tolerated when a pool's taints are unknown, never required.
 */
export const GKE_WINDOWS_TAINT_FACT: TaintFact = {
  key: 'node.kubernetes.io/os',
  value: 'windows',
  effect: 'NoSchedule',
  verified: false,
  sources: [
    {
      ref: 'kubernetes/kubernetes/cluster/gce/config-default.sh',
      checked: CHECKED,
      says: 'WINDOWS_NODE_TAINTS defaults to node.kubernetes.io/os=win1809:NoSchedule (kube-up on GCE, not GKE)',
    },
  ],
  note: 'No GKE document says GKE taints Windows nodes; the value is the one Google Distributed Cloud (GKE on VMware) documents for its Windows nodes.',
};

/** Labels the kubelet or the cloud puts on Windows nodes. */
export const NODE_LABEL_FACTS: {
  readonly os: string;
  readonly windowsBuild: string;
  readonly aksOsSku: string;
} & Sourced = {
  os: 'kubernetes.io/os',
  windowsBuild: 'node.kubernetes.io/windows-build',
  aksOsSku: 'kubernetes.azure.com/os-sku',
  sources: [
    { ref: 'https://kubernetes.io/docs/reference/labels-annotations-taints/', checked: CHECKED },
    {
      ref: 'MicrosoftDocs/azure-aks-docs/articles/aks/upgrade-windows-os.md@fb060abe6a8fef960d4c487b543bf7b1e97808fe',
      checked: CHECKED,
      says: 'pin workloads during an OS migration with nodeSelector kubernetes.azure.com/os-sku: <OSSKU>',
    },
  ],
};

/**
 * Direct Server Return for Windows Services: the WinDSR feature gate is GA (on, and locked) since Kubernetes 1.34;
 * kube-proxy still needs `--enable-dsr=true`.
 */
export const WINDOWS_DSR_FACT: { readonly gaMinor: number; readonly flag: string } & Sourced = {
  gaMinor: 34,
  flag: '--enable-dsr=true',
  sources: [
    {
      ref: 'kubernetes/enhancements/keps/sig-windows/5100-windows-dsr-and-overlay-support/kep.yaml@5031d6192c8d530adaf134d1e0ff88860896a271',
      checked: CHECKED,
      says: 'WinDSR and WinOverlay: stable "v1.34"; README: "DSR is enabled by passing --enable-dsr=true as a command line switch to the Windows kube-proxy"',
    },
  ],
};

/** An image we deploy or show in examples, at the release we pin. */
export interface PinnedImageFact extends Sourced {
  readonly image: string;
}

/** The gMSA admission webhook the GmsaWebhook construct deploys. */
export const GMSA_WEBHOOK_IMAGE_FACT: PinnedImageFact = {
  image: 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1',
  sources: [
    {
      ref: 'https://github.com/kubernetes-sigs/windows-gmsa/issues/185',
      checked: CHECKED,
      says: 'v0.14.1 cut 2026-09-04; image promoted and verified with docker pull registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1',
    },
  ],
};

/**
 * windows_exporter in our examples: 0.31.8 is the newest 0.31 release (2026-07-22); 0.32 removed the /version
 * endpoint and the thermalzone collector and renamed metrics, so examples stay on 0.31.
 */
export const WINDOWS_EXPORTER_IMAGE_FACT: PinnedImageFact = {
  image: 'ghcr.io/prometheus-community/windows-exporter:0.31.8',
  sources: [
    {
      ref: 'https://github.com/prometheus-community/windows_exporter/releases/tag/v0.31.8',
      checked: CHECKED,
      says: 'v0.31.8, 2026-07-22 (newest tag of the 2026-08-07 snapshot); v0.32.0 has breaking changes',
    },
  ],
};

/** Microsoft's HostProcess base image. */
export const HOSTPROCESS_BASE_IMAGE_FACT: PinnedImageFact = {
  image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
  sources: [
    {
      ref: 'https://github.com/microsoft/windows-host-process-containers-base-image',
      checked: CHECKED,
      says: 'v1.0.0, the base windows_exporter builds on (its Dockerfile, 2026-08-07)',
    },
  ],
};
