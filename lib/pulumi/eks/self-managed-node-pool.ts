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
import * as ssm from '@pulumi/aws/ssm';
import * as corev1 from '@pulumi/kubernetes/core/v1';
import { parseKubernetesMinor } from '../../core/releases';
import { asInputErrors, isEventual, plainArgs, requireArgs, throwInputErrors } from '../errors';
import {
  DEFAULT_EKS_AMI_VARIANT,
  EKS_AMI_VARIANTS,
  eksWindowsAmiParameterName,
  isEksAmiVariant,
  type EksAmiVariant,
} from './ami-types';
import {
  AWS_AUTH_CONFIG_MAP,
  mapRolesWithWindows,
  windowsAwsAuthRoleMapping,
  type AwsAuthRoleMapping,
} from './aws-auth';
import {
  componentWarnings,
  logWarnings,
  nodePoolWarnings,
  releaseGateRefusals,
  type NodePoolWarning,
} from '../node-pool';
import { runCloudRules } from '../../core/rules/cloud-runner';
import {
  bool,
  checkResolved,
  either,
  list,
  literal,
  mergeShapeIssues,
  object,
  resource,
  shapedArgs,
  str,
  type ArgShapes,
} from '../arg-shapes';
import { redactError, secretValues } from '../secrets';
import { EKS_POOL_BASE_SHAPES, NODE_ROLE_SHAPE, TAGS_SHAPE } from './pool-shapes';
import { createWindowsNodeRole } from './iam';
import {
  checkPoolInstanceType,
  DEFAULT_WINDOWS_INSTANCE_TYPE,
  poolPodIpCapacity,
  resolvePoolArgs,
  type EksWindowsPoolBaseArgs,
  type ResolvedPoolArgs,
} from './pool-args';
import { AUTOSCALER_ENABLED_TAG, autoscalerClusterTag, autoscalerNodeTemplateTags } from './tags';
import {
  DEFAULT_SYSTEM_RESERVED_MEMORY,
  encodeUserData,
  renderWindowsUserData,
  userDataProblems,
  windowsKubeletArgs,
} from './user-data';

export const SELF_MANAGED_WINDOWS_NODE_POOL_TYPE = 'k8s-windows:eks:SelfManagedWindowsNodePool';
/** Access entry type that puts nodes in `system:nodes` and `eks:kube-proxy-windows`. */
export const EC2_WINDOWS_ACCESS_ENTRY_TYPE = 'EC2_WINDOWS';
/** Windows AMIs boot from `/dev/sda1`. */
const WINDOWS_ROOT_DEVICE = '/dev/sda1';

/** A role the nodes use, e.g. an `aws.iam.Role`. */
export interface NodeRoleRef {
  readonly name: pulumi.Input<string>;
  readonly arn: pulumi.Input<string>;
}

/** How the cluster admits nodes (the cluster's `accessConfig.authenticationMode`). */
export type EksAuthenticationMode = 'API' | 'API_AND_CONFIG_MAP' | 'CONFIG_MAP';
const AUTHENTICATION_MODES: readonly EksAuthenticationMode[] = ['API', 'API_AND_CONFIG_MAP', 'CONFIG_MAP'];

/** Writing the Windows role mapping into `aws-auth` (clusters in `CONFIG_MAP` mode). */
export interface AwsAuthArgs {
  /** Kubernetes provider for the cluster. */
  readonly kubernetesProvider: pulumi.ProviderResource;
  /**
   * Every other `mapRoles` entry of the cluster's `aws-auth` (at least the Linux node role, e.g.
   * `{ rolearn: linuxRole.arn, ... }`, and the `awsAuthRoleMapping` of every other Windows pool): `mapRoles` is one
   * string, so the pool writes it whole and would otherwise drop them. An empty list is refused: it would leave
   * only the Windows role mapped.
   */
  readonly otherMapRoles: pulumi.Input<readonly pulumi.Input<AwsAuthRoleMappingInput>[]>;
}

/** One `mapRoles` entry as Pulumi input: the role ARN usually comes from another resource. */
export interface AwsAuthRoleMappingInput {
  readonly rolearn: pulumi.Input<string>;
  readonly username: pulumi.Input<string>;
  readonly groups: pulumi.Input<readonly pulumi.Input<string>[]>;
}

