/**
 * The gMSA credential spec (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts): its JSON model, a builder from typed inputs, and the format checks,
 * pure and framework-free so the cdk8s construct, the Pulumi component and the rule engine share them. A check
 * names the message it reports (`format`, `account-sid`, ...); the gmsa-credspec-* rule module that declares that
 * message gives the finding its rule id and severity (../rules/credspec-rules.ts, through ../gmsa-credspec.ts for
 * the builders; the engine for manifests).
 *
 * A credspec is what `New-CredentialSpec` writes: PascalCase keys, the domain SID and GUID, the gMSA listed once
 * per scope (DNS name and NetBIOS name), and for nodes that are not domain-joined a `HostAccountConfig` naming a
 * container credential guard (CCG) plugin that fetches a domain account from a secret store.
 */
import {
  ACCOUNT_NAME_FORBIDDEN_CHARS,
  DNS_LABEL,
  MAX_GMSA_CREDENTIAL_SPEC_BYTES,
  NETBIOS_DOMAIN_NAME,
} from '../windows-options';

/** API group of the gMSA CRD. */
export const GMSA_API_GROUP = 'windows.k8s.io';
/** apiVersion of GMSACredentialSpec objects (v1 is the stored version; v1alpha1 is deprecated). */
export const GMSA_API_VERSION = 'windows.k8s.io/v1';
/** Kind of the cluster-scoped object holding a credspec. */
export const GMSA_KIND = 'GMSACredentialSpec';
/** Plural resource name, used in RBAC rules and by the webhook's SubjectAccessReview. */
export const GMSA_RESOURCE = 'gmsacredentialspecs';
/** Name of the CRD. */
export const GMSA_CRD_NAME = `${GMSA_RESOURCE}.${GMSA_API_GROUP}`;
/** The RBAC verb the gMSA webhook checks for the pod's service account. */
export const GMSA_USE_VERB = 'use';
/** `CmsPlugins` of every credspec. */
export const GMSA_CMS_PLUGIN = 'ActiveDirectory';
/** `HostAccountConfig.PortableCcgVersion`: the only CCG version there is. */
export const PORTABLE_CCG_VERSION = '1';

