/**
 * Checks `toWindowsPodSpec` runs on top of the forbidden-field table: list entries that are not objects, pod features
 * Windows nodes lack (hostPort, memory-backed emptyDir, mount propagation, `ClusterFirstWithHostNet`), the HostProcess
 * port rule, and the `windowsOptions` formats the API server checks. Each check adds issues naming the field, the
 * value and the fix, with the same paths and words as the `validateManifests` rules, so a construct never emits what
 * the validator calls an error.
 */
import type { IssueCollector } from './errors';
import { CONTAINER_LISTS, type PodSpec } from './kube';
import {
  MAX_GMSA_CREDENTIAL_SPEC_BYTES,
  gmsaCredentialSpecNameProblems,
  runAsUserNameProblems,
} from './windows-options';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const show = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/** Pod spec lists whose entries are objects (every top-level list of a pod spec is one). */
const POD_OBJECT_LISTS: ReadonlySet<string> = new Set([
  ...CONTAINER_LISTS,
  'volumes',
  'tolerations',
  'imagePullSecrets',
  'hostAliases',
  'topologySpreadConstraints',
  'readinessGates',
  'resourceClaims',
  'schedulingGates',
]);

/** Container lists whose entries are objects. */
const CONTAINER_OBJECT_LISTS: ReadonlySet<string> = new Set([
  'ports',
  'volumeMounts',
  'volumeDevices',
  'env',
  'envFrom',
  'resizePolicy',
]);

/** Whether every entry of `list` is an object (a loop, not `every`: this runs for every list of every pod). */
function allObjects(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (!isObject(list[i])) return false;
  return true;
}

/** Reports `owner[field]` when it is not a list of objects, and repairs it (see `checkListEntries`). */
function checkList(owner: Json, field: string, path: string, issues: IssueCollector): void {
  const list = owner[field];
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) {
    issues.add(`${path}.${field}`, `${field} is ${show(list)}, not a list.`, `Write ${field} as a list of objects.`);
    delete owner[field];
    return;
  }
  if (allObjects(list)) return;
  owner[field] = list.map((entry, i) => {
    if (isObject(entry)) return entry;
    issues.add(
      `${path}.${field}[${i}]`,
      `${field}[${i}] is ${show(entry)}; every entry must be an object (the API server refuses null entries).`,
      'Remove the entry.',
    );
    return {}; // keeps the indices of the entries after it, so their paths stay right
  });
}

/**
 * Reports list entries that are not objects (a `null` left by a conditional spread, a stray string) and replaces them
 * in `spec` (a copy) with empty objects, so the other checks see only objects and every problem is reported at once.
 */
export function checkListEntries(spec: PodSpec, prefix: string, issues: IssueCollector): void {
  const s = spec as unknown as Json;
  // One pass over the keys present: every top-level list of a pod spec holds objects, and a known list name holding
  // something else is reported too. Container lists are checked first, so their containers below are objects.
  for (const field in s) {
    const value = s[field];
    if (
      Array.isArray(value) ? !allObjects(value) : value !== undefined && value !== null && POD_OBJECT_LISTS.has(field)
    )
      checkList(s, field, prefix, issues);
  }
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const list = CONTAINER_LISTS[l];
    const containers = s[list] as Json[] | undefined;
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i];
      for (const field in c) {
        const value = c[field];
        if (
          CONTAINER_OBJECT_LISTS.has(field) &&
          value !== undefined &&
          value !== null &&
          !(Array.isArray(value) && allObjects(value))
        )
          checkList(c, field, `${prefix}.${list}[${i}]`, issues);
      }
    }
  }
}

/** Where a `windowsOptions` value came from: an option of the caller (named by `optionPath`) or the spec. */
export interface WindowsOptionsPaths {
  /** API path of the `windowsOptions` object. */
  readonly path: string;
  /** Issue path for `runAsUserName` when the caller's option set it. */
  readonly runAsUserNameOption?: string;
  /** Issue path for `gmsaCredentialSpecName` when the caller's option set it. */
  readonly gmsaOption?: string;
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * The API server's format checks of one `windowsOptions` (validation.go `validateWindowsSecurityContextOptions`):
 * `runAsUserName` (domain and user parts, no control characters), `gmsaCredentialSpecName` (a DNS-1123
 * subdomain) and an inline `gmsaCredentialSpec` (non-empty, at most 64 KiB).
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go
 */
export function checkWindowsOptionsFormat(wo: Json, at: WindowsOptionsPaths, issues: IssueCollector): void {
  const user = wo.runAsUserName;
  if (user !== undefined && user !== null) {
    const path = at.runAsUserNameOption ?? `${at.path}.runAsUserName`;
    const problems = typeof user === 'string' ? runAsUserNameProblems(user) : ['runAsUserName must be a string.'];
    for (const p of problems)
      issues.add(path, `${show(user)}: ${p}`, "Write 'ContainerUser', 'ContainerAdministrator' or 'DOMAIN\\user'.");
  }
  const name = wo.gmsaCredentialSpecName;
  if (name !== undefined && name !== null) {
    const path = at.gmsaOption ?? `${at.path}.gmsaCredentialSpecName`;
    const problems =
      typeof name !== 'string'
        ? ['gmsaCredentialSpecName must be a string.']
        : name.length === 0
          ? ['gmsaCredentialSpecName cannot be empty.']
          : gmsaCredentialSpecNameProblems(name);
    for (const p of problems) issues.add(path, p, 'Use the GMSACredentialSpec object name.');
  }
  const inline = wo.gmsaCredentialSpec;
  if (inline !== undefined && inline !== null) {
    const path = `${at.path}.gmsaCredentialSpec`;
    if (typeof inline !== 'string' || inline.length === 0) {
      issues.add(
        path,
        `gmsaCredentialSpec ${show(inline)} cannot be empty.`,
        'Remove it and name a GMSACredentialSpec in gmsaCredentialSpecName; the gMSA webhook fills it in.',
      );
    } else if (byteLength(inline) > MAX_GMSA_CREDENTIAL_SPEC_BYTES) {
      issues.add(
        path,
        `gmsaCredentialSpec is ${byteLength(inline)} bytes; the API server accepts at most ${MAX_GMSA_CREDENTIAL_SPEC_BYTES} (64 KiB).`,
        'Shrink the credential spec (only one account is needed), or reference a GMSACredentialSpec by name.',
      );
    }
  }
}
