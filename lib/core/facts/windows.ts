/**
 * Windows Server releases as Kubernetes nodes: builds, image tags, Microsoft's lifecycle dates, upstream
 * Kubernetes' support, and which image builds a host of each build runs. Data only; support status at a date is
 * computed in ./support.ts.
 */
import { githubFile, type FactSource, type IsoDate, type Sourced } from './types';

/** An LTSC Windows Server release supported as a Kubernetes node. */
export type WindowsRelease = '2019' | '2022' | '2025';

/** Every supported release, oldest first. */
export const WINDOWS_RELEASES: readonly WindowsRelease[] = ['2019', '2022', '2025'];

/** The day the sources below were opened and read. */
const CHECKED = '2026-12-07';

const VERSION_COMPAT: FactSource = {
  ref: githubFile(
    'MicrosoftDocs/Virtualization-Documentation',
    '77e0742a8029cf3b5a96c84dfab2ce7ba623286c',
    'virtualization/windowscontainers/deploy-containers/version-compatibility.md',
  ),
  materialDate: '2026-08-07',
  checked: CHECKED,
  says: 'the source of learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility (ms.date 2025-01-23). Windows Server 2025 tab: Windows Server 2022 images run with process isolation; Hyper-V runs 2022, 2019 and 2016 images. Windows Server 2022 tab: 2022 images with process isolation, 2019 and 2016 with Hyper-V',
};
const CONTAINERD_COMPAT: FactSource = {
  ref: githubFile('containerd/platforms', '4549974181760492ffc528fae4d7f29620a2c67c', 'platform_windows_compat.go'),
  materialDate: '2025-05-12',
  checked: CHECKED,
  says: 'compatLTSCReleases = [ltsc2022, ltsc2025]; "Every release after WS 2022 will support the previous ltsc container image"; "If host is < WS 2022, exact version match is required"',
};
/** The later fix of the same matcher (hosts newer than the latest LTSC), in containerd/platforms v1.0.0-rc.5. */
const CONTAINERD_COMPAT_FIX: FactSource = {
  ref: 'https://github.com/containerd/platforms/pull/34',
  materialDate: '2026-04-27',
  checked: CHECKED,
  says: '"Fix WS2022 compat on hosts past the latest LTSC" (opened 2026-04-27; merged in the copy read): "Find the largest LTSC <= host.Build and step one entry back for the floor … This keeps the floor at the previous LTSC across an entire host generation"',
};
const CONTAINERD_COMPAT_VENDORED: FactSource = {
  ref: 'https://github.com/containerd/containerd/pull/14001',
  materialDate: '2026-08-20',
  checked: CHECKED,
  says: '"vendor: github.com/containerd/platforms v1.0.0-rc.5 … Fix WS2022 compat on hosts past the latest LTSC"',
};
const AKS_ANNUAL_RETIREMENT: FactSource = {
  ref: githubFile(
    'MicrosoftDocs/azure-aks-docs',
    'fb060abe6a8fef960d4c487b543bf7b1e97808fe',
    'articles/aks/includes/windows-annual-channel-retirement.md',
  ),
  materialDate: '2026-08-21',
  checked: CHECKED,
  says: 'ms.date 2026-02-05: "Windows Server Annual Channel uses Windows Server 2022 base images, which will run on Windows Server 2022 and Windows Server 2025"',
};
const LIFECYCLE: FactSource = {
  ref: githubFile(
    'endoflife-date/endoflife.date',
    'a70eca337600e7d721dc48112c271f98661d208b',
    'products/windows-server.md',
  ),
  materialDate: '2026-08-22',
  checked: CHECKED,
  says: 'releaseDate, eoas and eol per LTSC release, each linking https://learn.microsoft.com/windows/release-health/windows-server-release-info: 2019 2018-11-13, 2024-01-09, 2029-01-09; 2022 2021-08-18, 2026-10-13, 2031-10-14; 2025 2024-11-01, 2029-11-13, 2034-11-14',
};
/** The change of Windows Server 2025's dates in the same file, with the Microsoft page it names. */
const LIFECYCLE_2025_REVISED: FactSource = {
  ref: 'https://github.com/endoflife-date/endoflife.date/commit/90dd392453662f79c390d255b00b734a58bed5f8',
  materialDate: '2026-07-22',
  checked: CHECKED,
  says: '"Microsoft revised the Windows Server 2025 lifecycle after GA. The official lifecycle page now lists Mainstream End 2029-11-13 and Extended End 2034-11-14; current data carries the pre-GA projections (2029-10-09 / 2034-10-10). Source: https://learn.microsoft.com/en-us/lifecycle/products/windows-server-2025" (the Microsoft page itself was not opened)',
};
/** The upstream page itself was not opened: an issue quoting it and the pull request that changed it were. */
const UPSTREAM_OS_SUPPORT: FactSource = {
  ref: 'https://github.com/kubernetes/website/issues/55058',
  materialDate: '2026-03-26',
  checked: CHECKED,
  says: 'quotes https://kubernetes.io/docs/concepts/windows/intro/: "Windows nodes are supported provided that the operating system is Windows Server 2022 or Windows Server 2025"',
};
const UPSTREAM_OS_SUPPORT_PR: FactSource = {
  ref: 'https://github.com/kubernetes/website/pull/55103',
  materialDate: '2026-03-29',
  checked: CHECKED,
  says: 'opened 2026-03-27, approved 2026-03-29, merged: removes "Only Windows containers with a container operating system of Windows Server 2019 are fully supported"; "The LTSC release table in the same section also lists only 2022 and 2025"',
};
const UPSTREAM_2025_PR: FactSource = {
  ref: 'https://github.com/kubernetes/website/pull/53724',
  materialDate: '2025-12-19',
  checked: CHECKED,
  says: '"Update the doc for windows server 2025 support", opened 2025-12-19, merged (the copy read shows no merge date and no diff)',
};

