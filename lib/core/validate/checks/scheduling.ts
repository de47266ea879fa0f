/**
 * Scheduling rules (https://kubernetes.io/docs/concepts/windows/user-guide/): Windows pods must select and tolerate Windows nodes; Linux pods in a hybrid
 * set must select Linux nodes; wildcard tolerations swallow the Windows taint; RuntimeClasses must use the
 * Windows handlers and pin the release their name says.
 */
import { BETA_OS_LABEL, OS_LABEL, WINDOWS_BUILD_LABEL, type Toleration } from '../../kube';
import {
  isWindowsRuntimeHandler,
  releaseForBuild,
  releaseInfo,
  retiredRelease,
  WINDOWS_RELEASES,
  WINDOWS_RUNTIME_HANDLERS,
  type WindowsRelease,
} from '../../releases';
import { GKE_WINDOWS_TAINT, tolerationFor, tolerates, WINDOWS_TAINT, type Taint } from '../../target';
import type { FixEdit, FixerTable, FixInput, TargetFixerTable } from '../fixes';
import { ISOLATION_ANNOTATION, type PodFacts } from '../pod';
import type { Report } from '../report';
import type { ValidateOptions } from '../types';
import { has, join, key, rec, show, str, stringMap, type Rec } from '../util';

function asToleration(t: Rec): Toleration {
  const out: Toleration = {};
  if (typeof t.key === 'string') out.key = t.key;
  if (typeof t.operator === 'string') out.operator = t.operator;
  if (typeof t.value === 'string') out.value = t.value;
  if (typeof t.effect === 'string') out.effect = t.effect;
  return out;
}

function taintText(t: Taint): string {
  return `${t.key}${t.value !== undefined ? `=${t.value}` : ''}:${t.effect}`;
}

/** Whether the pod has an OS constraint the scheduler honours (nodeSelector, its RuntimeClass's, or affinity). */
function selectsOs(p: PodFacts, os: string): boolean {
  return p.osBySelector === os || p.osByAffinity === os;
}

