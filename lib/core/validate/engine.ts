/**
 * `validateManifests`: one pass to index the set, one pass over the objects, then the rules that need the
 * whole set (Linux pods in a hybrid set, Services in front of Windows pods). Never throws on any JSON input.
 */
import { isWorkloadKind, locatePodSpec } from '../workloads';
import { checkCredspecObject, checkPodGmsa } from './checks/gmsa';
import {
  checkLinuxPinned,
  checkRuntimeClass,
  checkWildcardTolerations,
  checkWindowsScheduling,
} from './checks/scheduling';
import {
  caseSeverity,
  RULE_MODULES,
  type ObjectRuleContext,
  type PodRuleContext,
  type RuleCheck,
  type RuleModule,
  type RuleReport,
  type WindowsPodFinder,
} from '../rules';
import { buildIndex, type SetIndex } from './context';
import { sourceOf } from './loader';
import { analyzePod, type PodFacts } from './pod';
import { WindowsPodsByLabel } from './windows-pods';
import { DiagnosticSink, type Report } from './report';
import type { RuleId } from './rules';
import type { Diagnostic, ValidateOptions } from './types';
import { isRecord, type Rec } from './util';

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/** Documents that are not Kubernetes objects. */
function checkDocument(obj: unknown, position: number, report: Report): obj is Rec {
  if (!isRecord(obj)) {
    report(
      'input-invalid-document',
      '',
      `Document ${position + 1} is ${describe(obj)}, not a Kubernetes object.`,
      'Each YAML document must be a mapping with apiVersion, kind and metadata.',
    );
    return false;
  }
  const missing = ['apiVersion', 'kind'].filter((k) => typeof obj[k] !== 'string' || obj[k] === '');
  if (missing.length > 0) {
    report(
      'input-invalid-document',
      missing[0],
      `Document ${position + 1} has no ${missing.join(' or ')}, so it is not a Kubernetes object.`,
      `Add ${missing.join(' and ')}.`,
    );
    return false;
  }
  return true;
}

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
    this.emit = (path, message, fix, caseName) =>
      this.target(id, path, message, fix, caseSeverity(rule.meta, caseName));
  }
}
type PodRuleReporter = RuleReporter<Extract<RuleCheck, { scope: 'pod' }>>;
type ObjectRuleReporter = RuleReporter<Extract<RuleCheck, { scope: 'object' }>>;

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
 * Checks Kubernetes objects for Windows problems: the API server's rules for Windows pods, HostProcess, gMSA,
 * scheduling, image builds, unsupported features, resources, probes, Services and Pod Security. Cross-object
 * rules look only inside `objects`. Never throws: non-objects yield `input-invalid-document`.
 */
export function validateManifests(objects: readonly unknown[], options: ValidateOptions = {}): Diagnostic[] {
  const list: readonly unknown[] = Array.isArray(objects) ? objects : [];
  const opts: ValidateOptions = isRecord(options) ? options : {};
  const sink = new DiagnosticSink(list.length, opts.rules);
  const index = buildIndex(list);
  const { keys: sources, indexes: sourceIndexes } = groupBySource(list, opts.crossObjectScope);
  const pods: PodEntry[] = [];
  const windowsPods = new Map<string, WindowsPodsByLabel>();
  /** Objects that hold no pod, for the object rules. */
  const others: { obj: Rec; report: Report; source: string }[] = [];

  list.forEach((obj, i) => {
    const loc = isRecord(obj) && isWorkloadKind(obj.kind) ? locatePodSpec(obj) : undefined;
    const report = sink.reporter(i, obj, loc?.podMetadata);
    if (!checkDocument(obj, i, report)) return;
    if (loc) {
      const source = sources[i];
      const local = sourceIndexes.get(source) ?? index;
      const facts = analyzePod(obj, loc, index, opts);
      pods.push({ facts, report, source, local });
      if (facts.windows) {
        let byLabel = windowsPods.get(source);
        if (!byLabel) windowsPods.set(source, (byLabel = new WindowsPodsByLabel()));
        byLabel.add(facts);
      }
      checkPodGmsa(facts, index, local, report);
      checkWindowsScheduling(facts, opts, report);
      return;
    }
    others.push({ obj, report, source: sources[i] });
    switch (obj.kind) {
      case 'RuntimeClass':
        checkRuntimeClass(obj, report);
        break;
      case 'GMSACredentialSpec':
        checkCredspecObject(obj, report);
        break;
      default:
        break;
    }
  });

  const hybridSources = new Set(pods.filter((p) => p.facts.windows).map((p) => p.source));
  const podRules: PodRuleReporter[] = [];
  const objectRules = new Map<string, ObjectRuleReporter[]>();
  for (const rule of RULE_MODULES as readonly RuleModule[]) {
    const check = rule.check;
    switch (check.scope) {
      case 'pod':
        podRules.push(new RuleReporter(rule, check));
        break;
      case 'object':
        for (const kind of check.kinds) {
          const list = objectRules.get(kind) ?? [];
          list.push(new RuleReporter(rule, check));
          objectRules.set(kind, list);
        }
        break;
      default: {
        const never: never = check;
        throw new Error(`unknown rule scope ${JSON.stringify(never)}`);
      }
    }
  }
  for (const o of others) {
    const rules = objectRules.get(String(o.obj.kind));
    if (rules === undefined) continue;
    const context: ObjectRuleContext = {
      options: opts,
      index,
      local: sourceIndexes.get(o.source) ?? index,
      windowsPods: windowsPods.get(o.source) ?? NO_WINDOWS_PODS,
    };
    for (const r of rules) {
      r.target = o.report;
      r.check.run(o.obj, context, r.emit);
    }
  }
  for (const p of pods) {
    const hybrid = hybridSources.has(p.source);
    const context: PodRuleContext = { options: opts, index, local: p.local, hybrid };
    for (const r of podRules) {
      r.target = p.report;
      r.check.run(p.facts, context, r.emit);
    }
    checkWildcardTolerations(p.facts, hybrid, p.report);
    if (hybrid) checkLinuxPinned(p.facts, p.report);
  }
  return sink.diagnostics();
}
