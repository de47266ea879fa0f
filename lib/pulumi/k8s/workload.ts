/**
 * One implementation behind every Windows workload component (Deployment, StatefulSet, DaemonSet, Job, CronJob):
 * find the pod template in the spec, fill in labels and the selector, convert the pod spec for Windows, and
 * register the `@pulumi/kubernetes` resource as a child. Kinds differ only in a `WorkloadKind` record.
 */
import * as pulumi from '@pulumi/pulumi';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import type { ValidationIssue } from '../../core/errors';
import type { PodSpec } from '../../core/kube';
import type { WindowsWarning } from '../../core/pod-spec';
import type { WindowsNodeTarget } from '../../core/target';
import { requireArgs, throwInputErrors } from '../errors';
import {
  bool,
  checkResolved,
  checkShapes,
  either,
  NODE_TARGET_SHAPE,
  num,
  object,
  record,
  str,
  type ArgShapes,
} from '../arg-shapes';
import { isPlain, isRecord, plainCopy, type Json } from './inputs';
import { logWarnings } from '../node-pool';
import { redact, redactError, secretValues } from '../secrets';
import { convertPodSpec, gmsaName, type ResolvedWindowsPodArgs, type WindowsPodArgs } from './windows-pod';

/** The label put on pods (and selected on) when the template carries none: the Kubernetes recommended name label. */
export const DEFAULT_POD_LABEL = 'app.kubernetes.io/name';

/** The Kubernetes object metadata, as `@pulumi/kubernetes` takes it. */
export type ObjectMetaInput = k8sInput.meta.v1.ObjectMeta;
/** A pod spec, as `@pulumi/kubernetes` takes it (plain `kubernetes-types` pod specs fit too). */
export type PodSpecInput = k8sInput.core.v1.PodSpec;
/** A pod template whose `spec` the component converts for Windows. */
export interface WindowsPodTemplateInput {
  /**
   * Pod labels and annotations.
   * @default - labels `{ 'app.kubernetes.io/name': <resource name> }`
   */
  readonly metadata?: pulumi.Input<ObjectMetaInput>;
  /** The pod spec, written as for Linux: the component makes it a valid Windows pod spec. */
  readonly spec: pulumi.Input<PodSpecInput>;
}

/** Args shared by every Windows workload component. */
export interface WindowsWorkloadArgs<TSpec> {
  /**
   * The workload's metadata (name, namespace, labels).
   * @default - auto-named by Pulumi in the provider's default namespace
   */
  readonly metadata?: pulumi.Input<ObjectMetaInput>;
  /**
   * The workload spec as `@pulumi/kubernetes` takes it, except that the pod template is converted for Windows and
   * the selector may be left out (it then selects the template's labels). Leave out the template when `podSpec` is
   * given.
   * @default - built from `podSpec`
   */
  readonly spec?: pulumi.Input<TSpec>;
  /**
   * Shorthand for the pod template's spec, when nothing else about the template needs saying.
   * Exactly one of `podSpec` and the spec's pod template must be given.
   * @default - the spec's pod template
   */
  readonly podSpec?: pulumi.Input<PodSpecInput>;
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes tainted `os=windows:NoSchedule`, process isolation
   */
  readonly windows?: WindowsPodArgs;
}

const inputString = str({ eventual: true });
const GMSA_SHAPE = either(
  inputString,
  object({ credentialSpecName: { shape: str(), required: true } }, { expects: 'a GmsaCredentialSpec' }),
);

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const WORKLOAD_SHAPES: ArgShapes = {
  metadata: {
    shape: object(
      {
        name: { shape: inputString },
        namespace: { shape: inputString },
        labels: { shape: record(inputString, { eventual: true }) },
        annotations: { shape: record(inputString, { eventual: true }) },
      },
      { eventual: true },
    ),
    example: "{ namespace: 'apps' }",
  },
  spec: { shape: object({}, { eventual: true }) },
  podSpec: { shape: object({}, { eventual: true }), example: "{ containers: [{ name: 'app', image: '...' }] }" },
  replicas: { shape: num({ eventual: true }), example: '2' },
  // The block itself is plain (only target and gmsa may come from other resources): an Output of it would be
  // read as an empty block and its settings lost.
  windows: {
    shape: object({
      target: { shape: NODE_TARGET_SHAPE },
      release: { shape: str(), example: "'2022'" },
      isolation: { shape: str(), example: "'process'" },
      runAsUserName: { shape: str(), example: "'ContainerUser'" },
      gmsa: { shape: GMSA_SHAPE },
      hostProcess: { shape: bool() },
      securityProfile: { shape: str(), example: "'restricted'" },
      containerDefaults: { shape: bool() },
    }),
    example: "{ release: '2022' }",
  },
};

