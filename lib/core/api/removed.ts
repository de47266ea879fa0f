/**
 * Removed API versions: which Kubernetes minor stopped serving an apiVersion of a kind, and what replaces it, from
 * the Deprecated API Migration Guide (https://kubernetes.io/docs/reference/using-api/deprecation-guide/) up to 1.32,
 * and for the betas removed since from Kubernetes itself: each removed beta's `APILifecycleRemoved` (and
 * `APILifecycleReplacement`) in kubernetes/api `<group>/<version>/zz_generated.prerelease-lifecycle.go` of the
 * release before, and its absence from `api/openapi-spec/swagger.json` at the release tag (checked 2026-11-27).
 * Whether a version serves a kind at all comes from the generated schema (./schema.ts); this table only words the
 * message (since when, instead what), including for removals older than the schema data. Alpha versions dropped
 * without a deprecation (scheduling.k8s.io/v1alpha2 in 1.37, say) are not listed: the schema data words those.
 */

export interface RemovedApi {
  readonly apiVersion: string;
  readonly kinds: readonly string[];
  /** The minor that no longer serves it. */
  readonly removedIn: number;
  /** The apiVersion to migrate to; absent when the API is gone with no replacement. */
  readonly replacement?: string;
  /** What to do instead when there is no replacement apiVersion. */
  readonly note?: string;
}

const WORKLOADS = ['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'];

/**
 * https://kubernetes.io/docs/reference/using-api/deprecation-guide/ (sections v1.16 to v1.32); 1.33 on from
 * kubernetes/api's prerelease lifecycle (see the top of this file).
 */
