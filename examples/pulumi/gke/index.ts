/**
 * GKE with Windows nodes: a Standard, VPC-native cluster, a Linux node pool (GKE requires one beside Windows
 * pools), a Windows Server LTSC 2022 node pool, and IIS scheduled from the pool's `nodeTarget`.
 *
 * Config: `k8s-windows:location` (default `europe-west1`), `k8s-windows:kubernetesVersion` (optional);
 * the project comes from `gcp:project`.
 */
import * as pulumi from '@pulumi/pulumi';
import * as container from '@pulumi/gcp/container';
import { Provider } from '@pulumi/kubernetes/provider';
import { WindowsNodePool } from 'k8s-windows/pulumi/gke';
import { iisWorkload } from '../iis';

const config = new pulumi.Config('k8s-windows');
const location = config.get('location') ?? 'europe-west1';
const kubernetesVersion = config.get('kubernetesVersion') ?? '1.32';

// Windows pools need a Standard (not Autopilot), VPC-native cluster.
const clusterArgs: container.ClusterArgs = {
  location,
  minMasterVersion: kubernetesVersion,
  networkingMode: 'VPC_NATIVE',
  ipAllocationPolicy: {},
  removeDefaultNodePool: true,
  initialNodeCount: 1,
  deletionProtection: false,
};
const cluster = new container.Cluster('windows-demo', clusterArgs);

// System pods run on Linux: "WINDOWS_... image families require at least one other Linux node pool".
const linuxPool = new container.NodePool('linux', {
  cluster: cluster.name,
  location,
  nodeCount: 1,
  nodeConfig: { machineType: 'e2-standard-4', imageType: 'COS_CONTAINERD' },
});

const windowsPool = new WindowsNodePool(
  'windows',
  {
    cluster: { name: cluster.name, location, vpcNative: true, hasLinuxNodePool: true, autopilot: false },
    clusterArgs,
    release: '2022',
    kubernetesVersion,
    scaling: { minSize: 1, desiredSize: 2, maxSize: 4 },
  },
  { dependsOn: [linuxPool] },
);

// Authenticates with gke-gcloud-auth-plugin.
const kubeconfig = pulumi.all([cluster.name, cluster.endpoint, cluster.masterAuth]).apply(([name, endpoint, auth]) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name, cluster: { server: `https://${endpoint}`, 'certificate-authority-data': auth.clusterCaCertificate } },
    ],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
    users: [
      {
        name,
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1beta1',
            command: 'gke-gcloud-auth-plugin',
            provideClusterInfo: true,
          },
        },
      },
    ],
  }),
);
const provider = new Provider('gke', { kubeconfig });

const iis = iisWorkload(windowsPool.nodeTarget, provider, [windowsPool]);

export const clusterName = cluster.name;
export const windowsImageType = windowsPool.nodePool.nodeConfig.imageType;
export const iisAddress = iis.service.status.loadBalancer.ingress[0].ip;
