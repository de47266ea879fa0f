/**
 * What the rules need to know about one pod (or pod template), worked out once: whether it is a Windows pod and
 * why, its containers with their API-server paths, its RuntimeClass, the release it is pinned to, its isolation
 * and whether it is a HostProcess pod.
 */
import { isWindowsImage, readWindowsName, type WindowsNameReading } from '../images';
import { publishedWithoutWindows, windowsOnly } from './image-lookup';
import {
  AKS_OS_SKU_LABEL,
  ARCH_LABEL,
  BETA_OS_LABEL,
  CONTAINER_LISTS,
  OS_LABEL,
  WINDOWS_BUILD_LABEL,
  type ContainerList,
} from '../kube';
import {
  isWindowsRelease,
  isWindowsRuntimeHandler,
  WINDOWS_RELEASES,
  releaseForBuild,
  releaseInfo,
  retiredRelease,
  WINDOWS_RUNTIME_HANDLERS,
  type RetiredRelease,
  type WindowsIsolation,
  type WindowsRelease,
} from '../releases';
import type { PodSource, PodSpecLocation } from '../workloads';
import { namespaceOf, type SetIndex } from './context';
import type { ValidateOptions } from './types';
import { arr, has, isRecord, join, key, rec, str, stringMap, type Rec } from './util';

export interface ContainerRef {
  readonly c: Rec;
  /** `spec.template.spec.containers[0]`. */
  readonly path: string;
  readonly list: ContainerList;
  /** Whether it runs as HostProcess (its own windowsOptions.hostProcess, else the pod's). */
  readonly hostProcess: boolean;
}

export interface ReleasePin {
  readonly release: WindowsRelease;
  /** Where the pin comes from, as a path (or `options.windowsRelease`). */
  readonly path: string;
  /** For messages: `nodeSelector node.kubernetes.io/windows-build=10.0.20348`. */
  readonly via: string;
}

/** A build label that names a release no supported node runs. */
export interface RetiredPin {
  readonly release: RetiredRelease;
  readonly path: string;
  readonly via: string;
}

/** A container image whose repository name says Windows (`readWindowsName`). */
export interface NamedWindowsImage {
  /** The container's path: `spec.containers[0]`. */
  readonly path: string;
  readonly image: string;
  readonly reading: WindowsNameReading;
}

export interface TolerationRef {
  readonly t: Rec;
  readonly path: string;
}

