/**
 * The Windows workload constructs. Each one *is* its cdk8s-plus-28 construct (a subclass), so `addContainer`,
 * `exposeViaService`, volumes, probes, `scheduling` and `connections` work as users know them; the pod spec is made
 * Windows-valid when the object renders, so containers added after construction are covered too.
 */
import type { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { IssueCollector } from '../core/errors';
import type { WindowsNodeTarget } from '../core/target';
import type { WindowsSecurityProfile } from '../core/pod-spec';
import type {
  WindowsCronJobProps,
  WindowsDaemonSetProps,
  WindowsDeploymentProps,
  WindowsJobProps,
  WindowsProps,
  WindowsStatefulSetProps,
} from './windows-props';
import { defaultWindowsOptions, resolveWindowsProps, type ResolvedWindowsOptions } from './resolve-props';
import {
  checkPodProps,
  podSpecPlace,
  recordContainer,
  renderAsWindows,
  renderNoPodSecurityDefaults,
  warnOn,
  WINDOWS_AGENT_CONTAINER_RESOURCES,
  windowsContainerProps,
  workloadSource,
} from './windows-pod';
import { readImageResolution } from './image-facts';
import { refuseIfAny } from './refusal';

/** What every Windows workload construct exposes about how its pods run. */
export interface IWindowsWorkload {
  /** The nodes the pods run on (from `windows.target`, `windows.runtimeClass` or `windows.release`). */
  readonly nodeTarget: WindowsNodeTarget;
  /** The Pod Security profile the pods are built for. */
  readonly securityProfile: WindowsSecurityProfile;
  /** Whether every container runs as a HostProcess container. */
  readonly hostProcess: boolean;
}

/** The service account a gMSA grant goes to: the workload's own, or a new one set on the workload. */
function ensureServiceAccount(workload: kplus.Workload): kplus.IServiceAccount {
  if (workload.serviceAccount) return workload.serviceAccount;
  const sa = new kplus.ServiceAccount(workload, 'ServiceAccount', {
    metadata: { namespace: workload.metadata.namespace },
  });
  // cdk8s-plus reads `serviceAccount` when it renders the pod; it is readonly in its typings only.
  (workload as unknown as { serviceAccount: kplus.IServiceAccount }).serviceAccount = sa;
  return sa;
}

/**
 * Resolves and checks the `windows` block and the pod props (every problem at once, naming the construct path),
 * grants a gMSA credential spec to the service account, and makes the object render as Windows.
 * @internal
 */
export function setUpWindowsWorkload(
  workload: kplus.Workload,
  apiObject: ApiObject,
  props: kplus.WorkloadProps & { readonly windows?: WindowsProps },
): ResolvedWindowsOptions {
  const windows = props.windows;
  const issues = new IssueCollector();
  const gmsa = windows?.gmsa;
  const options =
    windows === undefined
      ? defaultWindowsOptions()
      : resolveWindowsProps(windows, typeof gmsa === 'string' ? gmsa : gmsa?.name, issues);
  checkPodProps(props, options, issues, podSpecPlace(apiObject.kind).prefix, warnOn(workload));
  const resolveImages = readImageResolution(windows?.resolveImages, 'windows.resolveImages', issues);
  refuseIfAny(workload, issues);
  if (gmsa !== undefined && typeof gmsa !== 'string') gmsa.grantUse(ensureServiceAccount(workload));
  renderNoPodSecurityDefaults(workload, props);
  renderAsWindows(apiObject, workload, workloadSource(workload, props), options, resolveImages);
  return options;
}

/**
 * A cdk8s-plus `Deployment` whose pods run on Windows nodes: `spec.os.name: windows`, the `kubernetes.io/os`
 * nodeSelector (and the build label of a pinned release), tolerations for the target's taints, none of the fields
 * the API server forbids on Windows pods, and Windows container defaults.
 *
 * @example
 * const web = new WindowsDeployment(chart, 'web', {
 *   containers: [{ image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', portNumber: 80 }],
 * });
 * web.exposeViaService();
 */
export class WindowsDeployment extends kplus.Deployment implements IWindowsWorkload {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly securityProfile: WindowsSecurityProfile;
  public readonly hostProcess: boolean;

  constructor(scope: Construct, id: string, props: WindowsDeploymentProps = {}) {
    super(scope, id, props);
    const resolved = setUpWindowsWorkload(this, this.apiObject, props);
    this.nodeTarget = resolved.target;
    this.securityProfile = resolved.securityProfile ?? 'baseline';
    this.hostProcess = resolved.hostProcess ?? false;
  }

  /**
   * Adds a container with the Windows defaults for what `cont` leaves out.
   * `imagePullPolicy` defaults to `IfNotPresent`; `resources` to 1 CPU request / 1.5 CPU limit and 2 GiB memory
   * request and limit; `startup` to the liveness or readiness probe's check with a 5-minute budget (never
   * cdk8s-plus's tcpSocket probe, which is limited on Windows); `securityContext` to nothing Windows forbids.
   */
  public override addContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addContainer(windowsContainerProps(cont)), cont);
  }

  /** Adds an init container with the Windows defaults of `addContainer`. */
  public override addInitContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addInitContainer(windowsContainerProps(cont)), cont);
  }
}

