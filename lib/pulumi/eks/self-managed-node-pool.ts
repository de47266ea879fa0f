/**
 * `SelfManagedWindowsNodePool`: Windows nodes from a custom AMI, in an Auto Scaling group with a launch template
 * whose PowerShell user data runs the EKS bootstrap script with the pool's taints and labels.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/launch-windows-workers.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html
 */
import * as pulumi from '@pulumi/pulumi';
import * as autoscaling from '@pulumi/aws/autoscaling';
import * as ec2 from '@pulumi/aws/ec2';
import * as eks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import type * as awsInputs from '@pulumi/aws/types/input';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsRelease } from '../../core/releases';
import type { WindowsNodeTarget } from '../../core/target';
import { throwInputErrors } from '../errors';
import { logWarnings, nodePoolWarnings, type NodePoolWarning } from '../node-pool';
import { createWindowsNodeRole } from './iam';
import { EKS_RULE_IDS } from './node-group-check';
import {
  checkPoolInstanceType,
  DEFAULT_WINDOWS_INSTANCE_TYPE,
  resolvePoolArgs,
  type EksWindowsPoolBaseArgs,
  type ResolvedPoolArgs,
} from './pool-args';
import { AUTOSCALER_ENABLED_TAG, autoscalerClusterTag, autoscalerNodeTemplateTags } from './tags';
import { DEFAULT_SYSTEM_RESERVED_MEMORY, encodeUserData, renderWindowsUserData, windowsKubeletArgs } from './user-data';

export const SELF_MANAGED_WINDOWS_NODE_POOL_TYPE = 'k8s-windows:eks:SelfManagedWindowsNodePool';
/** Access entry type that puts nodes in `system:nodes` and `eks:kube-proxy-windows`. */
export const EC2_WINDOWS_ACCESS_ENTRY_TYPE = 'EC2_WINDOWS';
/** Windows AMIs boot from `/dev/sda1`. */
const WINDOWS_ROOT_DEVICE = '/dev/sda1';
/** 2 Gi in bytes: the least memory to reserve for Windows (reference §6). */
const MIN_SYSTEM_RESERVED_BYTES = 2 * 1024 ** 3;

/** A role the nodes use, e.g. an `aws.iam.Role`. */
export interface NodeRoleRef {
  readonly name: pulumi.Input<string>;
  readonly arn: pulumi.Input<string>;
}

export interface SelfManagedWindowsNodePoolArgs extends EksWindowsPoolBaseArgs {
  /** The Windows AMI (an EKS-optimized Windows AMI or one built from it: it must ship Start-EKSBootstrap.ps1). */
  readonly amiId: pulumi.Input<string>;
  /** Security groups of the nodes; include the cluster security group so the control plane can reach them. */
  readonly securityGroupIds: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * x86_64 instance type.
   * @default 'm5.xlarge'
   */
  readonly instanceType?: string;
  /**
   * The cluster's API server endpoint, passed to the bootstrap script.
   * @default - the script calls DescribeCluster
   */
  readonly clusterEndpoint?: pulumi.Input<string>;
  /**
   * The cluster's certificate authority data (base64), passed to the bootstrap script.
   * @default - the script calls DescribeCluster
   */
  readonly clusterCertificateAuthority?: pulumi.Input<string>;
  /**
   * The cluster DNS service IP.
   * @default - derived by the bootstrap script
   */
  readonly dnsClusterIp?: pulumi.Input<string>;
  /**
   * An existing role for the nodes (not the Linux nodes' role: containers-roadmap#1977).
   * @default - a new role with AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryReadOnly, AmazonEKS_CNI_Policy
   */
  readonly nodeRole?: NodeRoleRef;
  /**
   * Memory the kubelet reserves for Windows (`--system-reserved=memory=`), a Kubernetes quantity ≥ 2Gi.
   * @default '2Gi'
   */
  readonly systemReservedMemory?: string;
  /**
   * More kubelet arguments. Labels, taints and system-reserved memory have their own args.
   * @default []
   */
  readonly kubeletExtraArgs?: readonly string[];
  /**
   * Create the `EC2_WINDOWS` access entry that lets the nodes join (the cluster's authentication mode must
   * include `API`). Turn off when aws-auth maps the role instead.
   * @default true
   * @see https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html
   */
  readonly createAccessEntry?: boolean;
  /**
   * EC2 key pair, for RDP password retrieval.
   * @default - none
   */
  readonly keyName?: pulumi.Input<string>;
}

/** Kubelet flags the pool sets from its own args: passing them again would desynchronise `nodeTarget`. */
const OWNED_KUBELET_FLAGS: Readonly<Record<string, string>> = {
  '--node-labels': 'labels',
  '--register-with-taints': 'taints',
  '--system-reserved': 'systemReservedMemory',
};

interface ResolvedSelfManagedArgs extends ResolvedPoolArgs {
  readonly instanceType: string;
  readonly systemReservedMemory: string;
  readonly kubeletExtraArgs: readonly string[];
  readonly createAccessEntry: boolean;
  readonly warnings: readonly NodePoolWarning[];
}

