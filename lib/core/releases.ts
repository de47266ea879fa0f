/**
 * Windows Server releases that can host Kubernetes nodes: the facts every layer needs, as one table, read from
 * lib/core/facts (each fact there has its source and the date it was checked).
 */
import { CLOUD_DEFAULT_RELEASES, CLOUD_RELEASES } from './facts/clouds';
import { releaseSupport, type SupportState } from './facts/support';
import {
  RETIRED_RELEASE_FACTS,
  WINDOWS_RELEASE_FACTS,
  WINDOWS_RELEASES,
  type RetiredRelease,
  type WindowsRelease,
} from './facts/windows';

export { WINDOWS_RELEASES, type WindowsRelease } from './facts/windows';
export { releaseSupport, type SupportState } from './facts/support';

/**
 * The release used when nothing says otherwise and the Kubernetes version is not known: the first default of
 * every cloud (Windows Server 2022). Components that know the version ask `cloudDefaultRelease` (AKS gives 2025
 * from Kubernetes 1.37).
 */
export const DEFAULT_WINDOWS_RELEASE: WindowsRelease = CLOUD_DEFAULT_RELEASES.eks.steps[0].release;

/** Container isolation. Process isolation is the only one upstream Kubernetes supports. */
export type WindowsIsolation = 'process' | 'hyperv';

/** containerd's Windows runtime handler for each isolation (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility); a RuntimeClass names one. */
export const WINDOWS_RUNTIME_HANDLERS: Readonly<Record<WindowsIsolation, string>> = {
  process: 'runhcs-wcow-process',
  hyperv: 'runhcs-wcow-hypervisor',
};

/** What every containerd Windows handler name starts with. */
export const WINDOWS_RUNTIME_HANDLER_PREFIX = 'runhcs-wcow';

/** The containerd handler that runs Windows pods with `isolation` (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility). */
export function windowsRuntimeHandler(isolation: WindowsIsolation): string {
  switch (isolation) {
    case 'process':
    case 'hyperv':
      return WINDOWS_RUNTIME_HANDLERS[isolation];
    default: {
      const unknownIsolation: never = isolation;
      throw new Error(`Unknown isolation ${String(unknownIsolation)}`);
    }
  }
}

/** Whether a RuntimeClass handler runs Windows containers (`runhcs-wcow-*`). */
export function isWindowsRuntimeHandler(handler: unknown): handler is string {
  return typeof handler === 'string' && handler.startsWith(WINDOWS_RUNTIME_HANDLER_PREFIX);
}

export interface WindowsReleaseInfo {
  readonly release: WindowsRelease;
  /** `node.kubernetes.io/windows-build` value (major.minor.build). */
  readonly build: string;
  /** Image tag tokens that mean this release (`ltsc2022`); suffixes such as `windowsservercore-ltsc2022` match too. */
  readonly imageTags: readonly string[];
  /** First Kubernetes minor with GA support for nodes of this release. */
  readonly firstKubernetesMinor: number;
  /** EKS managed node group amiTypes (Core first). */
  readonly eksAmiTypes: { readonly core: string; readonly full: string };
  /** AKS agent pool `osSKU`. */
  readonly aksOsSku: string;
  /** GKE `windowsNodeConfig.osversion`, or undefined when GKE does not offer the release. */
  readonly gkeOsVersion?: string;
  /** Support today, computed from the dates (`releaseSupport(release, date)` for another day). */
  readonly support: SupportState;
  /** Human name. */
  readonly displayName: string;
}

function infoFromFacts(release: WindowsRelease): WindowsReleaseInfo {
  const facts = WINDOWS_RELEASE_FACTS[release];
  const [core, full] = CLOUD_RELEASES.eks[release]?.names ?? [];
  return {
    release,
    build: facts.build,
    imageTags: facts.imageTags,
    firstKubernetesMinor: facts.firstKubernetesMinor,
    eksAmiTypes: { core, full },
    aksOsSku: CLOUD_RELEASES.aks[release]?.names[0] ?? `Windows${release}`,
    gkeOsVersion: CLOUD_RELEASES.gke[release]?.names[0],
    get support(): SupportState {
      return releaseSupport(release).state;
    },
    displayName: facts.displayName,
  };
}

