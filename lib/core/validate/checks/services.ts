/**
 * Services in front of Windows pods (https://kubernetes.io/docs/concepts/windows/intro/): Windows kube-proxy has no session affinity timeout and needs
 * DSR for externalTrafficPolicy: Local. Windows pods are indexed by namespace and label once, so each Service
 * looks up candidates instead of scanning every pod.
 */
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { has, rec, show, stringMap, type Rec } from '../util';

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

function podName(p: PodFacts): string {
  const name = rec(p.obj, 'metadata')?.name;
  return `${p.kind} '${typeof name === 'string' ? name : '?'}'`;
}

export function checkService(obj: Rec, namespace: string, pods: WindowsPodsByLabel, report: Report): void {
  const spec = rec(obj, 'spec');
  const clientIP = rec(rec(spec, 'sessionAffinityConfig'), 'clientIP');
  const hasTimeout = has(clientIP, 'timeoutSeconds');
  const local = spec?.externalTrafficPolicy === 'Local';
  if (!hasTimeout && !local) return;
  const target = pods.find(namespace, stringMap(spec, 'selector'));
  if (!target) return;
  if (hasTimeout) {
    const path = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
    report(
      'windows-service-session-affinity-timeout',
      path,
      `${path} ${show(clientIP?.timeoutSeconds)} is not supported by Windows kube-proxy, and this Service selects Windows pods (${podName(target)}).`,
      'Remove timeoutSeconds (session affinity then keeps the default), or front the Windows pods with an ingress that supports sticky sessions.',
    );
  }
  if (local) {
    const path = 'spec.externalTrafficPolicy';
    report(
      'windows-service-external-traffic-local',
      path,
      `${path} 'Local' on a Service selecting Windows pods (${podName(target)}) works only when Windows kube-proxy runs with Direct Server Return (DSR).`,
      'Enable DSR on Windows kube-proxy (--enable-dsr, WinDSR feature gate), or use externalTrafficPolicy: Cluster.',
    );
  }
}
