/**
 * The Windows workload components: each wraps one `@pulumi/kubernetes` workload and differs from the others only
 * in its `WorkloadKind` record. All conversion and checking lives in `WindowsWorkload`.
 */
import type * as pulumi from '@pulumi/pulumi';
import {
  DaemonSet,
  Deployment,
  StatefulSet,
  type DaemonSetArgs,
  type DeploymentArgs,
  type StatefulSetArgs,
} from '@pulumi/kubernetes/apps/v1';
import { CronJob, Job, type CronJobArgs, type JobArgs } from '@pulumi/kubernetes/batch/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import { WindowsWorkload, type WindowsPodTemplateInput, type WindowsWorkloadArgs, type WorkloadKind } from './workload';

/** Makes the pod template and the selector optional in a `@pulumi/kubernetes` spec type. */
type WindowsSpec<TSpec, TOmit extends keyof TSpec> = Omit<TSpec, TOmit> & {
  /**
   * The pod template; its spec is converted for Windows.
   * @default - built from the component's `podSpec`
   */
  readonly template?: pulumi.Input<WindowsPodTemplateInput>;
};

/** A Deployment spec whose selector and template may be left out. */
export type WindowsDeploymentSpec = WindowsSpec<k8sInput.apps.v1.DeploymentSpec, 'template' | 'selector'> & {
  /**
   * @default - `matchLabels` equal to the pod template's labels
   */
  readonly selector?: pulumi.Input<k8sInput.meta.v1.LabelSelector>;
};
/** A StatefulSet spec whose selector and template may be left out. */
export type WindowsStatefulSetSpec = WindowsSpec<k8sInput.apps.v1.StatefulSetSpec, 'template' | 'selector'> & {
  /**
   * @default - `matchLabels` equal to the pod template's labels
   */
  readonly selector?: pulumi.Input<k8sInput.meta.v1.LabelSelector>;
};
/** A DaemonSet spec whose selector and template may be left out. */
export type WindowsDaemonSetSpec = WindowsSpec<k8sInput.apps.v1.DaemonSetSpec, 'template' | 'selector'> & {
  /**
   * @default - `matchLabels` equal to the pod template's labels
   */
  readonly selector?: pulumi.Input<k8sInput.meta.v1.LabelSelector>;
};
/** A Job spec whose template may be left out. */
export type WindowsJobSpec = WindowsSpec<k8sInput.batch.v1.JobSpec, 'template'>;
/** A CronJob spec whose job template's pod template may be left out. */
export type WindowsCronJobSpec = Omit<k8sInput.batch.v1.CronJobSpec, 'jobTemplate'> & {
  /**
   * The job template; its pod template's spec is converted for Windows.
   * @default - a job template built from the component's `podSpec`
   */
  readonly jobTemplate?: pulumi.Input<{
    /** @default - none */
    readonly metadata?: pulumi.Input<k8sInput.meta.v1.ObjectMeta>;
    /** @default - built from the component's `podSpec` */
    readonly spec?: pulumi.Input<WindowsJobSpec>;
  }>;
};

/** Args of the workloads that run a set number of pods. */
export interface WindowsReplicatedArgs {
  /**
   * How many pods: shorthand for `spec.replicas`, written beside `podSpec`. Give one of the two.
   * @default - `spec.replicas`, else Kubernetes' default (1)
   */
  readonly replicas?: pulumi.Input<number>;
}

export type WindowsDeploymentArgs = WindowsWorkloadArgs<WindowsDeploymentSpec> & WindowsReplicatedArgs;
export type WindowsStatefulSetArgs = WindowsWorkloadArgs<WindowsStatefulSetSpec> & WindowsReplicatedArgs;
export type WindowsDaemonSetArgs = WindowsWorkloadArgs<WindowsDaemonSetSpec>;
export type WindowsJobArgs = WindowsWorkloadArgs<WindowsJobSpec>;
/** CronJob args: `spec.schedule` is required by Kubernetes. */
export type WindowsCronJobArgs = WindowsWorkloadArgs<WindowsCronJobSpec> & {
  readonly spec: pulumi.Input<WindowsCronJobSpec>;
};

/** Jobs refuse the pod default `restartPolicy: Always`; cdk8s-plus defaults Jobs to `Never` too. */
const JOB_POD_DEFAULTS = { restartPolicy: 'Never' } as const;

