/**
 * EKS with Windows nodes: the cluster and its role, a Linux node group (CoreDNS and the controllers need one),
 * the Windows prerequisites (VPC resource controller policy, the VPC CNI add-on with Windows IPAM), a managed Windows Server 2022
 * node group, IIS scheduled from the pool's `nodeTarget`, and the admission policies with the pool as cluster facts.
 *
 * Config: `k8s-windows:subnetIds` (two or more subnets in different AZs, e.g.
 * `pulumi config set --path 'k8s-windows:subnetIds[0]' subnet-0abc...`), `k8s-windows:kubernetesVersion` (optional).
 */
import * as pulumi from '@pulumi/pulumi';
import * as eks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import { Provider } from '@pulumi/kubernetes/provider';
import { WindowsAdmissionPolicies } from 'k8s-windows/pulumi';
import { WindowsClusterPrerequisites, WindowsNodePool } from 'k8s-windows/pulumi/eks';
import { iisWorkload } from '../iis';

const config = new pulumi.Config('k8s-windows');
const subnetIds = config.requireObject<string[]>('subnetIds');
const kubernetesVersion = config.get('kubernetesVersion') ?? '1.32';

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
  'windows-demo',
  {
    roleArn: clusterRole.arn,
    version: kubernetesVersion,
    vpcConfig: { subnetIds },
    accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' },
  },
  { dependsOn: [clusterPolicy] },
);

// --- Linux node group: CoreDNS, the VPC CNI controllers and kube-proxy's Linux side run here ---
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
const kubeconfig = pulumi
  .all([cluster.name, cluster.endpoint, cluster.certificateAuthority])
  .apply(([name, endpoint, ca]) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name, cluster: { server: endpoint, 'certificate-authority-data': ca?.data } }],
      contexts: [{ name, context: { cluster: name, user: name } }],
      'current-context': name,
      users: [
        {
          name,
          user: {
            exec: {
              apiVersion: 'client.authentication.k8s.io/v1beta1',
              command: 'aws',
              args: ['eks', 'get-token', '--cluster-name', name],
            },
          },
        },
      ],
    }),
  );
const provider = new Provider('eks', { kubeconfig, enableServerSideApply: true });

// --- Windows ---
const prerequisites = new WindowsClusterPrerequisites(
  'windows',
  {
    clusterName: cluster.name,
    clusterRoleName: clusterRole.name,
    linuxNodeGroup: linuxNodes,
    kubernetesProvider: provider,
    // The VPC CNI as the managed add-on, Windows IPAM in its configuration values (add-on updates keep it).
    vpcCniAddon: {},
  },
  { providers: [provider] },
);
const windowsPool = new WindowsNodePool(
  'windows',
  {
    clusterName: cluster.name,
    subnetIds,
    release: '2022',
    kubernetesVersion, // checked against the release (Windows Server 2025 needs 1.35 on EKS)
    scaling: { minSize: 1, desiredSize: 2, maxSize: 4 },
  },
  { dependsOn: [prerequisites] },
);

// --- Workload: tolerates exactly the pool's taints, selects its build ---
const iis = iisWorkload(windowsPool.nodeTarget, provider, [windowsPool]);

// --- Admission policies: the API server runs the rules on whatever else reaches the cluster; the pool's build and
// taints are the cluster facts. `warn` while rolling out: errors are shown and audited, nothing is refused yet. ---
new WindowsAdmissionPolicies('windows-policies', { pools: [windowsPool], mode: 'warn' }, { provider });

export const clusterName = cluster.name;
export const windowsAmiType = windowsPool.amiType;
export const iisHostname = iis.service.status.loadBalancer.ingress[0].hostname;
