/**
 * How the Windows workload constructs turn cdk8s-plus's pod spec into a Windows pod spec. Internal to the cdk8s
 * layer: the constructs record what the user set and make cdk8s-plus render none of its Linux security defaults
 * (cheaper than removing them from the JSON, which is kept for containers whose props are unknown), and at render
 * time this module runs the core's `toWindowsPodSpec` on the final JSON (API field names), so containers, volumes
 * and scheduling added after construction are covered.
 */
import { JsonPatch, Size, type ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { IConstruct } from 'constructs';
import { IssueCollector, WindowsValidationError, type ValidationIssue } from '../core/errors';
import { runConstructRules } from '../core/construct-rules';
// The rules every construct runs on its first pod, loaded with the constructs rather than in the middle of the first
// render (the registry's other 92 rules are not: front-door.ts loads them only for another rule's finding).
import '../core/rules/refused-by-constructs';
import { schedulingFor } from '../core/target';
import type { Container, PodSpec } from '../core/kube';
import { FORBIDDEN_CONTAINER_SECURITY_FIELDS } from '../core/windows-fields';
import { POD_SPEC_PATHS } from '../core/workloads';
import {
  toWindowsPodSpec,
  toWindowsPodSpecInPlace,
  type ToWindowsPodSpecOptions,
  type WindowsWarning,
} from '../core/pod-spec';
import { recordWarning, WindowsAnnotations } from './annotations';
import { inFrontDoorWords } from '../core/rules/front-door';
import type * as ForbiddenField from '../core/rules/windows-forbidden-field';
import { checkImageFacts, imageResolutionOf, lookUpImages } from './image-facts';
import type { ImageLookups } from '../core/model/image-facts';
import type { ImageResolutionSettings } from '../registry/resolve-set';
import { mergeCoreError, type ResolvedWindowsOptions } from './resolve-props';

type Json = Record<string, unknown>;

/** cdk8s-plus container securityContext props and the API fields they render to (container.js). */
const CONTAINER_SECURITY_FIELDS = {
  user: 'runAsUser',
  group: 'runAsGroup',
  ensureNonRoot: 'runAsNonRoot',
  privileged: 'privileged',
  readOnlyRootFilesystem: 'readOnlyRootFilesystem',
  allowPrivilegeEscalation: 'allowPrivilegeEscalation',
  capabilities: 'capabilities',
  seccompProfile: 'seccompProfile',
} as const satisfies Record<keyof kplus.ContainerSecurityContextProps, string>;

/** cdk8s-plus pod securityContext props and the API fields they render to (pod.js). */
const POD_SECURITY_FIELDS = {
  fsGroup: 'fsGroup',
  fsGroupChangePolicy: 'fsGroupChangePolicy',
  user: 'runAsUser',
  group: 'runAsGroup',
  ensureNonRoot: 'runAsNonRoot',
  sysctls: 'sysctls',
} as const satisfies Record<keyof kplus.PodSecurityContextProps, string>;

/**
 * What cdk8s-plus 2.5 renders into a container's securityContext when the user says nothing (container.js
 * `ContainerSecurityContext`): used only for containers attached with `attachContainer`, whose props we never saw.
 */
const CDK8S_PLUS_CONTAINER_SECURITY_DEFAULTS: Readonly<Record<string, unknown>> = {
  runAsNonRoot: true,
  privileged: false,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
};

/**
 * Container resources when the user gives none: cdk8s-plus's own default (1 CPU request, 1.5 CPU limit, 2 GiB
 * memory limit) with the memory request raised to the limit, because Windows enforces memory limits with job
 * objects that page instead of killing (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 */
export const WINDOWS_CONTAINER_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(1000), limit: kplus.Cpu.millis(1500) },
  memory: { request: Size.mebibytes(2048), limit: Size.mebibytes(2048) },
};

