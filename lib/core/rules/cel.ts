/**
 * A rule's CEL form: the same judgement as its TypeScript check, written for the API server to run as a
 * ValidatingAdmissionPolicy (lib/core/policies/ generates the policies from the catalogue). Only a rule whose check
 * needs nothing but the object (and, for `params` validations, the cluster facts) declares one; the differential
 * tests hold each form to its check on the rule's examples, the real-world corpus and generated pods.
 *
 * Expressions are plain CEL that both the API server (k8s.io/apiserver) and a standalone evaluator (@bufbuild/cel)
 * accept: no optional `.?` syntax, `has()` before every optional field, the strings extension only where needed.
 * They read the shared variables of lib/core/policies/prelude.ts (`variables.spec`, `variables.windows`, …).
 */

/** A CEL variable of the rule's own, evaluated after the shared prelude; read as `variables.<name>`. */
export interface CelVariable {
  /** Unique across the catalogue: prefix it with a short form of the rule id (`lof_fields`). */
  readonly name: string;
  readonly expression: string;
  /**
   * Where the variable is declared, for a form that looks at pods and RuntimeClasses.
   * @default - the form's scope
   */
  readonly scope?: CelScope;
}

/** One check of the form: the object passes when `expression` is true. */
export interface CelValidation<C extends string = string> {
  readonly expression: string;
  /**
   * The message a user sees (kubectl prints it): what is wrong and the fix, as the check words it; built from the
   * rule's message template where the form names one (`CelMessage`).
   */
  readonly messageExpression: string;
  /**
   * The rule's message the validation says, when its words are built from that message's template.
   * @default - none: the form writes its own messageExpression
   */
  readonly messageId?: string;
  /**
   * The rule case whose severity a failure has (the rule's default severity without one).
   * @default - the rule's default severity
   */
  readonly case?: C;
  /**
   * Whether the validation reads the cluster facts (`params`, a WindowsClusterFacts object): such validations go
   * into the policies bound with a paramRef, and are skipped while the cluster has no facts object.
   * @default false
   */
  readonly params?: boolean;
  /**
   * The clouds whose policies carry the validation (`none`: policies generated without a cloud), for a check whose
   * words or case depend on lint's `--cloud` (GKE's taint makes a missing toleration a warning).
   * @default - every cloud and none
   */
  readonly clouds?: readonly ('eks' | 'aks' | 'gke' | 'none')[];
  /**
   * What the validation looks at, for a rule judged on pods and on RuntimeClasses (a build pin written on either).
   * @default - the form's scope
   */
  readonly scope?: CelScope;
}

/** What a rule's CEL form looks at. */
export type CelScope =
  /** Pods and the pod templates of Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs and CronJobs. */
  | 'pod'
  /** RuntimeClass objects. */
  | 'runtimeclass';

export interface RuleCel<C extends string = string> {
  readonly scope: CelScope;
  /** @default - none */
  readonly variables?: readonly CelVariable[];
  readonly validations: readonly CelValidation<C>[];
  /**
   * What the TypeScript check judges that the CEL form cannot (another object, the registry): said in the table of
   * enforced rules (docs/admission-policies.md). The differential tests run the check on the object alone, where
   * the two agree.
   * @default - none
   */
  readonly limits?: string;
}

/** Words known when the policies are generated, put in a message as they are (not a CEL expression). */
export interface CelText {
  readonly text: string;
}

/**
 * A validation's message as one of the rule's declared messages: its template (message, then fix) with a CEL
 * string expression, or words (`CelText`), for each placeholder; led by the rule id as lint's findings are.
 */
export interface CelMessage<M extends string = string> {
  readonly messageId: M;
  /** @default - none: the template has no placeholders */
  readonly data?: Readonly<Record<string, string | CelText>>;
}

/** A validation as a rule module writes it: its messageExpression written out, or built from a message. */
export type CelValidationSource<C extends string = string, M extends string = string> = Omit<
  CelValidation<C>,
  'messageExpression' | 'messageId'
> &
  (
    | { readonly messageExpression: string; readonly message?: never }
    | { readonly message: CelMessage<M>; readonly messageExpression?: never }
  );

/** A rule's CEL form as its module writes it (`celOf` builds the messages). */
export interface RuleCelSource<C extends string = string, M extends string = string> extends Omit<
  RuleCel<C>,
  'validations'
> {
  readonly validations: readonly CelValidationSource<C, M>[];
}

/** Thrown when a CEL message names placeholders its data does not give, or a message its rule does not declare. */
export class CelMessageError extends Error {
  constructor(
    readonly ruleId: string,
    readonly problems: readonly string[],
  ) {
    super(`rule ${ruleId}: CEL message: ${problems.join('; ')}`);
    this.name = 'CelMessageError';
  }
}

/**
 * The messageExpression of `template` (the message's words, then its fix after a space), led by `ruleId`: runs of
 * words are one CEL string literal each, placeholders their CEL expressions, joined by `+`.
 */
export function celMessageExpression(
  ruleId: string,
  template: string,
  data: Readonly<Record<string, string | CelText>>,
): string {
  const parts: { text?: string; cel?: string }[] = [{ text: `${ruleId}: ` }];
  const missing: string[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    parts.push({ text: template.slice(last, m.index) });
    last = m.index + m[0].length;
    const value = Object.prototype.hasOwnProperty.call(data, m[1]) ? data[m[1]] : undefined;
    if (value === undefined) missing.push(`no data for {${m[1]}}`);
    else parts.push(typeof value === 'string' ? { cel: value } : { text: value.text });
  }
  parts.push({ text: template.slice(last) });
  if (missing.length > 0) throw new CelMessageError(ruleId, missing);
  const out: string[] = [];
  let words: string | undefined;
  for (const p of parts) {
    if (p.text !== undefined) words = (words ?? '') + p.text;
    else {
      if (words !== undefined && words !== '') out.push(celString(words));
      words = undefined;
      out.push(p.cel ?? '');
    }
  }
  if (words !== undefined && words !== '') out.push(celString(words));
  return out.join(' + ');
}

/* CEL literals, for the forms and the policies' prelude (lib/core/policies/prelude.ts). */

/** A CEL string literal for `text` (single-quoted, backslashes and quotes escaped). */
export function celString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL list literal of strings. */
export function celStringList(items: readonly string[]): string {
  return `[${items.map(celString).join(', ')}]`;
}

/** A CEL map literal of strings. */
export function celMap(entries: Readonly<Record<string, string>>): string {
  return `{${Object.entries(entries)
    .map(([k, v]) => `${celString(k)}: ${celString(v)}`)
    .join(', ')}}`;
}

/** Whether `value`'s first three dot-separated parts are `build` (releaseForBuild's reading). */
export function buildIs(value: string, build: string): string {
  return `(${value} == ${celString(build)} || ${value}.startsWith(${celString(`${build}.`)}))`;
}
