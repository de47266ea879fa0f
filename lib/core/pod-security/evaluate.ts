/**
 * Runs the checks and turns their findings into violations and a level.
 *
 * How the levels combine. Upstream evaluates a namespace's level on its own: restricted runs every restricted
 * check plus the baseline checks that no restricted check overrides (`OverrideCheckIDs`). We report a pod's level
 * as the strictest level it meets *together with every looser level*: a pod failing any baseline check is
 * `privileged`, even in the corner where upstream's restricted evaluation would skip that check through an
 * override (a `spec.os.name: windows` pod with an Unconfined seccompProfile or an added capability, which the API
 * server rejects anyway). So the level only ever moves one way as fields are added, and
 * `meetsPodSecurityLevel(level, required)` answers "would a namespace enforcing `required` admit it?".
 * With that rule overrides never change the answer, so the restricted checks are run on their own; where a
 * restricted check flags the same field as a baseline check (hostPath, capabilities, seccomp, procMount), only the
 * baseline violation is kept.
 */
import { BASELINE_CHECKS } from './baseline-checks';
import type { PodSecurityCheck } from './check';
import { resolvePolicyMinor } from './policy-version';
import { PodView, isRecord } from './pod-view';
import { RESTRICTED_CHECKS } from './restricted-checks';
import {
  POD_SECURITY_LEVELS,
  type PodSecurityCheckInfo,
  type PodSecurityLevel,
  type PodSecurityViolation,
  type PodSpecSecurityOptions,
} from './types';

/** The catalogue of checks, baseline first (restricted also applies every baseline check). */
export const POD_SECURITY_CHECKS: readonly PodSecurityCheckInfo[] = [...BASELINE_CHECKS, ...RESTRICTED_CHECKS].map(
  (c) => ({ id: c.id, level: c.level, since: `1.${c.since}`, summary: c.summary }),
);

const DEFAULT_SPEC_PATH = 'spec'; // a bare Pod keeps its spec at `spec`

/** `spec.template.spec` → `spec.template.metadata`; `spec` → `metadata`. */
function metadataPathFor(specPath: string): string {
  const cut = specPath.lastIndexOf('.');
  return cut < 0 ? 'metadata' : `${specPath.slice(0, cut)}.metadata`;
}

/** Violations of a bare pod spec (the engine behind `podSecurityViolations`). */
export function podSpecSecurityViolations(
  podSpec: unknown,
  options: PodSpecSecurityOptions = {},
): PodSecurityViolation[] {
  if (!isRecord(podSpec)) return [];
  const opts: Partial<PodSpecSecurityOptions> = isRecord(options) ? options : {};
  const minor = resolvePolicyMinor(opts.kubernetesVersion);
  const specPath = typeof opts.specPath === 'string' ? opts.specPath : DEFAULT_SPEC_PATH;
  const metadataPath = typeof opts.metadataPath === 'string' ? opts.metadataPath : metadataPathFor(specPath);
  const pod = new PodView(podSpec, specPath, opts.podMetadata, metadataPath);

  const run = (checks: readonly PodSecurityCheck[]): PodSecurityViolation[] =>
    checks
      .filter((check) => check.since <= minor)
      .flatMap((check) => check.evaluate(pod, minor).map((f) => ({ level: check.level, check: check.id, ...f })));

  const baseline = run(BASELINE_CHECKS);
  const baselinePaths = new Set(baseline.map((v) => v.path));
  const restricted = run(RESTRICTED_CHECKS).filter((v) => !baselinePaths.has(v.path));
  return [...baseline, ...restricted];
}

/** The level a list of violations leaves a pod at. */
export function levelOfViolations(violations: readonly PodSecurityViolation[]): PodSecurityLevel {
  if (violations.some((v) => v.level === 'baseline')) return 'privileged';
  if (violations.some((v) => v.level === 'restricted')) return 'baseline';
  return 'restricted';
}

/** Whether a pod at `level` is admitted by a namespace enforcing `required` (false for unknown levels). */
export function meetsPodSecurityLevel(level: PodSecurityLevel, required: PodSecurityLevel): boolean {
  const have = POD_SECURITY_LEVELS.indexOf(level);
  const need = POD_SECURITY_LEVELS.indexOf(required);
  return have >= 0 && need >= 0 && have <= need;
}
