/**
 * The `windows` props block every Windows workload construct takes, and the interfaces it names. Kept apart from
 * the constructs so the gMSA and RuntimeClass constructs can implement the interfaces without import cycles.
 */
import type * as kplus from 'cdk8s-plus-28';
import type { WindowsIsolation, WindowsRelease } from '../core/releases';
import type { WindowsNodeTarget } from '../core/target';
import type { WindowsSecurityProfile } from '../core/pod-spec';
import type { ImageResolutionSettings } from '../registry/resolve-set';

/**
 * A gMSA credential spec a workload can run as (`GmsaCredentialSpec` implements it). The workload names it in
 * `windowsOptions.gmsaCredentialSpecName` and calls `grantUse` with its service account, because the gMSA webhook
 * admits the pod only when that account may `use` the credential spec.
 */
export interface IGmsaCredentialSpec {
  /** The `GMSACredentialSpec` object name. */
  readonly name: string;
  /** Lets pods running as `serviceAccount` use this credential spec (a ClusterRole `use` bound in its namespace). */
  grantUse(serviceAccount: kplus.IServiceAccount): void;
}

/** A RuntimeClass that carries a Windows node target (`WindowsRuntimeClass` implements it). */
export interface IWindowsRuntimeClass {
  /** The RuntimeClass object name. */
  readonly name: string;
  /** The nodes it schedules onto, with `runtimeClassName` set to this RuntimeClass. */
  readonly nodeTarget: WindowsNodeTarget;
}

/** How a workload runs on Windows. */
export interface WindowsProps {
  /**
   * The nodes to run on: a node pool's `nodeTarget` or `windowsNodeTarget({...})`, so the workload tolerates exactly
   * the taints the pool applies. Mutually exclusive with `runtimeClass`.
   * @default - `windowsNodeTarget({ release, isolation })`: Windows Server 2022 nodes tainted `os=windows:NoSchedule`
   */
  readonly target?: WindowsNodeTarget;
  /**
   * A RuntimeClass to run under: the pod names it and takes its target (scheduling, release, isolation). Required for
   * Hyper-V isolation, which containerd selects by the RuntimeClass handler. Mutually exclusive with `target`.
   * The pod still carries the same nodeSelector and tolerations inline (admission accepts identical values), so
   * linters and the EKS VPC resource controller see them without resolving the RuntimeClass.
   * @default - no RuntimeClass
   */
  readonly runtimeClass?: IWindowsRuntimeClass;
  /**
   * Windows Server release of the nodes, when neither `target` nor `runtimeClass` is given (with either, it must
   * agree with theirs). Images are checked against it.
   * @default '2022'
   */
  readonly release?: WindowsRelease;
  /**
   * Container isolation, when neither `target` nor `runtimeClass` is given (with either, it must agree with theirs).
   * `'hyperv'` needs a `runtimeClass` with the `runhcs-wcow-hypervisor` handler.
   * @default 'process'
   */
  readonly isolation?: WindowsIsolation;
  /**
   * Pod-level `windowsOptions.runAsUserName`.
   * @default - the image's user (`ContainerAdministrator` for servercore and IIS images); `ContainerUser` under
   * `securityProfile: 'restricted'`; `NT AUTHORITY\Local service` for HostProcess pods
   */
  readonly runAsUserName?: string;
  /**
   * Run as a group Managed Service Account: a `GMSACredentialSpec` name, or a `GmsaCredentialSpec` construct (then
   * its use is granted to the workload's service account, created when the workload has none). Set on the pod, never
   * on init containers (the gMSA webhook does not expand them).
   * @default - no gMSA
   */
  readonly gmsa?: string | IGmsaCredentialSpec;
  /**
   * Run every container (init containers too) as a HostProcess container on the node; sets `hostNetwork: true`.
   * The namespace must be at the `privileged` Pod Security level: prefer `WindowsHostProcessDaemonSet`, which sees
   * to it.
   * @default false
   */
  readonly hostProcess?: boolean;
  /**
   * `'baseline'` runs the images' own user (IIS and .NET Framework images run as `ContainerAdministrator`), and
   * drops cdk8s-plus's `runAsNonRoot: true` default, which the kubelet refuses for such images.
   * `'restricted'` meets the `restricted` Pod Security level: `runAsNonRoot: true` with
   * `runAsUserName: ContainerUser` (the image must run as a non-admin user).
   * @default 'baseline'
   */
  readonly securityProfile?: WindowsSecurityProfile;
  /**
   * Check the images against their registries when the workload renders (`cdk8s synth`), as `lint
   * --resolve-images` does: a Linux-only image, an image with no entry for the nodes' build, a tag that does not
   * exist, an image built on the HostProcess base image, an image user that `runAsNonRoot` refuses. Errors fail the
   * synth; an image the registry could not be asked about is a warning. `true` asks with the Docker config's
   * credentials and the disk cache; pass settings for mirrors, another cache or offline mode. Each synth runs the
   * lookups in a child process (rendering is synchronous); answers are cached on disk as for the CLI.
   * @default - the app's context `k8s-windows:resolveImages` (the same values), else no lookups
   */
  readonly resolveImages?: boolean | ImageResolutionSettings;
}

/** `kplus.DeploymentProps` with a `windows` block. */
export interface WindowsDeploymentProps extends kplus.DeploymentProps {
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes, process isolation, `baseline` profile
   */
  readonly windows?: WindowsProps;
}

/** `kplus.StatefulSetProps` with a `windows` block. */
export interface WindowsStatefulSetProps extends kplus.StatefulSetProps {
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes, process isolation, `baseline` profile
   */
  readonly windows?: WindowsProps;
}

/** `kplus.DaemonSetProps` with a `windows` block. */
export interface WindowsDaemonSetProps extends kplus.DaemonSetProps {
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes, process isolation, `baseline` profile
   */
  readonly windows?: WindowsProps;
}

/** `kplus.JobProps` with a `windows` block. */
export interface WindowsJobProps extends kplus.JobProps {
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes, process isolation, `baseline` profile
   */
  readonly windows?: WindowsProps;
}

/** `kplus.CronJobProps` with a `windows` block. */
export interface WindowsCronJobProps extends kplus.CronJobProps {
  /**
   * How the pods run on Windows.
   * @default - Windows Server 2022 nodes, process isolation, `baseline` profile
   */
  readonly windows?: WindowsProps;
}
