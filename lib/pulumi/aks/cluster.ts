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
import { AKS_WINDOWS_OS_TYPE, aksAgentPoolWarnings, checkAksAgentPoolInputs } from './agent-pool-checks';
import { isKnown, logWarnings } from '../node-pool';

/** The network plugin Windows pools need: Azure CNI (overlay mode included). */
export const AKS_WINDOWS_NETWORK_PLUGIN = 'azure';

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
  const issues: ValidationIssue[] = [
    ...checkAdminUsername(args.adminUsername, 'adminUsername'),
    ...checkAdminPassword(args.adminPassword, 'adminPassword', true),
  ];
  const gmsa = args.gmsa === true ? {} : args.gmsa === false || args.gmsa === undefined ? undefined : args.gmsa;
  if (gmsa) issues.push(...checkGmsaDns(gmsa.dnsServer, gmsa.rootDomainName, 'gmsa'));
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
 * the Cilium dataplane (Linux only), and every inline Windows
 * agent pool (`agentPoolProfiles`) valid. Values not known yet (Outputs, unknowns) are skipped.
 */
export function checkAksClusterForWindows(clusterArgs: object): ValidationIssue[] {
  const args = clusterArgs as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const profile = args.windowsProfile;
  if (profile === undefined || profile === null) {
    issues.push({
      path: 'windowsProfile',
      message:
        'The cluster has no windowsProfile: AKS refuses Windows pools on it, and the profile cannot be added later (Azure/AKS#1005).',
      fix: 'Create the cluster with windowsProfile: windowsClusterProfile({ adminUsername, adminPassword }).windowsProfile.',
    });
  } else if (isPlainObject(profile)) {
    issues.push(...checkAdminUsername(profile.adminUsername, 'windowsProfile.adminUsername'));
    issues.push(...checkAdminPassword(profile.adminPassword, 'windowsProfile.adminPassword', false));
    const gmsa = profile.gmsaProfile;
    if (isPlainObject(gmsa) && gmsa.enabled === true) {
      issues.push(...checkGmsaDns(gmsa.dnsServer, gmsa.rootDomainName, 'windowsProfile.gmsaProfile'));
    }
  }
  const network = args.networkProfile;
  if (isPlainObject(network) && network.networkPlugin === 'kubenet') {
    issues.push({
      path: 'networkProfile.networkPlugin',
      message: "networkPlugin 'kubenet' does not support Windows pools (Azure/AKS#1005).",
      fix: `Create the cluster with networkPlugin '${AKS_WINDOWS_NETWORK_PLUGIN}' (Azure CNI, optionally networkPluginMode 'overlay').`,
    });
  } else if (isPlainObject(network) && network.networkPlugin === 'none') {
    // AKS answers `AzureCNIOnlyForWindows`: "Windows agent pools can only be added to AKS clusters using Azure-CNI".
    // https://github.com/Azure/AKS/issues/2839, https://github.com/Azure/AKS/issues/3891 (BYO CNI for Windows: open)
    issues.push({
      path: 'networkProfile.networkPlugin',
      message:
        "networkPlugin 'none' (bring your own CNI) does not support Windows pools: AKS refuses them with AzureCNIOnlyForWindows (Azure/AKS#2839).",
      fix: `Create the cluster with networkPlugin '${AKS_WINDOWS_NETWORK_PLUGIN}' (Azure CNI, optionally networkPluginMode 'overlay').`,
    });
  }
  if (isPlainObject(network) && network.networkDataplane === 'cilium') {
    // "Available only for Linux and not for Windows" (Azure CNI Powered by Cilium, limitations).
    // https://learn.microsoft.com/azure/aks/azure-cni-powered-by-cilium#limitations
    issues.push({
      path: 'networkProfile.networkDataplane',
      message:
        "networkDataplane 'cilium' (Azure CNI Powered by Cilium) is available only for Linux, not for Windows pools.",
      fix: "Leave networkDataplane unset (the 'azure' dataplane) on a cluster with Windows pools.",
    });
  }
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
            }
          : { ...i, path: inlinePoolPath(at, i.path) },
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
  const warnings: WindowsWarning[] = [];
  const network = args.networkProfile;
  const plugin = isPlainObject(network) ? network.networkPlugin : network === undefined ? undefined : null;
  if (plugin === undefined) {
    warnings.push({
      ruleId: 'aks-windows-network-plugin',
      path: 'networkProfile.networkPlugin',
      message: "networkPlugin is not set: AKS's default depends on the API version, and kubenet refuses Windows pools.",
      fix: `Set networkPlugin '${AKS_WINDOWS_NETWORK_PLUGIN}'.`,
    });
  }
  forEachInlineWindowsPool(args.agentPoolProfiles, (pool, at) => {
    for (const w of aksAgentPoolWarnings(pool)) warnings.push({ ...w, path: inlinePoolPath(at, w.path) });
  });
  return warnings;
}

