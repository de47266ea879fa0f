/**
 * The k8s-windows CrossGuard policies (`k8s-windows/pulumi/policy`): `validateManifests` over a stack's Kubernetes
 * objects, and the node-pool and cluster checks over raw EKS, AKS and GKE resources. Importing this module starts
 * nothing; the pack program that does is `pack.ts` (point `pulumi preview --policy-pack` at a folder running it).
 */
export {
  windowsPolicies,
  createWindowsPolicies,
  windowsPolicyPackArgs,
  kubernetesDiagnostics,
  formatDiagnostic,
  formatFinding,
  locatedMessage,
  POLICY_NAMES,
  type WindowsPolicyPackOptions,
  type WindowsPoliciesOptions,
} from './policies';
export { manifestOf, kubernetesTypeOf, type StackManifest } from './manifests';
export {
  nodePoolFindings,
  clusterFindings,
  cloudResourceKind,
  declaresWindowsNodes,
  type CloudFinding,
  type CloudResourceKind,
  type StackResource,
} from './node-pools';
export { readProps, touchesUnknown, UNKNOWN_VALUE, type ReadProps, type UnknownMode } from './props';
export { runPolicies, type PolicyViolation, type RunPoliciesOptions } from './run';
export { cloudFindingSink, type RecordedFindings } from '../../core/rules/cloud-findings';
