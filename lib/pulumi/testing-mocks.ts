/**
 * Provider mocks that answer as the real providers do for the resources k8s-windows components and their usual
 * neighbours register (EKS, IAM, EC2, Auto Scaling, AKS, GKE, Kubernetes): auto-names with a suffix like Pulumi's,
 * ARNs, ids, and the outputs a provider computes (a cluster's endpoint and security group, a node group's Auto
 * Scaling group). `runProgram` uses them by default, so a program that reads `cluster.name` or
 * `nodeGroup.resources` runs under mocks as it runs against the cloud.
 *
 * Everything is derived from the resource's URN: the same program gets the same names in every run (snapshots stay
 * stable), and two resources never share one.
 */
import { createHash } from 'node:crypto';

/** What the mocked providers take as the account, region and project a program deploys to. */
export interface ProviderMockContext {
  /** Pulumi project name (in URNs). */
  readonly project: string;
  /** Pulumi stack name (in URNs). */
  readonly stack: string;
  /**
   * AWS account id in ARNs and `aws.getCallerIdentity`.
   * @default '123456789012'
   */
  readonly awsAccountId?: string;
  /**
   * AWS region in ARNs and endpoints.
   * @default - the `aws:region` config, else 'us-west-2'
   */
  readonly awsRegion?: string;
  /**
   * Azure subscription id in resource ids.
   * @default '00000000-0000-0000-0000-000000000000'
   */
  readonly azureSubscriptionId?: string;
  /**
   * Google Cloud project in resource ids.
   * @default - the `gcp:project` config, else 'mock-project'
   */
  readonly gcpProject?: string;
  /**
   * Stack config, as `pulumi config set` stores it (the defaults above read `aws:region` and `gcp:project`).
   * @default {}
   */
  readonly config?: Readonly<Record<string, string>>;
}

/** A provider's answer to a registration: the resource id and its state (inputs with the computed outputs). */
export interface MockedRegistration {
  readonly id: string;
  readonly state: Record<string, unknown>;
}

const DEFAULT_ACCOUNT = '123456789012';
const DEFAULT_SUBSCRIPTION = '00000000-0000-0000-0000-000000000000';
const FAKE_CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBmockedk8swindows\n-----END CERTIFICATE-----\n').toString(
  'base64',
);

interface Resolved {
  readonly account: string;
  readonly region: string;
  readonly subscription: string;
  readonly gcpProject: string;
}

function resolve(ctx: ProviderMockContext): Resolved {
  return {
    account: ctx.awsAccountId ?? DEFAULT_ACCOUNT,
    region: ctx.awsRegion ?? ctx.config?.['aws:region'] ?? 'us-west-2',
    subscription: ctx.azureSubscriptionId ?? DEFAULT_SUBSCRIPTION,
    gcpProject: ctx.gcpProject ?? ctx.config?.['gcp:project'] ?? 'mock-project',
  };
}

/** `n` hex digits that look random but are fixed by `seed` (the URN, plus what they are for). */
function hex(seed: string, n: number): string {
  let out = '';
  for (let i = 0; out.length < n; i++) out += createHash('sha256').update(`${seed}#${i}`).digest('hex');
  return out.slice(0, n);
}

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The property a type's provider fills with an auto-name when the program leaves it out, where it is not `name`.
 * The suffix: a dash and 7 hex digits, as the bridged providers (AWS, Google Cloud) add by default; 8 digits and no
 * dash for Azure Native (many Azure names allow no dashes); a dash and 8 characters on `metadata.name` for
 * Kubernetes objects. The exact alphabets of the real suffixes are not reproduced, only their shape.
 */
const AUTO_NAMED: Readonly<Record<string, string>> = {
  'aws:eks/nodeGroup:NodeGroup': 'nodeGroupName',
  'aws:eks/fargateProfile:FargateProfile': 'fargateProfileName',
  'azure-native:resources:ResourceGroup': 'resourceGroupName',
  'azure-native:containerservice:ManagedCluster': 'resourceName',
  'azure-native:containerservice:AgentPool': 'agentPoolName',
};

