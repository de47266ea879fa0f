/**
 * Node-pool helpers shared by the EKS, AKS and GKE components: scaling, labels, taints (and their cloud
 * spellings), release checks, and the `WindowsNodeTarget` a pool produces. Pure functions: each checker returns
 * every issue it finds, so a component can gather all of them and throw one `InputPropertiesError` before it
 * registers anything.
 */
import { isRecord } from '../core/json';
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../core/errors';
import { isEventual, throwInputErrors } from './errors';
import type { WindowsWarning } from '../core/pod-spec';
import { cloudFindingSink, type CloudFinding } from '../core/rules/cloud-findings';
import { runCloudRules } from '../core/rules/cloud-runner';
import { componentWarnings } from './finding-warnings';
import { OS_LABEL, WINDOWS_BUILD_LABEL } from '../core/kube';
import type { Cloud } from '../core/cloud-gates';
import { parseWindowsRelease, releaseInfo, type WindowsIsolation, type WindowsRelease } from '../core/releases';
import {
  TAINT_EFFECTS,
  WINDOWS_TAINT,
  taintLiteral,
  windowsNodeTarget,
  type Taint,
  type WindowsNodeTarget,
} from '../core/target';
import type { ComponentVersion } from '../core/rules/cloud-inputs';
import {
  fromCloudTaintEffect,
  isCloudTaintEffect,
  isLabelValue,
  isQualifiedName,
  type GateOptions,
} from '../core/cloud/node-pools';

// The shared judgments live in the core (the rule modules use them); re-exported for the components.
export {
  CLOUD_TAINT_EFFECTS,
  checkCloudReleaseForKubernetes,
  fromCloudTaintEffect,
  hasWindowsTaint,
  isCloudTaintEffect,
  isKnown,
  isLabelValue,
  isQualifiedName,
  kubernetesMinorOf,
  MIN_WINDOWS_NODE_MEMORY_GIB,
  nodeMemoryWarnings,
  releaseSupportWarnings,
  taintToString,
  toCloudTaintEffect,
  type CloudTaintEffect,
  type GateOptions,
} from '../core/cloud/node-pools';

/**
 * Checks taints written in the Kubernetes spelling (our args always take that spelling; components convert).
 * A cloud spelling such as `NO_SCHEDULE` is refused with the fix named. Also checks key/value syntax and
 * duplicate key+effect pairs, which the API server refuses on a Node.
 */
export function checkTaints(taints: unknown, path = 'taints'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (taints === undefined) return issues;
  if (!Array.isArray(taints)) {
    issues.push({
      path,
      message: `Taints must be a list, got ${describe(taints)}.`,
      fix: `Write [${WINDOWS_TAINT_LITERAL}].`,
    });
    return issues;
  }
  const seen = new Set<string>();
  taints.forEach((raw: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(raw)) {
      issues.push({
        path: at,
        message: `A taint must be an object, got ${describe(raw)}.`,
        fix: `Write ${WINDOWS_TAINT_LITERAL}.`,
      });
      return;
    }
    const { key, value, effect } = raw;
    if (typeof key !== 'string' || !isQualifiedName(key)) {
      issues.push({
        path: `${at}.key`,
        message: `Taint key ${describe(key)} is not a valid qualified name.`,
        fix: "Use a key such as 'os' or 'example.com/dedicated' (optional DNS prefix, name of at most 63 characters).",
      });
    }
    if (value !== undefined && (typeof value !== 'string' || !isLabelValue(value))) {
      issues.push({
        path: `${at}.value`,
        message: `Taint value ${describe(value)} is not a valid label value.`,
        fix: 'Use at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit.',
      });
    }
    if (isCloudTaintEffect(effect)) {
      issues.push({
        path: `${at}.effect`,
        message: `Taint effect '${effect}' is the cloud API spelling; this field takes the Kubernetes spelling.`,
        fix: `Write '${fromCloudTaintEffect(effect)}': it is converted to '${effect}' for the cloud API.`,
      });
    } else if (!(TAINT_EFFECTS as readonly unknown[]).includes(effect)) {
      issues.push({
        path: `${at}.effect`,
        message: `Taint effect ${describe(effect)} is not a Kubernetes taint effect.`,
        fix: `Use one of ${TAINT_EFFECTS.map((e) => `'${e}'`).join(', ')}.`,
      });
    }
    const identity = `${String(key)}:${String(effect)}`;
    if (seen.has(identity)) {
      issues.push({
        path: at,
        message: `Taint ${String(key)}:${String(effect)} appears more than once; a node cannot carry two taints with the same key and effect.`,
        fix: 'Remove the duplicate.',
      });
    }
    seen.add(identity);
  });
  return issues;
}