/** A cdk8s-plus `StatefulSet` whose pods run on Windows nodes (see `WindowsDeployment`). */
export class WindowsStatefulSet extends kplus.StatefulSet implements IWindowsWorkload {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly securityProfile: WindowsSecurityProfile;
  public readonly hostProcess: boolean;

  constructor(scope: Construct, id: string, props: WindowsStatefulSetProps) {
    super(scope, id, props);
    const resolved = setUpWindowsWorkload(this, this.apiObject, props);
    this.nodeTarget = resolved.target;
    this.securityProfile = resolved.securityProfile ?? 'baseline';
    this.hostProcess = resolved.hostProcess ?? false;
  }

  /** Adds a container with the Windows defaults described on `WindowsDeployment.addContainer`. */
  public override addContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addContainer(windowsContainerProps(cont)), cont);
  }

  /** Adds an init container with the Windows defaults of `addContainer`. */
  public override addInitContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addInitContainer(windowsContainerProps(cont)), cont);
  }
}

/**
 * A cdk8s-plus `DaemonSet` whose pods run on every node of a Windows target (see `WindowsDeployment`). A container
 * without `resources` gets an agent's (`WINDOWS_AGENT_CONTAINER_RESOURCES`), as it runs on every node.
 */
export class WindowsDaemonSet extends kplus.DaemonSet implements IWindowsWorkload {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly securityProfile: WindowsSecurityProfile;
  public readonly hostProcess: boolean;

  constructor(scope: Construct, id: string, props: WindowsDaemonSetProps = {}) {
    super(scope, id, props);
    const resolved = setUpWindowsWorkload(this, this.apiObject, props);
    this.nodeTarget = resolved.target;
    this.securityProfile = resolved.securityProfile ?? 'baseline';
    this.hostProcess = resolved.hostProcess ?? false;
  }

  /**
   * Adds a container with the Windows defaults described on `WindowsDeployment.addContainer`, except `resources`:
   * a DaemonSet takes them from every Windows node, so they default to an agent's (100m CPU request, 500m limit,
   * 600Mi memory request and limit: `WINDOWS_AGENT_CONTAINER_RESOURCES`).
   */
  public override addContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addContainer(windowsContainerProps(cont, WINDOWS_AGENT_CONTAINER_RESOURCES)), cont);
  }

  /** Adds an init container with the Windows defaults of `addContainer`. */
  public override addInitContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(
      super.addInitContainer(windowsContainerProps(cont, WINDOWS_AGENT_CONTAINER_RESOURCES)),
      cont,
    );
  }
}

/** A cdk8s-plus `Job` whose pods run on Windows nodes (see `WindowsDeployment`). */
export class WindowsJob extends kplus.Job implements IWindowsWorkload {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly securityProfile: WindowsSecurityProfile;
  public readonly hostProcess: boolean;

  constructor(scope: Construct, id: string, props: WindowsJobProps = {}) {
    super(scope, id, props);
    const resolved = setUpWindowsWorkload(this, this.apiObject, props);
    this.nodeTarget = resolved.target;
    this.securityProfile = resolved.securityProfile ?? 'baseline';
    this.hostProcess = resolved.hostProcess ?? false;
  }

  /** Adds a container with the Windows defaults described on `WindowsDeployment.addContainer`. */
  public override addContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addContainer(windowsContainerProps(cont)), cont);
  }

  /** Adds an init container with the Windows defaults of `addContainer`. */
  public override addInitContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addInitContainer(windowsContainerProps(cont)), cont);
  }
}

/** A cdk8s-plus `CronJob` whose pods run on Windows nodes (see `WindowsDeployment`). */
export class WindowsCronJob extends kplus.CronJob implements IWindowsWorkload {
  public readonly nodeTarget: WindowsNodeTarget;
  public readonly securityProfile: WindowsSecurityProfile;
  public readonly hostProcess: boolean;

  constructor(scope: Construct, id: string, props: WindowsCronJobProps) {
    super(scope, id, props);
    const resolved = setUpWindowsWorkload(this, this.apiObject, props);
    this.nodeTarget = resolved.target;
    this.securityProfile = resolved.securityProfile ?? 'baseline';
    this.hostProcess = resolved.hostProcess ?? false;
  }

  /** Adds a container with the Windows defaults described on `WindowsDeployment.addContainer`. */
  public override addContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addContainer(windowsContainerProps(cont)), cont);
  }

  /** Adds an init container with the Windows defaults of `addContainer`. */
  public override addInitContainer(cont: kplus.ContainerProps): kplus.Container {
    return recordContainer(super.addInitContainer(windowsContainerProps(cont)), cont);
  }
}
