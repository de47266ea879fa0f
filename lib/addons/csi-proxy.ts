/**
 * `CsiProxy`: csi-proxy on every Windows node as a HostProcess DaemonSet (`WindowsHostProcessDaemonSet`), for CSI node
 * plugins that are not HostProcess and reach the host's disks, volumes and SMB shares through its named pipes. What it
 * emits, and where that differs from sig-windows-tools' manifest, is written once in lib/core/addons/csi-proxy.ts,
 * which the Pulumi component shares.
 */
import { Construct } from 'constructs';
import { csiProxyAgent, resolveCsiProxy, type CsiProxyOptions } from '../core/addons/csi-proxy';
import type { WindowsHostProcessDaemonSet } from '../cdk8s/host-process';
import { refuse } from '../cdk8s/refusal';
import { addonNamespacePolicy, agentDaemonSet, type AddonPlacementProps } from './common';

export interface CsiProxyProps extends CsiProxyOptions, AddonPlacementProps {}

/**
 * csi-proxy on every Windows node: a HostProcess DaemonSet running as `NT AUTHORITY\SYSTEM` on the node's network,
 * tolerating the Windows pools' taints, the image pinned in the facts (`addon.csi-proxy.image`). The CSI node plugins
 * that use it (csi-driver-smb's, and others that are not HostProcess) mount its pipes themselves.
 *
 * @example
 * new CsiProxy(chart, 'csi-proxy', { taints: pool.nodeTarget.taints });
 */
export class CsiProxy extends Construct {
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsHostProcessDaemonSet;
  /** The namespace it runs in. */
  public readonly namespaceName: string;

  constructor(scope: Construct, id: string, props: CsiProxyProps = {}) {
    super(scope, id);
    const { resolved, issues } = resolveCsiProxy(props);
    const { policy, issues: policyIssues } = addonNamespacePolicy(props);
    const problems = [...issues, ...policyIssues];
    if (problems.length > 0) refuse(this, problems, this.node.path);

    this.daemonSet = agentDaemonSet(this, csiProxyAgent(resolved), props, policy);
    this.namespaceName = this.daemonSet.namespaceName;
  }
}
