/**
 * `CsiProxy` on `@pulumi/kubernetes`: the same csi-proxy add-on as `k8s-windows/addons` gives cdk8s
 * (lib/core/addons/csi-proxy.ts holds what both emit): a HostProcess DaemonSet on every Windows node.
 */
import * as pulumi from '@pulumi/pulumi';
import type { Namespace } from '@pulumi/kubernetes/core/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import { csiProxyAgent, resolveCsiProxy, type CsiProxyOptions } from '../../core/addons/csi-proxy';
import { requireArgs, throwInputErrors } from '../errors';
import { addonNamespace } from './addon-namespace';
import { agentDaemonSet } from './addon-agent';
import type { WindowsDaemonSet } from './workloads';

export interface CsiProxyArgs extends CsiProxyOptions {
  /**
   * The namespace to run in, by name. It must admit `privileged` pods (`pod-security.kubernetes.io/enforce:
   * privileged`): the component cannot see its labels and never changes them.
   * @default - a Namespace of the add-on's own, named after it (`name`, default `csi-proxy`), labelled `privileged`
   */
  readonly namespace?: pulumi.Input<string>;
  /**
   * The container's resources.
   * @default - a node agent's: 100m CPU request, 500m limit, 600Mi memory request and limit
   */
  readonly resources?: pulumi.Input<k8sInput.core.v1.ResourceRequirements>;
}

/**
 * csi-proxy on every Windows node: a HostProcess DaemonSet (`WindowsDaemonSet` with `windows.hostProcess`) running as
 * `NT AUTHORITY\SYSTEM`, tolerating the Windows pools' taints, the image pinned in the facts (`addon.csi-proxy.image`).
 * Bad args are refused in one `pulumi.InputPropertiesError` before anything registers.
 *
 * @example
 * new CsiProxy('csi-proxy', { taints: pool.nodeTarget.taints });
 */
export class CsiProxy extends pulumi.ComponentResource {
  /** The Namespace this component created for itself; undefined when `namespace` was given. */
  public readonly createdNamespace?: Namespace;
  /** The name of the namespace it runs in. */
  public readonly namespaceName: pulumi.Output<string>;
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsDaemonSet;

  constructor(name: string, rawArgs: CsiProxyArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const subject = `CsiProxy '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = resolveCsiProxy(args);
    throwInputErrors(subject, issues);

    super('k8s-windows:kubernetes:CsiProxy', name, {}, opts);
    const placed = addonNamespace(name, resolved.name, args.namespace, this);
    this.createdNamespace = placed.created;
    this.namespaceName = placed.name;
    this.daemonSet = agentDaemonSet(name, csiProxyAgent(resolved), placed.name, this, args.resources);
    this.registerOutputs({ namespaceName: placed.name });
  }
}
