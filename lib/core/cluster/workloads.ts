/**
 * Running workloads judged against the real nodes (`k8s-windows doctor`): the lint rule engine
 * (`validateManifests`, the same rules lint runs) on the cluster's top-level workloads, with the Windows release of
 * the nodes each workload's pods can be scheduled on as the engine's `windowsRelease`; and the findings only a
 * cluster shows: a Windows DaemonSet no Windows node can run, a Linux workload an untainted Windows node takes.
 *
 * Where a pod can land is read as the scheduler reads it: its nodeSelector and its RuntimeClass's (the RuntimeClass
 * admission plugin merges them), its required node affinity, and the NoSchedule/NoExecute taints of the node that
 * it (or its RuntimeClass) does not tolerate. The node-condition taints (`node.kubernetes.io/*`) are states, not
 * pools: they are left out. Pure: no I/O, no clock.
 */
import { NODE_LABEL_FACTS } from '../facts/kubernetes';
import { buildIndex } from '../model/context';
import { analyzePod, type PodFacts } from '../model/pod';
import { affinityExcludesWindows, selectsOs, taintText, toleratesTaint } from '../model/pod-scheduling';
import type { Diagnostic, Severity } from '../model/types';
import { arr, isRecord, rec, str, stringMap, type Rec } from '../model/util';
import { parseKubernetesMinor, releaseInfo, type WindowsRelease } from '../releases';
import type { Taint, TaintEffect } from '../target';
import { RULES, validateManifests } from '../validate';
import { locatePodSpec } from '../workloads';
import type { DoctorEvidence } from './explain';
import { STATE_TAINT, upgradedNodes, type NodeFacts } from './nodes';

/** The ids of the findings only a cluster shows. */
export const WORKLOAD_RULE_IDS = [
  'doctor-daemonset-unschedulable',
  'doctor-upgrade-unschedulable',
  'doctor-linux-pod-on-windows-node',
] as const;
export type WorkloadRuleId = (typeof WORKLOAD_RULE_IDS)[number];

/**
 * The rules that read what files say of other objects (a Linux pod beside Windows pods of one file): in a cluster the
 * nodes say it, so doctor's own findings (doctor-linux-pod-on-windows-node, with the nodes' names) speak instead.
 */
const REPLACED_BY_NODES: Readonly<Record<string, 'off'>> = Object.fromEntries(
  RULES.filter((r) => r.replacedInCluster === true).map((r) => [r.id, 'off' as const]),
);

/** The kinds judged when nothing controls them (a Job of a CronJob, a ReplicaSet of a Deployment are not). */
export const JUDGED_KINDS: readonly string[] = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'ReplicaSet',
  'ReplicationController',
  'Pod',
];

/** How many node names a message or evidence lists before `and N more`. */
const SHOWN_NODES = 5;

/** A finding on a workload: the engine's `Diagnostic`, with the nodes it was judged against when that matters. */
export type WorkloadFinding = Diagnostic & { readonly evidence?: DoctorEvidence };

export interface WorkloadOptions {
  /** The cluster's nodes, read (`nodeFacts`). */
  readonly nodes: readonly NodeFacts[];
  /** The cluster's RuntimeClass objects: the pods that name one are judged with its scheduling and handler. */
  readonly runtimeClasses?: readonly unknown[];
  /**
   * The Kubernetes minor the rules judge by (`1.37`). @default - the oldest kubelet of the Windows nodes
   * (`clusterKubernetesVersion`), else the newest the package knows
   */
  readonly kubernetesVersion?: string;
  /** Judge as if every Windows node ran this release (`doctor --upgrade-to`). @default - the nodes as they are */
  readonly upgradeTo?: WindowsRelease;
  /** The day support and retirements are judged at (`YYYY-MM-DD`). @default - today */
  readonly date?: string;
}

export interface WorkloadJudgement {
  /** The findings that count, engine's and the cluster's, each once. */
  readonly findings: readonly WorkloadFinding[];
  /** The engine's findings a suppression annotation hides (honoured), as lint reports them. */
  readonly suppressed: readonly WorkloadFinding[];
  /** How many top-level workloads were judged. */
  readonly workloads: number;
}

