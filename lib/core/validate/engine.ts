/**
 * `validateManifests`: one pass to index the set, one pass over the objects, then the rules that need the
 * whole set (Linux pods in a hybrid set, Services in front of Windows pods). Never throws on any JSON input.
 */
import { IssueCollector, type ValidationIssue } from '../errors';
import { checkEvaluationDate } from '../facts/support';
import { locatePods, readPodTemplateKinds, type PodTemplateKind } from '../pod-templates';
import type { PodSpecLocation } from '../workloads';
import {
  checksOf,
  judgeReport,
  RULE_MODULES,
  type ObjectRuleContext,
  type PodRuleContext,
  type RuleCheck,
  type RuleModule,
  type RuleReport,
  type WindowsPodFinder,
} from '../rules';
import { buildIndex, type SetIndex } from '../model/context';
import { withWellKnownImages } from '../model/image-facts';
import { rememberMeant, sourceOf } from './loader';
import { asMeant, miscasedKeys, type MiscasedKey } from '../model/key-case';
import { analyzePod, type PodFacts } from '../model/pod';
import { WindowsPodsByLabel } from '../model/windows-pods';
import { DiagnosticSink, type Report } from './report';
import { RULES_BY_ID, type RuleId } from './rules';
import type { Diagnostic, ValidateOptions } from '../model/types';
import { isRecord, missingObjectFields, type Rec } from '../model/util';

interface PodEntry {
  readonly facts: PodFacts;
  readonly report: Report;
  readonly source: string;
  /** The objects of the pod's own file (or the whole set). */
  readonly local: SetIndex;
}

/**
 * Each module rule's reporter, made once per run: `target` is pointed at the object being checked, so checking
 * an object allocates nothing per rule.
 */
class RuleReporter<K extends RuleCheck> {
  target: Report = () => undefined;
  readonly emit: RuleReport;

  constructor(
    rule: RuleModule,
    readonly check: K,
  ) {
    const id = rule.meta.id as RuleId;
    this.emit = (finding) => {
      const f = judgeReport(rule, finding);
      this.target(id, f.path, f.message, f.fix, f.caseSeverity, f.messageId);
    };
  }
}
type PodRuleReporter = RuleReporter<Extract<RuleCheck, { scope: 'pod' }>>;
type ObjectRuleReporter = RuleReporter<Extract<RuleCheck, { scope: 'object' }>>;
type DocumentRuleReporter = RuleReporter<Extract<RuleCheck, { scope: 'document' }>>;

/** Every rule's checks, by where they look, each with its reporter. */
interface RuleChecks {
  readonly document: DocumentRuleReporter[];
  readonly pod: PodRuleReporter[];
  /** By object kind. */
  readonly object: Map<string, ObjectRuleReporter[]>;
}

function ruleChecks(only: ReadonlySet<string> | undefined): RuleChecks {
  const checks: RuleChecks = { document: [], pod: [], object: new Map() };
  for (const rule of RULE_MODULES as readonly RuleModule[]) {
    if (only !== undefined && !only.has(rule.meta.id)) continue;
    for (const check of checksOf(rule)) {
      switch (check.scope) {
        case 'document':
          checks.document.push(new RuleReporter(rule, check));
          break;
        case 'pod':
          checks.pod.push(new RuleReporter(rule, check));
          break;
        case 'object':
          for (const kind of check.kinds) {
            const list = checks.object.get(kind) ?? [];
            list.push(new RuleReporter(rule, check));
            checks.object.set(kind, list);
          }
          break;
        case 'cloud':
          break; // checked by the policy pack and the components (lib/pulumi), not on manifests
        default: {
          const never: never = check;
          throw new Error(`unknown rule scope ${JSON.stringify(never)}`);
        }
      }
    }
  }
  return checks;
}

/** Every rule id, for the document rules (what a suppression may name). */
const RULE_IDS: ReadonlySet<string> = new Set(RULES_BY_ID.keys());

/** No Windows pods: what a file without any offers the object rules. */
const NO_WINDOWS_PODS: WindowsPodFinder = { find: () => undefined };

/**
 * Cross-object rules compare a pod with what it really references (its namespace, RuntimeClass, credspec and
 * ServiceAccount grants by name, from the whole set) and, where a rule needs the objects around it (Linux pods
 * beside Windows pods, Services, credspecs to compare names with, RBAC that decides an error), with the objects
 * of its own file only: a directory of unrelated manifests must not interact.
 */