/** CCG plugins for nodes that are not domain-joined, by their COM class GUID (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts#gmsa-for-non-domain-joined-container-hosts). */
export const CCG_PLUGIN_GUIDS = {
  /** AKS: reads the account from Azure Key Vault with a managed identity. */
  azureKeyVault: '{CCC2A336-D7F3-4818-A213-272B7924213E}',
  /** AWS: reads the account from AWS Secrets Manager. */
  awsSecretsManager: '{859E1386-BDB4-49E8-85C7-3070B13920E1}',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The document, as the CRD stores it under the top-level `credspec` key.

export interface CredentialSpecDomainJoinConfig {
  readonly Sid: string;
  readonly MachineAccountName: string;
  readonly Guid: string;
  readonly DnsTreeName: string;
  readonly DnsName: string;
  readonly NetBiosName: string;
}

export interface CredentialSpecAccount {
  readonly Name: string;
  readonly Scope: string;
}

export interface CredentialSpecHostAccountConfig {
  readonly PortableCcgVersion: string;
  readonly PluginGUID: string;
  readonly PluginInput: string;
}

export interface CredentialSpecActiveDirectoryConfig {
  readonly GroupManagedServiceAccounts: readonly CredentialSpecAccount[];
  readonly HostAccountConfig?: CredentialSpecHostAccountConfig;
}

/** A credspec document (the JSON `New-CredentialSpec` writes). */
export interface CredentialSpecDocument {
  readonly CmsPlugins: readonly string[];
  readonly DomainJoinConfig: CredentialSpecDomainJoinConfig;
  readonly ActiveDirectoryConfig: CredentialSpecActiveDirectoryConfig;
}

// ---------------------------------------------------------------------------------------------------------------
// Typed inputs.

/** The Active Directory domain the gMSA lives in (`Get-ADDomain`). */
export interface GmsaDomain {
  /** DNS name of the domain (`contoso.com`): `Get-ADDomain` `.DNSRoot`. */
  readonly dnsName: string;
  /** NetBIOS name of the domain (`CONTOSO`), 1–15 characters: `.NetBIOSName`. */
  readonly netBiosName: string;
  /** Domain SID `S-1-5-21-a-b-c` (not the gMSA's account SID): `.DomainSID`. */
  readonly sid: string;
  /** Domain GUID without braces: `.ObjectGUID`. Braces are accepted and removed. */
  readonly guid: string;
  /**
   * DNS name of the forest root: `.Forest`.
   * @default - dnsName
   */
  readonly dnsTreeName?: string;
  /**
   * The gMSA the container runs as, without the trailing `$`.
   * @default - the first account's name
   */
  readonly machineAccountName?: string;
}

/** A gMSA listed in `ActiveDirectoryConfig.GroupManagedServiceAccounts`. */
export interface GmsaAccount {
  /** The gMSA's name, without the trailing `$` (`WebApp01`). */
  readonly name: string;
  /**
   * The domain the account is looked up in (a DNS or NetBIOS domain name).
   * @default - listed twice: scoped by the domain's DNS name and by its NetBIOS name, as `New-CredentialSpec` does
   */
  readonly scope?: string;
}

/** `HostAccountConfig` for nodes that are not domain-joined (portable CCG). Build it with the helpers below. */
export interface GmsaHostAccountConfig {
  /** COM class GUID of the CCG plugin, with braces: one of `CCG_PLUGIN_GUIDS` or a vendor's. */
  readonly pluginGuid: string;
  /** Plugin-specific input string. */
  readonly pluginInput: string;
  /**
   * `PortableCcgVersion`.
   * @default '1'
   */
  readonly portableCcgVersion?: string;
}

export interface AzureKeyVaultHostAccountOptions {
  /** Object (principal) ID of the managed identity that may read the secret (a GUID). */
  readonly identityObjectId: string;
  /** URI of the Key Vault secret holding `<domain>\<user>:<password>` (`https://<vault>.vault.azure.net/secrets/<name>`). */
  readonly secretUri: string;
}

/** AKS: the Azure Key Vault CCG plugin, `PluginInput` `ObjectId=<identity>;SecretUri=<uri>`. */
export function azureKeyVaultHostAccount(options: AzureKeyVaultHostAccountOptions): GmsaHostAccountConfig {
  return {
    pluginGuid: CCG_PLUGIN_GUIDS.azureKeyVault,
    pluginInput: `ObjectId=${options.identityObjectId};SecretUri=${options.secretUri}`,
  };
}

export interface AwsSecretsManagerHostAccountOptions {
  /** ARN of the Secrets Manager secret holding `username`, `password` and `domainName` (`arn:aws:secretsmanager:...`). */
  readonly credentialArn: string;
}

/** AWS: the Secrets Manager CCG plugin, `PluginInput` a JSON *string* `{"credentialArn":"arn:aws:secretsmanager:..."}`. */
export function awsSecretsManagerHostAccount(options: AwsSecretsManagerHostAccountOptions): GmsaHostAccountConfig {
  return {
    pluginGuid: CCG_PLUGIN_GUIDS.awsSecretsManager,
    pluginInput: JSON.stringify({ credentialArn: options.credentialArn }),
  };
}

/** Everything a credspec is built from. */
export interface CredentialSpecInput {
  readonly domain: GmsaDomain;
  /** The gMSAs, primary (the one the container runs as) first. At least one. */
  readonly accounts: readonly GmsaAccount[];
  /**
   * Portable CCG settings for nodes that are not domain-joined.
   * @default - none: the Windows nodes are domain-joined
   */
  readonly hostAccountConfig?: GmsaHostAccountConfig;
}

// ---------------------------------------------------------------------------------------------------------------
// Problems.

/** The messages the credspec checks report, each declared by one gmsa-credspec-* rule module. */
export type CredspecMessageId = 'format' | 'account-sid' | 'accounts' | 'host-account-config';

/** The case of a finding a builder reports on a spelling it normalised (a rule's `normalised` case). */
export type CredspecCase = 'normalised';

/** One finding of a credspec check: the message it reports, what is wrong and what to write instead. */
export interface CredspecCheck {
  readonly messageId: CredspecMessageId;
  readonly message: string;
  readonly fix?: string;
  /** The rule's case the finding falls in, where it is not the usual one. */
  readonly case?: CredspecCase;
}

/** A credspec check's finding at its path: a prop path (`domain.sid`) for inputs, `credspec.DomainJoinConfig.Sid` for documents. */
export interface CredspecCheckAt extends CredspecCheck {
  readonly path: string;
}

type Check = CredspecCheck;

function finding(messageId: CredspecMessageId, message: string, fix?: string, caseName?: CredspecCase): Check {
  return {
    messageId,
    message,
    ...(fix !== undefined ? { fix } : {}),
    ...(caseName !== undefined ? { case: caseName } : {}),
  };
}

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BRACED_GUID = /^\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}$/;
/** Domain SIDs are `S-1-5-21-` plus three 32-bit sub-authorities; an account SID adds a fourth, the RID. */
const SID = /^S-1-5-21-(\d{1,10})-(\d{1,10})-(\d{1,10})(?:-(\d{1,10}))?$/i;
const MAX_SUB_AUTHORITY = 4294967295;
const MAX_DNS_NAME = 253;
const AZURE_KV_INPUT = /^ObjectId=([^;]*);SecretUri=(.*)$/;
const SECRETS_MANAGER_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/;

