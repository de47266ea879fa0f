/**
 * `WindowsRuntimeClass`: a `node.k8s.io/v1` RuntimeClass for one Windows release and isolation. containerd on
 * Windows picks the isolation from the handler; the RuntimeClass's `scheduling` carries the target's nodeSelector
 * and tolerations, which admission merges into every pod that names it.
 */
import { ApiObject, type ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { IssueCollector, WindowsValidationError } from '../core/errors';
import {
  DEFAULT_WINDOWS_RELEASE,
  windowsRuntimeHandler,
  type WindowsIsolation,
  type WindowsRelease,
} from '../core/releases';
import { schedulingFor, windowsNodeTarget, type WindowsNodeTarget } from '../core/target';
import { isDns1123Subdomain } from '../core/windows-options';
import type { IWindowsRuntimeClass } from './windows-props';
import { refuseIfAny } from './refusal';

export interface WindowsRuntimeClassProps {
  /**
   * Object metadata.
   * @default - name `windows-<release>` (`windows-<release>-hyperv` for Hyper-V; `windows` when the target is not
   * pinned to a release)
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * The nodes this RuntimeClass schedules onto (a node pool's `nodeTarget`), so its tolerations match the pool's
   * taints. Its `release` and `isolation` are this RuntimeClass's.
   * @default - `windowsNodeTarget({ release, isolation })`
   */
  readonly target?: WindowsNodeTarget;
  /**
   * Windows Server release of the nodes, when no `target` is given (with one, it must agree with it).
   * @default '2022'
   */
  readonly release?: WindowsRelease;
  /**
   * Isolation, when no `target` is given (with one, it must agree with it). `'hyperv'` uses the
   * `runhcs-wcow-hypervisor` handler, experimental upstream.
   * @default 'process'
   */
  readonly isolation?: WindowsIsolation;
}

/** The containerd handler that runs Windows pods with `isolation` (containerd's runhcs shim; see https://kubernetes.io/docs/concepts/windows/user-guide/). */
export { windowsRuntimeHandler };

/** The default RuntimeClass name for a target: `windows-2022`, `windows-2022-hyperv`, `windows`. */
export function defaultRuntimeClassName(target: Pick<WindowsNodeTarget, 'release' | 'isolation'>): string {
  const base = target.release === undefined ? 'windows' : `windows-${target.release}`;
  return target.isolation === 'hyperv' ? `${base}-hyperv` : base;
}

/** RuntimeClass is cluster-scoped: never emit the chart's namespace on it. */
class ClusterScopedApiObject extends ApiObject {
  public override toJson(): Record<string, unknown> {
    const json = super.toJson() as { metadata?: Record<string, unknown> };
    if (json.metadata) delete json.metadata.namespace;
    return json;
  }
}

/**
 * A RuntimeClass for Windows pods of one release and isolation. Workloads take it as `windows.runtimeClass` and
 * schedule by its `nodeTarget`.
 *
 * @example
 * const rc = new WindowsRuntimeClass(chart, 'ws2022', { release: '2022' });
 * new WindowsDeployment(chart, 'web', { windows: { runtimeClass: rc }, containers: [...] });
 */
export class WindowsRuntimeClass extends Construct implements IWindowsRuntimeClass {
  /** The RuntimeClass object. */
  public readonly apiObject: ApiObject;
  /** The RuntimeClass name pods refer to. */
  public readonly name: string;
  /** The containerd handler: `runhcs-wcow-process` or `runhcs-wcow-hypervisor`. */
  public readonly handler: string;
  /** The nodes this RuntimeClass schedules onto, with `runtimeClassName` set to it. */
  public readonly nodeTarget: WindowsNodeTarget;

  constructor(scope: Construct, id: string, props: WindowsRuntimeClassProps = {}) {
    super(scope, id);
    const issues = new IssueCollector();
    let target: WindowsNodeTarget;
    if (props.target) {
      target = props.target;
      if (props.release !== undefined && props.release !== target.release) {
        issues.add(
          'release',
          `release '${props.release}' disagrees with the target's ${target.release === undefined ? 'unpinned release' : `'${target.release}'`}.`,
          'Remove release: the target decides it.',
        );
      }
      if (props.isolation !== undefined && props.isolation !== target.isolation) {
        issues.add(
          'isolation',
          `isolation '${props.isolation}' disagrees with the target's '${target.isolation}'.`,
          'Remove isolation: the target decides it.',
        );
      }
    } else {
      try {
        target = windowsNodeTarget({
          release: props.release ?? DEFAULT_WINDOWS_RELEASE,
          ...(props.isolation !== undefined ? { isolation: props.isolation } : {}),
        });
      } catch (err) {
        if (!(err instanceof WindowsValidationError)) throw err;
        for (const i of err.issues) issues.add(i.path, i.message, i.fix);
        target = windowsNodeTarget();
      }
    }
    const name = props.metadata?.name ?? defaultRuntimeClassName(target);
    if (!isDns1123Subdomain(name)) {
      issues.add(
        'metadata.name',
        `RuntimeClass name '${name}' is not a lowercase RFC 1123 subdomain.`,
        "Use lowercase letters, digits, '-' and '.', e.g. 'windows-2022'.",
      );
    }
    if (target.runtimeClassName !== undefined && target.runtimeClassName !== name) {
      issues.add(
        'target.runtimeClassName',
        `The target already names RuntimeClass '${target.runtimeClassName}', not '${name}'.`,
        'Pass a target without runtimeClassName, or name this RuntimeClass after it.',
      );
    }
    refuseIfAny(this, issues);

    this.name = name;
    this.handler = windowsRuntimeHandler(target.isolation);
    this.nodeTarget = { ...target, runtimeClassName: name };
    const scheduling = schedulingFor(target);
    this.apiObject = new ClusterScopedApiObject(this, 'Resource', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { ...props.metadata, name },
      handler: this.handler,
      scheduling: { nodeSelector: scheduling.nodeSelector, tolerations: scheduling.tolerations },
    });
  }
}
