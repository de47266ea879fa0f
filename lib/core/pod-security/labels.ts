/**
 * The Namespace labels Pod Security Admission reads (kubernetes.io/docs/concepts/security/pod-security-admission).
 */

/** The level the namespace enforces: `privileged`, `baseline` or `restricted`. */
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
/** The policy version the enforced level is checked at (`v1.30`, `latest`). */
export const POD_SECURITY_ENFORCE_VERSION_LABEL = 'pod-security.kubernetes.io/enforce-version';
