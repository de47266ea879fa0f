/**
 * `WindowsNodePool`: an EKS managed node group of Windows nodes that tells workloads how to reach it
 * (`nodeTarget`).
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html
 */
import * as pulumi from '@pulumi/pulumi';
import * as autoscaling from '@pulumi/aws/autoscaling';
import * as eks from '@pulumi/aws/eks';
import type * as iam from '@pulumi/aws/iam';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsRelease } from '../../core/releases';
import type { WindowsNodeTarget } from '../../core/target';
import { plainArgs, requireArgs, throwInputErrors } from '../errors';
import {
  gatedOnEventualVersion,
  logWarnings,
  nodePoolWarnings,
  toCloudTaintEffect,
  type NodePoolWarning,
} from '../node-pool';
import { bool, list, mergeShapeIssues, shapedArgs, str, type ArgShapes } from '../arg-shapes';
import { EKS_POOL_BASE_SHAPES } from './pool-shapes';
import {
  DEFAULT_EKS_AMI_VARIANT,
  eksWindowsAmiType,
  isEksAmiVariant,
  EKS_AMI_VARIANTS,
  type EksAmiVariant,
} from './ami-types';
import { createWindowsNodeRole } from './iam';
import {
  checkPoolInstanceType,
  DEFAULT_WINDOWS_INSTANCE_TYPE,
  poolPodIpCapacity,
  resolvePoolArgs,
  type EksWindowsPoolBaseArgs,
  type ResolvedPoolArgs,
} from './pool-args';
import { autoscalerNodeTemplateTags } from './tags';

export const WINDOWS_NODE_POOL_TYPE = 'k8s-windows:eks:WindowsNodePool';

/** Managed node group capacity. */
export type EksCapacityType = 'ON_DEMAND' | 'SPOT';

export interface WindowsNodePoolArgs extends EksWindowsPoolBaseArgs {
  /**
   * Windows Server Core or the full Desktop Experience AMI.
   * @default 'core'
   */
  readonly amiVariant?: EksAmiVariant;
  /**
   * x86_64 instance types (Windows AMIs have no arm64 build: Graviton types are refused).
   * @default ['m5.xlarge']
   */
  readonly instanceTypes?: readonly string[];
  /**
   * On-Demand or Spot capacity.
   * @default 'ON_DEMAND'
   */
  readonly capacityType?: EksCapacityType;
  /**
   * An existing node role for the nodes. Give Windows nodes a role of their own, not the Linux nodes' role
   * (containers-roadmap#1977).
   * @default - a new role with AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryReadOnly, AmazonEKS_CNI_Policy
   * @see https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html
   */
  readonly nodeRoleArn?: pulumi.Input<string>;
  /**
   * Name of the node group in EKS.
   * @default - generated from the Pulumi name
   */
  readonly nodeGroupName?: pulumi.Input<string>;
  /**
   * Also write the Cluster Autoscaler `node-template` tags onto the Auto Scaling group EKS creates (EKS does not
   * copy node group tags to it; Cluster Autoscaler reads only the group's tags).
   * @default true
   * @see https://github.com/aws/containers-roadmap/issues/608
   */
  readonly tagAutoscalingGroup?: boolean;
}

/** Args checked before anything is registered: they must be plain values, not Outputs. */
const PLAIN_FIELDS = [
  'release',
  'date',
  'labels',
  'taints',
  'scaling',
  'diskSize',
  'partition',
  'amiVariant',
  'instanceTypes',
  'capacityType',
  'tagAutoscalingGroup',
] as const;

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const MANAGED_SHAPES: ArgShapes = {
  ...EKS_POOL_BASE_SHAPES,
  amiVariant: { shape: str(), example: "'core'" },
  instanceTypes: { shape: list(str()), example: "['m5.xlarge']" },
  capacityType: { shape: str(), example: "'ON_DEMAND'" },
  nodeRoleArn: { shape: str({ eventual: true }), example: 'role.arn' },
  nodeGroupName: { shape: str({ eventual: true }) },
  tagAutoscalingGroup: { shape: bool() },
};

/** Every problem with the args of a `WindowsNodePool`, without registering anything. */
export function checkWindowsNodePoolArgs(args: WindowsNodePoolArgs): ValidationIssue[] {
  return checkedManagedArgs(args).issues;
}

/** Plain-value checks first (an Output in a checked field is reported, not stringified), then every other check. */
function checkedManagedArgs(raw: WindowsNodePoolArgs): { resolved: ResolvedManagedArgs; issues: ValidationIssue[] } {
  const shaped = shapedArgs(raw, MANAGED_SHAPES);
  const { args, issues: plainIssues } = plainArgs(shaped.args, PLAIN_FIELDS);
  const { resolved, issues } = resolveManagedArgs(args);
  return { resolved, issues: mergeShapeIssues(shaped.issues, shaped.bad, [...plainIssues, ...issues]) };
}

