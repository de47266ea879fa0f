/**
 * The rules the constructs run: `toWindowsPodSpec` (and through it the cdk8s workloads and Pulumi components) runs
 * every rule module that opts in (`refusedByConstructs`) on the pod spec it is about to emit. An error finding is a
 * refusal with the rule's id, path and message, as lint gives them for that pod; a finding at a lower severity is a
 * warning under the rule's id. No check is written twice.
 */
import type { IssueCollector } from './errors';
import type { PodSpec } from './kube';
import type { WarningSink } from './pod-spec';
import { rulesRunByConstructs } from './rules/front-door';
import { caseSeverity, checksOf, type PodRuleContext } from './rules/rule';
import { buildIndex, type SetIndex } from './validate/context';
import { analyzePod } from './validate/pod';
import type { ImageLookups } from './validate/image-facts';

let emptyIndex: SetIndex | undefined;

/** Runs the construct rules on `spec` (the pod spec at `prefix` of its object), adding refusals and warnings. */
export function runConstructRules(
  spec: PodSpec,
  prefix: string,
  issues: IssueCollector,
  warn: WarningSink,
  images?: ImageLookups,
): void {
  emptyIndex ??= buildIndex([]);
  const options = images === undefined ? {} : { images };
  const pod = analyzePod({ apiVersion: 'v1', kind: 'Pod', spec }, { spec, path: prefix }, emptyIndex, options);
  const context: PodRuleContext = { options, index: emptyIndex, local: emptyIndex, hybrid: false };
  const rules = rulesRunByConstructs();
  for (let r = 0; r < rules.length; r++) {
    const { meta } = rules[r];
    const checks = checksOf(rules[r]);
    for (let k = 0; k < checks.length; k++) {
      const check = checks[k];
      if (check.scope !== 'pod') continue;
      check.run(pod, context, (path, message, fix, caseName) => {
        const severity = caseSeverity(meta, caseName) ?? meta.defaultSeverity;
        if (severity === 'error') issues.add(path, message, fix, meta.id);
        else warn({ ruleId: meta.id, path, message, ...(fix !== undefined ? { fix } : {}) });
      });
    }
  }
}