/** A workload with where its pods can go. */
interface Placed {
  readonly object: Rec;
  readonly pod: PodFacts;
  /** Windows and hinted-Windows pods are judged against the Windows nodes they can land on. */
  readonly windows: boolean;
  /** The Windows nodes its pods can be scheduled on. */
  readonly eligible: readonly NodeFacts[];
  /** Under `upgradeTo`: whether a Windows node takes its pods today. */
  readonly eligibleToday: boolean;
}

/** Whether an object is a top-level workload: a kind that holds a pod (template) and no controller owns it. */
export function isTopLevelWorkload(obj: unknown): obj is Rec {
  if (!isRecord(obj) || typeof obj.kind !== 'string' || !JUDGED_KINDS.includes(obj.kind)) return false;
  return !arr(rec(obj, 'metadata'), 'ownerReferences').some((r) => isRecord(r) && r.controller === true);
}

/** The object as lint would read it from a file: without status and the server's managedFields. */
function asManifest(obj: Rec): Rec {
  const { status: _status, ...rest } = obj;
  const metadata = rec(obj, 'metadata');
  if (metadata === undefined || !('managedFields' in metadata)) return rest;
  const { managedFields: _managed, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

/** `1.37` from the oldest Windows kubelet (every kubelet when no node is Windows); undefined when none says. */
export function clusterKubernetesVersion(nodes: readonly NodeFacts[]): string | undefined {
  const windows = nodes.filter((n) => n.os === 'windows');
  const minors = (windows.length > 0 ? windows : nodes)
    .map((n) => (n.nodeInfo.kubeletVersion !== undefined ? parseKubernetesMinor(n.nodeInfo.kubeletVersion) : undefined))
    .filter((m): m is number => m !== undefined);
  return minors.length > 0 ? `1.${Math.min(...minors)}` : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Where a pod can land.

/** A node selector requirement (`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`) against a node's values. */
function requirementHolds(values: Readonly<Record<string, string>>, e: unknown): boolean {
  const key = str(e, 'key');
  if (key === undefined) return false;
  const wanted = arr(e, 'values').filter((v): v is string => typeof v === 'string');
  const has = Object.prototype.hasOwnProperty.call(values, key);
  const value = has ? values[key] : undefined;
  switch (str(e, 'operator')) {
    case 'In':
      return value !== undefined && wanted.includes(value);
    case 'NotIn':
      return value === undefined || !wanted.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const bound = Number.parseInt(wanted[0] ?? '', 10);
      const actual = value !== undefined && /^-?\d+$/.test(value) ? Number.parseInt(value, 10) : Number.NaN;
      if (Number.isNaN(bound) || Number.isNaN(actual)) return false;
      return str(e, 'operator') === 'Gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

/** Required node affinity: any term, each term all its requirements (a term with none matches no node). */
function affinityHolds(node: NodeFacts, spec: Rec): boolean {
  const required = rec(rec(rec(spec, 'affinity'), 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution');
  if (required === undefined) return true;
  return arr(required, 'nodeSelectorTerms').some((term) => {
    const expressions = arr(term, 'matchExpressions');
    const fields = arr(term, 'matchFields');
    if (expressions.length === 0 && fields.length === 0) return false;
    return (
      expressions.every((e) => requirementHolds(node.labels, e)) &&
      fields.every((e) => requirementHolds({ 'metadata.name': node.name }, e))
    );
  });
}

/** Why the pod cannot be scheduled on `node`, in words; undefined when it can. */
function whyNot(node: NodeFacts, pod: PodFacts): string | undefined {
  const spec = pod.spec;
  const nodeName = str(spec, 'nodeName');
  if (nodeName !== undefined && nodeName !== node.name) return `is not its nodeName ${nodeName}`;
  const selector = {
    ...stringMap(rec(pod.runtimeClass, 'scheduling'), 'nodeSelector'),
    ...stringMap(spec, 'nodeSelector'),
  };
  for (const [k, v] of Object.entries(selector)) {
    if (node.labels[k] !== v) {
      return node.labels[k] === undefined ? `has no label ${k}=${v}` : `has ${k}=${node.labels[k]}, not ${v}`;
    }
  }
  if (!affinityHolds(node, spec)) return 'does not match its required node affinity';
  const untolerated = blockingTaints(node).filter((t) => !toleratesTaint(pod, t));
  if (untolerated.length > 0) return `has the taint ${untolerated.map(taintText).join(', ')} it does not tolerate`;
  return undefined;
}

/** The node's NoSchedule and NoExecute taints of its pool (state taints left out). */
function blockingTaints(node: NodeFacts): Taint[] {
  return node.taints
    .filter((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !STATE_TAINT.test(t.key))
    .map((t) => ({
      key: t.key,
      ...(t.value !== undefined ? { value: t.value } : {}),
      effect: t.effect as TaintEffect,
    }));
}

function names(nodes: readonly NodeFacts[]): string {
  const shown = nodes.slice(0, SHOWN_NODES).map((n) => n.name);
  return nodes.length > SHOWN_NODES ? `${shown.join(', ')} and ${nodes.length - SHOWN_NODES} more` : shown.join(', ');
}

/** `has …` → `have …`: the reason said of several nodes. */
function plural(why: string): string {
  return why.replace(/^(has|is|does)\b/, (verb) => ({ has: 'have', is: 'are', does: 'do' })[verb] ?? verb);
}

function releaseName(release: WindowsRelease | undefined, build: string | undefined): string {
  if (release !== undefined) return `${releaseInfo(release).displayName}, ${releaseInfo(release).build}`;
  return build !== undefined ? `build ${build}` : 'build unknown';
}

function resourceOf(obj: Rec): Diagnostic['resource'] {
  const metadata = rec(obj, 'metadata');
  const name = str(metadata, 'name');
  const namespace = str(metadata, 'namespace');
  const apiVersion = str(obj, 'apiVersion');
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    kind: String(obj.kind),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  };
}

function label(obj: Rec): string {
  const r = resourceOf(obj);
  return `${r.kind} ${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name ?? '(no name)'}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The judgement.

/**
 * Judges the cluster's workloads (`objects`: everything read; the top-level workloads are picked here) against its
 * nodes. Each Windows workload is run through the engine once per Windows release among the nodes its pods can land
 * on, with that release as `windowsRelease` (a pod that pins a build is judged by its pin, as lint judges it); a
 * finding is reported once, with the nodes it was judged against as its evidence.
 */
export function judgeWorkloads(objects: readonly unknown[], options: WorkloadOptions): WorkloadJudgement {
  const runtimeClasses = (options.runtimeClasses ?? []).filter(isRecord);
  const nodes = options.upgradeTo !== undefined ? upgradedNodes(options.nodes, options.upgradeTo) : options.nodes;
  const windowsNodes = nodes.filter((n) => n.os === 'windows');
  const hasLinux = nodes.some((n) => n.os === 'linux');
  const kubernetesVersion = options.kubernetesVersion ?? clusterKubernetesVersion(options.nodes);
  const index = buildIndex(runtimeClasses);

  // Pods of one template schedule alike: where they can go is worked out once per scheduling spec.
  const placements = new Map<string, { eligible: NodeFacts[]; today: boolean }>();
  const placementOf = (pod: PodFacts) => {
    const spec = pod.spec;
    const key = JSON.stringify([
      spec.nodeName,
      spec.nodeSelector,
      rec(rec(spec, 'affinity'), 'nodeAffinity')?.requiredDuringSchedulingIgnoredDuringExecution,
      pod.runtimeClassName,
      pod.tolerations.map((t) => t.t),
    ]);
    let found = placements.get(key);
    if (found === undefined) {
      const eligible = windowsNodes.filter((n) => whyNot(n, pod) === undefined);
      const today =
        options.upgradeTo === undefined ||
        options.nodes.some((n) => n.os === 'windows' && whyNot(n, pod) === undefined);
      placements.set(key, (found = { eligible, today }));
    }
    return found;
  };
  const placed: Placed[] = [];
  for (const raw of objects) {
    if (!isTopLevelWorkload(raw)) continue;
    const object = asManifest(raw);
    const loc = locatePodSpec(object);
    if (loc === undefined || !isRecord(loc.spec)) continue;
    let pod: PodFacts;
    try {
      pod = analyzePod(object, loc, index, {});
    } catch {
      continue;
    }
    const placement = placementOf(pod);
    placed.push({
      object,
      pod,
      windows: pod.windows || pod.windowsHint !== undefined,
      eligible: placement.eligible,
      eligibleToday: placement.today,
    });
  }

  // One engine run per Windows release the workloads can land on; the rest (Linux workloads, Windows ones no node
  // takes, nodes of unknown builds) in one run without a release.
  const runs = new Map<WindowsRelease | 'none', { objects: Rec[]; nodes: Map<Rec, NodeFacts[]> }>();
  const runOf = (key: WindowsRelease | 'none') => {
    let run = runs.get(key);
    if (run === undefined) runs.set(key, (run = { objects: [], nodes: new Map() }));
    return run;
  };
  for (const w of placed) {
    const byRelease = w.windows ? releasesOf(w.eligible) : new Map<WindowsRelease | 'none', NodeFacts[]>();
    if (byRelease.size === 0) byRelease.set('none', []);
    for (const [key, on] of byRelease) {
      const run = runOf(key);
      run.objects.push(w.object);
      if (key !== 'none') run.nodes.set(w.object, on);
    }
  }

  const seen = new Map<string, { finding: WorkloadFinding; nodes: NodeFacts[][] }>();
  const order: string[] = [];
  const byResource = new Map<string, Rec>();
  for (const w of placed) byResource.set(resourceKey(resourceOf(w.object)), w.object);
  for (const [release, run] of runs) {
    const diagnostics = validateManifests([...run.objects, ...runtimeClasses], {
      ...(release !== 'none' ? { windowsRelease: release } : {}),
      ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
      ...(options.date !== undefined ? { date: options.date } : {}),
      rules: REPLACED_BY_NODES,
      includeSuppressed: true,
    });
    for (const found of diagnostics) {
      // `location` points into this run's input: meaningless outside it.
      const { location: _location, ...d } = found;
      const k = `${d.ruleId}\u0000${resourceKey(d.resource)}\u0000${d.path}\u0000${d.message}`;
      const object = byResource.get(resourceKey(d.resource));
      const on = object !== undefined ? run.nodes.get(object) : undefined;
      const entry = seen.get(k);
      if (entry === undefined) {
        seen.set(k, { finding: d, nodes: on !== undefined ? [on] : [] });
        order.push(k);
      } else if (on !== undefined) entry.nodes.push(on);
    }
  }

  const findings: WorkloadFinding[] = [];
  const suppressed: WorkloadFinding[] = [];
  for (const k of order) {
    const { finding, nodes: on } = seen.get(k)!;
    const withEvidence: WorkloadFinding = on.some((list) => list.length > 0)
      ? { ...finding, evidence: nodesEvidence(on) }
      : finding;
    if (finding.suppression?.honoured === true) suppressed.push(withEvidence);
    else findings.push(withEvidence);
  }
  findings.push(...clusterFindings(placed, windowsNodes, hasLinux, options.upgradeTo));
  return { findings, suppressed, workloads: placed.length };
}

function resourceKey(r: Diagnostic['resource']): string {
  return `${r.kind ?? ''}/${r.namespace ?? ''}/${r.name ?? ''}`;
}

/** The nodes by the Windows release they run (`'none'`: a build the table does not know). */
function releasesOf(nodes: readonly NodeFacts[]): Map<WindowsRelease | 'none', NodeFacts[]> {
  const out = new Map<WindowsRelease | 'none', NodeFacts[]>();
  for (const n of nodes) {
    const key = n.release ?? 'none';
    const list = out.get(key);
    if (list === undefined) out.set(key, [n]);
    else list.push(n);
  }
  return out;
}

/** `win2019-1, win2019-2 (Windows Server 2019, 10.0.17763)`, one group per release; each node once. */
function nodesEvidence(lists: readonly (readonly NodeFacts[])[]): DoctorEvidence {
  const groups = new Map<string, NodeFacts[]>();
  const named = new Set<string>();
  for (const list of lists) {
    for (const n of list) {
      if (named.has(n.name)) continue;
      named.add(n.name);
      const k = releaseName(n.release, n.build);
      const group = groups.get(k);
      if (group === undefined) groups.set(k, [n]);
      else group.push(n);
    }
  }
  return {
    from: 'the Windows nodes its pods can be scheduled on',
    text: [...groups].map(([release, list]) => `${names(list)} (${release})`).join('; '),
  };
}

/** The findings only the nodes show: a Windows DaemonSet no Windows node runs, a Linux pod Windows nodes take. */
function clusterFindings(
  placed: readonly Placed[],
  windowsNodes: readonly NodeFacts[],
  hasLinux: boolean,
  upgradeTo: WindowsRelease | undefined,
): WorkloadFinding[] {
  const out: WorkloadFinding[] = [];
  const after = upgradeTo !== undefined ? `With every Windows node on ${releaseInfo(upgradeTo).displayName}, ` : '';
  for (const w of placed) {
    const { pod, object } = w;
    const isDaemonSet = w.object.kind === 'DaemonSet';
    // A DaemonSet's pods are never made where they cannot run; other workloads' stay Pending and are explained as
    // stuck pods, unless it is the upgrade that would leave them nowhere to go.
    const unschedulable =
      pod.windows &&
      windowsNodes.length > 0 &&
      w.eligible.length === 0 &&
      (isDaemonSet || (upgradeTo !== undefined && w.eligibleToday));
    if (unschedulable) {
      const reasons = new Map<string, NodeFacts[]>();
      for (const n of windowsNodes) {
        const why = whyNot(n, pod) ?? '';
        reasons.set(why, [...(reasons.get(why) ?? []), n]);
      }
      const untolerated = new Map<string, Taint>();
      for (const n of windowsNodes) {
        for (const t of blockingTaints(n)) if (!toleratesTaint(pod, t)) untolerated.set(taintText(t), t);
      }
      const builds = [...new Set(windowsNodes.map((n) => n.build).filter((b): b is string => b !== undefined))];
      const fixes: string[] = [];
      if (untolerated.size > 0) {
        fixes.push(`tolerate ${[...untolerated.keys()].join(', ')} in ${pod.path}.tolerations`);
      }
      fixes.push(
        `select only labels the Windows nodes carry in ${pod.path}.nodeSelector and its node affinity${builds.length > 0 ? ` (their ${NODE_LABEL_FACTS.windowsBuild}: ${builds.join(', ')})` : ''}`,
      );
      const why = [...reasons].map(([reason, list]) => `${names(list)} ${list.length === 1 ? reason : plural(reason)}`);
      out.push({
        ruleId: isDaemonSet ? 'doctor-daemonset-unschedulable' : 'doctor-upgrade-unschedulable',
        severity: 'error' satisfies Severity,
        path: pod.path,
        resource: resourceOf(object),
        message: isDaemonSet
          ? `${after}${label(object)} is a Windows DaemonSet that no Windows node runs: ${why.join('; ')}. The DaemonSet controller creates no pod there, so nothing is Pending and no event says so.`
          : `${after}no Windows node takes the pods of ${label(object)}, which run today: ${why.join('; ')}. Its pods would stay Pending once the nodes they run on are replaced.`,
        fix: `${fixes.join('; and ')}.`.replace(/^./, (c) => c.toUpperCase()),
      });
    }
    if (
      hasLinux &&
      !w.windows &&
      pod.windowsByName === undefined &&
      !selectsOs(pod, 'linux') &&
      !affinityExcludesWindows(pod) &&
      w.eligible.length > 0
    ) {
      out.push({
        ruleId: 'doctor-linux-pod-on-windows-node',
        severity: 'warning',
        path: `${pod.path}.nodeSelector`,
        resource: resourceOf(object),
        message: `${after}${label(object)} is a Linux workload without a ${NODE_LABEL_FACTS.os}: linux nodeSelector, and the Windows node${w.eligible.length === 1 ? '' : 's'} ${names(w.eligible)} can take its pods (no taint there it does not tolerate): a pod scheduled there never starts its Linux image ("no match for platform in manifest").`,
        fix: `Add nodeSelector { ${NODE_LABEL_FACTS.os}: linux } to ${pod.path} (k8s-windows fix --pin-linux writes it), or taint the Windows nodes (os=windows:NoSchedule, as the node pool components do) and give the Windows workloads the toleration.`,
      });
    }
  }
  return out;
}
