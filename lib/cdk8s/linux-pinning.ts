/**
 * `pinLinuxWorkloads(scope)`: in a hybrid cluster, a Linux pod without the `kubernetes.io/os: linux` nodeSelector can
 * land on an untainted Windows node and sit in ImagePullBackOff, and a blanket toleration swallows the Windows taint
 * (https://kubernetes.io/docs/concepts/windows/user-guide/). This pins every non-Windows pod template in a scope to Linux nodes: cdk8s-plus workloads, raw
 * `ApiObject`s and objects loaded with `Include` alike.
 */
import { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { OS_LABEL, type PodSpec } from '../core/kube';
import { isWindowsImage, readWindowsName } from '../core/images';
import { isWindowsRuntimeHandler } from '../core/releases';
import { isWorkloadKind, locatePodSpec } from '../core/workloads';
import { judgePod } from '../core/construct-rules';
import wildcardToleration from '../core/rules/wildcard-toleration';
import { warnOn } from './windows-pod';

export interface PinLinuxWorkloadsOptions {
  /**
   * Report tolerations with `operator: Exists` and no key (they tolerate every taint) of the pods it pins that
   * select no OS of their own, as warnings of rule `wildcard-toleration`, as lint reports them.
   * @default true
   */
  readonly warnWildcardTolerations?: boolean;
}

/** Objects whose rendering is already pinned, so calling `pinLinuxWorkloads` twice patches once. */
const PINNED = new WeakSet<ApiObject>();

function requiredAffinityOs(spec: PodSpec): string[] {
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms.flatMap((t) =>
    (t.matchExpressions ?? []).filter((e) => e.key === OS_LABEL && e.operator === 'In').flatMap((e) => e.values ?? []),
  );
}

/** Whether the RuntimeClass named `name`, somewhere in the app, schedules onto Windows nodes. */
function runtimeClassIsWindows(root: IConstruct, name: string): boolean {
  for (const c of root.node.findAll()) {
    if (!ApiObject.isApiObject(c) || c.kind !== 'RuntimeClass' || c.name !== name) continue;
    const json = c.toJson() as { handler?: string; scheduling?: { nodeSelector?: Record<string, string> } };
    return json.scheduling?.nodeSelector?.[OS_LABEL] === 'windows' || isWindowsRuntimeHandler(json.handler);
  }
  return false;
}

/**
 * Whether a pod is meant for Windows: `os.name`, the OS nodeSelector, required node affinity, its RuntimeClass, or
 * (with nothing else said) images that are all Windows images. A pod with an image whose repository name says
 * Windows (`contoso/iis-windows-ltsc2019`) may be one: it is left alone too, and lint's windows-node-selector-missing
 * says so, rather than pinned where it may never start.
 */
function isWindowsPod(spec: PodSpec, root: IConstruct): boolean {
  if (spec.os?.name !== undefined) return spec.os.name === 'windows';
  const selected = spec.nodeSelector?.[OS_LABEL];
  if (selected !== undefined) return selected === 'windows';
  if (requiredAffinityOs(spec).includes('windows')) return true;
  if (spec.runtimeClassName !== undefined && runtimeClassIsWindows(root, spec.runtimeClassName)) return true;
  const images = [...(spec.initContainers ?? []), ...spec.containers].map((c) => c.image);
  if (images.some((i) => i !== undefined && readWindowsName(i) !== undefined)) return true;
  return images.length > 0 && images.every((i) => i !== undefined && isWindowsImage(i) === true);
}

function pin(obj: ApiObject, warnWildcards: boolean): void {
  if (PINNED.has(obj)) return;
  PINNED.add(obj);
  const render = obj.toJson.bind(obj);
  obj.toJson = (): unknown => {
    const json = render() as unknown;
    const loc = locatePodSpec(json);
    if (!loc || isWindowsPod(loc.spec, obj.node.root)) return json;
    const spec = loc.spec as PodSpec & { nodeSelector?: Record<string, string> };
    // Judged as the user wrote it, before the pin, as lint judges a Linux pod beside Windows pods.
    if (warnWildcards) for (const f of judgePod([wildcardToleration], spec, loc.path, { hybrid: true })) warnOn(obj)(f);
    if (spec.nodeSelector?.[OS_LABEL] === undefined) spec.nodeSelector = { ...spec.nodeSelector, [OS_LABEL]: 'linux' };
    return json;
  };
}

/**
 * Pins every non-Windows pod template in `scope` to Linux nodes (adds `kubernetes.io/os: linux` to its
 * nodeSelector when it has no OS selector) at synth time, and warns about wildcard tolerations. Windows pods are
 * left alone. Objects added to the scope after the call are covered too: the walk runs again when the app
 * validates, before it renders.
 */
export function pinLinuxWorkloads(scope: IConstruct, options: PinLinuxWorkloadsOptions = {}): void {
  const warnWildcards = options.warnWildcardTolerations ?? true;
  const pinAll = (): void => {
    for (const c of scope.node.findAll()) if (ApiObject.isApiObject(c) && isWorkloadKind(c.kind)) pin(c, warnWildcards);
  };
  pinAll();
  scope.node.addValidation({
    validate: () => {
      pinAll();
      return [];
    },
  });
}
