/**
 * The API server's pod rules (kube-apiserver validation.go `validateOS`, `validateWindows`,
 * `validateLinux`, `validateWindowsSecurityContextOptions`), with its field paths and words.
 */
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_DETAIL,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
  POD_RESOURCES_FORBIDDEN_DETAIL,
  WINDOWS_ALTERNATIVE,
} from '../../windows-fields';
import {
  CONTAINER_ADMINISTRATOR,
  CONTAINER_USER,
  gmsaCredentialSpecNameProblems,
  MAX_GMSA_CREDENTIAL_SPEC_BYTES,
  runAsUserNameProblems,
} from '../../windows-options';
import { namespaceEnforces, type SetIndex } from '../context';
import type { Fixer, FixerTable } from '../fixes';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { arr, byteLength, has, isPlaceholder, join, own, rec, show, type Rec } from '../util';

const VALID_OS = ['linux', 'windows'];

/** `spec.os.name`: Required when empty, NotSupported when not linux/windows (checked for every pod). */
function checkOsName(p: PodFacts, report: Report): void {
  const os = own(p.spec, 'os');
  if (os === undefined || os === null) return;
  const name = rec(p.spec, 'os')?.name;
  if (name === undefined || name === null || name === '') {
    report(
      'windows-os-name',
      join(p.path, 'os.name'),
      'spec.os.name is empty: Required value: cannot be empty.',
      "Set os.name to 'windows' for Windows pods or 'linux' for Linux pods.",
    );
  } else if (!VALID_OS.includes(name as string)) {
    report(
      'windows-os-name',
      join(p.path, 'os'),
      `spec.os.name ${show(name)} is not supported: supported values: "linux", "windows".`,
      typeof name === 'string' && name.toLowerCase() === 'windows'
        ? "Write 'windows' in lower case."
        : "Use 'windows' or 'linux'.",
    );
  }
}

/** Every forbidden field of a Windows pod, as [path, value, field name, detail]. */
function forbiddenFields(p: PodFacts): [string, unknown, string, string][] {
  const out: [string, unknown, string, string][] = [];
  const sc = rec(p.spec, 'securityContext');
  const scPath = join(p.path, 'securityContext');
  for (const f of FORBIDDEN_POD_SECURITY_FIELDS) {
    if (has(sc, f)) out.push([join(scPath, f), own(sc, f), f, FORBIDDEN_DETAIL]);
  }
  if (arr(sc, FORBIDDEN_POD_SYSCTLS).length > 0) {
    out.push([
      join(scPath, FORBIDDEN_POD_SYSCTLS),
      own(sc, FORBIDDEN_POD_SYSCTLS),
      FORBIDDEN_POD_SYSCTLS,
      FORBIDDEN_DETAIL,
    ]);
  }
  for (const f of Object.keys(FORBIDDEN_POD_FIELDS) as (keyof typeof FORBIDDEN_POD_FIELDS)[]) {
    const v = own(p.spec, f);
    const set = FORBIDDEN_POD_FIELDS[f] === 'any' ? has(p.spec, f) : v === true;
    if (set) out.push([join(p.path, f), v, f, FORBIDDEN_DETAIL]);
  }
  for (const c of p.containers) {
    const csc = rec(c.c, 'securityContext');
    for (const f of FORBIDDEN_CONTAINER_SECURITY_FIELDS) {
      if (has(csc, f)) out.push([join(c.path, 'securityContext', f), own(csc, f), f, FORBIDDEN_DETAIL]);
    }
  }
  if (has(p.spec, 'resources')) {
    out.push([join(p.path, 'resources'), own(p.spec, 'resources'), 'resources', POD_RESOURCES_FORBIDDEN_DETAIL]);
  }
  return out;
}

/**
 * Windows pods (spec.os.name: windows) get the API server's Forbidden errors. Pods that are Windows only by their
 * scheduling or images pass admission, so the same fields are `windows-linux-only-field` warnings: they are
 * ignored or fail on the node.
 */
function checkForbidden(p: PodFacts, report: Report): void {
  if (!p.windows) return;
  const declared = p.declaredOs === 'windows';
  for (const [path, value, field, detail] of forbiddenFields(p)) {
    const alternative = WINDOWS_ALTERNATIVE[field] ?? 'Remove it.';
    if (declared) {
      report('windows-forbidden-field', path, `${path} ${show(value)}: Forbidden: ${detail}.`, alternative);
    } else {
      report(
        'windows-linux-only-field',
        path,
        `${path} ${show(value)} is Linux-only, and this pod is Windows (${p.evidence}): the Windows node ignores it or fails the container.`,
        `${alternative} Then set spec.os.name: windows so the API server checks these fields.`,
      );
    }
  }
}

/** A Linux pod may not carry windowsOptions anywhere, not even `{}`. */
function checkLinuxWindowsOptions(p: PodFacts, report: Report): void {
  if (p.declaredOs !== 'linux') return;
  const at = (sc: unknown, path: string): void => {
    if (!has(sc, 'windowsOptions')) return;
    report(
      'windows-options-on-linux-pod',
      join(path, 'securityContext.windowsOptions'),
      `${join(path, 'securityContext.windowsOptions')} ${show(own(sc, 'windowsOptions'))}: Forbidden: windows options cannot be set for a linux pod.`,
      'Remove windowsOptions, or set spec.os.name: windows if this is a Windows pod.',
    );
  };
  at(rec(p.spec, 'securityContext'), p.path);
  for (const c of p.containers) at(rec(c.c, 'securityContext'), c.path);
}