function groupBySource(
  list: readonly unknown[],
  scope: ValidateOptions['crossObjectScope'],
): { keys: string[]; indexes: Map<string, SetIndex> } {
  const keys = list.map((o) => (scope === 'set' ? '' : (sourceOf(o) ?? '')));
  const groups = new Map<string, unknown[]>();
  list.forEach((o, i) => {
    const g = groups.get(keys[i]);
    if (g) g.push(o);
    else groups.set(keys[i], [o]);
  });
  const indexes = new Map<string, SetIndex>();
  for (const [k, objects] of groups) indexes.set(k, buildIndex(objects));
  return { keys, indexes };
}

/**
 * The reporter of a pod in a custom resource: a finding that asks for a field the resource cannot carry is dropped
 * (Knative's `os`), and a pod built from parts (an Argo Workflow template) has its paths, in the finding and in its
 * words, put where the resource writes them.
 */
function sourceReporter(report: Report, loc: PodSpecLocation): Report {
  const source = loc.source;
  if (source === undefined) return report;
  const spec = loc.spec as unknown as Rec;
  const omitted = (source.omits ?? []).filter((f) => spec[f] === undefined).map((f) => `${loc.path}.${f}`);
  const rewrite = source.rewrite;
  return (ruleId, path, message, fix, severity, messageId) => {
    if (omitted.some((o) => path === o || path.startsWith(`${o}.`) || path.startsWith(`${o}[`))) return;
    if (rewrite === undefined) {
      report(ruleId, path, message, fix, severity, messageId);
      return;
    }
    const hint = rewrite.hint?.(path);
    const fixText = fix === undefined ? hint : hint === undefined ? rewrite.text(fix) : `${rewrite.text(fix)} ${hint}`;
    report(ruleId, rewrite.path(path), rewrite.text(message), fixText, severity, messageId);
  };
}

/**
 * Checks Kubernetes objects for Windows problems: the API server's rules for Windows pods, HostProcess, gMSA,
 * scheduling, image builds, unsupported features, resources, probes, Services and Pod Security. Cross-object
 * rules look only inside `objects`. Never throws: non-objects yield `input-invalid-document`.
 */
export function validateManifests(objects: readonly unknown[], options: ValidateOptions = {}): Diagnostic[] {
  return runEngine(objects, options).diagnostics;
}

/** One run of the engine as fix reads it: its findings, and the facts and settings they were judged by. */
export interface EngineRun {
  readonly diagnostics: Diagnostic[];
  /**
   * The pod facts of each workload the rules judged, by position in the input: the first of an object that holds
   * several (an Argo Workflow, one per container template).
   */
  readonly pods: ReadonlyMap<number, PodFacts>;
  /** Every pod the rules judged in the object at each position, in order. */
  readonly podLists: ReadonlyMap<number, readonly PodFacts[]>;
  /** The image lookups the rules read: the given answers, with the well-known images' records added. */
  readonly images: ValidateOptions['images'];
  /** Whether a finding of `ruleId` on the object at `position` is reported (the rule is on, nothing suppresses it). */
  readonly reports: (position: number, ruleId: string) => boolean;
}

/** How fix runs the engine for a pass whose findings only decide its edits. */
export interface EngineRunOptions {
  /** `false`: findings without their line and column (`placeDiagnostics` adds them). @default true */
  readonly placed?: boolean;
  /** Only these rules are run (the pod facts are read all the same). @default every rule */
  readonly only?: ReadonlySet<string>;
}

/**
 * `validateManifests`, keeping what fix needs to act on exactly what was reported.
 * @internal
 */