/**
 * Reserved administrator names (the `ManagedClusterWindowsProfile.adminUsername` docs).
 * @see https://learn.microsoft.com/rest/api/aks/managed-clusters/create-or-update#managedclusterwindowsprofile
 */
const RESERVED_ADMIN_NAMES: ReadonlySet<string> = new Set(
  'administrator admin user user1 test user2 test1 user3 admin1 1 123 a actuser adm admin2 aspnet backup console david guest john owner root server sql support support_388945a0 sys test2 test3 user4 user5'.split(
    ' ',
  ),
);

/** Passwords Azure refuses outright (same docs). */
const REFUSED_PASSWORDS: ReadonlySet<string> = new Set([
  'abc@123',
  'P@$$w0rd',
  'P@ssw0rd',
  'P@ssword123',
  'Pa$$word',
  'pass@word1',
  'Password!',
  'Password1',
  'Password22',
  'iloveyou!',
]);

function checkAdminUsername(name: unknown, path: string): ValidationIssue[] {
  if (!isKnown(name)) {
    return name === undefined
      ? [{ path, message: 'The Windows admin user name is missing.', fix: "Set e.g. 'winadmin'." }]
      : [];
  }
  if (typeof name !== 'string' || name.length < 1 || name.length > 20 || name.endsWith('.')) {
    return [
      {
        path,
        message: `Windows admin user name ${JSON.stringify(name)} must be 1–20 characters and not end in '.'.`,
        fix: "Use e.g. 'winadmin'.",
      },
    ];
  }
  if (RESERVED_ADMIN_NAMES.has(name.toLowerCase())) {
    return [
      {
        path,
        message: `Windows admin user name '${name}' is reserved by Azure.`,
        fix: "Use another name, e.g. 'winadmin'.",
      },
    ];
  }
  return [];
}

/** Checks a password when it is a plain string (Outputs and secrets are checked by Azure at deploy time). */
function checkAdminPassword(password: unknown, path: string, required: boolean): ValidationIssue[] {
  if (password === undefined || password === null) {
    return required
      ? [
          {
            path,
            message: 'The Windows admin password is missing.',
            fix: "Pass config.requireSecret('windowsAdminPassword').",
          },
        ]
      : [];
  }
  if (typeof password !== 'string') return [];
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[\W_]/].filter((re) => re.test(password)).length;
  if (password.length < 8 || password.length > 123 || classes < 3) {
    return [
      {
        path,
        message:
          'The Windows admin password must be 8–123 characters with three of: lower case, upper case, digit, symbol.',
        fix: 'Use a longer, mixed password (a generated one, kept in Pulumi secrets).',
      },
    ];
  }
  if (REFUSED_PASSWORDS.has(password)) {
    return [
      {
        path,
        message: 'The Windows admin password is one Azure refuses as too common.',
        fix: 'Use a generated password.',
      },
    ];
  }
  return [];
}

/** Warns about a literal password in user code (call it on program inputs only, never on policy inputs). */
export function plaintextPasswordWarnings(password: unknown, path: string): WindowsWarning[] {
  if (typeof password !== 'string') return [];
  return [
    {
      ruleId: 'aks-windows-password-plaintext',
      path,
      message: 'The Windows admin password is a plain string in the program: it ends up in source control.',
      fix: "Use config.requireSecret('windowsAdminPassword') or a generated password (it is kept as a Pulumi secret).",
    },
  ];
}

function checkGmsaDns(dnsServer: unknown, rootDomainName: unknown, path: string): ValidationIssue[] {
  const hasDns = isKnown(dnsServer) && dnsServer !== '';
  const hasRoot = isKnown(rootDomainName) && rootDomainName !== '';
  if (hasDns === hasRoot) return [];
  // An Output on the other side is not known yet: do not accuse it.
  const other = hasDns ? rootDomainName : dnsServer;
  if (other !== undefined && other !== '' && !isKnown(other)) return [];
  return [
    {
      path: `${path}.${hasDns ? 'rootDomainName' : 'dnsServer'}`,
      message:
        'gMSA needs both dnsServer and rootDomainName, or neither (when the virtual network resolves the domain).',
      fix: hasDns ? 'Set rootDomainName too, or remove dnsServer.' : 'Set dnsServer too, or remove rootDomainName.',
    },
  ];
}

function forEachInlineWindowsPool(pools: unknown, visit: (pool: Record<string, unknown>, at: string) => void): void {
  if (!Array.isArray(pools)) return;
  pools.forEach((p: unknown, i) => {
    if (isPlainObject(p) && p.osType === AKS_WINDOWS_OS_TYPE) {
      // Inline pools carry their name in `name`; the AgentPool resource in `agentPoolName`.
      visit({ ...p, agentPoolName: p.name }, `agentPoolProfiles[${i}]`);
    }
  });
}

function inlinePoolPath(at: string, path: string): string {
  return `${at}.${path === 'agentPoolName' ? 'name' : path}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && !pulumi.Output.isInstance(v) && !(v instanceof Promise)
  );
}
