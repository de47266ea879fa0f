/**
 * The cross-object index of one input set, built once: RuntimeClasses, Namespaces, GMSACredentialSpecs and RBAC
 * by name, so pod rules look things up instead of rescanning the set.
 */
import { arr, isRecord, rec, str, type Rec } from './util';

export interface RoleRefEntry {
  readonly roleKind: string;
  readonly roleName: string;
  /** The RoleBinding's namespace; undefined for a ClusterRoleBinding. */
  readonly bindingNamespace?: string;
}

export interface SetIndex {
  readonly runtimeClasses: ReadonlyMap<string, Rec>;
  readonly namespaces: ReadonlyMap<string, Rec>;
  readonly credspecs: ReadonlyMap<string, Rec>;
  /** Roles by `namespace/name`. */
  readonly roles: ReadonlyMap<string, Rec>;
  readonly clusterRoles: ReadonlyMap<string, Rec>;
  /** Bindings by subject: `sa:<namespace>:<name>` or `group:<name>`. */
  readonly bindingsBySubject: ReadonlyMap<string, readonly RoleRefEntry[]>;
  /** Whether the set holds any RBAC object (else RBAC findings are advice only). */
  readonly hasRbac: boolean;
}

/** Namespace Kubernetes assumes when metadata.namespace is absent. */
export const DEFAULT_NAMESPACE = 'default';

export function namespaceOf(obj: unknown): string {
  return str(rec(obj, 'metadata'), 'namespace') || DEFAULT_NAMESPACE;
}

export function nameOf(obj: unknown): string | undefined {
  return str(rec(obj, 'metadata'), 'name');
}

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

class IndexBuilder {
  readonly runtimeClasses = new Map<string, Rec>();
  readonly namespaces = new Map<string, Rec>();
  readonly credspecs = new Map<string, Rec>();
  readonly roles = new Map<string, Rec>();
  readonly clusterRoles = new Map<string, Rec>();
  readonly bindingsBySubject = new Map<string, RoleRefEntry[]>();
  hasRbac = false;

  add(obj: Rec): void {
    const kind = obj.kind;
    const name = nameOf(obj);
    if (typeof kind !== 'string' || name === undefined) return;
    switch (kind) {
      case 'RuntimeClass':
        this.runtimeClasses.set(name, obj);
        return;
      case 'Namespace':
        this.namespaces.set(name, obj);
        return;
      case 'GMSACredentialSpec':
        this.credspecs.set(name, obj);
        return;
      default:
        break;
    }
    if (!RBAC_KINDS.has(kind)) return;
    this.hasRbac = true;
    if (kind === 'Role') this.roles.set(`${namespaceOf(obj)}/${name}`, obj);
    else if (kind === 'ClusterRole') this.clusterRoles.set(name, obj);
    else this.addBinding(obj, kind === 'RoleBinding' ? namespaceOf(obj) : undefined);
  }

  private addBinding(obj: Rec, bindingNamespace: string | undefined): void {
    const roleRef = rec(obj, 'roleRef');
    const roleKind = str(roleRef, 'kind');
    const roleName = str(roleRef, 'name');
    if (roleKind === undefined || roleName === undefined) return;
    const entry: RoleRefEntry = { roleKind, roleName, ...(bindingNamespace !== undefined ? { bindingNamespace } : {}) };
    for (const s of arr(obj, 'subjects')) {
      if (!isRecord(s)) continue;
      const subjectName = str(s, 'name');
      if (subjectName === undefined) continue;
      let k: string | undefined;
      if (s.kind === 'ServiceAccount') k = `sa:${str(s, 'namespace') || bindingNamespace || ''}:${subjectName}`;
      else if (s.kind === 'Group') k = `group:${subjectName}`;
      if (k === undefined) continue;
      const list = this.bindingsBySubject.get(k);
      if (list) list.push(entry);
      else this.bindingsBySubject.set(k, [entry]);
    }
  }
}