function resolveSelfManagedArgs(args: SelfManagedWindowsNodePoolArgs): {
  resolved: ResolvedSelfManagedArgs;
  issues: ValidationIssue[];
} {
  const { resolved: base, issues } = resolvePoolArgs(args);
  const warnings: NodePoolWarning[] = [];
  const instanceType = args.instanceType ?? DEFAULT_WINDOWS_INSTANCE_TYPE;
  issues.push(...checkPoolInstanceType(instanceType, 'instanceType', warnings));

  const systemReservedMemory = args.systemReservedMemory ?? DEFAULT_SYSTEM_RESERVED_MEMORY;
  const bytes = quantityBytes(systemReservedMemory);
  if (bytes === undefined) {
    issues.push({
      path: 'systemReservedMemory',
      message: `systemReservedMemory ${JSON.stringify(systemReservedMemory)} is not a Kubernetes memory quantity.`,
      fix: "Write e.g. '2Gi' or '2560Mi'.",
    });
  } else if (bytes < MIN_SYSTEM_RESERVED_BYTES) {
    warnings.push({
      ruleId: EKS_RULE_IDS.systemReserved,
      message: `systemReservedMemory ${systemReservedMemory} is below the 2Gi Windows needs; pods can starve the OS.`,
      fix: "Reserve at least '2Gi'.",
    });
  }

  const kubeletExtraArgs = args.kubeletExtraArgs ?? [];
  kubeletExtraArgs.forEach((arg, i) => {
    const at = `kubeletExtraArgs[${i}]`;
    if (typeof arg !== 'string' || !/^--[a-z0-9-]+(=\S.*)?$/.test(arg) || /[\r\n]/.test(arg)) {
      issues.push({
        path: at,
        message: `Kubelet argument ${JSON.stringify(arg)} is not a '--flag' or '--flag=value' on one line.`,
        fix: "Write e.g. '--max-pods=110'.",
      });
      return;
    }
    const flag = arg.split('=')[0];
    const owner = OWNED_KUBELET_FLAGS[flag];
    if (owner !== undefined) {
      issues.push({
        path: at,
        message: `Kubelet argument ${flag} is set by the pool from its '${owner}' arg.`,
        fix: `Remove it and set '${owner}' instead, so nodeTarget matches the nodes.`,
      });
    }
  });

  const createAccessEntry = args.createAccessEntry ?? true;
  if (issues.length === 0) warnings.push(...nodePoolWarnings({ release: base.release, taints: base.taints }));
  return {
    resolved: { ...base, instanceType, systemReservedMemory, kubeletExtraArgs, createAccessEntry, warnings },
    issues,
  };
}

/** Every problem with the args of a `SelfManagedWindowsNodePool`, without registering anything. */
export function checkSelfManagedWindowsNodePoolArgs(args: SelfManagedWindowsNodePoolArgs): ValidationIssue[] {
  return resolveSelfManagedArgs(args).issues;
}

/**
 * Self-managed Windows nodes for custom AMIs: launch template (PowerShell user data, IMDSv2, encrypted gp3 root
 * volume), Auto Scaling group with Cluster Autoscaler tags, node role and instance profile, and the `EC2_WINDOWS`
 * access entry. The user data is rendered by `renderWindowsUserData`. The group's desired capacity is set at
 * creation and then left to Cluster Autoscaler (`ignoreChanges`).
 *
 * Bad args throw one `pulumi.InputPropertiesError` naming every bad property, before anything is registered.
 */
export class SelfManagedWindowsNodePool extends pulumi.ComponentResource {
  /** The labels and taints the pool applies: the scheduling contract for workloads. */
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly release: WindowsRelease;
  /** The kubelet arguments passed to the bootstrap script. */
  public readonly kubeletArgs: readonly string[];
  public readonly launchTemplate: ec2.LaunchTemplate;
  public readonly autoScalingGroup: autoscaling.Group;
  public readonly instanceProfile: iam.InstanceProfile;
  /** The node role created for the pool; undefined when `nodeRole` was given. */
  public readonly nodeRole?: iam.Role;
  public readonly nodeRoleArn: pulumi.Output<string>;
  public readonly accessEntry?: eks.AccessEntry;
  /** The plain-text user data (PowerShell). */
  public readonly userData: pulumi.Output<string>;

