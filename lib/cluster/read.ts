/**
 * Reading what `doctor` judges from a live cluster, read-only by construction: only `list` calls, on Nodes, Pods,
 * Events, RuntimeClasses and the controllers that make pods (never Secrets), in pages (`limit`/`continue`), under one deadline for the whole run and
 * a cap on the objects read. Objects come back as the API server writes them (plain JSON: timestamps as strings), as
 * the rules read manifests.
 */
import type { Connection } from './connect';
import { clientNode, modelSerializer, type ClientNode } from './client-node';
import { ClusterError } from './errors';

/** What one page asks for: kubectl's own chunk size. */
export const PAGE_SIZE = 500;

/** The most objects of one kind a run reads (a cluster larger than this is read a namespace at a time). */
export const MAX_OBJECTS = 200_000;

/** The whole run's deadline by default (`--timeout`). */
export const DEFAULT_CLUSTER_TIMEOUT_MS = 60_000;

/** The kind and apiVersion of each model type read. */
const KINDS: Readonly<Record<string, readonly [string, string]>> = {
  V1Node: ['Node', 'v1'],
  V1Pod: ['Pod', 'v1'],
  CoreV1Event: ['Event', 'v1'],
  V1RuntimeClass: ['RuntimeClass', 'node.k8s.io/v1'],
  V1ReplicaSet: ['ReplicaSet', 'apps/v1'],
  V1DaemonSet: ['DaemonSet', 'apps/v1'],
  V1StatefulSet: ['StatefulSet', 'apps/v1'],
  V1Job: ['Job', 'batch/v1'],
  V1ReplicationController: ['ReplicationController', 'v1'],
  V1Deployment: ['Deployment', 'apps/v1'],
  V1CronJob: ['CronJob', 'batch/v1'],
};

/** Everything `doctor` reads, as plain API objects. */
export interface ClusterSnapshot {
  readonly nodes: readonly Record<string, unknown>[];
  readonly pods: readonly Record<string, unknown>[];
  readonly events: readonly Record<string, unknown>[];
  readonly runtimeClasses: readonly Record<string, unknown>[];
  /**
   * The controllers that make pods from a template (ReplicaSets, DaemonSets, StatefulSets, Jobs,
   * ReplicationControllers, and the Deployments and CronJobs above them): a pod the API server refuses never exists,
   * and its FailedCreate event is theirs; the ones no controller owns are the workloads the rules judge.
   */
  readonly owners: readonly Record<string, unknown>[];
}

/** The verbs and resources `doctor` uses: `--print-rbac` prints them as a ClusterRole, and 403s name them. */
export const DOCTOR_ACCESS: readonly {
  readonly group: string;
  readonly resource: string;
  readonly verbs: readonly string[];
}[] = [
  { group: '', resource: 'nodes', verbs: ['list'] },
  { group: '', resource: 'pods', verbs: ['list'] },
  { group: '', resource: 'events', verbs: ['list'] },
  { group: 'node.k8s.io', resource: 'runtimeclasses', verbs: ['list'] },
  { group: 'apps', resource: 'replicasets', verbs: ['list'] },
  { group: 'apps', resource: 'daemonsets', verbs: ['list'] },
  { group: 'apps', resource: 'statefulsets', verbs: ['list'] },
  { group: 'batch', resource: 'jobs', verbs: ['list'] },
  { group: '', resource: 'replicationcontrollers', verbs: ['list'] },
  { group: 'apps', resource: 'deployments', verbs: ['list'] },
  { group: 'batch', resource: 'cronjobs', verbs: ['list'] },
];

export interface ReadOptions {
  /** Only this namespace's pods and events. @default - every namespace */
  readonly namespace?: string;
  /** Aborted when the run's deadline passes. */
  readonly signal: AbortSignal;
  /** The deadline in words, for its message: `the deadline of 60 s (--timeout)`. */
  readonly deadline: string;
  /**
   * `'facts'`: only the nodes and RuntimeClasses (`doctor --facts`); pods, events and controllers are not listed.
   * @default 'all'
   */
  readonly read?: 'all' | 'facts';
}

