/**
 * `WindowsNodePool` for GKE: a `gcp.container.NodePool` that is a valid Windows Server pool by construction,
 * and the `nodeTarget` workloads use to land on it.
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 * @see https://www.pulumi.com/registry/packages/gcp/api-docs/container/nodepool/
 */
import { checkEvaluationDate } from '../../core/facts/support';
import * as pulumi from '@pulumi/pulumi';
import * as container from '@pulumi/gcp/container';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsWarning } from '../../core/pod-spec';
import { DEFAULT_WINDOWS_RELEASE, isWindowsRelease, releaseInfo, type WindowsRelease } from '../../core/releases';
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, type Taint, type WindowsNodeTarget } from '../../core/target';
import {
  ComponentRefusals,
  findingWarnings,
  checkNodeLabels,
  checkRelease,
  checkTaints,
  logWarnings,
  type NodePoolScaling,
  type NodePoolScalingArgs,
  nodePoolTarget,
  resolveAutoscaling,
  toCloudTaintEffect,
} from '../node-pool';
import { runCloudRules } from '../../core/rules/cloud-runner';
import { bool, mergeShapeIssues, NODE_POOL_SHAPES, object, shapedArgs, str, type ArgShapes } from '../arg-shapes';
import { plainArgs, requireArgs, throwInputErrors } from '../errors';
import { checkGkeClusterForWindows, checkGkeClusterInfo, type GkeClusterInfo } from './cluster-checks';
import { DEFAULT_GKE_WINDOWS_MACHINE_TYPE, GKE_WINDOWS_IMAGE_TYPE } from './node-pool-checks';

/** `nodeConfig` as a plain object (the SDK's `NodePoolNodeConfig`), without Output/Promise wrappers. */
type NodeConfig = Exclude<
  NonNullable<container.NodePoolArgs['nodeConfig']>,
  Promise<unknown> | pulumi.OutputInstance<unknown>
>;
/** nodeConfig fields the component sets itself. */
type ManagedNodeConfigKeys = 'imageType' | 'windowsNodeConfig' | 'machineType' | 'labels' | 'taints';
/** NodePool args the component sets itself. */
type ManagedNodePoolKeys =
  'cluster' | 'location' | 'project' | 'nodeConfig' | 'nodeCount' | 'initialNodeCount' | 'autoscaling' | 'version';

export interface WindowsNodePoolArgs {
  /**
   * The cluster to join, and what is known about it (VPC-native, a Linux pool, Autopilot): known facts are
   * checked, and a cluster that cannot take Windows pools is refused.
   */
  readonly cluster: GkeClusterInfo;
  /**
   * The args the cluster was (or will be) created with, checked like the stated facts: see
   * `checkGkeClusterForWindows`.
   * @default - not checked
   */
  readonly clusterArgs?: container.ClusterArgs;
  /**
   * Windows Server release of the nodes; sets `windowsNodeConfig.osversion`. GKE offers 2019 and 2022 (no 2025).
   * @default '2022'
   * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows#choose_your_windows_server_node_image
   */
  readonly release?: WindowsRelease;
  /**
   * Kubernetes version of the pool's nodes (`version`), checked against the release when it is a plain string.
   * @default - omitted: the cluster's version
   */
  readonly kubernetesVersion?: pulumi.Input<string>;
  /**
   * The day support is judged at (`YYYY-MM-DD`), for reproducible previews and tests.
   * @default - today
   */
  readonly date?: string;
  /**
   * Machine type: x86_64 (Arm families T2A, C4A, N4A are refused), 8 GB or more (smaller types warn).
   * @default 'n2-standard-4' (4 vCPU, 16 GB)
   * @see https://cloud.google.com/compute/docs/machine-resource
   */
  readonly machineType?: string;
  /**
   * Node labels (`nodeConfig.labels`), also selected on by workloads through `nodeTarget`.
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Node taints, Kubernetes spelling (`NoSchedule`); converted to GKE's `NO_SCHEDULE` for `nodeConfig.taints`.
   * @default [WINDOWS_TAINT] (`os=windows:NoSchedule`)
   * @see https://cloud.google.com/kubernetes-engine/docs/how-to/node-taints
   */
  readonly taints?: readonly Taint[];
  /**
   * Node counts, **per zone** as GKE counts them: `desiredSize` is `nodeCount` (or `initialNodeCount` with
   * autoscaling); `minSize`/`maxSize` are `autoscaling.minNodeCount`/`maxNodeCount`.
   * @default { minSize: 1, maxSize: 2, desiredSize: 2 }
   */
  readonly scaling?: NodePoolScalingArgs;
  /**
   * Let the cluster autoscaler scale the pool between `scaling.minSize` and `scaling.maxSize` per zone.
   * @default - true when `scaling.minSize` or `scaling.maxSize` is set, false otherwise
   * @see https://cloud.google.com/kubernetes-engine/docs/concepts/cluster-autoscaler
   */
  readonly autoscaling?: boolean;
  /**
   * Further `nodeConfig` fields (`diskSizeGb`, `serviceAccount`, `oauthScopes`…). The fields this component sets
   * (imageType, windowsNodeConfig, machineType, labels, taints) cannot be overridden.
   * @default {}
   */
  readonly nodeConfig?: Omit<NodeConfig, ManagedNodeConfigKeys>;
  /**
   * Further NodePool args (`name`, `management`, `nodeLocations`, `upgradeSettings`…).
   * @default {}
   */
  readonly nodePoolArgs?: Omit<container.NodePoolArgs, ManagedNodePoolKeys>;
}

