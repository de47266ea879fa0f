/** The shape of one Pod Security check, shared by the baseline and restricted tables. */
import type { ValidationIssue } from '../errors';
import type { PodView } from './pod-view';
import type { PodSecurityCheckId } from './types';

/**
 * One offending field, before the level and check id are attached: a ValidationIssue whose path is the full
 * API-server path (built with `PodView.at` / `annotationPath`) and which always says the fix.
 */
export type CheckFinding = ValidationIssue & { readonly fix: string };

export interface PodSecurityCheck {
  readonly id: PodSecurityCheckId;
  /** The level that forbids what this check finds. */
  readonly level: 'baseline' | 'restricted';
  /** First policy minor the check applies to (upstream's lowest `MinimumVersion`). */
  readonly since: number;
  /** One line, for catalogues and docs. */
  readonly summary: string;
  /** The offending fields of `pod` under policy minor `minor` (never throws). */
  readonly evaluate: (pod: PodView, minor: number) => readonly CheckFinding[];
}

/** A value as the user wrote it, for messages. */
export function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null) return 'null';
  return Array.isArray(v) ? 'a list' : `a value of type ${typeof v}`;
}

/** `the container "app"` for messages; `a container` when it has no name. */
export function containerLabel(name: string): string {
  return name === '' ? 'a container without a name' : `container ${shown(name)}`;
}