/** Reads the snapshot; rejects with a `ClusterError` naming what went wrong. */
export async function readCluster(connection: Connection, options: ReadOptions): Promise<ClusterSnapshot> {
  const k8s = await clientNode();
  const serializer = await modelSerializer();
  const core = connection.config.makeApiClient(k8s.CoreV1Api);
  const node = connection.config.makeApiClient(k8s.NodeV1Api);
  const apps = connection.config.makeApiClient(k8s.AppsV1Api);
  const batch = connection.config.makeApiClient(k8s.BatchV1Api);
  const ns = options.namespace;
  const config = withSignal(k8s, options.signal);
  const list = async <T extends { items: unknown[]; metadata?: { _continue?: string } }>(
    what: { readonly resource: string; readonly group: string; readonly type: string },
    call: (page: { limit: number; _continue?: string }) => Promise<T>,
  ): Promise<Record<string, unknown>[]> => {
    const out: Record<string, unknown>[] = [];
    let next: string | undefined;
    do {
      let page: T;
      try {
        page = await call({ limit: PAGE_SIZE, ...(next !== undefined ? { _continue: next } : {}) });
      } catch (err) {
        throw describeFailure(err, connection, what, ns, options);
      }
      // A list's items carry no kind or apiVersion: given back, so each object reads as a manifest does.
      const [kind, apiVersion] = KINDS[what.type];
      for (const item of page.items) {
        const object = serializer.serialize(item, what.type) as Record<string, unknown>;
        object.apiVersion ??= apiVersion;
        object.kind ??= kind;
        out.push(object);
      }
      if (out.length > MAX_OBJECTS) {
        throw new ClusterError(
          'too-large',
          `the cluster has more than ${MAX_OBJECTS} ${what.resource}${ns === undefined ? '' : ` in namespace ${ns}`}: read one namespace at a time (-n NAMESPACE).`,
        );
      }
      next = page.metadata?._continue || undefined;
    } while (next !== undefined);
    return out;
  };
  const nodes = await list({ resource: 'nodes', group: '', type: 'V1Node' }, (p) => core.listNode(p, config));
  if (options.read === 'facts') {
    const runtimeClasses = await list(
      { resource: 'runtimeclasses', group: 'node.k8s.io', type: 'V1RuntimeClass' },
      (p) => node.listRuntimeClass(p, config),
    );
    return { nodes, pods: [], events: [], runtimeClasses, owners: [] };
  }
  const pods = await list({ resource: 'pods', group: '', type: 'V1Pod' }, (p) =>
    ns === undefined
      ? core.listPodForAllNamespaces(p, config)
      : core.listNamespacedPod({ ...p, namespace: ns }, config),
  );
  const events = await list({ resource: 'events', group: '', type: 'CoreV1Event' }, (p) =>
    ns === undefined
      ? core.listEventForAllNamespaces(p, config)
      : core.listNamespacedEvent({ ...p, namespace: ns }, config),
  );
  const runtimeClasses = await list({ resource: 'runtimeclasses', group: 'node.k8s.io', type: 'V1RuntimeClass' }, (p) =>
    node.listRuntimeClass(p, config),
  );
  const namespaced =
    <P, T>(all: (p: P) => Promise<T>, one: (p: P & { namespace: string }) => Promise<T>) =>
    (p: P): Promise<T> =>
      ns === undefined ? all(p) : one({ ...p, namespace: ns });
  const owners = [
    ...(await list(
      { resource: 'replicasets', group: 'apps', type: 'V1ReplicaSet' },
      namespaced(
        (p) => apps.listReplicaSetForAllNamespaces(p, config),
        (p) => apps.listNamespacedReplicaSet(p, config),
      ),
    )),
    ...(await list(
      { resource: 'daemonsets', group: 'apps', type: 'V1DaemonSet' },
      namespaced(
        (p) => apps.listDaemonSetForAllNamespaces(p, config),
        (p) => apps.listNamespacedDaemonSet(p, config),
      ),
    )),
    ...(await list(
      { resource: 'statefulsets', group: 'apps', type: 'V1StatefulSet' },
      namespaced(
        (p) => apps.listStatefulSetForAllNamespaces(p, config),
        (p) => apps.listNamespacedStatefulSet(p, config),
      ),
    )),
    ...(await list(
      { resource: 'jobs', group: 'batch', type: 'V1Job' },
      namespaced(
        (p) => batch.listJobForAllNamespaces(p, config),
        (p) => batch.listNamespacedJob(p, config),
      ),
    )),
    ...(await list(
      { resource: 'replicationcontrollers', group: '', type: 'V1ReplicationController' },
      namespaced(
        (p) => core.listReplicationControllerForAllNamespaces(p, config),
        (p) => core.listNamespacedReplicationController(p, config),
      ),
    )),
    ...(await list(
      { resource: 'deployments', group: 'apps', type: 'V1Deployment' },
      namespaced(
        (p) => apps.listDeploymentForAllNamespaces(p, config),
        (p) => apps.listNamespacedDeployment(p, config),
      ),
    )),
    ...(await list(
      { resource: 'cronjobs', group: 'batch', type: 'V1CronJob' },
      namespaced(
        (p) => batch.listCronJobForAllNamespaces(p, config),
        (p) => batch.listNamespacedCronJob(p, config),
      ),
    )),
  ];
  return { nodes, pods, events, runtimeClasses, owners };
}