/** NetBIOS domain names follow the rule the API server applies to runAsUserName domains (https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go). */
const isNetBiosName = (value: string): boolean => NETBIOS_DOMAIN_NAME.test(value);
const isDnsName = (value: string): boolean =>
  value.length > 0 && value.length <= MAX_DNS_NAME && value.split('.').every((l) => DNS_LABEL.test(l));

function fmt(message: string, fix?: string): Check {
  return finding('format', message, fix);
}

/** Checks of a domain SID. An account SID (domain SID plus RID) is a warning: some vendor docs print that one. */
export function sidChecks(value: string): Check[] {
  const m = SID.exec(value);
  if (!m || m.slice(1).some((n) => n !== undefined && Number(n) > MAX_SUB_AUTHORITY)) {
    return [
      fmt(
        `'${value}' is not a domain SID.`,
        "Use the domain SID S-1-5-21-<a>-<b>-<c>: (Get-ADDomain).DomainSID.Value, or New-CredentialSpec's DomainJoinConfig.Sid.",
      ),
    ];
  }
  if (m[4] !== undefined) {
    const domainSid = value.slice(0, value.lastIndexOf('-'));
    return [
      finding(
        'account-sid',
        `'${value}' is an account SID (domain SID plus RID ${m[4]}), not the domain SID.`,
        `Use the domain SID '${domainSid}'.`,
      ),
    ];
  }
  return [];
}

/** Checks of `DomainJoinConfig.Guid`: a GUID without braces. */
export function domainGuidChecks(value: string): Check[] {
  if (GUID.test(value)) return [];
  if (BRACED_GUID.test(value)) return [fmt(`Guid '${value}' has braces.`, `Write '${value.slice(1, -1)}'.`)];
  return [fmt(`Guid '${value}' is not a GUID.`, 'Use (Get-ADDomain).ObjectGUID, without braces.')];
}

/** Checks of a NetBIOS domain name: 1–15 characters, none of `\ / : * ? " < > |`, not starting with a period. */
export function netBiosNameChecks(value: string): Check[] {
  return isNetBiosName(value)
    ? []
    : [
        fmt(
          `NetBIOS name '${value}' must be 1-15 characters without \\ / : * ? " < > | and must not start with '.'.`,
          'Use (Get-ADDomain).NetBIOSName.',
        ),
      ];
}

/** Checks of a DNS domain name. */
export function dnsNameChecks(value: string, field: string): Check[] {
  return isDnsName(value)
    ? []
    : [fmt(`${field} '${value}' is not a DNS name.`, 'Use the DNS name of the domain, such as contoso.com.')];
}