/** What distinguishes one workload kind from another. */
export interface WorkloadKind<TResource> {
  /** Pulumi type token of the component: `k8s-windows:kubernetes:WindowsDeployment`. */
  readonly typeToken: string;
  /** Kubernetes kind, for messages. */
  readonly kind: string;
  /** Path from the workload spec to the pod template: `['template']`, CronJob `['jobTemplate', 'spec', 'template']`. */
  readonly templatePath: readonly string[];
  /** Whether the spec has a label selector that must match the template (Jobs generate their own). */
  readonly hasSelector: boolean;
  /**
   * Whether the kind runs a set number of pods (`spec.replicas`), so the component takes `replicas` too.
   * @default false
   */
  readonly hasReplicas?: boolean;
  /** Pod spec fields the kind needs when the user left them out (Jobs: `restartPolicy`). */
  readonly podDefaults?: Readonly<Json>;
  /** Registers the `@pulumi/kubernetes` resource. */
  readonly create: (
    name: string,
    args: { metadata?: pulumi.Input<ObjectMetaInput>; spec: pulumi.Input<Json> },
    opts: pulumi.CustomResourceOptions,
  ) => TResource;
}

/** The resolved parts of a workload, plain or all eventual. */
interface Rendered {
  readonly spec: Json;
  readonly podSpec: PodSpec;
  readonly podLabels: Record<string, string>;
  readonly target: WindowsNodeTarget | undefined;
}

/**
 * Base class of the Windows workload components. Plain inputs are converted and checked synchronously, before the
 * component registers; when `spec`, `podSpec` or `windows.target` holds an Output, the conversion runs in `apply`.
 */
export class WindowsWorkload<TResource extends pulumi.CustomResource> extends pulumi.ComponentResource {
  /** The `@pulumi/kubernetes` resource this component wraps. */
  public readonly workload: TResource;
  /** The Windows pod spec the workload runs. */
  public readonly podSpec: pulumi.Output<PodSpec>;
  /** The pods' labels: select on them from a Service. */
  public readonly podLabels: pulumi.Output<Record<string, string>>;
  /** The node target given in `windows.target`; undefined when the default target was used. */
  public readonly nodeTarget: pulumi.Output<WindowsNodeTarget | undefined>;

  constructor(
    kind: WorkloadKind<TResource>,
    name: string,
    rawArgs: WindowsWorkloadArgs<unknown> & { readonly replicas?: pulumi.Input<number> },
    opts?: pulumi.ComponentResourceOptions,
  ) {
    const subject = `${kind.typeToken.split(':').pop() ?? kind.kind} '${name}'`;
    const args = requireArgs(subject, rawArgs);
    throwInputErrors(subject, checkShapes(args, WORKLOAD_SHAPES));
    const windows = args.windows ?? {};
    const gmsa = gmsaName(windows.gmsa);
    const warnings: WindowsWarning[] = [];
    const eventual =
      !isPlain(args.spec) ||
      !isPlain(args.podSpec) ||
      !isPlain(windows.target) ||
      !isPlain(gmsa) ||
      !isPlain(args.replicas);
    // Plain inputs: check before the component registers, so a bad input registers nothing.
    const plain = eventual
      ? undefined
      : render(
          kind,
          name,
          subject,
          {
            spec: args.spec,
            podSpec: args.podSpec,
            replicas: args.replicas,
            target: windows.target as WindowsNodeTarget | undefined,
          },
          { ...windows, gmsa: gmsa as string | undefined },
          (w) => warnings.push(w),
        );
    super(kind.typeToken, name, {}, opts);
    logWarnings(warnings, this, name);

    // Eventual inputs are checked once known. A refusal is caught here and raised again only where the workload
    // takes its spec: one rejection, one error in `pulumi up`, instead of one per derived Output (each of which
    // would prefix the shared error's message with another "error serializing property").
    const eventualInputs = [args.spec, args.podSpec, windows.target, gmsa, args.replicas] as const;
    const rendered: pulumi.Output<Rendered | { readonly refused: unknown }> = plain
      ? (pulumi.output(plain) as unknown as pulumi.Output<Rendered>)
      : pulumi.all([...eventualInputs] as [...typeof eventualInputs]).apply(async (values) => {
          const [spec, podSpec, target, gmsaResolved, replicas] = values;
          // A secret input is refused naming its fields, never quoting its values (nor are they in warnings).
          const secrets = await secretValues(eventualInputs, values);
          const found: WindowsWarning[] = [];
          try {
            checkResolved(subject, { shape: NODE_TARGET_SHAPE }, target, 'windows.target');
            checkResolved(subject, { shape: str() }, gmsaResolved, 'windows.gmsa');
            return render(
              kind,
              name,
              subject,
              { spec, podSpec, replicas, target: target as WindowsNodeTarget | undefined },
              { ...windows, gmsa: gmsaResolved as string | undefined },
              (w) => found.push(w),
            );
          } catch (refused) {
            return { refused: redactError(refused, secrets) };
          } finally {
            logWarnings(
              found.map((w) => redactWarning(w, secrets)),
              this,
              name,
            );
          }
        });
    const ok = (r: Rendered | { readonly refused: unknown }): r is Rendered => !('refused' in r);
    const dependsOn = pulumi.Resource.isInstance(windows.gmsa) ? [windows.gmsa] : [];
    this.workload = kind.create(
      name,
      {
        ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
        spec: plain
          ? plain.spec
          : rendered.apply((r) => {
              if (!ok(r)) throw r.refused;
              return r.spec;
            }),
      },
      { parent: this, dependsOn },
    );
    // When the inputs were refused these stay empty: the deployment fails with the workload's one error.
    this.podSpec = rendered.apply((r) => (ok(r) ? r.podSpec : ({} as PodSpec)));
    this.podLabels = rendered.apply((r) => (ok(r) ? r.podLabels : {}));
    this.nodeTarget = rendered.apply((r) => (ok(r) ? r.target : undefined));
    this.registerOutputs({ podSpec: this.podSpec, podLabels: this.podLabels });
  }
}