/**
 * Container resources of node agents (`WindowsDaemonSet`, `WindowsHostProcessDaemonSet`) when the user gives none:
 * they run on every Windows node, so `WINDOWS_CONTAINER_RESOURCES` (1 CPU, 2 GiB) would take that much from every
 * node. Sized from the agents' own manifests:
 * - windows_exporter requests nothing (prometheus-community/windows_exporter `kubernetes/windows-exporter-daemonset.yaml`);
 * - csi-proxy requests nothing (kubernetes-sigs/sig-windows-tools `hostprocess/csi-proxy/csi-proxy.yaml`,
 *   kubernetes-sigs/cluster-api-provider-azure `templates/addons/windows/csi-proxy/csi-proxy.yaml`);
 * - Fluent Bit requests and limits 500m CPU and 600Mi memory (aws-samples/amazon-cloudwatch-container-insights
 *   `k8s-deployment-manifest-templates/deployment-mode/daemonset/container-insights-monitoring/fluent-bit/fluent-bit-windows.yaml`).
 * So: Fluent Bit's 600Mi memory, requested in full (Windows pages rather than kills over its request:
 * https://kubernetes.io/docs/concepts/configuration/windows-resource-management/), and its 500m CPU as the limit
 * only; CPU is reclaimable, so the request is 100m, which the two agents that request nothing stay well under.
 * (Copies of these manifests, with their commits: test/fixtures/realworld/SOURCES.md.)
 */
export const WINDOWS_AGENT_CONTAINER_RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
  memory: { request: Size.mebibytes(600), limit: Size.mebibytes(600) },
};

/** Windows images are large: pull them once per node (https://kubernetes.io/docs/concepts/windows/intro/). */
export const WINDOWS_IMAGE_PULL_POLICY = kplus.ImagePullPolicy.IF_NOT_PRESENT;

/**
 * The cdk8s-plus internals the constructs use so a container renders only what the user set (container.js, the same
 * in cdk8s-plus-28 to 34, checked by test/cdk8s/majors.test.ts): a container keeps its startup probe in `_startup`
 * (a tcpSocket probe on its port when the user gives none) and renders its securityContext, defaults filled in,
 * through `securityContext._toKube()`.
 */
interface ContainerInternals {
  _startup?: unknown;
  readonly securityContext?: { _toKube?: () => Json | undefined };
}

/** What the render knows of a container added through `addContainer`/`addInitContainer`. */
interface RecordedContainer {
  /** The props the user gave. */
  readonly props: kplus.ContainerProps;
  /** Whether the container renders only the user's security fields and startup probe (see `renderUserFieldsOnly`). */
  readonly userFieldsOnly: boolean;
}

const RECORDED_CONTAINERS = new WeakMap<kplus.Container, RecordedContainer>();

/**
 * The container props handed to cdk8s-plus: the user's, with the Windows defaults for what they left out
 * (`defaultResources`: `WINDOWS_CONTAINER_RESOURCES`, or `WINDOWS_AGENT_CONTAINER_RESOURCES` for node agents).
 */
export function windowsContainerProps(
  props: kplus.ContainerProps,
  defaultResources: kplus.ContainerResources = WINDOWS_CONTAINER_RESOURCES,
): kplus.ContainerProps {
  return {
    ...props,
    imagePullPolicy: props.imagePullPolicy ?? WINDOWS_IMAGE_PULL_POLICY,
    resources: props.resources ?? defaultResources,
  };
}

/**
 * Makes `container` render only the securityContext fields and the startup probe the user set, dropping cdk8s-plus's
 * Linux defaults before they are rendered (cheaper than removing them from the JSON afterwards, which the render
 * still does for containers whose props it never saw). Returns false, changing nothing, when this cdk8s-plus keeps
 * them elsewhere.
 */
function renderUserFieldsOnly(container: kplus.Container, props: kplus.ContainerProps): boolean {
  const internals = container as unknown as ContainerInternals;
  const sc = internals.securityContext;
  const render = sc?._toKube;
  if (sc === undefined || typeof render !== 'function' || !('_startup' in internals)) return false;
  internals._startup = props.startup;
  const user = props.securityContext as Json | undefined;
  sc._toKube =
    user === undefined
      ? renderNothing
      : () => keptSecurityFields(render.call(sc) ?? {}, CONTAINER_PROP_OF, user, false);
  return true;
}

