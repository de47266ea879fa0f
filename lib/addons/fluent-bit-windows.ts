/**
 * `FluentBitWindows`: Fluent Bit on every Windows node as a HostProcess DaemonSet reading the node's container logs,
 * with its config in a ConfigMap. What it emits, and where that differs from the manifest it follows, is written once
 * in lib/core/addons/fluent-bit-windows.ts, which the Pulumi component shares.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  fluentBitAgent,
  fluentBitConfigFile,
  fluentBitConfigName,
  fluentBitPodLabels,
  resolveFluentBitWindows,
  FLUENT_BIT_CONFIG_FILE,
  type FluentBitWindowsOptions,
} from '../core/addons/fluent-bit-windows';
import type { WindowsHostProcessDaemonSet } from '../cdk8s/host-process';
import { refuse } from '../cdk8s/refusal';
import { addAgentContainers, addonNamespacePolicy, agentDaemonSet, type AddonPlacementProps } from './common';

export interface FluentBitWindowsProps extends FluentBitWindowsOptions, AddonPlacementProps {}

/**
 * Fluent Bit on every Windows node: a HostProcess DaemonSet as `NT AUTHORITY\SYSTEM` tailing
 * `C:\var\log\containers\*.log` with the CRI parser and sending the records to `outputs`, its `fluent-bit.conf` in a
 * ConfigMap, the image pinned in the facts (`addon.fluent-bit-windows.image`).
 *
 * @example
 * new FluentBitWindows(chart, 'logs', {
 *   taints: pool.nodeTarget.taints,
 *   outputs: [{ name: 'cloudwatch_logs', settings: { region: 'eu-west-1', log_group_name: '/eks/windows', auto_create_group: true } }],
 * });
 */
export class FluentBitWindows extends Construct {
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsHostProcessDaemonSet;
  /** The ConfigMap holding `fluent-bit.conf`. */
  public readonly configMap: kplus.ConfigMap;
  /** The namespace everything runs in. */
  public readonly namespaceName: string;

  constructor(scope: Construct, id: string, props: FluentBitWindowsProps) {
    super(scope, id);
    const { resolved, issues } = resolveFluentBitWindows(props);
    const { policy, issues: policyIssues } = addonNamespacePolicy(props);
    const problems = [...issues, ...policyIssues];
    if (problems.length > 0) refuse(this, problems, this.node.path);

    const configName = fluentBitConfigName(resolved.name);
    // The ConfigMap goes in the DaemonSet's namespace, known once the DaemonSet has placed itself: so the DaemonSet
    // comes first, its containers (which mount the ConfigMap) after.
    const agent = fluentBitAgent(resolved);
    this.daemonSet = agentDaemonSet(this, { ...agent, initContainers: [], containers: [] }, props, policy);
    this.namespaceName = this.daemonSet.namespaceName;
    this.configMap = new kplus.ConfigMap(this, 'config', {
      metadata: { name: configName, namespace: this.namespaceName, labels: fluentBitPodLabels(resolved) },
      data: { [FLUENT_BIT_CONFIG_FILE]: fluentBitConfigFile(resolved) },
    });
    const volume = kplus.Volume.fromConfigMap(this, 'config-volume', this.configMap, { name: configName });
    addAgentContainers(this.daemonSet, agent, { [configName]: volume }, props);
    const ns = this.daemonSet.namespace;
    if (ns !== undefined) this.configMap.node.addDependency(ns);
  }
}
