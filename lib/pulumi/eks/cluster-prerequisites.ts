/**
 * `WindowsClusterPrerequisites`: what an EKS cluster needs before Windows nodes can run pods (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html):
 * Windows IPAM switched on in the `amazon-vpc-cni` ConfigMap, the `AmazonEKSVPCResourceController` policy on
 * the cluster role, `EC2_WINDOWS` access entries for self-managed node roles, and a Linux node group.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
 */
import * as pulumi from '@pulumi/pulumi';
import * as eks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import * as corev1 from '@pulumi/kubernetes/core/v1';
import type { ValidationIssue } from '../../core/errors';
import { requireArgs, throwInputErrors } from '../errors';
import { componentWarnings, logWarnings, type NodePoolWarning } from '../node-pool';
import { runCloudRules } from '../../core/rules/cloud-runner';
import {
  bool,
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
import { DEFAULT_PARTITION, managedPolicyArn, VPC_RESOURCE_CONTROLLER_POLICY } from './iam';
import { EC2_WINDOWS_ACCESS_ENTRY_TYPE } from './self-managed-node-pool';

export const WINDOWS_CLUSTER_PREREQUISITES_TYPE = 'k8s-windows:eks:WindowsClusterPrerequisites';
/** The ConfigMap the VPC resource controller reads. */
export const VPC_CNI_CONFIG_MAP = { name: 'amazon-vpc-cni', namespace: 'kube-system' } as const;
/** The key that turns on IP address management for Windows pods. */
export const WINDOWS_IPAM_KEY = 'enable-windows-ipam';

/** The EKS managed add-on of the VPC CNI. */
export const VPC_CNI_ADDON_NAME = 'vpc-cni';

/**
 * Windows settings of the VPC CNI managed add-on, as its configuration values (a JSON object). The add-on's schema
 * takes them as strings (`"true"`), as the terraform-aws-eks and EKS Blueprints Windows examples write them.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support
 * @see https://github.com/aws/amazon-vpc-cni-k8s/blob/master/charts/aws-vpc-cni/values.yaml
 */
export function vpcCniWindowsConfigurationValues(options: { readonly prefixDelegation?: boolean } = {}): {
  enableWindowsIpam: 'true';
  enableWindowsPrefixDelegation: 'true' | 'false';
} {
  return {
    enableWindowsIpam: 'true',
    enableWindowsPrefixDelegation: options.prefixDelegation === true ? 'true' : 'false',
  };
}

/** The VPC CNI as an EKS managed add-on that carries the Windows settings. */
export interface VpcCniAddonArgs {
  /**
   * Add-on version (`v1.19.2-eksbuild.1`).
   * @default - the default version EKS picks for the cluster
   */
  readonly addonVersion?: pulumi.Input<string>;
  /**
   * Prefix delegation for Windows nodes (`enableWindowsPrefixDelegation`): /28 prefixes instead of single IPs, for
   * more pods per node.
   * @default false
   * @see https://docs.aws.amazon.com/eks/latest/best-practices/prefix-mode-win.html
   */
  readonly windowsPrefixDelegation?: boolean;
  /**
   * Further configuration values of the add-on (`env`, `nodeAgent`…), merged under the Windows ones.
   * @default {}
   */
  readonly configurationValues?: Readonly<Record<string, unknown>>;
  /**
   * IAM role for the add-on's service account (IRSA).
   * @default - the node role's permissions
   */
  readonly serviceAccountRoleArn?: pulumi.Input<string>;
}

/** Say `'existing'` when the cluster's Linux node group is managed outside this program. */
export type ExistingLinuxNodeGroup = 'existing';

export interface WindowsClusterPrerequisitesArgs {
  /** The EKS cluster. */
  readonly clusterName: pulumi.Input<string>;
  /**
   * Name of the cluster's IAM role; `AmazonEKSVPCResourceController` is attached to it.
   * @see https://docs.aws.amazon.com/eks/latest/userguide/cluster-iam-role.html
   */
  readonly clusterRoleName: pulumi.Input<string>;
  /**
   * The cluster's Linux node group (CoreDNS, the VPC CNI and controllers run only on Linux), or `'existing'`
   * when it is managed elsewhere. Windows pools that depend on this component then come after it.
   * @default - none declared: a warning (`eks-windows-linux-node-group`)
   */
  readonly linuxNodeGroup?: pulumi.Resource | ExistingLinuxNodeGroup;
  /**
   * Roles of self-managed Windows nodes that need an `EC2_WINDOWS` access entry (a `SelfManagedWindowsNodePool`
   * creates its own; managed node groups get theirs from EKS). The cluster's authentication mode must include `API`.
   * @default []
   * @see https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html
   */
  readonly windowsNodeRoleArns?: readonly pulumi.Input<string>[];
  /**
   * Kubernetes provider for the cluster.
   * @default - the provider from `opts.providers`, else the ambient kubeconfig
   */
  readonly kubernetesProvider?: pulumi.ProviderResource;
  /**
   * Run the VPC CNI as the EKS managed add-on and switch Windows IPAM on through its configuration values, instead
   * of patching the `amazon-vpc-cni` ConfigMap: add-on updates that resolve conflicts with OVERWRITE reset a
   * patched ConfigMap. The add-on is created with conflicts resolved by OVERWRITE, so its configuration is the
   * source of truth. Leave it out when the add-on is managed elsewhere (give that add-on
   * `vpcCniWindowsConfigurationValues()`), or when the VPC CNI is self-managed.
   * @default - the ConfigMap is patched
   * @see https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html
   */
  readonly vpcCniAddon?: VpcCniAddonArgs;
  /**
   * Take ownership of `enable-windows-ipam` from the field manager that wrote it before (the VPC CNI add-on
   * ships the map with the key set to "false"; an unforced server-side apply of "true" would conflict): sets the
   * `pulumi.com/patchForce` annotation. Only this key is taken over.
   * @default true
   */
  readonly forceConfigMapPatch?: boolean;
  /**
   * AWS partition, for the managed policy ARN.
   * @default 'aws'
   */
  readonly partition?: string;
}

const inputString = str({ eventual: true });
const requiredName = str({ eventual: true, nonEmpty: true });

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const PREREQUISITES_SHAPES: ArgShapes = {
  clusterName: { shape: requiredName, required: true, example: 'cluster.name' },
  clusterRoleName: { shape: requiredName, required: true, example: 'clusterRole.name' },
  linuxNodeGroup: { shape: either(resource('a node group resource'), literal('existing')) },
  windowsNodeRoleArns: { shape: list(inputString), example: '[windowsRole.arn]' },
  kubernetesProvider: { shape: resource('a Kubernetes provider') },
  vpcCniAddon: {
    shape: object({
      addonVersion: { shape: inputString, example: "'v1.19.2-eksbuild.1'" },
      windowsPrefixDelegation: { shape: bool() },
      configurationValues: { shape: object({}) },
      serviceAccountRoleArn: { shape: inputString },
    }),
    example: '{}',
  },
  forceConfigMapPatch: { shape: bool() },
  partition: { shape: str(), example: "'aws'" },
};

/** Every problem with the args of `WindowsClusterPrerequisites`, without registering anything. */
export function checkWindowsClusterPrerequisitesArgs(raw: WindowsClusterPrerequisitesArgs): ValidationIssue[] {
  const shaped = shapedArgs(raw, PREREQUISITES_SHAPES);
  return mergeShapeIssues(shaped.issues, shaped.bad, otherIssues(shaped.args));
}

function otherIssues(args: WindowsClusterPrerequisitesArgs): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const lng: unknown = args.linuxNodeGroup;
  if (lng !== undefined && lng !== 'existing' && !pulumi.Resource.isInstance(lng)) {
    issues.push({
      path: 'linuxNodeGroup',
      message: `linuxNodeGroup ${JSON.stringify(lng)} is neither a resource nor 'existing'.`,
      fix: "Pass the Linux aws.eks.NodeGroup, or 'existing' when it is managed elsewhere.",
    });
  }
  const partition: unknown = args.partition ?? DEFAULT_PARTITION;
  if (typeof partition !== 'string' || !/^aws(-[a-z]+)*$/.test(partition)) {
    issues.push({
      path: 'partition',
      message: `Partition ${JSON.stringify(partition)} is not an AWS partition.`,
      fix: "Use 'aws', 'aws-cn' or 'aws-us-gov'.",
    });
  }
  const addon: unknown = args.vpcCniAddon;
  if (addon !== undefined) {
    if (typeof addon !== 'object' || addon === null || pulumi.Output.isInstance(addon)) {
      issues.push({ path: 'vpcCniAddon', message: 'vpcCniAddon must be an object.', fix: 'Write vpcCniAddon: {}.' });
    } else {
      const { windowsPrefixDelegation, configurationValues } = addon as Record<string, unknown>;
      if (windowsPrefixDelegation !== undefined && typeof windowsPrefixDelegation !== 'boolean') {
        issues.push({
          path: 'vpcCniAddon.windowsPrefixDelegation',
          message: `windowsPrefixDelegation ${JSON.stringify(windowsPrefixDelegation)} is not a boolean.`,
          fix: 'Write true or false.',
        });
      }
      const cv = configurationValues as Record<string, unknown> | undefined;
      for (const key of ['enableWindowsIpam', 'enableWindowsPrefixDelegation']) {
        if (cv !== undefined && typeof cv === 'object' && key in cv) {
          issues.push({
            path: `vpcCniAddon.configurationValues.${key}`,
            message: `${key} is set by the component (Windows IPAM on, prefix delegation from windowsPrefixDelegation).`,
            fix: `Remove it${key === 'enableWindowsPrefixDelegation' ? ' and set vpcCniAddon.windowsPrefixDelegation' : ''}.`,
          });
        }
      }
    }
  }
  if (args.windowsNodeRoleArns !== undefined && !Array.isArray(args.windowsNodeRoleArns)) {
    issues.push({
      path: 'windowsNodeRoleArns',
      message: 'windowsNodeRoleArns must be a list of role ARNs.',
      fix: 'Write [role.arn].',
    });
  }
  return issues;
}

