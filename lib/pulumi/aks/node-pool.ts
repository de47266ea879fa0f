/**
 * `WindowsNodePool` for AKS: an azure-native `containerservice.AgentPool` that is a valid Windows pool by
 * construction, and the `nodeTarget` workloads use to land on it.
 * @see https://learn.microsoft.com/azure/aks/windows-best-practices
 * @see https://learn.microsoft.com/azure/aks/create-node-pools
 */
import * as pulumi from '@pulumi/pulumi';
import * as containerservice from '@pulumi/azure-native/containerservice';
import { OSSKU } from '@pulumi/azure-native/types/enums/containerservice';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsWarning } from '../../core/pod-spec';
import { checkCloudRelease, defaultReleaseFor } from '../../core/cloud-gates';
import { checkEvaluationDate } from '../../core/facts/support';
import { isWindowsRelease, releaseInfo, WINDOWS_RELEASES, type WindowsRelease } from '../../core/releases';
import { WINDOWS_TAINT, type Taint, type WindowsNodeTarget } from '../../core/target';
import { bool, mergeShapeIssues, NODE_POOL_SHAPES, object, shapedArgs, str, type ArgShapes } from '../arg-shapes';
import { plainArgs, requireArgs, throwInputErrors } from '../errors';
import {
  ComponentRefusals,
  findingWarnings,
  checkNodeLabels,
  checkRelease,
  checkTaints,
  gatedOnEventualVersion,
  logWarnings,
  type NodePoolScaling,
  type NodePoolScalingArgs,
  nodePoolTarget,
  resolveAutoscaling,
  taintToString,
} from '../node-pool';
import { runCloudRules } from '../../core/rules/cloud-runner';
import {
  AKS_WINDOWS_OS_TYPE,
  AKS_WINDOWS_POOL_MODE,
  DEFAULT_AKS_WINDOWS_VM_SIZE,
  AKS_FIPS_REQUIRED_RELEASES,
} from './agent-pool-checks';
import { aksClusterWarnings, checkAksClusterForWindows, plaintextPasswordWarnings } from './cluster';

/** AgentPool args the component sets itself; everything else passes through `agentPoolArgs`. */
type ManagedAgentPoolKeys =
  | 'resourceGroupName'
  | 'resourceName'
  | 'agentPoolName'
  | 'osType'
  | 'osSKU'
  | 'mode'
  | 'nodeTaints'
  | 'nodeLabels'
  | 'vmSize'
  | 'count'
  | 'enableAutoScaling'
  | 'minCount'
  | 'maxCount'
  | 'orchestratorVersion';

/**
 * An AgentPool resource class: azure-native's `containerservice.AgentPool`, or the `AgentPool` of a local SDK generated
 * for another containerservice API version (same args and outputs; another API version's osSKU list).
 */
