/**
 * `SmbCsiNodeWindows`: csi-driver-smb's Windows node plugin as a HostProcess DaemonSet. What it emits, and where that
 * differs from the driver's own manifest, is written once in lib/core/addons/smb-csi-node-windows.ts, which the
 * Pulumi component shares.
 */
import { Construct } from 'constructs';
import {
  resolveSmbCsiNodeWindows,
  smbCsiNodeAgent,
  type SmbCsiNodeWindowsOptions,
} from '../core/addons/smb-csi-node-windows';
import type { WindowsHostProcessDaemonSet } from '../cdk8s/host-process';
import { refuse } from '../cdk8s/refusal';
import { addonNamespacePolicy, agentDaemonSet, type AddonPlacementProps } from './common';

export interface SmbCsiNodeWindowsProps extends SmbCsiNodeWindowsOptions, AddonPlacementProps {}

/**
 * The SMB CSI node plugin on every Windows node: a HostProcess DaemonSet as `NT AUTHORITY\SYSTEM` with the
 * node-driver-registrar and the plugin, sized as upstream sizes them, at `system-node-critical`, the images pinned in
 * the facts (`addon.smb-csi-node-windows.image`). Install the driver itself (its CSIDriver and controller) from
 * csi-driver-smb; this is its Windows node part, which needs no csi-proxy.
 *
 * @example
 * new SmbCsiNodeWindows(chart, 'smb', { taints: pool.nodeTarget.taints });
 */
export class SmbCsiNodeWindows extends Construct {
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsHostProcessDaemonSet;
  /** The namespace it runs in. */
  public readonly namespaceName: string;

  constructor(scope: Construct, id: string, props: SmbCsiNodeWindowsProps = {}) {
    super(scope, id);
    const { resolved, issues } = resolveSmbCsiNodeWindows(props);
    const { policy, issues: policyIssues } = addonNamespacePolicy(props);
    const problems = [...issues, ...policyIssues];
    if (problems.length > 0) refuse(this, problems, this.node.path);
    this.daemonSet = agentDaemonSet(this, smbCsiNodeAgent(resolved), props, policy);
    this.namespaceName = this.daemonSet.namespaceName;
  }
}
