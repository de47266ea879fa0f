/**
 * Pods, nodes and events as the components write them, for the doctor tests: the message texts are the catalogue's
 * (lib/core/cluster/messages.ts, each cited there), with realistic variable parts.
 */
export type Json = Record<string, unknown>;

export const NAMESPACE = 'shop';
export const POD = 'web-7d4b9c8f6-x2x9k';
export const POD_UID = '8f0c6d2e-3b1a-4c5d-9e7f-1a2b3c4d5e6f';

/** A Windows pod of a ReplicaSet, Pending, with its spec changed by `spec`. */
export function windowsPod(spec: Json = {}, status: Json = { phase: 'Pending' }): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: NAMESPACE,
      uid: POD_UID,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6', controller: true }],
    },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
      ...spec,
    },
    status,
  };
}

/** The same pod made a Linux one (spec.os.name and selector linux), with the same status. */
export function linuxPod(spec: Json = {}, status: Json = { phase: 'Pending' }): Json {
  const pod = windowsPod({ os: { name: 'linux' }, nodeSelector: { 'kubernetes.io/os': 'linux' }, ...spec }, status);
  return pod;
}

/** A core/v1 Event about the pod. */
export function podEvent(
  reason: string,
  message: string,
  options: { component?: string; fieldPath?: string; last?: string; type?: string } = {},
): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${POD}.17f3a9c2b4d5e6f7`, namespace: NAMESPACE },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: NAMESPACE,
      name: POD,
      uid: POD_UID,
      ...(options.fieldPath !== undefined ? { fieldPath: options.fieldPath } : {}),
    },
    reason,
    message,
    source: {
      component: options.component ?? 'kubelet',
      ...(options.component === undefined ? { host: 'akswin000001' } : {}),
    },
    type: options.type ?? 'Warning',
    firstTimestamp: '2026-12-07T09:58:00Z',
    lastTimestamp: options.last ?? '2026-12-07T10:02:00Z',
    count: 5,
  };
}

/** An event about a workload controller (FailedCreate by its controller). */
export function ownerEvent(kind: string, name: string, message: string, component: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.17f3a9c2b4d5e6f8`, namespace: NAMESPACE },
    involvedObject: { apiVersion: 'apps/v1', kind, namespace: NAMESPACE, name },
    reason: 'FailedCreate',
    message,
    source: { component },
    type: 'Warning',
    firstTimestamp: '2026-12-07T09:50:00Z',
    lastTimestamp: '2026-12-07T10:05:00Z',
    count: 17,
  };
}

export function node(name: string, os: 'windows' | 'linux', options: { build?: string; taints?: Json[] } = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': os,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        ...(options.build !== undefined ? { 'node.kubernetes.io/windows-build': options.build } : {}),
      },
    },
    spec: { ...(options.taints ? { taints: options.taints } : {}) },
  };
}

/** Two Linux nodes and three Windows Server 2022 nodes tainted os=windows:NoSchedule. */
export const MIXED_NODES: readonly Json[] = [
  node('aks-system-12345678-vmss000000', 'linux'),
  node('aks-system-12345678-vmss000001', 'linux'),
  node('akswin000000', 'windows', {
    build: '10.0.20348',
    taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  }),
  node('akswin000001', 'windows', {
    build: '10.0.20348',
    taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  }),
  node('akswin000002', 'windows', {
    build: '10.0.20348',
    taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  }),
];

/** The scheduler's condition on a pod it could not place. */
export function unschedulable(message: string, at = '2026-12-07T09:58:00Z'): Json {
  return {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message,
        lastProbeTime: null,
        lastTransitionTime: at,
      },
    ],
  };
}

/** The status of a pod whose one container failed to start (containerd's StartError) and is backing off. */
export function startError(name: string, image: string, message: string): Json {
  return {
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'ContainersNotReady',
        message: `containers with unready status: [${name}]`,
      },
      { type: 'PodScheduled', status: 'True' },
    ],
    containerStatuses: [
      {
        name,
        image,
        imageID: '',
        ready: false,
        restartCount: 4,
        started: false,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: `back-off 1m20s restarting failed container=${name} pod=${POD}_${NAMESPACE}(${POD_UID})`,
          },
        },
        lastState: {
          terminated: {
            exitCode: 128,
            reason: 'StartError',
            message,
            startedAt: '1970-01-01T00:00:00Z',
            finishedAt: '2026-12-07T10:01:30Z',
            containerID: 'containerd://544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d',
          },
        },
      },
    ],
  };
}

/** The status of a pod whose image pull failed. */
export function pullError(name: string, image: string, message: string): Json {
  return {
    phase: 'Pending',
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'ContainersNotReady',
        message: `containers with unready status: [${name}]`,
      },
    ],
    containerStatuses: [
      {
        name,
        image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        state: { waiting: { reason: 'ErrImagePull', message } },
      },
    ],
  };
}

export const READY_STATUS: Json = {
  phase: 'Running',
  conditions: [
    { type: 'Initialized', status: 'True' },
    { type: 'Ready', status: 'True' },
    { type: 'ContainersReady', status: 'True' },
    { type: 'PodScheduled', status: 'True' },
  ],
};