const RELEASE_TABLE: { readonly [R in WindowsRelease]: WindowsReleaseInfo } = {
  '2019': infoFromFacts('2019'),
  '2022': infoFromFacts('2022'),
  '2025': infoFromFacts('2025'),
};

export { type RetiredRelease } from './facts/windows';

/** End-of-life Semi-Annual Channel releases (lib/core/facts/windows.ts): known only to be refused. */
export const SAC_RELEASES: readonly RetiredRelease[] = RETIRED_RELEASE_FACTS.releases.filter(
  (r) => r.channel === 'SAC',
);

/** Every retired release: Windows Server 2016 and the SAC releases (lib/core/facts/windows.ts). */
export const RETIRED_RELEASES: readonly RetiredRelease[] = RETIRED_RELEASE_FACTS.releases;

/** The retired release with this name or build (`1903`, `10.0.19041`, `2016`), if `value` names one. */
export function retiredRelease(value: string): RetiredRelease | undefined {
  const base = value.split('.').slice(0, 3).join('.');
  const lower = value.toLowerCase();
  return RETIRED_RELEASES.find(
    (r) => r.name.toLowerCase() === lower || r.build === base || r.imageTags.includes(lower),
  );
}

export function isWindowsRelease(value: unknown): value is WindowsRelease {
  return typeof value === 'string' && (WINDOWS_RELEASES as readonly string[]).includes(value);
}

/** The table row for a release. */
export function releaseInfo(release: WindowsRelease): WindowsReleaseInfo {
  return RELEASE_TABLE[release];
}

/** The release whose build label is `build` (`10.0.20348` or with a revision, `10.0.20348.1`). */
export function releaseForBuild(build: string): WindowsRelease | undefined {
  const base = build.split('.').slice(0, 3).join('.');
  return WINDOWS_RELEASES.find((r) => RELEASE_TABLE[r].build === base);
}

/** The SAC release with this name or build, if `value` names one. */
export function sacRelease(value: string): RetiredRelease | undefined {
  const r = retiredRelease(value);
  return r?.channel === 'SAC' ? r : undefined;
}

/**
 * Checks a user-supplied release value and explains a refusal: SAC names, builds, `ltsc2022` spellings.
 * Returns the release, or a message and fix for the caller's error.
 */
export function parseWindowsRelease(
  value: unknown,
): { ok: true; release: WindowsRelease } | { ok: false; message: string; fix: string } {
  if (isWindowsRelease(value)) return { ok: true, release: value };
  const known = WINDOWS_RELEASES.map((r) => `'${r}'`).join(', ');
  if (typeof value === 'string') {
    const retired = retiredRelease(value);
    if (retired) {
      return {
        ok: false,
        message:
          retired.channel === 'SAC'
            ? `Windows release '${value}' is the end-of-life Semi-Annual Channel release ${retired.name} (build ${retired.build}).`
            : `Windows release '${value}' is ${retired.displayName} (build ${retired.build}), which Kubernetes does not support as a node.`,
        fix: `Use an LTSC release: ${known}.`,
      };
    }
    const byBuild = releaseForBuild(value);
    const byTag = WINDOWS_RELEASES.find((r) => RELEASE_TABLE[r].imageTags.includes(value.toLowerCase()));
    const meant = byBuild ?? byTag;
    if (meant) {
      return { ok: false, message: `Windows release '${value}' is not a release name.`, fix: `Write '${meant}'.` };
    }
  }
  return {
    ok: false,
    message: `Windows release ${JSON.stringify(value)} is not supported.`,
    fix: `Use one of ${known}.`,
  };
}

/** Kubernetes minor from `1.30`, `v1.30.2`, `1.30.0-eks-...`. */
export function parseKubernetesMinor(version: string): number | undefined {
  const m = /^v?1\.(\d+)(?:\.|$|-)/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}
