/**
 * Kubernetes-side facts the rules and components act on: the labels and taints of Windows nodes, the kube-proxy
 * switch DSR needs, and the images we pin.
 */
import { githubFile, type Sourced } from './types';

/** The day the sources below were opened and read. */
const CHECKED = '2026-12-07';

/** A taint as data (`effect` in the Kubernetes spelling). */
export interface TaintFact extends Sourced {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/**
 * The taint Windows nodes carry by convention: upstream's guide gives it as the example; AKS recommends taints or
 * labels and names no taint; our pools set it.
 */
export const WINDOWS_TAINT_FACT: TaintFact = {
  key: 'os',
  value: 'windows',
  effect: 'NoSchedule',
  sources: [
    {
      ref: githubFile(
        'kubernetes/website',
        '099ccc3f6249bbf309f43f6e850b2259e85a7b7b',
        'content/en/docs/concepts/windows/user-guide.md',
      ),
      materialDate: 'undated',
      checked: CHECKED,
      says: 'the source of kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations (the copy read gives no commit date): "For example: --register-with-taints=\'os=windows:NoSchedule\'", and a toleration key "os", value "windows", effect "NoSchedule"',
    },
    {
      ref: githubFile(
        'MicrosoftDocs/azure-aks-docs',
        'fb060abe6a8fef960d4c487b543bf7b1e97808fe',
        'articles/aks/windows-containerd.md',
        30,
      ),
      materialDate: '2026-08-21',
      checked: CHECKED,
      says: 'ms.date 2025-09-26: "We recommend using taints or labels with your Windows Server 2019 node pools running containerd and tolerations or node selectors with your deployments to guarantee your workloads are scheduled correctly" (no taint named; AKS sets none itself)',
    },
  ],
};

/**
 * The taint GKE is said to put on Windows nodes itself. No GKE document found says so, or names a value: the only
 * source found, upstream's kube-up scripts for GCE (not GKE), default to `node.kubernetes.io/os=win1809:NoSchedule`.
 * The value `windows` is ours, unverified. Used leniently: tolerated when a pool's taints are unknown, never required.
 */
export const GKE_WINDOWS_TAINT_FACT: TaintFact = {
  key: 'node.kubernetes.io/os',
  value: 'windows',
  effect: 'NoSchedule',
  verified: false,
  sources: [
    {
      ref: githubFile('kubernetes/kubernetes', 'v1.37.0', 'cluster/gce/config-default.sh', 479),
      materialDate: '2026-08-26',
      checked: CHECKED,
      says: 'WINDOWS_NODE_TAINTS="${WINDOWS_NODE_TAINTS:-node.kubernetes.io/os=win1809:NoSchedule}" (kube-up on GCE, not GKE; read from the k8s.io/kubernetes@v1.37.0 Go module)',
    },
  ],
  note: "No source read says that GKE taints Windows nodes or with which value. The only source found is upstream's kube-up for GCE (not GKE), whose default taint has the same key and the value win1809; the value windows is an assumption (the os=windows convention on this key), so the taint is only tolerated, never required.",
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
    {
      ref: githubFile('kubernetes/api', 'v0.37.0', 'core/v1/well_known_labels.go'),
      materialDate: '2026-08-26',
      checked: CHECKED,
      says: 'LabelOSStable = "kubernetes.io/os"; LabelWindowsBuild = "node.kubernetes.io/windows-build" (Go module k8s.io/api@v0.37.0)',
    },
    {
      ref: githubFile(
        'MicrosoftDocs/azure-aks-docs',
        'fb060abe6a8fef960d4c487b543bf7b1e97808fe',
        'articles/aks/upgrade-windows-os.md',
      ),
      materialDate: '2026-08-21',
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
      ref: githubFile(
        'kubernetes/enhancements',
        '64765b4b02389318f2113119dd9e491479f978a0',
        'keps/sig-windows/5100-windows-dsr-and-overlay-support/kep.yaml',
      ),
      materialDate: '2026-07-24',
      checked: CHECKED,
      says: 'feature gate WinDSR (kube-proxy): stage stable, milestone stable "v1.34"',
    },
    {
      ref: githubFile(
        'kubernetes/enhancements',
        '64765b4b02389318f2113119dd9e491479f978a0',
        'keps/sig-windows/5100-windows-dsr-and-overlay-support/README.md',
        301,
      ),
      materialDate: '2026-07-24',
      checked: CHECKED,
      says: '"DSR is enabled by passing `--enable-dsr=true` as a command line switch to the Windows kube-proxy."',
    },
  ],
};

/**
 * KEP-4885, Windows CPU and memory affinity (CPU, Memory and Topology managers on Windows nodes): alpha from 1.32,
 * beta and on by default from 1.38 as the v1.38.0-beta.0 pre-release has it (v1.38.0 is not in the Go module proxy on
 * 2026-12-07).
 */
