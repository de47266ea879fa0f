/**
 * Turns findings into diagnostics: applies `options.rules` (off / re-level) and the waive annotation, and names
 * the resource. Checks call `report(ruleId, path, message, fix)` and never see options.
 */
import { WAIVE_ANNOTATION, type Diagnostic, type ResourceRef, type RuleSetting, type Severity } from './types';
import { RULES, RULES_BY_ID, type RuleId } from './rules';
import { parsePath, sourceOf, sourcePosition } from './loader';
import { isRecord, rec, str } from './util';

/**
 * Records one finding. `severity` overrides the rule's default for this finding only (a rule whose cases differ
 * in certainty, e.g. an RBAC grant that cannot be checked without RBAC objects); `options.rules` still wins.
 */
export type Report = (ruleId: RuleId, path: string, message: string, fix?: string, severity?: Severity) => void;

const RANKS: ReadonlyMap<string, number> = new Map(RULES.map((r, i) => [r.id, i]));
const rank = (id: string): number => RANKS.get(id) ?? RANKS.size;

const SETTINGS: ReadonlySet<string> = new Set<RuleSetting>(['off', 'error', 'warning', 'info']);

/** The waived rule ids of one resource (its metadata and, for workloads, its pod template metadata). */
export function waivers(obj: unknown, podMetadata: unknown): ReadonlySet<string> {
  const out = new Set<string>();
  for (const meta of [rec(obj, 'metadata'), podMetadata]) {
    const value = str(rec(meta, 'annotations'), WAIVE_ANNOTATION);
    if (value === undefined) continue;
    for (const id of value.split(',')) {
      const t = id.trim();
      if (t !== '') out.add(t);
    }
  }
  return out;
}

/** The resource a diagnostic is about: apiVersion, kind, name, namespace and the loader's source. */
export function resourceRef(obj: unknown): ResourceRef {
  const meta = rec(obj, 'metadata');
  const apiVersion = str(obj, 'apiVersion');
  const kind = str(obj, 'kind');
  const name = str(meta, 'name');
  const namespace = str(meta, 'namespace');
  const source = sourceOf(obj);
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(source !== undefined ? { source } : {}),
  };
}

export class DiagnosticSink {
  private readonly settings: Readonly<Record<string, RuleSetting>>;
  /** One bucket per input object, so output follows input order whatever pass found the problem. */
  private readonly buckets: Diagnostic[][];

  constructor(size: number, rules: unknown) {
    this.buckets = new Array<Diagnostic[]>(size);
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
  reporter(index: number, obj: unknown, podMetadata?: unknown): Report {
    const waived = waivers(obj, podMetadata);
    const all = waived.has('*');
    let resource: ResourceRef | undefined;
    return (ruleId, path, message, fix, severity) => {
      if (all || waived.has(ruleId)) return;
      const setting = Object.prototype.hasOwnProperty.call(this.settings, ruleId) ? this.settings[ruleId] : undefined;
      if (setting === 'off') return;
      const rule = RULES_BY_ID.get(ruleId);
      const level: Severity = setting ?? severity ?? rule?.defaultSeverity ?? 'error';
      resource ??= resourceRef(obj);
      const position = sourcePosition(obj, path);
      const d: Diagnostic = {
        ruleId,
        severity: level,
        message,
        ...(fix !== undefined ? { fix } : {}),
        path,
        resource,
        location: { object: index, segments: parsePath(path), ...(position !== undefined ? { position } : {}) },
      };
      (this.buckets[index] ??= []).push(d);
    };
  }

  /** Every diagnostic: by object in input order, and within an object in catalogue order (stable). */
  diagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const b of this.buckets) {
      if (b === undefined) continue;
      if (b.length > 1) b.sort((x, y) => rank(x.ruleId) - rank(y.ruleId));
      for (const d of b) out.push(d);
    }
    return out;
  }
}