/**
 * Checks of a gMSA account name: a prop (`name`, `machineAccountName`), or a document field (`MachineAccountName`,
 * `GroupManagedServiceAccounts[].Name`), whose fix is just the value to write.
 */
export function accountNameChecks(value: string, field: string, source: 'prop' | 'document' = 'prop'): Check[] {
  if (value.length === 0) return [fmt(`${field} is empty.`, "Use the gMSA's name, such as WebApp01.")];
  const checks: Check[] = [];
  if (value.endsWith('$')) {
    checks.push(
      fmt(
        `${field} '${value}' ends with '$' (the sAMAccountName form).`,
        source === 'prop' ? `Write '${value.slice(0, -1)}', without the '$'.` : `Write '${value.slice(0, -1)}'.`,
      ),
    );
  }
  if (ACCOUNT_NAME_FORBIDDEN_CHARS.test(value)) {
    checks.push(
      fmt(
        `${field} '${value}' contains a character account names cannot hold (" / \\ [ ] : ; | = , + * ? < > @).`,
        'Use the bare gMSA name, without domain or UPN suffix.',
      ),
    );
  }
  return checks;
}

/** Checks of a `Scope`: the domain the account is looked up in, a DNS or NetBIOS name. */
export function scopeChecks(value: string): Check[] {
  return isDnsName(value) || isNetBiosName(value)
    ? []
    : [fmt(`Scope '${value}' is neither a DNS nor a NetBIOS domain name.`, "Use the domain's DNS or NetBIOS name.")];
}

function hostAccount(message: string, fix: string): Check {
  return finding('host-account-config', message, fix);
}

/** Checks of a CCG `PluginGUID`: a GUID in braces. */
export function pluginGuidChecks(value: string): Check[] {
  if (BRACED_GUID.test(value)) return [];
  if (GUID.test(value)) return [hostAccount(`PluginGUID '${value}' has no braces.`, `Write '{${value}}'.`)];
  return [
    hostAccount(
      `PluginGUID '${value}' is not a GUID in braces.`,
      `Use ${CCG_PLUGIN_GUIDS.azureKeyVault} (Azure Key Vault) or ${CCG_PLUGIN_GUIDS.awsSecretsManager} (AWS Secrets Manager).`,
    ),
  ];
}

/** Checks of `PluginInput` for the plugins whose format is known; other plugins' input is not checked. */
export function pluginInputChecks(pluginGuid: string, input: unknown): Check[] {
  if (typeof input !== 'string') {
    return [
      hostAccount(
        `PluginInput is a ${input === null ? 'null' : typeof input}, not a string.`,
        'Write the plugin input as a string (for AWS, a JSON document serialised into a string).',
      ),
    ];
  }
  const guid = pluginGuid.toUpperCase();
  if (guid === CCG_PLUGIN_GUIDS.azureKeyVault) {
    const m = AZURE_KV_INPUT.exec(input);
    const checks: Check[] = [];
    if (!m) {
      return [
        hostAccount(
          `PluginInput '${input}' is not in the Azure Key Vault plugin's format.`,
          "Write 'ObjectId=<managed identity object id>;SecretUri=<key vault secret URI>' (azureKeyVaultHostAccount()).",
        ),
      ];
    }
    if (!GUID.test(m[1])) {
      checks.push(
        hostAccount(
          `PluginInput ObjectId '${m[1]}' is not a GUID.`,
          "Use the managed identity's object (principal) ID.",
        ),
      );
    }
    if (!/^https:\/\/[^/\s]+\/secrets\/[^/\s]+(\/[^/\s]*)?$/.test(m[2])) {
      checks.push(
        hostAccount(
          `PluginInput SecretUri '${m[2]}' is not a Key Vault secret URI.`,
          'Use https://<vault>.vault.azure.net/secrets/<name>.',
        ),
      );
    }
    return checks;
  }
  if (guid === CCG_PLUGIN_GUIDS.awsSecretsManager) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch {
      parsed = undefined;
    }
    const arn =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>).credentialArn
        : undefined;
    if (typeof arn !== 'string') {
      return [
        hostAccount(
          `PluginInput '${input}' is not a JSON string with a credentialArn.`,
          'Write \'{"credentialArn":"arn:aws:secretsmanager:<region>:<account>:secret:<name>"}\' (awsSecretsManagerHostAccount()).',
        ),
      ];
    }
    return SECRETS_MANAGER_ARN.test(arn)
      ? []
      : [
          hostAccount(
            `credentialArn '${arn}' is not a Secrets Manager secret ARN.`,
            'Use arn:aws:secretsmanager:<region>:<account>:secret:<name>.',
          ),
        ];
  }
  return [];
}

