/**
 * The HostProcess DaemonSet of a Pulumi node add-on, built from the agent described once for both front doors
 * (lib/core/addons/agent.ts): containers in the API's form, account, taints, priority and ServiceAccount.
 */
import type * as pulumi from '@pulumi/pulumi';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import { apiContainer, type HostProcessAgent } from '../../core/addons/agent';
import { windowsNodeTarget } from '../../core/target';
import { WindowsDaemonSet } from './workloads';

/**
 * The agent's DaemonSet in `namespace`. `resources`, when given, replaces every container's; `configMaps` names the
 * ConfigMap behind each of the agent's ConfigMap volumes (its Output, so the DaemonSet waits for it).
 */
export function agentDaemonSet(
  name: string,
  agent: HostProcessAgent,
  namespace: pulumi.Input<string>,
  parent: pulumi.Resource,
  resources?: pulumi.Input<k8sInput.core.v1.ResourceRequirements>,
  configMaps: Readonly<Record<string, pulumi.Input<string>>> = {},
): WindowsDaemonSet {
  const container = (c: HostProcessAgent['containers'][number]) => ({
    ...(apiContainer(c) as unknown as k8sInput.core.v1.Container),
    ...(resources !== undefined ? { resources } : {}),
  });
  const volumes = Object.keys(agent.configMapVolumes).map((volume) => ({
    name: volume,
    configMap: { name: configMaps[volume] ?? agent.configMapVolumes[volume] },
  }));
  return new WindowsDaemonSet(
    name,
    {
      metadata: { name: agent.name, namespace, labels: { ...agent.labels } },
      spec: {
        template: {
          metadata: { labels: { ...agent.labels } },
          spec: {
            ...(agent.initContainers.length > 0 ? { initContainers: agent.initContainers.map(container) } : {}),
            containers: agent.containers.map(container),
            ...(volumes.length > 0 ? { volumes } : {}),
            ...(agent.priorityClassName !== undefined ? { priorityClassName: agent.priorityClassName } : {}),
            ...(agent.serviceAccountName !== undefined ? { serviceAccountName: agent.serviceAccountName } : {}),
          },
        },
      },
      windows: {
        hostProcess: true,
        runAsUserName: agent.account,
        target: windowsNodeTarget({ taints: agent.taints }),
      },
    },
    { parent },
  );
}
