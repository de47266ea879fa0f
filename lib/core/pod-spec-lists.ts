/**
 * The shape of a pod spec's lists, checked before anything else reads them: an entry that is not an object (a `null`
 * left by a conditional spread, a stray string) is reported and replaced, so the conversion and the rules after it
 * see only objects and every problem is reported at once.
 */
import type { IssueCollector } from './errors';
import { CONTAINER_LISTS, type PodSpec } from './kube';

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