export const WINDOWS_CPU_MEMORY_AFFINITY_FACT: {
  readonly featureGate: string;
  readonly alphaMinor: number;
  readonly betaMinor: number;
  /** The beta is read from a pre-release, not a release. */
  readonly betaFromPreRelease: boolean;
} & Sourced = {
  featureGate: 'WindowsCPUAndMemoryAffinity',
  alphaMinor: 32,
  betaMinor: 38,
  betaFromPreRelease: true,
  sources: [
    {
      ref: githubFile('kubernetes/kubernetes', 'v1.38.0-beta.0', 'pkg/features/kube_features.go'),
      materialDate: '2026-11-06',
      checked: CHECKED,
      says: 'a pre-release: WindowsCPUAndMemoryAffinity (kep 4885): {1.32, Default false, Alpha}, {1.38, Default true, Beta} (k8s.io/kubernetes@v1.38.0-beta.0 Go module)',
    },
    {
      ref: githubFile(
        'kubernetes/enhancements',
        '64765b4b02389318f2113119dd9e491479f978a0',
        'keps/sig-windows/4885-windows-cpu-and-memory-affinity/kep.yaml',
      ),
      materialDate: '2026-07-24',
      checked: CHECKED,
      says: 'stage alpha, milestone alpha "v1.32", feature gate WindowsCPUAndMemoryAffinity (kubelet)',
    },
    {
      ref: 'https://github.com/kubernetes/enhancements/pull/6339',
      materialDate: '2026-09-10',
      checked: CHECKED,
      says: '"KEP-4885: move from alpha to beta" (open in the copy read): "In v1.38, `WindowsCPUAndMemoryAffinity` will be beta and enabled by default. The default CPU and Memory Manager policies remain `None`"',
    },
  ],
  note: "Beta in 1.38 is read from the v1.38.0-beta.0 pre-release; the KEP's own kep.yaml at the copy read still says alpha.",
};

/** An image we deploy or show in examples, at the release we pin. */
export interface PinnedImageFact extends Sourced {
  readonly image: string;
  /**
   * A newer release we know of and do not pin, and why.
   * @default - none known
   */
  readonly newer?: { readonly version: string; readonly why: string };
}

/** The gMSA admission webhook the GmsaWebhook construct deploys. */
export const GMSA_WEBHOOK_IMAGE_FACT: PinnedImageFact = {
  image: 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1',
  sources: [
    {
      ref: 'https://github.com/kubernetes-sigs/windows-gmsa/issues/185',
      materialDate: '2026-09-04',
      checked: CHECKED,
      says: 'v0.14.1 cut 2026-09-04; image promoted and verified with docker pull registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1',
    },
  ],
};

/**
 * windows_exporter in our examples: 0.31.8 is the newest 0.31 release (2026-07-22); 0.32.0 removed the /version
 * endpoint and the thermalzone collector and renamed metrics, so examples stay on 0.31.
 */
export const WINDOWS_EXPORTER_IMAGE_FACT: PinnedImageFact = {
  image: 'ghcr.io/prometheus-community/windows-exporter:0.31.8',
  newer: {
    version: '0.32.0',
    why: 'breaking changes (the /version endpoint and the thermalzone collector removed, container metadata read from the CRI API, metric renames): examples move with their dashboards, not by themselves',
  },
  sources: [
    {
      ref: 'https://github.com/prometheus-community/windows_exporter/tree/v0.31.8',
      materialDate: '2026-07-22',
      checked: CHECKED,
      says: 'tag v0.31.8 (2026-07-22; the same date in the Go module proxy), the newest tag of the repository copy of 2026-08-07',
    },
    {
      ref: 'https://github.com/prometheus-community/windows_exporter/releases/tag/v0.32.0',
      materialDate: 'undated',
      checked: CHECKED,
      says: '"💥 Breaking Changes" include "container: read Kubernetes metadata from the CRI API", "httphandler: remove /version endpoint", "collector: remove deprecated thermalzone collector", "memory: rename commit_limit …"; upgrade guide docs/upgrade/0.32.md (the copy read shows no release date)',
    },
  ],
};

/** Microsoft's HostProcess base image. */
export const HOSTPROCESS_BASE_IMAGE_FACT: PinnedImageFact = {
  image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
  sources: [
    {
      ref: githubFile(
        'microsoft/windows-host-process-containers-base-image',
        'd7c1101db0b5e3339c2f90dc84ebd5da6e8035e7',
        'README.md',
      ),
      materialDate: '2025-12-10',
      checked: CHECKED,
      says: 'tags v0.1.0 (2022-08-10) and v1.0.0 (2022-09-16), none newer at this commit',
    },
    {
      ref: githubFile(
        'prometheus-community/windows_exporter',
        '589ec15d12b25894f425d72d7a2396c9344b00a0',
        'Dockerfile',
      ),
      materialDate: '2026-08-07',
      checked: CHECKED,
      says: 'ARG BASE="mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0"',
    },
  ],
};