interface ResolvedManagedArgs extends ResolvedPoolArgs {
  readonly amiVariant: EksAmiVariant;
  readonly instanceTypes: readonly string[];
  readonly capacityType: EksCapacityType;
  readonly tagAutoscalingGroup: boolean;
  readonly podIpCapacity?: number;
  readonly warnings: readonly NodePoolWarning[];
}

/** Spot or On-Demand: On-Demand unless asked (EKS API default). */
const DEFAULT_CAPACITY_TYPE: EksCapacityType = 'ON_DEMAND';
const CAPACITY_TYPES: readonly EksCapacityType[] = ['ON_DEMAND', 'SPOT'];

function resolveManagedArgs(args: WindowsNodePoolArgs): { resolved: ResolvedManagedArgs; issues: ValidationIssue[] } {
  const { resolved: base, issues } = resolvePoolArgs(args);
  const warnings: NodePoolWarning[] = [];
  const amiVariant = args.amiVariant ?? DEFAULT_EKS_AMI_VARIANT;
  if (!isEksAmiVariant(amiVariant)) {
    issues.push({
      path: 'amiVariant',
      message: `AMI variant ${JSON.stringify(amiVariant)} is not known.`,
      fix: `Use ${EKS_AMI_VARIANTS.map((v) => `'${v}'`).join(' or ')} (Server Core or Desktop Experience).`,
    });
  }
  const instanceTypes = args.instanceTypes ?? [DEFAULT_WINDOWS_INSTANCE_TYPE];
  if (!Array.isArray(instanceTypes) || instanceTypes.length === 0) {
    issues.push({
      path: 'instanceTypes',
      message: 'The instance type list is empty or not a list.',
      fix: `Name at least one x86_64 type, e.g. ['${DEFAULT_WINDOWS_INSTANCE_TYPE}'].`,
    });
  } else {
    instanceTypes.forEach((t, i) => issues.push(...checkPoolInstanceType(t, `instanceTypes[${i}]`, warnings)));
  }
  const capacityType = args.capacityType ?? DEFAULT_CAPACITY_TYPE;
  if (!CAPACITY_TYPES.includes(capacityType)) {
    issues.push({
      path: 'capacityType',
      message: `Capacity type ${JSON.stringify(capacityType)} is not known.`,
      fix: "Use 'ON_DEMAND' or 'SPOT'.",
    });
  }
  const tagAutoscalingGroup = args.tagAutoscalingGroup ?? true;
  if (typeof tagAutoscalingGroup !== 'boolean') {
    issues.push({
      path: 'tagAutoscalingGroup',
      message: `tagAutoscalingGroup ${JSON.stringify(tagAutoscalingGroup)} is not a boolean.`,
      fix: 'Write true or false.',
    });
  }
  const podIpCapacity =
    issues.length === 0 ? poolPodIpCapacity(instanceTypes, base.scaling.minSize, warnings) : undefined;
  if (issues.length === 0) {
    warnings.push(...nodePoolWarnings({ release: base.release, taints: base.taints, date: base.date }));
  }
  return {
    resolved: {
      ...base,
      ...(podIpCapacity !== undefined ? { podIpCapacity } : {}),
      amiVariant,
      instanceTypes: Array.isArray(instanceTypes) ? instanceTypes : [],
      capacityType,
      tagAutoscalingGroup,
      warnings,
    },
    issues,
  };
}

/**
 * A managed node group of Windows nodes: the release's `WINDOWS_CORE_*`/`WINDOWS_FULL_*` amiType, the Windows
 * taint (as `NO_SCHEDULE`), labels, Cluster Autoscaler node-template tags, and a node role of its own.
 *
 * Pass it `dependsOn` a `WindowsClusterPrerequisites`: Windows nodes need the cluster's Windows IPAM switched on
 * and a Linux node group for CoreDNS. Build workloads from `pool.nodeTarget` so they tolerate exactly its taints.
 *
 * `scalingConfig.desiredSize` is set at creation and then left to Cluster Autoscaler (`ignoreChanges`).
 *
 * Bad args throw one `pulumi.InputPropertiesError` naming every bad property, before anything is registered.
 */
export class WindowsNodePool extends pulumi.ComponentResource {
  /** The labels and taints the pool applies: the scheduling contract for workloads. */
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly release: WindowsRelease;
  /** The EKS amiType used (`WINDOWS_CORE_2022_x86_64`). */
  public readonly amiType: string;
  public readonly nodeGroup: eks.NodeGroup;
  /** The node role created for the pool; undefined when `nodeRoleArn` was given. */
  public readonly nodeRole?: iam.Role;
  public readonly nodeRoleArn: pulumi.Output<string>;
  /** The Cluster Autoscaler tags of the pool (on the node group, and on its Auto Scaling group unless disabled). */
  public readonly autoscalerTags: Readonly<Record<string, string>>;
  /** The `autoscalerTags` written onto the node group's Auto Scaling group (empty when `tagAutoscalingGroup` is false). */
  public readonly autoscalingGroupTags: readonly autoscaling.Tag[];

