/**
 * The rules the constructs run: `toWindowsPodSpec` (and through it the cdk8s workloads and Pulumi components) runs
 * every rule module that opts in (`refusedByConstructs`) on the pod spec it is about to emit, and a construct that
 * emits another object (`GmsaCredentialSpec`) runs the opted-in object rules of its kind on it (`judgeObject`). An
 * error finding is a refusal with the rule's id, path and message, as lint gives them for that object; a finding at
 * a lower severity is a warning under the rule's id. No check is written twice.
 */
import type { IssueCollector } from './errors';
import type { PodSpec } from './kube';
import type { WarningSink } from './errors';
import { rulesRunByConstructs } from './rules/front-door';
import {
  checksOf,
  judgeReport,
  type ObjectRuleContext,
  type PodRuleContext,
  type ReportDescriptor,
  type RuleModule,
  type RuleReport,
} from './rules/rule';
import { buildIndex, type SetIndex } from './model/context';
import { analyzePod, type PodFacts } from './model/pod';
import type { Rec } from './model/util';
import { withWellKnownImages, type ImageLookups } from './model/image-facts';
import { WINDOWS_RUNTIME_HANDLERS, type WindowsIsolation } from './releases';

type PodRun = (pod: PodFacts, context: PodRuleContext, report: RuleReport) => void;

/** The pod checks of the construct rules, with their rule's metadata, flattened once. */
/** What a runner needs of a rule to put its findings in words and judge them. */
type RunRule = Pick<RuleModule, 'meta' | 'messages'>;
type PodRuleRun = RunRule & { readonly run: PodRun };
type ObjectRuleRun = RunRule & { readonly run: ObjectRun };

let podRuns: PodRuleRun[] | undefined;
let emptyIndex: SetIndex | undefined;

/**
 * The objects the pod names that the construct knows: the RuntimeClass of a target, which selects the isolation
 * (the rules read it from the handler, as lint does from the RuntimeClass in the input).
 */
function runtimeClassIndex(name: string | undefined, isolation: WindowsIsolation | undefined): SetIndex {
  if (name === undefined || isolation === undefined) return (emptyIndex ??= buildIndex([]));
  return buildIndex([
    {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name },
      handler: WINDOWS_RUNTIME_HANDLERS[isolation],
    },
  ]);
}

/** The pod checks of `rules`, with their rule's metadata. */
function podRunsOf(rules: readonly RuleModule[]): PodRuleRun[] {
  const runs: PodRuleRun[] = [];
  for (const rule of rules) {
    for (const check of checksOf(rule))
      if (check.scope === 'pod') runs.push({ meta: rule.meta, messages: rule.messages, run: check.run });
  }
  return runs;
}

function runsOf(): PodRuleRun[] {
  return (podRuns ??= podRunsOf(rulesRunByConstructs()));
}

/** A finding of a construct rule, as replayed from the memo. */
export interface ConstructFinding {
  readonly error: boolean;
  readonly ruleId: string;
  readonly messageId?: string;
  readonly path: string;
  readonly message: string;
  readonly fix?: string;
}

/**
 * Findings by pod spec (its JSON and path): charts repeat pod shapes (a thousand workloads of one template), and the
 * rules are pure functions of the pod. Bounded, so a long-lived process converting many pods does not grow without end.
 */
const MEMO = new Map<string, readonly ConstructFinding[]>();
const MEMO_MAX = 1024;

/** What the construct knows besides the pod spec. */
export interface ConstructRulesInput {
  /** What the registries said about the images (`--resolve-images`). */
  readonly images?: ImageLookups;
  /** The isolation of the target: the RuntimeClass the pod names is the target's, with that isolation's handler. */
  readonly isolation?: WindowsIsolation;
  /**
   * Paths the caller's users wrote under another name: a value an option of the construct set
   * (`spec.securityContext.windowsOptions.runAsUserName` → `runAsUserName`) is reported at the option.
   */
  readonly optionPaths?: Readonly<Record<string, string>>;
}

/** Runs the construct rules on `spec` (the pod spec at `prefix` of its object), adding refusals and warnings. */
export function runConstructRules(
  spec: PodSpec,
  prefix: string,
  issues: IssueCollector,
  warn: WarningSink,
  input: ConstructRulesInput = {},
): void {
  // Registry answers make the findings depend on more than the pod: not memoized.
  const key = input.images === undefined ? memoKey(spec, `${input.isolation ?? ''} ${prefix}`) : undefined;
  let findings = key === undefined ? undefined : MEMO.get(key);
  if (findings === undefined) {
    findings = judge(spec, prefix, input);
    if (key !== undefined) {
      if (MEMO.size >= MEMO_MAX) MEMO.clear();
      MEMO.set(key, findings);
    }
  }
  const optionPaths = input.optionPaths;
  for (let i = 0; i < findings.length; i++) {
    const { error, ruleId, messageId, message, fix } = findings[i];
    const path = optionPaths?.[findings[i].path] ?? findings[i].path;
    if (error) issues.add(path, message, fix, ruleId, messageId);
    else
      warn({
        ruleId,
        path,
        message,
        ...(fix !== undefined ? { fix } : {}),
        ...(messageId !== undefined ? { messageId } : {}),
      });
  }
}

