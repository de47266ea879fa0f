/**
 * AKS with Windows nodes: a cluster created with a `windowsProfile` and Azure CNI (a profile cannot be added
 * later), a Linux System pool, a Windows Server 2022 User pool, and IIS scheduled from the pool's `nodeTarget`.
 *
 * Config: `k8s-windows:windowsAdminPassword` (secret: `pulumi config set --secret k8s-windows:windowsAdminPassword`),
 * `k8s-windows:location` (default `westeurope`), `k8s-windows:kubernetesVersion` (optional).
 */
import * as pulumi from '@pulumi/pulumi';
import * as containerservice from '@pulumi/azure-native/containerservice';
import * as resources from '@pulumi/azure-native/resources';
import { Provider } from '@pulumi/kubernetes/provider';
import { WindowsNodePool, windowsClusterProfile } from 'k8s-windows/pulumi/aks';
import { iisWorkload } from '../iis';

const config = new pulumi.Config('k8s-windows');
const location = config.get('location') ?? 'westeurope';
const kubernetesVersion = config.get('kubernetesVersion') ?? '1.32';

const group = new resources.ResourceGroup('windows-demo', { location });

// The Windows profile and Azure CNI must be there when the cluster is created (Azure/AKS#1005).
const windows = windowsClusterProfile({
  adminUsername: 'winadmin',
  adminPassword: config.requireSecret('windowsAdminPassword'),
});
const clusterArgs: containerservice.ManagedClusterArgs = {
  resourceGroupName: group.name,
  location,
  dnsPrefix: 'windows-demo',
  kubernetesVersion,
  identity: { type: 'SystemAssigned' },
  windowsProfile: windows.windowsProfile,
  networkProfile: { ...windows.networkProfile, networkPluginMode: 'overlay' },
  // System pods (CoreDNS, metrics-server, konnectivity) run on Linux: Windows pools cannot be System pools.
  agentPoolProfiles: [
    {
      name: 'system',
      mode: 'System',
      osType: 'Linux',
      vmSize: 'Standard_D4s_v5',
      count: 2,
      type: 'VirtualMachineScaleSets',
    },
  ],
};
const cluster = new containerservice.ManagedCluster('windows-demo', clusterArgs);

const windowsPool = new WindowsNodePool('win22', {
  resourceGroupName: group.name,
  resourceName: cluster.name,
  agentPoolName: 'win22',
  release: '2022',
  kubernetesVersion,
  scaling: { minSize: 1, desiredSize: 2, maxSize: 4 },
  clusterArgs,
});

const kubeconfig = containerservice
  .listManagedClusterUserCredentialsOutput({ resourceGroupName: group.name, resourceName: cluster.name })
  .apply((creds) => Buffer.from(creds.kubeconfigs[0].value, 'base64').toString('utf8'));
const provider = new Provider('aks', { kubeconfig: pulumi.secret(kubeconfig) });

const iis = iisWorkload(windowsPool.nodeTarget, provider, [windowsPool]);

export const clusterName = cluster.name;
export const windowsOsSku = windowsPool.agentPool.osSKU;
export const iisAddress = iis.service.status.loadBalancer.ingress[0].ip;
