/**
 * The Windows workload every example deploys: IIS on Windows Server Core 2022 behind a LoadBalancer Service,
 * scheduled from the node pool's `nodeTarget` so its tolerations are exactly the pool's taints.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { Provider } from '@pulumi/kubernetes/provider';
import { Service } from '@pulumi/kubernetes/core/v1';
import type { WindowsNodeTarget } from 'k8s-windows';
import { WindowsDeployment } from 'k8s-windows/pulumi';

/** IIS pinned to the Windows Server 2022 build, as the pool's nodes run it. */
export const IIS_IMAGE = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

export interface IisWorkload {
  readonly deployment: WindowsDeployment;
  readonly service: Service;
}

/** IIS (2 replicas) and a LoadBalancer Service in front of it, on the target's nodes. */
export function iisWorkload(
  target: pulumi.Input<WindowsNodeTarget>,
  provider: Provider,
  dependsOn: pulumi.Resource[] = [],
  image: pulumi.Input<string> = IIS_IMAGE,
): IisWorkload {
  const deployment = new WindowsDeployment(
    'iis',
    {
      metadata: { name: 'iis', namespace: 'default' },
      replicas: 2, // shorthand for spec: { replicas: 2 }, beside podSpec
      podSpec: {
        containers: [
          {
            name: 'iis',
            image,
            ports: [{ name: 'http', containerPort: 80 }],
            resources: { requests: { cpu: '500m' }, limits: { memory: '1Gi' } },
            livenessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10 },
          },
        ],
      },
      windows: { target },
    },
    { providers: [provider], dependsOn },
  );
  const service = new Service(
    'iis',
    {
      metadata: { name: 'iis', namespace: 'default' },
      spec: {
        type: 'LoadBalancer',
        selector: deployment.podLabels,
        ports: [{ name: 'http', port: 80, targetPort: 'http' }],
      },
    },
    { provider, dependsOn: [deployment] },
  );
  return { deployment, service };
}
