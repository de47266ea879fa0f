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
import { celContainerHostProcess, celImageRefs, celOr, IMAGE_REF, re2, SPEC } from './cel-parts';
import { celString, celStringList } from './cel';

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
  return BATCH_KINDS.includes(kind) || BATCH_RESTART_POLICIES.includes(policy as string);
}
const BATCH_KINDS: readonly string[] = ['Job', 'CronJob'];
const BATCH_RESTART_POLICIES: readonly string[] = ['Never', 'OnFailure'];

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

/** The fix, as the check words it. */
const FIX =
  'Add a startupProbe with a generous failureThreshold (e.g. periodSeconds: 10, failureThreshold: 30) and imagePullPolicy: IfNotPresent.';

/** livenessBudget of container `c`'s livenessProbe, with the same defaults, in CEL. */
const LIVENESS_BUDGET = `(${celOr('0', 'c', 'livenessProbe', 'initialDelaySeconds')} + ${celOr('10', 'c', 'livenessProbe', 'periodSeconds')} * ${celOr('3', 'c', 'livenessProbe', 'failureThreshold')})`;

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
    'no-startup-probe': {
      description: 'A large Windows image without a startupProbe.',
      // `{livenessKills}`: in case liveness-kills-first, how soon its livenessProbe restarts it; else nothing.
      message: '{container} runs the large Windows image {image} without a startupProbe{livenessKills}.',
      fix: 'Add a startupProbe with a generous failureThreshold (e.g. periodSeconds: 10, failureThreshold: 30) and imagePullPolicy: IfNotPresent.',
    },
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
        report({
          path: join(c.path, 'startupProbe'),
          messageId: 'no-startup-probe',
          data: {
            container: c.path,
            image: show(c.c.image),
            livenessKills: short
              ? `, and its livenessProbe kills it after ${budget} s, before such images have often started`
              : '',
          },
          case: short ? 'liveness-kills-first' : undefined,
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The regular, non-HostProcess containers on a large Windows image without a startupProbe, with the
        // seconds their livenessProbe gives them ('' without one).
        name: 'wsp_large',
        expression: `${celImageRefs(
          `(has(${SPEC}.containers) ? ${SPEC}.containers : []).filter(c, !${celContainerHostProcess('c')} && !has(c.startupProbe))`,
          [`has(c.livenessProbe) ? string(${LIVENESS_BUDGET}) : ''`],
          { build: false },
        )}.filter(r, r[${IMAGE_REF.repository}].matches(${celString(re2(LARGE_IMAGE_REPOSITORY))}) || r[${IMAGE_REF.tag}].matches(${celString(re2(LARGE_IMAGE_TAG))}))`,
      },
      {
        // Those a livenessProbe kills within the budget.
        name: 'wsp_short',
        expression: `variables.wsp_large.filter(r, r[${IMAGE_REF.extra}] != '' && int(r[${IMAGE_REF.extra}]) < ${STARTUP_BUDGET_SECONDS})`,
      },
    ],
    validations: [
      {
        expression: '!variables.windows || size(variables.wsp_short) == 0',
        messageExpression: `'windows-startup-probe: ' + variables.wsp_short.map(r, "container '" + r[${IMAGE_REF.name}] + "' runs the large Windows image '" + r[${IMAGE_REF.image}] + "' without a startupProbe, and its livenessProbe kills it after " + r[${IMAGE_REF.extra}] + ' s').join(', ') + ', before such images have often started. ' + ${celString(FIX)}`,
        case: 'liveness-kills-first',
      },
      {
        // The advice (info unless the settings raise it): not for batch pods (isBatchPod).
        expression: `!variables.windows || object.kind in ${celStringList(BATCH_KINDS)} || (has(${SPEC}.restartPolicy) && ${SPEC}.restartPolicy in ${celStringList(BATCH_RESTART_POLICIES)}) || size(variables.wsp_large) == size(variables.wsp_short)`,
        messageExpression: `'windows-startup-probe: ' + variables.wsp_large.filter(r, !(r in variables.wsp_short)).map(r, "container '" + r[${IMAGE_REF.name}] + "' runs the large Windows image '" + r[${IMAGE_REF.image}] + "' without a startupProbe").join(', ') + '. ' + ${celString(FIX)}`,
      },
    ],
  }),
});