const DEPLOYMENT: WorkloadKind<Deployment> = {
  typeToken: 'k8s-windows:kubernetes:WindowsDeployment',
  kind: 'Deployment',
  templatePath: ['template'],
  hasSelector: true,
  hasReplicas: true,
  create: (name, args, opts) => new Deployment(name, args as unknown as DeploymentArgs, opts),
};
const STATEFUL_SET: WorkloadKind<StatefulSet> = {
  typeToken: 'k8s-windows:kubernetes:WindowsStatefulSet',
  kind: 'StatefulSet',
  templatePath: ['template'],
  hasSelector: true,
  hasReplicas: true,
  create: (name, args, opts) => new StatefulSet(name, args as unknown as StatefulSetArgs, opts),
};
const DAEMON_SET: WorkloadKind<DaemonSet> = {
  typeToken: 'k8s-windows:kubernetes:WindowsDaemonSet',
  kind: 'DaemonSet',
  templatePath: ['template'],
  hasSelector: true,
  create: (name, args, opts) => new DaemonSet(name, args as unknown as DaemonSetArgs, opts),
};
const JOB: WorkloadKind<Job> = {
  typeToken: 'k8s-windows:kubernetes:WindowsJob',
  kind: 'Job',
  templatePath: ['template'],
  hasSelector: false,
  podDefaults: JOB_POD_DEFAULTS,
  create: (name, args, opts) => new Job(name, args as unknown as JobArgs, opts),
};
const CRON_JOB: WorkloadKind<CronJob> = {
  typeToken: 'k8s-windows:kubernetes:WindowsCronJob',
  kind: 'CronJob',
  templatePath: ['jobTemplate', 'spec', 'template'],
  hasSelector: false,
  podDefaults: JOB_POD_DEFAULTS,
  create: (name, args, opts) => new CronJob(name, args as unknown as CronJobArgs, opts),
};

/**
 * An `apps/v1` Deployment whose pods are valid Windows pods scheduled on the target's nodes: `os.name: windows`,
 * the target's nodeSelector and exactly its tolerations, Windows identity options, and no Linux-only fields.
 *
 * Plain args are checked in the constructor: every problem is reported in one `pulumi.InputPropertiesError` before
 * anything registers. When `spec`, `podSpec` or `windows.target` holds an Output, the same checks run inside
 * `apply`, once the values are known. Floating image tags are reported with `pulumi.log.warn`, rule id first.
 */
export class WindowsDeployment extends WindowsWorkload<Deployment> {
  /** The wrapped Deployment. */
  public readonly deployment: Deployment;

  constructor(name: string, args: WindowsDeploymentArgs, opts?: pulumi.ComponentResourceOptions) {
    super(DEPLOYMENT, name, args, opts);
    this.deployment = this.workload;
  }
}

/** An `apps/v1` StatefulSet of Windows pods; converted and checked as `WindowsDeployment` describes. */
export class WindowsStatefulSet extends WindowsWorkload<StatefulSet> {
  /** The wrapped StatefulSet. */
  public readonly statefulSet: StatefulSet;

  constructor(name: string, args: WindowsStatefulSetArgs, opts?: pulumi.ComponentResourceOptions) {
    super(STATEFUL_SET, name, args, opts);
    this.statefulSet = this.workload;
  }
}

/** An `apps/v1` DaemonSet on every node of the Windows target; converted and checked as `WindowsDeployment` describes. */
export class WindowsDaemonSet extends WindowsWorkload<DaemonSet> {
  /** The wrapped DaemonSet. */
  public readonly daemonSet: DaemonSet;

  constructor(name: string, args: WindowsDaemonSetArgs, opts?: pulumi.ComponentResourceOptions) {
    super(DAEMON_SET, name, args, opts);
    this.daemonSet = this.workload;
  }
}

/**
 * A `batch/v1` Job of Windows pods; converted and checked as `WindowsDeployment` describes. The pods'
 * `restartPolicy` defaults to `Never` (Jobs refuse `Always`).
 */
export class WindowsJob extends WindowsWorkload<Job> {
  /** The wrapped Job. */
  public readonly job: Job;

  constructor(name: string, args: WindowsJobArgs, opts?: pulumi.ComponentResourceOptions) {
    super(JOB, name, args, opts);
    this.job = this.workload;
  }
}

/**
 * A `batch/v1` CronJob of Windows pods (the pod template sits at `spec.jobTemplate.spec.template`); converted and
 * checked as `WindowsDeployment` describes. The pods' `restartPolicy` defaults to `Never`.
 */
export class WindowsCronJob extends WindowsWorkload<CronJob> {
  /** The wrapped CronJob. */
  public readonly cronJob: CronJob;

  constructor(name: string, args: WindowsCronJobArgs, opts?: pulumi.ComponentResourceOptions) {
    super(CRON_JOB, name, args, opts);
    this.cronJob = this.workload;
  }
}
