/**
 * Karpenter (AWS provider, v1 APIs) capacity for Windows nodes on EKS, as plain manifests: a `NodePool`
 * (`karpenter.sh/v1`) and the `EC2NodeClass` (`karpenter.k8s.aws/v1`) it launches from. Built here, with no
 * framework, so the Pulumi component, the cdk8s construct and GitOps users emit the same objects.
 * @see https://karpenter.sh/docs/concepts/nodepools/
 * @see https://karpenter.sh/docs/concepts/nodeclasses/
 */
import { IssueCollector } from './errors';
import { EKS_NO_WINDOWS_FAMILIES, KARPENTER_WINDOWS_ALIASES } from './facts/clouds';
import { ARCH_LABEL, OS_LABEL, WINDOWS_BUILD_LABEL } from './kube';
import { DEFAULT_WINDOWS_RELEASE, parseWindowsRelease, releaseInfo, type WindowsRelease } from './releases';
import { WINDOWS_TAINT, TAINT_EFFECTS, windowsNodeTarget, type Taint, type WindowsNodeTarget } from './target';

export const KARPENTER_NODE_POOL_API_VERSION = 'karpenter.sh/v1';
export const KARPENTER_NODE_CLASS_API_VERSION = 'karpenter.k8s.aws/v1';
export const KARPENTER_NODE_CLASS_GROUP = 'karpenter.k8s.aws';

/** Karpenter's capacity types. */
export type KarpenterCapacityType = 'on-demand' | 'spot' | 'reserved';
const CAPACITY_TYPES: readonly KarpenterCapacityType[] = ['on-demand', 'spot', 'reserved'];

/**
 * The `amiSelectorTerms` alias of each release (lib/core/facts/clouds.ts `KARPENTER_WINDOWS_ALIASES`):
 * EKS-optimized Windows Server Core AMIs. Windows families take only the version `latest` ("The Windows family
 * does not support pinning, so only `latest` is supported"; the CRD refuses anything else).
 * @see https://karpenter.sh/docs/concepts/nodeclasses/#specamiselectorterms
 */
export function karpenterWindowsAmiAlias(release: WindowsRelease): string {
  return KARPENTER_WINDOWS_ALIASES[release];
}

/**
 * Instance families EKS does not run Windows on (lib/core/facts/clouds.ts `EKS_NO_WINDOWS_FAMILIES`), kept out with
 * a `NotIn` requirement, unverified ones too: a narrower choice of families costs nothing.
 */
export const KARPENTER_NO_WINDOWS_FAMILIES: readonly string[] = EKS_NO_WINDOWS_FAMILIES.families.map((f) => f.family);

/** A selector term of `subnetSelectorTerms` / `securityGroupSelectorTerms`: tags, or an id. */
export interface KarpenterSelectorTerm {
  readonly tags?: Readonly<Record<string, string>>;
  readonly id?: string;
}

/** One `spec.template.spec.requirements` entry. */
export interface KarpenterRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';
  readonly values?: readonly string[];
}

