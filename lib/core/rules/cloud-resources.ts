/**
 * What the cloud rules check, by Pulumi type token: the provider resources the policy pack reads
 * (lib/pulumi/policy/node-pools.ts) and the k8s-windows components that check their own args.
 */
export const EKS_NODE_GROUP = 'aws:eks/nodeGroup:NodeGroup';
export const EKS_CLUSTER = 'aws:eks/cluster:Cluster';
export const IAM_ROLE = 'aws:iam/role:Role';
export const EKS_ADDON = 'aws:eks/addon:Addon';
export const CONFIG_MAP = 'kubernetes:core/v1:ConfigMap';
export const AKS_AGENT_POOL = 'azure-native:containerservice:AgentPool';
export const AKS_CLUSTER = 'azure-native:containerservice:ManagedCluster';
export const GKE_NODE_POOL = 'gcp:container/nodePool:NodePool';
export const GKE_CLUSTER = 'gcp:container/cluster:Cluster';

export const EKS_POOL_COMPONENT = 'k8s-windows:eks:WindowsNodePool';
export const EKS_SELF_MANAGED_COMPONENT = 'k8s-windows:eks:SelfManagedWindowsNodePool';
export const EKS_KARPENTER_COMPONENT = 'k8s-windows:eks:WindowsKarpenterNodePool';
export const EKS_PREREQUISITES_COMPONENT = 'k8s-windows:eks:WindowsClusterPrerequisites';
export const AKS_POOL_COMPONENT = 'k8s-windows:aks:WindowsNodePool';
export const GKE_POOL_COMPONENT = 'k8s-windows:gke:WindowsNodePool';

/** Every Windows node pool: the AKS and GKE provider pools (EKS node groups have their own rules) and the components. */
export const WINDOWS_NODE_POOLS = [
  AKS_AGENT_POOL,
  GKE_NODE_POOL,
  EKS_POOL_COMPONENT,
  AKS_POOL_COMPONENT,
  GKE_POOL_COMPONENT,
] as const;
