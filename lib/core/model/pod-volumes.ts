/** A Windows pod's volumes and its containers' mounts, with their paths, for the storage rules. */
import type { ContainerRef, PodFacts } from './pod';
import { arr, isRecord, join, type Rec } from './util';

/** Each volume of the pod with its path: `spec.volumes[0]`. */
export function podVolumes(p: PodFacts): { readonly v: Rec; readonly path: string }[] {
  const out: { v: Rec; path: string }[] = [];
  arr(p.spec, 'volumes').forEach((v, i) => {
    if (isRecord(v)) out.push({ v, path: `${join(p.path, 'volumes')}[${i}]` });
  });
  return out;
}

/** Each volume mount of the pod's non-HostProcess containers with its path: `spec.containers[0].volumeMounts[0]`. */
export function podMounts(p: PodFacts): { readonly m: Rec; readonly path: string; readonly container: ContainerRef }[] {
  const out: { m: Rec; path: string; container: ContainerRef }[] = [];
  for (const c of p.containers) {
    if (c.hostProcess) continue;
    arr(c.c, 'volumeMounts').forEach((m, i) => {
      if (isRecord(m)) out.push({ m, path: `${join(c.path, 'volumeMounts')}[${i}]`, container: c });
    });
  }
  return out;
}
