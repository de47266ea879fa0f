/**
 * Turns findings into diagnostics: applies `options.rules` (off / re-level) and the suppressions (annotations on
 * the object, the config file's), and names the resource. The engine calls `report(ruleId, path, message, fix)`
 * with a check's finding put in words (`renderReport`); checks never see options.
 */
import type { PodSpecLocation } from '../workloads';
import type { Diagnostic, ResourceRef, RuleSetting, Severity, ValidateOptions } from '../model/types';
import { byRuleName, RULES, RULES_BY_ID, type RuleId } from './rules';
import { RULE_MODULES, type RuleModule } from '../rules';
import { parsePath, releasePositions, sourceOf, sourcePositionAt } from './loader';
import { Suppressions, type WrittenSuppression } from './suppressions';
import { isRecord, rec, str } from '../model/util';

/**
 * Records one finding. `severity` overrides the rule's default for this finding only (a rule whose cases differ
 * in certainty, e.g. an RBAC grant that cannot be checked without RBAC objects); `options.rules` still wins.
 * `messageId` is which of the rule's declared messages it is.
 */
export type Report = (
  ruleId: RuleId,
  path: string,
  message: string,
  fix?: string,
  severity?: Severity,
  messageId?: string,
) => void;

const RANKS: ReadonlyMap<string, number> = new Map(RULES.map((r, i) => [r.id, i]));
const rank = (id: string): number => RANKS.get(id) ?? RANKS.size;

/** The rules whose modules say they cannot be suppressed (the one that checks suppressions). */
const UNSUPPRESSIBLE: ReadonlySet<string> = new Set(
  RULE_MODULES.filter((r: RuleModule) => r.suppressible === false).map((r) => r.meta.id),
);

const SETTINGS: ReadonlySet<string> = new Set<RuleSetting>(['off', 'error', 'warning', 'info']);

/** The resource a diagnostic is about: apiVersion, kind, name, namespace and the loader's source. */
export function resourceRef(obj: unknown): ResourceRef {
  const meta = rec(obj, 'metadata');
  const apiVersion = str(obj, 'apiVersion');
  const kind = str(obj, 'kind');
  const name = str(meta, 'name');
  const namespace = str(meta, 'namespace');
  const source = sourceOf(obj);
  // Fields set in the order output shows them, without a spread per optional field (one per object with findings).
  const ref: { -readonly [K in keyof ResourceRef]: ResourceRef[K] } = {};
  if (apiVersion !== undefined) ref.apiVersion = apiVersion;
  if (kind !== undefined) ref.kind = kind;
  if (name !== undefined) ref.name = name;
  if (namespace !== undefined) ref.namespace = namespace;
  if (source !== undefined) ref.source = source;
  return ref;
}

/** A finding as reported, made a `Diagnostic` (with its position) by `DiagnosticSink.diagnostics`. */
interface Finding {
  readonly ruleId: RuleId;
  readonly messageId: string | undefined;
  readonly level: Severity;
  readonly message: string;
  readonly fix: string | undefined;
  readonly path: string;
  readonly resource: ResourceRef;
  readonly obj: unknown;
  readonly written: WrittenSuppression | undefined;
  readonly honoured: boolean;
}

export class DiagnosticSink {
  private readonly settings: Readonly<Record<string, RuleSetting>>;
  /** One bucket per input object, so output follows input order whatever pass found the problem. */
  private readonly buckets: Finding[][];
  private readonly suppressions: Suppressions;
  private readonly includeSuppressed: boolean;

  constructor(size: number, options: ValidateOptions) {
    const rules = options.rules;
    this.buckets = new Array<Finding[]>(size);
    this.suppressions = new Suppressions(Array.isArray(options.suppressions) ? options.suppressions : undefined);
    this.includeSuppressed = options.includeSuppressed === true;
    const settings: Record<string, RuleSetting> = {};
    if (isRecord(rules)) {
      for (const id of Object.keys(rules)) {
        const s = rules[id];
        if (typeof s === 'string' && SETTINGS.has(s)) settings[id] = s as RuleSetting;
      }
    }
    this.settings = settings;
  }

