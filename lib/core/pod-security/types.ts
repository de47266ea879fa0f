/**
 * The public shapes of the Pod Security Standards evaluation: levels, violations and options.
 * Levels and check ids are upstream's (k8s.io/pod-security-admission `api` and `policy/check_*.go`).
 */

/** A Pod Security Standards level, as in the `pod-security.kubernetes.io/enforce` namespace label. */
export type PodSecurityLevel = 'restricted' | 'baseline' | 'privileged';

/**
 * Every level, **most strict first**: a pod that meets a level also meets every level after it, so
 * `POD_SECURITY_LEVELS.indexOf(a) <= POD_SECURITY_LEVELS.indexOf(b)` means "a is at least as strict as b".
 */
export const POD_SECURITY_LEVELS: readonly PodSecurityLevel[] = ['restricted', 'baseline', 'privileged'];

/** The upstream check ids this module reproduces (`policy/check_*.go`, `Check.ID`). */
export type PodSecurityCheckId =
  | 'hostNamespaces'
  | 'privileged'
  | 'capabilities_baseline'
  | 'hostPathVolumes'
  | 'hostPorts'
  | 'appArmorProfile'
  | 'seLinuxOptions'
  | 'procMount'
  | 'seccompProfile_baseline'
  | 'sysctls'
  | 'windowsHostProcess'
  | 'hostProbesAndHostLifecycle'
  | 'restrictedVolumes'
  | 'allowPrivilegeEscalation'
  | 'runAsNonRoot'
  | 'runAsUser'
  | 'seccompProfile_restricted'
  | 'capabilities_restricted'
  | 'procMount_restricted';

/** One entry of the check catalogue. */
export interface PodSecurityCheckInfo {
  readonly id: PodSecurityCheckId;
  /** The level that forbids what the check finds. */
  readonly level: 'baseline' | 'restricted';
  /** The first policy version it applies to (`1.0`, `1.34`). */
  readonly since: string;
  /** One line. */
  readonly summary: string;
}

/** One field that keeps a pod from a level. */
export interface PodSecurityViolation {
  /**
   * The level this field breaks: `'baseline'` means the pod is only `privileged`; `'restricted'` means it can be
   * at most `baseline`.
   */
  readonly level: 'baseline' | 'restricted';
  /** The upstream check id (`hostNamespaces`, `runAsNonRoot`...). */
  readonly check: PodSecurityCheckId;
  /**
   * The field in API-server notation, including the workload prefix:
   * `spec.template.spec.containers[0].securityContext.privileged`, or
   * `spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]`.
   */
  readonly path: string;
  /** One sentence naming the bad value. */
  readonly message: string;
  /** What to write instead. */
  readonly fix: string;
}

export interface PodSecurityOptions {
  /**
   * The Kubernetes version (`1.30`, `v1.30.2`, `1.30.0-eks-1`) whose Pod Security policy to apply, as in the
   * `pod-security.kubernetes.io/enforce-version` label. Versions newer than the newest policy this module knows
   * use that newest policy, as upstream does.
   * @default - the newest policy (`latest`); an unparseable version also means `latest`
   */
  readonly kubernetesVersion?: string;
}

export interface PodSpecSecurityOptions extends PodSecurityOptions {
  /**
   * Where the pod spec sits in its object, for violation paths.
   * @default 'spec'
   */
  readonly specPath?: string;
  /**
   * The pod (template) metadata, for the AppArmor and seccomp annotations.
   * @default - no annotations
   */
  readonly podMetadata?: unknown;
  /**
   * Where the pod metadata sits in its object, for violation paths.
   * @default - `specPath` with its last segment replaced by `metadata` (`spec.template.spec` → `spec.template.metadata`)
   */
  readonly metadataPath?: string;
}