/**
 * A Windows pod by evidence that does not say so in spec.os: advice, except in a namespace of the set that
 * enforces restricted, where Pod Security grants the Windows exemptions only to pods with spec.os.name: windows.
 */
function checkOsUnset(p: PodFacts, index: SetIndex, report: Report): void {
  if (!p.windows || has(p.spec, 'os')) return;
  const restricted = namespaceEnforces(index, p.namespace) === 'restricted';
  report(
    'windows-os-unset',
    join(p.path, 'os'),
    restricted
      ? `This pod is Windows (${p.evidence}) but spec.os.name is not set, and namespace '${p.namespace}' enforces Pod Security restricted: without spec.os.name: windows the pod gets none of the Windows exemptions (seccomp, capabilities, allowPrivilegeEscalation).`
      : `This pod is Windows (${p.evidence}) but spec.os.name is not set, so the API server does not check the Windows rules at admission.`,
    "Set os: { name: 'windows' }.",
    restricted ? 'warning' : undefined,
  );
}

/** `validateWindowsSecurityContextOptions`: formats checked for every pod that sets them. */
function checkWindowsOptions(windowsOptions: Rec, path: string, report: Report): void {
  const user = own(windowsOptions, 'runAsUserName');
  if (user !== undefined && user !== null && !isPlaceholder(user)) {
    const userPath = join(path, 'runAsUserName');
    const problems = typeof user === 'string' ? runAsUserNameProblems(user) : ['runAsUserName must be a string.'];
    if (problems.length > 0) {
      report(
        'windows-run-as-user-name',
        userPath,
        `${userPath} ${show(user)}: Invalid value: ${problems.join(' ')}`,
        `Use '${CONTAINER_USER}', '${CONTAINER_ADMINISTRATOR}', or DOMAIN\\user with a NetBIOS or DNS domain.`,
      );
    }
  }
  const gmsaName = own(windowsOptions, 'gmsaCredentialSpecName');
  if (gmsaName !== undefined && gmsaName !== null && !isPlaceholder(gmsaName)) {
    const namePath = join(path, 'gmsaCredentialSpecName');
    const problems =
      typeof gmsaName === 'string'
        ? gmsaCredentialSpecNameProblems(gmsaName)
        : ['gmsaCredentialSpecName must be a string.'];
    if (problems.length > 0) {
      report(
        'gmsa-name-format',
        namePath,
        `${namePath} ${show(gmsaName)}: Invalid value: ${problems.join(' ')}`,
        typeof gmsaName === 'string'
          ? `Name the GMSACredentialSpec with a lowercase DNS-1123 subdomain, e.g. '${
              gmsaName
                .toLowerCase()
                .replace(/[^a-z0-9.-]+/g, '-')
                .replace(/^[-.]+|[-.]+$/g, '') || 'webapp-gmsa'
            }'.`
          : 'Write the GMSACredentialSpec name as a string.',
      );
    }
  }
  const inline = own(windowsOptions, 'gmsaCredentialSpec');
  if (inline !== undefined && inline !== null) {
    const specPath = join(path, 'gmsaCredentialSpec');
    if (typeof inline !== 'string' || inline.length === 0) {
      report(
        'gmsa-inline-spec-size',
        specPath,
        `${specPath} ${show(inline)}: Invalid value: gmsaCredentialSpec cannot be an empty string.`,
        'Remove it and name a GMSACredentialSpec in gmsaCredentialSpecName; the gMSA webhook fills it in.',
      );
    } else if (byteLength(inline) > MAX_GMSA_CREDENTIAL_SPEC_BYTES) {
      report(
        'gmsa-inline-spec-size',
        specPath,
        `${specPath} is ${byteLength(inline)} bytes: Invalid value: gmsaCredentialSpec size must be under ${MAX_GMSA_CREDENTIAL_SPEC_BYTES} bytes.`,
        'Shrink the credential spec (only one account is needed), or reference a GMSACredentialSpec by name.',
      );
    }
  }
}

function checkAllWindowsOptions(p: PodFacts, report: Report): void {
  const podOptions = rec(rec(p.spec, 'securityContext'), 'windowsOptions');
  if (podOptions) checkWindowsOptions(podOptions, join(p.path, 'securityContext.windowsOptions'), report);
  for (const c of p.containers) {
    const o = rec(rec(c.c, 'securityContext'), 'windowsOptions');
    if (o) checkWindowsOptions(o, join(c.path, 'securityContext.windowsOptions'), report);
  }
}

export function checkApiServer(p: PodFacts, index: SetIndex, report: Report): void {
  checkOsName(p, report);
  checkForbidden(p, report);
  checkLinuxWindowsOptions(p, report);
  checkOsUnset(p, index, report);
  checkAllWindowsOptions(p, report);
}

/** A forbidden or Linux-only field is removed; the change report names it and its value. */
const removeField: Fixer = ({ diagnostic }) => [{ op: 'remove', path: diagnostic.path }];

/** Fixes of the API server's rules: spec.os is set, forbidden fields removed, a mis-cased OS name lower-cased. */
export const API_SERVER_FIXES: FixerTable = {
  'windows-os-unset': ({ diagnostic }) => [{ op: 'set', path: join(diagnostic.path, 'name'), value: 'windows' }],
  'windows-forbidden-field': removeField,
  'windows-linux-only-field': removeField,
  'windows-os-name': ({ pod }) => {
    const name = rec(pod.spec, 'os')?.name;
    if (typeof name !== 'string') return [];
    const lower = name.toLowerCase();
    return lower !== name && VALID_OS.includes(lower)
      ? [{ op: 'set', path: join(pod.path, 'os.name'), value: lower }]
      : [];
  },
};