  constructor(name: string, rawArgs: WindowsNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `${WINDOWS_NODE_POOL_TYPE} '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = checkedManagedArgs(args);
    throwInputErrors(subject, issues);
    super(WINDOWS_NODE_POOL_TYPE, name, {}, opts);

    const target = resolved.target as WindowsNodeTarget;
    this.nodeTarget = target;
    this.release = resolved.release;
    this.amiType = eksWindowsAmiType(resolved.release, resolved.amiVariant);
    this.autoscalerTags = autoscalerNodeTemplateTags(target, resolved.podIpCapacity);
    logWarnings(resolved.warnings, this, name);

    const userTags = args.tags ?? {};
    let roleArn: pulumi.Input<string>;
    let dependsOn: pulumi.Resource[] = [];
    if (args.nodeRoleArn !== undefined) {
      roleArn = args.nodeRoleArn;
    } else {
      const created = createWindowsNodeRole(name, resolved.partition, this, userTags);
      this.nodeRole = created.role;
      roleArn = created.role.arn;
      // EKS refuses to create the group until the role carries the node policies.
      dependsOn = [...created.attachments];
    }
    this.nodeRoleArn = pulumi.output(roleArn);

    this.nodeGroup = new eks.NodeGroup(
      `${name}-node-group`,
      {
        clusterName: args.clusterName,
        subnetIds: args.subnetIds,
        nodeRoleArn: roleArn,
        // A version known only later (the cluster's Output) is held to the same gates once known.
        amiType: gatedOnEventualVersion(
          `eks.WindowsNodePool ${name}`,
          'eks',
          resolved.release,
          resolved.version.value,
          resolved.version.path,
          this.amiType,
          { date: resolved.date, releasePath: 'release' },
        ),
        instanceTypes: [...resolved.instanceTypes],
        capacityType: resolved.capacityType,
        diskSize: resolved.diskSize,
        scalingConfig: { ...resolved.scaling },
        labels: { ...resolved.labels },
        taints: resolved.taints.map((t) => ({
          key: t.key,
          ...(t.value !== undefined ? { value: t.value } : {}),
          effect: toCloudTaintEffect(t.effect),
        })),
        tags: pulumi.output(userTags).apply((t) => ({ ...t, ...this.autoscalerTags })),
        ...(args.nodeGroupName !== undefined ? { nodeGroupName: args.nodeGroupName } : {}),
        ...(args.kubernetesVersion !== undefined ? { version: args.kubernetesVersion } : {}),
      },
      // Cluster Autoscaler changes desiredSize; do not fight it on the next update.
      { parent: this, dependsOn, ignoreChanges: ['scalingConfig.desiredSize'] },
    );

    this.autoscalingGroupTags = resolved.tagAutoscalingGroup ? this.tagAutoscalingGroup(name) : [];

    this.registerOutputs({ nodeGroup: this.nodeGroup, nodeRoleArn: this.nodeRoleArn, amiType: this.amiType });
  }

  /**
   * Writes `autoscalerTags` onto the Auto Scaling group EKS created. Only called when tagging is on: with
   * `tagAutoscalingGroup: false` the group name is never read, so a node group without one cannot fail the update.
   */
  private tagAutoscalingGroup(name: string): autoscaling.Tag[] {
    // EKS reports the group once the node group exists; fail with a reason rather than a TypeError if it does not.
    const asgName = this.nodeGroup.resources.apply((r) => {
      const group = r?.[0]?.autoscalingGroups?.[0]?.name;
      if (group === undefined) {
        throw new pulumi.ResourceError(
          `EKS reported no Auto Scaling group for node group '${name}', so the Cluster Autoscaler tags cannot be written to it. Set tagAutoscalingGroup: false to skip them.`,
          this,
        );
      }
      return group;
    });
    const usedNames = new Set<string>();
    return Object.entries(this.autoscalerTags).map(
      ([key, value]) =>
        new autoscaling.Tag(
          uniqueName(`${name}-asg-${tagSlug(key)}`, usedNames),
          { autoscalingGroupName: asgName, tag: { key, value, propagateAtLaunch: false } },
          { parent: this },
        ),
    );
  }
}

/** A resource-name-safe form of a tag key. */
function tagSlug(key: string): string {
  return key
    .replace(/^k8s\.io\/cluster-autoscaler\/node-template\//, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** `base`, or `base-2`, `base-3`... when two tag keys slug to the same name (`a.b` and `a-b`). */
function uniqueName(base: string, used: Set<string>): string {
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) candidate = `${base}-${n}`;
  used.add(candidate);
  return candidate;
}
