/**
 * `WindowsHostProcessDaemonSet`: a node agent (log shipper, exporter, CNI or CSI helper) that runs as HostProcess
 * containers on every Windows node, with the invariants the API server and Pod Security Admission demand
 * (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/, https://kubernetes.io/docs/concepts/security/pod-security-standards/).
 */
import { ApiObject, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct, IConstruct } from 'constructs';
import { IssueCollector } from '../core/errors';
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, windowsNodeTarget, type Taint } from '../core/target';
import type { WindowsProps } from './windows-props';
import { WindowsDaemonSet } from './workloads';
import { POD_SECURITY_ENFORCE_LABEL } from '../core/pod-security/labels';
import { refuseIfAny } from './refusal';
import { markClusterScoped } from './gmsa';

export { POD_SECURITY_ENFORCE_LABEL };

/** HostProcess pods break `baseline` (hostProcess, hostNetwork): their namespace must enforce `privileged` (https://kubernetes.io/docs/concepts/security/pod-security-standards/). */
export const PRIVILEGED_LEVEL = 'privileged';
/** Namespace created for HostProcess DaemonSets that name none. */
export const DEFAULT_HOST_PROCESS_NAMESPACE = 'windows-system';
/**
 * Node agents belong on every Windows node, so by default they tolerate both taint conventions: `os=windows`
 * (Kubernetes and AKS docs) and the one GKE is said to apply itself (not confirmed in GKE's docs).
 */
export const HOST_PROCESS_TAINTS: readonly Taint[] = [WINDOWS_TAINT, GKE_WINDOWS_TAINT];

/**
 * Namespaces no construct labels: `default` holds everyone's workloads, the others belong to the cluster (the
 * `kube-` prefix is reserved for Kubernetes system namespaces: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/).
 */
export const RESERVED_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Whether a namespace is the cluster's, never to be labelled privileged: a reserved one or any `kube-` name. */
export function isReservedNamespace(name: string): boolean {
  return RESERVED_NAMESPACES.includes(name) || name.startsWith('kube-');
}

/**
 * What `WindowsHostProcessDaemonSet` may do about the Pod Security level of a namespace it is given.
 * - `'require-privileged'`: use it only when it already enforces `privileged`. A Namespace in the app (passed, or
 *   found by name) is checked at synth; a name with no Namespace in the app is refused, as its level cannot be seen.
 * - `'privileged-outside-app'`: the named namespace is labelled `privileged` in the cluster by whoever owns it;
 *   nothing is emitted. A Namespace in the app is still checked.
 * - `'label-privileged'`: raise it to `privileged` (turns Pod Security off for every pod in it): the Namespace in the
 *   app gets the label, or a Namespace of that name is emitted with it. Never allowed for `default`, `kube-system`
 *   or `kube-public`.
 */
export type HostProcessNamespacePolicy = 'require-privileged' | 'privileged-outside-app' | 'label-privileged';

const NAMESPACE_POLICIES: readonly HostProcessNamespacePolicy[] = [
  'require-privileged',
  'privileged-outside-app',
  'label-privileged',
];