/** The component's type token. */
export const GKE_WINDOWS_NODE_POOL_TYPE = 'k8s-windows:gke:WindowsNodePool';

/**
 * A Windows Server node pool on GKE (`WINDOWS_LTSC_CONTAINERD`, the release's osversion, tainted
 * `os=windows:NoSchedule`). Bad args raise one `pulumi.InputPropertiesError` listing every problem, before any
 * resource is registered.
 *
 * `nodeTarget.taints` holds the pool's taints **and** `node.kubernetes.io/os=windows:NoSchedule`
 * (`GKE_WINDOWS_TAINT`): GKE is said to put that taint on Windows nodes itself (unverified: GKE's docs do not show it), and a
 * toleration for a taint that is absent costs nothing, while a missing one leaves pods Pending.
 */
export class WindowsNodePool extends pulumi.ComponentResource {
  /** The scheduling contract of this pool's nodes. */
  public readonly nodeTarget: WindowsNodeTarget;
  /** The Windows Server release the nodes run. */
  public readonly release: WindowsRelease;
  /** The GKE node pool. */
  public readonly nodePool: container.NodePool;

  constructor(name: string, rawArgs: WindowsNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    // Validate before `super`: nothing, not even the component, is registered for bad input.
    const args = requireArgs(`gke.WindowsNodePool ${name}`, rawArgs);
    const resolved = resolveArgs(name, args);
    super(GKE_WINDOWS_NODE_POOL_TYPE, name, {}, opts);
    logWarnings(resolved.warnings, this, name);

    this.release = resolved.release;
    const targetTaints = resolved.taints.some((t) => sameTaint(t, GKE_WINDOWS_TAINT))
      ? resolved.taints
      : [...resolved.taints, GKE_WINDOWS_TAINT];
    this.nodeTarget = nodePoolTarget({ release: resolved.release, labels: resolved.labels, taints: targetTaints });

    const { minSize, maxSize, desiredSize } = resolved.scaling;
    const osversion = releaseInfo(resolved.release).gkeOsVersion as string;
    this.nodePool = new container.NodePool(
      name,
      {
        ...args.nodePoolArgs,
        cluster: args.cluster.name,
        location: args.cluster.location,
        ...(args.cluster.project !== undefined ? { project: args.cluster.project } : {}),
        nodeConfig: {
          ...args.nodeConfig,
          imageType: GKE_WINDOWS_IMAGE_TYPE,
          windowsNodeConfig: { osversion },
          machineType: resolved.machineType,
          ...(Object.keys(resolved.labels).length > 0 ? { labels: { ...resolved.labels } } : {}),
          ...(resolved.taints.length > 0
            ? {
                taints: resolved.taints.map((t) => ({
                  key: t.key,
                  value: t.value ?? '',
                  effect: toCloudTaintEffect(t.effect),
                })),
              }
            : {}),
        },
        ...(resolved.autoscaling
          ? { initialNodeCount: desiredSize, autoscaling: { minNodeCount: minSize, maxNodeCount: maxSize } }
          : { nodeCount: desiredSize }),
        ...(args.kubernetesVersion !== undefined ? { version: args.kubernetesVersion } : {}),
      },
      // initialNodeCount forces a replacement when it changes; the autoscaler owns the count after creation.
      { parent: this, ...(resolved.autoscaling ? { ignoreChanges: ['initialNodeCount'] } : {}) },
    );

    this.registerOutputs({ nodePool: this.nodePool, nodeTarget: this.nodeTarget });
  }
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && (a.value ?? '') === (b.value ?? '') && a.effect === b.effect;
}

