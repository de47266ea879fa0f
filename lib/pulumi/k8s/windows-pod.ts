/**
 * The `windows` block every Pulumi workload takes, and the conversion of a resolved pod spec into a Windows pod
 * spec with the core's `toWindowsPodSpec`, so Pulumi and cdk8s emit the same pod for the same input.
 */
import type * as pulumi from '@pulumi/pulumi';
import { WindowsValidationError, type ValidationIssue } from '../../core/errors';
import type { PodSpec } from '../../core/kube';
import {
  toWindowsPodSpec,
  type OptionWords,
  type WindowsSecurityProfile,
  type WindowsWarning,
} from '../../core/pod-spec';
import type { WindowsIsolation, WindowsRelease } from '../../core/releases';
import type { WindowsNodeTarget } from '../../core/target';
import { throwInputErrors } from '../errors';
import { inFrontDoorWords } from '../../core/rules/front-door';

/** Anything that names a `GMSACredentialSpec`: a `GmsaCredentialSpec` component, or its name. */
export interface GmsaCredentialSpecReference {
  /** The `metadata.name` of the `GMSACredentialSpec` object. */
  readonly credentialSpecName: string;
}

/** How a workload's pods run on Windows. */
export interface WindowsPodArgs {
  /**
   * The Windows nodes to run on: a node pool's `nodeTarget`, a `WindowsRuntimeClass`'s `nodeTarget`, or
   * `windowsNodeTarget(...)`. May be an Output (a pool whose target depends on cloud outputs): the pod spec is then
   * converted and checked inside `apply`, so mistakes surface during `pulumi up` rather than at construction.
   * @default - `windowsNodeTarget({ release, isolation })`: taint `os=windows:NoSchedule`, pinned to `release`
   */
  readonly target?: pulumi.Input<WindowsNodeTarget>;
  /**
   * Windows Server release to pin when no `target` is given. Ignored when `target` is set.
   * @default '2022'
   */
  readonly release?: WindowsRelease;
  /**
   * Container isolation when no `target` is given. Hyper-V isolation is experimental upstream. Ignored when
   * `target` is set.
   * @default 'process'
   */
  readonly isolation?: WindowsIsolation;
  /**
   * Pod-level `securityContext.windowsOptions.runAsUserName`.
   * @default - the image's user; `ContainerUser` under the `restricted` profile; `NT AUTHORITY\Local service` for HostProcess
   */
  readonly runAsUserName?: string;
  /**
   * The gMSA credential spec the pods run as: a `GmsaCredentialSpec` (the workload then depends on it) or its name
   * (which may be an Output, e.g. the `metadata.name` of a `GMSACredentialSpec` made elsewhere).
   * Grant the pods' service account `use` on it with `GmsaCredentialSpec.grantUse`.
   * @default - no gMSA
   */
  readonly gmsa?: pulumi.Input<string> | GmsaCredentialSpecReference;
  /**
   * Run every container as a HostProcess container on the node (sets `hostNetwork: true`). The namespace must
   * admit `privileged` pods.
   * @default false
   */
  readonly hostProcess?: boolean;
  /**
   * `restricted` adds `runAsNonRoot: true` with `runAsUserName: ContainerUser` so the pods meet the `restricted`
   * Pod Security level.
   * @default 'baseline'
   */
  readonly securityProfile?: WindowsSecurityProfile;
  /**
   * Apply the Windows container defaults: `imagePullPolicy: IfNotPresent`, memory request equal to limit, and a
   * startup probe derived from the liveness or readiness probe.
   * @default true
   */
  readonly containerDefaults?: boolean;
}

const SECURITY_PROFILES: readonly WindowsSecurityProfile[] = ['baseline', 'restricted'];

/** The `windows` block once every input in it is known: what the conversion reads. */
export type ResolvedWindowsPodArgs = Omit<WindowsPodArgs, 'gmsa'> & { readonly gmsa?: string };

/** The gMSA credential spec name a `gmsa` arg names (an Output while the name is not known yet). */
export function gmsaName(gmsa: WindowsPodArgs['gmsa']): pulumi.Input<string> | undefined {
  if (typeof gmsa === 'object' && gmsa !== null && 'credentialSpecName' in gmsa) return gmsa.credentialSpecName;
  return gmsa as pulumi.Input<string> | undefined;
}