export interface WindowsKarpenterOptions {
  /** Name of the `NodePool` and the `EC2NodeClass` (a lowercase DNS-1123 subdomain). */
  readonly name: string;
  /** The node IAM role's name (`EC2NodeClass.spec.role`); Karpenter creates the instance profile from it. */
  readonly role: string;
  /** Subnets to launch in, e.g. `[{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }]`. */
  readonly subnetSelectorTerms: readonly KarpenterSelectorTerm[];
  /** Security groups of the nodes, e.g. the cluster security group by id. */
  readonly securityGroupSelectorTerms: readonly KarpenterSelectorTerm[];
  /**
   * Windows Server release: the AMI alias (`windows2022@latest`) and the `node.kubernetes.io/windows-build`
   * requirement, so pods pinned to a build get matching nodes.
   * @default '2022'
   */
  readonly release?: WindowsRelease;
  /**
   * Labels the nodes get (`spec.template.metadata.labels`); `nodeTarget` selects them.
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Taints of the nodes, Kubernetes spelling.
   * @default [WINDOWS_TAINT] (`os=windows:NoSchedule`)
   */
  readonly taints?: readonly Taint[];
  /**
   * Capacity types Karpenter may buy.
   * @default ['on-demand']
   */
  readonly capacityTypes?: readonly KarpenterCapacityType[];
  /**
   * Instance categories (`karpenter.k8s.aws/instance-category`).
   * @default ['c', 'm', 'r']
   */
  readonly instanceCategories?: readonly string[];
  /**
   * Smallest instance generation (`karpenter.k8s.aws/instance-generation` Gt generation − 1).
   * @default 5 (Nitro generations; older families such as C4 and M4 do not run Windows on EKS)
   */
  readonly minInstanceGeneration?: number;
  /**
   * Further requirements, appended after the Windows ones (which cannot be overridden).
   * @default []
   */
  readonly requirements?: readonly KarpenterRequirement[];
  /**
   * Resource limits of the pool (`spec.limits`), e.g. `{ cpu: '100', memory: '400Gi' }`.
   * @default - none
   */
  readonly limits?: Readonly<Record<string, string>>;
  /**
   * Root volume size in GiB (`/dev/sda1`, gp3, encrypted).
   * @default 50 (what EKS gives Windows nodes)
   */
  readonly diskSize?: number;
  /**
   * How long a node lives (`720h`, `Never`).
   * @default '720h' (Karpenter's default)
   */
  readonly expireAfter?: string;
  /**
   * When Karpenter may consolidate nodes, and after how long.
   * @default { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '5m' }: Windows nodes boot slowly,
   *   so churn costs more than on Linux
   */
  readonly disruption?: {
    readonly consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
    readonly consolidateAfter?: string;
  };
  /**
   * Tags on the instances and volumes Karpenter launches.
   * @default {}
   */
  readonly tags?: Readonly<Record<string, string>>;
}

/** A Kubernetes object as plain data. */
export interface KarpenterManifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly [key: string]: unknown };
  readonly spec: Record<string, unknown>;
}