export interface PodFacts {
  readonly obj: Rec;
  readonly kind: string;
  readonly spec: Rec;
  /** API-server path of the pod spec: `spec`, `spec.template.spec`, `spec.jobTemplate.spec.template.spec`. */
  readonly path: string;
  readonly namespace: string;
  /** Pod labels (template labels for workloads). */
  readonly labels: Readonly<Record<string, string>>;
  /** spec.os.name when it is `windows` or `linux`. */
  readonly declaredOs?: 'windows' | 'linux';
  readonly windows: boolean;
  /** Why the pod counts as Windows, for messages. */
  readonly evidence: string;
  readonly containers: readonly ContainerRef[];
  readonly runtimeClassName?: string;
  /** The RuntimeClass the pod names, when it is in the input set. */
  readonly runtimeClass?: Rec;
  /** The kubernetes.io/os value the pod's nodeSelector (or its RuntimeClass's) asks for. */
  readonly osBySelector?: string;
  /** The label that selector uses: `kubernetes.io/os`, or the deprecated `beta.kubernetes.io/os`. */
  readonly osSelectorLabel?: string;
  /** The kubernetes.io/os value every required node affinity term asks for. */
  readonly osByAffinity?: string;
  /** The OS values required node affinity allows, when it restricts the OS at all. */
  readonly osAllowedByAffinity?: ReadonlySet<string>;
  readonly pin?: ReleasePin;
  /** A build pin (nodeSelector or RuntimeClass) to a retired release: no node matches it. */
  readonly retiredPin?: RetiredPin;
  readonly isolation: WindowsIsolation;
  /**
   * Whether the isolation is known: false when the pod names a RuntimeClass that is not in the input set, which
   * may use the Hyper-V handler.
   */
  readonly isolationKnown: boolean;
  /**
   * A node label the pod selects besides the OS, architecture and build labels (`agentpool: npwin`,
   * `kubernetes.azure.com/os-sku`): it may pin a pool of one OS and one release, which the input does not show.
   */
  readonly poolSelector?: string;
  /**
   * An image whose repository name says Windows (`contoso/iis-windows-ltsc2019`), in a pod nothing else makes
   * Windows or Linux (no spec.os.name, OS selector or affinity, HostProcess container, Windows image or Windows
   * RuntimeClass): weaker evidence than a Windows image, since Linux images that build, emulate or manage Windows
   * carry such names too. The pod is not judged Windows by it; windows-node-selector-missing reports it at a lower
   * severity. The first image whose name also names a build, else the first that names Windows.
   */
  readonly windowsByName?: NamedWindowsImage;
  /**
   * Something Windows about a pod that is not judged Windows (a Windows image beside unknown ones, windowsOptions,
   * a Windows toleration): such a pod is never told to pin itself to Linux.
   */
  readonly windowsHint?: string;
  readonly hostProcess: boolean;
  /** Pod (template) annotations. */
  readonly annotations: Rec;
  /**
   * Where the pod (template) metadata is: `metadata` for a Pod, `spec.template.metadata` for a workload,
   * `spec.templates[0].metadata` for an Argo Workflow template.
   */
  readonly metadataPath: string;
  /** Pod tolerations and its RuntimeClass's, which admission merges in. */
  readonly tolerations: readonly TolerationRef[];
  /** The custom resource the pod template is in (an Argo Rollout, an Argo Workflow template), when it is in one. */
  readonly source?: PodSource;
}

function hostProcessValue(securityContext: unknown): boolean | undefined {
  const raw = rec(securityContext, 'windowsOptions')?.hostProcess;
  return typeof raw === 'boolean' ? raw : undefined;
}

const OS_LABELS = [OS_LABEL, BETA_OS_LABEL];
/** Labels that say nothing about which pool of an OS a pod lands on. */
export const GENERIC_LABELS: ReadonlySet<string> = new Set([
  AKS_OS_SKU_LABEL,
  OS_LABEL,
  BETA_OS_LABEL,
  ARCH_LABEL,
  'beta.kubernetes.io/arch',
  WINDOWS_BUILD_LABEL,
]);

/** The first selector or required-affinity label that is not generic: a likely pool selector. */
function poolSelectorOf(nodeSelector: Readonly<Record<string, string>>, spec: Rec): string | undefined {
  const fromSelector = Object.keys(nodeSelector).find((k) => !GENERIC_LABELS.has(k));
  if (fromSelector !== undefined) return fromSelector;
  for (const term of requiredTerms(spec)) {
    for (const e of arr(term, 'matchExpressions')) {
      if (isRecord(e) && typeof e.key === 'string' && !GENERIC_LABELS.has(e.key)) return e.key;
    }
  }
  return undefined;
}

