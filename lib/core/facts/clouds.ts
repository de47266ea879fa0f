/**
 * What each managed Kubernetes service offers for Windows nodes, as data: on which Kubernetes minors it runs each
 * release, when it retires one, what it calls it, which release a node pool gets when none is given, and the
 * AWS-specific facts (SSM path, Karpenter aliases, instance families without Windows). Checks live in
 * ../cloud-gates.ts and the Pulumi layers; they read these tables.
 */
import { githubFile, type FactSource, type IsoDate, type Sourced } from './types';
import type { WindowsRelease } from './windows';

/** The managed Kubernetes services with Windows node pools. */
export type Cloud = 'eks' | 'aks' | 'gke';
export const CLOUDS: readonly Cloud[] = ['eks', 'aks', 'gke'];

/** Display names for messages. */
export const CLOUD_NAMES: Readonly<Record<Cloud, string>> = { eks: 'EKS', aks: 'AKS', gke: 'GKE' };

/** The day the sources below were opened and read. */
const CHECKED = '2026-12-07';

const AKS_DOCS = 'fb060abe6a8fef960d4c487b543bf7b1e97808fe';
const AKS_DOCS_DATE = '2026-08-21';
const AKS_CHANGELOG = githubFile('Azure/AKS', '8d1c890900df47080a5a3a0de0ad06da110af845', 'CHANGELOG.md');
const AKS_CHANGELOG_DATE = '2026-08-07';

