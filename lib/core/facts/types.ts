/**
 * The shape every fact in lib/core/facts has: the value and where it was read, with two dates (the material's own and
 * the day it was read). A fact without a source, or a source without either date, fails test/core/facts.test.ts
 * (`sourceProblems`).
 */

/**
 * What a source's own date is: `'undated'` when the copy read shows none (a page with no date on it), `'unverified'`
 * when the source could not be opened on the day `checked` (a citation kept from an earlier check: nothing it is said
 * to say is vouched for).
 */
export type MaterialDate = IsoDate | 'undated' | 'unverified';

/** Where a fact is written down, how old that writing is, and when we read it there. */
export interface FactSource {
  /**
   * Where it was read: an `https://` URL (a file in a public repository as its GitHub URL at the commit or tag read),
   * or a file of this repository (`lib/…`).
   */
  readonly ref: string;
  /**
   * The date of the material read, as the material itself gives it: the commit's or tag's date for a file in a
   * repository, the page's own date (`ms.date`, "Last updated"), the date of the issue comment, pull request or release
   * read. Not the day it was read (that is `checked`), and never guessed: `'undated'` or `'unverified'` instead (see
   * {@link MaterialDate}).
   */
  readonly materialDate: MaterialDate;
  /** The day the source was read (ISO `YYYY-MM-DD`). */
  readonly checked: IsoDate;
  /**
   * What the source says, in a few words (quoted where it matters). Quotes are the source's own words.
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

/** Whether a source's `ref` is a URL or a file of this repository (what the catalogue accepts). */
const REF = /^(?:https:\/\/\S+|lib\/\S+)$/;

/**
 * What is wrong with a source, as sentences (empty when nothing is): a `ref` that is neither a URL nor a file of this
 * repository, a `checked` or `materialDate` that is missing or not a calendar date, dates in the future of `today`, or
 * a material newer than the day it was read.
 */
export function sourceProblems(source: Partial<FactSource>, today: IsoDate): string[] {
  const problems: string[] = [];
  const ref = source.ref ?? '';
  if (!REF.test(ref)) problems.push(`ref ${JSON.stringify(source.ref)} is neither an https URL nor a lib/ file`);
  const checked = source.checked;
  if (!isIsoDate(checked)) problems.push(`${ref}: checked ${JSON.stringify(checked)} is not a YYYY-MM-DD date`);
  else if (checked > today) problems.push(`${ref}: checked ${checked} is after today (${today})`);
  const material: unknown = source.materialDate;
  if (material === undefined) problems.push(`${ref}: no materialDate (the date of the material read)`);
  else if (material !== 'undated' && material !== 'unverified') {
    if (!isIsoDate(material))
      problems.push(`${ref}: materialDate ${JSON.stringify(material)} is not a YYYY-MM-DD date`);
    else if (isIsoDate(checked) && material > checked)
      problems.push(`${ref}: materialDate ${material} is after the day it was checked (${checked})`);
  }
  return problems;
}

/** A file of a public GitHub repository at the commit or tag read, as a URL. */
export function githubFile(repo: string, at: string, path: string, line?: number): string {
  return `https://github.com/${repo}/blob/${at}/${path}${line !== undefined ? `#L${line}` : ''}`;
}