/** Microsoft's support dates of a release (Long-Term Servicing Channel: 5 years mainstream, 5 years extended). */
export interface WindowsLifecycle {
  readonly released: IsoDate;
  /** Last day of mainstream support (features and non-security fixes). */
  readonly mainstreamEnd: IsoDate;
  /** Last day of extended support (security fixes). */
  readonly extendedEnd: IsoDate;
}

export interface WindowsReleaseFacts extends Sourced {
  readonly release: WindowsRelease;
  readonly displayName: string;
  /** `node.kubernetes.io/windows-build` value (major.minor.build). */
  readonly build: string;
  /** Image tag tokens that mean this release (`ltsc2022`); suffixes such as `windowsservercore-ltsc2022` match too. */
  readonly imageTags: readonly string[];
  /** First Kubernetes minor with GA support for nodes of this release. */
  readonly firstKubernetesMinor: number;
  readonly lifecycle: WindowsLifecycle;
  /**
   * The day upstream Kubernetes stopped listing the release as a supported node OS.
   * @default - still listed
   */
  readonly upstreamDroppedOn?: IsoDate;
}

export const WINDOWS_RELEASE_FACTS: { readonly [R in WindowsRelease]: WindowsReleaseFacts } = {
  '2019': {
    release: '2019',
    displayName: 'Windows Server 2019',
    build: '10.0.17763',
    imageTags: ['ltsc2019', '1809'],
    firstKubernetesMinor: 14,
    lifecycle: { released: '2018-11-13', mainstreamEnd: '2024-01-09', extendedEnd: '2029-01-09' },
    upstreamDroppedOn: '2025-12-19',
    sources: [VERSION_COMPAT, LIFECYCLE, UPSTREAM_OS_SUPPORT, UPSTREAM_OS_SUPPORT_PR, UPSTREAM_2025_PR],
    note: 'upstreamDroppedOn is the day kubernetes/website#53724 was opened; its merge day is not in the copy read.',
  },
  '2022': {
    release: '2022',
    displayName: 'Windows Server 2022',
    build: '10.0.20348',
    imageTags: ['ltsc2022'],
    firstKubernetesMinor: 23,
    lifecycle: { released: '2021-08-18', mainstreamEnd: '2026-10-13', extendedEnd: '2031-10-14' },
    sources: [VERSION_COMPAT, LIFECYCLE, UPSTREAM_OS_SUPPORT],
  },
  '2025': {
    release: '2025',
    displayName: 'Windows Server 2025',
    build: '10.0.26100',
    imageTags: ['ltsc2025'],
    firstKubernetesMinor: 32,
    lifecycle: { released: '2024-11-01', mainstreamEnd: '2029-11-13', extendedEnd: '2034-11-14' },
    sources: [VERSION_COMPAT, LIFECYCLE, LIFECYCLE_2025_REVISED, UPSTREAM_OS_SUPPORT],
    note: 'First Kubernetes minor 1.32 is the minor AKS first offered it on; upstream names no first minor (its docs list 2025 since the 1.35 release).',
  },
};

/** Which image releases a host of each release runs, per isolation. */
export interface HostCompatibility {
  /** Images that run with process isolation (the only isolation upstream Kubernetes supports). */
  readonly process: readonly WindowsRelease[];
  /** Images that run with Hyper-V isolation: the host's build or any older one. */
  readonly hyperv: readonly WindowsRelease[];
}

/**
 * Host release → the image releases it runs. Process isolation needed equal builds before Windows Server 2022;
 * from 2022 on, each LTSC host also runs the previous LTSC's images (Windows' stable ABI), so a 2025 host runs
 * ltsc2022 images process-isolated, while a 2022 host runs neither ltsc2019 nor ltsc2025 images that way. Hyper-V
 * isolation runs any image as old as the host or older. (Windows Server 2016 and SAC images are retired: no
 * supported node runs them process-isolated; see releases.ts.)
 */