const EKS_AMI_VERSIONS: FactSource = {
  ref: 'https://docs.amazonaws.cn/eks/latest/userguide/eks-ami-versions-windows.md',
  materialDate: 'undated',
  checked: CHECKED,
  says: 'Amazon EKS optimized Windows Server 2025 Core and Full AMIs, all of Kubernetes 1.35 (newest row 1.35-2026.04.18: kubelet 1.35.3, containerd 2.1.6, csi-proxy 1.2.1); 2022 and 2019 AMIs alongside',
};
const EKSCTL_2025: FactSource = {
  ref: githubFile('eksctl-io/eksctl', '99984adb6164ece593c0728523b7f497ea61d60e', 'pkg/ami/ssm_resolver.go'),
  materialDate: '2026-08-21',
  checked: CHECKED,
  says: 'Windows Server 2025: minVersion api.Version1_35, "Windows Server 2025 %s requires EKS version %s and above"; Windows Server 2022: minVersion api.Version1_23; Windows Server 2019: no bound',
};
const KARPENTER_AMI: FactSource = {
  ref: githubFile('aws/karpenter-provider-aws', 'v1.15.3', 'pkg/providers/amifamily/ami.go'),
  materialDate: '2026-11-19',
  checked: CHECKED,
  says: 'WS2025UnsupportedVersionError: "Windows Server 2025 requires EKS version 1.35 or higher" (read from the Go module github.com/aws/karpenter-provider-aws@v1.15.3, tagged 2026-11-19)',
};
const EKS_AMI_TYPES: FactSource = {
  ref: githubFile(
    'eksctl-io/eksctl',
    '99984adb6164ece593c0728523b7f497ea61d60e',
    'pkg/apis/eksctl.io/v1alpha5/amitype.go',
  ),
  materialDate: '2026-08-21',
  checked: CHECKED,
  says: 'Windows Server 2025 Full and Core: ekstypes.AMITypes("WINDOWS_FULL_2025_x86_64"), ("WINDOWS_CORE_2025_x86_64"); 2019 and 2022: the aws-sdk-go-v2 constants AMITypesWindows{Core,Full}{2019,2022}X8664',
};
const AKS_OS_VERSIONS: FactSource = {
  ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/upgrade-os-version.md'),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-07-13. Windows2022: "1.23 to 1.36", "Default for Windows OS Type in Kubernetes version 1.25 to 1.35"; Windows2025: "1.32 and above", "Default for Windows OS Type in Kubernetes version 1.36 and later"',
};
const AKS_2019_RETIREMENT: FactSource = {
  ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/includes/windows-server-2019-retirement.md'),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-01-14: "Starting on March 01, 2026, Azure Kubernetes Service (AKS) no longer supports Windows Server 2019 node pools. Node pools running Kubernetes version 1.33+ can\'t use Windows Server 2019. Starting on April 01, 2027, AKS will remove all existing node images for Windows Server 2019"',
};
const AKS_2019_CHANGELOG: FactSource = {
  ref: AKS_CHANGELOG,
  materialDate: AKS_CHANGELOG_DATE,
  checked: CHECKED,
  says: 'release 2026-02-08: "After that date, you will not be able to create new node pools with Windows Server 2019 on any Kubernetes version"; release 2026-05-29: "Windows Server 2019 retired on March 1, 2026"',
};
const AKS_2022_RETIREMENT: FactSource = {
  ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/includes/windows-server-2022-retirement.md'),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-06-09: "Starting on June 30, 2028, Azure Kubernetes Service (AKS) no longer supports Windows Server 2022 node pools. Windows Server 2022 isn\'t supported in Kubernetes version 1.37 and later. Starting on June 30, 2029, AKS will remove all existing node images for Windows Server 2022"',
};
const AKS_DEFAULT_CHANGELOG: FactSource = {
  ref: AKS_CHANGELOG,
  materialDate: AKS_CHANGELOG_DATE,
  checked: CHECKED,
  says: 'release 2026-07-17: "Starting with Kubernetes 1.37 (expected to be available in October 2026), Windows Server 2025 is the default and recommended OS SKU for new Windows node pools when no OS SKU is specified"',
};
const AKS_DEFAULT_BEST_PRACTICES: FactSource = {
  ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/windows-best-practices.md', 44),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-07-13: "Windows Server 2022 is the default OS for Kubernetes versions 1.25 to 1.35, and Windows Server 2025 is the default OS for Kubernetes version 1.36 and later"',
};
const AKS_DEFAULT_QUICKSTART: FactSource = {
  ref: githubFile(
    'MicrosoftDocs/azure-aks-docs',
    AKS_DOCS,
    'articles/aks/learn/quick-windows-container-deploy-cli.md',
    123,
  ),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-07-13: "Windows Server 2025 is the default operating system for Kubernetes version 1.36 and later. Windows Server 2022 is the default for Kubernetes versions 1.25-1.35" (the PowerShell quickstart says the same)',
};
const AKS_2025: FactSource = {
  ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/upgrade-windows-os.md'),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-07-13: "Windows Server 2025 is supported starting in Kubernetes version 1.32"; "Windows Server 2025 node pools require a FIPS-enabled image"',
};
const AKS_2025_GA: FactSource = {
  ref: AKS_CHANGELOG,
  materialDate: AKS_CHANGELOG_DATE,
  checked: CHECKED,
  says: 'release 2026-05-29: "Windows Server 2025 is now generally available … Windows Server 2025 node pools can be created in Kubernetes version 1.32+ with a minimum GA CLI version of 2.87.0"',
};
const GKE_WINDOWS: FactSource = {
  ref: 'https://cloud.google.com/ruby/docs/reference/google-cloud-container-v1beta1/latest/Google-Cloud-Container-V1beta1-WindowsNodeConfig-OSVersion',
  materialDate: 'undated',
  checked: CHECKED,
  says: 'google-cloud-container-v1beta1 0.49.1 (latest): WindowsNodeConfig::OSVersion constants OS_VERSION_UNSPECIFIED, OS_VERSION_LTSC2019, OS_VERSION_LTSC2022 (no LTSC2025)',
};
const GKE_WINDOWS_CONCEPTS: FactSource = {
  ref: 'https://docs.cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke',
  materialDate: 'undated',
  checked: CHECKED,
  says: '"You can build your Windows Server container node images using Windows Server Long-Term Servicing Channel (LTSC)"; "Windows Server node images and containers aren\'t available in GKE Autopilot mode"',
};
const AKS_MIGRATION = 'https://learn.microsoft.com/azure/aks/upgrade-windows-os';
const AKS_ANNUAL_CHANNEL_RETIREMENT: FactSource = {
  ref: githubFile(
    'MicrosoftDocs/azure-aks-docs',
    AKS_DOCS,
    'articles/aks/includes/windows-annual-channel-retirement.md',
  ),
  materialDate: AKS_DOCS_DATE,
  checked: CHECKED,
  says: 'ms.date 2026-02-05: "Starting on May 15, 2026, AKS no longer supports Windows Server Annual Channel (Preview) … On May 15, 2027, AKS will remove all existing Windows Server Annual Channel node images"; "Windows Server Annual Channel uses Windows Server 2022 base images, which will run on Windows Server 2022 and Windows Server 2025"',
};

