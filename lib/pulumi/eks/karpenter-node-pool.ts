/**
 * `WindowsKarpenterNodePool`: Windows capacity on EKS through Karpenter. Registers the Karpenter `EC2NodeClass`
 * and `NodePool` the core builds (`windowsKarpenterManifests`), a node role of their own, and the `EC2_WINDOWS`
 * access entry that lets the nodes join; exposes `nodeTarget` like every other pool.
 * @see https://karpenter.sh/docs/concepts/nodepools/
 * @see https://karpenter.sh/docs/concepts/nodeclasses/
 */
import * as pulumi from '@pulumi/pulumi';
import * as eks from '@pulumi/aws/eks';
import type * as iam from '@pulumi/aws/iam';
import { CustomResource } from '@pulumi/kubernetes/apiextensions';
import type { ValidationIssue } from '../../core/errors';
import {
  windowsKarpenterManifests,
  type KarpenterSelectorTerm,
  type WindowsKarpenterManifests,
  type WindowsKarpenterOptions,
} from '../../core/karpenter';
import { DEFAULT_WINDOWS_RELEASE, isWindowsRelease, type WindowsRelease } from '../../core/releases';
import type { WindowsNodeTarget } from '../../core/target';
import { asInputErrors, isEventual, plainArgs, requireArgs, requiredInput, throwInputErrors } from '../errors';
import { isPlain } from '../k8s/inputs';
import { logWarnings, nodePoolWarnings, releaseGateRefusals } from '../node-pool';
import { windowsAwsAuthRoleMapping, type AwsAuthRoleMapping } from './aws-auth';
import {
  bool,
  checkResolved,
  list,
  mergeShapeIssues,
  num,
  object,
  record,
  resource,
  shapedArgs,
  str,
  type ArgShapes,
  type ArgShape,
} from '../arg-shapes';
import { NODE_ROLE_SHAPE, TAGS_SHAPE } from './pool-shapes';
import { redactError, secretValues } from '../secrets';
import { createWindowsNodeRole, DEFAULT_PARTITION } from './iam';
import type { NodeRoleRef } from './self-managed-node-pool';
import { EC2_WINDOWS_ACCESS_ENTRY_TYPE } from './self-managed-node-pool';

export const WINDOWS_KARPENTER_NODE_POOL_TYPE = 'k8s-windows:eks:WindowsKarpenterNodePool';

/**
 * A selector term as Pulumi input: any part may come from another resource, e.g.
 * `{ id: cluster.vpcConfig.clusterSecurityGroupId }` or `{ tags: { 'karpenter.sh/discovery': cluster.name } }`.
 */
export interface KarpenterSelectorTermInput {
  /**
   * Tags the subnet or security group carries (all must match).
   * @default - none: give `id` instead
   */
  readonly tags?: pulumi.Input<Readonly<Record<string, pulumi.Input<string>>>>;
  /**
   * The subnet or security group id.
   * @default - none: give `tags` instead
   */
  readonly id?: pulumi.Input<string>;
}

/**
 * Args: the core's pool options (see `WindowsKarpenterOptions`, which documents each and its default), with the
 * selector terms and tags as deep Pulumi inputs, `name` defaulting to the component name and the node role made here.
 */
export interface WindowsKarpenterNodePoolArgs extends Omit<
  WindowsKarpenterOptions,
  'name' | 'role' | 'subnetSelectorTerms' | 'securityGroupSelectorTerms' | 'tags'
> {
  /** The EKS cluster (for the nodes' access entry). */
  readonly clusterName: pulumi.Input<string>;
  /** Subnets Karpenter launches in, e.g. `[{ tags: { 'karpenter.sh/discovery': cluster.name } }]`. */
  readonly subnetSelectorTerms: pulumi.Input<readonly pulumi.Input<KarpenterSelectorTermInput>[]>;
  /** Security groups of the nodes, e.g. `[{ id: cluster.vpcConfig.clusterSecurityGroupId }]`. */
  readonly securityGroupSelectorTerms: pulumi.Input<readonly pulumi.Input<KarpenterSelectorTermInput>[]>;
  /**
   * Tags on the instances and volumes Karpenter launches (and on the node role made here).
   * @default {}
   */
  readonly tags?: pulumi.Input<Readonly<Record<string, pulumi.Input<string>>>>;
  /**
   * Name of the `NodePool` and `EC2NodeClass`.
   * @default - the component name
   */
  readonly name?: string;
  /**
   * The cluster's Kubernetes version, checked against the release when plain (EKS and Karpenter run Windows Server
   * 2025 from 1.35).
   * @default - not checked
   */
  readonly kubernetesVersion?: pulumi.Input<string>;
  /**
   * An existing role for the nodes (its name goes to `EC2NodeClass.spec.role`). Karpenter's controller needs
   * `iam:PassRole` on it.
   * @default - a new role with AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryReadOnly, AmazonEKS_CNI_Policy
   */
  readonly nodeRole?: NodeRoleRef;
  /**
   * Create the `EC2_WINDOWS` access entry for the role. Turn off on `CONFIG_MAP` clusters and map
   * `awsAuthRoleMapping` in aws-auth instead.
   * @default true
   */
  readonly createAccessEntry?: boolean;
  /**
   * AWS partition, for the node role's managed policy ARNs.
   * @default 'aws'
   */
  readonly partition?: string;
  /**
   * Kubernetes provider for the cluster.
   * @default - the provider from `opts.providers`, else the ambient kubeconfig
   */
  readonly kubernetesProvider?: pulumi.ProviderResource;
}

