/**
 * `WindowsRuntimeClass`: a `node.k8s.io/v1` RuntimeClass with the containerd Windows handler for the target's
 * isolation and the target's scheduling, so pods that name it land on the right Windows nodes.
 */
import * as pulumi from '@pulumi/pulumi';
import { RuntimeClass } from '@pulumi/kubernetes/node/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import type { ValidationIssue } from '../../core/errors';
import { windowsRuntimeHandler, type WindowsIsolation, type WindowsRelease } from '../../core/releases';
import { schedulingFor, windowsNodeTarget, type WindowsNodeTarget } from '../../core/target';
import { isDns1123Subdomain } from '../../core/windows-options';
import { asInputErrors, requireArgs, throwInputErrors } from '../errors';
import { isPlain } from './inputs';
import { redactError, secretValues } from '../secrets';
import { checkResolved, checkShapes, NODE_TARGET_SHAPE, object, record, str, type ArgShapes } from '../arg-shapes';

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const RUNTIME_CLASS_SHAPES: ArgShapes = {
  name: { shape: str(), example: "'windows-2022'" },
  target: { shape: NODE_TARGET_SHAPE, example: 'pool.nodeTarget' },
  release: { shape: str(), example: "'2022'" },
  isolation: { shape: str(), example: "'process'" },
  overhead: {
    shape: object({ podFixed: { shape: record(str({ eventual: true }), { eventual: true }) } }, { eventual: true }),
  },
  labels: { shape: record(str()), example: "{ 'example.com/team': 'web' }" },
};

export interface WindowsRuntimeClassArgs {
  /**
   * `metadata.name`, what pods name in `runtimeClassName`. Set explicitly (never auto-named) so the target can
   * carry it.
   * @default - the Pulumi resource name
   */
  readonly name?: string;
  /**
   * The Windows nodes the RuntimeClass schedules onto: a node pool's `nodeTarget` or `windowsNodeTarget(...)`.
   * When it is an Output, `nodeTarget` is one too and the scheduling is filled in once it resolves.
   * @default - `windowsNodeTarget({ release, isolation })`
   */
  readonly target?: pulumi.Input<WindowsNodeTarget>;
  /**
   * Windows Server release to pin when no `target` is given. Ignored when `target` is set.
   * @default '2022'
   */
  readonly release?: WindowsRelease;
  /**
   * Isolation when no `target` is given; picks the handler. Hyper-V isolation is experimental upstream. Ignored
   * when `target` is set.
   * @default 'process'
   */
  readonly isolation?: WindowsIsolation;
  /**
   * Pod overhead charged for every pod of this class (Hyper-V isolation runs a utility VM per pod).
   * @default - none
   */
  readonly overhead?: pulumi.Input<k8sInput.node.v1.Overhead>;
  /**
   * Labels of the object.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The release used when neither a target nor a release is given: the default on every cloud today. */
const DEFAULT_RELEASE: WindowsRelease = '2022';

/**
 * A RuntimeClass for Windows pods: handler `runhcs-wcow-process` (or `runhcs-wcow-hypervisor` for Hyper-V
 * isolation) and `scheduling` with the target's nodeSelector and tolerations. Its `nodeTarget` is the target with
 * `runtimeClassName` set: give it to workloads so their pods name this class. Plain args are checked in the
 * constructor (one `pulumi.InputPropertiesError` listing every problem, before anything registers).
 * @see https://kubernetes.io/docs/concepts/containers/runtime-class/
 */
export class WindowsRuntimeClass extends pulumi.ComponentResource {
  /** `metadata.name` of the RuntimeClass. */
  public readonly runtimeClassName: string;
  /**
   * The target with `runtimeClassName` set, for workloads' `windows.target`. Plain when the given target was
   * plain (workloads built from it are then checked synchronously), an Output otherwise.
   */
  public readonly nodeTarget: pulumi.Input<WindowsNodeTarget>;
  /** The RuntimeClass object. */
  public readonly runtimeClass: RuntimeClass;

  constructor(name: string, rawArgs: WindowsRuntimeClassArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const subject = `WindowsRuntimeClass '${name}'`;
    // `undefined` takes the default `{}`; `null` is refused like any other non-object.
    const args = requireArgs(subject, rawArgs);
    const runtimeClassName = args.name ?? name; // the target carries the name: never auto-named
    const issues: ValidationIssue[] = checkShapes(args, RUNTIME_CLASS_SHAPES);
    if (issues.length === 0 && !isDns1123Subdomain(runtimeClassName)) {
      issues.push({
        path: 'name',
        message: `RuntimeClass name '${runtimeClassName}' is not a lowercase DNS-1123 subdomain.`,
        fix:
          args.name === undefined
            ? 'Set name: the resource name is not a valid object name.'
            : 'Use lowercase letters, digits, "-" and ".".',
      });
    }
    throwInputErrors(subject, issues);
    const withName = (target: WindowsNodeTarget): WindowsNodeTarget => ({ ...target, runtimeClassName });
    const given = args.target;
    const nodeTarget: pulumi.Input<WindowsNodeTarget> =
      given === undefined
        ? withName(
            asInputErrors(subject, '', () =>
              windowsNodeTarget({
                release: args.release ?? DEFAULT_RELEASE,
                ...(args.isolation !== undefined ? { isolation: args.isolation } : {}),
              }),
            ),
          )
        : isPlain(given)
          ? withName(given as WindowsNodeTarget)
          : pulumi.output(given).apply(async (t) => {
              try {
                const shape = { shape: NODE_TARGET_SHAPE, required: true };
                return withName(checkResolved<WindowsNodeTarget>(subject, shape, t, 'target'));
              } catch (refused) {
                throw redactError(refused, await secretValues([given], [t])); // a secret target is not quoted
              }
            });

    super('k8s-windows:kubernetes:WindowsRuntimeClass', name, {}, opts);
    this.runtimeClassName = runtimeClassName;
    this.nodeTarget = nodeTarget;
    const spec = pulumi.output(nodeTarget).apply((t) => {
      const target = t as WindowsNodeTarget;
      const scheduling = schedulingFor(target);
      return {
        handler: windowsRuntimeHandler(target.isolation),
        scheduling: { nodeSelector: scheduling.nodeSelector, tolerations: scheduling.tolerations },
      };
    });
    this.runtimeClass = new RuntimeClass(
      name,
      {
        metadata: { name: runtimeClassName, ...(args.labels ? { labels: { ...args.labels } } : {}) },
        handler: spec.handler,
        scheduling: spec.scheduling,
        ...(args.overhead !== undefined ? { overhead: args.overhead } : {}),
      },
      { parent: this },
    );
    this.registerOutputs({ runtimeClassName });
  }
}