/** A cloud's retirement of a release: the day it stops, what follows, and where to move. */
export interface CloudRetirement {
  /** From this day the cloud creates no new pools of the release, on any Kubernetes version. */
  readonly on: IsoDate;
  /**
   * From this day the cloud deletes the release's node images: existing pools can no longer scale.
   * @default - not announced
   */
  readonly imagesRemovedOn?: IsoDate;
  /** The cloud's migration guide. */
  readonly migration: string;
}

/** What a cloud offers for one Windows release. */
export interface CloudReleaseFacts extends Sourced {
  /** First Kubernetes minor (the `32` of 1.32) the cloud offers the release on. */
  readonly firstMinor: number;
  /**
   * Last Kubernetes minor the cloud offers the release on, when it has announced one.
   * @default - no end announced
   */
  readonly lastMinor?: number;
  /**
   * The cloud's retirement of the release, when announced.
   * @default - none announced
   */
  readonly retirement?: CloudRetirement;
  /** The cloud's name for the release: EKS amiTypes, AKS osSKU, GKE osversion. */
  readonly names: readonly string[];
}

/** `undefined`: the cloud does not offer the release at all. */
export const CLOUD_RELEASES: {
  readonly [C in Cloud]: { readonly [R in WindowsRelease]: CloudReleaseFacts | undefined };
} = {
  eks: {
    '2019': {
      firstMinor: 14,
      names: ['WINDOWS_CORE_2019_x86_64', 'WINDOWS_FULL_2019_x86_64'],
      sources: [EKS_AMI_VERSIONS, EKS_AMI_TYPES],
      note: 'No AWS retirement of the Windows Server 2019 EKS AMIs was found; eksctl sets no upper bound and Karpenter v1.15.3 still takes windows2019@latest.',
    },
    '2022': {
      firstMinor: 23,
      names: ['WINDOWS_CORE_2022_x86_64', 'WINDOWS_FULL_2022_x86_64'],
      sources: [EKS_AMI_VERSIONS, EKSCTL_2025, EKS_AMI_TYPES],
    },
    '2025': {
      firstMinor: 35,
      names: ['WINDOWS_CORE_2025_x86_64', 'WINDOWS_FULL_2025_x86_64'],
      sources: [EKS_AMI_VERSIONS, EKSCTL_2025, KARPENTER_AMI, EKS_AMI_TYPES],
    },
  },
  aks: {
    '2019': {
      firstMinor: 14,
      lastMinor: 32,
      retirement: { on: '2026-03-01', imagesRemovedOn: '2027-04-01', migration: AKS_MIGRATION },
      names: ['Windows2019'],
      sources: [AKS_2019_RETIREMENT, AKS_2019_CHANGELOG],
    },
    '2022': {
      firstMinor: 23,
      lastMinor: 36,
      retirement: { on: '2028-06-30', imagesRemovedOn: '2029-06-30', migration: AKS_MIGRATION },
      names: ['Windows2022'],
      sources: [AKS_OS_VERSIONS, AKS_2022_RETIREMENT],
    },
    '2025': { firstMinor: 32, names: ['Windows2025'], sources: [AKS_OS_VERSIONS, AKS_2025, AKS_2025_GA] },
  },
  gke: {
    '2019': { firstMinor: 14, names: ['OS_VERSION_LTSC2019'], sources: [GKE_WINDOWS, GKE_WINDOWS_CONCEPTS] },
    '2022': { firstMinor: 23, names: ['OS_VERSION_LTSC2022'], sources: [GKE_WINDOWS, GKE_WINDOWS_CONCEPTS] },
    '2025': undefined,
  },
};

