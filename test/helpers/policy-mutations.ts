/**
 * The mutation fixture (test/fixtures/policies/mutations.yaml): objects before and after the MutatingAdmissionPolicies,
 * and the `fix` target that is the same as a set of cluster facts, so each case can be held to `fixManifests`.
 * Read by test/core/policies/mutating.test.ts (with @bufbuild/cel) and, later, by the Go helper in
 * test/apiserver-cel/ (with the API server's own admission code); `scripts/policy-mutations.ts` writes `expected`.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { FixOptions } from '../../lib/core/fix/options';
import { checkClusterFacts, clusterFactsObject } from '../../lib/core/policies/cluster-facts';
import type { ClusterFacts } from '../../lib/core/policies/types';
import { releaseForBuild } from '../../lib/core/releases';
import type { Taint } from '../../lib/core/target';

export const MUTATIONS_FIXTURE = path.join(__dirname, '..', 'fixtures', 'policies', 'mutations.yaml');

export interface MutationCase {
  readonly name: string;
  /** @default 'CREATE' */
  readonly operation?: 'CREATE' | 'UPDATE';
  /** The stored object an UPDATE replaces. @default - none */
  readonly oldObject?: Record<string, unknown>;
  /** The spec of the WindowsClusterFacts object the `-cluster` policies read; none: no facts object. */
  readonly facts?: ClusterFacts;
  /**
   * How `fixManifests` (with `fixOptionsFor(facts)`) compares: `same` — it writes `expected`; `differs` — it
   * changes more than the policies (said in `note`), and `expected` is the input.
   */
  readonly fix: 'same' | 'differs';
  readonly note?: string;
  readonly input: Record<string, unknown>;
  readonly expected: Record<string, unknown>;
}

export function readMutationCases(): MutationCase[] {
  return (parse(readFileSync(MUTATIONS_FIXTURE, 'utf8')) as { cases: MutationCase[] }).cases;
}

/** The facts object of a case (name `k8s-windows`), or none. */
export function factsObjects(facts: ClusterFacts | undefined): Record<string, unknown>[] {
  return facts === undefined ? [] : [clusterFactsObject(facts)];
}

/**
 * The `fix` target the facts amount to: a toleration for each taint every pool carries; with one build across
 * the pools and exactly one process-isolated RuntimeClass for it, that release and RuntimeClass.
 */
export function fixOptionsFor(facts: ClusterFacts | undefined): FixOptions {
  if (facts === undefined) return {};
  const { pools, runtimeClasses } = checkClusterFacts(facts);
  const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '');
  const tolerations = (pools[0]?.taints ?? []).filter((t) => pools.every((p) => p.taints.some((u) => same(t, u))));
  const build =
    pools.length > 0 && pools.every((p) => p.build !== undefined && p.build === pools[0].build)
      ? pools[0].build
      : undefined;
  const classes = runtimeClasses.filter((r) => r.build === build && r.handler === 'runhcs-wcow-process');
  const release = build !== undefined && classes.length === 1 ? releaseForBuild(build) : undefined;
  return {
    ...(tolerations.length > 0 ? { tolerations } : {}),
    ...(release !== undefined ? { windowsRelease: release, runtimeClassName: classes[0].name } : {}),
  };
}