/** Types whose resource has no name of its own (an attachment, a tag, an access entry). */
const UNNAMED = new Set([
  'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
  'aws:autoscaling/tag:Tag',
  'aws:eks/accessEntry:AccessEntry',
  'aws:eks/accessPolicyAssociation:AccessPolicyAssociation',
  'aws:eks/addon:Addon',
  'aws:ec2/securityGroupRule:SecurityGroupRule',
]);

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The physical name: what the program gave, else an auto-name as the provider would make it. */
function physicalName(type: string, name: string, urn: string, inputs: Record<string, unknown>): string {
  const key = AUTO_NAMED[type] ?? 'name';
  const given = str(inputs[key]) ?? (key === 'name' ? undefined : str(inputs.name));
  if (given !== undefined) return given;
  const prefix = str(inputs.namePrefix);
  if (prefix !== undefined) return `${prefix}${hex(urn, 26)}`;
  if (type.startsWith('azure-native:')) return `${name}${hex(urn, 8)}`;
  return `${name}-${hex(urn, 7)}`;
}

/**
 * What the provider computes for one resource: merged over its inputs, this is its state. The URN seeds every
 * generated value.
 */
export function providerOutputs(
  type: string,
  name: string,
  urn: string,
  inputs: Record<string, unknown>,
  context: ProviderMockContext,
): MockedRegistration {
  const ctx = resolve(context);
  if (type.startsWith('pulumi:')) return { id: `${name}-id`, state: {} };
  if (type.startsWith('aws:')) return awsOutputs(type, name, urn, inputs, ctx);
  if (type.startsWith('azure-native:')) return azureOutputs(type, name, urn, inputs, ctx);
  if (type.startsWith('gcp:')) return gcpOutputs(type, name, urn, inputs, ctx);
  if (type.startsWith('kubernetes:')) return kubernetesOutputs(type, name, urn, inputs);
  return { id: `${name}-${hex(urn, 7)}`, state: {} };
}

function awsOutputs(
  type: string,
  name: string,
  urn: string,
  inputs: Record<string, unknown>,
  { account, region }: Resolved,
): MockedRegistration {
  const arn = (service: string, resource: string, global = false): string =>
    `arn:aws:${service}:${global ? '' : region}:${account}:${resource}`;
  if (UNNAMED.has(type)) {
    switch (type) {
      case 'aws:eks/accessEntry:AccessEntry': {
        const cluster = str(inputs.clusterName) ?? 'cluster';
        const principal = str(inputs.principalArn) ?? '';
        const roleName = principal.split('/').pop() ?? name;
        return {
          id: `${cluster}:${principal}`,
          state: {
            accessEntryArn: arn('eks', `access-entry/${cluster}/role/${account}/${roleName}/${uuid(urn)}`),
            type: str(inputs.type) ?? 'STANDARD',
            kubernetesGroups: inputs.kubernetesGroups ?? [],
          },
        };
      }
      case 'aws:eks/addon:Addon': {
        const cluster = str(inputs.clusterName) ?? 'cluster';
        const addon = str(inputs.addonName) ?? name;
        return { id: `${cluster}:${addon}`, state: { arn: arn('eks', `addon/${cluster}/${addon}/${uuid(urn)}`) } };
      }
      case 'aws:autoscaling/tag:Tag':
        return { id: `${str(inputs.autoscalingGroupName) ?? ''},${str(rec(inputs.tag).key) ?? ''}`, state: {} };
      default:
        return { id: `${name}-${hex(urn, 20)}`, state: {} };
    }
  }
  const physical = physicalName(type, name, urn, inputs);
  switch (type) {
    case 'aws:iam/role:Role':
      return {
        id: physical,
        state: {
          name: physical,
          arn: arn('iam', `role${str(inputs.path) ?? '/'}${physical}`, true),
          uniqueId: `AROA${hex(urn, 17).toUpperCase()}`,
        },
      };
    case 'aws:iam/instanceProfile:InstanceProfile':
      return {
        id: physical,
        state: {
          name: physical,
          arn: arn('iam', `instance-profile${str(inputs.path) ?? '/'}${physical}`, true),
          uniqueId: `AIPA${hex(urn, 17).toUpperCase()}`,
        },
      };
    case 'aws:iam/policy:Policy': {
      const policyArn = arn('iam', `policy${str(inputs.path) ?? '/'}${physical}`, true);
      return {
        id: policyArn,
        state: { name: physical, arn: policyArn, policyId: `ANPA${hex(urn, 17).toUpperCase()}` },
      };
    }
    case 'aws:eks/cluster:Cluster': {
      const vpcConfig = rec(inputs.vpcConfig);
      return {
        id: physical,
        state: {
          name: physical,
          arn: arn('eks', `cluster/${physical}`),
          endpoint: `https://${hex(urn, 32).toUpperCase()}.gr7.${region}.eks.amazonaws.com`,
          certificateAuthority: { data: FAKE_CA },
          identities: [
            {
              oidcs: [{ issuer: `https://oidc.eks.${region}.amazonaws.com/id/${hex(`${urn}oidc`, 32).toUpperCase()}` }],
            },
          ],
          status: 'ACTIVE',
          vpcConfig: {
            ...vpcConfig,
            clusterSecurityGroupId: `sg-${hex(`${urn}sg`, 17)}`,
            vpcId: `vpc-${hex(`${urn}vpc`, 17)}`,
          },
        },
      };
    }
    case 'aws:eks/nodeGroup:NodeGroup': {
      const cluster = str(inputs.clusterName) ?? 'cluster';
      const id = uuid(urn);
      return {
        id: `${cluster}:${physical}`,
        state: {
          nodeGroupName: physical,
          arn: arn('eks', `nodegroup/${cluster}/${physical}/${id}`),
          status: 'ACTIVE',
          // EKS names a managed node group's Auto Scaling group eks-<node group>-<uuid>.
          resources: [{ autoscalingGroups: [{ name: `eks-${physical}-${id}` }], remoteAccessSecurityGroupId: '' }],
        },
      };
    }
    case 'aws:ec2/launchTemplate:LaunchTemplate': {
      const id = `lt-${hex(urn, 17)}`;
      return {
        id,
        state: { name: physical, arn: arn('ec2', `launch-template/${id}`), latestVersion: 1, defaultVersion: 1 },
      };
    }
    case 'aws:ec2/securityGroup:SecurityGroup': {
      const id = `sg-${hex(urn, 17)}`;
      return { id, state: { name: physical, arn: arn('ec2', `security-group/${id}`), ownerId: account } };
    }
    case 'aws:autoscaling/group:Group':
      return {
        id: physical,
        state: {
          name: physical,
          arn: arn('autoscaling', `autoScalingGroup:${uuid(urn)}:autoScalingGroupName/${physical}`),
        },
      };
    default: {
      const [, module = 'aws', kind = 'Resource'] = type.split(/[:/]/);
      return {
        id: physical,
        state: { name: physical, arn: arn(module, `${kind.toLowerCase()}/${physical}`) },
      };
    }
  }
}

