/**
 * What the front doors read of the rule modules: the rules constructs run on what they emit, and a finding's fix in
 * a front door's words (each rule's `frontDoorFixes`).
 */
import type * as Registry from './index';
import type * as RefusedByConstructs from './refused-by-constructs';
import type { FrontDoorFinding, FrontDoorFixes, RuleMessage, RuleModule } from './rule';

/**
 * The rule modules, loaded at the first look-up rather than at import: `toWindowsPodSpec` is imported by every front
 * door (`k8s-windows/pulumi` among them), and the registry brings every rule module with it.
 */
function ruleModules(): readonly RuleModule[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./index') as typeof Registry).RULE_MODULES as readonly RuleModule[];
}

/** A front door: its users write construct props (`cdk8s`) or component args (`pulumi`), not manifest fields. */
export type FrontDoor = keyof FrontDoorFixes;

let constructRules: readonly RuleModule[] | undefined;
/**
 * The rules the constructs run on the pod spec they are about to emit (`refusedByConstructs`), in catalogue order;
 * loaded at the first conversion, without the rest of the registry.
 */
export function rulesRunByConstructs(): readonly RuleModule[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (constructRules ??= (require('./refused-by-constructs') as typeof RefusedByConstructs).CONSTRUCT_RULE_MODULES);
}

let constructRulesById: ReadonlyMap<string, RuleModule> | undefined;
let byId: ReadonlyMap<string, RuleModule> | undefined;
/** The module of rule `id`: the constructs' findings are of their own rules, so the registry loads only for others. */
function ruleById(id: string): RuleModule | undefined {
  constructRulesById ??= new Map(rulesRunByConstructs().map((r) => [r.meta.id, r]));
  const rule = constructRulesById.get(id);
  if (rule !== undefined) return rule;
  byId ??= new Map(ruleModules().map((r) => [r.meta.id, r]));
  return byId.get(id);
}

/** The messages `ruleId` declares by id (what a finding's `messageId` names), if its module declares any. */
export function ruleMessages(ruleId: string): Readonly<Record<string, RuleMessage>> | undefined {
  return ruleById(ruleId)?.messages;
}

/** A finding, warning or refusal as a front door shows it. */
interface Worded {
  readonly ruleId?: string;
  readonly messageId?: string;
  readonly path: string;
  readonly message: string;
  readonly fix?: string;
}

/**
 * `issue` in the words of `door`, when its rule has a fix for that door; `value` reads the value at the issue's path
 * (an image's build), `release` is the workload's release.
 */
export function inFrontDoorWords<T extends Worded>(
  issue: T,
  door: FrontDoor,
  value?: (path: string) => unknown,
  release?: string,
): T {
  const worded = frontDoorText(
    issue.ruleId,
    door,
    {
      path: issue.path,
      value: value?.(issue.path),
      release,
      ...(issue.fix !== undefined ? { fix: issue.fix } : {}),
    },
    issue.messageId,
  );
  if (worded === undefined) return issue;
  const message =
    worded.messageSuffix === undefined ? issue.message : issue.message.replace(/\.?$/, `${worded.messageSuffix}.`);
  return { ...issue, message, fix: worded.fix };
}

/**
 * The fix (and message suffix) of `ruleId` in `door`'s words, if its rule has one: the declared message's own
 * (`messageId`), else the rule's.
 */
export function frontDoorText(
  ruleId: string | undefined,
  door: FrontDoor,
  finding: FrontDoorFinding,
  messageId?: string,
): { readonly fix: string; readonly messageSuffix?: string } | undefined {
  if (ruleId === undefined) return undefined;
  const rule = ruleById(ruleId);
  const ofMessage = messageId === undefined ? undefined : rule?.messages?.[messageId]?.frontDoorFixes?.[door];
  return (ofMessage ?? rule?.frontDoorFixes?.[door])?.(finding);
}