export function checkWindowsScheduling(p: PodFacts, options: ValidateOptions, report: Report): void {
  if (!p.windows) return;
  // A RuntimeClass outside the set may carry the selector and tolerations: only what the pod itself says is judged.
  const unknownRuntimeClass = p.runtimeClassName !== undefined && p.runtimeClass === undefined;
  const selectorPath = join(p.path, 'nodeSelector');
  const affinityPath = join(p.path, 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution');
  if (p.osAllowedByAffinity !== undefined && !p.osAllowedByAffinity.has('windows')) {
    const allowed = [...p.osAllowedByAffinity];
    report(
      'windows-node-selector-missing',
      affinityPath,
      `This pod is Windows (${p.evidence}) but its required node affinity allows ${allowed.length > 0 ? `only ${OS_LABEL} ${allowed.join(', ')}` : `no ${OS_LABEL} value`}: it can never be scheduled on a Windows node.`,
      `Make the affinity require ${OS_LABEL} In [windows], or remove the OS term and keep nodeSelector { ${OS_LABEL}: windows }.`,
    );
  } else if ((p.osBySelector !== undefined && p.osBySelector !== 'windows') || !selectsOs(p, 'windows')) {
    if (unknownRuntimeClass && p.osBySelector === undefined) return;
    // A pool label (agentpool: npwin) may select only Windows nodes: then the pod schedules, and only EKS's
    // VPC resource controller still needs the OS selector.
    const byPool = p.osBySelector === undefined && p.poolSelector !== undefined;
    report(
      'windows-node-selector-missing',
      selectorPath,
      p.osBySelector !== undefined
        ? `This pod is Windows (${p.evidence}) but selects ${p.osSelectorLabel ?? OS_LABEL}=${p.osBySelector} nodes, where it cannot run.`
        : byPool
          ? `This pod is Windows (${p.evidence}) and selects nodes by ${p.poolSelector} but not by ${OS_LABEL}: unless that label selects only Windows nodes it can land on a Linux node.`
          : `This pod is Windows (${p.evidence}) but does not select ${OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.`,
      `Add nodeSelector { ${OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).`,
      byPool ? (options.cloud === 'eks' ? 'warning' : 'info') : undefined,
    );
  } else if (p.osBySelector === undefined && !unknownRuntimeClass) {
    const eks = options.cloud === 'eks';
    report(
      'windows-node-selector-affinity-only',
      selectorPath,
      `This Windows pod selects Windows nodes by node affinity only; ${eks ? 'on EKS' : 'on EKS (if this cluster is one)'} the VPC resource controller reads the ${OS_LABEL} nodeSelector to give Windows pods an IP.`,
      `Add nodeSelector { ${OS_LABEL}: windows } as well.`,
      eks ? 'warning' : undefined,
    );
  }
  if (p.osSelectorLabel === BETA_OS_LABEL && p.osBySelector === 'windows') {
    report(
      'windows-beta-os-label',
      join(selectorPath, key(BETA_OS_LABEL)),
      `This pod selects Windows nodes by the deprecated ${BETA_OS_LABEL} label; the kubelet still sets it, so it schedules.`,
      `Select ${OS_LABEL}: windows instead (keeping the beta label beside it is harmless).`,
    );
  }
  if (p.retiredPin !== undefined && !p.retiredPin.path.endsWith('runtimeClassName')) {
    const r = p.retiredPin.release;
    report(
      'windows-build-retired',
      p.retiredPin.path,
      `This pod pins ${p.retiredPin.via}, ${r.displayName}, which no supported node runs: no node carries this label, so the pod stays Pending.`,
      `Pin a supported build: ${WINDOWS_RELEASES.map((rel) => `'${releaseInfo(rel).build}' (${releaseInfo(rel).displayName})`).join(', ')}, with images of the same release.`,
    );
  }
  if (has(p.annotations, ISOLATION_ANNOTATION)) {
    const path =
      p.kind === 'Pod' ? 'metadata.annotations' : join(p.path.replace(/\.spec$/, ''), 'metadata.annotations');
    report(
      'windows-isolation-annotation',
      join(path, key(ISOLATION_ANNOTATION)),
      `The ${ISOLATION_ANNOTATION}: ${show(p.annotations[ISOLATION_ANNOTATION])} annotation was read only by dockershim; containerd ignores it and runs the pod process-isolated.`,
      `Remove the annotation and name a RuntimeClass whose handler is '${WINDOWS_RUNTIME_HANDLERS.hyperv}' (experimental upstream).`,
    );
  }
  checkTolerations(p, unknownRuntimeClass, options, report);
}

function checkTolerations(p: PodFacts, unknownRuntimeClass: boolean, options: ValidateOptions, report: Report): void {
  if (unknownRuntimeClass) return;
  const tolerated = p.tolerations.some(
    ({ t }) => tolerates(asToleration(t), WINDOWS_TAINT) || tolerates(asToleration(t), GKE_WINDOWS_TAINT),
  );
  if (tolerated) return;
  const gke = options.cloud === 'gke';
  const taint = gke ? GKE_WINDOWS_TAINT : WINDOWS_TAINT;
  report(
    'windows-toleration-missing',
    join(p.path, 'tolerations'),
    gke
      ? `This Windows pod does not tolerate ${taintText(GKE_WINDOWS_TAINT)}, which GKE puts on Windows Server nodes: it stays Pending.`
      : `This Windows pod tolerates no Windows node taint (${taintText(WINDOWS_TAINT)} by convention): on nodes tainted so it stays Pending. AKS and EKS add no taint by default.`,
    `Add toleration { key: ${taint.key}, operator: Equal, value: ${taint.value}, effect: ${taint.effect} } (or the taints your node pool really sets).`,
    gke ? 'warning' : undefined,
  );
}

/**
 * A toleration with `operator: Exists` and no key tolerates every taint. Pods that select their OS by nodeSelector
 * or affinity are exempt (typically node-agent DaemonSets): the selector, not the taint, keeps them on their OS.
 */
export function checkWildcardTolerations(p: PodFacts, hybrid: boolean, report: Report): void {
  if (p.osBySelector !== undefined || p.osByAffinity !== undefined) return;
  // A Linux pod can only land on the other OS where Windows nodes exist: judge it beside Windows pods only.
  if (!p.windows && !hybrid) return;
  for (const { t, path } of p.tolerations) {
    if (path.endsWith('runtimeClassName')) continue;
    if (t.operator === 'Exists' && (t.key === undefined || t.key === null || t.key === '')) {
      report(
        'wildcard-toleration',
        path,
        `${path} tolerates every taint (operator: Exists without a key), including the Windows taint, and the pod selects no ${OS_LABEL}: it can land on nodes of the other OS.`,
        `Tolerate specific taints, or add nodeSelector { ${OS_LABEL}: ${p.windows ? 'windows' : 'linux'} }.`,
      );
    }
  }
}

/** Linux (or OS-less) pods beside Windows pods: never one with a Windows sign (an image, windowsOptions...). */
export function checkLinuxPinned(p: PodFacts, report: Report): void {
  if (p.windows || p.windowsHint !== undefined || selectsOs(p, 'linux')) return;
  if (p.osAllowedByAffinity !== undefined && !p.osAllowedByAffinity.has('windows')) return;
  // A pool or role label (control-plane nodes, agentpool: system) usually selects Linux nodes only: advice.
  const byPool = p.poolSelector !== undefined;
  report(
    'linux-node-selector-missing',
    join(p.path, 'nodeSelector'),
    byPool
      ? `This Linux pod selects nodes by ${p.poolSelector} but not by ${OS_LABEL}: unless that label selects only Linux nodes it can land on a Windows node beside the Windows workloads of this file.`
      : `This Linux pod has no ${OS_LABEL}: linux nodeSelector beside Windows workloads in the same file: on an untainted Windows node (the AKS and EKS default) it can land there and never start.`,
    `Add nodeSelector { ${OS_LABEL}: linux } (pinLinuxWorkloads(scope) does it for a whole cdk8s app).`,
    byPool ? 'info' : undefined,
  );
}

const NAME_RELEASE = new RegExp(
  `(?:^|[-_.])(?:ltsc|ws|win|windows)?-?(${WINDOWS_RELEASES.join('|')}|1809)(?:$|[-_.])`,
  'i',
);

/** The release a RuntimeClass name says (`windows-2019`, `ltsc2022`, `win-1809`). */
function releaseInName(name: string): WindowsRelease | undefined {
  const m = NAME_RELEASE.exec(name);
  if (!m) return undefined;
  return m[1] === '1809' ? '2019' : (m[1] as WindowsRelease);
}

/** RuntimeClass objects: Windows handlers and a name that matches the pinned build. */
export function checkRuntimeClass(obj: Rec, report: Report): void {
  const name = str(rec(obj, 'metadata'), 'name') ?? '';
  const handler = obj.handler;
  const selector = stringMap(rec(obj, 'scheduling'), 'nodeSelector');
  const windows = selector[OS_LABEL] === 'windows' || isWindowsRuntimeHandler(handler);
  const handlers = Object.values(WINDOWS_RUNTIME_HANDLERS);
  if (windows && (typeof handler !== 'string' || !handlers.some((h) => handler.startsWith(h)))) {
    report(
      'runtimeclass-handler',
      'handler',
      `handler ${show(handler)} is not a containerd Windows handler: pods of RuntimeClass '${name}' fail to create their sandbox.`,
      `Use handler '${WINDOWS_RUNTIME_HANDLERS.process}' (process isolation) or '${WINDOWS_RUNTIME_HANDLERS.hyperv}' (Hyper-V isolation, experimental upstream).`,
    );
  }
  const build = selector[WINDOWS_BUILD_LABEL];
  const retired = build !== undefined && /^\d+\.\d+\.\d+/.test(build) ? retiredRelease(build) : undefined;
  if (retired) {
    report(
      'windows-build-retired',
      join('scheduling.nodeSelector', key(WINDOWS_BUILD_LABEL)),
      `RuntimeClass '${name}' pins ${WINDOWS_BUILD_LABEL}=${build}, ${retired.displayName}, which no supported node runs: every pod of this class stays Pending.`,
      `Pin a supported build: ${WINDOWS_RELEASES.map((rel) => `'${releaseInfo(rel).build}' (${releaseInfo(rel).displayName})`).join(', ')}.`,
    );
    return;
  }
  const named = releaseInName(name);
  if (build === undefined || named === undefined) return;
  const pinned = releaseForBuild(build);
  if (pinned === named) return;
  const path = join('scheduling.nodeSelector', key(WINDOWS_BUILD_LABEL));
  report(
    'runtimeclass-release-mismatch',
    path,
    `RuntimeClass '${name}' says Windows Server ${named} but pins ${WINDOWS_BUILD_LABEL}=${build}${pinned ? ` (${releaseInfo(pinned).displayName})` : ''}: pods choosing it by name land on other nodes than their images need.`,
    `Pin ${WINDOWS_BUILD_LABEL}: '${releaseInfo(named).build}' for ${releaseInfo(named).displayName}${pinned ? `, or rename the RuntimeClass to 'windows-${pinned}'` : ''}.`,
  );
}

/** The edit that adds `kubernetes.io/os: <os>` to a pod's nodeSelector. */
function selectOs(p: PodFacts, os: string): FixEdit {
  return { op: 'set', path: join(p.path, 'nodeSelector', key(OS_LABEL)), value: os };
}

/**
 * Tolerations for the target's taints that the pod (or its RuntimeClass) does not tolerate yet. Without known
 * taints nothing is added: AKS and EKS do not taint Windows nodes by default, so a guess could only be wrong.
 */
export function targetTolerations({ pod, target }: Pick<FixInput, 'pod' | 'target'>): FixEdit[] {
  const path = join(pod.path, 'tolerations');
  return target.taints
    .filter((taint) => !pod.tolerations.some(({ t }) => tolerates(asToleration(t), taint)))
    .map((taint) => ({ op: 'append', path, value: tolerationFor(taint) }));
}

/**
 * Scheduling fixes. The OS selector is added only where the pod selects no OS at all (a contradicting selector
 * or affinity is the user's to settle); Linux pods are pinned only when `pinLinux` is asked for.
 */
export const SCHEDULING_FIXES: FixerTable = {
  'windows-node-selector-missing': ({ pod }) =>
    pod.osBySelector === undefined && (pod.osByAffinity === undefined || pod.osByAffinity === 'windows')
      ? [selectOs(pod, 'windows')]
      : [],
  'windows-node-selector-affinity-only': ({ pod }) =>
    pod.osBySelector === undefined ? [selectOs(pod, 'windows')] : [],
  'windows-toleration-missing': targetTolerations,
  // The GA label beside the deprecated one (which stays: removing a field the user wrote is not certain).
  'windows-beta-os-label': ({ pod }) =>
    stringMap(pod.spec, 'nodeSelector')[OS_LABEL] === undefined ? [selectOs(pod, 'windows')] : [],
  'linux-node-selector-missing': ({ pod, target }) =>
    target.pinLinux && pod.osBySelector === undefined && pod.osByAffinity === undefined ? [selectOs(pod, 'linux')] : [],
};

/** The target's taints are given by the user: every Windows pod tolerates them, whether or not a rule asked. */
export const SCHEDULING_TARGET_FIXES: TargetFixerTable = {
  'windows-toleration-missing': targetTolerations,
};
