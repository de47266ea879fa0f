/**
 * The admission policies (issue 26): the rules' CEL forms as ValidatingAdmissionPolicies the API server runs, in
 * the objects' apply order. `k8s-windows policies`, the cdk8s construct and the Pulumi component all call
 * `generatePolicies`.
 */
import { validatingPolicies } from './validating';
import type { PolicyOptions, PolicySet } from './types';

export * from './types';
export { podPrelude, runtimeClassPrelude, POLICY_SHAPES, SHAPE_RESOURCES, type PolicyShape } from './prelude';
export { celRules, policyName, validationActions, validatingPolicies } from './validating';

/** The policy set `options` asks for, in apply order: policies, then their bindings. */
export function generatePolicies(options: PolicyOptions = {}): PolicySet {
  return { objects: validatingPolicies(options) };
}
