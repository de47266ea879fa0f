/**
 * What a rule's fix looks like. Each check module keeps a fixer table beside its checks (`API_SERVER_FIXES`, …);
 * `RULES` says which rules are fixable and how, and `fixManifests` (lib/core/fix) applies the edits to the YAML.
 * A fixer sees one finding and the engine's facts about its pod, and returns the edits, or none when the fix is
 * not certain for that finding (the finding is then reported as lint reports it).
 */
import type { Taint } from '../target';
import type { WindowsRelease } from '../releases';
import type { PodFacts } from './pod';
import type { Diagnostic } from './types';
import type { ImageLookups } from './image-lookup';

/** One edit, at an API-server path relative to the object (`spec.template.spec.nodeSelector[kubernetes.io/os]`). */
export type FixEdit =
  | { readonly op: 'set'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  /** Appends to the sequence at `path`, creating it when absent. */
  | { readonly op: 'append'; readonly path: string; readonly value: unknown };

/** The node target the user described: what Windows pods are fixed towards. */
export interface FixTarget {
  /** Taints the Windows nodes carry (given, or from a cloud preset): Windows pods get a toleration for each. */
  readonly taints: readonly Taint[];
  /** The release of the Windows nodes: unpinned Windows pods get its build selector (or `runtimeClassName`). */
  readonly release?: WindowsRelease;
  /** A RuntimeClass that pins the release: set instead of the build selector. */
  readonly runtimeClassName?: string;
  /** Pin Linux pods of a set with Windows pods to Linux nodes. */
  readonly pinLinux: boolean;
}

export interface FixInput {
  readonly diagnostic: Diagnostic;
  readonly pod: PodFacts;
  readonly target: FixTarget;
  /** What registries said about the images (`fix --resolve-images`). */
  readonly images?: ImageLookups;
}

/** Returns the edits that fix one finding with certainty, or `[]` when the fix is not certain. */
export type Fixer = (input: FixInput) => readonly FixEdit[];

/**
 * A fix a rule makes on every Windows pod toward the target the user described (its taints, its release), whether
 * or not the rule found the pod lacking: a pod cannot show which taints the user's nodes carry.
 */
export type TargetFixer = (input: Omit<FixInput, 'diagnostic'>) => readonly FixEdit[];

/** What a rule's fixer does, as `fix` reads it beside the edits. */
export interface FixMeaning {
  /** Why the fixer removes a field, for the change report: `Linux-only, the API server forbids it on Windows pods`. */
  readonly removal?: string;
  /**
   * The fixer removes a field the API server rejects once the pod declares `spec.os.name: windows`: while such a
   * removal cannot be made, no fix that declares it (`declaresWindows`) is made.
   */
  readonly removesRejectedOnWindows?: boolean;
  /** The fixer declares the pod Windows (`spec.os.name: windows`), after which the API server judges its fields. */
  readonly declaresWindows?: boolean;
}