/** The ARM provider path of the Azure Native types the AKS components and examples register. */
const ARM_PATHS: Readonly<Record<string, string>> = {
  'azure-native:containerservice:ManagedCluster': 'Microsoft.ContainerService/managedClusters',
  'azure-native:network:VirtualNetwork': 'Microsoft.Network/virtualNetworks',
  'azure-native:network:Subnet': 'Microsoft.Network/virtualNetworks/subnets',
};

function azureOutputs(
  type: string,
  name: string,
  urn: string,
  inputs: Record<string, unknown>,
  { subscription }: Resolved,
): MockedRegistration {
  const physical = physicalName(type, name, urn, inputs);
  const group = str(inputs.resourceGroupName) ?? 'mock-rg';
  const location = str(inputs.location) ?? 'westeurope';
  switch (type) {
    case 'azure-native:resources:ResourceGroup': {
      const id = `/subscriptions/${subscription}/resourceGroups/${physical}`;
      return { id, state: { name: physical, resourceGroupName: physical, location } };
    }
    case 'azure-native:containerservice:AgentPool': {
      const cluster = str(inputs.resourceName) ?? 'cluster';
      const id = `/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ContainerService/managedClusters/${cluster}/agentPools/${physical}`;
      return { id, state: { name: physical, agentPoolName: physical, provisioningState: 'Succeeded' } };
    }
    case 'azure-native:containerservice:ManagedCluster': {
      const id = `/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ContainerService/managedClusters/${physical}`;
      const prefix = str(inputs.dnsPrefix) ?? physical;
      return {
        id,
        state: {
          name: physical,
          resourceName: physical,
          fqdn: `${prefix}-${hex(urn, 8)}.hcp.${location}.azmk8s.io`,
          nodeResourceGroup: str(inputs.nodeResourceGroup) ?? `MC_${group}_${physical}_${location}`,
          provisioningState: 'Succeeded',
          ...(str(inputs.kubernetesVersion) !== undefined
            ? { currentKubernetesVersion: inputs.kubernetesVersion }
            : {}),
        },
      };
    }
    default: {
      const path = ARM_PATHS[type] ?? type.replace(/^azure-native:/, '').replace(':', '/');
      const id = `/subscriptions/${subscription}/resourceGroups/${group}/providers/${path}/${physical}`;
      return { id, state: { name: physical } };
    }
  }
}

