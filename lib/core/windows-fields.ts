/**
 * The fields the API server forbids on Windows pods, as data (kube-apiserver
 * `pkg/apis/core/validation/validation.go`, `validateWindows` and `validatePodResources`). Both `toWindowsPodSpec`
 * and the `windows-forbidden-field` rules read this table, so the two cannot disagree.
 * Checked 2026-11-27 at the tags v1.35.0, v1.36.0 and v1.37.0 (the k8s.io/kubernetes module of each): every line
 * of validation.go that names Windows is the same in the three, and `validateWindows` forbids the same fields; 1.37
 * only reads hostUsers, hostPID, hostIPC and shareProcessNamespace from the pod spec instead of inside the
 * securityContext check (kubernetes/kubernetes's internal types moved them), which forbids the same values.
 * Pod-level `resources` on a Windows pod is refused from 1.34 ({@link POD_RESOURCES_REFUSED_FROM_MINOR}), unchanged to
 * 1.37.
 */

/** Pod-level `spec.securityContext` fields forbidden when `spec.os.name` is windows. */
export const FORBIDDEN_POD_SECURITY_FIELDS = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'supplementalGroupsPolicy',
  'seLinuxChangePolicy',
] as const;
export type ForbiddenPodSecurityField = (typeof FORBIDDEN_POD_SECURITY_FIELDS)[number];

/**
 * `spec.securityContext.sysctls` is forbidden only when non-empty; listed apart so the rule can say so.
 */
export const FORBIDDEN_POD_SYSCTLS = 'sysctls';

/**
 * Pod-level `spec` fields forbidden for Windows pods, with the values the API server rejects:
 * `any` = set at all (even `false`), `true` = only when true.
 */
export const FORBIDDEN_POD_FIELDS = {
  hostUsers: 'any',
  hostPID: 'true',
  hostIPC: 'true',
  shareProcessNamespace: 'any',
} as const satisfies Record<string, 'any' | 'true'>;
export type ForbiddenPodField = keyof typeof FORBIDDEN_POD_FIELDS;

/** Container `securityContext` fields forbidden on every init, regular and ephemeral container of a Windows pod. */
export const FORBIDDEN_CONTAINER_SECURITY_FIELDS = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
] as const;
export type ForbiddenContainerSecurityField = (typeof FORBIDDEN_CONTAINER_SECURITY_FIELDS)[number];

/**
 * The API server's words for these fields (validation.go: `field.Forbidden(path, "cannot be set for a windows pod")`).
 * @internal
 */
export const FORBIDDEN_DETAIL = 'cannot be set for a windows pod';
/**
 * `spec.resources` (pod-level resources) on a Windows pod (validation.go: "may not be set for a windows pod").
 * @internal
 */
export const POD_RESOURCES_FORBIDDEN_DETAIL = 'may not be set for a windows pod';

/**
 * The first Kubernetes minor whose API server refuses pod-level `spec.resources` on a Windows pod: validation.go
 * `validatePodResources` has no Windows check at v1.33.0 and has it at v1.34.0 (kubernetes/kubernetes#133046,
 * CHANGELOG-1.34: the Windows kubelet refuses such pods at admission from then too). In 1.32 and 1.33 the field
 * belongs to the alpha PodLevelResources gate, off by default (pkg/features/kube_features.go), and the API server
 * drops it while the gate is off. Checked 2026-11-27.
 */
export const POD_RESOURCES_REFUSED_FROM_MINOR = 34;

/** The Windows equivalent to suggest for each forbidden field, where there is one. */
export const WINDOWS_ALTERNATIVE: Readonly<Record<string, string>> = {
  runAsUser: "Use securityContext.windowsOptions.runAsUserName (e.g. 'ContainerUser') instead.",
  runAsGroup: 'Windows has no GIDs: remove it.',
  fsGroup: 'Windows has no GIDs: remove it; grant access with ACLs inside the image.',
  fsGroupChangePolicy: 'Remove it: Windows volumes take no fsGroup.',
  supplementalGroups: 'Windows has no GIDs: remove it.',
  supplementalGroupsPolicy: 'Remove it.',
  privileged:
    'Windows has no privileged containers: use a HostProcess container (windowsOptions.hostProcess) or remove it.',
  capabilities: 'Windows has no Linux capabilities: remove it.',
  readOnlyRootFilesystem: 'Windows cannot mount the root filesystem read-only: remove it.',
  allowPrivilegeEscalation: 'Remove it: Pod Security restricted exempts Windows pods from this check.',
  seccompProfile: 'Remove it: Pod Security restricted exempts Windows pods from this check.',
  seLinuxOptions: 'Remove it: SELinux does not exist on Windows.',
  seLinuxChangePolicy: 'Remove it: SELinux does not exist on Windows.',
  appArmorProfile: 'Remove it: AppArmor does not exist on Windows.',
  procMount: 'Remove it.',
  sysctls: 'Remove it: Windows has no sysctls.',
  hostUsers: 'Remove it: user namespaces do not exist on Windows.',
  hostPID: 'Remove it: Windows pods cannot share the host PID namespace.',
  hostIPC: 'Remove it: Windows pods cannot share the host IPC namespace.',
  shareProcessNamespace: 'Remove it (even `false` is refused): Windows pods cannot share a process namespace.',
  resources: 'Set resources on each container instead.',
};