/** Args checked before anything is registered: they must be plain values, not Outputs. */
const PLAIN_FIELDS = [
  'name',
  'release',
  'labels',
  'taints',
  'capacityTypes',
  'instanceCategories',
  'minInstanceGeneration',
  'requirements',
  'limits',
  'diskSize',
  'expireAfter',
  'disruption',
  'createAccessEntry',
  'partition',
] as const;

const inputString = str({ eventual: true });
const requiredName = str({ eventual: true, nonEmpty: true });

/** A selector term, or one Output of it. */
const SELECTOR_TERMS: ArgShape = {
  shape: list(object({ tags: { shape: TAGS_SHAPE }, id: { shape: inputString } }, { eventual: true }), {
    eventual: true,
  }),
  required: true,
  example: "[{ tags: { 'karpenter.sh/discovery': 'prod' } }]",
};

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const KARPENTER_SHAPES: ArgShapes = {
  clusterName: { shape: requiredName, required: true, example: 'cluster.name' },
  subnetSelectorTerms: SELECTOR_TERMS,
  securityGroupSelectorTerms: { ...SELECTOR_TERMS, example: '[{ id: cluster.vpcConfig.clusterSecurityGroupId }]' },
  tags: { shape: TAGS_SHAPE, example: "{ team: 'web' }" },
  name: { shape: str(), example: "'windows'" },
  kubernetesVersion: { shape: inputString, example: "'1.32'" },
  nodeRole: { shape: NODE_ROLE_SHAPE },
  createAccessEntry: { shape: bool() },
  partition: { shape: str(), example: "'aws'" },
  kubernetesProvider: { shape: resource('a Kubernetes provider') },
  release: { shape: str(), example: "'2022'" },
  labels: { shape: record(str()), example: "{ 'example.com/pool': 'win' }" },
  taints: { shape: list(object({ key: { shape: str() }, value: { shape: str() }, effect: { shape: str() } })) },
  capacityTypes: { shape: list(str()), example: "['on-demand']" },
  instanceCategories: { shape: list(str()), example: "['m', 'c']" },
  minInstanceGeneration: { shape: num(), example: '5' },
  requirements: {
    shape: list(
      object({
        key: { shape: str(), required: true },
        operator: { shape: str(), required: true },
        values: { shape: list(str()) },
      }),
    ),
  },
  limits: { shape: record(str()), example: "{ cpu: '100' }" },
  diskSize: { shape: num(), example: '50' },
  expireAfter: { shape: str(), example: "'720h'" },
  disruption: {
    shape: object({ consolidationPolicy: { shape: str() }, consolidateAfter: { shape: str() } }),
    example: "{ consolidateAfter: '10m' }",
  },
};

/** Stands in for values only known later (the role name, Output selector terms) while the plain ones are checked. */
const LATER_ROLE = 'role-known-later';
const LATER_TERMS: readonly KarpenterSelectorTerm[] = [{ id: 'known-later' }];
const LATER_TAGS: Readonly<Record<string, string>> = {};

/** The args that may come from other resources, once resolved (or their stand-ins while they are not). */
interface Resolved {
  readonly role: string;
  readonly subnets: readonly KarpenterSelectorTerm[];
  readonly securityGroups: readonly KarpenterSelectorTerm[];
  readonly tags: Readonly<Record<string, string>> | undefined;
}

