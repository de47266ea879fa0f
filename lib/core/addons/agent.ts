/**
 * The shape every HostProcess node agent shares, written once so both front doors build its DaemonSet from the same
 * description: containers in the API's own form (the Pulumi components pass them through; the cdk8s constructs
 * translate them to cdk8s-plus), with resources as numbers so neither front door parses quantities.
 */
import type { HOST_PROCESS_USERS } from '../windows-options';
import type { Taint } from '../target';

/** A container's resources: CPU in millicores, memory in MiB; a field left out is not set. */
export interface AgentResources {
  readonly cpuRequestMillis?: number;
  readonly cpuLimitMillis?: number;
  readonly memoryRequestMebibytes?: number;
  readonly memoryLimitMebibytes?: number;
}

/** An environment variable: a value, or a field of the pod (`spec.nodeName`). */
export type AgentEnv =
  { readonly name: string; readonly value: string } | { readonly name: string; readonly fieldPath: 'spec.nodeName' };

/** A mount of one of the agent's ConfigMap volumes. */
export interface AgentVolumeMount {
  readonly volume: string;
  readonly mountPath: string;
  readonly subPath?: string;
}

/** One container of a node agent. */
export interface AgentContainer {
  readonly name: string;
  readonly image: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: readonly AgentEnv[];
  readonly resources: AgentResources;
  readonly volumeMounts?: readonly AgentVolumeMount[];
}

/** A HostProcess node agent: what its DaemonSet holds besides the namespace and the placement every agent has. */
export interface HostProcessAgent {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly account: (typeof HOST_PROCESS_USERS)[number];
  readonly taints: readonly Taint[];
  readonly initContainers: readonly AgentContainer[];
  readonly containers: readonly AgentContainer[];
  /** ConfigMap volumes: volume name to ConfigMap name. */
  readonly configMapVolumes: Readonly<Record<string, string>>;
  /** @default - none */
  readonly priorityClassName?: string;
  /** @default - the namespace's `default` account */
  readonly serviceAccountName?: string;
}

/** Resources in the API's form. */
export function apiResources(r: AgentResources): {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
} {
  const pick = (cpu: number | undefined, memory: number | undefined) => {
    const out: Record<string, string> = {};
    if (cpu !== undefined) out.cpu = `${cpu}m`;
    if (memory !== undefined) out.memory = `${memory}Mi`;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const requests = pick(r.cpuRequestMillis, r.memoryRequestMebibytes);
  const limits = pick(r.cpuLimitMillis, r.memoryLimitMebibytes);
  return { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) };
}

/** A container in the API's form. */
export function apiContainer(c: AgentContainer): Record<string, unknown> {
  return {
    name: c.name,
    image: c.image,
    imagePullPolicy: 'IfNotPresent',
    ...(c.command ? { command: [...c.command] } : {}),
    ...(c.args ? { args: [...c.args] } : {}),
    ...(c.env
      ? {
          env: c.env.map((e) =>
            'value' in e
              ? { name: e.name, value: e.value }
              : { name: e.name, valueFrom: { fieldRef: { fieldPath: e.fieldPath } } },
          ),
        }
      : {}),
    ...(Object.keys(apiResources(c.resources)).length > 0 ? { resources: apiResources(c.resources) } : {}),
    ...(c.volumeMounts
      ? {
          volumeMounts: c.volumeMounts.map((m) => ({
            name: m.volume,
            mountPath: m.mountPath,
            ...(m.subPath !== undefined ? { subPath: m.subPath } : {}),
          })),
        }
      : {}),
  };
}
