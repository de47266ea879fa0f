/**
 * Windows Server releases that can host Kubernetes nodes: the facts every layer needs, as one table.
 * Sources: Microsoft's version-compatibility docs, AWS EKS amiType docs,
 * AKS osSKU docs, GKE windowsNodeConfig docs).
 */

/** An LTSC Windows Server release supported as a Kubernetes node. */
export type WindowsRelease = '2019' | '2022' | '2025';

/** Every supported release, oldest first. */
export const WINDOWS_RELEASES: readonly WindowsRelease[] = ['2019', '2022', '2025'];

/** The release used when nothing says otherwise: the default on every cloud today. */
export const DEFAULT_WINDOWS_RELEASE: WindowsRelease = '2022';

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

export type SupportState = 'supported' | 'deprecated';

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
  readonly support: SupportState;
  /** Human name. */
  readonly displayName: string;
}

/** @see https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility */
const RELEASE_TABLE: { readonly [R in WindowsRelease]: WindowsReleaseInfo } = {
  '2019': {
    release: '2019',
    build: '10.0.17763',
    imageTags: ['ltsc2019', '1809'],
    firstKubernetesMinor: 14,
    eksAmiTypes: { core: 'WINDOWS_CORE_2019_x86_64', full: 'WINDOWS_FULL_2019_x86_64' },
    aksOsSku: 'Windows2019',
    gkeOsVersion: 'OS_VERSION_LTSC2019',
    support: 'deprecated',
    displayName: 'Windows Server 2019',
  },
  '2022': {
    release: '2022',
    build: '10.0.20348',
    imageTags: ['ltsc2022'],
    firstKubernetesMinor: 23,
    eksAmiTypes: { core: 'WINDOWS_CORE_2022_x86_64', full: 'WINDOWS_FULL_2022_x86_64' },
    aksOsSku: 'Windows2022',
    gkeOsVersion: 'OS_VERSION_LTSC2022',
    support: 'supported',
    displayName: 'Windows Server 2022',
  },
  '2025': {
    release: '2025',
    build: '10.0.26100',
    imageTags: ['ltsc2025'],
    firstKubernetesMinor: 32,
    eksAmiTypes: { core: 'WINDOWS_CORE_2025_x86_64', full: 'WINDOWS_FULL_2025_x86_64' },
    aksOsSku: 'Windows2025',
    // GKE does not offer an LTSC2025 osversion (AWS, Azure and Google Windows node docs).
    gkeOsVersion: undefined,
    support: 'supported',
    displayName: 'Windows Server 2025',
  },
};

/** A Windows Server release that no supported Kubernetes node runs any more: known so it can be refused or warned on. */
export interface RetiredRelease {
  /** `2016`, `1809`-style SAC name (`1903`, `20H2`). */
  readonly name: string;
  /** `node.kubernetes.io/windows-build` value (major.minor.build). */
  readonly build: string;
  readonly channel: 'LTSC' | 'SAC';
  /** Image tag tokens that mean it (`ltsc2016`, `1803`). */
  readonly imageTags: readonly string[];
  readonly displayName: string;
}

/**
 * End-of-life Semi-Annual Channel releases. Their servicing ended between 2019 (1709) and 2022 (20H2); no cloud
 * and no supported Kubernetes release runs them as nodes.
 * @see https://learn.microsoft.com/windows-server/get-started/windows-server-release-info
 */
export const SAC_RELEASES: readonly RetiredRelease[] = [
  { name: '1709', build: '10.0.16299', channel: 'SAC', imageTags: ['1709'], displayName: 'Windows Server 1709' },
  { name: '1803', build: '10.0.17134', channel: 'SAC', imageTags: ['1803'], displayName: 'Windows Server 1803' },
  { name: '1903', build: '10.0.18362', channel: 'SAC', imageTags: ['1903'], displayName: 'Windows Server 1903' },
  { name: '1909', build: '10.0.18363', channel: 'SAC', imageTags: ['1909'], displayName: 'Windows Server 1909' },
  { name: '2004', build: '10.0.19041', channel: 'SAC', imageTags: ['2004'], displayName: 'Windows Server 2004' },
  { name: '20H2', build: '10.0.19042', channel: 'SAC', imageTags: ['20h2'], displayName: 'Windows Server 20H2' },
];

/**
 * Every retired release: Windows Server 2016 (build 14393) was never a supported Kubernetes node OS (upstream
 * support began with 2019 in Kubernetes 1.14), and the SAC releases above are out of servicing.
 * @see https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support
 * @see https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility
 */
export const RETIRED_RELEASES: readonly RetiredRelease[] = [
  {
    name: '2016',
    build: '10.0.14393',
    channel: 'LTSC',
    // Docker Hub's legacy microsoft/* repositories tagged 2016 images `ltsc2016` and Nano Server `sac2016`.
    imageTags: ['ltsc2016', 'sac2016'],
    displayName: 'Windows Server 2016',
  },
  ...SAC_RELEASES,
];

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
