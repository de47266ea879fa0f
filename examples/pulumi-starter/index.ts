/**
 * EKS with Windows nodes, the smallest stack that runs a Windows workload: the cluster, a Linux node group (CoreDNS
 * and the VPC CNI controllers run on Linux), the Windows prerequisites, a managed Windows Server 2022 node pool and
 * IIS scheduled onto it from the pool's `nodeTarget`.
 *
 * Config: `subnetIds`, two or more subnets in different AZs
 * (`pulumi config set --path 'subnetIds[0]' subnet-0abc...`); `kubernetesVersion` (optional).
 */
import * as pulumi from '@pulumi/pulumi';
import * as eks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import { Provider } from '@pulumi/kubernetes/provider';
import { WindowsDeployment } from 'k8s-windows/pulumi';
import { WindowsClusterPrerequisites, WindowsNodePool } from 'k8s-windows/pulumi/eks';

const config = new pulumi.Config();
const subnetIds = config.requireObject<string[]>('subnetIds');
const kubernetesVersion = config.get('kubernetesVersion') ?? '1.33';

const assumedBy = (service: string): string =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }],
  });
const managed = (policy: string): string => `arn:aws:iam::aws:policy/${policy}`;

// --- Cluster ---
const clusterRole = new iam.Role('cluster', { assumeRolePolicy: assumedBy('eks.amazonaws.com') });
const clusterPolicy = new iam.RolePolicyAttachment('cluster-policy', {
  role: clusterRole.name,
  policyArn: managed('AmazonEKSClusterPolicy'),
});
const cluster = new eks.Cluster(
  'windows',
  {
    roleArn: clusterRole.arn,
    version: kubernetesVersion,
    vpcConfig: { subnetIds },
    accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' },
  },
  { dependsOn: [clusterPolicy] },
);

// --- Linux node group ---
const linuxRole = new iam.Role('linux-nodes', { assumeRolePolicy: assumedBy('ec2.amazonaws.com') });
const linuxPolicies = ['AmazonEKSWorkerNodePolicy', 'AmazonEKS_CNI_Policy', 'AmazonEC2ContainerRegistryReadOnly'].map(
  (p) => new iam.RolePolicyAttachment(`linux-nodes-${p}`, { role: linuxRole.name, policyArn: managed(p) }),
);
const linuxNodes = new eks.NodeGroup(
  'linux',
  {
    clusterName: cluster.name,
    nodeRoleArn: linuxRole.arn,
    subnetIds,
    amiType: 'AL2023_x86_64_STANDARD',
    instanceTypes: ['m5.large'],
    scalingConfig: { minSize: 2, desiredSize: 2, maxSize: 3 },
  },
  { dependsOn: linuxPolicies },
);

// --- Kubernetes provider: authenticates with `aws eks get-token` ---
const kubeconfig = pulumi.jsonStringify({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [
    {
      name: 'eks',
      cluster: { server: cluster.endpoint, 'certificate-authority-data': cluster.certificateAuthority.data },
    },
  ],
  contexts: [{ name: 'eks', context: { cluster: 'eks', user: 'eks' } }],
  'current-context': 'eks',
  users: [
    {
      name: 'eks',
      user: {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          command: 'aws',
          args: ['eks', 'get-token', '--cluster-name', cluster.name],
        },
      },
    },
  ],
});
const provider = new Provider('eks', { kubeconfig, enableServerSideApply: true });

// --- Windows: the VPC resource controller and the VPC CNI's Windows IPAM, then the node pool ---
const prerequisites = new WindowsClusterPrerequisites(
  'windows',
  {
    clusterName: cluster.name,
    clusterRoleName: clusterRole.name,
    linuxNodeGroup: linuxNodes,
    kubernetesProvider: provider,
  },
  { providers: [provider] },
);
const windowsPool = new WindowsNodePool(
  'windows',
  {
    clusterName: cluster.name,
    subnetIds,
    release: '2022',
    kubernetesVersion, // checked against the release
    scaling: { minSize: 1, desiredSize: 2, maxSize: 4 },
  },
  { dependsOn: [prerequisites] },
);

// --- Workload: tolerates exactly the pool's taints and selects its Windows build ---
const iis = new WindowsDeployment(
  'iis',
  {
    replicas: 2,
    podSpec: {
      containers: [
        {
          name: 'iis',
          image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
          ports: [{ containerPort: 80 }],
          // servercore is a multi-GB pull: give the first start time before liveness or readiness count
          startupProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10, failureThreshold: 30 },
        },
      ],
    },
    windows: { target: windowsPool.nodeTarget },
  },
  { providers: [provider], dependsOn: [windowsPool] }, // Windows pods wait for Windows nodes
);

export const clusterName = cluster.name;
export const windowsAmiType = windowsPool.amiType;
export const iisDeployment = iis.deployment.metadata.name;