export const REMOVED_APIS: readonly RemovedApi[] = [
  // v1.16
  {
    apiVersion: 'extensions/v1beta1',
    kinds: ['Deployment', 'DaemonSet', 'ReplicaSet'],
    removedIn: 16,
    replacement: 'apps/v1',
  },
  { apiVersion: 'apps/v1beta1', kinds: WORKLOADS, removedIn: 16, replacement: 'apps/v1' },
  { apiVersion: 'apps/v1beta2', kinds: WORKLOADS, removedIn: 16, replacement: 'apps/v1' },
  { apiVersion: 'extensions/v1beta1', kinds: ['NetworkPolicy'], removedIn: 16, replacement: 'networking.k8s.io/v1' },
  { apiVersion: 'extensions/v1beta1', kinds: ['PodSecurityPolicy'], removedIn: 16, replacement: 'policy/v1beta1' },
  // v1.22
  { apiVersion: 'extensions/v1beta1', kinds: ['Ingress'], removedIn: 22, replacement: 'networking.k8s.io/v1' },
  {
    apiVersion: 'networking.k8s.io/v1beta1',
    kinds: ['Ingress', 'IngressClass'],
    removedIn: 22,
    replacement: 'networking.k8s.io/v1',
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1beta1',
    kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
    removedIn: 22,
    replacement: 'admissionregistration.k8s.io/v1',
  },
  {
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    kinds: ['CustomResourceDefinition'],
    removedIn: 22,
    replacement: 'apiextensions.k8s.io/v1',
  },
  {
    apiVersion: 'apiregistration.k8s.io/v1beta1',
    kinds: ['APIService'],
    removedIn: 22,
    replacement: 'apiregistration.k8s.io/v1',
  },
  {
    apiVersion: 'authentication.k8s.io/v1beta1',
    kinds: ['TokenReview'],
    removedIn: 22,
    replacement: 'authentication.k8s.io/v1',
  },
  {
    apiVersion: 'authorization.k8s.io/v1beta1',
    kinds: ['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SubjectAccessReview', 'SelfSubjectRulesReview'],
    removedIn: 22,
    replacement: 'authorization.k8s.io/v1',
  },
  {
    apiVersion: 'certificates.k8s.io/v1beta1',
    kinds: ['CertificateSigningRequest'],
    removedIn: 22,
    replacement: 'certificates.k8s.io/v1',
  },
  { apiVersion: 'coordination.k8s.io/v1beta1', kinds: ['Lease'], removedIn: 22, replacement: 'coordination.k8s.io/v1' },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1beta1',
    kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    removedIn: 22,
    replacement: 'rbac.authorization.k8s.io/v1',
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1alpha1',
    kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    removedIn: 22,
    replacement: 'rbac.authorization.k8s.io/v1',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1beta1',
    kinds: ['PriorityClass'],
    removedIn: 22,
    replacement: 'scheduling.k8s.io/v1',
  },
  {
    apiVersion: 'storage.k8s.io/v1beta1',
    kinds: ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
    removedIn: 22,
    replacement: 'storage.k8s.io/v1',
  },
  // v1.25
  { apiVersion: 'batch/v1beta1', kinds: ['CronJob'], removedIn: 25, replacement: 'batch/v1' },
  {
    apiVersion: 'discovery.k8s.io/v1beta1',
    kinds: ['EndpointSlice'],
    removedIn: 25,
    replacement: 'discovery.k8s.io/v1',
  },
  { apiVersion: 'events.k8s.io/v1beta1', kinds: ['Event'], removedIn: 25, replacement: 'events.k8s.io/v1' },
  {
    apiVersion: 'autoscaling/v2beta1',
    kinds: ['HorizontalPodAutoscaler'],
    removedIn: 25,
    replacement: 'autoscaling/v2',
  },
  { apiVersion: 'policy/v1beta1', kinds: ['PodDisruptionBudget'], removedIn: 25, replacement: 'policy/v1' },
  {
    apiVersion: 'policy/v1beta1',
    kinds: ['PodSecurityPolicy'],
    removedIn: 25,
    note: 'PodSecurityPolicy is gone: use Pod Security Admission (pod-security.kubernetes.io/* namespace labels)',
  },
  { apiVersion: 'node.k8s.io/v1beta1', kinds: ['RuntimeClass'], removedIn: 25, replacement: 'node.k8s.io/v1' },
  // v1.26
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    removedIn: 26,
    replacement: 'flowcontrol.apiserver.k8s.io/v1',
  },
  {
    apiVersion: 'autoscaling/v2beta2',
    kinds: ['HorizontalPodAutoscaler'],
    removedIn: 26,
    replacement: 'autoscaling/v2',
  },
  // v1.27
  {
    apiVersion: 'storage.k8s.io/v1beta1',
    kinds: ['CSIStorageCapacity'],
    removedIn: 27,
    replacement: 'storage.k8s.io/v1',
  },
  // v1.29
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    removedIn: 29,
    replacement: 'flowcontrol.apiserver.k8s.io/v1',
  },
  // v1.32
  {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    removedIn: 32,
    replacement: 'flowcontrol.apiserver.k8s.io/v1',
  },
  // v1.33: kubernetes/api v0.32.0 authentication/v1beta1 SelfSubjectReview APILifecycleRemoved 1.33; gone from the
  // v1.33.0 swagger.json.
  {
    apiVersion: 'authentication.k8s.io/v1beta1',
    kinds: ['SelfSubjectReview'],
    removedIn: 33,
    replacement: 'authentication.k8s.io/v1',
  },
  // v1.34: kubernetes/api v0.33.0 admissionregistration/v1beta1 APILifecycleRemoved 1.34; gone from v1.34.0's spec.
  {
    apiVersion: 'admissionregistration.k8s.io/v1beta1',
    kinds: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
    removedIn: 34,
    replacement: 'admissionregistration.k8s.io/v1',
  },
  // v1.35, v1.36: no beta or GA version removed, only alphas (certificates.k8s.io/v1alpha1 PodCertificateRequest,
  // storage.k8s.io/v1alpha1 VolumeAttributesClass, storagemigration.k8s.io/v1alpha1 in 1.35; scheduling.k8s.io/v1alpha1
  // Workload in 1.36), which the schema data words.
  // v1.37: kubernetes/api v0.36.0 networking/v1beta1 and storage/v1beta1 APILifecycleRemoved 1.37 (storage names
  // storage.k8s.io/v1 VolumeAttributesClass as the replacement); gone from v1.37.0's spec.
  {
    apiVersion: 'networking.k8s.io/v1beta1',
    kinds: ['IPAddress', 'ServiceCIDR'],
    removedIn: 37,
    replacement: 'networking.k8s.io/v1',
  },
  {
    apiVersion: 'storage.k8s.io/v1beta1',
    kinds: ['VolumeAttributesClass'],
    removedIn: 37,
    replacement: 'storage.k8s.io/v1',
  },
];

/** The removal of `apiVersion` `kind`, when the guide lists one. */
export function removedApi(apiVersion: string, kind: string): RemovedApi | undefined {
  return REMOVED_APIS.find((r) => r.apiVersion === apiVersion && r.kinds.includes(kind));
}

/** The groups of removed APIs (`extensions` is served by no minor the schema data covers). */
export const REMOVED_GROUPS: readonly string[] = [
  ...new Set(REMOVED_APIS.map((r) => r.apiVersion.slice(0, r.apiVersion.lastIndexOf('/')))),
];
