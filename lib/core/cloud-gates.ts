/**
 * Which Kubernetes versions each cloud runs each Windows Server release on: the release ↔ Kubernetes-version gates
 * a node pool is checked against before anything is created. Data first (one table, cited per cell), then the
 * check. Kept apart from the release table so a cloud's schedule can change without touching the releases.
 */
import { parseKubernetesMinor, releaseInfo, WINDOWS_RELEASES, type WindowsRelease } from './releases';

/** The managed Kubernetes services with Windows node pools. */
export type Cloud = 'eks' | 'aks' | 'gke';
export const CLOUDS: readonly Cloud[] = ['eks', 'aks', 'gke'];

/** The Kubernetes minors a cloud offers a release on (both bounds inclusive), and where that is written down. */
export interface CloudReleaseGate {
  /** First Kubernetes minor (the `32` of 1.32) the cloud offers the release on. */
  readonly firstMinor: number;
  /**
   * Last Kubernetes minor the cloud offers the release on, when it has announced one.
   * @default - no end announced
   */
  readonly lastMinor?: number;
  /** The public document that says so. */
  readonly source: string;
}

const EKS_WINDOWS_DOCS = 'https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html';
const AKS_OS_VERSIONS = 'https://learn.microsoft.com/azure/aks/upgrade-os-version#supported-os-versions';

/**
 * `undefined`: the cloud does not offer the release at all.
 *
 * EKS: AWS publishes Windows Server 2025 EKS-optimized AMIs only from Kubernetes 1.35 (AMI version list); eksctl
 * ("Windows Server 2025 Core requires EKS version 1.35 and above", pkg/ami/ssm_resolver.go) and Karpenter
 * (pkg/providers/amifamily/ami.go, `WS2025UnsupportedVersionError`) refuse it below 1.35. eksctl refuses 2022
 * below 1.23 the same way.
 * AKS: the supported-OS table lists Windows2019 on 1.14–1.32, Windows2022 on 1.23–1.36 ("Windows Server 2022
 * isn't supported in Kubernetes version 1.37 and later", Azure/AKS#4168) and Windows2025 from 1.32.
 * GKE: no LTSC2025 `osversion`; the LTSC releases otherwise follow upstream's GA minors.
 * @see https://github.com/eksctl-io/eksctl/blob/main/pkg/ami/ssm_resolver.go
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/pkg/providers/amifamily/ami.go
 * @see https://learn.microsoft.com/azure/aks/upgrade-windows-os#limitations
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 */
const GATES: { readonly [C in Cloud]: { readonly [R in WindowsRelease]: CloudReleaseGate | undefined } } = {
  eks: {
    '2019': { firstMinor: releaseInfo('2019').firstKubernetesMinor, source: EKS_WINDOWS_DOCS },
    '2022': { firstMinor: 23, source: EKS_WINDOWS_DOCS },
    '2025': { firstMinor: 35, source: EKS_WINDOWS_DOCS },
  },
  aks: {
    '2019': { firstMinor: 14, lastMinor: 32, source: AKS_OS_VERSIONS },
    '2022': { firstMinor: 23, lastMinor: 36, source: AKS_OS_VERSIONS },
    '2025': { firstMinor: 32, source: AKS_OS_VERSIONS },
  },
  gke: {
    '2019': {
      firstMinor: releaseInfo('2019').firstKubernetesMinor,
      source: 'https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke',
    },
    '2022': {
      firstMinor: releaseInfo('2022').firstKubernetesMinor,
      source: 'https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke',
    },
    '2025': undefined,
  },
};

/** Display names for messages. */
export const CLOUD_NAMES: Readonly<Record<Cloud, string>> = { eks: 'EKS', aks: 'AKS', gke: 'GKE' };

/** The Kubernetes minors `cloud` offers `release` on, or undefined when it does not offer the release. */
export function cloudReleaseGate(cloud: Cloud, release: WindowsRelease): CloudReleaseGate | undefined {
  return GATES[cloud][release];
}

/** The releases `cloud` offers on Kubernetes 1.`minor`, oldest first. */
export function releasesOnKubernetes(cloud: Cloud, minor: number): WindowsRelease[] {
  return WINDOWS_RELEASES.filter((r) => {
    const gate = GATES[cloud][r];
    return gate !== undefined && minor >= gate.firstMinor && (gate.lastMinor === undefined || minor <= gate.lastMinor);
  });
}

/** Why a release cannot run on a Kubernetes version on a cloud, and what to write instead. */
export interface GateViolation {
  readonly message: string;
  readonly fix: string;
}

/**
 * Checks that `cloud` runs `release` on Kubernetes `version` (`1.32`, `v1.32.4`, `1.32.0-eks-…`). Returns the
 * violation, or undefined when it fits or the version is not a Kubernetes 1.x version (callers check syntax).
 */
export function checkCloudRelease(cloud: Cloud, release: WindowsRelease, version: string): GateViolation | undefined {
  const minor = parseKubernetesMinor(version);
  const info = releaseInfo(release);
  const gate = GATES[cloud][release];
  const name = CLOUD_NAMES[cloud];
  const others = (m: number): string => {
    const fits = minor === undefined ? [] : releasesOnKubernetes(cloud, m);
    return fits.length > 0 ? `release ${fits.map((r) => `'${r}'`).join(' or ')}` : 'another release';
  };
  if (gate === undefined) {
    const offered = WINDOWS_RELEASES.filter((r) => GATES[cloud][r] !== undefined);
    return {
      message: `${name} does not offer ${info.displayName} nodes.`,
      fix: `Use release ${offered.map((r) => `'${r}'`).join(' or ')}.`,
    };
  }
  if (minor === undefined) return undefined;
  if (minor < gate.firstMinor) {
    return {
      message: `${name} runs ${info.displayName} nodes on Kubernetes 1.${gate.firstMinor} or newer; '${version}' is older (${gate.source}).`,
      fix: `Use Kubernetes 1.${gate.firstMinor} or newer, or ${others(minor)}.`,
    };
  }
  if (gate.lastMinor !== undefined && minor > gate.lastMinor) {
    return {
      message: `${name} runs ${info.displayName} nodes on Kubernetes 1.${gate.lastMinor} at the newest; '${version}' is newer (${gate.source}).`,
      fix: `Use ${others(minor)}, or Kubernetes 1.${gate.lastMinor}.`,
    };
  }
  return undefined;
}
