/**
 * A component's warnings from the cloud rule modules' findings: pure (no Pulumi SDK), so the check functions that
 * run without an engine (the AKS agent-pool and GKE node-pool checks) share it with the components.
 */
import type { WindowsWarning } from '../core/pod-spec';
import type { CloudFinding } from '../core/rules/cloud-findings';

/** The findings below error as warnings at the paths of the args (errors are refusals, reported elsewhere). */
export function findingWarnings(findings: readonly CloudFinding[]): WindowsWarning[] {
  return findings
    .filter((f) => f.severity !== 'error')
    .map(({ ruleId, messageId, path, message, fix }) => ({
      ruleId,
      ...(messageId !== undefined ? { messageId } : {}),
      path,
      message,
      ...(fix !== undefined ? { fix } : {}),
    }));
}
