/**
 * Resolves a workload's `windows` props block once, at construction: the node target (from `target`,
 * `runtimeClass` or `release`/`isolation`) and the options every render passes to the core's `toWindowsPodSpec`.
 */
import { IssueCollector, WindowsValidationError } from '../core/errors';
import { DEFAULT_WINDOWS_RELEASE, type WindowsIsolation, type WindowsRelease } from '../core/releases';
import { windowsNodeTarget, type WindowsNodeTarget } from '../core/target';
import type { ToWindowsPodSpecOptions } from '../core/pod-spec';
import type { WindowsProps } from './windows-props';
import { inFrontDoorWords } from '../core/rules/front-door';

/** The options every render of one workload shares, resolved once at construction. */
export type ResolvedWindowsOptions = Omit<ToWindowsPodSpecOptions, 'pathPrefix' | 'onWarning'> & {
  readonly target: WindowsNodeTarget;
};

const WINDOWS_PROP_NAMES = new Set(['release', 'isolation', 'runAsUserName', 'gmsa', 'securityProfile']);

/** Core issues name options by their bare name; on a construct they are props of its `windows` block. */
function propPath(path: string): string {
  return WINDOWS_PROP_NAMES.has(path) ? `windows.${path}` : path;
}

/** Adds the issues of a core `WindowsValidationError` to `issues`; rethrows anything else. */
export function mergeCoreError(err: unknown, issues: IssueCollector): void {
  if (!(err instanceof WindowsValidationError)) throw err;
  for (const issue of err.issues) {
    const i = inFrontDoorWords(issue, 'cdk8s');
    issues.add(propPath(i.path), i.message, i.fix, i.ruleId);
  }
}

/** Default targets, one per release and isolation: workloads share them instead of building one each. */
const DEFAULT_TARGETS = new Map<string, WindowsNodeTarget>();

function defaultTarget(release: WindowsRelease, isolation: WindowsIsolation | undefined): WindowsNodeTarget {
  const key = `${release}/${isolation ?? ''}`;
  let target = DEFAULT_TARGETS.get(key);
  if (!target) {
    target = windowsNodeTarget({ release, ...(isolation !== undefined ? { isolation } : {}) });
    DEFAULT_TARGETS.set(key, target);
  }
  return target;
}

/**
 * Resolves the `windows` block: the node target (from `target`, `runtimeClass` or `release`/`isolation`) and the
 * options for `toWindowsPodSpec`. Problems go to `issues`.
 */
export function resolveWindowsProps(
  windows: WindowsProps,
  gmsaCredentialSpecName: string | undefined,
  issues: IssueCollector,
): ResolvedWindowsOptions {
  const hostProcess = windows.hostProcess ?? false;
  const securityProfile = windows.securityProfile ?? 'baseline';
  if (securityProfile !== 'baseline' && securityProfile !== 'restricted') {
    issues.add(
      'windows.securityProfile',
      `Security profile ${JSON.stringify(securityProfile)} is not known.`,
      "Use 'baseline' or 'restricted'.",
    );
  }
  if (windows.runtimeClass && windows.target) {
    issues.add(
      'windows.runtimeClass',
      `Both runtimeClass '${windows.runtimeClass.name}' and target are set.`,
      'Pass one: a RuntimeClass carries its own target.',
    );
  }
  const given = windows.runtimeClass?.nodeTarget ?? windows.target;
  let target: WindowsNodeTarget;
  if (given) {
    const source = windows.runtimeClass ? `RuntimeClass '${windows.runtimeClass.name}'` : 'target';
    if (windows.release !== undefined && windows.release !== given.release) {
      issues.add(
        'windows.release',
        `release '${windows.release}' disagrees with the ${source}, which ${given.release === undefined ? 'is not pinned to a release' : `runs Windows Server ${given.release}`}.`,
        `Remove release: the ${source} decides it.`,
      );
    }
    if (windows.isolation !== undefined && windows.isolation !== given.isolation) {
      issues.add(
        'windows.isolation',
        `isolation '${windows.isolation}' disagrees with the ${source}'s '${given.isolation}'.`,
        `Remove isolation: the ${source} decides it.`,
      );
    }
    target = given;
  } else {
    try {
      target = defaultTarget(windows.release ?? DEFAULT_WINDOWS_RELEASE, windows.isolation);
    } catch (err) {
      mergeCoreError(err, issues);
      target = defaultTarget(DEFAULT_WINDOWS_RELEASE, undefined);
    }
  }
  if (target.isolation === 'hyperv' && hostProcess) {
    issues.add(
      'windows.isolation',
      'HostProcess containers run on the host and cannot be Hyper-V isolated.',
      "Remove isolation, or use a 'process' target.",
    );
  } else if (target.isolation === 'hyperv' && target.runtimeClassName === undefined) {
    issues.add(
      'windows.isolation',
      'Hyper-V isolation is chosen by a RuntimeClass with the runhcs-wcow-hypervisor handler; without one the pod runs process-isolated.',
      "Pass runtimeClass: new WindowsRuntimeClass(scope, 'HyperV', { isolation: 'hyperv' }).",
    );
  }
  return {
    target,
    hostProcess,
    securityProfile,
    ...(windows.runAsUserName !== undefined ? { runAsUserName: windows.runAsUserName } : {}),
    ...(gmsaCredentialSpecName !== undefined ? { gmsaCredentialSpecName } : {}),
  };
}

let defaultOptions: ResolvedWindowsOptions | undefined;

/** The options of a workload without a `windows` block (most of them): resolved once, shared. */
export function defaultWindowsOptions(): ResolvedWindowsOptions {
  return (defaultOptions ??= resolveWindowsProps({}, undefined, new IssueCollector()));
}
