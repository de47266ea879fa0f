/**
 * The k8s-windows CrossGuard policies, built from the same rules as `validateManifests` and the node-pool
 * components. Each concern comes as a mandatory policy (errors: the API server or the node refuses it) and an
 * advisory one (warnings and advice), since a policy has one enforcement level.
 *
 * This module never constructs a `PolicyPack` (that starts a gRPC server which never exits): `pack.ts` does.
 */
import type {
  EnforcementLevel,
  Policies,
  PolicyConfigSchema,
  PolicyPackArgs,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import { RULES_BY_ID, validateManifests } from '../../core/validate';
import { CLOUDS } from '../../core/cloud-gates';
import type { ValidationIssue } from '../../core/errors';
import { applyRuleSetting, readSettings, RULE_SETTINGS } from '../../core/validate/settings';
import { WINDOWS_RELEASES } from '../../core/releases';
import type { Diagnostic, RuleSetting, ValidateOptions } from '../../core/validate/types';
import { manifestOf, type StackManifest } from './manifests';
import { clusterFindings, nodePoolFindings, type CloudFinding, type StackResource } from './node-pools';
import { touchesUnknown } from './props';

/** Policy names, stable: users configure and waive policies by name. */
export const POLICY_NAMES = {
  kubernetes: 'windows-kubernetes',
  kubernetesAdvice: 'windows-kubernetes-advice',
  nodePools: 'windows-node-pools',
  nodePoolsAdvice: 'windows-node-pools-advice',
  clusters: 'windows-clusters',
  clustersAdvice: 'windows-clusters-advice',
} as const;

/** Configuration of the Kubernetes policies (`pulumi preview --policy-pack-config`), passed to `validateManifests`. */
export interface WindowsKubernetesPolicyConfig {
  /**
   * Disable or re-level rules by id (`{ "windows-startup-probe": "off" }`).
   * @default {}
   */
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  /**
   * The Windows release of the cluster's Windows nodes, for image checks of pods that do not pin one.
   * @default - unknown
   */
  readonly windowsRelease?: string;
  /**
   * The cluster's Kubernetes version (`1.32`), for version-dependent rules.
   * @default - the newest rules
   */
  readonly kubernetesVersion?: string;
  /**
   * The cloud the stack's cluster runs on (`eks`, `aks`, `gke`): advice that depends on its Windows node defaults
   * becomes a warning there (GKE taints Windows nodes; EKS reads the kubernetes.io/os nodeSelector).
   * @default - unknown: such advice stays info
   */
  readonly cloud?: string;
}

const KUBERNETES_CONFIG_SCHEMA: PolicyConfigSchema = {
  properties: {
    rules: {
      type: 'object',
      additionalProperties: { type: 'string', enum: [...RULE_SETTINGS] },
    },
    windowsRelease: { type: 'string', enum: [...WINDOWS_RELEASES] },
    kubernetesVersion: { type: 'string' },
    cloud: { type: 'string', enum: [...CLOUDS] },
  },
};

/**
 * The policy config read by the engine's one settings reader (the same words and strictness as cdk8s.yaml and a
 * KRM functionConfig): options, and every problem with it (an unknown rule id the schema cannot catch).
 */
function validateOptionsFrom(config: WindowsKubernetesPolicyConfig | undefined): {
  options: ValidateOptions;
  issues: readonly ValidationIssue[];
} {
  const { settings, issues } = readSettings(config ?? {}, 'config', [
    'rules',
    'windowsRelease',
    'kubernetesVersion',
    'cloud',
  ]);
  return { options: settings, issues };
}

/** `[rule-id] Kind namespace/name: path: message Fix: ...`, and `(fixable: k8s-windows fix)` when it is. */
export function formatDiagnostic(d: Diagnostic): string {
  const r = d.resource;
  const where = `${r.kind ?? 'object'} ${r.namespace ? `${r.namespace}/` : ''}${r.name ?? '(unnamed)'}`;
  const fixable = RULES_BY_ID.get(d.ruleId)?.fixable !== undefined ? ' (fixable: k8s-windows fix)' : '';
  return `[${d.ruleId}] ${where}: ${d.path}: ${d.message}${d.fix ? ` Fix: ${d.fix}` : ''}${fixable}`;
}

/** `[rule-id] path: message Fix: ...` */
export function formatFinding(f: CloudFinding): string {
  return `[${f.ruleId}] ${f.path}: ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`;
}

/** Configuration of the node-pool and cluster policies: the cloud rules are re-levelled and turned off by id too. */
export interface WindowsCloudPolicyConfig {
  /**
   * Disable or re-level cloud rules by id (`{ "eks-windows-autoscaler-tags": "off" }`).
   * @default {}
   */
  readonly rules?: Readonly<Record<string, RuleSetting>>;
}

const CLOUD_CONFIG_SCHEMA: PolicyConfigSchema = {
  properties: {
    rules: { type: 'object', additionalProperties: { type: 'string', enum: [...RULE_SETTINGS] } },
  },
};

/**
 * The cloud policies' config, read by the engine's settings reader. Its problems are said by the mandatory
 * policy, once (`said` remembers them: a resource policy runs once per resource).
 */
function cloudRulesFrom(
  config: WindowsCloudPolicyConfig | undefined,
  level: Level,
  reportViolation: ReportViolation,
  said: Set<string>,
): Readonly<Record<string, RuleSetting>> | undefined {
  const { settings, issues } = readSettings(config ?? {}, 'config', ['rules']);
  if (level === 'mandatory') {
    for (const i of issues) {
      const text = `[policy config] ${i.path}: ${i.message}${i.fix ? ` Fix: ${i.fix}` : ''}`;
      if (!said.has(text)) reportViolation(text);
      said.add(text);
    }
  }
  return settings.rules;
}

/**
 * Every diagnostic of the stack's Kubernetes objects, validated together so cross-object rules (RuntimeClass,
 * gMSA spec and grant, namespace level, Services) see each other; each paired with the resource it is about.
 * Diagnostics that touch a value not known yet (preview) are left for `pulumi up`.
 */
export function kubernetesDiagnostics(
  resources: readonly StackResource[],
  options: ValidateOptions = {},
): { urn?: string; diagnostic: Diagnostic }[] {
  const manifests = resources.map(manifestOf).filter((m): m is StackManifest => m !== undefined);
  if (manifests.length === 0) return [];
  const out: { urn?: string; diagnostic: Diagnostic }[] = [];
  for (const d of validateManifests(
    manifests.map((m) => m.manifest),
    options,
  )) {
    // The finding's own location names the manifest it is about: no matching by kind and name.
    const owner = d.location !== undefined ? manifests[d.location.object] : undefined;
    if (owner && touchesUnknown(d.path, owner.unknownPaths)) continue;
    out.push(owner ? { urn: owner.urn, diagnostic: d } : { diagnostic: d });
  }
  return out;
}

type Level = 'mandatory' | 'advisory';
const isErrorSeverity = (severity: string): boolean => severity === 'error';
const wanted = (level: Level, severity: string): boolean => (level === 'mandatory') === isErrorSeverity(severity);

function kubernetesPolicy(level: Level): StackValidationPolicy {
  return {
    name: level === 'mandatory' ? POLICY_NAMES.kubernetes : POLICY_NAMES.kubernetesAdvice,
    description:
      level === 'mandatory'
        ? 'Kubernetes objects the API server would reject for Windows pods, or that cannot run on Windows nodes.'
        : 'Kubernetes objects that run on Windows badly or fragilely (warnings), and Windows advice.',
    enforcementLevel: level,
    configSchema: KUBERNETES_CONFIG_SCHEMA,
    validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
      const { options, issues } = validateOptionsFrom(args.getConfig<WindowsKubernetesPolicyConfig>());
      // A config problem is said once, by the mandatory policy, and the rest still runs on what could be read.
      if (level === 'mandatory') {
        for (const i of issues)
          reportViolation(`[policy config] ${i.path}: ${i.message}${i.fix ? ` Fix: ${i.fix}` : ''}`);
      }
      for (const { urn, diagnostic } of kubernetesDiagnostics(args.resources, options)) {
        if (wanted(level, diagnostic.severity)) reportViolation(formatDiagnostic(diagnostic), urn);
      }
    },
  };
}