  /** A reporter for the object at `index` of the input. */
  reporter(index: number, obj: unknown, loc?: PodSpecLocation): Report {
    let resource: ResourceRef | undefined;
    // Read on the object's first finding: most objects have none.
    let suppressions: ReadonlyMap<string, WrittenSuppression> | undefined | null = null;
    return (ruleId, path, message, fix, severity, messageId) => {
      const setting = this.setting(ruleId);
      if (setting === 'off') return;
      const level: Severity = setting ?? severity ?? RULES_BY_ID.get(ruleId)?.defaultSeverity ?? 'error';
      if (suppressions === null) suppressions = this.suppressions.of(obj, loc);
      const { written, honoured } = this.suppression(suppressions, ruleId, level);
      if (honoured && !this.includeSuppressed) return;
      resource ??= resourceRef(obj);
      (this.buckets[index] ??= []).push({
        ruleId,
        messageId,
        level,
        message,
        fix,
        path,
        resource,
        obj,
        written,
        honoured,
      });
    };
  }

  /**
   * Whether a finding of `ruleId` on `obj` at the rule's level would be reported: the rule is not off, and no
   * suppression hides it (fix acts only on what is reported).
   */
  reports(obj: unknown, loc: PodSpecLocation | undefined, ruleId: string): boolean {
    const setting = this.setting(ruleId);
    if (setting === 'off') return false;
    const level: Severity = setting ?? RULES_BY_ID.get(ruleId)?.defaultSeverity ?? 'error';
    return this.includeSuppressed || !this.suppression(this.suppressions.of(obj, loc), ruleId, level).honoured;
  }

  /** The setting for `ruleId`, or for an alias that covers it (ids are never renamed: old ids keep working). */
  private setting(ruleId: string): RuleSetting | undefined {
    return byRuleName(
      (id) => (Object.prototype.hasOwnProperty.call(this.settings, id) ? this.settings[id] : undefined),
      ruleId,
    );
  }

  /** The suppression written for `ruleId`, and whether it hides a finding at `level`. */
  private suppression(
    suppressions: ReadonlyMap<string, WrittenSuppression> | undefined,
    ruleId: string,
    level: Severity,
  ): { readonly written?: WrittenSuppression; readonly honoured: boolean } {
    const written = UNSUPPRESSIBLE.has(ruleId)
      ? undefined
      : (byRuleName((id) => suppressions?.get(id), ruleId) ?? suppressions?.get('*'));
    // An error the API server rejects the object for stays reported: suppressing it would not make it run.
    const honoured =
      written !== undefined && !(RULES_BY_ID.get(ruleId)?.rejectedByApiServer === true && level === 'error');
    return { ...(written !== undefined ? { written } : {}), honoured };
  }

  /**
   * Every diagnostic: by object in input order, and within an object in catalogue order (stable). Positions are
   * looked up here, in input order, rather than when each finding is made (rules run in several passes over the
   * objects): the loader then reads each document's positions once and keeps only the last few documents'.
   * `placed: false` leaves them out (fix's passes before the last; `placeDiagnostics` adds them).
   */
  diagnostics(placed = true): Diagnostic[] {
    const out: Diagnostic[] = [];
    this.buckets.forEach((b, index) => {
      if (b.length > 1) b.sort((x, y) => rank(x.ruleId) - rank(y.ruleId));
      for (const f of b) {
        const segments = parsePath(f.path);
        const position = placed ? sourcePositionAt(f.obj, segments) : undefined;
        // Fields set one by one, in the order output shows them: spreads of optional fields cost more per finding.
        const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = {} as Diagnostic;
        d.ruleId = f.ruleId;
        if (f.messageId !== undefined) d.messageId = f.messageId;
        d.severity = f.level;
        d.message = f.message;
        if (f.fix !== undefined) d.fix = f.fix;
        d.path = f.path;
        d.resource = f.resource;
        d.location = position !== undefined ? { object: index, segments, position } : { object: index, segments };
        if (f.written !== undefined) d.suppression = { ...f.written, honoured: f.honoured };
        out.push(d);
      }
    });
    releasePositions();
    return out;
  }
}

/** Findings read with `placed: false`, each given its line and column in its object's source (`objects`, as judged). */
export function placeDiagnostics(diagnostics: readonly Diagnostic[], objects: readonly unknown[]): Diagnostic[] {
  const out = diagnostics.map((d) => {
    const at = d.location;
    const position = at === undefined ? undefined : sourcePositionAt(objects[at.object], at.segments);
    return at === undefined || position === undefined ? d : { ...d, location: { ...at, position } };
  });
  releasePositions();
  return out;
}
