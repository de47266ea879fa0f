/**
 * Argo Workflows: the pod the workflow controller builds for each container template, as the rules judge it.
 *
 * An Argo template is not a pod spec: the controller builds the pod from parts (argo-workflows
 * `workflow/controller/workflowpod.go`), and so does this module, keeping where each part is written:
 *
 * - containers: the template's `container` or `script` (named `main`), or each of `containerSet.containers`, then
 *   its `sidecars`; initContainers: the template's `initContainers`;
 * - volumes: the workflow's `volumes`, then the template's;
 * - nodeSelector, tolerations, affinity, securityContext, serviceAccountName, automountServiceAccountToken,
 *   priorityClassName, schedulerName: the template's (over `templateDefaults`, whose nodeSelector keys it adds to)
 *   when set, else the workflow's — a template's value replaces the workflow's, it is never merged with it;
 * - hostNetwork, dnsPolicy, dnsConfig, imagePullSecrets: the workflow's only;
 * - `podSpecPatch` (the workflow's, then the template's) last, as a strategic merge patch: maps merged, containers
 *   and volumes merged by name, other lists replaced. A field only a patch can set (`spec.os`, runtimeClassName) is
 *   reported at the template's `podSpecPatch`.
 *
 * Not followed: a calling steps or DAG template's own nodeSelector and tolerations (the controller's "boundary
 * template"), `templateRef`s to other objects, and what the controller adds itself (its `wait` and `init` containers).
 * Pod labels and annotations are the template's `metadata`. Findings name the field where it is written
 * (`spec.templates[1].nodeSelector`, or `spec.nodeSelector` when the workflow's applies); `fix` leaves these pods.
 */
import { parse } from 'yaml';
import { isRecord } from './json';
import type { PodSpec } from './kube';
import type { PodSource, PodSpecLocation } from './workloads';

type Rec = Record<string, unknown>;

/** Argo kinds that hold a workflow spec, and where it is. */
export const ARGO_WORKFLOW_KINDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['Workflow', ['spec']],
  ['WorkflowTemplate', ['spec']],
  ['ClusterWorkflowTemplate', ['spec']],
  ['CronWorkflow', ['spec', 'workflowSpec']],
]);

/** The segment that stands for the built pod's spec under its template: `spec.templates[0].«pod».containers[0]`. */
export const ARGO_POD_SEGMENT = '«pod»';

/** Why `fix` leaves Argo Workflow templates. */
export const ARGO_WORKFLOW_FIX_LEFT =
  "fix does not edit Argo Workflow templates: the workflow controller builds each pod from its template and the workflow's defaults (a template's nodeSelector and tolerations replace the workflow's, and spec.os is set only through podSpecPatch)";

/** Where one field of the built pod is written. */
interface Where {
  /** The field's path in the object; a reported path's rest is appended unless `opaque`. */
  readonly at: string;
  /** Written inside a string (podSpecPatch): nothing below it has a path of its own. */
  readonly opaque?: boolean;
  /** A list whose items come from several fields: each item's place, by index. */
  readonly items?: readonly Where[];
  /** A map whose keys come from several places: the place of the map holding each key. */
  readonly keys?: ReadonlyMap<string, Where>;
}

/** Pod fields an Argo template has: where one is reported unset, the template is where to set it. */
const TEMPLATE_FIELDS: ReadonlySet<string> = new Set([
  'containers',
  'initContainers',
  'volumes',
  'nodeSelector',
  'tolerations',
  'affinity',
  'securityContext',
  'serviceAccountName',
  'automountServiceAccountToken',
  'priorityClassName',
  'schedulerName',
  'hostAliases',
]);

/** Pod fields only the workflow has. */
const WORKFLOW_FIELDS: ReadonlySet<string> = new Set(['hostNetwork', 'dnsPolicy', 'dnsConfig', 'imagePullSecrets']);

/** Template fields (with the workflow's name for each) of which the template's replaces the workflow's. */
const SCHEDULING_FIELDS: readonly (readonly [string, string])[] = [
  ['tolerations', 'tolerations'],
  ['affinity', 'affinity'],
  ['securityContext', 'securityContext'],
  ['serviceAccountName', 'serviceAccountName'],
  ['automountServiceAccountToken', 'automountServiceAccountToken'],
  ['priorityClassName', 'podPriorityClassName'],
  ['schedulerName', 'schedulerName'],
];

/** Whether Argo counts a value as set (`len(x) > 0` for lists, maps and strings; not nil otherwise). */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (Array.isArray(v) || typeof v === 'string') return v.length > 0;
  if (isRecord(v)) return Object.keys(v).length > 0;
  return true;
}

function list(obj: unknown, key: string): unknown[] {
  const v = isRecord(obj) ? obj[key] : undefined;
  return Array.isArray(v) ? v : [];
}

/** A strategic merge of two objects: maps merged key by key, `null` deletes, anything else replaced. */
function merged(base: Rec, patch: Rec): Rec {
  const out: Rec = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else if (isRecord(v) && isRecord(out[k])) out[k] = merged(out[k] as Rec, v);
    else out[k] = v;
  }
  return out;
}

