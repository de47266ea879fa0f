/**
 * The admission policies (issue 26): the rules' CEL forms as ValidatingAdmissionPolicies the API server runs, in
 * the objects' apply order. `k8s-windows policies`, the cdk8s construct and the Pulumi component all call
 * `generatePolicies`.
 */
import { clusterFactsCrd, clusterFactsObject } from './cluster-facts';
import { mutatingPolicies } from './mutating';
import { validatingPolicies } from './validating';
import type { PolicyObject, PolicyOptions, PolicySet } from './types';

export * from './types';
export { podPrelude, runtimeClassPrelude, POLICY_SHAPES, SHAPE_RESOURCES, type PolicyShape } from './prelude';
export { celRules, policyName, validationActions, validatingPolicies } from './validating';
export {
  checkClusterFacts,
  CLUSTER_FACTS_API_VERSION,
  CLUSTER_FACTS_CRD_NAME,
  CLUSTER_FACTS_KIND,
  clusterFactsCrd,
  clusterFactsFromTargets,
  clusterFactsObject,
  DEFAULT_CLUSTER_FACTS_NAME,
  type ClusterFactsPoolSource,
  type ResolvedClusterFacts,
} from './cluster-facts';
export { MUTATING_VERSIONS, mutatingPolicies, mutatingPolicyName, type MutatingVersion } from './mutating';

const isBinding = (o: PolicyObject) => o.kind.endsWith('Binding');

/**
 * The policy set `options` asks for, in apply order: the facts CRD and object (with `clusterFacts`), the policies
 * (validating, then mutating when asked for), then their bindings. Throws `WindowsValidationError` for bad facts.
 */
export function generatePolicies(options: PolicyOptions = {}): PolicySet {
  const facts: PolicyObject[] =
    options.clusterFacts === undefined
      ? []
      : [clusterFactsCrd(), clusterFactsObject(options.clusterFacts, options.clusterFactsName)];
  const policies = [...validatingPolicies(options), ...mutatingPolicies(options)];
  return { objects: [...facts, ...policies.filter((o) => !isBinding(o)), ...policies.filter(isBinding)] };
}