export interface SelfManagedWindowsNodePoolArgs extends EksWindowsPoolBaseArgs {
  /**
   * The Windows AMI (an EKS-optimized Windows AMI or one built from it: it must ship Start-EKSBootstrap.ps1).
   * @default - the latest EKS-optimized AMI for the release, `amiVariant` and `kubernetesVersion`, read from AWS's
   *   public SSM parameter (`/aws/service/ami-windows-latest/...`), as eksctl and terraform-aws-eks do
   * @see https://docs.aws.amazon.com/eks/latest/userguide/retrieve-windows-ami-id.html
   */
  readonly amiId?: pulumi.Input<string>;
  /**
   * Windows Server Core or the full Desktop Experience, for the AMI lookup (ignored with `amiId`).
   * @default 'core'
   */
  readonly amiVariant?: EksAmiVariant;
  /**
   * The cluster's service IPv4 CIDR (`cluster.kubernetesNetworkConfig.serviceIpv4Cidr`), passed as `-ServiceCIDR`.
   * Needed when the cluster has a custom service CIDR: the script otherwise guesses 10.100.0.0/16 or 172.20.0.0/16.
   * @default - guessed by the bootstrap script
   * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters
   */
  readonly serviceIpv4Cidr?: pulumi.Input<string>;
  /**
   * The cluster's authentication mode. `API` and `API_AND_CONFIG_MAP` admit the nodes with an `EC2_WINDOWS`
   * access entry; `CONFIG_MAP` clusters have no access entries, so the role is mapped in `aws-auth` (see `awsAuth`).
   * @default 'API'
   * @see https://docs.aws.amazon.com/eks/latest/userguide/grant-k8s-access.html
   */
  readonly authenticationMode?: EksAuthenticationMode;
  /**
   * For `CONFIG_MAP` clusters: write `aws-auth` (the other mappings plus the Windows one), or `'external'` when
   * you map `pool.awsAuthRoleMapping` yourself.
   *
   * `mapRoles` is one field with one writer, as aws-cdk's `cluster.awsAuth` and pulumi-eks' cluster-owned aws-auth
   * have it: one pool per cluster writes it, with every other mapping in `otherMapRoles`. A second pool writing
   * through the same `kubernetesProvider` is refused (it would replace the first one's mappings); give the others
   * `'external'` and list their `awsAuthRoleMapping` in the writer's `otherMapRoles`.
   * @default - required with `authenticationMode: 'CONFIG_MAP'`
   */
  readonly awsAuth?: AwsAuthArgs | 'external';
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
   * EC2 key pair, for RDP password retrieval. Given as a secret, it stays one on the launch template; the user data
   * does not hold it, so is not made secret by it.
   * @default - none
   */
  readonly keyName?: pulumi.Input<string>;
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
  'instanceType',
  'systemReservedMemory',
  'kubeletExtraArgs',
  'createAccessEntry',
  'authenticationMode',
] as const;

const inputString = str({ eventual: true });

/** One `aws-auth` `mapRoles` entry, each field maybe an Output. */
const ROLE_MAPPING_SHAPE = object(
  {
    rolearn: { shape: inputString, required: true },
    username: { shape: inputString, required: true },
    groups: { shape: list(inputString, { eventual: true }), required: true },
  },
  { eventual: true, expects: 'a mapping { rolearn, username, groups }' },
);

/** `awsAuth.otherMapRoles`: a list of mappings, or one Output of it. */
const OTHER_MAP_ROLES_SHAPE = list(ROLE_MAPPING_SHAPE, { eventual: true });

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const SELF_MANAGED_SHAPES: ArgShapes = {
  ...EKS_POOL_BASE_SHAPES,
  amiId: { shape: inputString, example: "'ami-0123456789abcdef0'" },
  amiVariant: { shape: str(), example: "'core'" },
  serviceIpv4Cidr: { shape: inputString, example: "'10.100.0.0/16'" },
  authenticationMode: { shape: str(), example: "'API'" },
  awsAuth: {
    shape: either(
      literal('external'),
      object(
        {
          kubernetesProvider: { shape: resource('a Kubernetes provider'), required: true },
          otherMapRoles: { shape: OTHER_MAP_ROLES_SHAPE, required: true },
        },
        { expects: 'an object { kubernetesProvider, otherMapRoles }' },
      ),
    ),
  },
  securityGroupIds: { shape: list(inputString, { eventual: true }), required: true, example: "['sg-0abc123']" },
  instanceType: { shape: str(), example: "'m5.xlarge'" },
  clusterEndpoint: { shape: inputString, example: 'cluster.endpoint' },
  clusterCertificateAuthority: { shape: inputString, example: 'cluster.certificateAuthority.data' },
  dnsClusterIp: { shape: inputString, example: "'172.20.0.10'" },
  nodeRole: { shape: NODE_ROLE_SHAPE },
  systemReservedMemory: { shape: str(), example: "'2Gi'" },
  kubeletExtraArgs: { shape: list(str()), example: "['--max-pods=110']" },
  createAccessEntry: { shape: bool() },
  keyName: { shape: inputString },
  tags: { shape: TAGS_SHAPE },
};

