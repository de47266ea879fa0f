/**
 * `WindowsHostProcessDaemonSet`: a node agent (log shipper, exporter, CNI or CSI helper) that runs as HostProcess
 * containers on every Windows node, with the invariants the API server and Pod Security Admission demand
 * (reference §3, §4, §9).
 */
import { ApiObject, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { WindowsValidationError, type ValidationIssue } from '../core/errors';
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, windowsNodeTarget, type Taint } from '../core/target';
import type { WindowsProps } from './windows-props';
import { WindowsDaemonSet } from './workloads';
import { POD_SECURITY_ENFORCE_LABEL } from '../core/pod-security/labels';

export { POD_SECURITY_ENFORCE_LABEL };

/** HostProcess pods break `baseline` (hostProcess, hostNetwork): their namespace must enforce `privileged` (reference §4). */
export const PRIVILEGED_LEVEL = 'privileged';
/** Namespace created for HostProcess DaemonSets that name none. */
export const DEFAULT_HOST_PROCESS_NAMESPACE = 'windows-system';
/**
 * Node agents belong on every Windows node, so by default they tolerate both taint conventions: `os=windows`
 * (seeds, AKS docs) and the one GKE is said to apply itself (reference §2, unverified).
 */
export const HOST_PROCESS_TAINTS: readonly Taint[] = [WINDOWS_TAINT, GKE_WINDOWS_TAINT];

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
   * The namespace to run in. A `kplus.Namespace` or a Namespace `ApiObject` must be labelled
   * `pod-security.kubernetes.io/enforce: privileged` (checked at synth, so labels added later count); a name creates
   * that Namespace at the `privileged` level (once per chart).
   * @default - a `privileged` Namespace named `metadata.namespace`, or `windows-system`
   */
  readonly namespace?: string | kplus.Namespace | ApiObject;
  /**
   * Also tolerate every taint (`operator: Exists`, no key), as node add-ons such as kube-proxy do so they run on
   * nodes that are not ready or under pressure. The `kubernetes.io/os: windows` nodeSelector still keeps the pods on
   * Windows nodes.
   * @default false
   */
  readonly tolerateAllTaints?: boolean;
}

function namespaceName(props: WindowsHostProcessDaemonSetProps): string {
  const ns = props.namespace;
  if (ns === undefined) return props.metadata?.namespace ?? DEFAULT_HOST_PROCESS_NAMESPACE;
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

/**
 * A DaemonSet of Windows HostProcess containers. Every container (init containers too) is HostProcess, the pod uses
 * `hostNetwork: true` and an allowed HostProcess account, it tolerates the Windows taints, and it runs in a namespace
 * at the `privileged` Pod Security level (created, or checked at synth).
 *
 * @example
 * new WindowsHostProcessDaemonSet(chart, 'exporter', {
 *   containers: [{ image: 'ghcr.io/prometheus-community/windows-exporter:0.29.2', portNumber: 9182 }],
 *   windows: { runAsUserName: 'NT AUTHORITY\\SYSTEM' },
 * });
 */
export class WindowsHostProcessDaemonSet extends WindowsDaemonSet {
  /** The namespace the pods run in: the one given, or the `privileged` Namespace created for them. */
  public readonly namespace: kplus.Namespace | ApiObject;

  constructor(scope: Construct, id: string, props: WindowsHostProcessDaemonSetProps = {}) {
    const name = namespaceName(props);
    super(scope, id, {
      ...props,
      metadata: { ...props.metadata, namespace: name },
      windows: hostProcessWindows(props.windows),
    });

    const issues: ValidationIssue[] = [];
    const given = props.namespace;
    if (given !== undefined && typeof given !== 'string') {
      if (props.metadata?.namespace !== undefined && props.metadata.namespace !== given.name) {
        issues.push({
          path: 'metadata.namespace',
          message: `metadata.namespace '${props.metadata.namespace}' disagrees with namespace '${given.name}'.`,
          fix: 'Remove metadata.namespace: the namespace prop decides it.',
        });
      }
      if (given instanceof ApiObject && given.kind !== 'Namespace') {
        issues.push({
          path: 'namespace',
          message: `namespace is a ${given.kind}, not a Namespace.`,
          fix: 'Pass a kplus.Namespace, a Namespace ApiObject or a name.',
        });
      }
      if (issues.length > 0) throw new WindowsValidationError(issues, this.node.path);
      this.namespace = given;
      this.node.addValidation({ validate: () => this.checkNamespaceLevel(given) });
    } else {
      this.namespace = privilegedNamespace(Chart.of(this), name);
    }
    // The Namespace must come first in the manifest, or the first `kubectl apply -f` fails.
    this.apiObject.node.addDependency(this.namespace);

    if (props.tolerateAllTaints ?? false) this.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.any()));
  }

  /** Throws unless the namespace enforces `privileged` (a validation, so labels added after construction count). */
  private checkNamespaceLevel(ns: kplus.Namespace | ApiObject): string[] {
    const level = ns.metadata.getLabel(POD_SECURITY_ENFORCE_LABEL);
    if (level === PRIVILEGED_LEVEL) return [];
    throw new WindowsValidationError(
      [
        {
          path: 'namespace',
          message: `Namespace '${ns.name}' ${level === undefined ? `has no ${POD_SECURITY_ENFORCE_LABEL} label (the cluster default, usually baseline, applies)` : `enforces Pod Security level '${level}'`}, which refuses HostProcess pods (hostProcess, hostNetwork).`,
          fix: `Label it ${POD_SECURITY_ENFORCE_LABEL}: ${PRIVILEGED_LEVEL} (ns.metadata.addLabel), or pass a namespace name to have one created.`,
        },
      ],
      this.node.path,
    );
  }
}

/** The chart's `privileged` Namespace of this name, created on first use so several agents share it. */
function privilegedNamespace(chart: Chart, name: string): kplus.Namespace {
  const id = `WindowsHostProcessNamespace-${name}`;
  const existing = chart.node.tryFindChild(id);
  if (existing instanceof kplus.Namespace) return existing;
  return new kplus.Namespace(chart, id, {
    metadata: { name, labels: { [POD_SECURITY_ENFORCE_LABEL]: PRIVILEGED_LEVEL } },
  });
}
