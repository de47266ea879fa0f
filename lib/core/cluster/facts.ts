/**
 * The cluster's facts from the cluster (`k8s-windows doctor --facts`): the `WindowsClusterFacts` spec the admission
 * policies take (`policies --cluster-facts`, lib/core/policies/cluster-facts.ts), built from the live Windows nodes
 * and the Windows RuntimeClasses instead of typed by hand. Pure: the nodes as read (./nodes.ts) in, the facts out,
 * checked as user facts are.
 */
import { checkClusterFacts } from '../policies/cluster-facts';
import type { ClusterFacts, ClusterPool, ClusterRuntimeClass, FactsTaint, PoolProvider } from '../policies/types';
import { isWindowsRuntimeHandler } from '../releases';
import { isRecord, rec, str, stringMap } from '../model/util';
import { NODE_LABEL_FACTS } from '../facts/kubernetes';
import { STATE_TAINT, type NodeFacts } from './nodes';

/**
 * The node labels that name a node's pool, and who runs such a pool, first match wins. GKE: "Each node in the pool
 * has a Kubernetes node label, `cloud.google.com/gke-nodepool`, which has the node pool's name"
 * (https://docs.cloud.google.com/kubernetes-engine/docs/concepts/node-pools, read 2026-12-07). The AKS, EKS and
 * Karpenter labels are as those node pools write them on their nodes: unverified against their docs here.
 */
export const POOL_LABELS: readonly (readonly [string, PoolProvider])[] = [
  ['cloud.google.com/gke-nodepool', 'gke'],
  ['kubernetes.azure.com/agentpool', 'aks'],
  ['agentpool', 'aks'],
  ['eks.amazonaws.com/nodegroup', 'eks'],
  ['karpenter.sh/nodepool', 'karpenter'],
];

/** Labels true of one node only, never of its pool. */
const NODE_OWN_LABELS: ReadonlySet<string> = new Set(['kubernetes.io/hostname']);

/** The most labels one pool keeps in the facts (the CRD's bound): the pool, OS and build labels come first. */
const MAX_POOL_LABELS = 64;

const EFFECTS: ReadonlySet<string> = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** A pool name the facts take: lowercase, `[a-z0-9-]`, at most 63 characters. */
function poolName(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return name === '' ? 'windows' : name;
}

/**
 * Cluster facts from the nodes and RuntimeClasses: one pool per value of the node's pool label (`POOL_LABELS`), or,
 * for nodes without one, per Windows build and taints (`windows-10-0-20348`). A pool holds the labels and pool taints
 * every one of its nodes carries (state taints and the hostname left out); its build is the nodes' build when they
 * agree. RuntimeClasses with a Windows handler, with the build their scheduling selects. Checked as written facts are
 * (`checkClusterFacts`, which throws `WindowsValidationError` naming every bad field).
 */
export function clusterFactsFromNodes(nodes: readonly NodeFacts[], runtimeClasses: readonly unknown[]): ClusterFacts {
  const groups = new Map<string, { provider: PoolProvider; nodes: NodeFacts[] }>();
  for (const node of nodes) {
    if (node.os !== 'windows') continue;
    const byLabel = POOL_LABELS.find(([label]) => node.labels[label] !== undefined);
    const key = byLabel
      ? `${byLabel[1]}\u0000${node.labels[byLabel[0]]}`
      : `other\u0000windows-${node.build ?? 'unknown'}\u0000${poolTaints(node)
          .map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`)
          .sort()
          .join(',')}`;
    const group = groups.get(key);
    if (group) group.nodes.push(node);
    else groups.set(key, { provider: byLabel?.[1] ?? 'other', nodes: [node] });
  }
  const pools: ClusterPool[] = [];
  const used = new Set<string>();
  for (const [key, { provider, nodes: members }] of groups) {
    const base = poolName(provider === 'other' ? (key.split('\u0000')[1] ?? 'windows') : key.split('\u0000')[1]!);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base.slice(0, 60)}-${i}`;
    used.add(name);
    const builds = new Set(members.map((n) => n.build));
    const build = builds.size === 1 ? members[0]!.build : undefined;
    pools.push({
      name,
      provider,
      ...(build !== undefined ? { build } : {}),
      labels: commonLabels(members),
      taints: commonTaints(members),
    });
  }
  const classes: ClusterRuntimeClass[] = [];
  for (const rc of runtimeClasses) {
    if (!isRecord(rc)) continue;
    const name = str(rec(rc, 'metadata'), 'name');
    const handler = str(rc, 'handler');
    if (name === undefined || !isWindowsRuntimeHandler(handler)) continue;
    const build = stringMap(rec(rc, 'scheduling'), 'nodeSelector')[NODE_LABEL_FACTS.windowsBuild];
    classes.push({ name, handler, ...(build !== undefined ? { build } : {}) });
  }
  const facts: ClusterFacts = { pools, runtimeClasses: classes };
  checkClusterFacts(facts, 'the cluster facts read from the nodes');
  return facts;
}

function poolTaints(node: NodeFacts): FactsTaint[] {
  return node.taints
    .filter((t) => EFFECTS.has(t.effect) && !STATE_TAINT.test(t.key))
    .map((t) => ({
      key: t.key,
      ...(t.value !== undefined ? { value: t.value } : {}),
      effect: t.effect as FactsTaint['effect'],
    }));
}

/** The labels every node of the pool carries with one value; the pool's own, OS and build labels first. */
function commonLabels(members: readonly NodeFacts[]): Record<string, string> {
  const [first, ...rest] = members;
  if (first === undefined) return {};
  const common = Object.entries(first.labels).filter(
    ([k, v]) => !NODE_OWN_LABELS.has(k) && rest.every((n) => n.labels[k] === v),
  );
  const first3 = new Set<string>([...POOL_LABELS.map(([l]) => l), NODE_LABEL_FACTS.os, NODE_LABEL_FACTS.windowsBuild]);
  common.sort(([a], [b]) => Number(first3.has(b)) - Number(first3.has(a)) || a.localeCompare(b));
  return Object.fromEntries(common.slice(0, MAX_POOL_LABELS));
}

/** The pool taints every node of the pool carries. */
function commonTaints(members: readonly NodeFacts[]): FactsTaint[] {
  const [first, ...rest] = members;
  if (first === undefined) return [];
  const same = (a: FactsTaint, b: FactsTaint) =>
    a.key === b.key && (a.value ?? '') === (b.value ?? '') && a.effect === b.effect;
  return poolTaints(first).filter((t) => rest.every((n) => poolTaints(n).some((u) => same(t, u))));
}