const WINDOWS_TAINT_LITERAL = taintLiteral(WINDOWS_TAINT);

// ---------------------------------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------------------------------

/**
 * `kubernetes.io` / `k8s.io` label keys a kubelet may set on its own node (NodeRestriction admission, kubelet
 * `--node-labels` validation): anything else under those domains is refused.
 * @see https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#noderestriction
 */
const KUBELET_ALLOWED_KUBERNETES_LABELS: ReadonlySet<string> = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.kubernetes.io/zone',
  'failure-domain.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
]);
const KUBELET_ALLOWED_KUBERNETES_PREFIXES = ['kubelet.kubernetes.io/', 'node.kubernetes.io/'];

function isRestrictedKubernetesLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const prefix = key.slice(0, slash);
  const inKubernetesDomain =
    prefix === 'kubernetes.io' ||
    prefix.endsWith('.kubernetes.io') ||
    prefix === 'k8s.io' ||
    prefix.endsWith('.k8s.io');
  if (!inKubernetesDomain) return false;
  return (
    !KUBELET_ALLOWED_KUBERNETES_LABELS.has(key) && !KUBELET_ALLOWED_KUBERNETES_PREFIXES.some((p) => key.startsWith(p))
  );
}

/**
 * Checks node labels a pool applies: key and value syntax, keys the kubelet may not set on itself, and labels
 * that contradict a Windows pool (`kubernetes.io/os` other than `windows`; a `node.kubernetes.io/windows-build`
 * that is not the release's build — the kubelet sets that label itself).
 */