/** From Kubernetes 1.`fromMinor` on, the release a pool gets when none is given. */
export interface DefaultReleaseStep {
  readonly fromMinor: number;
  readonly release: WindowsRelease;
}

/** The release our components pick on a cloud when none is given, by Kubernetes minor (steps oldest first). */
export interface CloudDefaultRelease extends Sourced {
  readonly steps: readonly DefaultReleaseStep[];
}

export const CLOUD_DEFAULT_RELEASES: { readonly [C in Cloud]: CloudDefaultRelease } = {
  eks: {
    steps: [{ fromMinor: 0, release: '2022' }],
    sources: [EKS_AMI_VERSIONS, EKS_AMI_TYPES],
    note: 'EKS has no default Windows AMI (the amiType is always named); 2022 is ours because EKS offers it on every minor that runs Windows, 2025 only from 1.35.',
  },
  aks: {
    steps: [
      { fromMinor: 0, release: '2022' },
      { fromMinor: 37, release: '2025' },
    ],
    sources: [
      AKS_DEFAULT_CHANGELOG,
      AKS_OS_VERSIONS,
      AKS_DEFAULT_BEST_PRACTICES,
      AKS_DEFAULT_QUICKSTART,
      AKS_2022_RETIREMENT,
    ],
    note: 'AKS disagrees with itself: its release notes (2026-07-17) make Windows2025 the default from 1.37; its docs (upgrade-os-version, windows-best-practices and the CLI and PowerShell quickstarts, all ms.date 2026-07-13) from 1.36. We take 1.37: the default changes only where Windows2022 is refused, and on 1.36 both releases are offered (a pool without osSKU on 1.36 may get either build: pin it).',
  },
  gke: {
    steps: [{ fromMinor: 0, release: '2022' }],
    sources: [GKE_WINDOWS],
    verified: false,
    note: "GKE's own default osversion when none is set is not documented; ours is LTSC2022, the newest GKE offers.",
  },
};

/** The default release step list's pick for Kubernetes 1.`minor`, or the oldest step's when the minor is unknown. */
export function cloudDefaultRelease(cloud: Cloud, minor: number | undefined): WindowsRelease {
  const steps = CLOUD_DEFAULT_RELEASES[cloud].steps;
  if (minor === undefined) return steps[0].release;
  let pick = steps[0].release;
  for (const step of steps) if (minor >= step.fromMinor) pick = step.release;
  return pick;
}

/**
 * The Karpenter `amiSelectorTerms` alias of each release; Windows families take only `latest`. `sinceKarpenter`: the
 * first karpenter-provider-aws release whose EC2NodeClass validation accepts the alias (windows2025 from v1.9.0; the
 * v1.8.x patch line, still released after it, never took it).
 */