function options(args: WindowsKarpenterNodePoolArgs, name: string, r: Resolved): WindowsKarpenterOptions {
  const {
    clusterName: _c,
    kubernetesVersion: _k,
    nodeRole: _n,
    createAccessEntry: _a,
    partition: _p,
    kubernetesProvider: _kp,
    subnetSelectorTerms: _s,
    securityGroupSelectorTerms: _g,
    tags: _t,
    ...rest
  } = args;
  return {
    ...rest,
    name,
    role: r.role,
    subnetSelectorTerms: r.subnets,
    securityGroupSelectorTerms: r.securityGroups,
    ...(r.tags !== undefined ? { tags: r.tags } : {}),
  };
}

/** A deep input that is plain now (read it), or its stand-in until it resolves (checked then). */
function nowOr<T>(value: unknown, later: T): T {
  return isPlain(value) ? (value as T) : later;
}

/** Every problem with the args of a `WindowsKarpenterNodePool` that can be known before deployment. */
export function checkWindowsKarpenterNodePoolArgs(
  rawArgs: WindowsKarpenterNodePoolArgs,
  name = 'windows',
): ValidationIssue[] {
  const shaped = shapedArgs(rawArgs, KARPENTER_SHAPES);
  return mergeShapeIssues(shaped.issues, shaped.bad, otherIssues(shaped.args, name));
}

function otherIssues(rawArgs: WindowsKarpenterNodePoolArgs, name: string): ValidationIssue[] {
  const { args, issues } = plainArgs(rawArgs, PLAIN_FIELDS);
  issues.push(...requiredInput(args.clusterName, 'clusterName', 'Pass the EKS cluster name, e.g. cluster.name.'));
  const release = args.release ?? DEFAULT_WINDOWS_RELEASE;
  if (isWindowsRelease(release)) {
    issues.push(...releaseGateRefusals('eks', release, { value: args.kubernetesVersion, path: 'kubernetesVersion' }));
  }
  const role = args.nodeRole === undefined || isEventual(args.nodeRole.name) ? LATER_ROLE : String(args.nodeRole.name);
  try {
    windowsKarpenterManifests(
      options(args, args.name ?? name, {
        role,
        subnets: nowOr(args.subnetSelectorTerms, LATER_TERMS),
        securityGroups: nowOr(args.securityGroupSelectorTerms, LATER_TERMS),
        tags: nowOr(args.tags, LATER_TAGS),
      }),
    );
  } catch (e) {
    const core = e as { issues?: readonly ValidationIssue[] };
    if (!Array.isArray(core.issues)) throw e;
    for (const i of core.issues) {
      // The manifest name defaults to the component name: say so.
      issues.push(i.path === 'name' && args.name === undefined ? { ...i, fix: `Set name. ${i.fix ?? ''}`.trim() } : i);
    }
  }
  return issues;
}

/**
 * Windows nodes from Karpenter: an `EC2NodeClass` (the release's `windows20xx@latest` AMI alias, a gp3 root volume
 * on `/dev/sda1`) and a `NodePool` (`kubernetes.io/os In [windows]`, `kubernetes.io/arch In [amd64]`, the release's
 * build, families EC2 offers Windows on, the Windows taint), both from the core's `windowsKarpenterManifests`, plus
 * a node role and its `EC2_WINDOWS` access entry. Karpenter itself (controller, its IAM, `iam:PassRole` on the
 * node role) is not installed here. Make it depend on a `WindowsClusterPrerequisites` (Windows IPAM).
 *
 * Plain args are checked before anything is registered (one `InputPropertiesError`); Output selector terms and the
 * role name are checked once known, failing the deployment with one error.
 */
export class WindowsKarpenterNodePool extends pulumi.ComponentResource {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly release: WindowsRelease;
  public readonly nodeClass: CustomResource;
  public readonly nodePool: CustomResource;
  /** The node role created for the pool; undefined when `nodeRole` was given. */
  public readonly nodeRole?: iam.Role;
  public readonly nodeRoleArn: pulumi.Output<string>;
  public readonly accessEntry?: eks.AccessEntry;
  /** The aws-auth `mapRoles` entry the nodes need on `CONFIG_MAP` clusters. */
  public readonly awsAuthRoleMapping: pulumi.Output<AwsAuthRoleMapping>;
  /** The manifests registered (the same objects cdk8s and GitOps users get from the core). */
  public readonly manifests: pulumi.Output<{ nodePool: unknown; nodeClass: unknown }>;

