/**
 * `FluentBitWindows` on `@pulumi/kubernetes`: the same Fluent Bit add-on as `k8s-windows/addons` gives cdk8s
 * (lib/core/addons/fluent-bit-windows.ts holds what both emit): a HostProcess DaemonSet and its ConfigMap.
 */
import * as pulumi from '@pulumi/pulumi';
import { ConfigMap, type Namespace } from '@pulumi/kubernetes/core/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import {
  fluentBitAgent,
  fluentBitConfigFile,
  fluentBitConfigName,
  fluentBitPodLabels,
  resolveFluentBitWindows,
  FLUENT_BIT_CONFIG_FILE,
  type FluentBitWindowsOptions,
} from '../../core/addons/fluent-bit-windows';
import { requireArgs, throwInputErrors } from '../errors';
import { addonNamespace } from './addon-namespace';
import { agentDaemonSet } from './addon-agent';
import type { WindowsDaemonSet } from './workloads';

export interface FluentBitWindowsArgs extends FluentBitWindowsOptions {
  /**
   * The namespace to run in, by name. It must admit `privileged` pods (`pod-security.kubernetes.io/enforce:
   * privileged`): the component cannot see its labels and never changes them.
   * @default - a Namespace of the add-on's own, named after it (`name`, default `fluent-bit-windows`), labelled
   * `privileged`
   */
  readonly namespace?: pulumi.Input<string>;
  /**
   * The container's resources.
   * @default - upstream's: 100m CPU and 128Mi requested, 500Mi memory limit
   */
  readonly resources?: pulumi.Input<k8sInput.core.v1.ResourceRequirements>;
}

/**
 * Fluent Bit on every Windows node: a HostProcess DaemonSet as `NT AUTHORITY\SYSTEM` tailing
 * `C:\var\log\containers\*.log` and sending the records to `outputs`, its `fluent-bit.conf` in a ConfigMap, the image
 * pinned in the facts (`addon.fluent-bit-windows.image`). Bad args are refused in one `pulumi.InputPropertiesError`
 * before anything registers.
 *
 * @example
 * new FluentBitWindows('logs', { taints: pool.nodeTarget.taints, outputs: [{ name: 'stackdriver', settings: { resource: 'k8s_container' } }] });
 */
export class FluentBitWindows extends pulumi.ComponentResource {
  /** The Namespace this component created for itself; undefined when `namespace` was given. */
  public readonly createdNamespace?: Namespace;
  /** The name of the namespace everything runs in. */
  public readonly namespaceName: pulumi.Output<string>;
  /** The ConfigMap holding `fluent-bit.conf`. */
  public readonly configMap: ConfigMap;
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsDaemonSet;

  constructor(name: string, rawArgs: FluentBitWindowsArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `FluentBitWindows '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = resolveFluentBitWindows(args);
    throwInputErrors(subject, issues);

    super('k8s-windows:kubernetes:FluentBitWindows', name, {}, opts);
    const placed = addonNamespace(name, resolved.name, args.namespace, this);
    this.createdNamespace = placed.created;
    this.namespaceName = placed.name;
    const configName = fluentBitConfigName(resolved.name);
    this.configMap = new ConfigMap(
      `${name}-config`,
      {
        metadata: { name: configName, namespace: placed.name, labels: fluentBitPodLabels(resolved) },
        data: { [FLUENT_BIT_CONFIG_FILE]: fluentBitConfigFile(resolved) },
      },
      { parent: this },
    );
    this.daemonSet = agentDaemonSet(name, fluentBitAgent(resolved), placed.name, this, args.resources, {
      [configName]: this.configMap.metadata.name,
    });
    this.registerOutputs({ namespaceName: placed.name });
  }
}
