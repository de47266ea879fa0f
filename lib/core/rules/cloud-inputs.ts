/**
 * What a cloud rule's check receives: the plain input values of one cloud resource, as the policy pack reads a
 * provider resource (`aws:eks/nodeGroup:NodeGroup`) and as a k8s-windows component is about to create it. Every
 * field is `unknown`: a value may be missing, of the wrong type, or not known yet (a preview placeholder, an
 * Output), and a check judges only what it can read (a component's resolved args are typed: it checked them).
 * No Pulumi import: the core stays framework-free.
 */
import type { WindowsRelease } from '../releases';
import type { Taint } from '../target';

/** The inputs of an EKS managed node group (`aws.eks.NodeGroup`) the rules read. */
export interface EksNodeGroupInput {
  readonly amiType?: unknown;
  /** The Kubernetes version; absent: the cluster's. */
  readonly version?: unknown;
  readonly clusterName?: unknown;
  /** `[{ key, value, effect: 'NO_SCHEDULE' }]` */
  readonly taints?: unknown;
  readonly instanceTypes?: unknown;
  /** GiB */
  readonly diskSize?: unknown;
  readonly tags?: unknown;
  /** `{ minSize, maxSize, desiredSize }` */
  readonly scalingConfig?: unknown;
}

/** The inputs of an EKS cluster (`aws.eks.Cluster`) the rules read. */
export interface EksClusterInput {
  readonly name?: unknown;
  readonly version?: unknown;
}

/** The inputs of an AKS agent pool (`azure-native:containerservice:AgentPool`, or a cluster's inline pool). */
export interface AksAgentPoolInput {
  readonly osType?: unknown;
  readonly osSKU?: unknown;
  readonly orchestratorVersion?: unknown;
  readonly agentPoolName?: unknown;
  readonly mode?: unknown;
  /** `['os=windows:NoSchedule']` */
  readonly nodeTaints?: unknown;
  readonly vmSize?: unknown;
  readonly enableFIPS?: unknown;
}

/** The inputs of an AKS managed cluster (`azure-native:containerservice:ManagedCluster`) the rules read. */
export interface AksClusterInput {
  readonly windowsProfile?: unknown;
  readonly networkProfile?: unknown;
  /** Inline pools (`AksAgentPoolInput` each, with `name` for `agentPoolName`). */
  readonly agentPoolProfiles?: unknown;
  readonly kubernetesVersion?: unknown;
}

/** The inputs of a GKE node pool (`gcp.container.NodePool`, or a cluster's inline pool) the rules read. */
export interface GkeNodePoolInput {
  /** `{ imageType, machineType, taints, windowsNodeConfig: { osversion } }` */
  readonly nodeConfig?: unknown;
  readonly version?: unknown;
}

/** The inputs of a GKE cluster (`gcp.container.Cluster`) the rules read. */
export interface GkeClusterInput {
  readonly enableAutopilot?: unknown;
  readonly networkingMode?: unknown;
  /** Inline pools (`GkeNodePoolInput` each). */
  readonly nodePools?: unknown;
  readonly removeDefaultNodePool?: unknown;
  /** The default pool's node config. */
  readonly nodeConfig?: unknown;
}

/**
 * A k8s-windows EKS node pool component (`WindowsNodePool`, `SelfManagedWindowsNodePool`, `KarpenterWindowsNodePool`)
 * as it resolved its args: the release it runs and the taints its nodes carry (Kubernetes spelling).
 */
export interface EksPoolComponentInput {
  readonly release: WindowsRelease;
  readonly taints: readonly Taint[];
}

/**
 * The Kubernetes version a component runs, and which of its args gave it: a release gate reports there, and a
 * retirement on `releasePath` when given (the component's `release` arg).
 */
export interface ComponentVersion {
  readonly value: unknown;
  readonly path: string;
  readonly releasePath?: string;
}

/** A resource of a stack, as a stack policy sees it (props copied, unknowns as placeholder objects). */
export interface EksStackResource {
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
}