export interface WindowsHostProcessDaemonSetProps extends kplus.DaemonSetProps {
  /**
   * How the pods run. HostProcess is implied; `runAsUserName` must be one of `NT AUTHORITY\SYSTEM`,
   * `NT AUTHORITY\Local service`, `NT AUTHORITY\NetworkService`. gMSA, Hyper-V isolation and the `restricted`
   * profile are refused (a HostProcess pod runs as a node account, on the host, at the `privileged` level).
   * @default - every Windows node whatever its release (HostProcess images need not match the host build),
   * tolerating `os=windows:NoSchedule` and `node.kubernetes.io/os=windows:NoSchedule`, as `NT AUTHORITY\Local service`
   */
  readonly windows?: Omit<WindowsProps, 'hostProcess'>;
  /**
   * The namespace to run in: a `kplus.Namespace` or Namespace `ApiObject` of the app, or the name of a namespace
   * (`metadata.namespace` counts as one). A given namespace is never raised to `privileged` unless
   * `namespacePolicy: 'label-privileged'` says so.
   * @default - the Chart's `namespace` when it has one (checked like a given name); otherwise a Namespace named
   * `windows-system`, labelled `pod-security.kubernetes.io/enforce: privileged`, created by the first agent of the
   * app and shared by the others
   */
  readonly namespace?: string | kplus.Namespace | ApiObject;
  /**
   * What to do about the Pod Security level of a given `namespace` (see `HostProcessNamespacePolicy`).
   * @default 'require-privileged'
   */
  readonly namespacePolicy?: HostProcessNamespacePolicy;
  /**
   * Also tolerate every taint (`operator: Exists`, no key), as node add-ons such as kube-proxy do so they run on
   * nodes that are not ready or under pressure. The `kubernetes.io/os: windows` nodeSelector still keeps the pods on
   * Windows nodes.
   * @default false
   */
  readonly tolerateAllTaints?: boolean;
}

/** The namespace name the props ask for, or undefined when they name none. */
function givenNamespaceName(props: WindowsHostProcessDaemonSetProps): string | undefined {
  const ns = props.namespace;
  if (ns === undefined) return props.metadata?.namespace;
  return typeof ns === 'string' ? ns : ns.name;
}

/** The `windows` block with HostProcess set and, when the user names no nodes, every Windows node as the target. */
function hostProcessWindows(windows: Omit<WindowsProps, 'hostProcess'> = {}): WindowsProps {
  if (windows.target || windows.runtimeClass) return { ...windows, hostProcess: true };
  try {
    const target = windowsNodeTarget({
      ...(windows.release !== undefined ? { release: windows.release } : {}),
      ...(windows.isolation !== undefined ? { isolation: windows.isolation } : {}),
      taints: HOST_PROCESS_TAINTS,
    });
    return { ...windows, hostProcess: true, target };
  } catch {
    // The workload's own checks report the bad release or isolation with every other problem.
    return { ...windows, hostProcess: true };
  }
}

type NamespaceObject = kplus.Namespace | ApiObject;

/** The Namespace objects named `name` anywhere in the app, each once (a kplus.Namespace and its ApiObject are one). */
function namespacesNamed(scope: IConstruct, name: string): NamespaceObject[] {
  const out: NamespaceObject[] = [];
  for (const c of scope.node.root.node.findAll()) {
    if (c instanceof ApiObject) {
      if (c.kind !== 'Namespace' || c.name !== name) continue;
      const owner = c.node.scope;
      if (owner instanceof kplus.Namespace && ApiObject.of(owner) === c) continue; // counted as the kplus.Namespace
      out.push(c);
    } else if (c instanceof kplus.Namespace && c.name === name) out.push(c);
  }
  return out;
}

const same = (a: NamespaceObject, b: NamespaceObject): boolean =>
  a === b ||
  (a instanceof kplus.Namespace && ApiObject.of(a) === b) ||
  (b instanceof kplus.Namespace && ApiObject.of(b) === a);

/** Namespaces this library created, per app and name, so agents across charts share one object. */
const OWNED_NAMESPACES = new WeakMap<IConstruct, Map<string, kplus.Namespace>>();

/**
 * A DaemonSet of Windows HostProcess containers. Every container (init containers too) is HostProcess, the pod uses
 * `hostNetwork: true` and an allowed HostProcess account, it tolerates the Windows taints, and it runs in a namespace
 * at the `privileged` Pod Security level: one it creates (`windows-system`), or a given one (the Chart's namespace
 * counts as given) that already is, or that `namespacePolicy` explicitly allows it to label. A container without
 * `resources` gets an agent's (`WINDOWS_AGENT_CONTAINER_RESOURCES`: 100m CPU request, 500m limit, 600Mi memory).
 *
 * @example
 * new WindowsHostProcessDaemonSet(chart, 'exporter', {
 *   containers: [{ image: 'ghcr.io/prometheus-community/windows-exporter:0.31.8', portNumber: 9182 }],
 *   windows: { runAsUserName: 'NT AUTHORITY\\SYSTEM' },
 * });
 */
