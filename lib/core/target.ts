/**
 * The scheduling contract between Windows node pools and the workloads that run on them. Node pools produce a
 * `WindowsNodeTarget` from the labels and taints they really apply; workloads consume it, so a pool's taints and
 * a workload's tolerations cannot drift apart.
 */
import { IssueCollector } from './errors';
import { GKE_WINDOWS_TAINT_FACT, WINDOWS_TAINT_FACT } from './facts/kubernetes';
import { OS_LABEL, WINDOWS_BUILD_LABEL, type Toleration } from './kube';
import {
  DEFAULT_WINDOWS_RELEASE,
  parseWindowsRelease,
  releaseInfo,
  type WindowsIsolation,
  type WindowsRelease,
} from './releases';

/** Kubernetes taint effects, in the Kubernetes API spelling (clouds convert: EKS/GKE `NO_SCHEDULE`). */
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

/** The taint Windows nodes carry by convention (lib/core/facts/kubernetes.ts, from upstream's user guide). */
export const WINDOWS_TAINT: Taint = {
  key: WINDOWS_TAINT_FACT.key,
  ...(WINDOWS_TAINT_FACT.value !== undefined ? { value: WINDOWS_TAINT_FACT.value } : {}),
  effect: WINDOWS_TAINT_FACT.effect,
};

/**
 * A taint written as code, for messages: `{ key: 'os', value: 'windows', effect: 'NoSchedule' }`. `effect`
 * overrides the spelling of the effect (`NO_SCHEDULE` where EKS and GKE take their own).
 */
export function taintLiteral(taint: Taint, effect: string = taint.effect): string {
  const value = taint.value === undefined ? '' : `, value: '${taint.value}'`;
  return `{ key: '${taint.key}'${value}, effect: '${effect}' }`;
}

/**
 * The taint GKE is said to put on Windows nodes itself (unverified: lib/core/facts/kubernetes.ts): tolerated when
 * the pool's taints are unknown, never required.
 */
export const GKE_WINDOWS_TAINT: Taint = {
  key: GKE_WINDOWS_TAINT_FACT.key,
  ...(GKE_WINDOWS_TAINT_FACT.value !== undefined ? { value: GKE_WINDOWS_TAINT_FACT.value } : {}),
  effect: GKE_WINDOWS_TAINT_FACT.effect,
};

export interface WindowsNodeTarget {
  /** The Windows release the nodes run, when pinned. Unpinned targets accept any Windows node. */
  readonly release?: WindowsRelease;
  readonly isolation: WindowsIsolation;
  /** Labels the nodes carry that pods select on (always includes `kubernetes.io/os: windows`). */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints the nodes carry; workloads tolerate exactly these. */
  readonly taints: readonly Taint[];
  /** A RuntimeClass that carries this target's scheduling, when one exists. */
  readonly runtimeClassName?: string;
}

export interface WindowsNodeTargetOptions {
  /**
   * Pin the target to a Windows Server release: adds the `node.kubernetes.io/windows-build` label.
   * @default - not pinned: any Windows node
   */
  readonly release?: WindowsRelease;
  /**
   * Container isolation. Hyper-V isolation is experimental upstream; opt in knowingly.
   * @default 'process'
   */
  readonly isolation?: WindowsIsolation;
  /**
   * Extra node labels to select on (a pool name, an instance family).
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * The taints the Windows nodes carry.
   * @default [WINDOWS_TAINT] (`os=windows:NoSchedule`)
   */
  readonly taints?: readonly Taint[];
  /**
   * A RuntimeClass that carries this target's scheduling.
   * @default - none
   */
  readonly runtimeClassName?: string;
}

const DEFAULT_ISOLATION: WindowsIsolation = 'process';

/** Builds a target with defaults, validating every option. Throws `WindowsValidationError` on bad input. */
export function windowsNodeTarget(options: WindowsNodeTargetOptions = {}): WindowsNodeTarget {
  const issues = new IssueCollector();
  if (options.release !== undefined) {
    const parsed = parseWindowsRelease(options.release);
    if (!parsed.ok) issues.add('release', parsed.message, parsed.fix);
  }
  const isolation = options.isolation ?? DEFAULT_ISOLATION;
  if (isolation !== 'process' && isolation !== 'hyperv') {
    issues.add('isolation', `Isolation ${JSON.stringify(isolation)} is not known.`, "Use 'process' or 'hyperv'.");
  }
  const taints = options.taints ?? [WINDOWS_TAINT];
  taints.forEach((t, i) => {
    if (!t || typeof t.key !== 'string' || t.key === '') {
      issues.add(`taints[${i}].key`, 'A taint needs a non-empty key.', `Write e.g. ${taintLiteral(WINDOWS_TAINT)}.`);
    }
    if (!TAINT_EFFECTS.includes(t?.effect)) {
      issues.add(
        `taints[${i}].effect`,
        `Taint effect ${JSON.stringify(t?.effect)} is not a Kubernetes effect.`,
        `Use one of ${TAINT_EFFECTS.join(', ')} (the Kubernetes spelling; cloud spellings are converted for you).`,
      );
    }
  });
  const labels: Record<string, string> = { ...options.labels };
  if (labels[OS_LABEL] !== undefined && labels[OS_LABEL] !== 'windows') {
    issues.add(
      `labels["${OS_LABEL}"]`,
      `Label ${OS_LABEL}=${labels[OS_LABEL]} contradicts a Windows target.`,
      'Remove it: Windows targets always select kubernetes.io/os=windows.',
    );
  }
  issues.throwIfAny('windowsNodeTarget');

  labels[OS_LABEL] = 'windows';
  if (options.release !== undefined) labels[WINDOWS_BUILD_LABEL] = releaseInfo(options.release).build;
  return {
    ...(options.release !== undefined ? { release: options.release } : {}),
    isolation,
    labels,
    taints: taints.map((t) => ({ ...t })),
    ...(options.runtimeClassName !== undefined ? { runtimeClassName: options.runtimeClassName } : {}),
  };
}

/** The default target for a release: `os=windows:NoSchedule`, process isolation, pinned build. */
export function defaultWindowsTarget(release: WindowsRelease = DEFAULT_WINDOWS_RELEASE): WindowsNodeTarget {
  return windowsNodeTarget({ release });
}

/** The toleration that exactly matches a taint. */
export function tolerationFor(taint: Taint): Toleration {
  return taint.value === undefined
    ? { key: taint.key, operator: 'Exists', effect: taint.effect }
    : { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect };
}

/** Whether a toleration tolerates a taint, with the scheduler's matching rules. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === 'Exists')
    return toleration.key === undefined || toleration.key === '' || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? '') === (taint.value ?? '');
}

export interface Scheduling {
  readonly nodeSelector: Record<string, string>;
  readonly tolerations: Toleration[];
}

/**
 * The nodeSelector and tolerations a pod needs to land on the target's nodes. A nodeSelector (not only
 * affinity) because the EKS VPC resource controller reads it to hand Windows pods an IP.
 */
export function schedulingFor(target: WindowsNodeTarget): Scheduling {
  const nodeSelector: Record<string, string> = { [OS_LABEL]: 'windows', ...target.labels };
  if (target.release !== undefined) nodeSelector[WINDOWS_BUILD_LABEL] = releaseInfo(target.release).build;
  return { nodeSelector, tolerations: target.taints.map(tolerationFor) };
}
