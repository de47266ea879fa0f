/**
 * The k8s-windows CrossGuard policies (`k8s-windows/pulumi/policy`): `validateManifests` over a stack's Kubernetes
 * objects, and the node-pool and cluster checks over raw EKS, AKS and GKE resources. Importing this module starts
 * nothing; the pack program that does is `pack.ts` (point `pulumi preview --policy-pack` at a folder running it).
 *
 * Named exports only: the policies (`createWindowsPolicies`, `windowsPolicyPackArgs`, `POLICY_NAMES`) and
 * `runPolicies` to run them on a mocked program; the findings sink is `cloudFindingSink` in `k8s-windows/pulumi`.
 * How the policies read resources stays in their modules.
 */
export {
  createWindowsPolicies,
  windowsPolicyPackArgs,
  POLICY_NAMES,
  type WindowsPolicyPackOptions,
  type WindowsPoliciesOptions,
} from './policies';
export { runPolicies, type PolicyViolation, type RunPoliciesOptions } from './run';