function nodePoolPolicy(level: Level): ResourceValidationPolicy {
  const said = new Set<string>();
  return {
    name: level === 'mandatory' ? POLICY_NAMES.nodePools : POLICY_NAMES.nodePoolsAdvice,
    description:
      level === 'mandatory'
        ? 'Windows node pools (EKS node groups, AKS agent pools, GKE node pools) the cloud refuses or that break Windows scheduling.'
        : 'Windows node pools that work badly: deprecated releases, small nodes, unpinned releases, missing autoscaler tags.',
    enforcementLevel: level,
    configSchema: CLOUD_CONFIG_SCHEMA,
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      const rules = cloudRulesFrom(args.getConfig<WindowsCloudPolicyConfig>(), level, reportViolation, said);
      for (const found of nodePoolFindings(args.type, args.props)) {
        const f = applyRuleSetting(found, rules);
        if (f && wanted(level, f.severity)) reportViolation(formatFinding(f));
      }
    },
  };
}

function clusterPolicy(level: Level): StackValidationPolicy {
  const said = new Set<string>();
  return {
    name: level === 'mandatory' ? POLICY_NAMES.clusters : POLICY_NAMES.clustersAdvice,
    description:
      level === 'mandatory'
        ? 'Clusters that cannot take the Windows pools the stack declares (AKS windowsProfile and Azure CNI; GKE Standard, VPC-native, a Linux pool).'
        : 'Cluster settings that make Windows pools fragile (AKS network plugin left to the default; no EKS VPC resource controller policy or Windows IPAM in the stack).',
    enforcementLevel: level,
    configSchema: CLOUD_CONFIG_SCHEMA,
    validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
      const rules = cloudRulesFrom(args.getConfig<WindowsCloudPolicyConfig>(), level, reportViolation, said);
      for (const { urn, finding } of clusterFindings(args.resources)) {
        const f = applyRuleSetting(finding, rules);
        if (f && wanted(level, f.severity)) reportViolation(formatFinding(f), urn);
      }
    },
  };
}

