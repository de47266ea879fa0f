/**
 * Resources and probes on Windows containers (https://kubernetes.io/docs/concepts/windows/intro/): memory is enforced by job objects with no OOM
 * killer, huge pages do not exist, tcpSocket probes are limited and large images start slowly.
 */
import { parseImageReference } from '../../images';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { has, join, own, rec, show } from '../util';

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/;

/** A Kubernetes quantity (`1Gi`, `1024Mi`, `1e9`, 512) in base units, or undefined when it is not one. */
export function parseQuantity(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = QUANTITY.exec(v.trim());
  if (!m) return undefined;
  return Number(m[1]) * SUFFIX[m[2] ?? ''];
}

const LARGE_IMAGE_REPOSITORY = /(?:^|\/)windows\/(?:servercore|server)(?:\/|$)|(?:^|\/)dotnet\/framework\//;
const LARGE_IMAGE_TAG = /(?:^|[-_.])windowsservercore(?:$|[-_.])/;

/** servercore / server / .NET Framework images: gigabytes to pull, slow to start. */
function isLargeWindowsImage(image: unknown): boolean {
  if (typeof image !== 'string') return false;
  const ref = parseImageReference(image);
  if (!ref) return false;
  return (
    LARGE_IMAGE_REPOSITORY.test(ref.repository) ||
    (ref.tag !== undefined && LARGE_IMAGE_TAG.test(ref.tag.toLowerCase()))
  );
}

/** Windows containers start 10-30 s slower than Linux ones, servercore apps often take a minute (reference links in RULES). */
const STARTUP_BUDGET_SECONDS = 60;

/**
 * Seconds a livenessProbe gives a container before its first restart: initialDelaySeconds plus periodSeconds
 * times failureThreshold, with the API defaults (0, 10, 3). Undefined without a livenessProbe.
 */
function livenessBudget(probe: Record<string, unknown> | undefined): number | undefined {
  if (probe === undefined) return undefined;
  const num = (k: string, d: number): number => (typeof probe[k] === 'number' ? (probe[k] as number) : d);
  return num('initialDelaySeconds', 0) + num('periodSeconds', 10) * num('failureThreshold', 3);
}

export function checkResourcesAndProbes(p: PodFacts, report: Report): void {
  if (!p.windows) return;
  for (const c of p.containers) {
    const resources = rec(c.c, 'resources');
    const requests = rec(resources, 'requests');
    const limits = rec(resources, 'limits');
    for (const [section, values] of [
      ['requests', requests],
      ['limits', limits],
    ] as const) {
      for (const name of Object.keys(values ?? {})) {
        if (!name.startsWith('hugepages-')) continue;
        const path = join(c.path, 'resources', section, `[${name}]`);
        report(
          'windows-hugepages',
          path,
          `${path} ${show(values?.[name])}: huge pages are not supported on Windows.`,
          `Remove ${name}.`,
        );
      }
    }
    if (!c.hostProcess && has(requests, 'memory')) {
      const request = own(requests, 'memory');
      const limit = own(limits, 'memory');
      const path = join(c.path, 'resources.requests.memory');
      if (limit === undefined || limit === null) {
        report(
          'windows-memory-request-limit',
          path,
          `${path} ${show(request)} has no memory limit: Windows has no OOM killer, so the container pages the node instead of being stopped.`,
          `Set resources.limits.memory to ${show(request)} (or set only the limit).`,
        );
      } else {
        const r = parseQuantity(request);
        const l = parseQuantity(limit);
        if (r !== undefined && l !== undefined && Math.abs(r - l) > 1e-9 * Math.max(Math.abs(r), Math.abs(l), 1)) {
          report(
            'windows-memory-request-limit',
            path,
            `${path} ${show(request)} differs from limits.memory ${show(limit)}: Windows overcommits by paging, which slows the whole node.`,
            `Set requests.memory equal to limits.memory (${show(limit)}), or set only the limit.`,
          );
        }
      }
    }
    if (c.list === 'ephemeralContainers' || c.hostProcess) continue;
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (!has(rec(c.c, probe), 'tcpSocket')) continue;
      const path = join(c.path, probe, 'tcpSocket');
      report(
        'windows-tcp-probe',
        path,
        `${path}: tcpSocket probes are limited on Windows.`,
        'Use an httpGet or exec probe.',
      );
    }
    if (c.list === 'containers' && !has(c.c, 'startupProbe') && isLargeWindowsImage(c.c.image)) {
      const budget = livenessBudget(rec(c.c, 'livenessProbe'));
      const short = budget !== undefined && budget < STARTUP_BUDGET_SECONDS;
      report(
        'windows-startup-probe',
        join(c.path, 'startupProbe'),
        short
          ? `${c.path} runs the large Windows image ${show(c.c.image)} without a startupProbe, and its livenessProbe kills it after ${budget} s, before such images have often started.`
          : `${c.path} runs the large Windows image ${show(c.c.image)} without a startupProbe.`,
        'Add a startupProbe with a generous failureThreshold (e.g. periodSeconds: 10, failureThreshold: 30) and imagePullPolicy: IfNotPresent.',
        short ? 'warning' : undefined,
      );
    }
  }
}
