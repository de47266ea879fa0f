/**
 * What the cdk8s add-ons share: where they run, how they refuse a namespace policy that would label yours, and the
 * HostProcess DaemonSet built from an agent described once for both front doors.
 */
import { ApiObject, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import type { ValidationIssue } from '../core/errors';
import type { AgentContainer, AgentResources, HostProcessAgent } from '../core/addons/agent';
import { windowsNodeTarget } from '../core/target';
import { WindowsHostProcessDaemonSet, type HostProcessNamespacePolicy } from '../cdk8s/host-process';

/** The namespace policies an add-on takes: it never labels a namespace it is given. */
const ADDON_NAMESPACE_POLICIES: readonly HostProcessNamespacePolicy[] = [
  'require-privileged',
  'privileged-outside-app',
];

/** Where an add-on runs, and its resources. */
export interface AddonPlacementProps {
  /**
   * The namespace to run in: a `kplus.Namespace` or Namespace `ApiObject` of the app, or a name. It must admit
   * `privileged` pods (`pod-security.kubernetes.io/enforce: privileged`): the add-on checks a Namespace of the app at
   * synth and never labels one it is given.
   * @default - the Chart's `namespace` when it has one (checked the same way); otherwise `windows-system`, created at
   * the `privileged` level and shared with the app's other node agents
   */
  readonly namespace?: string | kplus.Namespace | ApiObject;
  /**
   * For a namespace given by name with no Namespace object in the app: `'privileged-outside-app'` says it is labelled
   * `privileged` in the cluster; `'require-privileged'` refuses it, as its level cannot be checked.
   * @default 'require-privileged'
   */
  readonly namespacePolicy?: 'require-privileged' | 'privileged-outside-app';
  /**
   * The containers' resources.
   * @default - a node agent's: 100m CPU request, 500m limit, 600Mi memory request and limit
   */
  readonly resources?: kplus.ContainerResources;
}

/** The namespace policy to use, and the problem with it when it would label a given namespace. */
export function addonNamespacePolicy(props: AddonPlacementProps): {
  readonly policy: HostProcessNamespacePolicy;
  readonly issues: readonly ValidationIssue[];
} {
  const policy = props.namespacePolicy ?? 'require-privileged';
  if (ADDON_NAMESPACE_POLICIES.includes(policy)) return { policy, issues: [] };
  return {
    policy,
    issues: [
      {
        path: 'namespacePolicy',
        message: `namespacePolicy ${JSON.stringify(policy)} is not one an add-on takes: it never labels a namespace it is given.`,
        fix: `Use ${ADDON_NAMESPACE_POLICIES.map((p) => `'${p}'`).join(' or ')}, and label your namespace pod-security.kubernetes.io/enforce: privileged yourself; or omit namespace.`,
      },
    ],
  };
}

/** An agent container's resources for cdk8s-plus (undefined fields stay unset). */
function kplusResources(r: AgentResources): kplus.ContainerResources {
  const cpu = {
    ...(r.cpuRequestMillis !== undefined ? { request: kplus.Cpu.millis(r.cpuRequestMillis) } : {}),
    ...(r.cpuLimitMillis !== undefined ? { limit: kplus.Cpu.millis(r.cpuLimitMillis) } : {}),
  };
  const memory = {
    ...(r.memoryRequestMebibytes !== undefined ? { request: Size.mebibytes(r.memoryRequestMebibytes) } : {}),
    ...(r.memoryLimitMebibytes !== undefined ? { limit: Size.mebibytes(r.memoryLimitMebibytes) } : {}),
  };
  return {
    ...(Object.keys(cpu).length > 0 ? { cpu } : {}),
    ...(Object.keys(memory).length > 0 ? { memory } : {}),
  };
}

/** An agent container (the API's form, lib/core/addons/agent.ts) as cdk8s-plus container props. */
function kplusContainer(
  c: AgentContainer,
  volumes: Readonly<Record<string, kplus.Volume>>,
  resources: kplus.ContainerResources | undefined,
): kplus.ContainerProps {
  const env = Object.fromEntries(
    (c.env ?? []).map((e) => [
      e.name,
      'value' in e ? kplus.EnvValue.fromValue(e.value) : kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.NODE_NAME),
    ]),
  );
  const mounts = (c.volumeMounts ?? []).flatMap((m) => {
    const volume = volumes[m.volume];
    return volume ? [{ path: m.mountPath, volume, ...(m.subPath !== undefined ? { subPath: m.subPath } : {}) }] : [];
  });
  return {
    name: c.name,
    image: c.image,
    ...(c.command ? { command: [...c.command] } : {}),
    ...(c.args ? { args: [...c.args] } : {}),
    ...(c.env ? { envVariables: env } : {}),
    resources: resources ?? kplusResources(c.resources),
    ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
  };
}

/**
 * The HostProcess DaemonSet of an agent described once for both front doors (lib/core/addons/agent.ts): its
 * containers, account, taints, priority and ServiceAccount, in the namespace the props name. `volumes` holds the
 * ConfigMap volumes by name.
 */
export function agentDaemonSet(
  scope: Construct,
  agent: HostProcessAgent,
  props: AddonPlacementProps,
  policy: HostProcessNamespacePolicy,
  volumes: Readonly<Record<string, kplus.Volume>> = {},
): WindowsHostProcessDaemonSet {
  const ds = new WindowsHostProcessDaemonSet(scope, 'daemon-set', {
    metadata: { name: agent.name, labels: { ...agent.labels } },
    podMetadata: { labels: { ...agent.labels } },
    ...(props.namespace !== undefined ? { namespace: props.namespace } : {}),
    namespacePolicy: policy,
    ...(agent.serviceAccountName !== undefined
      ? {
          serviceAccount: kplus.ServiceAccount.fromServiceAccountName(
            scope,
            'service-account',
            agent.serviceAccountName,
          ),
          automountServiceAccountToken: true,
        }
      : {}),
    windows: { runAsUserName: agent.account, target: windowsNodeTarget({ taints: agent.taints }) },
  });
  addAgentContainers(ds, agent, volumes, props);
  if (agent.priorityClassName !== undefined) {
    ApiObject.of(ds).addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', agent.priorityClassName));
  }
  return ds;
}

/** Adds an agent's init containers and containers to its DaemonSet, their volumes from `volumes` by name. */
export function addAgentContainers(
  ds: WindowsHostProcessDaemonSet,
  agent: Pick<HostProcessAgent, 'initContainers' | 'containers'>,
  volumes: Readonly<Record<string, kplus.Volume>>,
  props: AddonPlacementProps,
): void {
  for (const c of agent.initContainers) ds.addInitContainer(kplusContainer(c, volumes, props.resources));
  for (const c of agent.containers) ds.addContainer(kplusContainer(c, volumes, props.resources));
}