  constructor(name: string, args: SelfManagedWindowsNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    const { resolved, issues } = resolveSelfManagedArgs(args);
    throwInputErrors(`${SELF_MANAGED_WINDOWS_NODE_POOL_TYPE} '${name}'`, issues);
    super(SELF_MANAGED_WINDOWS_NODE_POOL_TYPE, name, {}, opts);

    const target = resolved.target as WindowsNodeTarget;
    this.nodeTarget = target;
    this.release = resolved.release;
    logWarnings(resolved.warnings, this);
    const userTags = args.tags ?? {};

    let role: NodeRoleRef;
    let roleReady: pulumi.Resource[] = [];
    if (args.nodeRole !== undefined) {
      role = args.nodeRole;
    } else {
      const created = createWindowsNodeRole(name, resolved.partition, this, userTags);
      this.nodeRole = created.role;
      role = created.role;
      roleReady = [...created.attachments];
    }
    this.nodeRoleArn = pulumi.output(role.arn);
    this.instanceProfile = new iam.InstanceProfile(
      `${name}-instance-profile`,
      { role: role.name, tags: { ...userTags } },
      { parent: this },
    );

    if (resolved.createAccessEntry) {
      this.accessEntry = new eks.AccessEntry(
        `${name}-access-entry`,
        {
          clusterName: args.clusterName,
          principalArn: role.arn,
          type: EC2_WINDOWS_ACCESS_ENTRY_TYPE,
          tags: { ...userTags },
        },
        { parent: this },
      );
    }

    this.kubeletArgs = windowsKubeletArgs({
      labels: resolved.labels,
      taints: resolved.taints,
      systemReservedMemory: resolved.systemReservedMemory,
      extraArgs: resolved.kubeletExtraArgs,
    });
    const kubeletArgs = this.kubeletArgs;
    this.userData = pulumi
      .all([args.clusterName, args.clusterEndpoint, args.clusterCertificateAuthority, args.dnsClusterIp])
      .apply(([clusterName, endpoint, ca, dns]) =>
        renderWindowsUserData({
          clusterName,
          ...(endpoint !== undefined ? { apiServerEndpoint: endpoint } : {}),
          ...(ca !== undefined ? { certificateAuthority: ca } : {}),
          ...(dns !== undefined ? { dnsClusterIp: dns } : {}),
          kubeletArgs,
        }),
      );

    this.launchTemplate = new ec2.LaunchTemplate(
      `${name}-launch-template`,
      {
        imageId: args.amiId,
        instanceType: resolved.instanceType,
        userData: this.userData.apply(encodeUserData),
        iamInstanceProfile: { arn: this.instanceProfile.arn },
        vpcSecurityGroupIds: args.securityGroupIds,
        ...(args.keyName !== undefined ? { keyName: args.keyName } : {}),
        blockDeviceMappings: [
          {
            deviceName: WINDOWS_ROOT_DEVICE,
            ebs: { volumeSize: resolved.diskSize, volumeType: 'gp3', encrypted: 'true', deleteOnTermination: 'true' },
          },
        ],
        // IMDSv2 only; hop limit 2 so containers that need instance metadata can still reach it.
        metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 2 },
        tags: { ...userTags },
      },
      { parent: this },
    );

    const autoscalerTags = autoscalerNodeTemplateTags(target);
    const tags: pulumi.Input<awsInputs.autoscaling.GroupTag>[] = [
      { key: 'Name', value: `${name}`, propagateAtLaunch: true },
      // Nodes of the cluster: the cloud provider and the load balancer controller look for this tag.
      { key: pulumi.interpolate`kubernetes.io/cluster/${args.clusterName}`, value: 'owned', propagateAtLaunch: true },
      { key: AUTOSCALER_ENABLED_TAG, value: 'true', propagateAtLaunch: false },
      { key: pulumi.output(args.clusterName).apply(autoscalerClusterTag), value: 'owned', propagateAtLaunch: false },
      ...Object.entries(autoscalerTags).map(([key, value]) => ({ key, value, propagateAtLaunch: false })),
      ...Object.entries(userTags).map(([key, value]) => ({ key, value, propagateAtLaunch: true })),
    ];

    this.autoScalingGroup = new autoscaling.Group(
      `${name}-asg`,
      {
        vpcZoneIdentifiers: args.subnetIds,
        minSize: resolved.scaling.minSize,
        maxSize: resolved.scaling.maxSize,
        desiredCapacity: resolved.scaling.desiredSize,
        launchTemplate: { id: this.launchTemplate.id, version: this.launchTemplate.latestVersion.apply(String) },
        tags,
      },
      // Cluster Autoscaler changes the desired capacity; do not fight it on the next update.
      {
        parent: this,
        dependsOn: [...roleReady, ...(this.accessEntry ? [this.accessEntry] : [])],
        ignoreChanges: ['desiredCapacity'],
      },
    );

    this.registerOutputs({
      autoScalingGroup: this.autoScalingGroup,
      launchTemplate: this.launchTemplate,
      nodeRoleArn: this.nodeRoleArn,
    });
  }
}

/** Bytes of a Kubernetes memory quantity (`2Gi`, `2048Mi`, `2G`, `2147483648`), or undefined if it is not one. */
export function quantityBytes(quantity: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(typeof quantity === 'string' ? quantity : '');
  if (!m) return undefined;
  const factors: Record<string, number> = {
    '': 1,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Number(m[1]) * factors[m[2] ?? ''];
}