export function buildIndex(objects: readonly unknown[]): SetIndex {
  const b = new IndexBuilder();
  for (const o of objects) if (isRecord(o)) b.add(o);
  return b;
}

/** The `pod-security.kubernetes.io/enforce` label of a Namespace in the set, when there is one. */
export function namespaceEnforces(index: SetIndex, namespace: string): string | undefined {
  const labels = rec(rec(index.namespaces.get(namespace), 'metadata'), 'labels');
  return str(labels, 'pod-security.kubernetes.io/enforce');
}

function listHas(values: readonly unknown[], wanted: string): boolean {
  return values.some((v) => v === wanted || v === '*');
}

/** Whether a Role/ClusterRole rule grants `use` on the named GMSACredentialSpec. */
function grantsUse(role: Rec, credspec: string): boolean {
  return arr(role, 'rules').some((r) => {
    if (!isRecord(r)) return false;
    const names = arr(r, 'resourceNames');
    return (
      listHas(arr(r, 'verbs'), 'use') &&
      listHas(arr(r, 'apiGroups'), 'windows.k8s.io') &&
      listHas(arr(r, 'resources'), 'gmsacredentialspecs') &&
      (names.length === 0 || names.includes(credspec))
    );
  });
}

export type GrantResult = 'granted' | 'missing' | 'unknown';

/**
 * Whether the set grants `use` on `credspec` to the ServiceAccount, the way the gMSA webhook's
 * SubjectAccessReview would see it. `unknown` when a binding names a role that is not in the set.
 */
export function gmsaGrant(index: SetIndex, namespace: string, serviceAccount: string, credspec: string): GrantResult {
  // Pods of one ServiceAccount share the answer: a large set repeats its bindings and its credspec pods.
  let memo = GRANTS.get(index);
  if (memo === undefined) GRANTS.set(index, (memo = new Map()));
  const key = `${namespace}\u0000${serviceAccount}\u0000${credspec}`;
  let result = memo.get(key);
  if (result === undefined) memo.set(key, (result = findGrant(index, namespace, serviceAccount, credspec)));
  return result;
}

/** `gmsaGrant`'s answers by index (an index is built once per run and not changed after). */
const GRANTS = new WeakMap<SetIndex, Map<string, GrantResult>>();

function findGrant(index: SetIndex, namespace: string, serviceAccount: string, credspec: string): GrantResult {
  const subjects = [
    `sa:${namespace}:${serviceAccount}`,
    'group:system:serviceaccounts',
    `group:system:serviceaccounts:${namespace}`,
    'group:system:authenticated',
  ];
  let unknown = false;
  for (const s of subjects) {
    for (const b of index.bindingsBySubject.get(s) ?? []) {
      if (b.bindingNamespace !== undefined && b.bindingNamespace !== namespace) continue;
      const role =
        b.roleKind === 'ClusterRole'
          ? index.clusterRoles.get(b.roleName)
          : b.roleKind === 'Role' && b.bindingNamespace !== undefined
            ? index.roles.get(`${b.bindingNamespace}/${b.roleName}`)
            : undefined;
      if (role === undefined) unknown = true;
      else if (grantsUse(role, credspec)) return 'granted';
    }
  }
  return unknown ? 'unknown' : 'missing';
}

/**
 * Whether the set holds RBAC about this pod's gMSA use: a binding for its ServiceAccount, or a role granting `use`
 * on the credspec. Only then is a missing grant certain enough to be an error; otherwise the grant may live in
 * files that were not given.
 */
export function rbacConcerns(index: SetIndex, namespace: string, serviceAccount: string, credspec: string): boolean {
  if (index.bindingsBySubject.has(`sa:${namespace}:${serviceAccount}`)) return true;
  for (const role of index.clusterRoles.values()) if (grantsUse(role, credspec)) return true;
  for (const role of index.roles.values()) if (grantsUse(role, credspec)) return true;
  return false;
}
