/**
 * Arguments and checks shared by the managed and self-managed EKS Windows pools. Every checked value is plain
 * (not a `pulumi.Input`), so it is validated before any resource is registered.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../../core/errors';
import { defaultReleaseFor } from '../../core/cloud-gates';
import { checkEvaluationDate } from '../../core/facts/support';
import type { WindowsRelease } from '../../core/releases';
import { WINDOWS_TAINT, type Taint, type WindowsNodeTarget } from '../../core/target';
import { isEventual, requiredInput } from '../errors';
import {
  checkNodeLabels,
  checkRelease,
  ComponentRefusals,
  checkTaints,
  componentWarnings,
  nodePoolTarget,
  releaseGateRefusals,
  resolveScaling,
  type NodePoolScaling,
  type NodePoolScalingArgs,
} from '../node-pool';
import { DEFAULT_PARTITION } from './iam';
import { DEFAULT_WINDOWS_INSTANCE_TYPE } from './instance-types';
import { runCloudRules } from '../../core/rules/cloud-runner';

export { DEFAULT_WINDOWS_INSTANCE_TYPE };
import { MIN_WINDOWS_DISK_SIZE_GIB } from './node-group-check';
import { windowsPodIpCapacity } from './tags';
import type { NodePoolWarning } from '../node-pool';

/** EKS's own default root volume for Windows nodes (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html); Windows images are several GB each. */
export const DEFAULT_WINDOWS_DISK_SIZE_GIB = 50;
/** EKS taints hold at most 63 characters in key and value (`aws.eks.NodeGroup` taint docs). */
const EKS_TAINT_PART_MAX = 63;

/** What both EKS Windows pools take. */
export interface EksWindowsPoolBaseArgs {
  /** The EKS cluster the nodes join. */
  readonly clusterName: pulumi.Input<string>;
  /** Subnets the nodes run in (private subnets of the cluster's VPC). */
  readonly subnetIds: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Kubernetes version of the nodes (`1.32`). When a plain string, the release is checked against it: EKS runs
   * Windows Server 2025 from 1.35, 2022 from 1.23.
   * @default - the cluster's version (managed node groups); self-managed pools need it to look up the AMI
   * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html
   */
  readonly kubernetesVersion?: pulumi.Input<string>;
  /**
   * The Kubernetes version of the cluster the nodes join (e.g. `cluster.version`). Nodes without
   * `kubernetesVersion` run it, so the release is held to the same gates against it: at construction when it is a
   * plain string, once known when it is an Output.
   * @default - not checked (pass it, or `kubernetesVersion`, to have the release checked)
   */
  readonly clusterVersion?: pulumi.Input<string>;
  /**
   * Windows Server release of the nodes. Plain value: checked before anything is registered.
   * @default '2022' (DEFAULT_WINDOWS_RELEASE): EKS offers it on every Kubernetes version that runs Windows
   */
  readonly release?: WindowsRelease;
  /**
   * The day support is judged at (`YYYY-MM-DD`), for reproducible previews and tests.
   * @default - today
   */
  readonly date?: string;
  /**
   * Node labels, in addition to the `kubernetes.io/os` and `node.kubernetes.io/windows-build` labels the kubelet
   * sets itself. They show up in `nodeTarget.labels`, so workloads select them.
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Node taints in the Kubernetes spelling (`NoSchedule`); converted to what AWS wants. `nodeTarget.taints` holds
   * exactly these, so workloads built from the pool tolerate them.
   * @default [WINDOWS_TAINT] (`os=windows:NoSchedule`)
   */
  readonly taints?: readonly Taint[];
  /**
   * Node count bounds.
   * @default { minSize: 1, desiredSize: 2, maxSize: 2 }
   */
  readonly scaling?: NodePoolScalingArgs;
  /**
   * Root volume size in GiB; at least 30.
   * @default 50
   * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html#AmazonEKS-CreateNodegroup-request-diskSize
   */
  readonly diskSize?: number;
  /**
   * AWS partition, for managed policy ARNs (`aws-cn`, `aws-us-gov`).
   * @default 'aws'
   */
  readonly partition?: string;
  /**
   * Tags for the AWS resources the pool creates; the whole map may come from elsewhere (an Output).
   * @default {}
   */
  readonly tags?: pulumi.Input<Readonly<Record<string, pulumi.Input<string>>>>;
}

/** Base args resolved and checked. */
export interface ResolvedPoolArgs {
  readonly release: WindowsRelease;
  /** The nodes' Kubernetes version (their own, else the cluster's) and where it was given. */
  readonly version: { readonly value: unknown; readonly path: string };
  readonly date: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly scaling: NodePoolScaling;
  readonly diskSize: number;
  readonly partition: string;
  /** Present only when there are no issues. */
  readonly target?: WindowsNodeTarget;
}