/** The patch a podSpecPatch string holds; undefined when it is not a mapping (or not YAML). */
function patchOf(text: unknown): Rec | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Applies one podSpecPatch to the built pod, as the controller does (`util.ApplyPodSpecPatch`). */
function applyPatch(spec: Rec, where: Map<string, Where>, patch: Rec, at: string): void {
  const inPatch: Where = { at, opaque: true };
  for (const [field, value] of Object.entries(patch)) {
    if (field.startsWith('$')) continue;
    const current = spec[field];
    const place = where.get(field);
    if ((field === 'containers' || field === 'initContainers' || field === 'volumes') && Array.isArray(value)) {
      const items = [...(Array.isArray(current) ? current : [])];
      const places = [...(place?.items ?? [])];
      for (const item of value) {
        if (!isRecord(item)) continue;
        const k = items.findIndex((c) => isRecord(c) && c.name === item.name);
        if (k >= 0) items[k] = merged(items[k] as Rec, item);
        else {
          items.push(item);
          places.push(inPatch);
        }
      }
      spec[field] = items;
      where.set(field, { at: place?.at ?? at, items: places });
    } else if (field === 'nodeSelector' && isRecord(value)) {
      const before = isRecord(current) ? current : {};
      const keys = new Map<string, Where>(place?.keys ?? Object.keys(before).map((k) => [k, place ?? inPatch]));
      for (const k of Object.keys(value)) keys.set(k, inPatch);
      spec[field] = merged(before, value);
      where.set(field, { at: place?.at ?? at, keys });
    } else if (value === null) {
      delete spec[field];
      where.set(field, inPatch);
    } else if (isRecord(value) && isRecord(current)) {
      spec[field] = merged(current, value);
      if (place === undefined) where.set(field, inPatch);
    } else {
      spec[field] = value;
      where.set(field, inPatch);
    }
  }
}

/** `kubernetes.io/os` of `[kubernetes.io/os]` (quoted or not). */
function keyOf(inner: string): string {
  if (!/^"(?:[^"\\]|\\.)*"$/.test(inner)) return inner;
  try {
    return JSON.parse(inner) as string;
  } catch {
    return inner;
  }
}