/** The inputs of each kind of cloud resource the rules check. */
export interface CloudInputs {
  readonly 'eks-node-group': EksNodeGroupInput;
  /** A node group with the cluster it joins (the stack declares both): what it inherits from the cluster. */
  readonly 'eks-node-group-in-cluster': { readonly nodeGroup: EksNodeGroupInput; readonly cluster: EksClusterInput };
  /** Every resource of a stack: what the cluster-level EKS rules look for across it (a role policy, an add-on). */
  readonly 'eks-stack': { readonly resources: readonly EksStackResource[] };
  readonly 'eks-pool-component': EksPoolComponentInput;
  /**
   * The AKS `WindowsNodePool` component's resolved args: its release (when valid), VM size, agent pool name (its
   * own name by default), mode, `agentPoolArgs.enableFIPS`, its taints (when valid), and the Kubernetes version it
   * runs with the arg that gave it (`kubernetesVersion`, else `clusterArgs.kubernetesVersion`).
   */
  readonly 'aks-pool-component': {
    readonly release?: WindowsRelease;
    readonly taints?: readonly Taint[];
    readonly vmSize?: unknown;
    readonly agentPoolName?: unknown;
    readonly mode?: unknown;
    readonly enableFIPS?: unknown;
    readonly kubernetesVersion?: ComponentVersion;
  };
  /**
   * The GKE `WindowsNodePool` component's resolved args: its release (when valid), machine type, taints (when
   * valid), and its `kubernetesVersion`.
   */
  readonly 'gke-pool-component': {
    readonly release?: WindowsRelease;
    readonly machineType?: unknown;
    readonly taints?: readonly Taint[];
    readonly kubernetesVersion?: unknown;
  };
  /** What a GKE pool component's args state about its cluster (`cluster`): unknown facts are absent. */
  readonly 'gke-cluster-info-component': {
    readonly autopilot?: unknown;
    readonly vpcNative?: unknown;
    readonly hasLinuxNodePool?: unknown;
  };
  /** An EKS pool component's release and the Kubernetes version it runs (at construction, or once known). */
  readonly 'eks-version-component': { readonly release: WindowsRelease; readonly kubernetesVersion: ComponentVersion };
  /**
   * `windowsClusterProfile`'s args: the Windows admin account, and the gMSA DNS settings when gMSA is on
   * (`gmsa`).
   */
  readonly 'aks-profile-component': {
    readonly adminUsername?: unknown;
    readonly adminPassword?: unknown;
    readonly gmsa?: { readonly dnsServer?: unknown; readonly rootDomainName?: unknown };
  };
  /** One instance type of an EKS pool component, as its args give it. */
  readonly 'eks-instance-type-component': { readonly instanceType: string };
  /**
   * An EKS pool component's instance types and minimum size, when it tags its Auto Scaling group for Cluster
   * Autoscaler: what the scale-from-zero template can promise.
   */
  readonly 'eks-autoscaling-component': { readonly instanceTypes: readonly string[]; readonly minSize: number };
  /** `SelfManagedWindowsNodePool`'s system-reserved memory, as written and in bytes. */
  readonly 'eks-self-managed-component': { readonly systemReservedMemory: string; readonly bytes: number };
  /** An AKS Windows admin password as a program gives it (never a policy's input: a policy sees secrets unwrapped). */
  readonly 'aks-admin-password': { readonly adminPassword: unknown };
  /** `WindowsClusterPrerequisites`' args: the Linux node group it was given (a resource, `'existing'`), if any. */
  readonly 'eks-prerequisites-component': { readonly linuxNodeGroup?: unknown };
  readonly 'aks-agent-pool': AksAgentPoolInput;
  readonly 'aks-cluster': AksClusterInput;
  readonly 'gke-node-pool': GkeNodePoolInput;
  readonly 'gke-cluster': GkeClusterInput;
}

export type CloudResourceKind = keyof CloudInputs;

/** Every kind, in the order the runner and the docs list them. */
export const CLOUD_RESOURCE_KINDS: readonly CloudResourceKind[] = [
  'eks-node-group',
  'eks-node-group-in-cluster',
  'eks-stack',
  'eks-pool-component',
  'eks-prerequisites-component',
  'aks-pool-component',
  'gke-pool-component',
  'gke-cluster-info-component',
  'eks-version-component',
  'aks-profile-component',
  'eks-instance-type-component',
  'eks-autoscaling-component',
  'eks-self-managed-component',
  'aks-admin-password',
  'aks-agent-pool',
  'aks-cluster',
  'gke-node-pool',
  'gke-cluster',
];

/** One cloud resource: its kind and its inputs. */
export type CloudResource = {
  readonly [K in CloudResourceKind]: { readonly kind: K; readonly props: CloudInputs[K] };
}[CloudResourceKind];

/** What a cloud rule sees besides the resource. */
export interface CloudRuleContext {
  /**
   * The day release support and retirements are judged at (`YYYY-MM-DD`).
   * @default - today
   */
  readonly date?: string;
}