export interface WindowsKarpenterManifests {
  readonly nodePool: KarpenterManifest;
  readonly nodeClass: KarpenterManifest;
  /** The labels and taints the pool's nodes carry: build workloads from it. */
  readonly nodeTarget: WindowsNodeTarget;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Karpenter's duration pattern (`consolidateAfter`, `expireAfter`). */
const DURATION = /^(([0-9]+(s|m|h))+|Never)$/;
const DEFAULT_DISK_GIB = 50;
const MIN_DISK_GIB = 30;
const DEFAULT_CATEGORIES = ['c', 'm', 'r'];
const DEFAULT_MIN_GENERATION = 5;
/** Windows AMIs boot from `/dev/sda1`. */
const WINDOWS_ROOT_DEVICE = '/dev/sda1';
/** Label keys Karpenter refuses in `template.metadata.labels` or requirements (CRD validation rules). */
const RESTRICTED_LABEL = /^(karpenter\.sh\/nodepool|kubernetes\.io\/hostname)$|^([^/]*\.)?karpenter\.(sh|k8s\.aws)\//;
/** Requirement keys the pool sets itself. */
const OWNED_KEYS: ReadonlySet<string> = new Set([
  OS_LABEL,
  ARCH_LABEL,
  WINDOWS_BUILD_LABEL,
  'karpenter.sh/capacity-type',
]);

/**
 * The `NodePool` and `EC2NodeClass` for Windows nodes: the release's AMI alias, `kubernetes.io/os In [windows]`,
 * `kubernetes.io/arch In [amd64]` (Windows AMIs are x86_64 only), the release's build, families EC2 offers Windows
 * on, the Windows taint, and a gp3 root volume on `/dev/sda1`. Throws `WindowsValidationError` listing every bad
 * option.
 */
export function windowsKarpenterManifests(options: WindowsKarpenterOptions): WindowsKarpenterManifests {
  const issues = new IssueCollector();
  const o = (typeof options === 'object' && options !== null ? options : {}) as Partial<WindowsKarpenterOptions>;
  if (typeof o.name !== 'string' || !DNS_SUBDOMAIN.test(o.name) || o.name.length > 253) {
    issues.add(
      'name',
      `Name ${JSON.stringify(o.name)} is not a lowercase DNS-1123 subdomain.`,
      "Write e.g. 'windows'.",
    );
  }
  if (typeof o.role !== 'string' || o.role === '' || o.role.startsWith('arn:')) {
    issues.add(
      'role',
      `role ${JSON.stringify(o.role)} must be the node IAM role's name (EC2NodeClass spec.role), not empty and not an ARN.`,
      "Write the role name, e.g. 'KarpenterNodeRole-windows'.",
    );
  }
  checkSelectorTerms(issues, o.subnetSelectorTerms, 'subnetSelectorTerms');
  checkSelectorTerms(issues, o.securityGroupSelectorTerms, 'securityGroupSelectorTerms');
  const releaseValue = o.release ?? DEFAULT_WINDOWS_RELEASE;
  const parsed = parseWindowsRelease(releaseValue);
  if (!parsed.ok) issues.add('release', parsed.message, parsed.fix);
  const labels = o.labels ?? {};
  for (const key of Object.keys(labels)) {
    if (RESTRICTED_LABEL.test(key) || key === OS_LABEL || key === ARCH_LABEL || key === WINDOWS_BUILD_LABEL) {
      issues.add(
        `labels["${key}"]`,
        `Label ${key} is set by Karpenter or the kubelet (the CRD restricts the karpenter.sh and karpenter.k8s.aws domains).`,
        'Remove it.',
      );
    }
  }
  const taints = o.taints ?? [WINDOWS_TAINT];
  taints.forEach((t, i) => {
    if (!TAINT_EFFECTS.includes(t?.effect)) {
      issues.add(
        `taints[${i}].effect`,
        `Taint effect ${JSON.stringify(t?.effect)} is not a Kubernetes effect.`,
        `Use one of ${TAINT_EFFECTS.join(', ')}.`,
      );
    }
  });
  if (!taints.some((t) => t?.effect === 'NoSchedule' || t?.effect === 'NoExecute')) {
    issues.add(
      'taints',
      'The Windows NodePool has no NoSchedule or NoExecute taint: Karpenter would also place Linux pods without a kubernetes.io/os selector on Windows nodes.',
      "Keep the default taints ({ key: 'os', value: 'windows', effect: 'NoSchedule' }).",
    );
  }
  const capacityTypes = o.capacityTypes ?? ['on-demand'];
  if (
    !Array.isArray(capacityTypes) ||
    capacityTypes.length === 0 ||
    capacityTypes.some((c) => !CAPACITY_TYPES.includes(c))
  ) {
    issues.add(
      'capacityTypes',
      `Capacity types ${JSON.stringify(capacityTypes)} are not Karpenter capacity types.`,
      "Use 'on-demand', 'spot' or 'reserved'.",
    );
  }
  const minGeneration = o.minInstanceGeneration ?? DEFAULT_MIN_GENERATION;
  if (!Number.isInteger(minGeneration) || minGeneration < 1) {
    issues.add(
      'minInstanceGeneration',
      `minInstanceGeneration ${JSON.stringify(minGeneration)} is not a whole number ≥ 1.`,
      'Write e.g. 5.',
    );
  }
  (o.requirements ?? []).forEach((r, i) => {
    if (OWNED_KEYS.has(r?.key)) {
      issues.add(
        `requirements[${i}].key`,
        `Requirement ${r.key} is set by the Windows NodePool (os windows, arch amd64, the release's build, capacityTypes).`,
        r.key === 'karpenter.sh/capacity-type' ? 'Set capacityTypes instead.' : 'Remove it.',
      );
    }
  });
  const diskSize = o.diskSize ?? DEFAULT_DISK_GIB;
  if (!Number.isInteger(diskSize) || diskSize < MIN_DISK_GIB) {
    issues.add(
      'diskSize',
      `diskSize ${JSON.stringify(diskSize)} GiB is below the ${MIN_DISK_GIB} GiB Windows Server needs.`,
      `Use ${DEFAULT_DISK_GIB} or more.`,
    );
  }
  const expireAfter = o.expireAfter ?? '720h';
  if (!DURATION.test(expireAfter)) {
    issues.add(
      'expireAfter',
      `expireAfter '${expireAfter}' is not a Karpenter duration.`,
      "Write e.g. '720h' or 'Never'.",
    );
  }
  const consolidationPolicy = o.disruption?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized';
  const consolidateAfter = o.disruption?.consolidateAfter ?? '5m';
  if (consolidationPolicy !== 'WhenEmpty' && consolidationPolicy !== 'WhenEmptyOrUnderutilized') {
    issues.add(
      'disruption.consolidationPolicy',
      `Consolidation policy ${JSON.stringify(consolidationPolicy)} is not known.`,
      "Use 'WhenEmpty' or 'WhenEmptyOrUnderutilized'.",
    );
  }
  if (!DURATION.test(consolidateAfter)) {
    issues.add(
      'disruption.consolidateAfter',
      `consolidateAfter '${consolidateAfter}' is not a Karpenter duration.`,
      "Write e.g. '5m' or 'Never'.",
    );
  }
  issues.throwIfAny('windowsKarpenterManifests');

  const opts = options;
  const release = releaseValue;
  const info = releaseInfo(release);
  const nodeTarget = windowsNodeTarget({ release, labels, taints });
  const requirements: KarpenterRequirement[] = [
    { key: OS_LABEL, operator: 'In', values: ['windows'] },
    { key: ARCH_LABEL, operator: 'In', values: ['amd64'] },
    { key: WINDOWS_BUILD_LABEL, operator: 'In', values: [info.build] },
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: [...capacityTypes] },
    {
      key: 'karpenter.k8s.aws/instance-category',
      operator: 'In',
      values: [...(opts.instanceCategories ?? DEFAULT_CATEGORIES)],
    },
    { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: [String(minGeneration - 1)] },
    { key: 'karpenter.k8s.aws/instance-family', operator: 'NotIn', values: [...KARPENTER_NO_WINDOWS_FAMILIES] },
    ...(opts.requirements ?? []).map((r) => ({ ...r, ...(r.values ? { values: [...r.values] } : {}) })),
  ];
  const nodePool: KarpenterManifest = {
    apiVersion: KARPENTER_NODE_POOL_API_VERSION,
    kind: 'NodePool',
    metadata: { name: opts.name },
    spec: {
      template: {
        ...(Object.keys(labels).length > 0 ? { metadata: { labels: { ...labels } } } : {}),
        spec: {
          nodeClassRef: { group: KARPENTER_NODE_CLASS_GROUP, kind: 'EC2NodeClass', name: opts.name },
          requirements,
          taints: taints.map((t) => ({
            key: t.key,
            ...(t.value !== undefined ? { value: t.value } : {}),
            effect: t.effect,
          })),
          expireAfter,
        },
      },
      disruption: { consolidationPolicy, consolidateAfter },
      ...(opts.limits !== undefined ? { limits: { ...opts.limits } } : {}),
    },
  };
  const nodeClass: KarpenterManifest = {
    apiVersion: KARPENTER_NODE_CLASS_API_VERSION,
    kind: 'EC2NodeClass',
    metadata: { name: opts.name },
    spec: {
      amiSelectorTerms: [{ alias: karpenterWindowsAmiAlias(release) }],
      role: opts.role,
      subnetSelectorTerms: opts.subnetSelectorTerms.map(copyTerm),
      securityGroupSelectorTerms: opts.securityGroupSelectorTerms.map(copyTerm),
      blockDeviceMappings: [
        {
          deviceName: WINDOWS_ROOT_DEVICE,
          rootVolume: true,
          ebs: { volumeSize: `${diskSize}Gi`, volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
        },
      ],
      // IMDSv2 only, hop limit 2 so containers that need instance metadata still reach it (as the other pools).
      metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 2 },
      ...(opts.tags !== undefined && Object.keys(opts.tags).length > 0 ? { tags: { ...opts.tags } } : {}),
    },
  };
  return { nodePool, nodeClass, nodeTarget };
}

function copyTerm(term: KarpenterSelectorTerm): KarpenterSelectorTerm {
  return {
    ...(term.tags !== undefined ? { tags: { ...term.tags } } : {}),
    ...(term.id !== undefined ? { id: term.id } : {}),
  };
}

function checkSelectorTerms(issues: IssueCollector, terms: unknown, path: string): void {
  const fix = `Write e.g. [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }] or [{ id: '...' }].`;
  if (!Array.isArray(terms) || terms.length === 0) {
    issues.add(path, `${path} must list at least one selector term.`, fix);
    return;
  }
  terms.forEach((t: unknown, i) => {
    const term = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    const hasTags = typeof term.tags === 'object' && term.tags !== null && Object.keys(term.tags).length > 0;
    const hasId = typeof term.id === 'string' && term.id !== '';
    if (hasTags === hasId) {
      issues.add(`${path}[${i}]`, 'A selector term needs tags or an id (not both, not neither).', fix);
    } else if (
      hasTags &&
      Object.entries(term.tags as Record<string, unknown>).some(
        ([k, v]) => k === '' || typeof v !== 'string' || v === '',
      )
    ) {
      issues.add(`${path}[${i}].tags`, "Empty tag keys or values aren't supported.", fix);
    }
  });
}
