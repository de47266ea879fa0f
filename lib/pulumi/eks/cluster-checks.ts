/**
 * Stack-level checks of an EKS cluster that runs Windows nodes, for the policy pack (pure: resource types and
 * props in, issues out; never loads `@pulumi/aws`). Windows pods get no IP unless the cluster role carries the
 * `AmazonEKSVPCResourceController` policy and Windows IPAM is switched on, in the `amazon-vpc-cni` ConfigMap or in
 * the VPC CNI add-on's configuration values (an add-on update that resolves conflicts with OVERWRITE resets a
 * patched ConfigMap). Both can live outside the stack, so missing ones are warnings.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support
 */
import { isRecord } from '../../core/json';
import type { EksNodeGroupIssue } from './node-group-check';

/** A resource of the stack, as a stack policy sees it (props copied, unknowns as placeholder objects). */
export interface EksStackResource {
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
}

/** Rule ids of the cluster-level EKS checks. */
export const EKS_CLUSTER_RULE_IDS = {
  vpcResourceController: 'eks-windows-vpc-resource-controller',
  windowsIpam: 'eks-windows-ipam',
} as const;

export const EKS_CLUSTER_TYPE = 'aws:eks/cluster:Cluster';
const NODE_GROUP = 'aws:eks/nodeGroup:NodeGroup';
const ACCESS_ENTRY = 'aws:eks/accessEntry:AccessEntry';
const ADDON = 'aws:eks/addon:Addon';
const ROLE = 'aws:iam/role:Role';
const ATTACHMENT = /^aws:iam\/(rolePolicyAttachment:RolePolicyAttachment|policyAttachment:PolicyAttachment)$/;
const CONFIG_MAP = /^kubernetes:core\/v1:ConfigMap(Patch)?$/;
const VPC_RESOURCE_CONTROLLER = /:policy\/AmazonEKSVPCResourceController$/;

/** Whether the stack declares Windows nodes on EKS: a Windows managed node group, or an `EC2_WINDOWS` access entry. */
export function declaresEksWindowsNodes(resources: readonly EksStackResource[]): boolean {
  return resources.some(
    (r) =>
      (r.type === NODE_GROUP && typeof r.props.amiType === 'string' && /^windows/i.test(r.props.amiType)) ||
      (r.type === ACCESS_ENTRY && r.props.type === 'EC2_WINDOWS'),
  );
}

/** Whether a value is a placeholder for an unknown (an object where a string belongs): not judged. */
function unknown(v: unknown): boolean {
  return typeof v === 'object' && v !== null;
}

function attachesVpcResourceController(r: EksStackResource): 'yes' | 'no' | 'unknown' {
  if (ATTACHMENT.test(r.type)) {
    const arn = r.props.policyArn;
    if (unknown(arn)) return 'unknown';
    return typeof arn === 'string' && VPC_RESOURCE_CONTROLLER.test(arn) ? 'yes' : 'no';
  }
  if (r.type === ROLE && Array.isArray(r.props.managedPolicyArns)) {
    const arns = r.props.managedPolicyArns as unknown[];
    if (arns.some((a) => typeof a === 'string' && VPC_RESOURCE_CONTROLLER.test(a))) return 'yes';
    return arns.some(unknown) ? 'unknown' : 'no';
  }
  return 'no';
}

function vpcCniAddonConfig(r: EksStackResource): Record<string, unknown> | 'unknown' | undefined {
  if (r.type !== ADDON || r.props.addonName !== 'vpc-cni') return undefined;
  const values = r.props.configurationValues;
  if (values === undefined) return {};
  if (typeof values !== 'string') return 'unknown';
  try {
    const parsed: unknown = JSON.parse(values);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** `'true'` or `true`: what the add-on schema and the ConfigMap take. */
function isOn(v: unknown): boolean {
  return v === true || v === 'true';
}

function patchesWindowsIpam(r: EksStackResource): 'yes' | 'no' | 'unknown' {
  if (!CONFIG_MAP.test(r.type)) return 'no';
  const meta = isRecord(r.props.metadata) ? r.props.metadata : {};
  if (meta.name !== 'amazon-vpc-cni' || (meta.namespace !== undefined && meta.namespace !== 'kube-system')) return 'no';
  const data = isRecord(r.props.data) ? r.props.data : {};
  if (unknown(data['enable-windows-ipam'])) return 'unknown';
  return data['enable-windows-ipam'] === 'true' ? 'yes' : 'no';
}

/**
 * Cluster-level issues of a stack with Windows nodes on EKS (none for a stack without): no
 * `AmazonEKSVPCResourceController` attachment, Windows IPAM switched on nowhere, or only in a ConfigMap that the
 * stack's own VPC CNI add-on overwrites. Values not known yet count as present.
 */
export function checkEksClusterForWindows(resources: readonly EksStackResource[]): EksNodeGroupIssue[] {
  if (!declaresEksWindowsNodes(resources)) return [];
  const issues: EksNodeGroupIssue[] = [];
  const controller = resources.map(attachesVpcResourceController);
  if (!controller.includes('yes') && !controller.includes('unknown')) {
    issues.push({
      ruleId: EKS_CLUSTER_RULE_IDS.vpcResourceController,
      severity: 'warning',
      path: 'roleArn',
      message:
        'The stack runs Windows nodes on EKS, but no AmazonEKSVPCResourceController policy is attached to a role in it: without it on the cluster role, Windows pods get no IP address.',
      fix: 'Attach arn:aws:iam::aws:policy/AmazonEKSVPCResourceController to the cluster role (WindowsClusterPrerequisites does).',
    });
  }
  const addons = resources.map(vpcCniAddonConfig).filter((c) => c !== undefined);
  const addonOn = addons.some((c) => c === 'unknown' || isOn(c.enableWindowsIpam));
  const patches = resources.map(patchesWindowsIpam);
  const patchOn = patches.includes('yes') || patches.includes('unknown');
  const overwriting = resources.some(
    (r) => vpcCniAddonConfig(r) !== undefined && r.props.resolveConflictsOnUpdate === 'OVERWRITE',
  );
  if (!addonOn && !patchOn) {
    issues.push({
      ruleId: EKS_CLUSTER_RULE_IDS.windowsIpam,
      severity: 'warning',
      path: 'vpc-cni',
      message:
        "The stack runs Windows nodes on EKS, but Windows IPAM is switched on nowhere in it (amazon-vpc-cni enable-windows-ipam, or the vpc-cni add-on's enableWindowsIpam): Windows pods get no IP address.",
      fix: 'Use WindowsClusterPrerequisites (vpcCniAddon for the managed add-on), or set enableWindowsIpam: "true" in the add-on\'s configurationValues.',
    });
  } else if (!addonOn && overwriting) {
    issues.push({
      ruleId: EKS_CLUSTER_RULE_IDS.windowsIpam,
      severity: 'warning',
      path: 'vpc-cni',
      message:
        "Windows IPAM is switched on in the amazon-vpc-cni ConfigMap, but the stack's vpc-cni add-on resolves update conflicts with OVERWRITE, which resets the ConfigMap.",
      fix: 'Set enableWindowsIpam: "true" in the add-on\'s configurationValues (vpcCniWindowsConfigurationValues()).',
    });
  }
  return issues;
}