/** Resolves defaults of the base args and collects every issue (nothing thrown). */
export function resolvePoolArgs(args: EksWindowsPoolBaseArgs): {
  resolved: ResolvedPoolArgs;
  issues: ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  issues.push(...requiredInput(args.clusterName, 'clusterName', 'Pass the EKS cluster name, e.g. cluster.name.'));
  issues.push(...checkSubnetIds(args.subnetIds, 'subnetIds'));
  const version =
    args.kubernetesVersion !== undefined
      ? { value: args.kubernetesVersion as unknown, path: 'kubernetesVersion' }
      : { value: args.clusterVersion as unknown, path: 'clusterVersion' };
  const release = args.release ?? defaultReleaseFor('eks', version.value);
  const dateIssue = checkEvaluationDate(args.date);
  if (dateIssue) issues.push({ path: 'date', ...dateIssue });
  const date = dateIssue === undefined ? args.date : undefined;
  const releaseIssues = checkRelease(release, 'release');
  issues.push(...releaseIssues);
  if (releaseIssues.length === 0) {
    issues.push(...releaseGateRefusals('eks', release, { ...version, releasePath: 'release' }, date));
  }
  const labels = args.labels ?? {};
  issues.push(...checkNodeLabels(labels, issues.length === 0 ? release : undefined, 'labels'));
  const taints = args.taints ?? [WINDOWS_TAINT];
  issues.push(...checkTaints(taints, 'taints'));
  if (Array.isArray(taints)) {
    taints.forEach((t: unknown, i) => {
      if (typeof t !== 'object' || t === null) return;
      const { key, value } = t as Record<string, unknown>;
      if (
        (typeof key === 'string' && key.length > EKS_TAINT_PART_MAX) ||
        (typeof value === 'string' && value.length > EKS_TAINT_PART_MAX)
      ) {
        issues.push({
          path: `taints[${i}]`,
          message: `Taint ${String(key)} has a key or value longer than the ${EKS_TAINT_PART_MAX} characters EKS accepts.`,
          fix: 'Shorten the key (prefix included) and value.',
        });
      }
    });
  }
  const { scaling, issues: scalingIssues } = resolveScaling(args.scaling, undefined, 'scaling');
  issues.push(...scalingIssues);
  const diskSize = args.diskSize ?? DEFAULT_WINDOWS_DISK_SIZE_GIB;
  if (!(typeof diskSize === 'number' && Number.isInteger(diskSize) && diskSize >= MIN_WINDOWS_DISK_SIZE_GIB)) {
    issues.push({
      path: 'diskSize',
      message: `diskSize ${JSON.stringify(diskSize)} GiB is below the ${MIN_WINDOWS_DISK_SIZE_GIB} GiB Windows Server needs (or not a whole number).`,
      fix: `Use a whole number ≥ ${MIN_WINDOWS_DISK_SIZE_GIB}; ${DEFAULT_WINDOWS_DISK_SIZE_GIB} is the EKS default for Windows.`,
    });
  }
  const partition = args.partition ?? DEFAULT_PARTITION;
  if (typeof partition !== 'string' || !/^aws(-[a-z]+)*$/.test(partition)) {
    issues.push({
      path: 'partition',
      message: `Partition ${JSON.stringify(partition)} is not an AWS partition.`,
      fix: "Use 'aws', 'aws-cn' or 'aws-us-gov'.",
    });
  }
  const target = issues.length === 0 ? nodePoolTarget({ release, labels, taints }) : undefined;
  return {
    resolved: { release, version, date, labels, taints, scaling, diskSize, partition, ...(target ? { target } : {}) },
    issues,
  };
}

/** EC2 subnet ids (`subnet-0abc…`); Outputs are not known yet and pass. */
const SUBNET_ID = /^subnet-[0-9a-f]+$/;

/** Checks the subnets of a pool: required, a non-empty list when plain, each a subnet id when plain. */
export function checkSubnetIds(subnetIds: unknown, path: string): ValidationIssue[] {
  const fix = "Pass the cluster's private subnets, e.g. ['subnet-0abc123', 'subnet-0def456'] or vpc.privateSubnetIds.";
  const missing = requiredInput(subnetIds, path, fix);
  if (missing.length > 0 || !isKnownList(subnetIds)) return missing;
  if (!Array.isArray(subnetIds)) {
    return [{ path, message: `${path} must be a list of subnet ids, got ${typeof subnetIds}.`, fix }];
  }
  if (subnetIds.length === 0) return [{ path, message: `${path} is empty: the nodes need a subnet.`, fix }];
  return subnetIds.flatMap((id: unknown, i) =>
    typeof id === 'string' && !SUBNET_ID.test(id)
      ? [{ path: `${path}[${i}]`, message: `'${id}' is not an EC2 subnet id.`, fix: "Write 'subnet-' and hex digits." }]
      : [],
  );
}

function isKnownList(value: unknown): boolean {
  return !isEventual(value);
}

/**
 * The Windows pod IP capacity of the smallest of `instanceTypes` (the Cluster Autoscaler template must not promise
 * more than any node brings), or undefined, with a warning when the pool can be empty, if one type is not known.
 */
export function poolPodIpCapacity(
  instanceTypes: readonly string[],
  minSize: number,
  warnings: NodePoolWarning[],
): number | undefined {
  const capacities = instanceTypes.map(windowsPodIpCapacity);
  if (capacities.length > 0 && capacities.every((c): c is number => c !== undefined)) return Math.min(...capacities);
  warnings.push(
    ...componentWarnings(runCloudRules({ kind: 'eks-autoscaling-component', props: { instanceTypes, minSize } })),
  );
  return undefined;
}

/** Checks one instance type and notes a memory warning; returns issues, pushes warnings. */
export function checkPoolInstanceType(
  instanceType: string,
  path: string,
  warnings: NodePoolWarning[],
): ValidationIssue[] {
  const findings = runCloudRules({ kind: 'eks-instance-type-component', props: { instanceType } });
  // The rules judge the type itself; the refusal names the arg that gave it.
  const issues = new ComponentRefusals(findings).rest().map((i) => ({ ...i, path }));
  if (issues.length === 0) warnings.push(...componentWarnings(findings));
  return issues;
}