export class WindowsHostProcessDaemonSet extends WindowsDaemonSet {
  /**
   * The namespace the pods run in: the Namespace created for them, the one given, or the one of that name found in
   * the app; undefined for a name that lives outside the app (`'privileged-outside-app'`).
   */
  public readonly namespace?: NamespaceObject;
  /** The name of the namespace the pods run in. */
  public readonly namespaceName: string;

  constructor(scope: Construct, id: string, props: WindowsHostProcessDaemonSetProps = {}) {
    const named = givenNamespaceName(props);
    // A namespaced Chart puts everything in its namespace: the agent follows it like a name the user gave (its Pod
    // Security level checked, never raised unasked), instead of moving to windows-system behind the user's back.
    const chartNamespace = named === undefined ? Chart.of(scope).namespace : undefined;
    const given = named ?? chartNamespace;
    const name = given ?? DEFAULT_HOST_PROCESS_NAMESPACE;
    super(scope, id, {
      ...props,
      metadata: { ...props.metadata, namespace: name },
      windows: hostProcessWindows(props.windows),
    });
    this.namespaceName = name;

    const issues = new IssueCollector();
    const policy = props.namespacePolicy ?? 'require-privileged';
    if (!NAMESPACE_POLICIES.includes(policy)) {
      issues.add(
        'namespacePolicy',
        `namespacePolicy ${JSON.stringify(policy)} is not known.`,
        `Use one of ${NAMESPACE_POLICIES.map((p) => `'${p}'`).join(', ')}.`,
      );
    }
    const obj = props.namespace !== undefined && typeof props.namespace !== 'string' ? props.namespace : undefined;
    if (obj !== undefined && props.metadata?.namespace !== undefined && props.metadata.namespace !== obj.name) {
      issues.add(
        'metadata.namespace',
        `metadata.namespace '${props.metadata.namespace}' disagrees with namespace '${obj.name}'.`,
        'Remove metadata.namespace: the namespace prop decides it.',
      );
    }
    if (obj instanceof ApiObject && obj.kind !== 'Namespace') {
      issues.add(
        'namespace',
        `namespace is a ${obj.kind}, not a Namespace.`,
        'Pass a kplus.Namespace, a Namespace ApiObject or a name.',
      );
    }
    if (given !== undefined && policy === 'label-privileged' && isReservedNamespace(given)) {
      issues.add(
        'namespacePolicy',
        `'label-privileged' would turn Pod Security off for every pod in '${given}'; ${RESERVED_NAMESPACES.map((n) => `'${n}'`).join(', ')} and other kube- namespaces belong to the cluster and are never labelled.`,
        `Run the agent in its own namespace (omit namespace to get '${DEFAULT_HOST_PROCESS_NAMESPACE}'), or have the cluster admin label '${given}' and use 'privileged-outside-app'.`,
      );
    }
    refuseIfAny(this, issues);

    let ns: NamespaceObject | undefined;
    if (given === undefined) {
      ns = ownedNamespace(this, name);
    } else {
      ns = obj ?? namespacesNamed(this, given)[0];
      if (policy === 'label-privileged') {
        if (ns) ns.metadata.addLabel(POD_SECURITY_ENFORCE_LABEL, PRIVILEGED_LEVEL);
        else ns = ownedNamespace(this, name);
      }
    }
    this.namespace = ns;
    // The Namespace must come first in the manifest, or the first `kubectl apply -f` fails.
    if (ns) this.apiObject.node.addDependency(ns);
    this.node.addValidation({
      validate: () => this.checkNamespace(policy, given !== undefined, chartNamespace !== undefined),
    });

    if (props.tolerateAllTaints ?? false) this.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.any()));
  }

  /**
   * At synth, so Namespaces and labels added after construction count: one Namespace object per name, at the
   * `privileged` level unless the policy says it is labelled outside the app.
   */
  private checkNamespace(policy: HostProcessNamespacePolicy, given: boolean, fromChart: boolean): string[] {
    const name = this.namespaceName;
    const named = fromChart ? `'${name}' (the Chart's namespace)` : `'${name}'`;
    const elsewhere = fromChart
      ? `Pass namespace: '${DEFAULT_HOST_PROCESS_NAMESPACE}' to run in a Namespace created at '${PRIVILEGED_LEVEL}'`
      : `Omit namespace to run in '${DEFAULT_HOST_PROCESS_NAMESPACE}' (created at '${PRIVILEGED_LEVEL}')`;
    const found = namespacesNamed(this, name);
    const mine = this.namespace;
    const others = mine ? found.filter((n) => !same(n, mine)) : found;
    const issues = new IssueCollector();
    if (mine && others.length > 0) {
      issues.add(
        'namespace',
        `The app holds ${others.length + 1} Namespace objects named '${name}' (${[mine, ...others].map((n) => n.node.path).join(', ')}); applying them is a conflict.`,
        given
          ? 'Pass the Namespace object as namespace, so it is the only one.'
          : `Pass your Namespace '${name}' as namespace (label it ${POD_SECURITY_ENFORCE_LABEL}: ${PRIVILEGED_LEVEL}), or rename it.`,
      );
    }
    const ns = mine ?? (found.length === 1 ? found[0] : undefined);
    if (ns) {
      const level = ns.metadata.getLabel(POD_SECURITY_ENFORCE_LABEL);
      if (level !== PRIVILEGED_LEVEL) {
        issues.add(
          'namespace',
          `Namespace ${named} ${level === undefined ? `has no ${POD_SECURITY_ENFORCE_LABEL} label (the cluster default, usually baseline, applies)` : `enforces Pod Security level '${level}'`}, which refuses HostProcess pods (hostProcess, hostNetwork).`,
          `${elsewhere}; or label this one ${POD_SECURITY_ENFORCE_LABEL}: ${PRIVILEGED_LEVEL} yourself, or pass namespacePolicy: 'label-privileged' to have it labelled (Pod Security off for every pod in it).`,
        );
      }
    } else if (policy === 'require-privileged') {
      issues.add(
        'namespace',
        `Namespace ${named} is not in this app, so its Pod Security level cannot be checked; HostProcess pods need '${PRIVILEGED_LEVEL}'.`,
        `${elsewhere}; or, if '${name}' is already labelled ${POD_SECURITY_ENFORCE_LABEL}: ${PRIVILEGED_LEVEL} in the cluster, say so with namespacePolicy: 'privileged-outside-app'; or pass namespacePolicy: 'label-privileged' to emit it at '${PRIVILEGED_LEVEL}' (Pod Security off for every pod in it).`,
      );
    }
    issues.throwIfAny(this.node.path);
    return [];
  }
}

/** The app's `privileged` Namespace of this name that this library owns, created on first use and shared. */
function ownedNamespace(scope: IConstruct, name: string): kplus.Namespace {
  const root = scope.node.root;
  let byName = OWNED_NAMESPACES.get(root);
  if (!byName) OWNED_NAMESPACES.set(root, (byName = new Map()));
  const existing = byName.get(name);
  if (existing) return existing;
  const ns = new kplus.Namespace(Chart.of(scope), `WindowsHostProcessNamespace-${name}`, {
    metadata: { name, labels: { [POD_SECURITY_ENFORCE_LABEL]: PRIVILEGED_LEVEL } },
  });
  markClusterScoped(ApiObject.of(ns));
  byName.set(name, ns);
  return ns;
}