/** Checks of the `windows` block that the core does not make (it trusts its typed callers). */
export function windowsArgsIssues(windows: ResolvedWindowsPodArgs): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const profile: unknown = windows.securityProfile;
  if (profile !== undefined && !(SECURITY_PROFILES as readonly unknown[]).includes(profile)) {
    issues.push({
      path: 'windows.securityProfile',
      message: `securityProfile ${JSON.stringify(profile)} is not known.`,
      fix: `Use one of ${SECURITY_PROFILES.map((p) => `'${p}'`).join(', ')}.`,
    });
  }
  const hostProcess: unknown = windows.hostProcess;
  if (hostProcess !== undefined && typeof hostProcess !== 'boolean') {
    issues.push({
      path: 'windows.hostProcess',
      message: `hostProcess ${JSON.stringify(hostProcess)} is not a boolean.`,
      fix: 'Write true or false.',
    });
  }
  return issues;
}

export interface ConvertPodSpecOptions {
  /** Where the pod spec sits in the component's args (`spec.template.spec`, `podSpec`): prefixes error paths. */
  readonly pathPrefix: string;
  /** The component, named in errors and warnings. */
  readonly subject: string;
  /** The resolved target (plain by now). */
  readonly target?: WindowsNodeTarget;
  readonly onWarning: (warning: WindowsWarning) => void;
  /**
   * Problems the caller found elsewhere in its args, reported in the same error.
   * @default []
   */
  readonly issues?: readonly ValidationIssue[];
}

/** The options of `toWindowsPodSpec` as the `windows` args of the workload components spell them. */
const PULUMI_OPTION_WORDS: OptionWords = {
  hostProcessOption: 'windows.hostProcess: true',
  runAsUserNameOption: 'windows.runAsUserName',
  gmsaOption: 'windows.gmsa',
  gmsa: 'windows.gmsa',
  hostProcess: 'windows.hostProcess',
};

/**
 * Converts a resolved pod spec for Windows. Throws `pulumi.InputPropertiesError` listing every problem at once:
 * pod-spec problems keep their `pathPrefix` path, option problems are reported under `windows.`.
 */
export function convertPodSpec(
  podSpec: PodSpec,
  windows: ResolvedWindowsPodArgs,
  options: ConvertPodSpecOptions,
): PodSpec {
  const prefix = options.pathPrefix;
  const own = [...(options.issues ?? []), ...windowsArgsIssues(windows)];
  const gmsa = windows.gmsa;
  try {
    const converted = toWindowsPodSpec(podSpec, {
      ...(options.target !== undefined ? { target: options.target } : {}),
      ...(windows.release !== undefined ? { release: windows.release } : {}),
      ...(windows.isolation !== undefined ? { isolation: windows.isolation } : {}),
      ...(windows.runAsUserName !== undefined ? { runAsUserName: windows.runAsUserName } : {}),
      ...(gmsa !== undefined ? { gmsaCredentialSpecName: gmsa } : {}),
      ...(windows.hostProcess !== undefined ? { hostProcess: windows.hostProcess } : {}),
      ...(SECURITY_PROFILES.includes(windows.securityProfile as WindowsSecurityProfile)
        ? { securityProfile: windows.securityProfile }
        : {}),
      ...(windows.containerDefaults !== undefined ? { containerDefaults: windows.containerDefaults } : {}),
      pathPrefix: prefix,
      optionWords: PULUMI_OPTION_WORDS,
      onWarning: (w) => options.onWarning(inFrontDoorWords(w, 'pulumi')),
    });
    throwInputErrors(options.subject, own);
    return converted;
  } catch (e) {
    if (e instanceof WindowsValidationError) {
      const mapped = e.issues.map((i) =>
        inFrontDoorWords(
          i.path === prefix || i.path.startsWith(`${prefix}.`) ? i : { ...i, path: `windows.${i.path}` },
          'pulumi',
        ),
      );
      throwInputErrors(options.subject, [...own, ...mapped]);
    }
    throw e;
  }
}
