/**
 * What a rule is: one module, named by its id, holding everything about it — its catalogue entry (family, default
 * severity and why, summary, docs), the cases in which it reports at another severity, its messages by id (their
 * words as templates), its check (reporting those ids) and its fixers — and beside it `<id>.examples.yaml`, its
 * failing and passing manifests (run as tests, shown on its page). See ./README.md. The registry (./index.ts) lists the modules; the engine,
 * `fix`, `k8s-windows rules`, the catalogue (docs/rules.md) and the rule pages (docs/rules/) read them.
 */
import type { Fixer, FixMeaning, TargetFixer } from '../model/fixes';
import type { SetIndex } from '../model/context';
import type { PodFacts } from '../model/pod';
import type { RuleFamily, RuleInfo, Severity, ValidateOptions } from '../model/types';
import type { Rec } from '../model/util';
import type { MiscasedKey } from '../model/key-case';
import type { CloudInputs, CloudResourceKind, CloudRuleContext } from './cloud-inputs';
import { celMessageExpression, CelMessageError, type RuleCel, type RuleCelSource } from './cel';

/**
 * A case in which a rule reports at another severity than its default, named so the metadata shows it (never a
 * severity picked at a call site).
 */
export interface RuleCase<C extends string = string> {
  readonly name: C;
  readonly severity: Severity;
  /** When the case applies, and why it has this severity. */
  readonly when: string;
  /**
   * Only a builder of cdk8s or Pulumi reports the case, on what its props said (a spelling it normalised): a
   * manifest never shows it, so no example does.
   * @default false
   */
  readonly buildersOnly?: boolean;
}

/** The catalogue entry of a rule. */
export interface RuleMeta<Id extends string = string, C extends string = string> extends Omit<
  RuleInfo,
  'id' | 'family' | 'fixable'
> {
  readonly id: Id;
  readonly family: RuleFamily;
  /** How `fix` fixes a finding, in one line; absent when it cannot. */
  readonly fixable?: string;
  readonly cases?: readonly RuleCase<C>[];
}

/** What a front door's fix may read of a finding. */
export interface FrontDoorFinding {
  /** API-server path of the finding (`spec.template.spec.containers[0].securityContext.runAsUser`). */
  readonly path: string;
  /** The value at `path`, when the caller has it (the image of an `image-build-mismatch`). */
  readonly value?: unknown;
  /** The Windows Server release the workload runs on, when known. */
  readonly release?: string;
  /** The fix the check reported (in manifest words). */
  readonly fix?: string;
}

/** A finding's fix and, where the front door names the field otherwise, its message, in that door's words. */
export interface FrontDoorText {
  readonly fix: string;
  /** Appended to the message: which prop wrote the field (`(the container's \`securityContext.user\`)`). */
  readonly messageSuffix?: string;
}

/**
 * The fix of a rule's finding for each front door: `cdk8s` names construct props (`windows: { release }`), `pulumi`
 * the components' args. A door without an entry keeps the manifest fix.
 */
export interface FrontDoorFixes {
  readonly cdk8s?: (finding: FrontDoorFinding) => FrontDoorText | undefined;
  readonly pulumi?: (finding: FrontDoorFinding) => FrontDoorText | undefined;
}

/** The values of a message's `{placeholders}`, by name (`{path}` is the finding's path unless given). */
export type MessageData = Readonly<Record<string, unknown>>;

/**
 * One finding as a check reports it (typescript-eslint's `context.report({ node, messageId, data })`): the field,
 * which of the rule's declared messages it is, the values of that message's placeholders, and the case it falls in.
 */
export interface ReportDescriptor<C extends string = string, M extends string = string> {
  readonly path: string;
  readonly messageId: M;
  /** @default - none: the message's only placeholder, if any, is `{path}` */
  readonly data?: MessageData;
  /** @default - none: the rule's default severity */
  readonly case?: C;
}

/**
 * Reports one finding of the rule whose check it is given to; a rule can name only the messages its module
 * declares (as typescript-eslint's `RuleCreator` types `messageId`).
 */
export type RuleReport<C extends string = string, M extends string = string> = (
  finding: ReportDescriptor<C, M>,
) => void;