interface RenderInput {
  readonly spec: unknown;
  readonly podSpec: unknown;
  readonly replicas: unknown;
  readonly target: WindowsNodeTarget | undefined;
}

function render(
  kind: WorkloadKind<unknown>,
  name: string,
  subject: string,
  input: RenderInput,
  windows: ResolvedWindowsPodArgs,
  onWarning: (w: WindowsWarning) => void,
): Rendered {
  const templatePath = ['spec', ...kind.templatePath].join('.');
  const issues: ValidationIssue[] = [];
  if (input.spec !== undefined && !isRecord(input.spec)) {
    issues.push({
      path: 'spec',
      message: `spec must be an object, got ${JSON.stringify(input.spec)}.`,
      fix: 'Write a workload spec object.',
    });
  }
  const spec: Json = isRecord(input.spec) ? plainCopy(input.spec) : {};
  issues.push(...replicasProblems(kind, input.replicas, spec));
  if (issues.length === 0 && input.replicas !== undefined) spec.replicas = input.replicas;
  const template = getPath(spec, kind.templatePath);
  if (input.podSpec !== undefined && template !== undefined) {
    issues.push({
      path: 'podSpec',
      message: `Both podSpec and ${templatePath} are given, so the pod spec is ambiguous.`,
      fix: `Keep one: move podSpec into ${templatePath}.spec, or remove the template.`,
    });
  } else if (input.podSpec === undefined && !isRecord(template)) {
    issues.push({
      path: templatePath,
      message: `A ${kind.kind} needs a pod template, and neither ${templatePath} nor podSpec is given.`,
      fix: `Give podSpec: { containers: [...] }, or ${templatePath}: { spec: { containers: [...] } }.`,
    });
  } else if (input.podSpec !== undefined && !isRecord(input.podSpec)) {
    issues.push({
      path: 'podSpec',
      message: `podSpec must be an object, got ${JSON.stringify(input.podSpec)}.`,
      fix: 'Write a pod spec object.',
    });
  } else if (isRecord(template) && !isRecord(template.spec)) {
    issues.push({
      path: `${templatePath}.spec`,
      message: 'The pod template has no spec.',
      fix: `Write ${templatePath}.spec: { containers: [...] }.`,
    });
  }
  throwInputErrors(subject, issues);

  const fromShorthand = input.podSpec !== undefined;
  const tmpl: Json = fromShorthand ? {} : (template as Json);
  const userPodSpec = (fromShorthand ? input.podSpec : tmpl.spec) as Json;
  const templateIssues = templateMetadataProblems(tmpl.metadata, `${templatePath}.metadata`);
  throwInputErrors(subject, templateIssues);
  const meta: Json = isRecord(tmpl.metadata) ? tmpl.metadata : {};
  const podLabels: Record<string, string> = isRecord(meta.labels)
    ? (meta.labels as Record<string, string>)
    : { [DEFAULT_POD_LABEL]: name };
  const selectorIssues = kind.hasSelector ? selectorProblems(spec.selector, podLabels, templatePath) : [];

  const podSpec = convertPodSpec({ ...kind.podDefaults, ...userPodSpec } as unknown as PodSpec, windows, {
    pathPrefix: fromShorthand ? 'podSpec' : `${templatePath}.spec`,
    subject,
    target: input.target,
    onWarning,
    issues: selectorIssues,
  });

  if (kind.hasSelector && spec.selector === undefined) spec.selector = { matchLabels: { ...podLabels } };
  setPath(spec, kind.templatePath, { ...tmpl, metadata: { ...meta, labels: podLabels }, spec: plainCopy(podSpec) });
  return { spec, podSpec: plainCopy(podSpec), podLabels, target: input.target };
}

