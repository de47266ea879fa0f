/**
 * Pod Security Standards for any object that holds a pod spec: which level (`restricted`, `baseline`,
 * `privileged`) it meets, and which fields keep it from a stricter one — reproducing upstream Pod Security
 * Admission (kubernetes/kubernetes `staging/src/k8s.io/pod-security-admission/policy/check_*.go`), its version
 * gates and its Windows exemptions (https://kubernetes.io/docs/concepts/security/pod-security-standards/).
 */
import { locatePodSpec } from '../workloads';
import { levelOfViolations, podSpecSecurityViolations } from './evaluate';
import type { PodSecurityLevel, PodSecurityOptions, PodSecurityViolation } from './types';

export {
  POD_SECURITY_LEVELS,
  type PodSecurityCheckId,
  type PodSecurityCheckInfo,
  type PodSecurityLevel,
  type PodSecurityOptions,
  type PodSecurityViolation,
  type PodSpecSecurityOptions,
} from './types';
export { LATEST_POD_SECURITY_POLICY_VERSION } from './policy-version';
export { POD_SECURITY_ENFORCE_LABEL, POD_SECURITY_ENFORCE_VERSION_LABEL } from './labels';
export { POD_SECURITY_CHECKS, meetsPodSecurityLevel, podSpecSecurityViolations } from './evaluate';

/**
 * Every field of a Pod, workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController, Job,
 * CronJob) or PodTemplate that breaks the baseline or restricted level, with paths including the workload prefix.
 * Objects that hold no pod spec ask for nothing: `[]`. Never throws.
 */
export function podSecurityViolations(obj: unknown, options: PodSecurityOptions = {}): PodSecurityViolation[] {
  const location = locatePodSpec(obj);
  if (!location) return [];
  return podSpecSecurityViolations(location.spec, {
    ...(options ?? {}),
    specPath: location.path,
    podMetadata: location.podMetadata,
  });
}

/**
 * The strictest Pod Security Standards level the object's pods meet (with every looser level). Objects that hold
 * no pod spec create no pods and return `'restricted'`. Never throws.
 */
export function podSecurityLevel(obj: unknown, options: PodSecurityOptions = {}): PodSecurityLevel {
  return levelOfViolations(podSecurityViolations(obj, options));
}
