/**
 * The AKS cluster side of Windows: the `windowsProfile` and `networkProfile` a cluster must be created with, and
 * pure checks of a cluster's inputs. A cluster created without a Windows profile or on kubenet cannot take
 * Windows pools, and neither can be changed in place, so these checks run before anything is created.
 * @see https://learn.microsoft.com/azure/aks/learn/quick-windows-container-deploy-cli
 * @see https://github.com/Azure/AKS/issues/1005
 */
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsWarning } from '../../core/pod-spec';
import { requireArgs, throwInputErrors } from '../errors';
import { aksAgentPoolWarnings, checkAksAgentPoolInputs } from './agent-pool-checks';
import { ComponentRefusals, findingWarnings, logWarnings } from '../node-pool';
import type { CloudFinding } from '../../core/rules/cloud-findings';
import { runCloudRules } from '../../core/rules/cloud-runner';
import aksWindowsCluster from '../../core/rules/aks-windows-cluster';
import { AKS_WINDOWS_NETWORK_PLUGIN, forEachInlineWindowsPool, inlinePoolPath } from '../../core/cloud/aks-cluster';

export { AKS_WINDOWS_NETWORK_PLUGIN };

/** The broad id a cluster's inline pool findings were reported under before the split: an alias now. */
const AKS_CLUSTER_ALIAS = aksWindowsCluster.meta.id;

/** gMSA on AKS: the cluster side of group Managed Service Accounts for Windows pods. */
export interface AksGmsaOptions {
  /**
   * DNS server of the Active Directory domain. Set both this and `rootDomainName`, or neither when the
   * cluster's virtual network already resolves the domain.
   * @default - none: the virtual network's DNS
   */
  readonly dnsServer?: pulumi.Input<string>;
  /**
   * Root domain name of the Active Directory forest. Set with `dnsServer`.
   * @default - none: the virtual network's DNS
   */
  readonly rootDomainName?: pulumi.Input<string>;
}

export interface WindowsClusterProfileArgs {
  /**
   * Administrator account of the Windows nodes: 1–20 characters, not ending in `.`, not a name Azure reserves
   * (`admin`, `administrator`, `user`, `root`…).
   */
  readonly adminUsername: string;
  /**
   * Administrator password: 8–123 characters with three of lower case, upper case, digit and symbol. It is
   * wrapped in `pulumi.secret`; pass `config.requireSecret(...)` or a generated password, not a literal
   * (a literal is accepted with a warning: it sits in your source code).
   */
  readonly adminPassword: pulumi.Input<string>;
  /**
   * Enable gMSA (`windowsProfile.gmsaProfile`); `true` or options with the domain's DNS.
   * @default false
   * @see https://learn.microsoft.com/azure/aks/use-group-managed-service-accounts
   */
  readonly gmsa?: boolean | AksGmsaOptions;
  /**
   * Azure Hybrid Benefit for the Windows VMs (`Windows_Server`) or none.
   * @default - omitted: AKS's default, `None`
   * @see https://learn.microsoft.com/azure/aks/windows-faq
   */
  readonly licenseType?: 'None' | 'Windows_Server';
  /**
   * Enable CSI proxy on the Windows nodes (needed by CSI drivers on Windows).
   * @default - omitted: AKS's default, enabled
   */
  readonly enableCSIProxy?: boolean;
}

/** The cluster profile fields for Windows; spread them into `containerservice.ManagedClusterArgs`. */
export interface WindowsClusterProfile {
  readonly windowsProfile: {
    readonly adminUsername: string;
    readonly adminPassword: pulumi.Output<string>;
    readonly gmsaProfile?: {
      readonly enabled: true;
      readonly dnsServer?: pulumi.Input<string>;
      readonly rootDomainName?: pulumi.Input<string>;
    };
    readonly licenseType?: 'None' | 'Windows_Server';
    readonly enableCSIProxy?: boolean;
  };
  /** Merge with the rest of your network profile (`networkPluginMode: 'overlay'`, CIDRs…). */
  readonly networkProfile: { readonly networkPlugin: typeof AKS_WINDOWS_NETWORK_PLUGIN };
}

/**
 * Builds the `windowsProfile` (password as a Pulumi secret) and the `networkProfile` requirement (Azure CNI) of an
 * AKS cluster that will have Windows pools. Throws one `pulumi.InputPropertiesError` naming every bad input; warns
 * (`pulumi.log.warn`) when the password is a literal.
 *
 * ```ts
 * const windows = windowsClusterProfile({ adminUsername: 'winadmin', adminPassword: cfg.requireSecret('winPassword') });
 * new containerservice.ManagedCluster('c', { ..., windowsProfile: windows.windowsProfile,
 *   networkProfile: { ...windows.networkProfile, networkPluginMode: 'overlay' } });
 * ```
 * @see https://learn.microsoft.com/rest/api/aks/managed-clusters/create-or-update#managedclusterwindowsprofile
 */
