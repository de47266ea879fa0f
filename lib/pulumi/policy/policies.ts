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
  PolicyPackArgs,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import { RULES_BY_ID, validateManifests } from '../../core/validate';
import type { ValidationIssue } from '../../core/errors';
import { CONFIG_SETTINGS, loadConfig } from '../../core/config';
import { applyRuleSetting, readSettings, validateOptionsOf, type EngineSettings } from '../../core/validate/settings';
import type { Diagnostic, ValidateOptions } from '../../core/model/types';
import { manifestOf, type StackManifest } from './manifests';
import { clusterFindings, nodePoolFindings, type CloudFinding, type StackResource } from './node-pools';
import { touchesUnknown } from './props';
import { cloudFindingSink } from '../../core/rules/cloud-findings';

/** Policy names, stable: users configure and waive policies by name. */
export const POLICY_NAMES = {
  kubernetes: 'windows-kubernetes',
  kubernetesAdvice: 'windows-kubernetes-advice',
  nodePools: 'windows-node-pools',
  nodePoolsAdvice: 'windows-node-pools-advice',
  clusters: 'windows-clusters',
  clustersAdvice: 'windows-clusters-advice',
} as const;

/**
 * `path: message`, or the message alone when it already starts with the path: most messages name the value they
 * are about (`diskSize 20 GiB is below...`), and saying the path twice buries the message.
 */
export function locatedMessage(path: string, message: string): string {
  const restartsWithPath = path !== '' && message.startsWith(path) && /^(?:[\s:]|$)/.test(message.slice(path.length));
  return restartsWithPath || path === '' ? message : `${path}: ${message}`;
}

/** `[rule-id] Kind namespace/name: path: message Fix: ...`, and `(fixable: k8s-windows fix)` when it is. */
export function formatDiagnostic(d: Diagnostic): string {
  const r = d.resource;
  const where = `${r.kind ?? 'object'} ${r.namespace ? `${r.namespace}/` : ''}${r.name ?? '(unnamed)'}`;
  const fixable = RULES_BY_ID.get(d.ruleId)?.fixable !== undefined ? ' (fixable: k8s-windows fix)' : '';
  return `[${d.ruleId}] ${where}: ${locatedMessage(d.path, d.message)}${d.fix ? ` Fix: ${d.fix}` : ''}${fixable}`;
}

/** `[rule-id] path: message Fix: ...` */
export function formatFinding(f: CloudFinding): string {
  return `[${f.ruleId}] ${locatedMessage(f.path, f.message)}${f.fix ? ` Fix: ${f.fix}` : ''}`;
}

/**
 * Where the policies' settings come from: one config for every policy (the mandatory and advisory policy of a
 * concern must agree, or a rule raised to error would be reported by both).
 */
