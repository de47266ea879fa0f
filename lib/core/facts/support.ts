/**
 * Support status computed from the dates in the facts, at an evaluation date: nothing here is set by hand, so a
 * release that passes a retirement date is reported retired without a code change. The date defaults to today
 * (UTC) and can be fixed (`--date`, `ValidateOptions.date`, the components' `date`) for reproducible runs.
 */
import { CLOUD_NAMES, CLOUD_RELEASES, type Cloud, type CloudRetirement } from './clouds';
import { isIsoDate, type IsoDate } from './types';
import { WINDOWS_RELEASE_FACTS, type WindowsRelease } from './windows';

/** Today in UTC, `YYYY-MM-DD`. */
export function today(): IsoDate {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The date support is judged at: `date` when given (a `YYYY-MM-DD` string or a Date), else today. Throws a
 * `RangeError` naming the value when it is not a calendar date; callers that take user input check it first with
 * `checkEvaluationDate`.
 */
export function evaluationDate(date?: string | Date): IsoDate {
  if (date === undefined) return today();
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new RangeError('The evaluation date is an invalid Date.');
    return date.toISOString().slice(0, 10);
  }
  if (!isIsoDate(date)) throw new RangeError(`The evaluation date '${String(date)}' is not a YYYY-MM-DD date.`);
  return date;
}

/** The problem with a user-given evaluation date, or undefined when it is one (or absent). */
export function checkEvaluationDate(date: unknown): { message: string; fix: string } | undefined {
  if (date === undefined || date instanceof Date || isIsoDate(date)) return undefined;
  return {
    message: `Date ${JSON.stringify(date)} is not a calendar date written YYYY-MM-DD.`,
    fix: `Write e.g. '${today()}'.`,
  };
}

/** Microsoft's support phase of a release at a date. */
export type LifecyclePhase = 'mainstream' | 'extended' | 'ended';

/**
 * A release's support as a Kubernetes node OS at a date: `supported`; `deprecated` once upstream Kubernetes no
 * longer lists it or Microsoft's extended support has ended (pools still run; plan the move).
 */
export type SupportState = 'supported' | 'deprecated';

export interface ReleaseSupport {
  readonly state: SupportState;
  readonly lifecycle: LifecyclePhase;
  /** Why it is deprecated, one clause per reason with its date (empty when supported). */
  readonly reasons: readonly string[];
}

/** Microsoft's support phase of `release` at `date`. */
export function lifecyclePhase(release: WindowsRelease, date: IsoDate): LifecyclePhase {
  const { mainstreamEnd, extendedEnd } = WINDOWS_RELEASE_FACTS[release].lifecycle;
  if (date <= mainstreamEnd) return 'mainstream';
  if (date <= extendedEnd) return 'extended';
  return 'ended';
}

/** The support of `release` at `date` (see `SupportState`). */
export function releaseSupport(release: WindowsRelease, date: IsoDate = today()): ReleaseSupport {
  const facts = WINDOWS_RELEASE_FACTS[release];
  const lifecycle = lifecyclePhase(release, date);
  const reasons: string[] = [];
  if (facts.upstreamDroppedOn !== undefined && date >= facts.upstreamDroppedOn) {
    reasons.push(`upstream Kubernetes no longer lists it as a node OS (since ${facts.upstreamDroppedOn})`);
  }
  if (lifecycle === 'ended') reasons.push(`Microsoft's extended support ended on ${facts.lifecycle.extendedEnd}`);
  return { state: reasons.length > 0 ? 'deprecated' : 'supported', lifecycle, reasons };
}

/** One sentence on Microsoft's support of `release` at `date`. */
export function lifecycleSentence(release: WindowsRelease, date: IsoDate): string {
  const { displayName, lifecycle } = WINDOWS_RELEASE_FACTS[release];
  const phase = lifecyclePhase(release, date);
  switch (phase) {
    case 'mainstream':
      return `${displayName} is in Microsoft's mainstream support until ${lifecycle.mainstreamEnd} (extended support until ${lifecycle.extendedEnd}).`;
    case 'extended':
      return `${displayName} left Microsoft's mainstream support on ${lifecycle.mainstreamEnd}; extended support (security fixes) runs until ${lifecycle.extendedEnd}.`;
    case 'ended':
      return `${displayName} left Microsoft's extended support on ${lifecycle.extendedEnd}: no more security fixes.`;
    default: {
      const never: never = phase;
      throw new Error(`unknown phase ${String(never)}`);
    }
  }
}

/** A release's standing on a cloud at a date. */
export type CloudReleaseState = 'offered' | 'retired' | 'images-removed' | 'not-offered';

/** What `cloud` does with `release` at `date`, from its retirement dates. */
export function cloudReleaseState(cloud: Cloud, release: WindowsRelease, date: IsoDate = today()): CloudReleaseState {
  const facts = CLOUD_RELEASES[cloud][release];
  if (facts === undefined) return 'not-offered';
  const retirement = facts.retirement;
  if (retirement === undefined || date < retirement.on) return 'offered';
  return retirement.imagesRemovedOn !== undefined && date >= retirement.imagesRemovedOn ? 'images-removed' : 'retired';
}

/** The retirement of `release` on `cloud` when it has taken effect at `date`. */
export function cloudRetirementAt(
  cloud: Cloud,
  release: WindowsRelease,
  date: IsoDate = today(),
): CloudRetirement | undefined {
  const state = cloudReleaseState(cloud, release, date);
  return state === 'retired' || state === 'images-removed' ? CLOUD_RELEASES[cloud][release]?.retirement : undefined;
}

/** The sentence saying `cloud` retired `release` (with its dates), for messages. */
export function retirementSentence(cloud: Cloud, release: WindowsRelease, retirement: CloudRetirement): string {
  const name = CLOUD_NAMES[cloud];
  const images =
    retirement.imagesRemovedOn !== undefined
      ? `; its node images are deleted from ${retirement.imagesRemovedOn}, after which existing pools cannot scale`
      : '';
  return `${name} retired ${WINDOWS_RELEASE_FACTS[release].displayName} on ${retirement.on}: no new pools on any Kubernetes version${images}.`;
}

/** The releases upstream Kubernetes has stopped listing, oldest first (static data: no evaluation date). */
export function upstreamDroppedReleases(): WindowsRelease[] {
  return (Object.keys(WINDOWS_RELEASE_FACTS) as WindowsRelease[]).filter(
    (r) => WINDOWS_RELEASE_FACTS[r].upstreamDroppedOn !== undefined,
  );
}

/**
 * Why a release is deprecated, from the data alone (for rule texts and docs, which must not change with the day
 * they are generated): Microsoft's dates and upstream's.
 */
export function deprecationSummary(release: WindowsRelease): string {
  const { displayName, lifecycle, upstreamDroppedOn } = WINDOWS_RELEASE_FACTS[release];
  const upstream =
    upstreamDroppedOn !== undefined ? `, and upstream Kubernetes no longer lists it (since ${upstreamDroppedOn})` : '';
  return `${displayName} left Microsoft's mainstream support on ${lifecycle.mainstreamEnd} (extended support until ${lifecycle.extendedEnd})${upstream}`;
}

/** The releases upstream Kubernetes lists as node OSes, as `Windows Server 2022 and 2025`. */
export function upstreamListedSentence(): string {
  const listed = (Object.keys(WINDOWS_RELEASE_FACTS) as WindowsRelease[]).filter(
    (r) => WINDOWS_RELEASE_FACTS[r].upstreamDroppedOn === undefined,
  );
  return `Windows Server ${listed.join(' and ')}`;
}