/** Checks of `PortableCcgVersion`. */
export function portableCcgVersionChecks(value: unknown): Check[] {
  return value === PORTABLE_CCG_VERSION
    ? []
    : [hostAccount(`PortableCcgVersion is ${JSON.stringify(value)}.`, `Write "${PORTABLE_CCG_VERSION}" (a string).`)];
}

const sameName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The primary account must be listed for both scopes (what `New-CredentialSpec` writes). */
function primaryAccountChecks(
  primary: string,
  accounts: readonly { name: string; scope: string }[],
  dnsName: string,
  netBiosName: string,
): Check[] {
  const scopes = accounts.filter((a) => sameName(a.name, primary)).map((a) => a.scope);
  const missing = [dnsName, netBiosName].filter((s) => !scopes.some((x) => sameName(x, s)));
  if (missing.length === 0) return [];
  return [
    finding(
      'accounts',
      `The primary account '${primary}' is not listed with scope ${missing.map((s) => `'${s}'`).join(' and ')}.`,
      `List '${primary}' twice, scoped by the DNS name '${dnsName}' and by the NetBIOS name '${netBiosName}'.`,
    ),
  ];
}

function sizeChecks(credspec: unknown): Check[] {
  const bytes = Buffer.byteLength(JSON.stringify(credspec) ?? '', 'utf8');
  return bytes > MAX_GMSA_CREDENTIAL_SPEC_BYTES
    ? [
        fmt(
          `The credspec is ${bytes} bytes; the webhook inlines it into windowsOptions.gmsaCredentialSpec, which holds at most ${MAX_GMSA_CREDENTIAL_SPEC_BYTES}.`,
          'List fewer accounts.',
        ),
      ]
    : [];
}

const at =
  (path: string) =>
  (c: Check): CredspecCheckAt => ({ ...c, path });

// ---------------------------------------------------------------------------------------------------------------
// Inputs → document.

/** A credspec built from typed inputs, with what its checks found (not yet judged by the rules). */
export interface CheckedCredentialSpec {
  readonly credspec: CredentialSpecDocument;
  /** Every finding, with prop paths (`domain.sid`, `accounts[1].scope`). */
  readonly checks: readonly CredspecCheckAt[];
}

const stripBraces = (v: string): string => (BRACED_GUID.test(v) ? v.slice(1, -1) : v);
const addBraces = (v: string): string => (GUID.test(v) ? `{${v}}` : v);

/**
 * Builds a credspec from typed inputs and checks it. Unambiguous spellings are normalised and reported as
 * warnings (a domain GUID in braces, a plugin GUID without); everything else that is wrong is an error.
 */
