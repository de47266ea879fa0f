/**
 * gMSA rules (reference §8, kubernetes-sigs/windows-gmsa): the GMSACredentialSpec object's shape and credspec
 * formats, and for pods the webhook's view: the credspec exists, the ServiceAccount may `use` it, init containers.
 */
import { gmsaGrant, type SetIndex } from '../context';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { isDns1123Subdomain } from '../../windows-options';
import { arr, DNS_NAME, has, isRecord, join, own, rec, show, str, type Rec } from '../util';

/** CCG plugin of the AKS Key Vault integration (reference §8). */
export const AKS_CCG_PLUGIN_GUID = '{CCC2A336-D7F3-4818-A213-272B7924213E}';
/** CCG plugin of the AWS Secrets Manager integration (reference §8). */
export const AWS_CCG_PLUGIN_GUID = '{859E1386-BDB4-49E8-85C7-3070B13920E1}';

/** How many credspec names a message lists before eliding the rest. */
const MAX_NAMES_SHOWN = 5;
const GUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;
const BRACED_GUID = /^\{[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\}$/;
const DOMAIN_SID = /^S-1-5-21-\d+-\d+-\d+$/;
const ACCOUNT_SID = /^S-1-5-21-\d+-\d+-\d+-\d+$/;
const NETBIOS_NAME = /^[^\\/:*?"<>|.\s]{1,15}$/;
const AKS_PLUGIN_INPUT = /^ObjectId=[^;=\s]+;SecretUri=https:\/\/\S+$/;
const AWS_SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:\S+$/;

function checkCredspecContent(cs: Rec, base: string, report: Report): void {
  const bad = (field: string, message: string, fix: string): void =>
    report('gmsa-credspec-format', join(base, field), message, fix);

  const plugins = own(cs, 'CmsPlugins');
  if (!Array.isArray(plugins) || !plugins.includes('ActiveDirectory')) {
    bad(
      'CmsPlugins',
      `${join(base, 'CmsPlugins')} ${show(plugins)} must list "ActiveDirectory".`,
      'Write CmsPlugins: ["ActiveDirectory"].',
    );
  } else {
    plugins.forEach((v, i) => {
      if (typeof v !== 'string') {
        bad(
          `CmsPlugins[${i}]`,
          `${join(base, 'CmsPlugins')}[${i}] ${show(v)} is not a plugin name.`,
          'Write CmsPlugins: ["ActiveDirectory"]; a CCG plugin goes in ActiveDirectoryConfig.HostAccountConfig.',
        );
      }
    });
  }

  const dj = rec(cs, 'DomainJoinConfig');
  const djBase = join(base, 'DomainJoinConfig');
  if (!dj) {
    bad(
      'DomainJoinConfig',
      `${djBase} is missing.`,
      'Generate the credspec with New-CredentialSpec and copy its DomainJoinConfig.',
    );
  } else {
    const sid = own(dj, 'Sid');
    if (typeof sid === 'string' && ACCOUNT_SID.test(sid)) {
      report(
        'gmsa-credspec-account-sid',
        join(djBase, 'Sid'),
        `${join(djBase, 'Sid')} '${sid}' is an account SID (it ends in a RID), not the domain SID.`,
        `Use the domain SID '${sid.replace(/-\d+$/, '')}' (Get-ADDomain).DomainSID.`,
      );
    } else if (typeof sid !== 'string' || !DOMAIN_SID.test(sid)) {
      bad(
        'DomainJoinConfig.Sid',
        `${join(djBase, 'Sid')} ${show(sid)} is not a domain SID.`,
        "Write the domain SID, e.g. 'S-1-5-21-1234567890-1234567890-1234567890' ((Get-ADDomain).DomainSID).",
      );
    }
    const guid = own(dj, 'Guid');
    if (typeof guid === 'string' && BRACED_GUID.test(guid)) {
      bad(
        'DomainJoinConfig.Guid',
        `${join(djBase, 'Guid')} '${guid}' has braces.`,
        `Write '${guid.slice(1, -1)}' (no braces).`,
      );
    } else if (typeof guid !== 'string' || !GUID.test(guid)) {
      bad(
        'DomainJoinConfig.Guid',
        `${join(djBase, 'Guid')} ${show(guid)} is not a GUID.`,
        "Write the domain's ObjectGUID without braces ((Get-ADDomain).ObjectGUID).",
      );
    }
    for (const field of ['DnsName', 'DnsTreeName']) {
      const v = own(dj, field);
      if (typeof v !== 'string' || !DNS_NAME.test(v)) {
        bad(
          `DomainJoinConfig.${field}`,
          `${join(djBase, field)} ${show(v)} is not a DNS name.`,
          "Write the domain's DNS name, e.g. 'contoso.com'.",
        );
      }
    }
    const netbios = own(dj, 'NetBiosName');
    if (typeof netbios !== 'string' || !NETBIOS_NAME.test(netbios)) {
      bad(
        'DomainJoinConfig.NetBiosName',
        `${join(djBase, 'NetBiosName')} ${show(netbios)} is not a NetBIOS name (1-15 characters, no dots).`,
        "Write the domain's NetBIOS name, e.g. 'CONTOSO'.",
      );
    }
    const machine = own(dj, 'MachineAccountName');
    if (typeof machine !== 'string' || machine === '') {
      bad(
        'DomainJoinConfig.MachineAccountName',
        `${join(djBase, 'MachineAccountName')} ${show(machine)} is missing.`,
        'Write the gMSA account name, without the trailing $.',
      );
    } else if (machine.endsWith('$')) {
      bad(
        'DomainJoinConfig.MachineAccountName',
        `${join(djBase, 'MachineAccountName')} '${machine}' ends with $.`,
        `Write '${machine.slice(0, -1)}'.`,
      );
    }
  }

  const ad = rec(cs, 'ActiveDirectoryConfig');
  const adBase = join(base, 'ActiveDirectoryConfig');
  const accounts = arr(ad, 'GroupManagedServiceAccounts');
  if (accounts.length === 0) {
    bad(
      'ActiveDirectoryConfig.GroupManagedServiceAccounts',
      `${join(adBase, 'GroupManagedServiceAccounts')} is empty or missing.`,
      'List the gMSA account twice: { Name, Scope: <DNS name> } and { Name, Scope: <NetBIOS name> }.',
    );
  }
  accounts.forEach((a, i) => {
    const p = `${join(adBase, 'GroupManagedServiceAccounts')}[${i}]`;
    if (!isRecord(a) || typeof a.Name !== 'string' || typeof a.Scope !== 'string') {
      bad(
        `ActiveDirectoryConfig.GroupManagedServiceAccounts[${i}]`,
        `${p} ${show(a)} needs a Name and a Scope.`,
        'Write { Name: <account>, Scope: <domain> }.',
      );
    }
  });
  const machine = str(dj, 'MachineAccountName')?.replace(/\$$/, '').toLowerCase();
  if (machine !== undefined && accounts.length > 0) {
    const scopes = new Set(
      accounts
        .filter((a) => isRecord(a) && typeof a.Name === 'string' && a.Name.toLowerCase() === machine)
        .map((a) => str(a, 'Scope')?.toLowerCase()),
    );
    const missing = [str(dj, 'DnsName'), str(dj, 'NetBiosName')].filter(
      (s): s is string => s !== undefined && !scopes.has(s.toLowerCase()),
    );
    if (missing.length > 0) {
      report(
        'gmsa-credspec-accounts',
        join(adBase, 'GroupManagedServiceAccounts'),
        `The primary account '${str(dj, 'MachineAccountName')}' is not listed with scope ${missing.map((m) => `'${m}'`).join(' and ')}.`,
        `Add { Name: '${str(dj, 'MachineAccountName')}', Scope: '<scope>' } for each of ${missing.join(', ')}.`,
      );
    }
  }

  const host = rec(ad, 'HostAccountConfig');
  if (host) checkHostAccountConfig(host, join(adBase, 'HostAccountConfig'), report);
}

function checkHostAccountConfig(host: Rec, base: string, report: Report): void {
  const bad = (field: string, message: string, fix: string): void =>
    report('gmsa-host-account-config', join(base, field), message, fix);
  if (host.PortableCcgVersion !== '1') {
    bad(
      'PortableCcgVersion',
      `${join(base, 'PortableCcgVersion')} ${show(host.PortableCcgVersion)} is not "1".`,
      'Write PortableCcgVersion: "1" (a string).',
    );
  }
  const guid = host.PluginGUID;
  if (typeof guid !== 'string' || !BRACED_GUID.test(guid)) {
    bad(
      'PluginGUID',
      `${join(base, 'PluginGUID')} ${show(guid)} is not a GUID in braces.`,
      typeof guid === 'string' && GUID.test(guid)
        ? `Write '{${guid}}'.`
        : `Write the plugin's GUID in braces, e.g. '${AKS_CCG_PLUGIN_GUID}' (AKS) or '${AWS_CCG_PLUGIN_GUID}' (AWS).`,
    );
  }
  const input = host.PluginInput;
  const inputPath = join(base, 'PluginInput');
  const upper = typeof guid === 'string' ? guid.toUpperCase() : '';
  if (upper === AKS_CCG_PLUGIN_GUID) {
    if (typeof input !== 'string' || !AKS_PLUGIN_INPUT.test(input)) {
      bad(
        'PluginInput',
        `${inputPath} ${show(input)} is not the AKS Key Vault plugin input.`,
        "Write 'ObjectId=<managed identity object id>;SecretUri=https://<vault>.vault.azure.net/secrets/<secret>'.",
      );
    }
  } else if (upper === AWS_CCG_PLUGIN_GUID) {
    let arn: unknown;
    if (typeof input === 'string') {
      try {
        arn = (JSON.parse(input) as Rec | null)?.credentialArn;
      } catch {
        arn = undefined;
      }
    }
    if (typeof arn !== 'string' || !AWS_SECRET_ARN.test(arn)) {
      bad(
        'PluginInput',
        `${inputPath} ${show(input)} is not the AWS plugin input: a JSON string with a Secrets Manager credentialArn.`,
        'Write PluginInput: \'{"credentialArn":"arn:aws:secretsmanager:<region>:<account>:secret:<name>"}\' (a string, not an object).',
      );
    }
  } else if (typeof input !== 'string' || input === '') {
    bad('PluginInput', `${inputPath} ${show(input)} is not a string.`, "Write the plugin's input as a string.");
  }
}

/** A GMSACredentialSpec object: name, scope, credspec location and content. */
export function checkCredspecObject(obj: Rec, report: Report): void {
  const meta = rec(obj, 'metadata');
  const name = own(meta, 'name');
  if (typeof name === 'string' && !isDns1123Subdomain(name)) {
    report(
      'gmsa-credspec-name',
      'metadata.name',
      `metadata.name '${name}' is not a lowercase DNS-1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters): pods cannot name it in gmsaCredentialSpecName.`,
      `Rename it to '${name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-')}'.`,
    );
  }
  if (has(meta, 'namespace')) {
    report(
      'gmsa-credspec-name',
      'metadata.namespace',
      `metadata.namespace ${show(own(meta, 'namespace'))} is set on a cluster-scoped GMSACredentialSpec.`,
      'Remove metadata.namespace.',
      'warning',
    );
  }
  const top = rec(obj, 'credspec');
  const nested = rec(rec(obj, 'spec'), 'credspec');
  if (top) {
    checkCredspecContent(top, 'credspec', report);
  } else if (nested) {
    report(
      'gmsa-credspec-location',
      'spec.credspec',
      'spec.credspec is nested under spec: the CRD keeps credspec at the top level and prunes spec, so pods get no gMSA identity.',
      'Move credspec to the top level of the object, beside metadata.',
    );
    checkCredspecContent(nested, 'spec.credspec', report);
  } else {
    report(
      'gmsa-credspec-location',
      'credspec',
      'The GMSACredentialSpec has no top-level credspec.',
      'Add credspec: the JSON New-CredentialSpec generates, as YAML, at the top level.',
    );
  }
}

/** The credspec names a pod uses, with the first path naming each. */
function credspecNames(p: PodFacts): Map<string, string> {
  const names = new Map<string, string>();
  const podPath = join(p.path, 'securityContext.windowsOptions.gmsaCredentialSpecName');
  const podName = str(rec(rec(p.spec, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
  if (podName) names.set(podName, podPath);
  for (const c of p.containers) {
    const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
    if (n && !names.has(n)) names.set(n, join(c.path, 'securityContext.windowsOptions.gmsaCredentialSpecName'));
  }
  return names;
}

/** Pod-side gMSA rules: init containers, credspec present, RBAC grant. */
export function checkPodGmsa(p: PodFacts, index: SetIndex, report: Report): void {
  for (const c of p.containers) {
    if (c.list !== 'initContainers') continue;
    const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
    if (n === undefined) continue;
    const path = join(c.path, 'securityContext.windowsOptions.gmsaCredentialSpecName');
    report(
      'gmsa-init-container',
      path,
      `${path} '${n}' is on an init container, which the gMSA webhook does not expand: it runs without the gMSA identity.`,
      'Move the Active Directory work into a regular container, or accept that the init container runs without gMSA.',
    );
  }
  const names = credspecNames(p);
  if (names.size === 0) return;
  const sa = str(p.spec, 'serviceAccountName') || str(p.spec, 'serviceAccount') || 'default';
  for (const [name, path] of names) {
    if (index.credspecs.size > 0 && !index.credspecs.has(name)) {
      report(
        'gmsa-credspec-not-found',
        path,
        `${path} '${name}' names no GMSACredentialSpec in this set (it has ${[...index.credspecs.keys()]
          .slice(0, MAX_NAMES_SHOWN)
          .map((k) => `'${k}'`)
          .join(', ')}${index.credspecs.size > MAX_NAMES_SHOWN ? ', ...' : ''}).`,
        'Create the GMSACredentialSpec or fix the name.',
      );
    }
    if (gmsaGrant(index, p.namespace, sa, name) !== 'missing') continue;
    const message = index.hasRbac
      ? `ServiceAccount '${p.namespace}/${sa}' has no Role or ClusterRole in this set granting 'use' on GMSACredentialSpec '${name}': the gMSA webhook rejects the pod.`
      : `This set has no RBAC objects, so nothing shows that ServiceAccount '${p.namespace}/${sa}' may 'use' GMSACredentialSpec '${name}'; without that grant the gMSA webhook rejects the pod.`;
    const fix = `Add a ClusterRole with rules [{ apiGroups: [windows.k8s.io], resources: [gmsacredentialspecs], verbs: [use], resourceNames: [${name}] }] and a RoleBinding in '${p.namespace}' to ServiceAccount '${sa}'.`;
    report('gmsa-rbac-missing', path, message, fix, index.hasRbac ? undefined : 'info');
  }
}