/** Kubelet flags the pool sets from its own args: passing them again would desynchronise `nodeTarget`. */
const OWNED_KUBELET_FLAGS: Readonly<Record<string, string>> = {
  '--node-labels': 'labels',
  '--register-with-taints': 'taints',
  '--system-reserved': 'systemReservedMemory',
};

interface ResolvedSelfManagedArgs extends ResolvedPoolArgs {
  readonly instanceType: string;
  readonly amiVariant: EksAmiVariant;
  readonly authenticationMode: EksAuthenticationMode;
  readonly podIpCapacity?: number;
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
  } else {
    warnings.push(
      ...componentWarnings(
        runCloudRules({ kind: 'eks-self-managed-component', props: { systemReservedMemory, bytes } }),
      ),
    );
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

  const amiVariant = args.amiVariant ?? DEFAULT_EKS_AMI_VARIANT;
  if (!isEksAmiVariant(amiVariant)) {
    issues.push({
      path: 'amiVariant',
      message: `AMI variant ${JSON.stringify(amiVariant)} is not known.`,
      fix: `Use ${EKS_AMI_VARIANTS.map((v) => `'${v}'`).join(' or ')} (Server Core or Desktop Experience).`,
    });
  }
  if (args.amiId === undefined && args.kubernetesVersion === undefined) {
    issues.push({
      path: 'kubernetesVersion',
      message:
        'Without amiId the pool looks up the EKS-optimized Windows AMI for a Kubernetes version, and none is given.',
      fix: "Pass kubernetesVersion (e.g. cluster.version or '1.32'), or amiId.",
    });
  }
  if (typeof args.serviceIpv4Cidr === 'string' || args.serviceIpv4Cidr === null) {
    issues.push(...userDataProblems({ serviceCidr: args.serviceIpv4Cidr }));
  }
  issues.push(
    ...userDataProblems({
      apiServerEndpoint: args.clusterEndpoint,
      certificateAuthority: args.clusterCertificateAuthority,
    }),
  );

  const authenticationMode = args.authenticationMode ?? DEFAULT_AUTHENTICATION_MODE;
  if (!AUTHENTICATION_MODES.includes(authenticationMode)) {
    issues.push({
      path: 'authenticationMode',
      message: `Authentication mode ${JSON.stringify(authenticationMode)} is not an EKS authentication mode.`,
      fix: `Use ${AUTHENTICATION_MODES.map((m) => `'${m}'`).join(', ')} (the cluster's accessConfig.authenticationMode).`,
    });
  }
  const createAccessEntry = args.createAccessEntry ?? authenticationMode !== 'CONFIG_MAP';
  if (authenticationMode === 'CONFIG_MAP') {
    if (args.createAccessEntry === true) {
      issues.push({
        path: 'createAccessEntry',
        message: 'A CONFIG_MAP cluster has no access entries; EKS refuses to create one.',
        fix: 'Remove createAccessEntry; the role is mapped in aws-auth (awsAuth).',
      });
    }
    issues.push(...checkAwsAuth(args.awsAuth));
  } else if (args.awsAuth !== undefined) {
    issues.push({
      path: 'awsAuth',
      message: `awsAuth is only used with authenticationMode 'CONFIG_MAP'; this pool admits its nodes with an access entry ('${authenticationMode}').`,
      fix: "Remove awsAuth, or set authenticationMode: 'CONFIG_MAP'.",
    });
  }
  const podIpCapacity =
    issues.length === 0 ? poolPodIpCapacity([instanceType], base.scaling.minSize, warnings) : undefined;
  if (issues.length === 0)
    warnings.push(...nodePoolWarnings({ release: base.release, taints: base.taints, date: base.date }));
  return {
    resolved: {
      ...base,
      ...(podIpCapacity !== undefined ? { podIpCapacity } : {}),
      instanceType,
      amiVariant,
      authenticationMode,
      systemReservedMemory,
      kubeletExtraArgs,
      createAccessEntry,
      warnings,
    },
    issues,
  };
}

