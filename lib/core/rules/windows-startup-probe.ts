/**
 * windows-startup-probe: Windows containers start 10-30 s slower than Linux ones and servercore, server and .NET
 * Framework images are gigabytes, so a liveness probe can kill them before they are up
 * (https://kubernetes.io/docs/concepts/windows/intro/,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/).
 */
import { parseImageReference } from '../images';
import { has, join, rec, show } from '../model/util';
import { K8S_WINDOWS } from './docs';
import { defineRule } from './rule';

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

/**
 * Whether the pod runs to completion (a Job's or CronJob's pod, or any pod whose restartPolicy is Never or
 * OnFailure): a startupProbe only holds off the liveness and readiness probes, which a batch container seldom has and
 * no Service reads, so the advice applies there only when a livenessProbe would kill the container first.
 * @see https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#when-should-you-use-a-startup-probe
 */
function isBatchPod(kind: string, spec: Record<string, unknown>): boolean {
  const policy = spec.restartPolicy;
  return kind === 'Job' || kind === 'CronJob' || policy === 'Never' || policy === 'OnFailure';
}

/** Servercore apps often take a minute to start. */
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

export default defineRule({
  meta: {
    id: 'windows-startup-probe',
    family: 'probes',
    defaultSeverity: 'info',
    summary:
      'A large Windows image (servercore, server, .NET Framework) without a startupProbe (in batch pods, only when a livenessProbe would kill it first).',
    rationale:
      'Windows containers start 10-30 s slower and these images are gigabytes: a liveness probe kills them before they are up (warning when one is set).',
    docs: K8S_WINDOWS,
    severityReason: 'Advice; warning when a livenessProbe gives the container less than a minute to start.',
    cases: [
      {
        name: 'liveness-kills-first',
        severity: 'warning',
        when: `A livenessProbe gives the container less than ${STARTUP_BUDGET_SECONDS} s (initialDelaySeconds + periodSeconds × failureThreshold) before it restarts it: such images have often not started by then.`,
      },
    ],
  },
  messages: {
    'no-startup-probe': { description: 'A large Windows image without a startupProbe.' },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Give the container `startup: kplus.Probe.fromHttpGet(...)` (or a `liveness`/`readiness` probe: the constructs derive a startup probe from it with a 5-minute budget).',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      const batch = isBatchPod(p.kind, p.spec);
      for (const c of p.containers) {
        if (c.list !== 'containers' || c.hostProcess) continue;
        if (has(c.c, 'startupProbe') || !isLargeWindowsImage(c.c.image)) continue;
        const budget = livenessBudget(rec(c.c, 'livenessProbe'));
        const short = budget !== undefined && budget < STARTUP_BUDGET_SECONDS;
        if (batch && !short) continue;
        report(
          join(c.path, 'startupProbe'),
          short
            ? `${c.path} runs the large Windows image ${show(c.c.image)} without a startupProbe, and its livenessProbe kills it after ${budget} s, before such images have often started.`
            : `${c.path} runs the large Windows image ${show(c.c.image)} without a startupProbe.`,
          'Add a startupProbe with a generous failureThreshold (e.g. periodSeconds: 10, failureThreshold: 30) and imagePullPolicy: IfNotPresent.',
          short ? 'liveness-kills-first' : undefined,
          'no-startup-probe',
        );
      }
    },
  },
});