function requiredTerms(spec: Rec): readonly unknown[] {
  return arr(
    rec(rec(rec(spec, 'affinity'), 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution'),
    'nodeSelectorTerms',
  );
}

/** The build every required affinity term pins with `node.kubernetes.io/windows-build In [one build]`. */
function affinityBuild(spec: Rec): string | undefined {
  const terms = requiredTerms(spec);
  let build: string | undefined;
  for (const term of terms) {
    const e = arr(term, 'matchExpressions').find(
      (x) => isRecord(x) && x.key === WINDOWS_BUILD_LABEL && x.operator === 'In' && arr(x, 'values').length === 1,
    );
    const value = e === undefined ? undefined : arr(e, 'values')[0];
    if (typeof value !== 'string' || (build !== undefined && build !== value)) return undefined;
    build = value;
  }
  return build;
}
const ANY_OS: ReadonlySet<string> = new Set(['linux', 'windows']);

/** The OS values one node selector term allows (its expressions are ANDed), or undefined when it does not say. */
function termOs(term: unknown): Set<string> | undefined {
  let allowed: Set<string> | undefined;
  for (const e of arr(term, 'matchExpressions')) {
    if (!isRecord(e) || typeof e.key !== 'string' || !OS_LABELS.includes(e.key)) continue;
    const values = arr(e, 'values').filter((v): v is string => typeof v === 'string');
    let these: Set<string>;
    switch (e.operator) {
      case 'In':
        these = new Set(values);
        break;
      case 'NotIn':
        these = new Set([...ANY_OS].filter((os) => !values.includes(os)));
        break;
      case 'DoesNotExist':
        these = new Set();
        break;
      default:
        continue;
    }
    allowed = allowed === undefined ? these : new Set([...allowed].filter((os) => these.has(os)));
  }
  return allowed;
}

/**
 * The OS values required node affinity allows: terms are ORed, so the union of what each allows; undefined when
 * some term does not restrict the OS (or there is no required affinity).
 */
function affinityOs(spec: Rec): Set<string> | undefined {
  const terms = requiredTerms(spec);
  if (terms.length === 0) return undefined;
  const out = new Set<string>();
  for (const term of terms) {
    const allowed = termOs(term);
    if (allowed === undefined) return undefined;
    for (const os of allowed) out.add(os);
  }
  return out;
}

/** The first OS selector entry (`kubernetes.io/os`, the beta label, AKS's os-sku) of a nodeSelector map. */
function selectorOs(selector: Readonly<Record<string, string>>): [string, string] | undefined {
  for (const label of OS_LABELS) if (selector[label] !== undefined) return [label, selector[label]];
  const sku = selector[AKS_OS_SKU_LABEL];
  if (sku !== undefined) return [AKS_OS_SKU_LABEL, /^windows/i.test(sku) ? 'windows' : 'linux'];
  return undefined;
}

/** The release an AKS os-sku value names (`Windows2022`). */
function releaseForAksSku(sku: string | undefined): WindowsRelease | undefined {
  if (sku === undefined) return undefined;
  return WINDOWS_RELEASES.find((r) => releaseInfo(r).aksOsSku.toLowerCase() === sku.toLowerCase());
}

/** Annotation only dockershim read to run a pod Hyper-V isolated; containerd ignores it. */
export const ISOLATION_ANNOTATION = 'experimental.windows.kubernetes.io/isolation-type';

/** A Windows sign on a pod that is not otherwise judged Windows, for messages; undefined when there is none. */
function windowsHintOf(
  spec: Rec,
  containers: readonly ContainerRef[],
  annotations: Rec | undefined,
  named: NamedWindowsImage | undefined,
): string | undefined {
  const image = containers.find((c) => typeof c.c.image === 'string' && isWindowsImage(c.c.image) === true);
  if (image) return `${image.path}.image '${String(image.c.image)}' is a Windows image`;
  if (named) return `${named.path}.image '${named.image}': ${named.reading.evidence}`;
  if (has(rec(spec, 'securityContext'), 'windowsOptions')) return 'it sets securityContext.windowsOptions';
  const withOptions = containers.find((c) => has(rec(c.c, 'securityContext'), 'windowsOptions'));
  if (withOptions) return `${withOptions.path} sets securityContext.windowsOptions`;
  const toleration = arr(spec, 'tolerations').find((t) => isRecord(t) && str(t, 'value')?.toLowerCase() === 'windows');
  if (toleration) return 'it tolerates a Windows node taint';
  if (has(annotations, ISOLATION_ANNOTATION)) return `it carries the ${ISOLATION_ANNOTATION} annotation`;
  return undefined;
}

/**
 * The image whose repository name says Windows, preferring one that also names a build; none when a registry
 * answered that the image is published without a Windows entry (the name misleads).
 */
function namedWindowsImage(
  containers: readonly ContainerRef[],
  options: ValidateOptions,
): NamedWindowsImage | undefined {
  let wordOnly: NamedWindowsImage | undefined;
  for (const c of containers) {
    const image = c.c.image;
    if (typeof image !== 'string' || publishedWithoutWindows(options.images?.[image])) continue;
    const reading = readWindowsName(image);
    if (reading === undefined) continue;
    if (reading.build.kind !== 'unknown') return { path: c.path, image, reading };
    wordOnly ??= { path: c.path, image, reading };
  }
  return wordOnly;
}

function containerRefs(spec: Rec, path: string, podHostProcess: boolean | undefined): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const list of CONTAINER_LISTS) {
    arr(spec, list).forEach((c, i) => {
      if (!isRecord(c)) return;
      const own = hostProcessValue(c.securityContext);
      out.push({ c, path: `${join(path, list)}[${i}]`, list, hostProcess: (own ?? podHostProcess) === true });
    });
  }
  return out;
}

