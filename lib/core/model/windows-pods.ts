/**
 * The Windows pods of a file (or set) by namespace and label, indexed once so each Service looks up the pods it
 * selects instead of scanning every pod.
 */
import type { PodFacts } from './pod';
import { rec } from './util';

export class WindowsPodsByLabel {
  private readonly byLabel = new Map<string, PodFacts[]>();

  add(p: PodFacts): void {
    for (const k of Object.keys(p.labels)) {
      const id = `${p.namespace}\u0000${k}=${p.labels[k]}`;
      const list = this.byLabel.get(id);
      if (list) list.push(p);
      else this.byLabel.set(id, [p]);
    }
  }

  /** A Windows pod in `namespace` whose labels match every entry of `selector`. */
  find(namespace: string, selector: Readonly<Record<string, string>>): PodFacts | undefined {
    const keys = Object.keys(selector);
    if (keys.length === 0) return undefined;
    const candidates = this.byLabel.get(`${namespace}\u0000${keys[0]}=${selector[keys[0]]}`) ?? [];
    return candidates.find((p) => keys.every((k) => p.labels[k] === selector[k]));
  }
}

/** `Deployment 'web'`, for messages about a pod. */
export function podName(p: PodFacts): string {
  const name = rec(p.obj, 'metadata')?.name;
  return `${p.kind} '${typeof name === 'string' ? name : '?'}'`;
}
