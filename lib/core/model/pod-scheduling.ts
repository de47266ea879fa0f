/**
 * How a pod selects and tolerates nodes, as the scheduling rules read it: the OS it selects, whether it tolerates
 * a taint, and the edits that pin it (https://kubernetes.io/docs/concepts/windows/user-guide/).
 */
import { OS_LABEL, type Toleration } from '../kube';
import { releaseInfo, WINDOWS_RELEASES } from '../releases';
import { tolerates, tolerationFor, type Taint } from '../target';
import type { FixEdit, FixInput } from './fixes';
import type { PodFacts } from './pod';
import { join, key, type Rec } from './util';

/** A toleration of the manifest as the scheduler reads it (fields of other types ignored). */
export function asToleration(t: Rec): Toleration {
  const out: Toleration = {};
  if (typeof t.key === 'string') out.key = t.key;
  if (typeof t.operator === 'string') out.operator = t.operator;
  if (typeof t.value === 'string') out.value = t.value;
  if (typeof t.effect === 'string') out.effect = t.effect;
  return out;
}

/** A taint as `kubectl taint` writes it: `os=windows:NoSchedule`. */
export function taintText(t: Taint): string {
  return `${t.key}${t.value !== undefined ? `=${t.value}` : ''}:${t.effect}`;
}

/** Whether the pod tolerates `taint` (its own tolerations or its RuntimeClass's). */
export function toleratesTaint(p: PodFacts, taint: Taint): boolean {
  return p.tolerations.some(({ t }) => tolerates(asToleration(t), taint));
}

/** Whether the pod has an OS constraint the scheduler honours (nodeSelector, its RuntimeClass's, or affinity). */
export function selectsOs(p: PodFacts, os: string): boolean {
  return p.osBySelector === os || p.osByAffinity === os;
}

/** Whether the pod's required node affinity rules out Windows nodes. */
export function affinityExcludesWindows(p: PodFacts): boolean {
  return p.osAllowedByAffinity !== undefined && !p.osAllowedByAffinity.has('windows');
}

/**
 * A pod naming a RuntimeClass outside the input: the RuntimeClass may carry the selector and tolerations, so only
 * what the pod itself says is judged.
 */
export function unknownRuntimeClass(p: PodFacts): boolean {
  return p.runtimeClassName !== undefined && p.runtimeClass === undefined;
}

/** The edit that adds `kubernetes.io/os: <os>` to a pod's nodeSelector. */
export function selectOs(p: PodFacts, os: string): FixEdit {
  return { op: 'set', path: join(p.path, 'nodeSelector', key(OS_LABEL)), value: os };
}

/**
 * Tolerations for the target's taints that the pod (or its RuntimeClass) does not tolerate yet. Without known
 * taints nothing is added: AKS and EKS do not taint Windows nodes by default, so a guess could only be wrong.
 */
export function targetTolerations({ pod, target }: Pick<FixInput, 'pod' | 'target'>): FixEdit[] {
  const path = join(pod.path, 'tolerations');
  return target.taints
    .filter((taint) => !toleratesTaint(pod, taint))
    .map((taint) => ({ op: 'append', path, value: tolerationFor(taint) }));
}

/** The supported builds, for the fix hint of a retired pin. */
export function supportedBuilds(): string {
  return WINDOWS_RELEASES.map((rel) => `'${releaseInfo(rel).build}' (${releaseInfo(rel).displayName})`).join(', ');
}