/**
 * One message a rule reports, by id (eslint's `meta.messages`): what it is about, its words and fix as templates
 * with `{placeholders}` the report's data fills, and, where it differs, its fix in each front door's words. Every
 * finding names its message (`Diagnostic.messageId`, SARIF `message.id`).
 */
export interface RuleMessage {
  readonly description: string;
  /** What is wrong (`{path}: NFS support on Windows nodes is limited.`). */
  readonly message: string;
  /**
   * The words of the message in a case that says it otherwise (GKE's own taint), by case name.
   * @default - `message` in every case
   */
  readonly caseMessages?: Readonly<Record<string, string>>;
  /**
   * What to write instead. A fix that is one placeholder whose value is undefined is left out (a check whose
   * findings come with or without a fix from a shared check).
   * @default - none
   */
  readonly fix?: string;
  readonly frontDoorFixes?: FrontDoorFixes;
}

/** What a pod rule sees besides the pod. */
export interface PodRuleContext {
  readonly options: ValidateOptions;
  /** Every object of the input, by kind and name: what a pod names (its RuntimeClass, Namespace, credspec). */
  readonly index: SetIndex;
  /** The objects of the pod's own file (the whole input with `crossObjectScope: 'set'`). */
  readonly local: SetIndex;
  /** Whether the pod's file (or set) holds Windows pods: Linux pods beside them share nodes with them. */
  readonly hybrid: boolean;
}

/** The Windows pods of a file (or set) by label, for the rules about what selects them (Services). */
export interface WindowsPodFinder {
  /** A Windows pod in `namespace` whose labels match every entry of `selector`. */
  find(namespace: string, selector: Readonly<Record<string, string>>): PodFacts | undefined;
}

/** What an object rule sees besides the object. */
export interface ObjectRuleContext {
  readonly options: ValidateOptions;
  readonly index: SetIndex;
  /** The objects of the object's own file (the whole input with `crossObjectScope: 'set'`). */
  readonly local: SetIndex;
  /** The Windows pods of the object's file (or set). */
  readonly windowsPods: WindowsPodFinder;
}

/** Where a rule looks. */
export type RuleCheck<C extends string = string, M extends string = string> =
  | {
      /** Every pod and pod template (Pod, Deployment, …, CronJob, PodTemplate), with what is known about it. */
      readonly scope: 'pod';
      readonly run: (pod: PodFacts, context: PodRuleContext, report: RuleReport<C, M>) => void;
    }
  | {
      /** Every object of the listed kinds (a RuntimeClass, a GMSACredentialSpec, a Service). */
      readonly scope: 'object';
      readonly kinds: readonly string[];
      readonly run: (object: Rec, context: ObjectRuleContext, report: RuleReport<C, M>) => void;
    }
  | {
      /**
       * Every document of the input, before it is read as an object: whether it is one. Only documents that are
       * objects (a mapping with apiVersion and kind) are checked further.
       */
      readonly scope: 'document';
      readonly run: (document: unknown, context: DocumentRuleContext, report: RuleReport<C, M>) => void;
    }
  | {
      /**
       * Cloud resources as Pulumi sees them: the provider resources the policy pack checks (their type tokens,
       * `aws:eks/nodeGroup:NodeGroup`) and the k8s-windows components that check their own args
       * (`k8s-windows:eks:WindowsNodePool`), where the rule applies.
       */
      readonly scope: 'cloud';
      readonly resources: readonly string[];
      /**
       * The check, by kind of resource: each receives the resource's plain inputs (`runCloudRules` calls it for
       * the policy pack and the components).
       * @default - none: the rule is judged by a component on its own args (see the module's comment)
       */
      readonly run?: CloudRuns<C, M>;
    };

/** A cloud rule's checks, by the kind of resource each reads. */
export type CloudRuns<C extends string = string, M extends string = string> = {
  readonly [K in CloudResourceKind]?: (
    props: CloudInputs[K],
    context: CloudRuleContext,
    report: RuleReport<C, M>,
  ) => void;
};

/** What a document rule sees besides the document. */
export interface DocumentRuleContext {
  /** The document's index in the input (0-based). */
  readonly position: number;
  readonly options: ValidateOptions;
  /** Every rule id of the catalogue (what a suppression may name). */
  readonly ruleIds: ReadonlySet<string>;
  /**
   * The keys the document writes in another case than an object's (`Kind` for `kind`, model/key-case.ts): the
   * document given is read with them spelled right.
   */
  readonly miscased: readonly MiscasedKey[];
}