const renderNothing = (): undefined => undefined;

/**
 * Makes a workload whose props set no pod securityContext render none: cdk8s-plus fills in `fsGroupChangePolicy` and
 * `runAsNonRoot: true` (pod.js `PodSecurityContext._toKube`, the same in cdk8s-plus-28 to 34), which a Windows pod
 * must not carry. A workload that sets one renders it, and the render keeps only the user's fields.
 */
export function renderNoPodSecurityDefaults(workload: kplus.AbstractPod, props: kplus.AbstractPodProps): void {
  if (props.securityContext !== undefined) return;
  const sc = workload.securityContext as unknown as { _toKube?: unknown };
  if (typeof sc._toKube === 'function') sc._toKube = renderNothing;
}

/** Remembers what the user set on a container and makes it render only that (see `renderUserFieldsOnly`). */
export function recordContainer<T extends kplus.Container>(container: T, props: kplus.ContainerProps): T {
  RECORDED_CONTAINERS.set(container, { props, userFieldsOnly: renderUserFieldsOnly(container, props) });
  return container;
}

/** The user's props of the pod and its containers, as the render needs them. */
export interface PodSource {
  readonly podSecurityContext?: kplus.PodSecurityContextProps;
  /** What is known of container `index` of `list`; undefined for containers attached with `attachContainer`. */
  container(list: 'containers' | 'initContainers', index: number): RecordedContainer | undefined;
}

/** A `PodSource` reading a cdk8s-plus workload's containers, in render order. */
export function workloadSource(workload: kplus.AbstractPod, props: kplus.AbstractPodProps): PodSource {
  return {
    podSecurityContext: props.securityContext,
    container: (list, index) => {
      const c = list === 'containers' ? workload.containers[index] : workload.initContainers[index];
      return c === undefined ? undefined : RECORDED_CONTAINERS.get(c);
    },
  };
}

/**
 * The container lists a cdk8s-plus pod renders, init containers first as in the API. The render's loops over them
 * are indexed: they run for every pod, mostly before the JIT has optimized them, where `for...of` costs several
 * times more (bench/synth-fresh.bench.ts).
 */
const APP_CONTAINER_LISTS = ['initContainers', 'containers'] as const;

const CONTAINER_SECURITY_ENTRIES = Object.entries(CONTAINER_SECURITY_FIELDS);
const POD_SECURITY_ENTRIES = Object.entries(POD_SECURITY_FIELDS);
/** API field → cdk8s-plus prop, to tell a rendered field the user asked for from one cdk8s-plus filled in. */
const CONTAINER_PROP_OF: ReadonlyMap<string, string> = new Map(CONTAINER_SECURITY_ENTRIES.map(([p, f]) => [f, p]));
const POD_PROP_OF: ReadonlyMap<string, string> = new Map(POD_SECURITY_ENTRIES.map(([p, f]) => [f, p]));

/**
 * The fields of a rendered securityContext the user asked for: those whose cdk8s-plus prop they set (or, for an
 * attached container whose props are unknown, those that differ from cdk8s-plus's defaults), plus any field
 * cdk8s-plus does not manage. Undefined when none is left. A new object: deleting properties would turn the
 * rendered JSON into slow dictionary-mode objects for the rest of the synth.
 */
function keptSecurityFields(
  sc: Json,
  propOf: ReadonlyMap<string, string>,
  userProps: Readonly<Record<string, unknown>> | undefined,
  attached: boolean,
): Json | undefined {
  let out: Json | undefined;
  for (const field in sc) {
    const value = sc[field];
    if (value === undefined) continue;
    const prop = propOf.get(field);
    const keep =
      prop === undefined ||
      (attached ? CDK8S_PLUS_CONTAINER_SECURITY_DEFAULTS[field] !== value : userProps?.[prop] !== undefined);
    if (keep) (out ??= {})[field] = value;
  }
  return out;
}