  constructor(name: string, rawArgs: WindowsKarpenterNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `${WINDOWS_KARPENTER_NODE_POOL_TYPE} '${name}'`;
    const args = requireArgs(subject, rawArgs);
    throwInputErrors(subject, checkWindowsKarpenterNodePoolArgs(args, name));
    super(WINDOWS_KARPENTER_NODE_POOL_TYPE, name, {}, opts);

    const manifestName = args.name ?? name;
    this.release = args.release ?? DEFAULT_WINDOWS_RELEASE;
    // The scheduling contract depends only on plain args: known now.
    const preview = windowsKarpenterManifests(
      options(args, manifestName, {
        role: LATER_ROLE,
        subnets: LATER_TERMS,
        securityGroups: LATER_TERMS,
        tags: LATER_TAGS,
      }),
    );
    this.nodeTarget = preview.nodeTarget;
    logWarnings(nodePoolWarnings({ release: this.release, taints: this.nodeTarget.taints }), this, name);

    let role: NodeRoleRef;
    let roleReady: pulumi.Resource[] = [];
    if (args.nodeRole !== undefined) {
      role = args.nodeRole;
    } else {
      const created = createWindowsNodeRole(name, args.partition ?? DEFAULT_PARTITION, this, args.tags);
      this.nodeRole = created.role;
      role = created.role;
      roleReady = [...created.attachments];
    }
    this.nodeRoleArn = pulumi.output(role.arn);
    this.awsAuthRoleMapping = this.nodeRoleArn.apply(windowsAwsAuthRoleMapping);
    if (args.createAccessEntry ?? true) {
      this.accessEntry = new eks.AccessEntry(
        `${name}-access-entry`,
        { clusterName: args.clusterName, principalArn: role.arn, type: EC2_WINDOWS_ACCESS_ENTRY_TYPE },
        { parent: this },
      );
    }

    // Built once the role name, selector terms and tags are known (pulumi.output unwraps them at any depth); a
    // refusal surfaces once, where the EC2NodeClass takes its spec (the NodePool depends on it).
    const builtInputs = [role.name, args.subnetSelectorTerms, args.securityGroupSelectorTerms, args.tags] as const;
    const built = pulumi.all([...builtInputs] as [...typeof builtInputs]).apply(async (values) => {
      const [roleName, subnets, securityGroups, tags] = values;
      try {
        checkResolved(subject, SELECTOR_TERMS, subnets, 'subnetSelectorTerms');
        checkResolved(subject, SELECTOR_TERMS, securityGroups, 'securityGroupSelectorTerms');
        checkResolved(subject, { shape: TAGS_SHAPE }, tags, 'tags');
        checkResolved(subject, { shape: str(), required: true }, roleName, 'nodeRole.name');
        return {
          ok: true as const,
          manifests: asInputErrors(subject, '', () =>
            windowsKarpenterManifests(
              options(args, manifestName, {
                role: roleName,
                subnets: subnets as readonly KarpenterSelectorTerm[],
                securityGroups: securityGroups as readonly KarpenterSelectorTerm[],
                tags: tags as Readonly<Record<string, string>> | undefined,
              }),
            ),
          ) as WindowsKarpenterManifests,
        };
      } catch (refused) {
        return { ok: false as const, refused: redactError(refused, await secretValues(builtInputs, values)) };
      }
    });
    const provider = args.kubernetesProvider !== undefined ? { provider: args.kubernetesProvider } : {};
    this.nodeClass = new CustomResource(
      `${name}-node-class`,
      {
        apiVersion: preview.nodeClass.apiVersion,
        kind: preview.nodeClass.kind,
        metadata: { name: manifestName },
        spec: built.apply((b) => {
          if (!b.ok) throw b.refused;
          return b.manifests.nodeClass.spec;
        }),
      },
      { parent: this, dependsOn: [...roleReady, ...(this.accessEntry ? [this.accessEntry] : [])], ...provider },
    );
    this.nodePool = new CustomResource(
      `${name}-node-pool`,
      {
        apiVersion: preview.nodePool.apiVersion,
        kind: preview.nodePool.kind,
        metadata: { name: manifestName },
        spec: built.apply((b) => (b.ok ? b.manifests.nodePool.spec : preview.nodePool.spec)),
      },
      { parent: this, dependsOn: [this.nodeClass], ...provider },
    );
    this.manifests = built.apply((b) =>
      b.ok ? { nodePool: b.manifests.nodePool, nodeClass: b.manifests.nodeClass } : { nodePool: {}, nodeClass: {} },
    );
    this.registerOutputs({ nodePool: this.nodePool, nodeClass: this.nodeClass, nodeRoleArn: this.nodeRoleArn });
  }
}