interface ResolvedArgs {
  readonly release: WindowsRelease;
  readonly machineType: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly scaling: NodePoolScaling;
  readonly autoscaling: boolean;
  readonly warnings: readonly WindowsWarning[];
}

const inputString = str({ eventual: true });
const requiredName = str({ eventual: true, nonEmpty: true });

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const GKE_POOL_SHAPES: ArgShapes = {
  ...NODE_POOL_SHAPES,
  cluster: {
    shape: object({
      name: { shape: requiredName, required: true, example: 'cluster.name' },
      location: { shape: requiredName, required: true, example: 'cluster.location' },
      project: { shape: inputString },
      vpcNative: { shape: bool() },
      hasLinuxNodePool: { shape: bool() },
      autopilot: { shape: bool() },
    }),
    required: true,
    example: '{ name: cluster.name, location: cluster.location }',
  },
  clusterArgs: { shape: object({}) },
  machineType: { shape: str(), example: "'n2-standard-4'" },
  autoscaling: { shape: bool() },
  nodeConfig: { shape: object({}) },
  nodePoolArgs: { shape: object({}) },
};

/** Args checked before anything is registered: they must be plain values, not Outputs. */
const PLAIN_FIELDS = ['release', 'machineType', 'labels', 'taints', 'scaling', 'autoscaling', 'date'] as const;

function resolveArgs(name: string, rawArgs: WindowsNodePoolArgs): ResolvedArgs {
  const shaped = shapedArgs(rawArgs, GKE_POOL_SHAPES);
  const { args, issues: plainIssues } = plainArgs(shaped.args, PLAIN_FIELDS);
  const release = args.release ?? DEFAULT_WINDOWS_RELEASE;
  const machineType = args.machineType ?? DEFAULT_GKE_WINDOWS_MACHINE_TYPE;
  const labels = args.labels ?? {};
  const taints = args.taints ?? [WINDOWS_TAINT];

  const issues: ValidationIssue[] = [...plainIssues];
  const warnings: WindowsWarning[] = [];
  const dateIssue = checkEvaluationDate(args.date);
  if (dateIssue) issues.push({ path: 'date', ...dateIssue });
  const date = dateIssue === undefined ? args.date : undefined;
  const cluster: Partial<GkeClusterInfo> = args.cluster ?? {};
  if (cluster.name === undefined || cluster.name === '') {
    issues.push({
      path: 'cluster.name',
      message: 'cluster.name is required.',
      fix: 'Pass the GKE cluster name (cluster.name).',
    });
  }
  if (cluster.location === undefined || cluster.location === '') {
    issues.push({
      path: 'cluster.location',
      message: 'cluster.location is required.',
      fix: "Pass the cluster's region or zone (cluster.location).",
    });
  }
  issues.push(...checkGkeClusterInfo(cluster as GkeClusterInfo, 'cluster'));
  if (args.clusterArgs !== undefined) {
    issues.push(...checkGkeClusterForWindows(args.clusterArgs).map((i) => ({ ...i, path: `clusterArgs.${i.path}` })));
  }
  const taintIssues = checkTaints(taints, 'taints');
  // The GKE pool rules on the resolved args: refusals (release, version, machine type) and warnings.
  const pool = {
    ...(isWindowsRelease(release) ? { release } : {}),
    machineType,
    ...(taintIssues.length === 0 ? { taints } : {}),
    kubernetesVersion: args.kubernetesVersion as unknown,
  };
  const findings = runCloudRules({ kind: 'gke-pool-component', props: pool }, { date });
  const refusals = new ComponentRefusals(findings);
  issues.push(...checkRelease(release, 'release'));
  issues.push(...refusals.at('release', 'kubernetesVersion', 'machineType'), ...refusals.rest());
  issues.push(...checkNodeLabels(labels, isWindowsRelease(release) ? release : undefined, 'labels'));
  issues.push(...taintIssues);
  warnings.push(...findingWarnings(findings));
  const { scaling, autoscaling, issues: scalingIssues } = resolveAutoscaling(args.scaling, args.autoscaling, 'scaling');
  issues.push(...scalingIssues);
  throwInputErrors(`gke.WindowsNodePool ${name}`, mergeShapeIssues(shaped.issues, shaped.bad, issues));
  return { release: release as WindowsRelease, machineType, labels, taints, scaling, autoscaling, warnings };
}
