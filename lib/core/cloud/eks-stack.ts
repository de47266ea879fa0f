/**
 * What the EKS stack rules share (eks-windows-vpc-resource-controller, eks-windows-ipam): whether a stack declares
 * Windows nodes on EKS, and what its resources attach or switch on. Windows pods get no IP unless the cluster role
 * carries the `AmazonEKSVPCResourceController` policy and Windows IPAM is switched on, in the `amazon-vpc-cni`
 * ConfigMap or in the VPC CNI add-on's configuration values.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support
 */
import { isRecord } from '../json';
import type { EksStackResource } from '../rules/cloud-inputs';

export type { EksStackResource };

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

export function attachesVpcResourceController(r: EksStackResource): 'yes' | 'no' | 'unknown' {
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

export function vpcCniAddonConfig(r: EksStackResource): Record<string, unknown> | 'unknown' | undefined {
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
export function isOn(v: unknown): boolean {
  return v === true || v === 'true';
}

export function patchesWindowsIpam(r: EksStackResource): 'yes' | 'no' | 'unknown' {
  if (!CONFIG_MAP.test(r.type)) return 'no';
  const meta = isRecord(r.props.metadata) ? r.props.metadata : {};
  if (meta.name !== 'amazon-vpc-cni' || (meta.namespace !== undefined && meta.namespace !== 'kube-system')) return 'no';
  const data = isRecord(r.props.data) ? r.props.data : {};
  if (unknown(data['enable-windows-ipam'])) return 'unknown';
  return data['enable-windows-ipam'] === 'true' ? 'yes' : 'no';
}
