/**
 * The shape every fact in lib/core/facts has: the value and where it was read, with the date. A fact without a
 * source or a date fails test/core/facts.test.ts.
 */

/** Where a fact is written down, and when we read it there. */
export interface FactSource {
  /** A URL, or `owner/repo/path@commit` for a file in a public repository. */
  readonly ref: string;
  /** The day the source was read (ISO `YYYY-MM-DD`). */
  readonly checked: string;
  /**
   * What the source says, in a few words (quoted where it matters).
   * @default - none
   */
  readonly says?: string;
}

/** Provenance of a fact. */
export interface Sourced {
  readonly sources: readonly FactSource[];
  /**
   * `false` when no source confirms the value today and the code treats it leniently (said why in `note`).
   * @default true
   */
  readonly verified?: boolean;
  /**
   * What the sources leave open, or which of two readings we took and why.
   * @default - none
   */
  readonly note?: string;
}

/** An ISO calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}