/** A warning with the values of `secrets` hidden. */
function redactWarning(w: WindowsWarning, secrets: readonly unknown[]): WindowsWarning {
  if (secrets.length === 0) return w;
  return { ...w, message: redact(w.message, secrets), ...(w.fix !== undefined ? { fix: redact(w.fix, secrets) } : {}) };
}

/** The template's metadata is read here (its labels select the pods): an object with a map of string labels. */
function templateMetadataProblems(metadata: unknown, path: string): ValidationIssue[] {
  return checkShapes(
    { [path]: metadata },
    { [path]: { shape: object({ labels: { shape: record(str()) }, annotations: { shape: record(str()) } }) } },
  );
}

/** `replicas` is shorthand for `spec.replicas`: a whole number, given once, on a kind that has replicas. */
function replicasProblems(kind: WorkloadKind<unknown>, replicas: unknown, spec: Json): ValidationIssue[] {
  if (replicas === undefined) return [];
  if (!kind.hasReplicas) {
    return [
      {
        path: 'replicas',
        message: `A ${kind.kind} has no replicas: it runs ${kind.kind === 'DaemonSet' ? 'one pod per node' : 'its pods to completion'}.`,
        fix:
          kind.kind === 'DaemonSet' ? 'Remove replicas.' : 'Remove replicas; set spec.parallelism or spec.completions.',
      },
    ];
  }
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    return [
      {
        path: 'replicas',
        message: `replicas must be a whole number of pods, got ${JSON.stringify(replicas)}.`,
        fix: 'Write e.g. replicas: 2.',
      },
    ];
  }
  if (spec.replicas !== undefined) {
    return [
      {
        path: 'replicas',
        message: `Both replicas (${replicas}) and spec.replicas (${JSON.stringify(spec.replicas)}) are given.`,
        fix: 'Keep one: replicas beside podSpec, or spec.replicas.',
      },
    ];
  }
  return [];
}

/** A selector that does not select the template's own pods is refused by the API server; say so now. */
function selectorProblems(
  selector: unknown,
  podLabels: Record<string, string>,
  templatePath: string,
): ValidationIssue[] {
  if (selector === undefined) return [];
  if (!isRecord(selector)) {
    return [
      {
        path: 'spec.selector',
        message: `spec.selector must be a label selector, got ${JSON.stringify(selector)}.`,
        fix: "Write { matchLabels: { ... } }, or leave it out to select the template's labels.",
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};
  for (const [key, value] of Object.entries(matchLabels)) {
    if (podLabels[key] !== value) {
      issues.push({
        path: `spec.selector.matchLabels["${key}"]`,
        message: `The selector wants ${key}=${String(value)} but the pod template's labels do not carry it.`,
        fix: `Add it to ${templatePath}.metadata.labels, or leave spec.selector out to select the template's labels.`,
      });
    }
  }
  return issues;
}

function getPath(obj: Json, path: readonly string[]): unknown {
  let node: unknown = obj;
  for (const s of path) node = isRecord(node) ? node[s] : undefined;
  return node;
}

/** Sets `value` at `path`, creating the objects on the way (CronJob's `jobTemplate.spec`). */
function setPath(obj: Json, path: readonly string[], value: unknown): void {
  let node = obj;
  for (const s of path.slice(0, -1)) {
    if (!isRecord(node[s])) node[s] = {};
    node = node[s] as Json;
  }
  node[path[path.length - 1]] = value;
}