export function runEngine(
  objects: readonly unknown[],
  options: ValidateOptions = {},
  run: EngineRunOptions = {},
): EngineRun {
  const written: readonly unknown[] = Array.isArray(objects) ? objects : [];
  // A key written in another case (`Kind:`, `apiversion:`) is read as meant: the object is judged as if it were
  // spelled right, and input-invalid-document says that kubectl refuses it as written.
  const miscased: readonly (readonly MiscasedKey[])[] = written.map(miscasedKeys);
  const list = miscased.some((m) => m.length > 0) ? written.map((o, i) => meantObject(o, miscased[i])) : written;
  const given: ValidateOptions = isRecord(options) ? options : {};
  // The day retirements are judged at decides refusals: a value that is not a date is named, never guessed.
  const dateProblem = checkEvaluationDate(given.date);
  const templateProblems: ValidationIssue[] = [];
  const podTemplates: readonly PodTemplateKind[] =
    given.podTemplates === undefined ? [] : readPodTemplateKinds(given.podTemplates, 'podTemplates', templateProblems);
  if (dateProblem || templateProblems.length > 0) {
    const issues = new IssueCollector();
    if (dateProblem) issues.add('date', dateProblem.message, dateProblem.fix);
    for (const p of templateProblems) issues.add(p.path, p.message, p.fix);
    issues.throwIfAny('validateManifests options');
  }
  // Without a registry's answer, a well-known image is judged by its bundled public record.
  const images =
    given.images === undefined || isRecord(given.images)
      ? withWellKnownImages(list, given.images, podTemplates)
      : given.images;
  const opts: ValidateOptions = images === given.images ? given : { ...given, images };
  const sink = new DiagnosticSink(list.length, opts);
  const index = buildIndex(list);
  const { keys: sources, indexes: sourceIndexes } = groupBySource(list, opts.crossObjectScope);
  const pods: PodEntry[] = [];
  const podsByPosition = new Map<number, PodFacts>();
  const podLists = new Map<number, PodFacts[]>();
  const locations = new Map<number, PodSpecLocation>();
  const windowsPods = new Map<string, WindowsPodsByLabel>();
  /** Objects that hold no pod, for the object rules. */
  const others: { obj: Rec; report: Report; source: string }[] = [];

  const rules = ruleChecks(run.only);

  list.forEach((obj, i) => {
    const locs = locatePods(obj, podTemplates);
    const loc = locs[0];
    const report = sink.reporter(i, obj, loc);
    for (const r of rules.document) {
      r.target = report;
      r.check.run(obj, { position: i, options: opts, ruleIds: RULE_IDS, miscased: miscased[i] }, r.emit);
    }
    // Only Kubernetes objects are read further: the document rules said what the others lack.
    if (missingObjectFields(obj)?.length !== 0) return;
    const object = obj as Rec;
    if (loc) {
      const source = sources[i];
      const local = sourceIndexes.get(source) ?? index;
      const all: PodFacts[] = [];
      for (const at of locs) {
        const facts = analyzePod(object, at, index, opts);
        // Each pod's own reporter: its template's suppressions, and its paths as the resource writes them.
        const own = at === loc ? report : sink.reporter(i, obj, at);
        pods.push({ facts, report: at.source === undefined ? own : sourceReporter(own, at), source, local });
        all.push(facts);
        if (facts.windows) {
          let byLabel = windowsPods.get(source);
          if (!byLabel) windowsPods.set(source, (byLabel = new WindowsPodsByLabel()));
          byLabel.add(facts);
        }
      }
      podsByPosition.set(i, all[0]);
      podLists.set(i, all);
      locations.set(i, loc);
      return;
    }
    others.push({ obj: object, report, source: sources[i] });
  });

  const hybridSources = new Set(pods.filter((p) => p.facts.windows).map((p) => p.source));
  for (const o of others) {
    const objectRules = rules.object.get(String(o.obj.kind));
    if (objectRules === undefined) continue;
    const context: ObjectRuleContext = {
      options: opts,
      index,
      local: sourceIndexes.get(o.source) ?? index,
      windowsPods: windowsPods.get(o.source) ?? NO_WINDOWS_PODS,
    };
    for (const r of objectRules) {
      r.target = o.report;
      r.check.run(o.obj, context, r.emit);
    }
  }
  for (const p of pods) {
    const context: PodRuleContext = { options: opts, index, local: p.local, hybrid: hybridSources.has(p.source) };
    for (const r of rules.pod) {
      r.target = p.report;
      r.check.run(p.facts, context, r.emit);
    }
  }
  return {
    diagnostics: sink.diagnostics(run.placed !== false),
    pods: podsByPosition,
    podLists,
    images: opts.images,
    reports: (position, ruleId) => sink.reports(list[position], locations.get(position), ruleId),
  };
}

/** `obj` with its miscased keys spelled right, placed where `obj` is in its text (findings point at the keys as written). */
function meantObject(obj: unknown, miscased: readonly MiscasedKey[]): unknown {
  const meant = asMeant(obj, miscased);
  if (meant !== obj && typeof meant === 'object' && meant !== null) rememberMeant(meant, obj as object);
  return meant;
}