/** The memo key of a pod spec; undefined for one JSON cannot write (a BigInt a caller left in). */
function memoKey(spec: PodSpec, prefix: string): string | undefined {
  try {
    return `${prefix}\n${JSON.stringify(spec)}`;
  } catch {
    return undefined;
  }
}

/**
 * The findings of `rules` on `spec` (the pod spec at `prefix` of its object), as lint gives them for that pod; with
 * `hybrid`, as beside Windows pods (a Linux pod of a cluster with Windows nodes). For a front door that judges a pod
 * by a few rules of its own choosing (the Linux pinning aspect); not memoized.
 */
export function judgePod(
  rules: readonly RuleModule[],
  spec: PodSpec,
  prefix: string,
  options: { readonly hybrid?: boolean } = {},
): readonly ConstructFinding[] {
  return judge(spec, prefix, {}, podRunsOf(rules), options.hybrid ?? false);
}

function judge(
  spec: PodSpec,
  prefix: string,
  input: ConstructRulesInput,
  runs = runsOf(),
  hybrid = false,
): readonly ConstructFinding[] {
  const obj = { apiVersion: 'v1', kind: 'Pod', spec };
  // As the engine does: the bundled records of well-known images answer where no registry did.
  const images = withWellKnownImages([obj], input.images);
  const index = runtimeClassIndex(spec.runtimeClassName, input.isolation);
  const context: PodRuleContext = {
    options: images === undefined ? {} : { images },
    index,
    local: index,
    hybrid,
  };
  const pod = analyzePod(obj, { spec, path: prefix }, index, context.options);
  const out: ConstructFinding[] = [];
  // Indexed loops and one report function: this runs for every pod shape a construct renders, mostly before the JIT
  // has optimized it (bench/synth-fresh.bench.ts).
  let rule: RunRule = runs[0];
  const report: RuleReport = (finding) => {
    out.push(findingOf(rule, finding));
  };
  for (let r = 0; r < runs.length; r++) {
    rule = runs[r];
    runs[r].run(pod, context, report);
  }
  return out;
}

type ObjectRun = (object: Rec, context: ObjectRuleContext, report: RuleReport) => void;

/** The object checks of the construct rules by the kind each reads, with their rule's metadata, gathered once. */
let objectRuns: ReadonlyMap<string, readonly ObjectRuleRun[]> | undefined;

function objectRunsOf(kind: string): readonly ObjectRuleRun[] {
  if (objectRuns === undefined) {
    const byKind = new Map<string, ObjectRuleRun[]>();
    for (const rule of rulesRunByConstructs()) {
      for (const check of checksOf(rule)) {
        if (check.scope !== 'object') continue;
        for (const k of check.kinds)
          byKind.set(k, [...(byKind.get(k) ?? []), { meta: rule.meta, messages: rule.messages, run: check.run }]);
      }
    }
    objectRuns = byKind;
  }
  return objectRuns.get(kind) ?? [];
}

/** A rule's report as a construct finding: its case's severity decides whether it is a refusal. */
function findingOf(rule: RunRule, finding: ReportDescriptor): ConstructFinding {
  const { path, message, fix, messageId, severity } = judgeReport(rule, finding);
  return {
    error: severity === 'error',
    ruleId: rule.meta.id,
    messageId,
    path,
    message,
    ...(fix !== undefined ? { fix } : {}),
  };
}

/**
 * The findings of the construct rules on `object` (a whole object a construct is about to emit, such as a
 * GMSACredentialSpec), as lint gives them for that object alone: each rule whose object check reads its kind.
 */
export function judgeObject(object: Rec): readonly ConstructFinding[] {
  const index = buildIndex([object]);
  const context: ObjectRuleContext = { options: {}, index, local: index, windowsPods: { find: () => undefined } };
  const out: ConstructFinding[] = [];
  for (const { meta, messages, run } of objectRunsOf(String(object.kind))) {
    run(object, context, (finding) => {
      out.push(findingOf({ meta, messages }, finding));
    });
  }
  return out;
}