/** Access entries unless the user says the cluster is CONFIG_MAP only (the EKS default for new clusters is API). */
const DEFAULT_AUTHENTICATION_MODE: EksAuthenticationMode = 'API';

const AWS_AUTH_FIX =
  "Pass awsAuth: { kubernetesProvider, otherMapRoles: [...every other aws-auth mapping, at least the Linux node role] }, or 'external' and map pool.awsAuthRoleMapping yourself.";

/**
 * The pool writing `aws-auth` through each Kubernetes provider in this program: `mapRoles` has one writer, and a
 * second patch would replace the first one's mappings (both force-patch the same field).
 */
const awsAuthWriters = new WeakMap<pulumi.ProviderResource, string>();

/** The issue when another pool already writes `aws-auth` through `provider`; records `pool` as the writer otherwise. */
function claimAwsAuth(provider: pulumi.ProviderResource, pool: string): ValidationIssue[] {
  const writer = awsAuthWriters.get(provider);
  if (writer === undefined) {
    awsAuthWriters.set(provider, pool);
    return [];
  }
  return [
    {
      path: 'awsAuth',
      message: `Pool '${writer}' already writes aws-auth mapRoles through this kubernetesProvider; this pool's patch would replace its mappings (mapRoles is one field, written whole).`,
      fix: `Create this pool with awsAuth: 'external' before '${writer}', and list its awsAuthRoleMapping in the otherMapRoles of '${writer}'.`,
    },
  ];
}

function checkAwsAuth(awsAuth: unknown): ValidationIssue[] {
  const fix = AWS_AUTH_FIX;
  if (awsAuth === 'external') return [];
  if (awsAuth === undefined || awsAuth === null || typeof awsAuth !== 'object') {
    return [
      {
        path: 'awsAuth',
        message:
          'A CONFIG_MAP cluster admits Windows nodes only through aws-auth (groups system:bootstrappers, system:nodes, eks:kube-proxy-windows), and awsAuth is not set.',
        fix,
      },
    ];
  }
  const { kubernetesProvider, otherMapRoles } = awsAuth as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (!pulumi.ProviderResource.isInstance(kubernetesProvider)) {
    issues.push({ path: 'awsAuth.kubernetesProvider', message: 'awsAuth.kubernetesProvider is not a provider.', fix });
  }
  // An Output list is checked once known (mapRolesIssues, in the ConfigMap's apply).
  if (!isEventual(otherMapRoles)) issues.push(...mapRolesIssues(otherMapRoles, fix));
  return issues;
}

