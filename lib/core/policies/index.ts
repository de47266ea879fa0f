/**
 * The admission policies (issue 26): the rules' CEL forms as ValidatingAdmissionPolicies the API server runs (and,
 * opted in, MutatingAdmissionPolicies for the sure fixes), with the cluster facts as their parameters, in the
 * objects' apply order. `k8s-windows policies`, the cdk8s construct and the Pulumi component all call
 * `generatePolicies`.
 */
import { WindowsValidationError } from '../errors';
import { parseKubernetesMinor } from '../releases';
import { ADMISSION_POLICY_VERSIONS } from './api-versions';
import { clusterFactsCrd, clusterFactsObject } from './cluster-facts';
import { mutatingPolicies } from './mutating';
import { DEFAULT_FACTS_NAME, validatingPolicies } from './validating';
import { checkPolicyOptions } from './options';
import type { PolicyObject, PolicyOptions, PolicySet } from './types';

export * from './types';
export { checkPolicyOptions } from './options';
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

/** The MutatingAdmissionPolicy version for the options: theirs, else the cluster version's, else v1. */
function mutatingVersionOf(options: PolicyOptions): 'v1' | 'v1beta1' {
  if (options.mutatingVersion !== undefined) return options.mutatingVersion;
  const minor = options.kubernetesVersion === undefined ? undefined : parseKubernetesMinor(options.kubernetesVersion);
  return minor !== undefined && minor < ADMISSION_POLICY_VERSIONS.mutatingV1 ? 'v1beta1' : 'v1';
}

const isBinding = (o: PolicyObject) => o.kind.endsWith('Binding');
const readsClusterFacts = (o: PolicyObject) =>
  typeof o.spec === 'object' && o.spec !== null && (o.spec as { paramKind?: unknown }).paramKind !== undefined;

/**
 * The policy set `options` asks for, in apply order: the WindowsClusterFacts CRD (when a policy reads the facts)
 * and object (with cluster facts), the policies, then their bindings. Throws a WindowsValidationError naming every bad option.
 */
export function generatePolicies(options: PolicyOptions = {}): PolicySet {
  const issues = checkPolicyOptions(options);
  if (issues.length > 0) throw new WindowsValidationError(issues, 'admission policy options');
  const validating = validatingPolicies(options);
  const mutating =
    options.mutating === true ? mutatingPolicies({ ...options, mutatingVersion: mutatingVersionOf(options) }) : [];
  const all = [...validating, ...mutating];
  // The CRD goes with any policy that reads the facts, so a facts object can be applied later (until then those
  // policies pass: parameterNotFoundAction Allow) and the API server never sees a paramKind it cannot resolve.
  const readsFacts = options.clusterFacts !== undefined || all.some(readsClusterFacts);
  const facts = [
    ...(readsFacts ? [clusterFactsCrd()] : []),
    ...(options.clusterFacts !== undefined
      ? [clusterFactsObject(options.clusterFacts, options.clusterFactsName ?? DEFAULT_FACTS_NAME)]
      : []),
  ];
  return { objects: [...facts, ...all.filter((o) => !isBinding(o)), ...all.filter(isBinding)] };
}
