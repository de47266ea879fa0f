/**
 * Pod Security Admission (https://kubernetes.io/docs/concepts/security/pod-security-standards/): a Windows pod in a Namespace of the set is checked against the
 * namespace's `pod-security.kubernetes.io/enforce` level, at the namespace's `enforce-version`.
 */
import {
  POD_SECURITY_ENFORCE_LABEL,
  POD_SECURITY_ENFORCE_VERSION_LABEL,
  POD_SECURITY_LEVELS,
  podSecurityViolations,
  type PodSecurityLevel,
} from '../../pod-security';
import type { SetIndex } from '../context';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import type { ValidateOptions } from '../types';
import { rec, stringMap } from '../util';

function isLevel(v: string | undefined): v is PodSecurityLevel {
  return v !== undefined && (POD_SECURITY_LEVELS as readonly string[]).includes(v);
}

export function checkPodSecurity(p: PodFacts, index: SetIndex, options: ValidateOptions, report: Report): void {
  if (!p.windows) return;
  const ns = index.namespaces.get(p.namespace);
  if (!ns) return;
  const labels = stringMap(rec(ns, 'metadata'), 'labels');
  const enforce = labels[POD_SECURITY_ENFORCE_LABEL];
  if (!isLevel(enforce) || enforce === 'privileged') return;
  const pinned = labels[POD_SECURITY_ENFORCE_VERSION_LABEL];
  const version = pinned !== undefined && pinned !== 'latest' ? pinned : options.kubernetesVersion;
  let violations;
  try {
    violations = podSecurityViolations(p.obj, typeof version === 'string' ? { kubernetesVersion: version } : {});
  } catch {
    return;
  }
  for (const v of violations) {
    // A restricted namespace refuses both kinds; a baseline one only what breaks baseline.
    if (enforce === 'baseline' && v.level !== 'baseline') continue;
    const hostProcessHint =
      v.check === 'windowsHostProcess' || (p.hostProcess && v.check === 'hostNamespaces')
        ? ` HostProcess pods need a namespace labelled ${POD_SECURITY_ENFORCE_LABEL}: privileged.`
        : '';
    report(
      'pod-security-level',
      v.path,
      `Namespace '${p.namespace}' enforces Pod Security '${enforce}', which rejects this pod: ${v.message}`,
      `${v.fix}${hostProcessHint}`,
    );
  }
}
