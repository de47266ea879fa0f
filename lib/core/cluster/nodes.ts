/**
 * What a cluster's nodes say, read as the kubelet writes them: which are Windows (the `kubernetes.io/os` label the
 * kubelet sets, else `status.nodeInfo.operatingSystem`), their Windows build (`node.kubernetes.io/windows-build`,
 * else the first three parts of `nodeInfo.kernelVersion`), their taints; and the findings on the nodes themselves.
 */
import { NODE_LABEL_FACTS } from '../facts/kubernetes';
import type { Diagnostic } from '../model/types';
import { releaseForBuild, releaseInfo, type WindowsRelease } from '../releases';

export interface NodeFacts {
  readonly name: string;
  readonly os: 'windows' | 'linux' | 'unknown';
  /** `10.0.20348`, if known. */
  readonly build?: string;
  /** The Windows release of `build` (`'2022'`), when the build is one of the table's. */
  readonly release?: WindowsRelease;
  readonly taints: readonly { readonly key: string; readonly value?: string; readonly effect: string }[];
  readonly labels: Readonly<Record<string, string>>;
  /** What the kubelet wrote in `status.nodeInfo` (the fields it holds as strings). */
  readonly nodeInfo: {
    readonly osImage?: string;
    readonly kernelVersion?: string;
    readonly containerRuntimeVersion?: string;
    readonly kubeletVersion?: string;
  };
}

type Json = Record<string, unknown>;

/** Taints that describe a node's state (not-ready, unreachable, cordoned, uninitialized), not its pool. */
export const STATE_TAINT = /^node\.(kubernetes\.io|cloudprovider\.kubernetes\.io)\//;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** The facts of one Node object. */
export function nodeFacts(node: Json): NodeFacts {
  const metadata = record(node.metadata);
  const labels = Object.fromEntries(
    Object.entries(record(metadata.labels)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const info = record(record(node.status).nodeInfo);
  const osLabel = labels[NODE_LABEL_FACTS.os] ?? (typeof info.operatingSystem === 'string' ? info.operatingSystem : '');
  const os = osLabel === 'windows' ? 'windows' : osLabel === 'linux' ? 'linux' : 'unknown';
  const kernel = typeof info.kernelVersion === 'string' ? /^(\d+\.\d+\.\d+)/.exec(info.kernelVersion)?.[1] : undefined;
  const build = labels[NODE_LABEL_FACTS.windowsBuild] ?? (os === 'windows' ? kernel : undefined);
  const taints = (Array.isArray(record(node.spec).taints) ? (record(node.spec).taints as unknown[]) : [])
    .map(record)
    .filter((t) => typeof t.key === 'string' && typeof t.effect === 'string')
    .map((t) => ({
      key: t.key as string,
      ...(typeof t.value === 'string' ? { value: t.value } : {}),
      effect: t.effect as string,
    }));
  const release = build ? releaseForBuild(build) : undefined;
  const nodeInfo: Record<string, string> = {};
  for (const field of ['osImage', 'kernelVersion', 'containerRuntimeVersion', 'kubeletVersion'] as const) {
    const value = info[field];
    if (typeof value === 'string' && value !== '') nodeInfo[field] = value;
  }
  return {
    name: typeof metadata.name === 'string' ? metadata.name : '(no name)',
    os,
    ...(build ? { build } : {}),
    ...(os === 'windows' && release !== undefined ? { release } : {}),
    taints,
    labels,
    nodeInfo,
  };
}

/**
 * The nodes as they would be after every Windows pool moved to `release` (`doctor --upgrade-to`): each Windows
 * node's build, its `node.kubernetes.io/windows-build` label and its release are that release's; nothing else
 * changes (taints, pool labels and the Linux nodes stay as they are).
 */
export function upgradedNodes(nodes: readonly NodeFacts[], release: WindowsRelease): NodeFacts[] {
  const build = releaseInfo(release).build;
  return nodes.map((n) =>
    n.os === 'windows' ? { ...n, build, release, labels: { ...n.labels, [NODE_LABEL_FACTS.windowsBuild]: build } } : n,
  );
}

/**
 * Findings on the nodes: a Windows node without a NoSchedule or NoExecute taint in a cluster that also runs Linux
 * nodes takes any pod without an OS selector, and a Linux image there never starts.
 */
export function nodeFindings(nodes: readonly NodeFacts[]): Diagnostic[] {
  const hasLinux = nodes.some((n) => n.os === 'linux');
  if (!hasLinux) return [];
  const out: Diagnostic[] = [];
  for (const node of nodes) {
    if (node.os !== 'windows') continue;
    // A state taint (node.kubernetes.io/not-ready, which the API server's TaintNodesByCondition admission puts on
    // every new node, unschedulable, …) goes away with the state: it keeps no Linux pod off the pool.
    if (node.taints.some((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !STATE_TAINT.test(t.key)))
      continue;
    out.push({
      ruleId: 'doctor-windows-node-untainted',
      severity: 'warning',
      path: 'spec.taints',
      resource: { apiVersion: 'v1', kind: 'Node', name: node.name },
      message: `Windows node ${node.name} has no NoSchedule taint in a cluster that also runs Linux nodes: a pod without a kubernetes.io/os selector (most Helm charts' Linux pods) can be scheduled here and then fails to pull or start its Linux image.`,
      fix: `Taint the Windows pool (os=windows:NoSchedule, as the node pool components do), and give Windows pods the toleration; or give every Linux pod a kubernetes.io/os: linux nodeSelector.`,
    });
  }
  return out;
}