/** The warning when no Linux node group is declared (eks-windows-linux-node-group's, from its rule module). */
export const MISSING_LINUX_NODE_GROUP_WARNING: NodePoolWarning = (() => {
  const [warning] = componentWarnings(runCloudRules({ kind: 'eks-prerequisites-component', props: {} }));
  return warning;
})();

/**
 * The cluster-side prerequisites of Windows nodes. Make Windows pools depend on it
 * (`{ dependsOn: [prerequisites] }`).
 *
 * The ConfigMap is written with `ConfigMapPatch` (server-side apply), not a `ConfigMap`: the map already exists
 * (EKS and the VPC CNI add-on keep it, with other keys the add-on owns). A patch owns only `enable-windows-ipam`
 * under its own field manager, merges it into the existing map, and on destroy gives up just that key; a plain
 * `ConfigMap` would fail on the existing object, or, once imported, delete the whole map on destroy.
 */
export class WindowsClusterPrerequisites extends pulumi.ComponentResource {
  /** The `amazon-vpc-cni` patch; undefined when `vpcCniAddon` carries the setting. */
  public readonly vpcCniConfigMap?: corev1.ConfigMapPatch;
  /** The VPC CNI managed add-on, when `vpcCniAddon` is given. */
  public readonly vpcCniAddon?: eks.Addon;
  public readonly vpcResourceControllerAttachment: iam.RolePolicyAttachment;
  public readonly accessEntries: readonly eks.AccessEntry[];