export interface RuleModule<Id extends string = string, C extends string = string, M extends string = string> {
  readonly meta: RuleMeta<Id, C>;
  /**
   * `false` for the rule that judges suppressions: no annotation or config entry hides its findings (a suppression
   * that suppressed the report of its own mistake would hide it). Beside `meta`, not in it: the catalogue
   * (`k8s-windows rules --format json`) prints `meta` as it is.
   * @default true
   */
  readonly suppressible?: false;
  /**
   * The rule's messages by id, one for each kind of finding it reports: its words and fix as templates (each with
   * its own front-door fixes, where they differ); its checks report only these ids, one in every report, and its
   * CEL form says their words (test/core/rules/cel-messages.test.ts). An alias (a rule that only `covers` others)
   * declares none: its findings are those of the rules it covers.
   * @default - none: the rule reports nothing of its own (an alias)
   */
  readonly messages?: { readonly [K in M]: RuleMessage };
  /** Where the rule looks: one place, or several (a build pin is judged on pods and on RuntimeClasses). */
  readonly check: RuleCheck<C, M> | readonly RuleCheck<C, M>[];
  /** Fixes one finding with certainty, or returns no edit. */
  readonly fix?: Fixer;
  /**
   * What the fixer's edits mean to `fix`: why a removal is made (the change report says it), and how its edits
   * depend on other rules' (see `FixMeaning`).
   * @default - a removal is reported without a reason, and the edits depend on no other rule's
   */
  readonly fixMeaning?: FixMeaning;
  /**
   * The fix in each front door's words (construct props, component args), where it differs from the manifest fix
   * the check reports: what a construct's refusal or warning, and the cdk8s plugin on what a construct wrote, say.
   */
  readonly frontDoorFixes?: FrontDoorFixes;
  /** Brings every Windows pod to the user's target (its taints, its release), whether or not there is a finding. */
  readonly targetFix?: TargetFixer;
  /**
   * The rule as CEL, for the admission policies the API server runs (`k8s-windows policies`); only for a rule whose
   * check needs nothing but the object (see ./cel.ts). A function, so its strings are built when policies are
   * generated: lint and the constructs load the rule modules on every run and never read them. Read it with `celOf`.
   * @default - none: the rule stays in lint
   */
  readonly cel?: () => RuleCelSource<C, NoInfer<M>>;
}

/** The severity reason and flag of a rule whose errors the API server refuses the pod for. */
export const API_SERVER_REJECTS_POD = {
  severityReason: 'The API server rejects the pod.',
  rejectedByApiServer: true,
} as const;

/** Declares a rule module, keeping its id, case names and message ids as literal types. */
export function defineRule<const Id extends string, const C extends string = never, const M extends string = never>(
  rule: RuleModule<Id, C, M>,
): RuleModule<Id, C, M> {
  return rule;
}

/** A rule's checks, as a list. */
export function checksOf<C extends string, M extends string>(
  rule: RuleModule<string, C, M>,
): readonly RuleCheck<C, M>[] {
  return Array.isArray(rule.check) ? rule.check : [rule.check as RuleCheck<C, M>];
}

const CEL_FORMS = new WeakMap<object, RuleCel<string>>();

/** The CEL form of `rule`, built at the first read and the same object after (undefined for a lint-only rule). */
export function celOf<C extends string>(rule: RuleModule<string, C, string>): RuleCel<C> | undefined {
  if (rule.cel === undefined) return undefined;
  let form = CEL_FORMS.get(rule) as RuleCel<C> | undefined;
  if (form === undefined) {
    form = builtForm(rule, rule.cel());
    CEL_FORMS.set(rule, form);
  }
  return form;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `template` with each `{name}` that `data` holds replaced by its value (other braces are words). */
export function formatMessage(template: string, data: MessageData): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(data, name) ? String(data[name]) : whole,
  );
}

/** The placeholders of `template`, in order of first use. */
export function placeholdersOf(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (m) => m[1]))];
}

