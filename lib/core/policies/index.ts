/**
 * The admission policies (issue 26): the rules' CEL forms as ValidatingAdmissionPolicies the API server runs (and,
 * opted in, MutatingAdmissionPolicies for the sure fixes), with the cluster facts as their parameters, in the
 * objects' apply order. `k8s-windows policies`, the cdk8s construct and the Pulumi component all call
 * `generatePolicies`.
 */
import { WindowsValidationError, type ValidationIssue } from '../errors';
import { parseKubernetesMinor } from '../releases';
import { RULES_BY_ID } from '../validate/rules';
import { RULE_SETTINGS } from '../validate/settings';
import { ADMISSION_POLICY_VERSIONS } from './api-versions';
import { clusterFactsCrd, clusterFactsObject, readClusterFacts } from './cluster-facts';
import { mutatingPolicies } from './mutating';
import { DEFAULT_FACTS_NAME, validatingPolicies } from './validating';
import { POLICY_MODES, type PolicyObject, type PolicyOptions, type PolicySet } from './types';

export * from './types';
export { ADMISSION_POLICY_VERSIONS, type AdmissionPolicyVersions } from './api-versions';
export {
  checkClusterFacts,
  CLUSTER_FACTS_CRD_NAME,
  clusterFactsCrd,
  clusterFactsFromTargets,
  clusterFactsObject,
  readClusterFacts,
  type ClusterFactsPoolSource,
  type ResolvedClusterFacts,
  type ResolvedClusterFactsPool,
} from './cluster-facts';
export { MUTATING_VERSIONS, mutatingPolicies, mutatingPolicyName, type MutatingVersion } from './mutating';
export { podPrelude, runtimeClassPrelude, POLICY_SHAPES, SHAPE_RESOURCES, type PolicyShape } from './prelude';
export {
  celRules,
  DEFAULT_FACTS_NAME,
  DEFAULT_SYSTEM_NAMESPACES,
  OPT_OUT_LABEL,
  policyName,
  validationActions,
  validatingPolicies,
} from './validating';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Every problem of `options`, each naming the option, the value and the fix. */
export function checkPolicyOptions(options: PolicyOptions): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string, fix: string) => issues.push({ path, message, fix });
  if (options.mode !== undefined && !POLICY_MODES.includes(options.mode)) {
    bad('mode', `'${String(options.mode)}' is not a mode.`, `Use ${POLICY_MODES.join(', ')}.`);
  }
  if (options.mutatingVersion !== undefined && !['v1', 'v1beta1'].includes(options.mutatingVersion)) {
    bad(
      'mutatingVersion',
      `'${String(options.mutatingVersion)}' is not a MutatingAdmissionPolicy version.`,
      'Use v1 or v1beta1.',
    );
  }
  if (options.kubernetesVersion !== undefined) {
    const minor = parseKubernetesMinor(options.kubernetesVersion);
    const { validatingV1, mutatingV1beta1 } = ADMISSION_POLICY_VERSIONS;
    if (minor === undefined) {
      bad('kubernetesVersion', `'${options.kubernetesVersion}' is not a Kubernetes 1.x version.`, 'Write it as 1.30.');
    } else if (minor < validatingV1) {
      bad(
        'kubernetesVersion',
        `Kubernetes 1.${minor} does not serve ValidatingAdmissionPolicy as admissionregistration.k8s.io/v1 (GA in 1.${validatingV1}).`,
        `Upgrade the cluster to 1.${validatingV1} or later, or keep using lint in CI.`,
      );
    } else if (options.mutating === true && minor < mutatingV1beta1) {
      bad(
        'mutating',
        `Kubernetes 1.${minor} has no MutatingAdmissionPolicy (beta from 1.${mutatingV1beta1}, GA in 1.${ADMISSION_POLICY_VERSIONS.mutatingV1}).`,
        `Leave the mutating policies out, or upgrade the cluster to 1.${mutatingV1beta1} or later.`,
      );
    }
  }
  for (const [id, setting] of Object.entries(options.settings ?? {})) {
    if (!RULES_BY_ID.has(id)) bad(`settings.${id}`, `'${id}' is not a rule id.`, 'Name a rule of `k8s-windows rules`.');
    else if (!RULE_SETTINGS.includes(setting)) {
      bad(`settings.${id}`, `'${String(setting)}' is not a rule setting.`, `Use ${RULE_SETTINGS.join(', ')}.`);
    }
  }
  for (const [i, ns] of (options.systemNamespaces ?? []).entries()) {
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns)) {
      bad(`systemNamespaces[${i}]`, `'${ns}' is not a namespace name.`, "Lower-case letters, digits and '-'.");
    }
  }
  for (const [i, e] of (options.exclude ?? []).entries()) {
    if (typeof e.name !== 'string' || e.name === '')
      bad(`exclude[${i}].name`, "An exclusion needs the object's name.", 'Write { name, namespace?, kind? }.');
  }
  for (const [field, value] of [
    ['namePrefix', options.namePrefix],
    ['clusterFactsName', options.clusterFactsName],
  ] as const) {
    // A policy name is `<prefix>-runtimeclass-warn-cluster`: the prefix leaves room for the longest suffix.
    if (value !== undefined && (!DNS_SUBDOMAIN.test(value) || value.length > 200)) {
      bad(
        field,
        `'${value}' is not a DNS subdomain name.`,
        "Lower-case letters, digits, '-' and '.', at most 200 characters.",
      );
    }
  }
  if (options.clusterFacts !== undefined) issues.push(...readClusterFacts(options.clusterFacts, 'clusterFacts').issues);
  return issues;
}

/** The MutatingAdmissionPolicy version for the options: theirs, else the cluster version's, else v1. */
function mutatingVersionOf(options: PolicyOptions): 'v1' | 'v1beta1' {
  if (options.mutatingVersion !== undefined) return options.mutatingVersion;
  const minor = options.kubernetesVersion === undefined ? undefined : parseKubernetesMinor(options.kubernetesVersion);
  return minor !== undefined && minor < ADMISSION_POLICY_VERSIONS.mutatingV1 ? 'v1beta1' : 'v1';
}

const isBinding = (o: PolicyObject) => o.kind.endsWith('Binding');

/**
 * The policy set `options` asks for, in apply order: the WindowsClusterFacts CRD and object (with cluster facts),
 * the policies, then their bindings. Throws a WindowsValidationError naming every bad option.
 */
export function generatePolicies(options: PolicyOptions = {}): PolicySet {
  const issues = checkPolicyOptions(options);
  if (issues.length > 0) throw new WindowsValidationError(issues, 'admission policy options');
  const validating = validatingPolicies(options);
  const mutating =
    options.mutating === true ? mutatingPolicies({ ...options, mutatingVersion: mutatingVersionOf(options) }) : [];
  const all = [...validating, ...mutating];
  const facts =
    options.clusterFacts !== undefined
      ? [clusterFactsCrd(), clusterFactsObject(options.clusterFacts, options.clusterFactsName ?? DEFAULT_FACTS_NAME)]
      : [];
  return { objects: [...facts, ...all.filter((o) => !isBinding(o)), ...all.filter(isBinding)] };
}