  constructor(name: string, rawArgs: WindowsClusterPrerequisitesArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `${WINDOWS_CLUSTER_PREREQUISITES_TYPE} '${name}'`;
    const args = requireArgs(subject, rawArgs);
    throwInputErrors(subject, checkWindowsClusterPrerequisitesArgs(args));
    super(WINDOWS_CLUSTER_PREREQUISITES_TYPE, name, {}, opts);
    const partition = args.partition ?? DEFAULT_PARTITION;
    // The key usually exists already, owned by the add-on (see forceConfigMapPatch).
    const forcePatch = args.forceConfigMapPatch ?? true;

    const linux = runCloudRules({
      kind: 'eks-prerequisites-component',
      props: { linuxNodeGroup: args.linuxNodeGroup },
    });
    logWarnings(componentWarnings(linux), this, name);
    const afterLinux = pulumi.Resource.isInstance(args.linuxNodeGroup) ? [args.linuxNodeGroup] : [];

    this.vpcResourceControllerAttachment = new iam.RolePolicyAttachment(
      `${name}-vpc-resource-controller`,
      { role: args.clusterRoleName, policyArn: managedPolicyArn(partition, VPC_RESOURCE_CONTROLLER_POLICY) },
      { parent: this },
    );

    if (args.vpcCniAddon !== undefined) {
      const addon = args.vpcCniAddon;
      this.vpcCniAddon = new eks.Addon(
        `${name}-vpc-cni`,
        {
          clusterName: args.clusterName,
          addonName: VPC_CNI_ADDON_NAME,
          ...(addon.addonVersion !== undefined ? { addonVersion: addon.addonVersion } : {}),
          ...(addon.serviceAccountRoleArn !== undefined ? { serviceAccountRoleArn: addon.serviceAccountRoleArn } : {}),
          configurationValues: JSON.stringify({
            ...addon.configurationValues,
            ...vpcCniWindowsConfigurationValues({ prefixDelegation: addon.windowsPrefixDelegation }),
          }),
          // The add-on replaces the self-managed aws-node on creation, and its configuration wins on updates.
          resolveConflictsOnCreate: 'OVERWRITE',
          resolveConflictsOnUpdate: 'OVERWRITE',
        },
        { parent: this, dependsOn: [this.vpcResourceControllerAttachment] },
      );
    } else {
      this.vpcCniConfigMap = this.patchVpcCniConfigMap(name, args, forcePatch, afterLinux);
    }

    this.accessEntries = (args.windowsNodeRoleArns ?? []).map(
      (principalArn, i) =>
        new eks.AccessEntry(
          `${name}-windows-nodes-${i}`,
          { clusterName: args.clusterName, principalArn, type: EC2_WINDOWS_ACCESS_ENTRY_TYPE },
          { parent: this },
        ),
    );

    this.registerOutputs({
      ...(this.vpcCniConfigMap ? { vpcCniConfigMap: this.vpcCniConfigMap } : {}),
      ...(this.vpcCniAddon ? { vpcCniAddon: this.vpcCniAddon } : {}),
      vpcResourceControllerAttachment: this.vpcResourceControllerAttachment,
    });
  }

  private patchVpcCniConfigMap(
    name: string,
    args: WindowsClusterPrerequisitesArgs,
    forcePatch: boolean,
    afterLinux: pulumi.Resource[],
  ): corev1.ConfigMapPatch {
    return new corev1.ConfigMapPatch(
      `${name}-windows-ipam`,
      {
        metadata: {
          name: VPC_CNI_CONFIG_MAP.name,
          namespace: VPC_CNI_CONFIG_MAP.namespace,
          ...(forcePatch ? { annotations: { 'pulumi.com/patchForce': 'true' } } : {}),
        },
        data: { [WINDOWS_IPAM_KEY]: 'true' },
      },
      {
        parent: this,
        dependsOn: [this.vpcResourceControllerAttachment, ...afterLinux],
        ...(args.kubernetesProvider !== undefined ? { provider: args.kubernetesProvider } : {}),
      },
    );
  }
}