/** A finding as a runner receives it: the report's message and fix put in words. */
export interface RenderedReport {
  readonly path: string;
  readonly messageId: string;
  readonly message: string;
  readonly fix: string | undefined;
  readonly caseName: string | undefined;
}

/** Thrown when a check reports a message its rule does not declare. */
export class UndeclaredMessageError extends Error {
  constructor(
    readonly ruleId: string,
    readonly messageId: string,
  ) {
    super(`rule ${ruleId} reports message '${messageId}', which its module does not declare`);
    this.name = 'UndeclaredMessageError';
  }
}

/** What `finding` says, in the words of the rule's message templates. */
export function renderReport(rule: Pick<RuleModule, 'meta' | 'messages'>, finding: ReportDescriptor): RenderedReport {
  const declared = (rule.messages as Readonly<Record<string, RuleMessage>> | undefined)?.[finding.messageId];
  if (declared === undefined) throw new UndeclaredMessageError(rule.meta.id, finding.messageId);
  const data: MessageData =
    finding.data === undefined
      ? { path: finding.path }
      : 'path' in finding.data
        ? finding.data
        : { path: finding.path, ...finding.data };
  return {
    path: finding.path,
    messageId: finding.messageId,
    message: formatMessage(messageIn(declared, finding.case), data),
    fix: fixText(declared.fix, data),
    caseName: finding.case,
  };
}

/** The words of `message` in `caseName`. */
function messageIn(message: RuleMessage, caseName: string | undefined): string {
  return (caseName === undefined ? undefined : message.caseMessages?.[caseName]) ?? message.message;
}

function fixText(template: string | undefined, data: MessageData): string | undefined {
  if (template === undefined) return undefined;
  const only = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template);
  if (only !== null && Object.prototype.hasOwnProperty.call(data, only[1]) && data[only[1]] === undefined)
    return undefined;
  return formatMessage(template, data);
}

/** A finding put in words and judged, as every runner (lint, the constructs, the cloud rules) reads it. */
export interface JudgedReport extends RenderedReport {
  /** The severity of its case; undefined without one (lint's `options.rules` may then re-level the default). */
  readonly caseSeverity: Severity | undefined;
  /** Its case's severity, else the rule's default. */
  readonly severity: Severity;
}

/** `finding` in the words of its rule's messages, with the severity its case (or the rule's default) gives it. */
export function judgeReport(rule: Pick<RuleModule, 'meta' | 'messages'>, finding: ReportDescriptor): JudgedReport {
  const rendered = renderReport(rule, finding);
  const severity = caseSeverity(rule.meta, rendered.caseName);
  return { ...rendered, caseSeverity: severity, severity: severity ?? rule.meta.defaultSeverity };
}

/** `source` with each validation's message built from the rule's message template it names. */
function builtForm<C extends string>(
  rule: RuleModule<string, C, string>,
  source: RuleCelSource<C, string>,
): RuleCel<C> {
  const problems: string[] = [];
  const validations = source.validations.map((v) => {
    if (v.message === undefined) return v;
    const { message, ...rest } = v;
    const declared = (rule.messages as Readonly<Record<string, RuleMessage>> | undefined)?.[message.messageId];
    if (declared === undefined) {
      problems.push(`message '${message.messageId}' is not declared`);
      return { ...rest, messageExpression: '' };
    }
    const words = messageIn(declared, v.case);
    const template = declared.fix === undefined ? words : `${words} ${declared.fix}`;
    try {
      const messageExpression = celMessageExpression(rule.meta.id, template, message.data ?? {});
      return { ...rest, messageExpression, messageId: message.messageId };
    } catch (e) {
      if (!(e instanceof CelMessageError)) throw e;
      problems.push(...e.problems.map((p) => `message '${message.messageId}': ${p}`));
      return { ...rest, messageExpression: '' };
    }
  });
  if (problems.length > 0) throw new CelMessageError(rule.meta.id, problems);
  return { ...source, validations };
}

/** The severity of a finding in `caseName` (the rule's default without one). */
export function caseSeverity(meta: RuleMeta, caseName: string | undefined): Severity | undefined {
  if (caseName === undefined) return undefined;
  const c = meta.cases?.find((x) => x.name === caseName);
  if (!c) throw new Error(`rule ${meta.id} has no case '${caseName}'`);
  return c.severity;
}

export type { Rec };
