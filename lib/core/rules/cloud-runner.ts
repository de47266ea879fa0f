/**
 * The one runner of the cloud rules: every rule module's cloud check for a resource's kind, on its inputs. The
 * policy pack runs it on provider resources, the components on what they are about to create.
 */
import { RULE_MODULES } from './index';
import type { CloudFinding } from './cloud-findings';
import type { CloudResource, CloudRuleContext } from './cloud-inputs';
import { checksOf, judgeReport, type CloudRuns, type RuleModule } from './rule';

type AnyRun = (
  props: unknown,
  context: CloudRuleContext,
  report: Parameters<NonNullable<CloudRuns['aks-cluster']>>[2],
) => void;

/**
 * The findings of every cloud rule on `resource`, in catalogue order (each rule's findings in the order it found
 * them). Each finding has its rule's severity for the case it names, its default otherwise, and the id of the
 * message it is.
 */
export function runCloudRules(resource: CloudResource, context: CloudRuleContext = {}): CloudFinding[] {
  const findings: CloudFinding[] = [];
  for (const rule of RULE_MODULES as readonly RuleModule[]) {
    for (const check of checksOf(rule)) {
      if (check.scope !== 'cloud') continue;
      const run = check.run?.[resource.kind] as AnyRun | undefined;
      if (run === undefined) continue;
      run(resource.props, context, (finding) => {
        const { path, message, fix, messageId, severity } = judgeReport(rule, finding);
        findings.push({
          ruleId: rule.meta.id,
          messageId,
          severity,
          path,
          message,
          ...(fix !== undefined ? { fix } : {}),
        });
      });
    }
  }
  return findings;
}