export function checkCredentialSpecInput(input: CredentialSpecInput): CheckedCredentialSpec {
  const { domain, accounts, hostAccountConfig } = input;
  const problems: CredspecCheckAt[] = [];
  const add = (path: string, checks: Check[]): void => {
    problems.push(...checks.map(at(path)));
  };

  const guid = stripBraces(domain.guid);
  if (guid !== domain.guid) {
    add('domain.guid', [
      finding(
        'format',
        `Guid '${domain.guid}' was written without braces, as credspecs hold it.`,
        `Write '${guid}'.`,
        'normalised',
      ),
    ]);
  }
  add('domain.guid', domainGuidChecks(guid));
  add('domain.sid', sidChecks(domain.sid));
  add('domain.dnsName', dnsNameChecks(domain.dnsName, 'dnsName'));
  add('domain.netBiosName', netBiosNameChecks(domain.netBiosName));
  const dnsTreeName = domain.dnsTreeName ?? domain.dnsName; // New-CredentialSpec writes the forest root; single-domain forests share it
  if (domain.dnsTreeName !== undefined) add('domain.dnsTreeName', dnsNameChecks(dnsTreeName, 'dnsTreeName'));

  if (accounts.length === 0) {
    add('accounts', [
      fmt('No gMSA account is listed.', "List the gMSA the containers run as: accounts: [{ name: 'WebApp01' }]."),
    ]);
  }
  accounts.forEach((a, i) => {
    add(`accounts[${i}].name`, accountNameChecks(a.name, 'name'));
    if (a.scope !== undefined) add(`accounts[${i}].scope`, scopeChecks(a.scope));
  });
  const machineAccountName = domain.machineAccountName ?? accounts[0]?.name ?? ''; // the primary account runs the container
  if (domain.machineAccountName !== undefined) {
    add('domain.machineAccountName', accountNameChecks(machineAccountName, 'machineAccountName'));
  }

  const rendered: CredentialSpecAccount[] = accounts.flatMap((a) =>
    a.scope === undefined
      ? [
          { Name: a.name, Scope: domain.dnsName },
          { Name: a.name, Scope: domain.netBiosName },
        ]
      : [{ Name: a.name, Scope: a.scope }],
  );
  if (machineAccountName !== '') {
    add(
      'accounts',
      primaryAccountChecks(
        machineAccountName,
        rendered.map((a) => ({ name: a.Name, scope: a.Scope })),
        domain.dnsName,
        domain.netBiosName,
      ),
    );
  }

  let hac: CredentialSpecHostAccountConfig | undefined;
  if (hostAccountConfig !== undefined) {
    const pluginGuid = addBraces(hostAccountConfig.pluginGuid);
    if (pluginGuid !== hostAccountConfig.pluginGuid) {
      add('hostAccountConfig.pluginGuid', [
        finding(
          'host-account-config',
          `PluginGUID '${hostAccountConfig.pluginGuid}' was written in braces, as credspecs hold it.`,
          `Write '${pluginGuid}'.`,
          'normalised',
        ),
      ]);
    }
    const version = hostAccountConfig.portableCcgVersion ?? PORTABLE_CCG_VERSION; // the only portable CCG version
    add('hostAccountConfig.pluginGuid', pluginGuidChecks(pluginGuid));
    add('hostAccountConfig.pluginInput', pluginInputChecks(pluginGuid, hostAccountConfig.pluginInput));
    add('hostAccountConfig.portableCcgVersion', portableCcgVersionChecks(version));
    hac = { PortableCcgVersion: version, PluginGUID: pluginGuid, PluginInput: hostAccountConfig.pluginInput };
  }

  const credspec: CredentialSpecDocument = {
    CmsPlugins: [GMSA_CMS_PLUGIN],
    DomainJoinConfig: {
      Sid: domain.sid,
      MachineAccountName: machineAccountName,
      Guid: guid,
      DnsTreeName: dnsTreeName,
      DnsName: domain.dnsName,
      NetBiosName: domain.netBiosName,
    },
    ActiveDirectoryConfig:
      hac === undefined
        ? { GroupManagedServiceAccounts: rendered }
        : { GroupManagedServiceAccounts: rendered, HostAccountConfig: hac },
  };
  add('accounts', sizeChecks(credspec));
  return { credspec, checks: problems };
}

/** The input a builder writes a credspec field from: a prop (cdk8s) or arg (Pulumi) path, and what it defaults to. */
export interface CredspecInputOf {
  /** `domain.sid`; for a listed account, `accounts` (the document lists an unscoped account once per scope). */
  readonly input: string;
  /** The account field (`name`, `scope`) when `input` is `accounts` and the finding is about one account. */
  readonly accountField?: 'name' | 'scope';
  /** The input the value came from when this one was not given (`domain.dnsName` for `DnsTreeName`). */
  readonly defaultsTo?: string;
}