/** Every k8s-windows policy: mandatory and advisory pairs for Kubernetes objects, node pools and clusters. */
export const windowsPolicies: Policies = [
  kubernetesPolicy('mandatory'),
  kubernetesPolicy('advisory'),
  nodePoolPolicy('mandatory'),
  nodePoolPolicy('advisory'),
  clusterPolicy('mandatory'),
  clusterPolicy('advisory'),
];

export interface WindowsPolicyPackOptions {
  /**
   * Override every policy's enforcement level (`'advisory'` to try the pack without blocking deployments).
   * @default - mandatory for errors, advisory for warnings
   */
  readonly enforcementLevel?: EnforcementLevel;
  /**
   * Policies to leave out, by name (`POLICY_NAMES`).
   * @default []
   */
  readonly exclude?: readonly string[];
}

/**
 * The args of the k8s-windows policy pack, for `new PolicyPack('k8s-windows', windowsPolicyPackArgs())` in a pack
 * program (see `pack.ts`). Building the args starts nothing.
 */
export function windowsPolicyPackArgs(options: WindowsPolicyPackOptions = {}): PolicyPackArgs {
  const exclude = new Set(options.exclude ?? []);
  const policies = windowsPolicies
    .filter((p) => !exclude.has(p.name))
    .map((p) => (options.enforcementLevel !== undefined ? { ...p, enforcementLevel: options.enforcementLevel } : p));
  return {
    policies,
    description:
      'Windows containers on Kubernetes, correct by construction: Kubernetes objects, node pools and clusters.',
    displayName: 'k8s-windows',
    tags: ['kubernetes', 'windows'],
  };
}
