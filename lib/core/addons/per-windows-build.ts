/**
 * `perWindowsBuild`, written once for both front doors: an agent that is not HostProcess runs an image built for one
 * Windows build, and a node of another refuses it ("The container operating system does not match the host operating
 * system"). So the DaemonSet is copied once per Windows release the pools run, each copy with that release's image
 * and a `node.kubernetes.io/windows-build` selector (New Relic's `windowsOsList` pattern).
 */
import { IssueCollector, type ValidationIssue } from '../errors';
import { OS_LABEL, WINDOWS_BUILD_LABEL, type Toleration } from '../kube';
import { releaseInfo, WINDOWS_RELEASES, type WindowsRelease } from '../releases';
import { tolerates, tolerationFor, type Taint, type WindowsNodeTarget } from '../target';

/** A node pool: the node-pool components and the Karpenter construct expose their `nodeTarget`. */
export interface WindowsBuildPool {
  readonly nodeTarget: WindowsNodeTarget;
}

/** The pod label that tells the copies' pods apart, so no two DaemonSets select the same pods. */
export const WINDOWS_RELEASE_POD_LABEL = 'k8s-windows.io/windows-release';

export interface PerWindowsBuildOptions {
  /**
   * The image for each Windows release the pools run: the agent's tag built for that release
   * (`{ '2019': 'vendor/agent:1.2-ltsc2019', '2022': 'vendor/agent:1.2-ltsc2022' }`). Every release a pool runs
   * needs one.
   */
  readonly images: Partial<Readonly<Record<WindowsRelease, string>>>;
  /**
   * The containers (and init containers) whose image is the per-release one.
   * @default - every container and init container
   */
  readonly containers?: readonly string[];
}

/** One copy to make: the release, its build label value, its image and the taints of its pools. */
export interface WindowsBuildCopy {
  readonly release: WindowsRelease;
  readonly build: string;
  readonly image: string;
  readonly taints: readonly Taint[];
}

const sameTaint = (a: Taint, b: Taint) => a.key === b.key && a.value === b.value && a.effect === b.effect;

/** The copies the pools need, one per release, in release order; `issues` lists every problem at once. */
export function windowsBuildCopies(
  pools: readonly WindowsBuildPool[],
  options: PerWindowsBuildOptions,
): { readonly copies: readonly WindowsBuildCopy[]; readonly issues: readonly ValidationIssue[] } {
  const issues = new IssueCollector();
  const images: Partial<Record<string, unknown>> = (options as Partial<PerWindowsBuildOptions>)?.images ?? {};
  if (!Array.isArray(pools) || pools.length === 0) {
    issues.add('pools', 'pools names no node pool.', 'Give the pools the agent runs on, e.g. [pool2019, pool2022].');
  }
  const taintsByRelease = new Map<WindowsRelease, Taint[]>();
  (Array.isArray(pools) ? pools : []).forEach((pool, i) => {
    const release = pool?.nodeTarget?.release;
    if (release === undefined) {
      issues.add(
        `pools[${i}]`,
        'the pool runs no pinned Windows release, so its build is unknown.',
        "Pin the pool's Windows release (its `release` prop), or run a HostProcess agent, which needs no per-build image.",
      );
      return;
    }
    const taints = taintsByRelease.get(release) ?? [];
    for (const t of pool.nodeTarget.taints) if (!taints.some((x) => sameTaint(x, t))) taints.push(t);
    taintsByRelease.set(release, taints);
  });
  for (const [release] of taintsByRelease) {
    const image = images[release];
    if (typeof image !== 'string' || image.trim() === '' || /\s/.test(image)) {
      issues.add(
        `images.${release}`,
        `images has ${image === undefined ? 'no image' : JSON.stringify(image)} for Windows Server ${release}, which a pool runs.`,
        `Give the agent's tag built for Windows Server ${release} (build ${releaseInfo(release).build}).`,
      );
    }
  }
  const containers: unknown = options?.containers;
  if (containers !== undefined && (!Array.isArray(containers) || containers.length === 0)) {
    issues.add(
      'containers',
      `containers ${JSON.stringify(containers)} names no container.`,
      'Name at least one, or omit it for every container.',
    );
  }
  const copies = WINDOWS_RELEASES.filter((r) => taintsByRelease.has(r)).map((release) => ({
    release,
    build: releaseInfo(release).build,
    image: String(images[release]),
    taints: taintsByRelease.get(release) ?? [],
  }));
  return { copies, issues: issues.issues };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/**
 * The DaemonSet (in the API's form) for one copy: named `<name>-<release>`, its pods labelled with the release and
 * selected by it, scheduled on that build's Windows nodes (nodeSelector and `os.name`), tolerating the taints of that
 * release's pools besides what it tolerated, its containers running that release's image. Everything else is kept.
 */
export function daemonSetForBuild(daemonSet: Json, copy: WindowsBuildCopy, containers?: readonly string[]): Json {
  // A JSON copy, not structuredClone: under jest's realms its arrays fail `instanceof Array` in cdk8s and Pulumi.
  const ds = JSON.parse(JSON.stringify(daemonSet)) as Json;
  const metadata = obj(ds.metadata);
  const spec = obj(ds.spec);
  const template = obj(spec.template);
  const podMeta = obj(template.metadata);
  const pod = obj(template.spec);
  const selector = obj(spec.selector);
  const releaseLabel = { [WINDOWS_RELEASE_POD_LABEL]: copy.release };
  const tolerations = [...((pod.tolerations as Toleration[] | undefined) ?? [])];
  for (const t of copy.taints) if (!tolerations.some((x) => tolerates(x, t))) tolerations.push(tolerationFor(t));
  const image = (c: unknown) => {
    const container = obj(c);
    return containers === undefined || containers.includes(String(container.name))
      ? { ...container, image: copy.image }
      : container;
  };
  return {
    ...ds,
    metadata: { ...metadata, name: `${String(metadata.name)}-${copy.release}` },
    spec: {
      ...spec,
      selector: { ...selector, matchLabels: { ...obj(selector.matchLabels), ...releaseLabel } },
      template: {
        ...template,
        metadata: { ...podMeta, labels: { ...obj(podMeta.labels), ...releaseLabel } },
        spec: {
          ...pod,
          os: { name: 'windows' },
          nodeSelector: { ...obj(pod.nodeSelector), [OS_LABEL]: 'windows', [WINDOWS_BUILD_LABEL]: copy.build },
          ...(tolerations.length > 0 ? { tolerations } : {}),
          containers: ((pod.containers as unknown[] | undefined) ?? []).map(image),
          ...(pod.initContainers !== undefined ? { initContainers: (pod.initContainers as unknown[]).map(image) } : {}),
        },
      },
    },
  };
}