export const KARPENTER_WINDOWS_ALIASES: { readonly [R in WindowsRelease]: string } & {
  readonly sinceKarpenter: { readonly [R in WindowsRelease]: string };
} & Sourced = {
  '2019': 'windows2019@latest',
  '2022': 'windows2022@latest',
  '2025': 'windows2025@latest',
  sinceKarpenter: { '2019': 'v1.0.0', '2022': 'v1.0.0', '2025': 'v1.9.0' },
  sources: [
    {
      ref: githubFile('aws/karpenter-provider-aws', 'v1.15.3', 'pkg/apis/v1/ec2nodeclass.go'),
      materialDate: '2026-11-19',
      checked: CHECKED,
      says: '"Valid families include: al2, al2023, bottlerocket, windows2019, windows2022, windows2025"; "windows families may only specify version \'latest\'" (Go module github.com/aws/karpenter-provider-aws@v1.15.3, 2026-11-19)',
    },
    {
      ref: githubFile('aws/karpenter-provider-aws', 'v1.9.0', 'pkg/apis/v1/ec2nodeclass.go'),
      materialDate: '2026-02-06',
      checked: CHECKED,
      says: "the first tag whose alias rule reads self.split('@')[0] in ['al2','al2023','bottlerocket','windows2019','windows2022','windows2025'] (added by 6eabbdd, \"feat: WS2025 support for karpenter (#8842)\", 2026-01-22)",
    },
    {
      ref: githubFile('aws/karpenter-provider-aws', 'v1.8.8', 'pkg/apis/v1/ec2nodeclass.go'),
      materialDate: '2026-07-15',
      checked: CHECKED,
      says: "the newest v1.8 patch: ['al2','al2023','bottlerocket','windows2019','windows2022'], no windows2025",
    },
    {
      ref: githubFile('aws/karpenter-provider-aws', 'v1.0.0', 'pkg/apis/v1/ec2nodeclass.go'),
      materialDate: '2024-08-14',
      checked: CHECKED,
      says: "the v1 API's first release: alias families ['al2','al2023','bottlerocket','windows2019','windows2022']",
    },
  ],
};

/**
 * AKS's Windows Server Annual Channel for Containers (osSKU `WindowsAnnual`, a preview): its 23H2 nodes (build
 * 10.0.25398) run Windows Server 2022 images. Retired on AKS on 2026-05-15 (no new pools; existing pools unaffected
 * until their images are deleted on 2027-05-15). Not a `WindowsRelease`: no component creates such a pool.
 */
export const AKS_WINDOWS_ANNUAL_CHANNEL: {
  readonly osSku: string;
  readonly build: string;
  readonly runsImagesOf: WindowsRelease;
  readonly retirement: CloudRetirement;
} & Sourced = {
  osSku: 'WindowsAnnual',
  build: '10.0.25398',
  runsImagesOf: '2022',
  retirement: { on: '2026-05-15', imagesRemovedOn: '2027-05-15', migration: AKS_MIGRATION },
  sources: [
    {
      ref: githubFile('MicrosoftDocs/azure-aks-docs', AKS_DOCS, 'articles/aks/windows-annual-channel.md'),
      materialDate: AKS_DOCS_DATE,
      checked: CHECKED,
      says: 'ms.date 2024-07-01: "set `os-sku` to `WindowsAnnual`"; the node shows "kubernetes.azure.com/node-image-version=AKSWindows-23H2-gen2" and "kubernetes.azure.com/os-sku=WindowsAnnual"',
    },
    {
      ...AKS_ANNUAL_CHANNEL_RETIREMENT,
    },
    {
      ref: AKS_CHANGELOG,
      materialDate: AKS_CHANGELOG_DATE,
      checked: CHECKED,
      says: 'release 2026-05-29: "Windows Server Annual Channel for Containers retired on AKS on May 15, 2026 … You will not be able to create new node pools with Windows Server Annual Channel. On May 15, 2027, AKS will remove all existing Windows Annual Channel node images"; release 2026-07-17: "AKS no longer supports creating node pools with Windows Server Annual Channel for Containers. Existing WSAnnual node pools are unaffected"; "AKS Windows Server Annual Channel 23H2 image has been updated to AKSWindows-2022-23H2-25398.1369.250117"',
    },
    {
      ref: githubFile('containerd/platforms', '4549974181760492ffc528fae4d7f29620a2c67c', 'platform_windows_compat.go'),
      materialDate: '2025-05-12',
      checked: CHECKED,
      says: '"v23H2 is the 23H2 release in the Windows Server annual channel. v23H2 = 25398"',
    },
  ],
  note: 'The generic osSKU "Windows" (a release chosen by AKS) is not in any source read on 2026-12-07 (azure-aks-docs of 2026-08-21, the AKS changelog of 2026-08-07, @pulumi/azure-native 3.28): unverified, not recorded.',
};