/** The options of every request of the run: it carries the run's abort signal. */
type RequestOptions = NonNullable<Parameters<InstanceType<ClientNode['CoreV1Api']>['listNode']>[1]>;

function withSignal(k8s: ClientNode, signal: AbortSignal): RequestOptions {
  return {
    middleware: [
      {
        pre: (context) => {
          context.setSignal(signal);
          return new k8s.Observable(Promise.resolve(context));
        },
        post: (response) => new k8s.Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

/** One clear message for a failed list: unreachable, 401, 403 (naming the verb and resource), deadline, other. */
function describeFailure(
  err: unknown,
  connection: Connection,
  what: { readonly resource: string; readonly group: string },
  namespace: string | undefined,
  options: ReadOptions,
): ClusterError {
  const resource = what.group === '' ? what.resource : `${what.resource}.${what.group}`;
  const scope = namespace === undefined ? 'at the cluster scope' : `in namespace ${namespace}`;
  if (options.signal.aborted) {
    return new ClusterError(
      'deadline',
      `${options.deadline} passed while listing ${resource} from ${connection.server}.`,
    );
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number') {
    const reason = serverMessage((err as { body?: unknown }).body);
    switch (code) {
      case 401:
        return new ClusterError(
          'unauthorized',
          `the API server at ${connection.server} refused the credentials of user ${connection.user} (context ${connection.context}): 401 Unauthorized${reason}. Renew them (an expired token, a removed service account) and try kubectl get nodes with the same context.`,
        );
      case 403:
        return new ClusterError(
          'forbidden',
          `user ${connection.user} (context ${connection.context}) may not list ${resource} ${scope}: 403 Forbidden${reason}. doctor needs list on nodes, pods, events, runtimeclasses.node.k8s.io and the controllers that make pods: k8s-windows doctor --print-rbac prints the ClusterRole to bind.`,
        );
      default:
        return new ClusterError(
          'server',
          `the API server at ${connection.server} answered ${code} to listing ${resource}${reason}.`,
        );
    }
  }
  const cause = networkCause(err);
  return new ClusterError(
    'unreachable',
    `cannot reach the API server at ${connection.server} (context ${connection.context}): ${cause}.`,
  );
}

/** `: pods is forbidden: User "x" cannot list resource "pods" …`, from a Status body, if it says one. */
function serverMessage(body: unknown): string {
  let status: unknown = body;
  if (typeof body === 'string') {
    try {
      status = JSON.parse(body);
    } catch {
      return '';
    }
  }
  const message = (status as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? ` (${message.slice(0, 500)})` : '';
}

/** ECONNREFUSED, ENOTFOUND, a certificate error: what the socket said. */
function networkCause(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 5 && e !== undefined && e !== null; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      switch (code) {
        case 'ECONNREFUSED':
          return 'connection refused (is the server running, and is this its address?)';
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return 'the host name does not resolve';
        case 'ETIMEDOUT':
        case 'ECONNRESET':
          return `the connection failed (${code})`;
        default:
          return `${code}: ${(e as Error).message}`;
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return err instanceof Error ? err.message : String(err);
}
