/**
 * What the rules need to know about one pod (or pod template), worked out once: whether it is a Windows pod and
 * why, its containers with their API-server paths, its RuntimeClass, the release it is pinned to, its isolation
 * and whether it is a HostProcess pod.
 */
import { isWindowsImage } from '../images';
import { CONTAINER_LISTS, OS_LABEL, WINDOWS_BUILD_LABEL, type ContainerList } from '../kube';
import {
  isWindowsRelease,
  isWindowsRuntimeHandler,
  releaseForBuild,
  releaseInfo,
  WINDOWS_RUNTIME_HANDLERS,
  type WindowsIsolation,
  type WindowsRelease,
} from '../releases';
import type { PodSpecLocation } from '../workloads';
import { namespaceOf, type SetIndex } from './context';
import type { ValidateOptions } from './types';
import { arr, isRecord, join, key, rec, str, stringMap, type Rec } from './util';

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
  /** The kubernetes.io/os value every required node affinity term asks for. */
  readonly osByAffinity?: string;
  readonly pin?: ReleasePin;
  readonly isolation: WindowsIsolation;
  readonly hostProcess: boolean;
  /** Pod tolerations and its RuntimeClass's, which admission merges in. */
  readonly tolerations: readonly TolerationRef[];
}

function hostProcessValue(securityContext: unknown): boolean | undefined {
  const raw = rec(securityContext, 'windowsOptions')?.hostProcess;
  return typeof raw === 'boolean' ? raw : undefined;
}

/** The OS every required node affinity term selects, when they agree. */
function affinityOs(spec: Rec): string | undefined {
  const terms = arr(
    rec(rec(rec(spec, 'affinity'), 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution'),
    'nodeSelectorTerms',
  );
  let os: string | undefined;
  for (const term of terms) {
    const expr = arr(term, 'matchExpressions').find(
      (e) => isRecord(e) && e.key === OS_LABEL && e.operator === 'In' && arr(e, 'values').length === 1,
    );
    const value = expr === undefined ? undefined : arr(expr, 'values')[0];
    if (typeof value !== 'string' || (os !== undefined && os !== value)) return undefined;
    os = value;
  }
  return os;
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
  const osBySelector = nodeSelector[OS_LABEL] ?? rcSelector[OS_LABEL];
  const osByAffinity = affinityOs(spec);
  const handler = str(runtimeClass, 'handler');

  let windows = false;
  let evidence = '';
  if (declaredOs !== undefined) {
    windows = declaredOs === 'windows';
    evidence = `spec.os.name is ${declaredOs}`;
  } else if (osBySelector !== undefined) {
    windows = osBySelector === 'windows';
    evidence = `it selects ${OS_LABEL}=${osBySelector} nodes`;
  } else if (osByAffinity !== undefined) {
    windows = osByAffinity === 'windows';
    evidence = `its node affinity requires ${OS_LABEL}=${osByAffinity}`;
  } else if (isWindowsRuntimeHandler(handler)) {
    windows = true;
    evidence = `its RuntimeClass '${runtimeClassName}' uses the Windows handler ${handler}`;
  } else {
    const images = containers.map((c) => c.c.image);
    if (images.length > 0 && images.every((i) => typeof i === 'string' && isWindowsImage(i) === true)) {
      windows = true;
      evidence = 'every image is a Windows image';
    }
  }

  let pin: ReleasePin | undefined;
  const podBuild = nodeSelector[WINDOWS_BUILD_LABEL];
  const rcBuild = rcSelector[WINDOWS_BUILD_LABEL];
  if (podBuild !== undefined) {
    const release = releaseForBuild(podBuild);
    if (release) {
      pin = {
        release,
        path: join(path, 'nodeSelector', key(WINDOWS_BUILD_LABEL)),
        via: `nodeSelector ${WINDOWS_BUILD_LABEL}=${podBuild}`,
      };
    }
  } else if (rcBuild !== undefined) {
    const release = releaseForBuild(rcBuild);
    if (release) {
      pin = {
        release,
        path: join(path, 'runtimeClassName'),
        via: `RuntimeClass '${runtimeClassName}' (${WINDOWS_BUILD_LABEL}=${rcBuild})`,
      };
    }
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
    labels: loc.podMetadata ? stringMap(loc.podMetadata, 'labels') : {},
    ...(declaredOs !== undefined ? { declaredOs } : {}),
    windows,
    evidence,
    containers,
    ...(runtimeClassName !== undefined ? { runtimeClassName } : {}),
    ...(runtimeClass !== undefined ? { runtimeClass } : {}),
    ...(osBySelector !== undefined ? { osBySelector } : {}),
    ...(osByAffinity !== undefined ? { osByAffinity } : {}),
    ...(pin !== undefined ? { pin } : {}),
    isolation: handler !== undefined && handler.startsWith(WINDOWS_RUNTIME_HANDLERS.hyperv) ? 'hyperv' : 'process',
    hostProcess: containers.some((c) => c.hostProcess),
    tolerations,
  };
}