/** The public SSM parameter of the latest EKS-optimized Windows AMI, with `{release}`, `{variant}`, `{minor}`. */
export const EKS_WINDOWS_SSM_PARAMETER: { readonly template: string } & Sourced = {
  template:
    '/aws/service/ami-windows-latest/Windows_Server-{release}-English-{variant}-EKS_Optimized-1.{minor}/image_id',
  sources: [
    {
      ref: 'https://docs.amazonaws.cn/en_us/eks/latest/userguide/retrieve-windows-ami-id.md',
      materialDate: 'undated',
      checked: CHECKED,
      says: 'the image_id sub-parameter of the latest EKS optimized Windows AMI; release 2025, 2022 or 2019; installation option Core or Full',
    },
    {
      ref: githubFile('aws/karpenter-provider-aws', 'v1.15.3', 'pkg/providers/amifamily/windows.go', 52),
      materialDate: '2026-11-19',
      checked: CHECKED,
      says: '"/aws/service/ami-windows-latest/Windows_Server-%s-English-%s-EKS_Optimized-%s/image_id" with v1.WindowsCore',
    },
    {
      ...EKSCTL_2025,
      says: '"/aws/service/ami-windows-latest/Windows_Server-2025-English-%s-EKS_Optimized-%s/%s" (and 2022, 2019)',
    },
  ],
};

/** An EC2 instance family EKS does not run Windows nodes on. */
export interface NoWindowsFamily {
  readonly family: string;
  /** Sizes of the family that are offered after all (`m4.16xlarge`). */
  readonly except?: readonly string[];
  /**
   * `false`: only an older or third-party copy of the list names the family; it is a warning, not an error.
   * @default true
   */
  readonly verified?: boolean;
}

/**
 * Instance families without Windows for EKS nodes, as AWS's own EKS user guide listed them: C3, C4, D2, I2, M4 (but
 * m4.16xlarge) and R3 until 2022-01-20, with M6a.x added that day, until the whole list was dropped on 2023-04-17
 * (awsdocs/amazon-eks-user-guide history). The current page names none; the list is kept as AWS last gave it.
 */
export const EKS_NO_WINDOWS_FAMILIES: { readonly families: readonly NoWindowsFamily[] } & Sourced = {
  families: [
    { family: 'c3' },
    { family: 'c4' },
    { family: 'd2' },
    { family: 'i2' },
    { family: 'm4', except: ['m4.16xlarge'] },
    { family: 'm6a' },
    { family: 'r3' },
  ],
  sources: [
    {
      ref: githubFile(
        'awsdocs/amazon-eks-user-guide',
        '71b8a430ec98185e195c22aecaa6ce84af723272',
        'doc_source/windows-support.md',
      ),
      materialDate: '2022-01-20',
      checked: CHECKED,
      says: '"Amazon EC2 instance types C3, C4, D2, I2, M4 (excluding m4.16xlarge), M6a.x and R3 instances are not supported for Windows workloads" (the commit "Update windows support docs for instances suppported" added M6a.x to the list)',
    },
    {
      ref: 'https://github.com/awsdocs/amazon-eks-user-guide/commit/be86c1ab740bd81440216c245922d1bb19da2054',
      materialDate: '2023-04-17',
      checked: CHECKED,
      says: 'removes the line "Amazon EC2 instance types `C3`, `C4`, `D2`, `I2`, `M4` (excluding `m4.16xlarge`), `M6a.x`, and `R3` instances aren\'t supported for Windows workloads"',
    },
    {
      ref: githubFile(
        'awsdocs/amazon-eks-user-guide',
        'f60041409f8255b59682a2ca39382a2278e0e38b',
        'latest/ug/clusters/windows-support.adoc',
      ),
      materialDate: '2024-12-18',
      checked: CHECKED,
      says: 'the Windows support page names no instance families without Windows',
    },
  ],
  note: 'AWS no longer lists any family since 2023-04-17; these are the families of its last list, M6a among them from 2022-01-20.',
};
