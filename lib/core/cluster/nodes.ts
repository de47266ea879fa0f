/**
 * What a cluster's nodes say, read as the kubelet writes them: which are Windows (the `kubernetes.io/os` label the
 * kubelet sets, else `status.nodeInfo.operatingSystem`), their Windows build (`node.kubernetes.io/windows-build`,
 * else the first three parts of `nodeInfo.kernelVersion`), their taints; and the findings on the nodes themselves.
 */
import { NODE_LABEL_FACTS } from '../facts/kubernetes';
import { HOSTPROCESS_RUNTIME_FACT } from '../facts/node-runtime';
import { releaseSupport } from '../facts/support';
import type { IsoDate } from '../facts/types';
import { WINDOWS_RELEASE_FACTS } from '../facts/windows';
import type { Diagnostic } from '../model/types';
import { releaseForBuild, releaseInfo, retiredRelease, type WindowsRelease } from '../releases';

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

/** What the node findings weigh beside the nodes. */
export interface NodeFindingOptions {
  /** The day support is judged at (`YYYY-MM-DD`). @default today */
  readonly date?: IsoDate;
  /**
   * The HostProcess workloads in the cluster (`DaemonSet kube-system/csi-proxy`): a Windows node whose runtime runs
   * no HostProcess container is a finding only when there are some. @default none
   */
  readonly hostProcessWorkloads?: readonly string[];
}

/** `containerd://1.6.28` → [1, 6]; other runtimes (`docker://20.10.9`) → their name. */
function runtimeOf(version: string | undefined): { name: string; major?: number; minor?: number } | undefined {
  if (version === undefined) return undefined;
  const m = /^([a-z-]+):\/\/v?(\d+)\.(\d+)/.exec(version);
  if (m === null) return { name: version.split(':')[0] ?? version };
  return { name: m[1]!, major: Number(m[2]), minor: Number(m[3]) };
}

/** Whether `version` (`1.6`) is older than `minimum` (`1.7`). */
function older(major: number, minor: number, minimum: string): boolean {
  const [wantMajor = 0, wantMinor = 0] = minimum.split('.').map(Number);
  return major < wantMajor || (major === wantMajor && minor < wantMinor);
}

const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', name }) as const;

/**
 * Findings on the nodes: a Windows node without a NoSchedule or NoExecute taint in a cluster that also runs Linux
 * nodes takes any pod without an OS selector, and a Linux image there never starts; a Windows node of a retired or
 * deprecated release; a Windows node whose runtime runs no HostProcess container while the cluster has some.
 */
export function nodeFindings(nodes: readonly NodeFacts[], options: NodeFindingOptions = {}): Diagnostic[] {
  const hasLinux = nodes.some((n) => n.os === 'linux');
  const out: Diagnostic[] = [];
  for (const n of nodes) {
    if (n.os !== 'windows') continue;
    // A state taint (node.kubernetes.io/not-ready, which the API server's TaintNodesByCondition admission puts on
    // every new node, unschedulable, …) goes away with the state: it keeps no Linux pod off the pool.
    const poolTaint = n.taints.some(
      (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !STATE_TAINT.test(t.key),
    );
    if (hasLinux && !poolTaint) {
      out.push({
        ruleId: 'doctor-windows-node-untainted',
        severity: 'warning',
        path: 'spec.taints',
        resource: node(n.name),
        message: `Windows node ${n.name} has no NoSchedule taint in a cluster that also runs Linux nodes: a pod without a kubernetes.io/os selector (most Helm charts' Linux pods) can be scheduled here and then fails to pull or start its Linux image.`,
        fix: `Taint the Windows pool (os=windows:NoSchedule, as the node pool components do), and give Windows pods the toleration; or give every Linux pod a kubernetes.io/os: linux nodeSelector.`,
      });
    }
    out.push(...releaseFindings(n, options.date));
    out.push(...runtimeFindings(n, options.hostProcessWorkloads ?? []));
  }
  return out;
}

/** A Windows node of a retired release (2016, a Semi-Annual Channel one), or of one whose support has ended. */
function releaseFindings(n: NodeFacts, date: IsoDate | undefined): Diagnostic[] {
  if (n.build === undefined) return [];
  const where =
    n.labels[NODE_LABEL_FACTS.windowsBuild] !== undefined
      ? `metadata.labels[${NODE_LABEL_FACTS.windowsBuild}]`
      : 'status.nodeInfo.kernelVersion';
  const retired = retiredRelease(n.build);
  if (retired !== undefined) {
    return [
      {
        ruleId: 'doctor-windows-node-release-unsupported',
        severity: 'warning',
        path: where,
        resource: node(n.name),
        message: `Windows node ${n.name} runs ${retired.displayName} (build ${retired.build})${retired.channel === 'SAC' ? ', an end-of-life Semi-Annual Channel release' : ''}, which Kubernetes does not support as a node OS: it gets no security updates, and images of the supported releases do not run on it.`,
        fix: 'Replace the pool with nodes of a supported release (Windows Server 2022 or 2025; 2019 until its support ends) and rebuild the images it runs for that release.',
      },
    ];
  }
  if (n.release === undefined) return [];
  const support = releaseSupport(n.release, date);
  if (support.state === 'supported') return [];
  // Advice: such a pool still runs (Microsoft's support may go on for years); the move is to plan, not to fix now.
  return [
    {
      ruleId: 'doctor-windows-node-release-unsupported',
      severity: 'info',
      path: where,
      resource: node(n.name),
      message: `Windows node ${n.name} runs ${WINDOWS_RELEASE_FACTS[n.release].displayName} (build ${n.build}), whose support is ending: ${support.reasons.join('; ')}.`,
      fix: 'Plan the move of the pool to a newer Windows Server release (2022 or 2025), with images rebuilt for it.',
    },
  ];
}

/** A Windows node whose runtime cannot run HostProcess containers, while the cluster has HostProcess workloads. */
function runtimeFindings(n: NodeFacts, hostProcess: readonly string[]): Diagnostic[] {
  if (hostProcess.length === 0) return [];
  const runtime = runtimeOf(n.nodeInfo.containerRuntimeVersion);
  if (runtime === undefined) return [];
  const { minimumContainerd } = HOSTPROCESS_RUNTIME_FACT;
  const tooOld =
    runtime.name === 'containerd' && runtime.major !== undefined && runtime.minor !== undefined
      ? older(runtime.major, runtime.minor, minimumContainerd)
      : runtime.name === 'docker';
  if (!tooOld) return [];
  const named =
    hostProcess.slice(0, 3).join(', ') + (hostProcess.length > 3 ? ` and ${hostProcess.length - 3} more` : '');
  return [
    {
      ruleId: 'doctor-windows-node-runtime-hostprocess',
      severity: 'warning',
      path: 'status.nodeInfo.containerRuntimeVersion',
      resource: node(n.name),
      message: `Windows node ${n.name} runs ${n.nodeInfo.containerRuntimeVersion}, which runs no HostProcess container (they need containerd ${minimumContainerd} or newer): ${named} cannot start there.`,
      fix: `Upgrade the node's runtime to containerd ${HOSTPROCESS_RUNTIME_FACT.recommendedContainerd} or newer (the recommended one: volume mounts at their mountPath), or keep the HostProcess workloads off these nodes.`,
    },
  ];
}