/** A rendered container without what cdk8s-plus filled in and the user did not ask for. */
function containerWithoutDefaults(c: Json, user: kplus.ContainerProps | undefined): Json {
  const out: Json = {};
  for (const key in c) {
    const value = c[key];
    if (key === 'securityContext') {
      const sc = keptSecurityFields(
        value as Json,
        CONTAINER_PROP_OF,
        user?.securityContext as Json | undefined,
        user === undefined,
      );
      if (sc) out[key] = sc;
    } else if (!(key === 'startupProbe' && user !== undefined && user.startup === undefined)) out[key] = value;
  }
  return out;
}

/**
 * Drops from the rendered pod spec, in place, what cdk8s-plus filled in and the user did not ask for, where it was
 * still rendered (a pod securityContext the user set in part; attached containers): the pod securityContext's
 * `fsGroupChangePolicy` and `runAsNonRoot: true`; a container's Linux hardening (`privileged`,
 * `readOnlyRootFilesystem`, `allowPrivilegeEscalation`, and `runAsNonRoot: true`, which the kubelet refuses for
 * `ContainerAdministrator` images; the restricted profile sets it back with `ContainerUser`) and its tcpSocket
 * startup probe (tcpSocket probes are limited on Windows). The `false` cdk8s-plus writes for `hostNetwork` and
 * (plus-29 and later) `shareProcessNamespace` is dropped by the core, as inert. What is left of a forbidden field
 * was set on purpose, and `toWindowsPodSpec` reports it.
 */
function dropFrameworkDefaults(spec: Json, source: PodSource): void {
  const sc = spec.securityContext as Json | undefined;
  if (sc !== undefined) {
    const kept = keptSecurityFields(sc, POD_PROP_OF, source.podSecurityContext as Json | undefined, false);
    if (kept) spec.securityContext = kept;
    else spec.securityContext = undefined; // dropped when the spec is emitted, without a delete
  }
  for (let l = 0; l < APP_CONTAINER_LISTS.length; l++) {
    const list = APP_CONTAINER_LISTS[l];
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i] as Json;
      // Only a container that renders a securityContext or startupProbe can hold a cdk8s-plus default.
      if (c.securityContext === undefined && c.startupProbe === undefined) continue;
      const recorded = source.container(list, i);
      if (recorded?.userFieldsOnly !== true) containers[i] = containerWithoutDefaults(c, recorded?.props);
    }
  }
}

/** cdk8s sorts keys unless told not to (api-object.js `toJson`), and so does the render. */
const sortKeys = !process.env.CDK8S_DISABLE_SORT;

/**
 * The converted pod spec as it is emitted: a copy without the fields the conversion cleared (see
 * `toWindowsPodSpecInPlace`), its keys sorted again as cdk8s sorts them, since the conversion added some (`os`,
 * `nodeSelector`...).
 */
function emitted(spec: PodSpec): PodSpec {
  const obj = spec as unknown as Json;
  const keys = Object.keys(obj);
  if (sortKeys) keys.sort();
  const out: Json = {};
  for (let i = 0; i < keys.length; i++) if (obj[keys[i]] !== undefined) out[keys[i]] = obj[keys[i]];
  return out as unknown as PodSpec;
}

/**
 * Converts one rendered pod spec (JSON, API field names; this render's own, changed in place) into the Windows pod
 * spec. Throws a `WindowsValidationError` naming the construct path of `scope` and listing every problem.
 */
export function renderWindowsPodSpec(
  spec: PodSpec,
  source: PodSource,
  options: ToWindowsPodSpecOptions & { readonly pathPrefix: string; readonly onWarning: (w: WindowsWarning) => void },
  scope: IConstruct,
): PodSpec {
  dropFrameworkDefaults(spec as unknown as Json, source);
  let out: PodSpec;
  try {
    // The spec is this render's own JSON: convert it in place, without a defensive copy.
    out = toWindowsPodSpecInPlace(spec, options);
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    const prefix = options.pathPrefix;
    throw new WindowsValidationError(
      err.issues.map((i) =>
        inFrontDoorWords(i, 'cdk8s', (path) => valueAt(spec, prefix, path), options.target?.release),
      ),
      scope.node.path,
    );
  }
  return emitted(out);
}