export function analyzePod(obj: Rec, loc: PodSpecLocation, index: SetIndex, options: ValidateOptions): PodFacts {
  const spec = loc.spec as unknown as Rec;
  const path = loc.path;
  const osName = rec(spec, 'os')?.name;
  const declaredOs = osName === 'windows' || osName === 'linux' ? osName : undefined;
  const podHostProcess = hostProcessValue(spec.securityContext);
  const containers = containerRefs(spec, path, podHostProcess);

  const runtimeClassName = str(spec, 'runtimeClassName');
  const runtimeClass = runtimeClassName !== undefined ? index.runtimeClasses.get(runtimeClassName) : undefined;
  const rcScheduling = rec(runtimeClass, 'scheduling');
  const nodeSelector = stringMap(spec, 'nodeSelector');
  const rcSelector = stringMap(rcScheduling, 'nodeSelector');
  const osSelector = selectorOs(nodeSelector) ?? selectorOs(rcSelector);
  const osBySelector = osSelector?.[1];
  const osAllowedByAffinity = affinityOs(spec);
  const osByAffinity = osAllowedByAffinity?.size === 1 ? [...osAllowedByAffinity][0] : undefined;
  const handler = str(runtimeClass, 'handler');
  const podMetadata = isRecord(loc.podMetadata) ? (loc.podMetadata as Rec) : undefined;
  const annotations = rec(podMetadata, 'annotations');

  let windows = false;
  let evidence = '';
  let windowsByName: NamedWindowsImage | undefined;
  if (declaredOs !== undefined) {
    windows = declaredOs === 'windows';
    evidence = `spec.os.name is ${declaredOs}`;
  } else if (osBySelector !== undefined) {
    windows = osBySelector === 'windows';
    evidence = `it selects ${osSelector?.[0]}=${osBySelector} nodes`;
  } else if (osByAffinity !== undefined) {
    windows = osByAffinity === 'windows';
    evidence = `its node affinity requires ${OS_LABEL}=${osByAffinity}`;
  } else if (isWindowsRuntimeHandler(handler)) {
    windows = true;
    evidence = `its RuntimeClass '${runtimeClassName}' uses the Windows handler ${handler}`;
  } else if (containers.some((c) => c.hostProcess)) {
    windows = true;
    evidence = 'it runs HostProcess containers';
  } else {
    // A pod cannot mix Windows and Linux containers, so one Windows image makes it a Windows pod.
    const image = containers.find((c) => typeof c.c.image === 'string' && isWindowsImage(c.c.image) === true);
    // The registry (--resolve-images) or a well-known image's record knows what no name shows: an image published for
    // Windows only.
    const resolved = image
      ? undefined
      : containers.find((c) => typeof c.c.image === 'string' && windowsOnly(options.images?.[c.c.image]));
    if (image) {
      windows = true;
      evidence = `${image.path}.image '${String(image.c.image)}' is a Windows image`;
    } else if (resolved) {
      windows = true;
      const lookup = options.images?.[String(resolved.c.image)];
      const record = lookup?.status === 'found' ? lookup.facts.record : undefined;
      evidence = `${resolved.path}.image '${String(resolved.c.image)}' is published for Windows only (${record?.statement ?? 'its registry says so'})`;
    } else {
      windowsByName = namedWindowsImage(containers, options);
    }
  }

  let pin: ReleasePin | undefined;
  let retiredPin: RetiredPin | undefined;
  const podBuild = nodeSelector[WINDOWS_BUILD_LABEL];
  const rcBuild = rcSelector[WINDOWS_BUILD_LABEL];
  const affinityPin = affinityBuild(spec);
  const pinBy = (build: string, at: string, via: string): void => {
    const release = releaseForBuild(build);
    if (release) pin = { release, path: at, via };
    const retired = retiredRelease(build);
    if (retired && /^\d+\.\d+\.\d+/.test(build)) retiredPin = { release: retired, path: at, via };
  };
  if (podBuild !== undefined) {
    pinBy(
      podBuild,
      join(path, 'nodeSelector', key(WINDOWS_BUILD_LABEL)),
      `nodeSelector ${WINDOWS_BUILD_LABEL}=${podBuild}`,
    );
  } else if (affinityPin !== undefined) {
    pinBy(
      affinityPin,
      join(path, 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'),
      `node affinity ${WINDOWS_BUILD_LABEL} In [${affinityPin}]`,
    );
  } else if (rcBuild !== undefined) {
    pinBy(
      rcBuild,
      join(path, 'runtimeClassName'),
      `RuntimeClass '${runtimeClassName}' (${WINDOWS_BUILD_LABEL}=${rcBuild})`,
    );
  } else if (releaseForAksSku(nodeSelector[AKS_OS_SKU_LABEL]) !== undefined) {
    const sku = nodeSelector[AKS_OS_SKU_LABEL];
    pin = {
      release: releaseForAksSku(sku)!,
      path: join(path, 'nodeSelector', key(AKS_OS_SKU_LABEL)),
      via: `nodeSelector ${AKS_OS_SKU_LABEL}=${sku}`,
    };
  } else if (isWindowsRelease(options.windowsRelease)) {
    pin = {
      release: options.windowsRelease,
      path: '',
      via: `options.windowsRelease (${releaseInfo(options.windowsRelease).displayName})`,
    };
  }

  const tolerations: TolerationRef[] = [];
  arr(spec, 'tolerations').forEach((t, i) => {
    if (isRecord(t)) tolerations.push({ t, path: `${join(path, 'tolerations')}[${i}]` });
  });
  arr(rcScheduling, 'tolerations').forEach((t) => {
    if (isRecord(t)) tolerations.push({ t, path: join(path, 'runtimeClassName') });
  });

  return {
    obj,
    kind: String(obj.kind),
    spec,
    path,
    namespace: namespaceOf(obj),
    labels: podMetadata ? stringMap(podMetadata, 'labels') : {},
    ...(declaredOs !== undefined ? { declaredOs } : {}),
    windows,
    evidence,
    containers,
    ...(runtimeClassName !== undefined ? { runtimeClassName } : {}),
    ...(runtimeClass !== undefined ? { runtimeClass } : {}),
    ...(osBySelector !== undefined ? { osBySelector, osSelectorLabel: osSelector?.[0] } : {}),
    ...(osByAffinity !== undefined ? { osByAffinity } : {}),
    ...(osAllowedByAffinity !== undefined ? { osAllowedByAffinity } : {}),
    ...(pin !== undefined ? { pin } : {}),
    ...(retiredPin !== undefined ? { retiredPin } : {}),
    isolation: handler !== undefined && handler.startsWith(WINDOWS_RUNTIME_HANDLERS.hyperv) ? 'hyperv' : 'process',
    isolationKnown: runtimeClassName === undefined || runtimeClass !== undefined,
    ...optional('windowsByName', windowsByName),
    ...(windows ? {} : optional('windowsHint', windowsHintOf(spec, containers, annotations, windowsByName))),
    ...optional('poolSelector', poolSelectorOf(nodeSelector, spec)),
    annotations: annotations ?? {},
    metadataPath:
      loc.podMetadataPath ?? (obj.kind === 'Pod' ? 'metadata' : join(path.replace(/\.?spec$/, ''), 'metadata')),
    hostProcess: containers.some((c) => c.hostProcess),
    tolerations,
    ...(loc.source !== undefined ? { source: loc.source } : {}),
  };
}

function optional<K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };
}
