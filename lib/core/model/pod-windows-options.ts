/** Every windowsOptions block of a pod (the pod's, then each container's) with its path, for the format rules. */
import type { PodFacts } from './pod';
import { join, rec, type Rec } from './util';

export function podWindowsOptions(p: PodFacts): { readonly options: Rec; readonly path: string }[] {
  const out: { options: Rec; path: string }[] = [];
  const pod = rec(rec(p.spec, 'securityContext'), 'windowsOptions');
  if (pod) out.push({ options: pod, path: join(p.path, 'securityContext.windowsOptions') });
  for (const c of p.containers) {
    const own = rec(rec(c.c, 'securityContext'), 'windowsOptions');
    if (own) out.push({ options: own, path: join(c.path, 'securityContext.windowsOptions') });
  }
  return out;
}
