/**
 * What the AKS cluster rules and `windowsClusterProfile` share, framework-free: the Windows admin user and password
 * Azure accepts, gMSA DNS settings set together, the network plugin Windows pools need, and the cluster's inline
 * Windows pools.
 * @see https://learn.microsoft.com/azure/aks/learn/quick-windows-container-deploy-cli
 * @see https://github.com/Azure/AKS/issues/1005
 */
import type { ValidationIssue } from '../errors';
import { AKS_WINDOWS_OS_TYPE } from './aks-agent-pool';
import { isKnown } from './node-pools';

/** The network plugin Windows pools need: Azure CNI (overlay mode included). */
export const AKS_WINDOWS_NETWORK_PLUGIN = 'azure';

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

export function checkAdminUsername(name: unknown, path: string): ValidationIssue[] {
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
export function checkAdminPassword(password: unknown, path: string, required: boolean): ValidationIssue[] {
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

export function checkGmsaDns(dnsServer: unknown, rootDomainName: unknown, path: string): ValidationIssue[] {
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

/** Visits each inline Windows pool of `agentPoolProfiles`, as an agent pool's inputs, with its path. */
export function forEachInlineWindowsPool(
  pools: unknown,
  visit: (pool: Record<string, unknown>, at: string) => void,
): void {
  if (!Array.isArray(pools)) return;
  pools.forEach((p: unknown, i) => {
    if (isPlainObject(p) && p.osType === AKS_WINDOWS_OS_TYPE) {
      // Inline pools carry their name in `name`; the AgentPool resource in `agentPoolName`.
      visit({ ...p, agentPoolName: p.name }, `agentPoolProfiles[${i}]`);
    }
  });
}

/** An inline pool's input path in the cluster's words (its name is `name`, not `agentPoolName`). */
export function inlinePoolPath(at: string, path: string): string {
  return `${at}.${path === 'agentPoolName' ? 'name' : path}`;
}

/**
 * A plain object (a literal or parsed JSON): not a list, and not a class instance such as a Pulumi Output or a
 * Promise, whose fields are not known yet.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
