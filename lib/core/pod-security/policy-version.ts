/**
 * Pod Security policy versions. Upstream registers each check with the first Kubernetes minor it applies to
 * (`VersionedCheck.MinimumVersion`); a namespace's `enforce-version` picks, per check, the newest revision at or
 * below it, and `latest` (or any newer version) means the newest registered revision.
 * Sources: kubernetes/kubernetes `staging/src/k8s.io/pod-security-admission/policy/registry.go` (version
 * clamping) and each `check_*.go` `Versions` list (the gates below). Checked 2026-11-27 against the published
 * k8s.io/pod-security-admission modules v0.34.0 to v0.37.0: 1.35 adds the user-namespace relaxations (and
 * procMount_restricted), 1.36 changes no check, 1.37 adds the two sysctls; no other `MinimumVersion` above 1.34.
 */
import { parseKubernetesMinor } from '../releases';

/**
 * The newest policy minor this module reproduces: `sysctls` gains a v1.37 revision
 * (kubernetes/kubernetes#138389, `net.ipv4.tcp_slow_start_after_idle`, `net.ipv4.tcp_notsent_lowat`).
 */
export const LATEST_POLICY_MINOR = 37;

/** The Kubernetes version string of {@link LATEST_POLICY_MINOR}. */
export const LATEST_POD_SECURITY_POLICY_VERSION = `1.${LATEST_POLICY_MINOR}`;

/** The minors at which a check starts or changes (upstream `MinimumVersion`s). */
export const POLICY_GATES = {
  /** check_allowPrivilegeEscalation.go: restricted requires allowPrivilegeEscalation=false from 1.8. */
  allowPrivilegeEscalation: 8,
  /** check_seccompProfile_*.go: the seccompProfile fields replace the alpha annotations from 1.19. */
  seccompFields: 19,
  /** check_capabilities_restricted.go: restricted requires drop ALL from 1.22. */
  capabilitiesRestricted: 22,
  /** check_runAsUser.go: restricted forbids runAsUser=0 from 1.23. */
  runAsUser: 23,
  /** allowPrivilegeEscalation, capabilities_restricted, seccompProfile_restricted skip `spec.os.name: windows` from 1.25. */
  windowsExemptions: 25,
  /** check_sysctls.go: net.ipv4.ip_local_reserved_ports is safe from 1.27. */
  sysctls127: 27,
  /** check_sysctls.go: tcp_keepalive_time, tcp_fin_timeout, tcp_keepalive_intvl, tcp_keepalive_probes from 1.29. */
  sysctls129: 29,
  /** check_seLinuxOptions.go: container_engine_t is allowed from 1.31. */
  seLinuxEngineType: 31,
  /** check_sysctls.go: net.ipv4.tcp_rmem and net.ipv4.tcp_wmem are safe from 1.32 (kubernetes/kubernetes#127489). */
  sysctls132: 32,
  /** check_hostProbesAndhostLifecycle.go: a `host` on probes and lifecycle handlers is forbidden from 1.34. */
  probeHost: 34,
  /**
   * check_runAsNonRoot.go, check_runAsUser.go, check_procMount_*.go: from 1.35 pods with `hostUsers: false` skip
   * runAsNonRoot and runAsUser, baseline allows any procMount for them, and restricted keeps procMount Default.
   */
  userNamespaces: 35,
  /** check_sysctls.go: net.ipv4.tcp_slow_start_after_idle and net.ipv4.tcp_notsent_lowat are safe from 1.37. */
  sysctls137: 37,
} as const;

/** The policy minor to evaluate for a user-supplied Kubernetes version (clamped to what this module knows). */
export function resolvePolicyMinor(kubernetesVersion: unknown): number {
  const minor = typeof kubernetesVersion === 'string' ? parseKubernetesMinor(kubernetesVersion) : undefined;
  if (minor === undefined || !Number.isSafeInteger(minor)) return LATEST_POLICY_MINOR;
  return Math.min(minor, LATEST_POLICY_MINOR);
}