/** Problems with `awsAuth.otherMapRoles`; parts still unknown (Outputs) are not accused. */
function mapRolesIssues(otherMapRoles: unknown, fix: string): ValidationIssue[] {
  if (!Array.isArray(otherMapRoles)) {
    return [{ path: 'awsAuth.otherMapRoles', message: 'awsAuth.otherMapRoles must be a list of mappings.', fix }];
  }
  if (otherMapRoles.length === 0) {
    return [
      {
        path: 'awsAuth.otherMapRoles',
        message:
          'awsAuth.otherMapRoles is empty: mapRoles is written whole, so every other mapping (the Linux nodes, other Windows pools, administrators) would be removed and those nodes could no longer join.',
        fix,
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  otherMapRoles.forEach((m: unknown, i) => {
    if (isEventual(m)) return;
    const rec = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    const isString = (v: unknown): boolean => typeof v === 'string' || isEventual(v);
    if (!isString(rec.rolearn) || !isString(rec.username) || !(Array.isArray(rec.groups) || isEventual(rec.groups))) {
      issues.push({
        path: `awsAuth.otherMapRoles[${i}]`,
        message: 'A mapping needs a rolearn, a username and groups.',
        fix: "Write { rolearn: linuxRole.arn, username: 'system:node:{{EC2PrivateDNSName}}', groups: ['system:bootstrappers', 'system:nodes'] }.",
      });
    }
  });
  return issues;
}

/** Every problem with the args of a `SelfManagedWindowsNodePool`, without registering anything. */
export function checkSelfManagedWindowsNodePoolArgs(args: SelfManagedWindowsNodePoolArgs): ValidationIssue[] {
  return checkedSelfManagedArgs(args).issues;
}

function checkedSelfManagedArgs(raw: SelfManagedWindowsNodePoolArgs): {
  resolved: ResolvedSelfManagedArgs;
  issues: ValidationIssue[];
} {
  const shaped = shapedArgs(raw, SELF_MANAGED_SHAPES);
  const { args, issues: plainIssues } = plainArgs(shaped.args, PLAIN_FIELDS);
  const { resolved, issues } = resolveSelfManagedArgs(args);
  return { resolved, issues: mergeShapeIssues(shaped.issues, shaped.bad, [...plainIssues, ...issues]) };
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
  /** The `aws-auth` patch (authenticationMode `CONFIG_MAP` with `awsAuth` given). */
  public readonly awsAuthConfigMap?: corev1.ConfigMapPatch;
  /** The `aws-auth` `mapRoles` entry the nodes need (what `awsAuthConfigMap` writes). */
  public readonly awsAuthRoleMapping: pulumi.Output<AwsAuthRoleMapping>;
  /** The AMI the nodes boot: `amiId`, or the one AWS's public SSM parameter names. */
  public readonly amiId: pulumi.Output<string>;
  /**
   * The plain-text user data (PowerShell). Secret when an arg it is rendered from is (`clusterName`,
   * `clusterEndpoint`, `clusterCertificateAuthority`, `dnsClusterIp`, `serviceIpv4Cidr`), as is the launch
   * template's.
   */
  public readonly userData: pulumi.Output<string>;

  constructor(name: string, rawArgs: SelfManagedWindowsNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `${SELF_MANAGED_WINDOWS_NODE_POOL_TYPE} '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = checkedSelfManagedArgs(args);
    // Claimed last, so a pool refused for other reasons does not hold aws-auth.
    if (issues.length === 0 && resolved.authenticationMode === 'CONFIG_MAP' && typeof args.awsAuth === 'object') {
      issues.push(...claimAwsAuth(args.awsAuth.kubernetesProvider, name));
    }
    throwInputErrors(subject, issues);
    super(SELF_MANAGED_WINDOWS_NODE_POOL_TYPE, name, {}, opts);

    const target = resolved.target as WindowsNodeTarget;
    this.nodeTarget = target;
    this.release = resolved.release;
    logWarnings(resolved.warnings, this, name);
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
      { role: role.name, tags: userTags },
      { parent: this },
    );

    this.awsAuthRoleMapping = pulumi.output(role.arn).apply(windowsAwsAuthRoleMapping);
    if (resolved.authenticationMode === 'CONFIG_MAP' && typeof args.awsAuth === 'object') {
      const awsAuth = args.awsAuth;
      this.awsAuthConfigMap = new corev1.ConfigMapPatch(
        `${name}-aws-auth`,
        {
          metadata: {
            name: AWS_AUTH_CONFIG_MAP.name,
            namespace: AWS_AUTH_CONFIG_MAP.namespace,
            // mapRoles may be owned by another field manager (eksctl, EKS for managed node groups): take it over.
            annotations: { 'pulumi.com/patchForce': 'true' },
          },
          data: {
            mapRoles: pulumi.all([awsAuth.otherMapRoles, role.arn]).apply(([others, arn]) => {
              throwInputErrors(subject, mapRolesIssues(others, AWS_AUTH_FIX));
              return mapRolesWithWindows(others as readonly AwsAuthRoleMapping[], arn);
            }),
          },
        },
        { parent: this, provider: awsAuth.kubernetesProvider },
      );
    }

    if (resolved.createAccessEntry) {
      this.accessEntry = new eks.AccessEntry(
        `${name}-access-entry`,
        {
          clusterName: args.clusterName,
          principalArn: role.arn,
          type: EC2_WINDOWS_ACCESS_ENTRY_TYPE,
          tags: userTags,
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
    // Outputs are checked once known. A refusal is raised only where the launch template takes the user data:
    // one rejection, one error in `pulumi up`; `userData` itself then stays empty.
    // Every Output the user data is rendered from is listed here, so pulumi.all carries a secret one's secretness to
    // `rendered`, and so to `userData` and the launch template's userData. The kubelet arguments cannot carry a
    // secret (their args must be plain values, checked above); keyName is not in the user data.
    const userDataInputs = [
      args.clusterName,
      args.clusterEndpoint,
      args.clusterCertificateAuthority,
      args.dnsClusterIp,
      args.serviceIpv4Cidr,
    ] as const;
    const rendered = pulumi.all([...userDataInputs] as [...typeof userDataInputs]).apply(async (values) => {
      const [clusterName, endpoint, ca, dns, serviceCidr] = values;
      try {
        const known = { clusterName, endpoint, ca, dns, serviceCidr };
        const paths = {
          clusterName: 'clusterName',
          endpoint: 'clusterEndpoint',
          ca: 'clusterCertificateAuthority',
          dns: 'dnsClusterIp',
          serviceCidr: 'serviceIpv4Cidr',
        } as const;
        for (const [key, path] of Object.entries(paths)) {
          const required = key === 'clusterName';
          checkResolved(subject, { shape: str(), required }, known[key as keyof typeof known], path);
        }
        return {
          ok: true as const,
          userData: asInputErrors(subject, '', () =>
            renderWindowsUserData({
              clusterName,
              ...(endpoint !== undefined ? { apiServerEndpoint: endpoint } : {}),
              ...(ca !== undefined ? { certificateAuthority: ca } : {}),
              ...(dns !== undefined ? { dnsClusterIp: dns } : {}),
              ...(serviceCidr !== undefined ? { serviceCidr } : {}),
              kubeletArgs,
            }),
          ),
        };
      } catch (refused) {
        // A secret endpoint or CA is refused naming the arg, never quoting it.
        return { ok: false as const, refused: redactError(refused, await secretValues(userDataInputs, values)) };
      }
    });
    this.userData = rendered.apply((r) => (r.ok ? r.userData : ''));

    this.amiId =
      args.amiId !== undefined
        ? pulumi.output(args.amiId)
        : this.lookUpAmi(
            subject,
            resolved.release,
            resolved.amiVariant,
            args.kubernetesVersion as pulumi.Input<string>,
          );

    this.launchTemplate = new ec2.LaunchTemplate(
      `${name}-launch-template`,
      {
        imageId: this.amiId,
        instanceType: resolved.instanceType,
        userData: rendered.apply((r) => {
          if (!r.ok) throw r.refused;
          return encodeUserData(r.userData);
        }),
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
        tags: userTags,
      },
      { parent: this },
    );

    const autoscalerTags = autoscalerNodeTemplateTags(target, resolved.podIpCapacity);
    const ownTags: pulumi.Input<awsInputs.autoscaling.GroupTag>[] = [
      { key: 'Name', value: `${name}`, propagateAtLaunch: true },
      // Nodes of the cluster: the cloud provider and the load balancer controller look for this tag.
      { key: pulumi.interpolate`kubernetes.io/cluster/${args.clusterName}`, value: 'owned', propagateAtLaunch: true },
      { key: AUTOSCALER_ENABLED_TAG, value: 'true', propagateAtLaunch: false },
      { key: pulumi.output(args.clusterName).apply(autoscalerClusterTag), value: 'owned', propagateAtLaunch: false },
      ...Object.entries(autoscalerTags).map(([key, value]) => ({ key, value, propagateAtLaunch: false })),
    ];
    // The user's tags may be one Output: list them once known.
    const tags = pulumi
      .all([pulumi.output(ownTags), pulumi.output(userTags)])
      .apply(([own, t]) => [
        ...own,
        ...Object.entries(checkResolved<Record<string, string>>(subject, { shape: TAGS_SHAPE }, t, 'tags') ?? {}).map(
          ([key, value]) => ({ key, value, propagateAtLaunch: true }),
        ),
      ]);

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
      amiId: this.amiId,
    });
  }

  /** The latest EKS-optimized Windows AMI for the release, variant and Kubernetes minor (AWS's public SSM parameter). */
  private lookUpAmi(
    subject: string,
    release: WindowsRelease,
    variant: EksAmiVariant,
    kubernetesVersion: pulumi.Input<string>,
  ): pulumi.Output<string> {
    const parameter = pulumi.output(kubernetesVersion).apply((version) => {
      checkResolved(subject, { shape: str(), required: true }, version, 'kubernetesVersion');
      const minor = parseKubernetesMinor(version);
      if (minor === undefined) {
        throwInputErrors(subject, [
          {
            path: 'kubernetesVersion',
            message: `Kubernetes version '${version}' is not a Kubernetes 1.x version, so no AMI can be looked up.`,
            fix: "Write e.g. '1.32'.",
          },
        ]);
      }
      // A version known only now (an Output) is held to the gates a plain one met at construction.
      throwInputErrors(subject, releaseGateRefusals('eks', release, { value: version, path: 'kubernetesVersion' }));
      return eksWindowsAmiParameterName(release, variant, minor as number);
    });
    return ssm.getParameterOutput({ name: parameter }, { parent: this }).value;
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