export function checkNodeLabels(
  labels: unknown,
  release: WindowsRelease | undefined,
  path = 'labels',
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (labels === undefined) return issues;
  if (!isRecord(labels)) {
    issues.push({
      path,
      message: `Labels must be a map of strings, got ${describe(labels)}.`,
      fix: "Write e.g. { 'example.com/pool': 'win' }.",
    });
    return issues;
  }
  for (const [key, value] of Object.entries(labels)) {
    const at = `${path}["${key}"]`;
    if (!isQualifiedName(key)) {
      issues.push({
        path: at,
        message: `Label key '${key}' is not a valid qualified name.`,
        fix: 'Use an optional DNS prefix and a name of at most 63 letters, digits, "-", "_" or ".".',
      });
    } else if (isRestrictedKubernetesLabel(key)) {
      issues.push({
        path: at,
        message: `Label key '${key}' is in a Kubernetes-reserved domain that a kubelet may not set on its node.`,
        fix: "Use your own prefix (e.g. 'example.com/...'), or 'node.kubernetes.io/...'.",
      });
    }
    if (typeof value !== 'string' || !isLabelValue(value)) {
      issues.push({
        path: at,
        message: `Label value ${describe(value)} is not a valid label value.`,
        fix: 'Use a string of at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit.',
      });
      continue;
    }
    if (key === OS_LABEL && value !== 'windows') {
      issues.push({
        path: at,
        message: `Label ${OS_LABEL}=${value} contradicts a Windows pool.`,
        fix: 'Remove it: the kubelet sets kubernetes.io/os=windows.',
      });
    }
    if (key === WINDOWS_BUILD_LABEL && release !== undefined && value !== releaseInfo(release).build) {
      issues.push({
        path: at,
        message: `Label ${WINDOWS_BUILD_LABEL}=${value} does not match Windows Server ${release} (build ${releaseInfo(release).build}).`,
        fix: `Remove it: the kubelet sets ${WINDOWS_BUILD_LABEL} from the node's real build.`,
      });
    }
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------------------------
// Release
// ---------------------------------------------------------------------------------------------------------------

/** Checks a release arg (SAC releases, builds and `ltsc2022` spellings refused with the fix). */
export function checkRelease(value: unknown, path = 'release'): ValidationIssue[] {
  const parsed = parseWindowsRelease(value);
  return parsed.ok ? [] : [{ path, message: parsed.message, fix: parsed.fix }];
}

// ---------------------------------------------------------------------------------------------------------------
// Scaling
// ---------------------------------------------------------------------------------------------------------------

/** Node count bounds of a pool, as users write them. */
export interface NodePoolScalingArgs {
  /**
   * Fewest nodes. 0 lets the autoscaler scale the pool to zero.
   * @default - the cloud's default (`defaults.minSize`)
   */
  readonly minSize?: number;
  /**
   * Most nodes.
   * @default - the larger of `desiredSize` and `minSize` (or the cloud's default desired size)
   */
  readonly maxSize?: number;
  /**
   * Nodes at creation.
   * @default - the cloud's default desired size, clamped to [minSize, maxSize]
   */
  readonly desiredSize?: number;
}

/** Resolved node count bounds. */
export interface NodePoolScaling {
  readonly minSize: number;
  readonly maxSize: number;
  readonly desiredSize: number;
}

/** Default bounds: aws-cdk `managed-nodegroup.ts` (min 1, desired 2, max = desired). */
export const DEFAULT_NODE_POOL_SCALING: NodePoolScaling = { minSize: 1, maxSize: 2, desiredSize: 2 };

/**
 * Resolves scaling args against defaults and checks them: whole numbers ≥ 0, `maxSize` ≥ 1,
 * `minSize` ≤ `maxSize`, `desiredSize` within [minSize, maxSize]. Returns the resolved bounds and every issue.
 */
export function resolveScaling(
  args: NodePoolScalingArgs | undefined,
  defaults: NodePoolScaling = DEFAULT_NODE_POOL_SCALING,
  path = 'scaling',
): { scaling: NodePoolScaling; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const given = args ?? {};
  const fields = ['minSize', 'maxSize', 'desiredSize'] as const;
  let wellFormed = true;
  for (const f of fields) {
    const v: unknown = given[f];
    if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
      issues.push({
        path: `${path}.${f}`,
        message: `${f} ${describe(v)} is not a whole number ≥ 0.`,
        fix: `Write a whole number such as ${defaults[f]}.`,
      });
      wellFormed = false;
    }
  }
  const minSize = given.minSize ?? defaults.minSize;
  const maxSize = given.maxSize ?? Math.max(given.desiredSize ?? defaults.desiredSize, minSize);
  const desiredSize = given.desiredSize ?? Math.min(Math.max(defaults.desiredSize, minSize), maxSize);
  const scaling = { minSize, maxSize, desiredSize };
  if (!wellFormed) return { scaling, issues };
  if (maxSize < 1) {
    issues.push({
      path: `${path}.maxSize`,
      message: `maxSize ${maxSize} allows no node at all.`,
      fix: 'Set maxSize to 1 or more.',
    });
  }
  if (minSize > maxSize) {
    issues.push({
      path: `${path}.minSize`,
      message: `minSize ${minSize} is greater than maxSize ${maxSize}.`,
      fix: `Set minSize ≤ ${maxSize} or raise maxSize.`,
    });
  } else if (desiredSize < minSize || desiredSize > maxSize) {
    issues.push({
      path: `${path}.desiredSize`,
      message: `desiredSize ${desiredSize} is outside [minSize ${minSize}, maxSize ${maxSize}].`,
      fix: `Set desiredSize between ${minSize} and ${maxSize}.`,
    });
  }
  return { scaling, issues };
}

/** Scaling args plus whether the cluster autoscaler manages the pool (AKS, GKE). */
export interface AutoscaledNodePool {
  readonly scaling: NodePoolScaling;
  readonly autoscaling: boolean;
  readonly issues: ValidationIssue[];
}

/**
 * Resolves scaling (see `resolveScaling`) and `autoscaling`, which defaults to on when `minSize` or `maxSize` is
 * given (they bound the autoscaler). Bounds with `autoscaling: false` are refused: the cloud would ignore them.
 */
export function resolveAutoscaling(
  scalingArgs: NodePoolScalingArgs | undefined,
  autoscalingArg: boolean | undefined,
  path = 'scaling',
): AutoscaledNodePool {
  const bounded = scalingArgs?.minSize !== undefined || scalingArgs?.maxSize !== undefined;
  const autoscaling = autoscalingArg ?? bounded; // bounds only mean something to the autoscaler
  const { scaling, issues } = resolveScaling(scalingArgs, undefined, path);
  if (autoscalingArg === false && bounded) {
    issues.push({
      path,
      message: `${path}.minSize/maxSize bound the autoscaler, but autoscaling is false: they would be ignored.`,
      fix: `Set autoscaling: true, or give only ${path}.desiredSize.`,
    });
  }
  return { scaling, autoscaling, issues };
}

// ---------------------------------------------------------------------------------------------------------------
// Node target
// ---------------------------------------------------------------------------------------------------------------

export interface NodePoolTargetOptions {
  readonly release: WindowsRelease;
  /**
   * Labels the pool applies to its nodes (without the kubelet's own `kubernetes.io/os` and build labels).
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Taints the pool applies, Kubernetes spelling. */
  readonly taints: readonly Taint[];
  /** @default 'process' */
  readonly isolation?: WindowsIsolation;
  /** @default - none */
  readonly runtimeClassName?: string;
}

/**
 * The `WindowsNodeTarget` of a pool: the labels and taints it really applies, pinned to its release (so workloads
 * select `node.kubernetes.io/windows-build` too). Call it only after the inputs passed the checks above.
 */
export function nodePoolTarget(options: NodePoolTargetOptions): WindowsNodeTarget {
  return windowsNodeTarget({
    release: options.release,
    labels: { ...options.labels },
    taints: options.taints,
    ...(options.isolation !== undefined ? { isolation: options.isolation } : {}),
    ...(options.runtimeClassName !== undefined ? { runtimeClassName: options.runtimeClassName } : {}),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------------------------------------------

/** A soft problem: the pool works, but badly or fragile. Components log it with `pulumi.log.warn`. */
export interface NodePoolWarning extends Omit<WindowsWarning, 'path'> {
  /**
   * The arg the warning is about.
   * @default - none: the warning is about the pool as a whole
   */
  readonly path?: string;
}

/** The warnings shared by every EKS pool component: an untainted pool, a deprecated release (the rule modules'). */
export function nodePoolWarnings(options: {
  readonly release: WindowsRelease;
  readonly taints: readonly Taint[];
  /** The day support is judged at (`YYYY-MM-DD`); today when absent. */
  readonly date?: string;
}): NodePoolWarning[] {
  const { release, taints, date } = options;
  return componentWarnings(runCloudRules({ kind: 'eks-pool-component', props: { release, taints } }, { date }));
}

/**
 * A component's refusals from the rule modules' findings on its args: the errors, taken by arg path in the order
 * the component lists its args (`at`), then whatever is left (`rest`), so none is dropped. Each keeps its rule id.
 */
export class ComponentRefusals {
  private left: CloudFinding[];

  constructor(findings: readonly CloudFinding[]) {
    this.left = findings.filter((f) => f.severity === 'error');
  }

  /** The errors at `paths`, in that order. */
  at(...paths: readonly string[]): ValidationIssue[] {
    const taken = paths.flatMap((p) => this.left.filter((f) => f.path === p));
    this.left = this.left.filter((f) => !taken.includes(f));
    return taken.map(refusal);
  }

  /** The errors no `at` took. */
  rest(): ValidationIssue[] {
    const left = this.left;
    this.left = [];
    return left.map(refusal);
  }
}

function refusal({ ruleId, messageId, path, message, fix }: CloudFinding): ValidationIssue {
  return {
    path,
    message,
    ...(fix !== undefined ? { fix } : {}),
    ruleId,
    ...(messageId !== undefined ? { messageId } : {}),
  };
}

export { componentWarnings, findingWarnings } from './finding-warnings';

/** One line for `pulumi.log.warn`: `[rule-id] path: message Fix: fix` (no `path: ` for pool-wide warnings). */
export function formatWarning(warning: NodePoolWarning): string {
  const where = warning.path === undefined ? '' : `${warning.path}: `;
  return `[${warning.ruleId}] ${where}${warning.message}${warning.fix ? ` Fix: ${warning.fix}` : ''}`;
}

/**
 * Reports soft problems through the findings sink (`cloudFindingSink`: programs and tests read them there, as data)
 * and prints each for users with `pulumi.log.warn`, rule id first so they can find and suppress it.
 */
export function logWarnings(
  warnings: readonly NodePoolWarning[],
  resource?: pulumi.Resource,
  resourceName?: string,
): void {
  for (const w of warnings) {
    cloudFindingSink.report({
      ruleId: w.ruleId,
      ...(w.messageId !== undefined ? { messageId: w.messageId } : {}),
      severity: 'warning',
      path: w.path ?? '',
      message: w.message,
      ...(w.fix !== undefined ? { fix: w.fix } : {}),
      ...(resourceName !== undefined ? { resource: resourceName } : {}),
    });
    void pulumi.log.warn(formatWarning(w), resource);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Rules the clouds share
// ---------------------------------------------------------------------------------------------------------------

/**
 * The gates of `cloud` on a pool component's release and the Kubernetes version it runs, as refusals of its args:
 * the cloud's release rule (eks-windows-kubernetes-version, aks-windows-release) judges them, through the rule
 * runner, at construction or once an Output version is known.
 */
export function releaseGateRefusals(
  cloud: PoolComponentCloud,
  release: WindowsRelease,
  kubernetesVersion: ComponentVersion,
  date?: string,
): ValidationIssue[] {
  const findings =
    cloud === 'eks'
      ? runCloudRules({ kind: 'eks-version-component', props: { release, kubernetesVersion } }, { date })
      : runCloudRules({ kind: 'aks-pool-component', props: { release, kubernetesVersion } }, { date });
  return new ComponentRefusals(findings).rest();
}

/** The clouds whose pool components gate a release on a version known only later. */
export type PoolComponentCloud = Extract<Cloud, 'eks' | 'aks'>;

/**
 * `value`, held back until the pool's Kubernetes version is known when that version is eventual (an Output such as
 * a cluster's `version`): then the same gates as at construction run on it (`releaseGateRefusals`), and a refusal
 * fails the deployment with one `InputPropertiesError` naming `path`. A plain or absent version returns `value`
 * unchanged (those were checked at construction). Wire the result into an input the resource always has.
 */
export function gatedOnEventualVersion<T>(
  subject: string,
  cloud: PoolComponentCloud,
  release: WindowsRelease,
  version: unknown,
  path: string,
  value: T,
  options: GateOptions & {
    /** The release was not given but defaulted: the fix then says to set it. */
    readonly releaseDefaulted?: boolean;
  } = {},
): pulumi.Input<T> {
  if (!isEventual(version)) return value;
  return pulumi.output(version as pulumi.Input<string>).apply((known) => {
    const knownVersion = {
      value: known,
      path,
      ...(options.releasePath !== undefined ? { releasePath: options.releasePath } : {}),
    };
    const issues = releaseGateRefusals(cloud, release, knownVersion, options.date).map((i) =>
      options.releaseDefaulted === true
        ? {
            ...i,
            message: `The release defaulted to '${release}' (the version was not known at construction). ${i.message}`,
          }
        : i,
    );
    throwInputErrors(subject, issues);
    return value;
  });
}

function describe(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}