export interface WindowsPoliciesOptions {
  /**
   * The settings, as a config file holds them (`rules`, `suppressions`, `cloud`, `kubernetesVersion`,
   * `windowsRelease`), checked by the engine's settings reader.
   * @default - the k8s-windows config file: `.k8s-windows.yaml` found from the policy pack's working directory
   * upward, or the file `K8S_WINDOWS_CONFIG` names; none if absent
   */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/** The settings every policy reads, with the problems found in them (said once, by the mandatory policies). */
interface PolicySettings {
  readonly settings: EngineSettings;
  readonly issues: readonly string[];
}

function loadPolicySettings(options: WindowsPoliciesOptions): PolicySettings {
  const format = (i: ValidationIssue) => `[k8s-windows config] ${i.path}: ${i.message}${i.fix ? ` Fix: ${i.fix}` : ''}`;
  if (options.settings !== undefined) {
    const { settings, issues } = readSettings(options.settings, 'config', CONFIG_SETTINGS);
    return { settings, issues: issues.map(format) };
  }
  const config = loadConfig({ cwd: process.cwd(), env: process.env });
  return { settings: config?.settings ?? {}, issues: (config?.issues ?? []).map(format) };
}

/**
 * What a mandatory policy says about its settings, once per run: the config file's problems, and settings given
 * to the policy itself (`--policy-pack-config`), which k8s-windows no longer reads there.
 */
function settingsProblems(policyName: string, config: object | undefined, settings: PolicySettings): string[] {
  const own = Object.keys(config ?? {});
  return [
    ...settings.issues,
    ...(own.length > 0
      ? [
          `[policy config] ${policyName}: ${own.join(', ')} ${own.length === 1 ? 'is' : 'are'} not read here: k8s-windows takes its settings from .k8s-windows.yaml (one config for both policies of a concern, and for the CLI and the cdk8s plugin). Move ${own.length === 1 ? 'it' : 'them'} there.`,
        ]
      : []),
  ];
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

function kubernetesPolicy(level: Level, settings: () => PolicySettings): StackValidationPolicy {
  return {
    name: level === 'mandatory' ? POLICY_NAMES.kubernetes : POLICY_NAMES.kubernetesAdvice,
    description:
      level === 'mandatory'
        ? 'Kubernetes objects the API server would reject for Windows pods, or that cannot run on Windows nodes.'
        : 'Kubernetes objects that run on Windows badly or fragilely (warnings), and Windows advice.',
    enforcementLevel: level,
    validateStack: async (args: StackValidationArgs, reportViolation: ReportViolation) => {
      const resolved = settings();
      // A config problem is said once, by the mandatory policy, and the rest still runs on what could be read.
      if (level === 'mandatory') {
        for (const m of settingsProblems(POLICY_NAMES.kubernetes, args.getConfig<object>(), resolved))
          reportViolation(m);
      }
      // resolveImages in the config: the registries' answers first, for the image rules.
      const options = validateOptionsOf(resolved.settings);
      const images =
        resolved.settings.resolveImages === true
          ? await (
              await import('../../registry')
            ).resolveImageLookups(
              args.resources.map(manifestOf).flatMap((m) => (m !== undefined ? [m.manifest] : [])),
              resolved.settings,
            )
          : undefined;
      for (const { urn, diagnostic } of kubernetesDiagnostics(
        args.resources,
        images ? { ...options, images } : options,
      )) {
        if (wanted(level, diagnostic.severity)) reportViolation(formatDiagnostic(diagnostic), urn);
      }
    },
  };
}

/** Says each settings problem once: a resource policy runs once per resource. */
function sayOnce(reportViolation: ReportViolation, said: Set<string>, messages: readonly string[]): void {
  for (const m of messages) {
    if (!said.has(m)) reportViolation(m);
    said.add(m);
  }
}

function nodePoolPolicy(level: Level, settings: () => PolicySettings): ResourceValidationPolicy {
  const said = new Set<string>();
  return {
    name: level === 'mandatory' ? POLICY_NAMES.nodePools : POLICY_NAMES.nodePoolsAdvice,
    description:
      level === 'mandatory'
        ? 'Windows node pools (EKS node groups, AKS agent pools, GKE node pools) the cloud refuses or that break Windows scheduling.'
        : 'Windows node pools that work badly: deprecated releases, small nodes, unpinned releases, missing autoscaler tags.',
    enforcementLevel: level,
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      const resolved = settings();
      if (level === 'mandatory') {
        sayOnce(reportViolation, said, settingsProblems(POLICY_NAMES.nodePools, args.getConfig<object>(), resolved));
      }
      const rules = resolved.settings.rules;
      for (const found of nodePoolFindings(args.type, args.props)) {
        const f = applyRuleSetting(found, rules);
        if (f && wanted(level, f.severity)) {
          cloudFindingSink.report({ ...f, resource: args.urn });
          reportViolation(formatFinding(f));
        }
      }
    },
  };
}

function clusterPolicy(level: Level, settings: () => PolicySettings): StackValidationPolicy {
  const said = new Set<string>();
  return {
    name: level === 'mandatory' ? POLICY_NAMES.clusters : POLICY_NAMES.clustersAdvice,
    description:
      level === 'mandatory'
        ? 'Clusters that cannot take the Windows pools the stack declares (AKS windowsProfile and Azure CNI; GKE Standard, VPC-native, a Linux pool).'
        : 'Cluster settings that make Windows pools fragile (AKS network plugin left to the default; no EKS VPC resource controller policy or Windows IPAM in the stack).',
    enforcementLevel: level,
    validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
      const resolved = settings();
      if (level === 'mandatory') {
        sayOnce(reportViolation, said, settingsProblems(POLICY_NAMES.clusters, args.getConfig<object>(), resolved));
      }
      const rules = resolved.settings.rules;
      for (const { urn, finding } of clusterFindings(args.resources)) {
        const f = applyRuleSetting(finding, rules);
        if (f && wanted(level, f.severity)) {
          cloudFindingSink.report({ ...f, resource: urn });
          reportViolation(formatFinding(f), urn);
        }
      }
    },
  };
}

/**
 * The k8s-windows policies: mandatory and advisory pairs for Kubernetes objects, node pools and clusters, all
 * reading one set of settings (read once, at the first policy run).
 */
export function createWindowsPolicies(options: WindowsPoliciesOptions = {}): Policies {
  let loaded: PolicySettings | undefined;
  const settings = () => (loaded ??= loadPolicySettings(options));
  return [
    kubernetesPolicy('mandatory', settings),
    kubernetesPolicy('advisory', settings),
    nodePoolPolicy('mandatory', settings),
    nodePoolPolicy('advisory', settings),
    clusterPolicy('mandatory', settings),
    clusterPolicy('advisory', settings),
  ];
}

/** Every k8s-windows policy, with the settings of the config file found from the working directory. */
export const windowsPolicies: Policies = createWindowsPolicies();

export interface WindowsPolicyPackOptions extends WindowsPoliciesOptions {
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
  const policies = (options.settings !== undefined ? createWindowsPolicies(options) : windowsPolicies)
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