function gcpOutputs(
  type: string,
  name: string,
  urn: string,
  inputs: Record<string, unknown>,
  { gcpProject }: Resolved,
): MockedRegistration {
  const physical = physicalName(type, name, urn, inputs);
  const project = str(inputs.project) ?? gcpProject;
  const location = str(inputs.location) ?? 'us-central1';
  switch (type) {
    case 'gcp:container/cluster:Cluster': {
      const id = `projects/${project}/locations/${location}/clusters/${physical}`;
      return {
        id,
        state: {
          name: physical,
          project,
          location,
          endpoint: `34.${parseInt(hex(urn, 2), 16)}.${parseInt(hex(`${urn}b`, 2), 16)}.10`,
          masterAuth: { ...rec(inputs.masterAuth), clusterCaCertificate: FAKE_CA },
          selfLink: `https://container.googleapis.com/v1/${id}`,
        },
      };
    }
    case 'gcp:container/nodePool:NodePool': {
      const cluster = str(inputs.cluster) ?? 'cluster';
      const zone = /-[a-z]$/.test(location) ? location : `${location}-a`;
      return {
        id: `${project}/${location}/${cluster}/${physical}`,
        state: {
          name: physical,
          project,
          location,
          instanceGroupUrls: [
            `https://www.googleapis.com/compute/v1/projects/${project}/zones/${zone}/instanceGroupManagers/gke-${cluster}-${physical}-${hex(urn, 8)}-grp`,
          ],
        },
      };
    }
    default:
      return { id: `projects/${project}/${physical}`, state: { name: physical, project } };
  }
}

function kubernetesOutputs(
  type: string,
  name: string,
  urn: string,
  inputs: Record<string, unknown>,
): MockedRegistration {
  if (type.startsWith('kubernetes:') && /Patch$|^kubernetes:(helm|yaml|kustomize)/.test(type)) {
    return { id: name, state: {} };
  }
  const metadata = rec(inputs.metadata);
  // The Kubernetes provider auto-names an object without metadata.name: the logical name and 8 random characters.
  const objectName = str(metadata.name) ?? `${name}-${hex(urn, 8)}`;
  const namespace = str(metadata.namespace);
  const state: Record<string, unknown> = {
    metadata: { ...metadata, name: objectName, uid: uuid(urn) },
  };
  if (type === 'kubernetes:core/v1:Service' && rec(inputs.spec).type === 'LoadBalancer') {
    state.status = {
      loadBalancer: { ingress: [{ ip: '198.51.100.7', hostname: `${objectName}-${hex(urn, 10)}.elb.example.com` }] },
    };
  }
  return { id: namespace !== undefined ? `${namespace}/${objectName}` : objectName, state };
}

const KUBECONFIG = [
  'apiVersion: v1',
  'kind: Config',
  'clusters: [{name: mock, cluster: {server: "https://203.0.113.20"}}]',
  'contexts: [{name: mock, context: {cluster: mock, user: mock}}]',
  'current-context: mock',
  'users: [{name: mock, user: {token: mock}}]',
].join('\n');

/**
 * The result of an invoke the components or their usual neighbours make (caller identity, partition, region, the
 * SSM parameter of an EKS-optimized AMI, AKS credentials, GKE client config); undefined for any other token.
 */
export function invokeResult(
  token: string,
  inputs: Record<string, unknown>,
  context: ProviderMockContext,
): Record<string, unknown> | undefined {
  const { account, region, gcpProject } = resolve(context);
  switch (token) {
    case 'aws:index/getCallerIdentity:getCallerIdentity':
      return { accountId: account, arn: `arn:aws:iam::${account}:user/mock`, userId: 'AIDAMOCKUSER', id: account };
    case 'aws:index/getPartition:getPartition':
      return { partition: 'aws', dnsSuffix: 'amazonaws.com', reverseDnsPrefix: 'com.amazonaws', id: 'aws' };
    case 'aws:index/getRegion:getRegion':
      return { name: region, region, endpoint: `ec2.${region}.amazonaws.com`, id: region };
    case 'aws:ssm/getParameter:getParameter': {
      const parameter = str(inputs.name) ?? '';
      return {
        name: parameter,
        type: 'String',
        value: `ami-${hex(parameter, 17)}`,
        arn: `arn:aws:ssm:${region}::parameter${parameter}`,
        id: parameter,
      };
    }
    case 'gcp:organizations/getClientConfig:getClientConfig':
      return { project: gcpProject, region: 'us-central1', zone: 'us-central1-a', accessToken: 'mock', id: gcpProject };
    default:
      if (token.startsWith('azure-native:containerservice:listManagedCluster')) {
        return { kubeconfigs: [{ name: 'clusterUser', value: Buffer.from(KUBECONFIG).toString('base64') }] };
      }
      return undefined;
  }
}