export type AgentPoolResource = new (
  name: string,
  args: containerservice.AgentPoolArgs,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

export interface WindowsNodePoolArgs {
  /** Resource group of the AKS cluster. */
  readonly resourceGroupName: pulumi.Input<string>;
  /** Name of the AKS cluster (the managed cluster's `resourceName`). */
  readonly resourceName: pulumi.Input<string>;
  /**
   * Agent pool name: 1–6 lowercase letters or digits, starting with a letter (Azure/AKS#2929).
   * @default - the component's name, when it obeys that rule
   * @see https://learn.microsoft.com/azure/aks/create-node-pools#limitations
   */
  readonly agentPoolName?: string;
  /**
   * Windows Server release of the nodes; sets the AKS `osSKU` (`Windows2022`…). A release AKS has retired at `date`
   * (Windows Server 2019 since 2026-03-01) is refused.
   * @default - by the Kubernetes version (`kubernetesVersion`, else `clusterArgs.kubernetesVersion`): '2025' from
   * 1.37 (AKS refuses Windows2022 there), '2022' below and when the version is not known
   * @see https://learn.microsoft.com/azure/aks/upgrade-windows-os
   */
  readonly release?: WindowsRelease;
  /**
   * Kubernetes version of the pool (`orchestratorVersion`). Checked against the release: at construction when it
   * is a plain string, once known when it is an Output (AKS refuses Windows2022 from 1.37).
   * @default - omitted: the cluster's version (`clusterArgs.kubernetesVersion`, checked the same way when given)
   */
  readonly kubernetesVersion?: pulumi.Input<string>;
  /**
   * The day support and retirements are judged at (`YYYY-MM-DD`), for reproducible previews and tests.
   * @default - today
   */
  readonly date?: string;
  /**
   * VM size: x86_64 (Arm sizes, with a `p` in the name, are refused), 8 GiB or more (smaller sizes warn).
   * @default 'Standard_D4s_v5' (4 vCPU, 16 GiB)
   * @see https://learn.microsoft.com/azure/virtual-machines/sizes/overview
   */
  readonly vmSize?: string;
  /**
   * Agent pool mode. Only `User`: Windows pools cannot be System pools (system pods need Linux).
   * @default 'User'
   * @see https://learn.microsoft.com/azure/aks/use-system-pools
   */
  readonly mode?: 'User' | 'System';
  /**
   * Node labels (`nodeLabels`), also selected on by workloads through `nodeTarget`.
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Node taints, Kubernetes spelling (`NoSchedule`); written to AKS as `key=value:Effect` strings. At least one
   * NoSchedule or NoExecute taint is required, so Linux pods stay off the Windows nodes.
   * @default [WINDOWS_TAINT] (`os=windows:NoSchedule`)
   */
  readonly taints?: readonly Taint[];
  /**
   * Node counts: `desiredSize` is the pool's `count`; `minSize`/`maxSize` bound the cluster autoscaler.
   * @default { minSize: 1, maxSize: 2, desiredSize: 2 }
   */
  readonly scaling?: NodePoolScalingArgs;
  /**
   * Let the cluster autoscaler scale the pool between `scaling.minSize` and `scaling.maxSize`
   * (`enableAutoScaling`, `minCount`, `maxCount`; `count` is then ignored after creation).
   * @default - true when `scaling.minSize` or `scaling.maxSize` is set, false otherwise
   * @see https://learn.microsoft.com/azure/aks/cluster-autoscaler
   */
  readonly autoscaling?: boolean;
  /**
   * The args the cluster was (or will be) created with, to check it can take Windows pools (`windowsProfile`,
   * Azure CNI): see `checkAksClusterForWindows`.
   * @default - not checked
   */
  readonly clusterArgs?: containerservice.ManagedClusterArgs;
  /**
   * Further AgentPool args (`vnetSubnetID`, `availabilityZones`, `osDiskSizeGB`, `tags`…). The fields this
   * component sets (osType, osSKU, mode, taints, labels, size, counts, version, names) cannot be overridden.
   * @default {}
   */
  readonly agentPoolArgs?: Omit<containerservice.AgentPoolArgs, ManagedAgentPoolKeys>;
  /**
   * The AgentPool class the pool is created with. The installed @pulumi/azure-native (3.x) sends AgentPools with API
   * version 2025-09-01, whose osSKU list lacks Windows2025, so a Windows Server 2025 pool (the default from Kubernetes
   * 1.37) is refused with it. Generate a local SDK for a containerservice API version whose osSKU list has
   * Windows2025 (`pulumi package add azure-native containerservice <api-version>`) and pass its `AgentPool` here:
   * the pool is then created with that API version, and the installed SDK's osSKU list is not consulted.
   * @default - @pulumi/azure-native's `containerservice.AgentPool`
   * @see https://www.pulumi.com/registry/packages/azure-native/version-guide/#accessing-any-api-version-via-local-packages
   */
  readonly agentPoolResource?: AgentPoolResource;
}

/** The component's type token. */
export const AKS_WINDOWS_NODE_POOL_TYPE = 'k8s-windows:aks:WindowsNodePool';

/**
 * A Windows agent pool on AKS (`osType: Windows`, the release's `osSKU`, mode `User`, tainted
 * `os=windows:NoSchedule`). Bad args raise one `pulumi.InputPropertiesError` listing every problem, before any
 * resource is registered. `nodeTarget` carries the labels and taints the pool really applies, pinned to its
 * release: pass it to `WindowsDeployment` (or `schedulingFor`) so workloads tolerate exactly these taints.
 */
export class WindowsNodePool extends pulumi.ComponentResource {
  /** The scheduling contract of this pool's nodes. */
  public readonly nodeTarget: WindowsNodeTarget;
  /** The Windows Server release the nodes run. */
  public readonly release: WindowsRelease;
  /** The agent pool name in AKS. */
  public readonly agentPoolName: string;
  /**
   * The agent pool: azure-native's AgentPool, or an instance of `agentPoolResource` (typed as azure-native's: a local
   * SDK's AgentPool has the same outputs).
   */
  public readonly agentPool: containerservice.AgentPool;

  constructor(name: string, rawArgs: WindowsNodePoolArgs, opts?: pulumi.ComponentResourceOptions) {
    // Validate before `super`: nothing, not even the component, is registered for bad input.
    const args = requireArgs(`aks.WindowsNodePool ${name}`, rawArgs);
    const resolved = resolveArgs(name, args);
    super(AKS_WINDOWS_NODE_POOL_TYPE, name, {}, opts);
    logWarnings(resolved.warnings, this, name);

    this.release = resolved.release;
    this.agentPoolName = resolved.agentPoolName;
    this.nodeTarget = nodePoolTarget({ release: resolved.release, labels: resolved.labels, taints: resolved.taints });

    const { minSize, maxSize, desiredSize } = resolved.scaling;
    const AgentPool: AgentPoolResource = args.agentPoolResource ?? containerservice.AgentPool;
    this.agentPool = new AgentPool(
      name,
      {
        ...args.agentPoolArgs,
        resourceGroupName: args.resourceGroupName,
        resourceName: args.resourceName,
        agentPoolName: resolved.agentPoolName,
        osType: AKS_WINDOWS_OS_TYPE,
        // A version known only later (the cluster's Output) is held to the same gates once known.
        osSKU: gatedOnEventualVersion(
          `aks.WindowsNodePool ${name}`,
          'aks',
          resolved.release,
          resolved.version.value,
          resolved.version.path,
          releaseInfo(resolved.release).aksOsSku,
          { date: resolved.date, releasePath: 'release', releaseDefaulted: args.release === undefined },
        ),
        ...(AKS_FIPS_REQUIRED_RELEASES.includes(resolved.release) ? { enableFIPS: true } : {}),
        mode: AKS_WINDOWS_POOL_MODE,
        vmSize: resolved.vmSize,
        count: desiredSize,
        ...(resolved.autoscaling ? { enableAutoScaling: true, minCount: minSize, maxCount: maxSize } : {}),
        nodeTaints: resolved.taints.map(taintToString),
        ...(Object.keys(resolved.labels).length > 0 ? { nodeLabels: { ...resolved.labels } } : {}),
        ...(args.kubernetesVersion !== undefined ? { orchestratorVersion: args.kubernetesVersion } : {}),
      },
      // The autoscaler owns the node count once the pool exists.
      { parent: this, ...(resolved.autoscaling ? { ignoreChanges: ['count'] } : {}) },
    ) as containerservice.AgentPool;

    this.registerOutputs({ agentPool: this.agentPool, nodeTarget: this.nodeTarget });
  }
}

interface ResolvedArgs {
  readonly agentPoolName: string;
  readonly release: WindowsRelease;
  /** The pool's Kubernetes version (its own, else the cluster's) and where it was given. */
  readonly version: { readonly value: unknown; readonly path: string };
  readonly date: string | undefined;
  readonly vmSize: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly scaling: NodePoolScaling;
  readonly autoscaling: boolean;
  readonly warnings: readonly WindowsWarning[];
}

const requiredName = str({ eventual: true, nonEmpty: true });

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const AKS_POOL_SHAPES: ArgShapes = {
  ...NODE_POOL_SHAPES,
  resourceGroupName: { shape: requiredName, required: true, example: 'resourceGroup.name' },
  resourceName: { shape: requiredName, required: true, example: 'cluster.name' },
  agentPoolName: { shape: str(), example: "'win1'" },
  vmSize: { shape: str(), example: "'Standard_D4s_v5'" },
  mode: { shape: str(), example: "'User'" },
  autoscaling: { shape: bool() },
  clusterArgs: { shape: object({}) },
  agentPoolArgs: { shape: object({}) },
  agentPoolResource: {
    shape: {
      expects: 'a resource class (the AgentPool of an azure-native SDK)',
      eventual: false,
      check: (value, path) =>
        typeof value === 'function'
          ? []
          : [
              {
                path,
                message: `${path} must be a resource class, got ${typeof value}.`,
                fix: "Pass the class itself, e.g. the AgentPool a local SDK exports (import { AgentPool } from '<the local SDK>/containerservice').",
              },
            ],
    },
  },
};

/** Args checked before anything is registered: they must be plain values, not Outputs. */
const PLAIN_FIELDS = [
  'agentPoolName',
  'release',
  'vmSize',
  'mode',
  'labels',
  'taints',
  'scaling',
  'autoscaling',
  'date',
] as const;

function resolveArgs(name: string, rawArgs: WindowsNodePoolArgs): ResolvedArgs {
  const shaped = shapedArgs(rawArgs, AKS_POOL_SHAPES);
  const { args, issues: plainIssues } = plainArgs(shaped.args, PLAIN_FIELDS);
  const agentPoolName = args.agentPoolName ?? name;
  const version =
    args.kubernetesVersion !== undefined
      ? { value: args.kubernetesVersion as unknown, path: 'kubernetesVersion' }
      : { value: args.clusterArgs?.kubernetesVersion as unknown, path: 'clusterArgs.kubernetesVersion' };
  const release = args.release ?? defaultReleaseFor('aks', version.value);
  const dateIssue = checkEvaluationDate(args.date);
  const date = dateIssue === undefined ? args.date : undefined;
  const vmSize = args.vmSize ?? DEFAULT_AKS_WINDOWS_VM_SIZE;
  const labels = args.labels ?? {};
  const taints = args.taints ?? [WINDOWS_TAINT];

  const issues: ValidationIssue[] = [...plainIssues];
  const warnings: WindowsWarning[] = [];
  if (dateIssue) issues.push({ path: 'date', ...dateIssue });
  issues.push(...requiredInput(args.resourceGroupName, 'resourceGroupName'));
  issues.push(...requiredInput(args.resourceName, 'resourceName'));
  const taintIssues = checkTaints(taints, 'taints');
  // The AKS pool rules on the resolved args: refusals, listed in the order of the args, and warnings.
  const findings = runCloudRules(
    {
      kind: 'aks-pool-component',
      props: {
        ...(isWindowsRelease(release) ? { release } : {}),
        vmSize,
        agentPoolName,
        mode: args.mode,
        enableFIPS: args.agentPoolArgs?.enableFIPS,
        ...(taintIssues.length === 0 ? { taints } : {}),
        kubernetesVersion: { ...version, releasePath: 'release' },
      },
    },
    { date },
  );
  const refusals = new ComponentRefusals(findings);
  issues.push(
    ...refusals.at('agentPoolName').map((i) =>
      args.agentPoolName === undefined
        ? {
            ...i,
            message: `${i.message} (It defaults to the component name '${name}'.)`,
            fix: `Set agentPoolName. ${i.fix ?? ''}`.trim(),
          }
        : i,
    ),
  );
  issues.push(...checkRelease(release, 'release'));
  issues.push(...refusals.at(version.path, 'release'));
  // A pool created with another SDK's AgentPool is sent with that SDK's API version: its osSKU list is not ours to read.
  if (isWindowsRelease(release) && args.agentPoolResource === undefined) {
    issues.push(...checkOsSkuInSdk(release, 'release', version.value, date));
  }
  issues.push(...refusals.at('agentPoolArgs.enableFIPS', 'mode', 'vmSize'));
  // Taken before the rest: listed after the labels, in the order of the args.
  const untainted = refusals.at('taints');
  issues.push(...refusals.rest());
  warnings.push(...findingWarnings(findings));
  issues.push(...checkNodeLabels(labels, isWindowsRelease(release) ? release : undefined, 'labels'));
  issues.push(...taintIssues, ...untainted);
  const { scaling, autoscaling, issues: scalingIssues } = resolveAutoscaling(args.scaling, args.autoscaling, 'scaling');
  issues.push(...scalingIssues);
  if (args.clusterArgs !== undefined) {
    issues.push(...checkAksClusterForWindows(args.clusterArgs).map((i) => ({ ...i, path: `clusterArgs.${i.path}` })));
    warnings.push(...aksClusterWarnings(args.clusterArgs).map((w) => ({ ...w, path: `clusterArgs.${w.path}` })));
    const profile: unknown = args.clusterArgs.windowsProfile;
    if (typeof profile === 'object' && profile !== null && 'adminPassword' in profile) {
      warnings.push(...plaintextPasswordWarnings(profile.adminPassword, 'clusterArgs.windowsProfile.adminPassword'));
    }
  }
  throwInputErrors(`aks.WindowsNodePool ${name}`, mergeShapeIssues(shaped.issues, shaped.bad, issues), name);
  return {
    agentPoolName,
    release: release as WindowsRelease,
    version,
    date,
    vmSize,
    labels,
    taints,
    scaling,
    autoscaling,
    warnings,
  };
}

/**
 * azure-native sends an AgentPool with one API version (3.x: 2025-09-01), and AKS validates `osSKU` against that
 * version's enum. Windows2025 is not in it (the SDK's `OSSKU` enum, generated from that API version, lists
 * Windows2019 and Windows2022 only), so the pool would fail at `pulumi up`. The installed SDK's enum tells whether
 * its API version has the osSKU. What works meanwhile: the AgentPool of a local SDK generated for a later API version
 * (`agentPoolResource`), which the installed SDK's own AgentPool documentation offers ("Other available API versions
 * … can be accessed by generating a local SDK package using the CLI command `pulumi package add azure-native
 * containerservice [ApiVersion]`"). No azure-native release is named as the fix: none read has Windows2025 in its
 * default API version.
 * @see https://www.pulumi.com/registry/packages/azure-native/api-docs/containerservice/agentpool/
 */
function checkOsSkuInSdk(release: WindowsRelease, path: string, version: unknown, date?: string): ValidationIssue[] {
  const osSku = releaseInfo(release).aksOsSku;
  if ((Object.values(OSSKU) as string[]).includes(osSku)) return [];
  const localSdk = `generate a local SDK for a containerservice API version whose osSKU list has '${osSku}' (pulumi package add azure-native containerservice <api-version>) and pass its AgentPool as agentPoolResource`;
  // Offer an older release only where AKS still takes it on this version and date.
  const older = (Object.values(OSSKU) as string[])
    .map((sku) => WINDOWS_RELEASES.find((r) => releaseInfo(r).aksOsSku === sku))
    .filter((r): r is WindowsRelease => r !== undefined)
    .filter((r) => checkCloudRelease('aks', r, typeof version === 'string' ? version : undefined, date) === undefined);
  return [
    {
      path,
      message: `The installed @pulumi/azure-native creates agent pools with an API version whose osSKU list lacks '${osSku}', so AKS would refuse ${releaseInfo(release).displayName} at deployment.`,
      fix:
        older.length > 0
          ? `Use release ${older.map((r) => `'${r}'`).join(' or ')}, or ${localSdk}.`
          : `${localSdk[0].toUpperCase()}${localSdk.slice(1)} (no osSKU the installed SDK lists is offered on this Kubernetes version).`,
    },
  ];
}

function requiredInput(value: unknown, path: string): ValidationIssue[] {
  return value === undefined || value === null || value === ''
    ? [{ path, message: `${path} is required.`, fix: `Pass the AKS cluster's ${path}.` }]
    : [];
}