const DOCUMENT_INPUTS: Readonly<Record<string, CredspecInputOf>> = {
  'DomainJoinConfig.Sid': { input: 'domain.sid' },
  'DomainJoinConfig.Guid': { input: 'domain.guid' },
  'DomainJoinConfig.DnsName': { input: 'domain.dnsName' },
  'DomainJoinConfig.NetBiosName': { input: 'domain.netBiosName' },
  'DomainJoinConfig.DnsTreeName': { input: 'domain.dnsTreeName', defaultsTo: 'domain.dnsName' },
  'DomainJoinConfig.MachineAccountName': { input: 'domain.machineAccountName', defaultsTo: "the first account's name" },
  'ActiveDirectoryConfig.GroupManagedServiceAccounts': { input: 'accounts' },
  'ActiveDirectoryConfig.HostAccountConfig': { input: 'hostAccountConfig' },
  'ActiveDirectoryConfig.HostAccountConfig.PluginGUID': { input: 'hostAccountConfig.pluginGuid' },
  'ActiveDirectoryConfig.HostAccountConfig.PluginInput': { input: 'hostAccountConfig.pluginInput' },
  'ActiveDirectoryConfig.HostAccountConfig.PortableCcgVersion': {
    input: 'hostAccountConfig.portableCcgVersion',
    defaultsTo: `"${PORTABLE_CCG_VERSION}"`,
  },
};

/**
 * The input `checkCredentialSpecInput` writes the field at `path` of the emitted object from (`credspec.DomainJoinConfig.Sid`
 * → `domain.sid`): the inverse of the builder, so a front door can name the prop to set. Undefined for what the
 * builder always writes itself (`CmsPlugins`, the two configs' presence) and for paths outside the credspec.
 */
export function credspecInputOf(path: string): CredspecInputOf | undefined {
  if (path === 'credspec') return { input: 'accounts' }; // the size: only the accounts list grows it
  if (!path.startsWith('credspec.')) return undefined;
  const field = path.slice('credspec.'.length);
  const account = /^ActiveDirectoryConfig\.GroupManagedServiceAccounts\[\d+\]\.(Name|Scope)$/.exec(field);
  if (account) return { input: 'accounts', accountField: account[1] === 'Name' ? 'name' : 'scope' };
  return DOCUMENT_INPUTS[field];
}

// ---------------------------------------------------------------------------------------------------------------
// Document checks (for manifests written by hand or by other tools).

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every problem with a credspec document, with paths under `prefix` (`credspec.DomainJoinConfig.Sid`). Never throws,
 * whatever the input. Pass the value of the object's top-level `credspec` key.
 */