export function windowsClusterProfile(rawArgs: WindowsClusterProfileArgs): WindowsClusterProfile {
  const args = requireArgs('windowsClusterProfile', rawArgs);
  const gmsa = args.gmsa === true ? {} : args.gmsa === false || args.gmsa === undefined ? undefined : args.gmsa;
  const { adminUsername, adminPassword } = args;
  const profile = runCloudRules({
    kind: 'aks-profile-component',
    props: {
      adminUsername,
      adminPassword,
      ...(gmsa ? { gmsa: { dnsServer: gmsa.dnsServer, rootDomainName: gmsa.rootDomainName } } : {}),
    },
  });
  const issues: ValidationIssue[] = new ComponentRefusals(profile).rest();
  if (args.licenseType !== undefined && args.licenseType !== 'None' && args.licenseType !== 'Windows_Server') {
    issues.push({
      path: 'licenseType',
      message: `License type ${JSON.stringify(args.licenseType)} is not known to AKS.`,
      fix: "Use 'None' or 'Windows_Server'.",
    });
  }
  throwInputErrors('windowsClusterProfile', issues);
  logWarnings(plaintextPasswordWarnings(args.adminPassword, 'adminPassword'));

  return {
    windowsProfile: {
      adminUsername: args.adminUsername,
      adminPassword: pulumi.secret(args.adminPassword),
      ...(gmsa
        ? {
            gmsaProfile: {
              enabled: true,
              ...(gmsa.dnsServer !== undefined ? { dnsServer: gmsa.dnsServer } : {}),
              ...(gmsa.rootDomainName !== undefined ? { rootDomainName: gmsa.rootDomainName } : {}),
            },
          }
        : {}),
      ...(args.licenseType !== undefined ? { licenseType: args.licenseType } : {}),
      ...(args.enableCSIProxy !== undefined ? { enableCSIProxy: args.enableCSIProxy } : {}),
    },
    networkProfile: { networkPlugin: AKS_WINDOWS_NETWORK_PLUGIN },
  };
}

/**
 * Checks the inputs of an AKS managed cluster (`containerservice.ManagedClusterArgs`, or the raw inputs of an
 * `azure-native:containerservice:ManagedCluster` as a policy sees them) for Windows pools: a `windowsProfile`
 * with a valid admin user and password, gMSA DNS settings set together, Azure CNI (not kubenet, not `none`), not
 * the Cilium dataplane (Linux only) — the AKS cluster rules — and every inline Windows agent pool
 * (`agentPoolProfiles`) held to the agent pool rules (its findings still named by `aks-windows-cluster` in
 * settings). Values not known yet (Outputs, unknowns) are skipped.
 */
export function checkAksClusterForWindows(clusterArgs: object): CloudFinding[] {
  const args = clusterArgs as Record<string, unknown>;
  const issues = runCloudRules({ kind: 'aks-cluster', props: args }).filter((f) => f.severity === 'error');
  forEachInlineWindowsPool(args.agentPoolProfiles, (pool, at) => {
    // A pool without orchestratorVersion runs the cluster's kubernetesVersion: held to the same gates against it.
    const inherits = pool.orchestratorVersion === undefined && typeof args.kubernetesVersion === 'string';
    const checked = inherits ? { ...pool, orchestratorVersion: args.kubernetesVersion } : pool;
    for (const i of checkAksAgentPoolInputs(checked)) {
      issues.push(
        inherits && i.path === 'orchestratorVersion'
          ? {
              ...i,
              path: 'kubernetesVersion',
              message: `${at} sets no orchestratorVersion, so it runs the cluster's: ${i.message}`,
              formerly: AKS_CLUSTER_ALIAS,
            }
          : { ...i, path: inlinePoolPath(at, i.path), formerly: AKS_CLUSTER_ALIAS },
      );
    }
  });
  return issues;
}

/**
 * Soft problems of a cluster's inputs for Windows: the network plugin left to AKS's default, and the warnings of
 * inline Windows pools. (Bring-your-own CNI and the Cilium dataplane are errors: see `checkAksClusterForWindows`.) (A literal admin password is warned about by `windowsClusterProfile` and the pool's
 * `clusterArgs` check, not here: a policy sees secrets unwrapped, as plain strings.)
 * @see https://learn.microsoft.com/azure/aks/azure-cni-powered-by-cilium#limitations
 */
export function aksClusterWarnings(clusterArgs: object): WindowsWarning[] {
  const args = clusterArgs as Record<string, unknown>;
  const warnings: WindowsWarning[] = findingWarnings(runCloudRules({ kind: 'aks-cluster', props: args }));
  forEachInlineWindowsPool(args.agentPoolProfiles, (pool, at) => {
    for (const w of aksAgentPoolWarnings(pool)) warnings.push({ ...w, path: inlinePoolPath(at, w.path) });
  });
  return warnings;
}

/** Warns about a literal password in user code (call it on program inputs only, never on policy inputs). */
export function plaintextPasswordWarnings(password: unknown, path: string): WindowsWarning[] {
  return findingWarnings(runCloudRules({ kind: 'aks-admin-password', props: { adminPassword: password } })).map(
    (w) => ({ ...w, path }),
  );
}