/** The place of a reported path's rest (`[0].image`, `[kubernetes.io/os]`) below a field written at `w`. */
function resolve(w: Where, tail: string): string {
  if (w.opaque === true) return w.at;
  if (w.items !== undefined) {
    const m = /^\[(\d+)\]/.exec(tail);
    const item = m ? w.items[Number(m[1])] : undefined;
    if (m && item !== undefined) return resolve(item, tail.slice(m[0].length));
  }
  if (w.keys !== undefined) {
    const m = /^\[([^\]]*)\]/.exec(tail);
    const place = m && !/^\d+$/.test(m[1]) ? w.keys.get(keyOf(m[1])) : undefined;
    if (place !== undefined) return place.opaque === true ? place.at : `${place.at}${tail}`;
  }
  return `${w.at}${tail}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pod the controller builds for template `i` of the workflow spec at `base`; undefined for a template without containers. */
function templatePod(kind: string, wf: Rec, base: string, i: number): PodSpecLocation | undefined {
  const tmpl = list(wf, 'templates')[i];
  if (!isRecord(tmpl)) return undefined;
  const t = `${base}.templates[${i}]`;
  const mains: { c: Rec; w: Where }[] = [];
  if (isRecord(tmpl.container)) mains.push({ c: { ...tmpl.container, name: 'main' }, w: { at: `${t}.container` } });
  else if (isRecord(tmpl.script)) mains.push({ c: { ...tmpl.script, name: 'main' }, w: { at: `${t}.script` } });
  else if (isRecord(tmpl.containerSet)) {
    list(tmpl.containerSet, 'containers').forEach((c, j) => {
      if (isRecord(c)) mains.push({ c, w: { at: `${t}.containerSet.containers[${j}]` } });
    });
  }
  if (mains.length === 0) return undefined;

  const spec: Rec = {};
  const where = new Map<string, Where>();
  const setList = (field: string, entries: readonly { c: unknown; w: Where }[]) => {
    if (entries.length === 0) return;
    spec[field] = entries.map((e) => e.c);
    where.set(field, { at: `${t}.${field}`, items: entries.map((e) => e.w) });
  };
  const own = (field: string, at: string) =>
    list(tmpl, field).map((c, j) => ({ c, w: { at: `${at}.${field}[${j}]` } }));
  setList('containers', [...mains, ...own('sidecars', t)]);
  setList('initContainers', own('initContainers', t));
  setList('volumes', [...own('volumes', base), ...own('volumes', t)]);

  const defaults = isRecord(wf.templateDefaults) ? wf.templateDefaults : undefined;
  const defaultsAt = `${base}.templateDefaults`;
  // nodeSelector: the template's keys over templateDefaults' (a strategic merge), else the workflow's.
  const tmplSelector = isRecord(tmpl.nodeSelector) ? tmpl.nodeSelector : {};
  const defaultSelector = isRecord(defaults?.nodeSelector) ? defaults.nodeSelector : {};
  if (isSet(tmplSelector) || isSet(defaultSelector)) {
    spec.nodeSelector = { ...defaultSelector, ...tmplSelector };
    const keys = new Map<string, Where>();
    for (const k of Object.keys(defaultSelector)) keys.set(k, { at: `${defaultsAt}.nodeSelector` });
    for (const k of Object.keys(tmplSelector)) keys.set(k, { at: `${t}.nodeSelector` });
    where.set('nodeSelector', { at: isSet(tmplSelector) ? `${t}.nodeSelector` : `${defaultsAt}.nodeSelector`, keys });
  } else if (isSet(wf.nodeSelector)) {
    spec.nodeSelector = wf.nodeSelector;
    where.set('nodeSelector', { at: `${base}.nodeSelector` });
  }
  for (const [field, wfField] of SCHEDULING_FIELDS) {
    if (isSet(tmpl[field])) {
      spec[field] = tmpl[field];
      where.set(field, { at: `${t}.${field}` });
    } else if (isSet(defaults?.[field])) {
      spec[field] = defaults?.[field];
      where.set(field, { at: `${defaultsAt}.${field}` });
    } else if (isSet(wf[wfField])) {
      spec[field] = wf[wfField];
      where.set(field, { at: `${base}.${wfField}` });
    }
  }
  for (const field of WORKFLOW_FIELDS) {
    if (isSet(wf[field])) {
      spec[field] = wf[field];
      where.set(field, { at: `${base}.${field}` });
    }
  }
  setList('hostAliases', [...own('hostAliases', base), ...own('hostAliases', t)]);
  for (const at of [base, t]) {
    const owner = at === base ? wf : tmpl;
    const patch = patchOf(owner.podSpecPatch);
    if (patch !== undefined) applyPatch(spec, where, patch, `${at}.podSpecPatch`);
  }

  const podPath = `${t}.${ARGO_POD_SEGMENT}`;
  const placeOf = (field: string): Where =>
    where.get(field) ??
    (TEMPLATE_FIELDS.has(field)
      ? { at: `${t}.${field}` }
      : WORKFLOW_FIELDS.has(field)
        ? { at: `${base}.${field}` }
        : { at: `${t}.podSpecPatch`, opaque: true });
  const split = (p: string): { field: string; tail: string } | undefined => {
    if (!p.startsWith(podPath)) return undefined;
    const m = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(p.slice(podPath.length));
    return m ? { field: m[1], tail: p.slice(podPath.length + m[0].length) } : { field: '', tail: '' };
  };
  const path = (p: string): string => {
    const parts = split(p);
    if (parts === undefined) return p;
    return parts.field === '' ? t : resolve(placeOf(parts.field), parts.tail);
  };
  const pattern = new RegExp(`${escapeRegExp(podPath)}(?:\\.[A-Za-z_][A-Za-z0-9_-]*|\\[[^\\]\\s']*\\])*`, 'g');
  const name = typeof tmpl.name === 'string' ? tmpl.name : String(i);
  const source: PodSource = {
    what: `Argo ${kind} template '${name}'`,
    fixLeft: ARGO_WORKFLOW_FIX_LEFT,
    rewrite: {
      path,
      text: (text) => text.replace(pattern, (m) => path(m)),
      hint: (p) => {
        const parts = split(p);
        if (parts === undefined || parts.field === '' || where.has(parts.field)) return undefined;
        if (TEMPLATE_FIELDS.has(parts.field) || WORKFLOW_FIELDS.has(parts.field)) return undefined;
        return `An Argo template sets spec.${parts.field} only through its podSpecPatch (a patch of the pod spec, such as '{"os": {"name": "windows"}}').`;
      },
    },
  };
  const meta = tmpl.metadata;
  return {
    spec: spec as unknown as PodSpec,
    path: podPath,
    ...(isRecord(meta)
      ? { podMetadata: meta as PodSpecLocation['podMetadata'], podMetadataPath: `${t}.metadata` }
      : {}),
    source,
  };
}

/** The pods an Argo Workflow, WorkflowTemplate, ClusterWorkflowTemplate or CronWorkflow makes: one per container template. */
export function argoWorkflowPods(obj: Rec): PodSpecLocation[] {
  const segments = ARGO_WORKFLOW_KINDS.get(String(obj.kind));
  if (segments === undefined) return [];
  let wf: unknown = obj;
  for (const s of segments) wf = isRecord(wf) ? wf[s] : undefined;
  if (!isRecord(wf)) return [];
  const base = segments.join('.');
  const out: PodSpecLocation[] = [];
  list(wf, 'templates').forEach((_, i) => {
    const loc = templatePod(String(obj.kind), wf as Rec, base, i);
    if (loc !== undefined) out.push(loc);
  });
  return out;
}