export function credentialSpecChecks(credspec: unknown, prefix = 'credspec'): CredspecCheckAt[] {
  const problems: CredspecCheckAt[] = [];
  const add = (path: string, checks: Check[]): void => {
    problems.push(...checks.map(at(`${prefix}${path}`)));
  };
  if (!isRec(credspec)) {
    add('', [fmt('The credspec is missing or not an object.', 'Write the JSON New-CredentialSpec produces.')]);
    return problems;
  }
  const plugins = credspec.CmsPlugins;
  if (!Array.isArray(plugins) || !plugins.includes(GMSA_CMS_PLUGIN)) {
    add('.CmsPlugins', [
      fmt(`CmsPlugins is ${JSON.stringify(plugins) ?? 'missing'}.`, `Write CmsPlugins: ["${GMSA_CMS_PLUGIN}"].`),
    ]);
  } else {
    plugins.forEach((v: unknown, i) => {
      if (typeof v !== 'string') {
        add(`.CmsPlugins[${i}]`, [
          fmt(
            `CmsPlugins[${i}] ${JSON.stringify(v) ?? 'undefined'} is not a plugin name.`,
            `Write CmsPlugins: ["${GMSA_CMS_PLUGIN}"]; a CCG plugin goes in ActiveDirectoryConfig.HostAccountConfig.`,
          ),
        ]);
      }
    });
  }

  const djc = credspec.DomainJoinConfig;
  const strings: Record<string, string> = {};
  if (!isRec(djc)) {
    add('.DomainJoinConfig', [
      fmt('DomainJoinConfig is missing.', 'Write Sid, MachineAccountName, Guid, DnsTreeName, DnsName, NetBiosName.'),
    ]);
  } else {
    for (const key of ['Sid', 'MachineAccountName', 'Guid', 'DnsTreeName', 'DnsName', 'NetBiosName'] as const) {
      const v = djc[key];
      if (typeof v === 'string') strings[key] = v;
      else add(`.DomainJoinConfig.${key}`, [fmt(`DomainJoinConfig.${key} is missing or not a string.`)]);
    }
    const field = (key: keyof CredentialSpecDomainJoinConfig, checks: (v: string) => Check[]): void => {
      const v = strings[key];
      if (v === undefined) return;
      const found = checks(v);
      add(`.DomainJoinConfig.${key}`, found);
      // A value that is not a form the field can hold is not compared further (an account SID still is).
      if (found.some((c) => c.messageId === 'format')) delete strings[key];
    };
    field('Sid', sidChecks);
    field('Guid', domainGuidChecks);
    field('NetBiosName', netBiosNameChecks);
    field('DnsName', (v) => dnsNameChecks(v, 'DnsName'));
    field('DnsTreeName', (v) => dnsNameChecks(v, 'DnsTreeName'));
    field('MachineAccountName', (v) => accountNameChecks(v, 'MachineAccountName', 'document'));
  }

  const adc = credspec.ActiveDirectoryConfig;
  if (!isRec(adc)) {
    add('.ActiveDirectoryConfig', [
      fmt('ActiveDirectoryConfig is missing.', 'List the gMSA in ActiveDirectoryConfig.GroupManagedServiceAccounts.'),
    ]);
  } else {
    const list = adc.GroupManagedServiceAccounts;
    const accounts: { name: string; scope: string }[] = [];
    if (!Array.isArray(list) || list.length === 0) {
      add('.ActiveDirectoryConfig.GroupManagedServiceAccounts', [
        fmt('GroupManagedServiceAccounts is missing or empty.', 'List the gMSA with Name and Scope.'),
      ]);
    } else {
      list.forEach((a: unknown, i) => {
        const p = `.ActiveDirectoryConfig.GroupManagedServiceAccounts[${i}]`;
        const name = isRec(a) ? a.Name : undefined;
        const scope = isRec(a) ? a.Scope : undefined;
        if (typeof name === 'string') add(`${p}.Name`, accountNameChecks(name, 'Name', 'document'));
        else add(`${p}.Name`, [fmt('Name is missing or not a string.')]);
        if (typeof scope === 'string') add(`${p}.Scope`, scopeChecks(scope));
        else add(`${p}.Scope`, [fmt('Scope is missing or not a string.')]);
        if (typeof name === 'string' && typeof scope === 'string') accounts.push({ name, scope });
      });
      // Only between well-formed names: a malformed one is reported once, above.
      if (strings.MachineAccountName && strings.DnsName && strings.NetBiosName) {
        add(
          '.ActiveDirectoryConfig.GroupManagedServiceAccounts',
          primaryAccountChecks(strings.MachineAccountName, accounts, strings.DnsName, strings.NetBiosName),
        );
      }
    }
    const hac = adc.HostAccountConfig;
    if (hac !== undefined) {
      const p = '.ActiveDirectoryConfig.HostAccountConfig';
      if (!isRec(hac)) {
        add(p, [
          hostAccount('HostAccountConfig is not an object.', 'Write PortableCcgVersion, PluginGUID, PluginInput.'),
        ]);
      } else {
        add(`${p}.PortableCcgVersion`, portableCcgVersionChecks(hac.PortableCcgVersion));
        if (typeof hac.PluginGUID === 'string') {
          add(`${p}.PluginGUID`, pluginGuidChecks(hac.PluginGUID));
          add(`${p}.PluginInput`, pluginInputChecks(hac.PluginGUID, hac.PluginInput));
        } else {
          add(`${p}.PluginGUID`, [
            hostAccount('PluginGUID is missing or not a string.', 'Write the plugin GUID in braces.'),
          ]);
        }
      }
    }
  }
  add('', sizeChecks(credspec));
  return problems;
}
