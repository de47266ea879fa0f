/**
 * A component's warnings from the cloud rule modules' findings: pure (no Pulumi SDK), so the check functions that
 * run without an engine (the AKS agent-pool and GKE node-pool checks) share it with the components.
 */
import type { WindowsWarning } from '../core/pod-spec';
import type { CloudFinding } from '../core/rules/cloud-findings';

/** The findings below error as warnings at the paths of the args (errors are refusals, reported elsewhere). */
export function findingWarnings(findings: readonly CloudFinding[]): WindowsWarning[] {
  return belowError(findings).map((f) => warningOf(f, { path: f.path }));
}

/**
 * `findingWarnings` for a pool component: a pool-wide finding (path `''`) has no path (node-pool.ts's
 * `NodePoolWarning`, written out here: that module imports this one).
 */
export function componentWarnings(
  findings: readonly CloudFinding[],
): (Omit<WindowsWarning, 'path'> & { readonly path?: string })[] {
  return belowError(findings).map((f) => warningOf(f, f.path !== '' ? { path: f.path } : {}));
}

function belowError(findings: readonly CloudFinding[]): CloudFinding[] {
  return findings.filter((f) => f.severity !== 'error');
}

function warningOf<P extends { readonly path?: string }>({ ruleId, messageId, message, fix }: CloudFinding, path: P) {
  return {
    ruleId,
    ...(messageId !== undefined ? { messageId } : {}),
    ...path,
    message,
    ...(fix !== undefined ? { fix } : {}),
  };
}
