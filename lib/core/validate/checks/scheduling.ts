/**
 * Scheduling rules (reference §2): Windows pods must select and tolerate Windows nodes; Linux pods in a hybrid
 * set must select Linux nodes; wildcard tolerations swallow the Windows taint; RuntimeClasses must use the
 * Windows handlers and pin the release their name says.
 */
import { OS_LABEL, WINDOWS_BUILD_LABEL, type Toleration } from '../../kube';
import {
  isWindowsRuntimeHandler,
  releaseForBuild,
  releaseInfo,
  WINDOWS_RELEASES,
  WINDOWS_RUNTIME_HANDLERS,
  type WindowsRelease,
} from '../../releases';
import { GKE_WINDOWS_TAINT, tolerationFor, tolerates, WINDOWS_TAINT, type Taint } from '../../target';
import type { FixEdit, FixerTable, FixInput } from '../fixes';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { join, key, rec, show, str, stringMap, type Rec } from '../util';

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

export function checkWindowsScheduling(p: PodFacts, report: Report): void {
  if (!p.windows) return;
  // A RuntimeClass outside the set may carry the selector and tolerations: only what the pod itself says is judged.
  const unknownRuntimeClass = p.runtimeClassName !== undefined && p.runtimeClass === undefined;
  const selectorPath = join(p.path, 'nodeSelector');
  if (!selectsOs(p, 'windows')) {
    if (unknownRuntimeClass && p.osBySelector === undefined) return;
    report(
      'windows-node-selector-missing',
      selectorPath,
      p.osBySelector !== undefined
        ? `This pod is Windows (${p.evidence}) but selects ${OS_LABEL}=${p.osBySelector} nodes, where it cannot run.`
        : `This pod is Windows (${p.evidence}) but does not select ${OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.`,
      `Add nodeSelector { ${OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).`,
    );
  } else if (p.osBySelector === undefined && !unknownRuntimeClass) {
    report(
      'windows-node-selector-affinity-only',
      selectorPath,
      `This Windows pod selects Windows nodes by node affinity only; the EKS VPC resource controller reads the ${OS_LABEL} nodeSelector to give Windows pods an IP.`,
      `Add nodeSelector { ${OS_LABEL}: windows } as well.`,
    );
  }
  checkTolerations(p, unknownRuntimeClass, report);
}

function checkTolerations(p: PodFacts, unknownRuntimeClass: boolean, report: Report): void {
  if (unknownRuntimeClass) return;
  const tolerated = p.tolerations.some(
    ({ t }) => tolerates(asToleration(t), WINDOWS_TAINT) || tolerates(asToleration(t), GKE_WINDOWS_TAINT),
  );
  if (!tolerated) {
    report(
      'windows-toleration-missing',
      join(p.path, 'tolerations'),
      `This Windows pod does not tolerate the Windows node taint ${taintText(WINDOWS_TAINT)}: on tainted Windows nodes it stays Pending.`,
      `Add toleration { key: ${WINDOWS_TAINT.key}, operator: Equal, value: ${WINDOWS_TAINT.value}, effect: ${WINDOWS_TAINT.effect} } (or the taints your node pool really sets).`,
    );
  }
}

/**
 * A toleration with `operator: Exists` and no key tolerates every taint. Pods that select their OS by nodeSelector
 * or affinity are exempt (typically node-agent DaemonSets): the selector, not the taint, keeps them on their OS.
 */
export function checkWildcardTolerations(p: PodFacts, report: Report): void {
  if (p.osBySelector !== undefined || p.osByAffinity !== undefined) return;
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

/** Linux (or OS-less) pods in a set that has Windows pods. */
export function checkLinuxPinned(p: PodFacts, report: Report): void {
  if (p.windows || selectsOs(p, 'linux')) return;
  report(
    'linux-node-selector-missing',
    join(p.path, 'nodeSelector'),
    `This Linux pod has no ${OS_LABEL}: linux nodeSelector in a set with Windows workloads: it can land on an untainted Windows node and sit in ImagePullBackOff.`,
    `Add nodeSelector { ${OS_LABEL}: linux } (pinLinuxWorkloads(scope) does it for a whole cdk8s app).`,
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
  'linux-node-selector-missing': ({ pod, target }) =>
    target.pinLinux && pod.osBySelector === undefined && pod.osByAffinity === undefined ? [selectOs(pod, 'linux')] : [],
};