/** The value at an API `path` (`spec.template.spec.containers[1].image`) inside `obj` rooted at `prefix`. */
function valueAt(obj: unknown, prefix: string, path: string): unknown {
  if (!path.startsWith(`${prefix}.`)) return undefined;
  let node: unknown = obj;
  for (const seg of path
    .slice(prefix.length + 1)
    .split(/\.|\[(\d+)\]/)
    .filter((x) => x !== undefined && x !== '')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** Reports a core warning on a construct, rule id first. */
export function warnOn(scope: IConstruct, alwaysPrint = false): (w: WindowsWarning) => void {
  return (warning) => {
    const w = inFrontDoorWords(warning, 'cdk8s');
    const text = `${w.path}: ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`;
    if (alwaysPrint) recordWarning(scope, w.ruleId, text, true);
    else WindowsAnnotations.of(scope).addWarning(w.ruleId, text);
  };
}

/** Where a kind keeps its pod spec: the dotted path of issues, and the parent's keys and the spec's key in its JSON. */
export interface PodSpecPlace {
  readonly prefix: string;
  readonly parentPath: readonly string[];
  readonly last: string;
}

const POD_SPEC_PLACES = new Map<string, PodSpecPlace>();

/** The `PodSpecPlace` of `kind`, worked out once per kind. */
export function podSpecPlace(kind: string): PodSpecPlace {
  let place = POD_SPEC_PLACES.get(kind);
  if (place === undefined) {
    const segments = POD_SPEC_PATHS[kind];
    if (!segments) throw new Error(`k8s-windows: ${kind} holds no pod spec.`);
    place = { prefix: segments.join('.'), parentPath: segments.slice(0, -1), last: segments[segments.length - 1] };
    POD_SPEC_PLACES.set(kind, place);
  }
  return place;
}

/**
 * Makes `apiObject` render a Windows pod spec: its `toJson` (what `cdk8s synth` and `Testing.synth` call) converts
 * the pod spec at the kind's path after cdk8s has resolved it, so anything added after construction is covered.
 */
export function renderAsWindows(
  apiObject: ApiObject,
  scope: IConstruct,
  source: PodSource,
  options: ResolvedWindowsOptions,
  resolveImages?: ImageResolutionSettings | false,
): void {
  const { prefix, parentPath, last } = podSpecPlace(apiObject.kind);
  const render = apiObject.toJson.bind(apiObject);
  // The conversion options are the same for every render of this object: built once.
  const convertOptions = { ...options, pathPrefix: prefix, onWarning: warnOn(scope) };
  // The user's JSON patches (`apiObject.addJsonPatch`) are applied after the Windows conversion, so the conversion
  // never drops what they write; what they write is then checked like the rest. `patches` is private to cdk8s.
  const patches = (apiObject as unknown as { patches?: JsonPatch[] }).patches;
  // Registry lookups, when asked for: settled at the first render (the app's context is complete by then).
  let resolution: ImageResolutionSettings | null | undefined;
  const lookUp = (json: Json): ImageLookups | undefined => {
    if (resolution === undefined) resolution = imageResolutionOf(resolveImages, scope) ?? null;
    return resolution === null ? undefined : lookUpImages(json, resolution);
  };
  /** Converts the rendered object's pod spec in place, with what the registries said about its images. */
  const convert = (json: Json, images: ImageLookups | undefined): void => {
    const parent = childAt(json, parentPath) as Json; // the kind's own pod spec path: always rendered
    const opts = images === undefined ? convertOptions : { ...convertOptions, images };
    parent[last] = renderWindowsPodSpec(parent[last] as PodSpec, source, opts, scope);
  };
  apiObject.toJson = (): Json => {
    if (!Array.isArray(patches) || patches.length === 0) {
      const json = render() as Json;
      const lookups = lookUp(json);
      convert(json, lookups);
      if (lookups !== undefined) checkImageFacts(json, lookups, scope, warnOn(scope, true));
      return json;
    }
    const userPatches = patches.splice(0);
    let json: Json;
    try {
      json = render() as Json;
    } finally {
      patches.push(...userPatches);
    }
    convert(json, lookUp(json));
    const patched = JsonPatch.apply(json, ...userPatches) as Json;
    checkPatchedPodSpec(childAt(patched, parentPath)?.[last], options, prefix, scope.node.path);
    // The patches may name other images: the final object's are looked up (the ones seen already are cached).
    const lookups = lookUp(patched);
    if (lookups !== undefined) checkImageFacts(patched, lookups, scope, warnOn(scope, true));
    return patched;
  };
}

/** The object at `path` (keys) inside `obj`; undefined when a patch removed part of it. */
function childAt(obj: Json, path: readonly string[]): Json | undefined {
  let node: Json | undefined = obj;
  for (let i = 0; i < path.length && node !== undefined; i++) node = node[path[i]] as Json | undefined;
  return node;
}

/** Refuses a pod spec that JSON patches made invalid for Windows, naming the patched fields. */
function checkPatchedPodSpec(spec: unknown, options: ResolvedWindowsOptions, prefix: string, subject: string): void {
  try {
    toWindowsPodSpec(spec as PodSpec, { ...options, containerDefaults: false, pathPrefix: prefix });
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    throw new WindowsValidationError(
      err.issues.map((i) => ({
        ...i,
        message: `${i.message} (written by a JsonPatch on this object)`,
        ...(i.fix !== undefined ? { fix: `${i.fix} Change or remove the JsonPatch.` } : {}),
      })),
      subject,
    );
  }
}

/** `false`, empty lists and empty objects are never emitted, so they are never an error (as in the core). */
function isInert(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

const FORBIDDEN_CONTAINER_FIELDS: ReadonlySet<string> = new Set(FORBIDDEN_CONTAINER_SECURITY_FIELDS);

/**
 * windows-forbidden-field's module, which words the note below: loaded when a note is due, not at import (the rule
 * module brings the API schema with it).
 */
function forbiddenFieldRule(): typeof ForbiddenField {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../core/rules/windows-forbidden-field') as typeof ForbiddenField;
}

/** The note on a forbidden field a container's props set to what Windows does anyway (left out of the manifest). */
function checkContainerProps(
  props: kplus.ContainerProps,
  prefix: string,
  list: 'initContainers' | 'containers',
  index: number,
  warn: (w: WindowsWarning) => void,
): void {
  const sc = props.securityContext as Json | undefined;
  if (sc) {
    const path = `${prefix}.${list}[${index}]`;
    for (const [prop, field] of CONTAINER_SECURITY_ENTRIES) {
      const value = sc[prop];
      if (value === undefined) continue;
      // A forbidden field set to something is refused by windows-forbidden-field on the props' pod view.
      if (FORBIDDEN_CONTAINER_FIELDS.has(field) && isInert(value)) {
        // `privileged: false` asks for what a Windows container is anyway, but the API server refuses the field
        // itself: it is left out of the manifest, and the user is told (never dropped silently).
        warn(forbiddenFieldRule().inertFieldLeftOut(`${path}.securityContext.${field}`, prop, field, value));
      }
    }
  }
}

/**
 * The construction-time check, so bad props fail where they are written, all at once: the containers' forbidden
 * fields and images from their props, and the pod-level and identity options through the core's conversion of a
 * container-less pod (run only when there is something to check, to keep construction cheap). Containers added
 * later are checked at render time.
 */
export function checkPodProps(
  props: kplus.AbstractPodProps,
  options: ResolvedWindowsOptions,
  issues: IssueCollector,
  prefix: string,
  warn: (w: WindowsWarning) => void,
): void {
  let podSc: Json | undefined;
  const userPodSc = props.securityContext as Json | undefined;
  if (userPodSc !== undefined) {
    for (const [prop, field] of POD_SECURITY_ENTRIES) {
      const value = userPodSc[prop];
      if (value !== undefined) (podSc ??= {})[field] = value;
    }
  }
  if (options.hostProcess && props.hostNetwork === false) {
    issues.add(
      'hostNetwork',
      'hostNetwork: false on a HostProcess pod.',
      'Remove it: HostProcess pods need hostNetwork: true, set for you.',
    );
  }
  if (options.securityProfile === 'restricted' && props.securityContext?.ensureNonRoot === false) {
    issues.add(
      'securityContext.ensureNonRoot',
      "ensureNonRoot: false contradicts securityProfile 'restricted', which needs runAsNonRoot: true.",
      "Remove ensureNonRoot, or use securityProfile 'baseline'.",
    );
  }
  const shareProcessNamespace = (props as { shareProcessNamespace?: boolean }).shareProcessNamespace;
  const podLevel =
    options.hostProcess ||
    options.securityProfile !== 'baseline' ||
    options.runAsUserName !== undefined ||
    options.gmsaCredentialSpecName !== undefined ||
    props.hostNetwork !== undefined ||
    shareProcessNamespace !== undefined ||
    podSc !== undefined;
  // The pod the props describe, converted by the core, whose rules refuse what lint would, when the props set more
  // than containers and their images; else only the rules, on the pod's images as the target pins it (a plain
  // workload: most of them). Warnings are given once, at synth.
  if (!podLevel && !hasPodFeatures(props)) {
    checkImages(props, options, prefix, issues);
  } else {
    const spec: PodSpec = {
      ...propsView(props),
      ...(podSc !== undefined ? { securityContext: podSc } : {}),
      ...(props.hostNetwork !== undefined ? { hostNetwork: props.hostNetwork } : {}),
      ...(shareProcessNamespace !== undefined ? { shareProcessNamespace } : {}),
    };
    try {
      toWindowsPodSpecInPlace(spec, { ...options, containerDefaults: false, pathPrefix: prefix });
    } catch (err) {
      mergeCoreError(err, issues);
    }
  }
  for (let l = 0; l < APP_CONTAINER_LISTS.length; l++) {
    const list = APP_CONTAINER_LISTS[l];
    const containers = props[list];
    if (containers === undefined) continue;
    for (let i = 0; i < containers.length; i++) {
      checkContainerProps(containers[i], prefix, list, i, warn);
    }
  }
}

/**
 * What the construct rules say of a plain workload's images, by target and by prefix and images: workloads of a
 * chart share their targets and repeat their images, and this runs for every workload constructed.
 */
const IMAGE_FINDINGS = new WeakMap<ResolvedWindowsOptions['target'], Map<string, readonly ValidationIssue[]>>();
const IMAGE_FINDINGS_MAX = 1024;

/** The construct rules on a plain workload's images, on the pod the target pins: what the render would refuse. */
function checkImages(
  props: kplus.AbstractPodProps,
  options: ResolvedWindowsOptions,
  prefix: string,
  issues: IssueCollector,
): void {
  const target = options.target;
  const init = props.initContainers ?? [];
  const containers = props.containers ?? [];
  let key = prefix;
  for (let i = 0; i < init.length; i++) key += `\ni${init[i].image}`;
  for (let i = 0; i < containers.length; i++) key += `\nc${containers[i].image}`;
  let memo = IMAGE_FINDINGS.get(target);
  if (memo === undefined) IMAGE_FINDINGS.set(target, (memo = new Map()));
  let found = options.images === undefined ? memo.get(key) : undefined;
  if (found === undefined) {
    found = judgeImages(init, containers, options, prefix);
    if (options.images === undefined) {
      if (memo.size >= IMAGE_FINDINGS_MAX) memo.clear();
      memo.set(key, found);
    }
  }
  for (let i = 0; i < found.length; i++) issues.add(found[i].path, found[i].message, found[i].fix, found[i].ruleId);
}

function judgeImages(
  init: readonly kplus.ContainerProps[],
  containers: readonly kplus.ContainerProps[],
  options: ResolvedWindowsOptions,
  prefix: string,
): readonly ValidationIssue[] {
  const target = options.target;
  const view: PodSpec = {
    os: { name: 'windows' },
    nodeSelector: schedulingFor(target).nodeSelector,
    ...(target.runtimeClassName !== undefined ? { runtimeClassName: target.runtimeClassName } : {}),
    ...(init.length > 0 ? { initContainers: init.map(imageView) } : {}),
    containers: containers.map(imageView),
  };
  const found = new IssueCollector();
  runConstructRules(view, prefix, found, ignoreWarning, {
    ...(options.images !== undefined ? { images: options.images } : {}),
    ...(target.runtimeClassName !== undefined ? { isolation: target.isolation } : {}),
  });
  return found.issues.map((issue) =>
    inFrontDoorWords(issue, 'cdk8s', (path) => valueAt(view, prefix, path), target.release),
  );
}

const ignoreWarning = (): void => undefined;
const imageView = (c: kplus.ContainerProps, i: number): Container => ({ name: c.name ?? `c${i}`, image: c.image });

/** Whether the props set anything the construct rules look at, so most workloads skip building the view. */
function hasPodFeatures(props: kplus.AbstractPodProps): boolean {
  if (props.dns?.policy !== undefined || (props.volumes?.length ?? 0) > 0) return true;
  return containersUseFeatures(props.containers) || containersUseFeatures(props.initContainers);
}

/** Whether any of `containers` sets a securityContext, mounts a volume or asks for a host port. */
function containersUseFeatures(containers: readonly kplus.ContainerProps[] | undefined): boolean {
  if (containers === undefined) return false;
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    if (c.securityContext !== undefined || (c.volumeMounts?.length ?? 0) > 0) return true;
    const ports = c.ports;
    if (ports) for (let j = 0; j < ports.length; j++) if (ports[j].hostPort !== undefined) return true;
  }
  return false;
}

/**
 * A cdk8s-plus container as the API sees it, without its image (checked from the props): its securityContext
 * fields, its ports in render order (`portNumber` first, then `ports`, container.js) and its mounts.
 */
function containerView(c: kplus.ContainerProps): Container {
  const sc = c.securityContext as Json | undefined;
  let securityContext: Json | undefined;
  if (sc !== undefined) {
    for (const [prop, field] of CONTAINER_SECURITY_ENTRIES) {
      if (sc[prop] !== undefined) (securityContext ??= {})[field] = sc[prop];
    }
  }
  const ports = [
    ...(c.portNumber !== undefined ? [{ containerPort: c.portNumber }] : []),
    ...(c.ports ?? []).map((p) => ({
      containerPort: p.number,
      ...(p.hostPort !== undefined ? { hostPort: p.hostPort } : {}),
    })),
  ];
  return {
    name: c.name ?? 'main',
    image: c.image,
    ...(securityContext !== undefined ? { securityContext } : {}),
    ports,
    volumeMounts: (c.volumeMounts ?? []).map((m) => ({
      name: m.volume.name,
      mountPath: m.path,
      ...(m.propagation !== undefined ? { mountPropagation: m.propagation } : {}),
    })),
  };
}

/** A volume as the API sees it. `_toKube` is internal to cdk8s-plus (the same in every major) but holds the medium. */
function volumeView(v: kplus.Volume): { name: string; emptyDir?: { medium?: string } } {
  return (v as unknown as { _toKube(): { name: string; emptyDir?: { medium?: string } } })._toKube();
}

/** The parts of the pod props the construct rules read, in API shape, so they fail at construction. */
function propsView(props: kplus.AbstractPodProps): PodSpec {
  const mounted = [...(props.containers ?? []), ...(props.initContainers ?? [])].flatMap((c) =>
    (c.volumeMounts ?? []).map((m) => m.volume),
  );
  const volumes = [...new Set([...(props.volumes ?? []), ...mounted])].map(volumeView);
  return {
    containers: (props.containers ?? []).map(containerView),
    initContainers: (props.initContainers ?? []).map(containerView),
    volumes,
    ...(props.dns?.policy !== undefined ? { dnsPolicy: props.dns.policy } : {}),
  };
}
