/**
 * `SmbCsiNodeWindows` on `@pulumi/kubernetes`: the same SMB CSI node plugin as `k8s-windows/addons` gives cdk8s
 * (lib/core/addons/smb-csi-node-windows.ts holds what both emit).
 */
import * as pulumi from '@pulumi/pulumi';
import type { Namespace } from '@pulumi/kubernetes/core/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import {
  resolveSmbCsiNodeWindows,
  smbCsiNodeAgent,
  type SmbCsiNodeWindowsOptions,
} from '../../core/addons/smb-csi-node-windows';
import { requireArgs, throwInputErrors } from '../errors';
import { addonNamespace } from './addon-namespace';
import { agentDaemonSet } from './addon-agent';
import type { WindowsDaemonSet } from './workloads';

export interface SmbCsiNodeWindowsArgs extends SmbCsiNodeWindowsOptions {
  /**
   * The namespace to run in, by name. It must admit `privileged` pods (`pod-security.kubernetes.io/enforce:
   * privileged`): the component cannot see its labels and never changes them.
   * @default - a Namespace of the add-on's own, named after it (`name`, default `smb-csi-node-windows`), labelled
   * `privileged`
   */
  readonly namespace?: pulumi.Input<string>;
  /**
   * Every container's resources.
   * @default - upstream's: the registrar 30m CPU and 40Mi requested, 150Mi limit; the plugin 10m and 40Mi, 600Mi limit
   */
  readonly resources?: pulumi.Input<k8sInput.core.v1.ResourceRequirements>;
}

/**
 * The SMB CSI node plugin on every Windows node: a HostProcess DaemonSet as `NT AUTHORITY\SYSTEM` with the
 * node-driver-registrar and the plugin, at `system-node-critical`, the images pinned in the facts. Install the driver
 * itself (its CSIDriver and controller) from csi-driver-smb. Bad args are refused in one
 * `pulumi.InputPropertiesError` before anything registers.
 *
 * @example
 * new SmbCsiNodeWindows('smb', { taints: pool.nodeTarget.taints });
 */
export class SmbCsiNodeWindows extends pulumi.ComponentResource {
  /** The Namespace this component created for itself; undefined when `namespace` was given. */
  public readonly createdNamespace?: Namespace;
  /** The name of the namespace it runs in. */
  public readonly namespaceName: pulumi.Output<string>;
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsDaemonSet;

  constructor(name: string, rawArgs: SmbCsiNodeWindowsArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const subject = `SmbCsiNodeWindows '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = resolveSmbCsiNodeWindows(args);
    throwInputErrors(subject, issues);

    super('k8s-windows:kubernetes:SmbCsiNodeWindows', name, {}, opts);
    const placed = addonNamespace(name, resolved.name, args.namespace, this);
    this.createdNamespace = placed.created;
    this.namespaceName = placed.name;
    this.daemonSet = agentDaemonSet(name, smbCsiNodeAgent(resolved), placed.name, this, args.resources);
    this.registerOutputs({ namespaceName: placed.name });
  }
}