export const HOST_COMPATIBILITY: { readonly [R in WindowsRelease]: HostCompatibility } & Sourced = {
  '2019': { process: ['2019'], hyperv: ['2019'] },
  '2022': { process: ['2022'], hyperv: ['2019', '2022'] },
  '2025': { process: ['2022', '2025'], hyperv: ['2019', '2022', '2025'] },
  sources: [
    VERSION_COMPAT,
    CONTAINERD_COMPAT,
    CONTAINERD_COMPAT_FIX,
    CONTAINERD_COMPAT_VENDORED,
    AKS_ANNUAL_RETIREMENT,
  ],
};

/** Whether a `host` node runs an image built for `image` under `isolation`. */
export function hostRunsImage(host: WindowsRelease, image: WindowsRelease, isolation: 'process' | 'hyperv'): boolean {
  return HOST_COMPATIBILITY[host][isolation].includes(image);
}

/** The host releases that run an image built for `image` under `isolation`, oldest first. */
export function hostsRunningImage(image: WindowsRelease, isolation: 'process' | 'hyperv'): WindowsRelease[] {
  return WINDOWS_RELEASES.filter((host) => hostRunsImage(host, image, isolation));
}

/**
 * The compatibility table as a sentence, for rule texts (generated here so no text states another table):
 * "with process isolation a Windows Server 2019 host runs ltsc2019 images, 2022 ltsc2022, 2025 ltsc2022 and ltsc2025".
 */
export function processCompatibilitySentence(): string {
  const parts = WINDOWS_RELEASES.map(
    (host, i) =>
      `${i === 0 ? `${WINDOWS_RELEASE_FACTS[host].displayName} host` : host} runs ${HOST_COMPATIBILITY[host].process
        .map((r) => `ltsc${r}`)
        .join(' and ')}${i === 0 ? ' images' : ''}`,
  );
  return `with process isolation a ${parts.join(', ')}`;
}

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
 * Windows Server 2016 (build 14393), never a supported Kubernetes node OS (upstream support began with 2019 in
 * Kubernetes 1.14), and the Semi-Annual Channel releases, whose servicing ended between 2019 (1709) and 2022 (20H2):
 * no cloud and no supported Kubernetes release runs them as nodes.
 */
export const RETIRED_RELEASE_FACTS: { readonly releases: readonly RetiredRelease[] } & Sourced = {
  releases: [
    {
      name: '2016',
      build: '10.0.14393',
      channel: 'LTSC',
      // Docker Hub's legacy microsoft/* repositories tagged 2016 images `ltsc2016` and Nano Server `sac2016`.
      imageTags: ['ltsc2016', 'sac2016'],
      displayName: 'Windows Server 2016',
    },
    { name: '1709', build: '10.0.16299', channel: 'SAC', imageTags: ['1709'], displayName: 'Windows Server 1709' },
    { name: '1803', build: '10.0.17134', channel: 'SAC', imageTags: ['1803'], displayName: 'Windows Server 1803' },
    { name: '1903', build: '10.0.18362', channel: 'SAC', imageTags: ['1903'], displayName: 'Windows Server 1903' },
    { name: '1909', build: '10.0.18363', channel: 'SAC', imageTags: ['1909'], displayName: 'Windows Server 1909' },
    { name: '2004', build: '10.0.19041', channel: 'SAC', imageTags: ['2004'], displayName: 'Windows Server 2004' },
    { name: '20H2', build: '10.0.19042', channel: 'SAC', imageTags: ['20h2'], displayName: 'Windows Server 20H2' },
  ],
  sources: [
    {
      ref: githubFile(
        'endoflife-date/endoflife.date',
        'a70eca337600e7d721dc48112c271f98661d208b',
        'products/windows-server.md',
      ),
      materialDate: '2026-08-22',
      checked: CHECKED,
      says: 'latest build and end of servicing: 2016 10.0.14393, 1709-sac 10.0.16299 (2019-04-09), 1803-sac 10.0.17134 (2019-11-12), 1903-sac 10.0.18362 (2020-12-08), 1909-sac 10.0.18363 (2021-05-11), 2004-sac 10.0.19041 (2021-12-14), 20h2-sac 10.0.19042 (2022-08-09)',
    },
    {
      ...VERSION_COMPAT,
      says: 'Windows Server 2016 is version 10.0.14393 and "Windows Server, version 1709" 10.0.16299; the tag windows/servercore:1709',
    },
    UPSTREAM_OS_SUPPORT,
  ],
  note: 'The image tag tokens other than 1709 (ltsc2016, sac2016, 1803, 1903, 1909, 2004, 20h2) are not in the sources read on 2026-12-07; they are the names the releases go by, matched leniently.',
};
