/**
 * `k8s-windows/pulumi/eks`: Windows node pools and cluster prerequisites for Amazon EKS. Loads only the
 * `@pulumi/aws` submodules it uses (eks, iam, ec2, autoscaling) and `@pulumi/kubernetes/core/v1`, never the
 * `@pulumi/aws` root index, Azure or GCP (test/pulumi/isolation.e2e.test.ts).
 */

// Components
export {
  WindowsNodePool,
  WINDOWS_NODE_POOL_TYPE,
  checkWindowsNodePoolArgs,
  type WindowsNodePoolArgs,
  type EksCapacityType,
} from './windows-node-pool';
export {
  SelfManagedWindowsNodePool,
  SELF_MANAGED_WINDOWS_NODE_POOL_TYPE,
  EC2_WINDOWS_ACCESS_ENTRY_TYPE,
  checkSelfManagedWindowsNodePoolArgs,
  quantityBytes,
  type SelfManagedWindowsNodePoolArgs,
  type NodeRoleRef,
  type EksAuthenticationMode,
  type AwsAuthArgs,
  type AwsAuthRoleMappingInput,
} from './self-managed-node-pool';
export {
  AWS_AUTH_CONFIG_MAP,
  WINDOWS_NODE_GROUPS,
  NODE_USERNAME,
  windowsAwsAuthRoleMapping,
  mapRolesWithWindows,
  type AwsAuthRoleMapping,
} from './aws-auth';
export {
  WindowsKarpenterNodePool,
  WINDOWS_KARPENTER_NODE_POOL_TYPE,
  checkWindowsKarpenterNodePoolArgs,
  type WindowsKarpenterNodePoolArgs,
  type KarpenterSelectorTermInput,
} from './karpenter-node-pool';
export {
  WindowsClusterPrerequisites,
  WINDOWS_CLUSTER_PREREQUISITES_TYPE,
  VPC_CNI_CONFIG_MAP,
  WINDOWS_IPAM_KEY,
  MISSING_LINUX_NODE_GROUP_WARNING,
  checkWindowsClusterPrerequisitesArgs,
  vpcCniWindowsConfigurationValues,
  VPC_CNI_ADDON_NAME,
  type VpcCniAddonArgs,
  type WindowsClusterPrerequisitesArgs,
  type ExistingLinuxNodeGroup,
} from './cluster-prerequisites';
export {
  DEFAULT_WINDOWS_DISK_SIZE_GIB,
  DEFAULT_WINDOWS_INSTANCE_TYPE,
  checkSubnetIds,
  type EksWindowsPoolBaseArgs,
} from './pool-args';

// Pure helpers (also used by the policy pack)
export { checkEksNodeGroupInputs, MIN_WINDOWS_DISK_SIZE_GIB, type EksNodeGroupIssue } from './node-group-check';
export {
  eksWindowsAmiType,
  eksWindowsAmiParameterName,
  parseEksWindowsAmiType,
  isEksWindowsAmiType,
  looksLikeEksWindowsAmiType,
  explainEksWindowsAmiType,
  isEksAmiVariant,
  EKS_WINDOWS_AMI_TYPES,
  EKS_AMI_VARIANTS,
  DEFAULT_EKS_AMI_VARIANT,
  type EksAmiVariant,
} from './ami-types';
export {
  instanceFamily,
  isArmInstanceType,
  isMacInstanceType,
  isWindowsUnsupportedInstanceType,
  isBelowWindowsMemoryFloor,
  checkWindowsInstanceTypes,
  checkWindowsInstanceType,
} from './instance-types';
export {
  autoscalerNodeTemplateTags,
  autoscalerClusterTag,
  AUTOSCALER_NODE_TEMPLATE_PREFIX,
  AUTOSCALER_WINDOWS_OS_TAG,
  AUTOSCALER_ENABLED_TAG,
  AUTOSCALER_WINDOWS_POD_IP_TAG,
  WINDOWS_POD_IP_RESOURCE,
  windowsPodIpCapacity,
} from './tags';
export {
  renderWindowsUserData,
  userDataProblems,
  windowsKubeletArgs,
  encodeUserData,
  EKS_BOOTSTRAP_SCRIPT,
  DEFAULT_SYSTEM_RESERVED_MEMORY,
  KUBELET_WINDOWS_PRIORITY_CLASS,
  type WindowsUserDataOptions,
  type WindowsKubeletArgsOptions,
} from './user-data';
export {
  EKS_NODE_POLICIES,
  VPC_RESOURCE_CONTROLLER_POLICY,
  DEFAULT_PARTITION,
  managedPolicyArn,
  ec2AssumeRolePolicy,
} from './iam';
