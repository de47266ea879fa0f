/** The host ports a pod's containers ask for, worked out once per pod for the host-port rules. */
import type { PodFacts } from './pod';
import { arr, join, own } from './util';

export interface HostPort {
  /** `spec.containers[0].ports[0].hostPort`. */
  readonly path: string;
  readonly hostPort: unknown;
  readonly containerPort: unknown;
  /** Whether the container runs as HostProcess (on the host network). */
  readonly hostProcess: boolean;
}

const PORTS = new WeakMap<PodFacts, readonly HostPort[]>();

/** Every container port with a hostPort set (0 and null mean none). */
export function hostPorts(p: PodFacts): readonly HostPort[] {
  const cached = PORTS.get(p);
  if (cached) return cached;
  const out: HostPort[] = [];
  for (const c of p.containers) {
    const ports = arr(c.c, 'ports');
    for (let i = 0; i < ports.length; i++) {
      const hostPort = own(ports[i], 'hostPort');
      if (hostPort === undefined || hostPort === null || hostPort === 0) continue;
      out.push({
        path: join(`${join(c.path, 'ports')}[${i}]`, 'hostPort'),
        hostPort,
        containerPort: own(ports[i], 'containerPort'),
        hostProcess: c.hostProcess,
      });
    }
  }
  PORTS.set(p, out);
  return out;
}
