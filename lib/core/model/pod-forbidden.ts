/**
 * The fields of a pod the API server forbids once `spec.os.name` is windows (kube-apiserver validation.go
 * `validateWindows`, the table in ../windows-fields.ts), worked out once per pod for the two rules that report
 * them: windows-forbidden-field (declared Windows pods) and windows-linux-only-field (Windows by other evidence).
 */
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_DETAIL,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
  POD_RESOURCES_FORBIDDEN_DETAIL,
} from '../windows-fields';
import type { Fixer, FixMeaning } from './fixes';
import type { PodFacts } from './pod';
import { has, join, own, rec } from './util';

export interface ForbiddenField {
  readonly path: string;
  readonly value: unknown;
  /** The field's name: `runAsUser`, `hostPID`. */
  readonly field: string;
  /** The API server's words: "cannot be set for a windows pod". */
  readonly detail: string;
}

const POD_FIELDS = Object.keys(FORBIDDEN_POD_FIELDS) as (keyof typeof FORBIDDEN_POD_FIELDS)[];
const FIELDS = new WeakMap<PodFacts, readonly ForbiddenField[]>();

/** Every forbidden field the pod sets, in the API server's order. */
export function forbiddenFields(p: PodFacts): readonly ForbiddenField[] {
  const cached = FIELDS.get(p);
  if (cached) return cached;
  const out: ForbiddenField[] = [];
  const add = (path: string, value: unknown, field: string, detail = FORBIDDEN_DETAIL) =>
    out.push({ path, value, field, detail });
  const sc = rec(p.spec, 'securityContext');
  const scPath = join(p.path, 'securityContext');
  for (const f of FORBIDDEN_POD_SECURITY_FIELDS) if (has(sc, f)) add(join(scPath, f), own(sc, f), f);
  // An empty list asks for nothing; anything else (a list of sysctls, or a value that is not a list) is refused.
  const sysctls = own(sc, FORBIDDEN_POD_SYSCTLS);
  if (has(sc, FORBIDDEN_POD_SYSCTLS) && !(Array.isArray(sysctls) && sysctls.length === 0)) {
    add(join(scPath, FORBIDDEN_POD_SYSCTLS), own(sc, FORBIDDEN_POD_SYSCTLS), FORBIDDEN_POD_SYSCTLS);
  }
  for (const f of POD_FIELDS) {
    const v = own(p.spec, f);
    if (FORBIDDEN_POD_FIELDS[f] === 'any' ? has(p.spec, f) : v === true) add(join(p.path, f), v, f);
  }
  for (const c of p.containers) {
    const csc = rec(c.c, 'securityContext');
    for (const f of FORBIDDEN_CONTAINER_SECURITY_FIELDS) {
      if (has(csc, f)) add(join(c.path, 'securityContext', f), own(csc, f), f);
    }
  }
  if (has(p.spec, 'resources')) {
    add(join(p.path, 'resources'), own(p.spec, 'resources'), 'resources', POD_RESOURCES_FORBIDDEN_DETAIL);
  }
  FIELDS.set(p, out);
  return out;
}

/** The field is removed; the change report names it and its value. */
export const removeField: Fixer = ({ diagnostic }) => [{ op: 'remove', path: diagnostic.path }];

/** What `removeField` means, for the rules that report forbidden fields. */
export const FORBIDDEN_FIELD_REMOVAL: FixMeaning = {
  removal: 'Linux-only, the API server forbids it on Windows pods',
  removesRejectedOnWindows: true,
};
