/**
 * Which Kubernetes versions each cloud runs each Windows Server release on, and when it retired one: the gates a
 * node pool is checked against before anything is created. The data (each cell with its source and date) is in
 * ./facts/clouds.ts; this module is the check. Retirements are judged at an evaluation date (today unless fixed),
 * so a release that passes its retirement date is refused without a code change.
 */
import { CLOUD_NAMES, CLOUD_RELEASES, cloudDefaultRelease, type Cloud, type CloudReleaseFacts } from './facts/clouds';
import { cloudRetirementAt, evaluationDate, retirementSentence } from './facts/support';
import { parseKubernetesMinor, releaseInfo, WINDOWS_RELEASES, type WindowsRelease } from './releases';

export { CLOUD_NAMES, CLOUDS, cloudDefaultRelease, type Cloud } from './facts/clouds';

/** The Kubernetes minors a cloud offers a release on (both bounds inclusive), and where that is written down. */
export interface CloudReleaseGate {
  /** First Kubernetes minor (the `32` of 1.32) the cloud offers the release on. */
  readonly firstMinor: number;
  /**
   * Last Kubernetes minor the cloud offers the release on, when it has announced one.
   * @default - no end announced
   */
  readonly lastMinor?: number;
  /** The public document that says so. */
  readonly source: string;
}

function gateOf(facts: CloudReleaseFacts): CloudReleaseGate {
  return {
    firstMinor: facts.firstMinor,
    ...(facts.lastMinor !== undefined ? { lastMinor: facts.lastMinor } : {}),
    source: facts.sources[0].ref,
  };
}

/** The Kubernetes minors `cloud` offers `release` on, or undefined when it does not offer the release. */
export function cloudReleaseGate(cloud: Cloud, release: WindowsRelease): CloudReleaseGate | undefined {
  const facts = CLOUD_RELEASES[cloud][release];
  return facts === undefined ? undefined : gateOf(facts);
}

/**
 * The releases `cloud` offers on Kubernetes 1.`minor` at `date` (today unless given), oldest first: in the gate's
 * minors and not retired.
 */
export function releasesOnKubernetes(cloud: Cloud, minor: number, date?: string): WindowsRelease[] {
  const day = evaluationDate(date);
  return WINDOWS_RELEASES.filter((r) => {
    const gate = CLOUD_RELEASES[cloud][r];
    return (
      gate !== undefined &&
      minor >= gate.firstMinor &&
      (gate.lastMinor === undefined || minor <= gate.lastMinor) &&
      cloudRetirementAt(cloud, r, day) === undefined
    );
  });
}

/** Why a release cannot run on a Kubernetes version on a cloud, and what to write instead. */
export interface GateViolation {
  readonly message: string;
  readonly fix: string;
}

const quoted = (releases: readonly WindowsRelease[]): string => releases.map((r) => `'${r}'`).join(' or ');

/** The releases `cloud` still creates pools of at `date`, on any minor. */
function liveReleases(cloud: Cloud, date: string): WindowsRelease[] {
  return WINDOWS_RELEASES.filter(
    (r) => CLOUD_RELEASES[cloud][r] !== undefined && cloudRetirementAt(cloud, r, date) === undefined,
  );
}

/**
 * Refuses a release `cloud` has retired at `date` (today unless given): the dates and the migration path.
 * `minor`, when known, narrows the releases offered instead.
 */
export function checkCloudRetirement(
  cloud: Cloud,
  release: WindowsRelease,
  minor?: number,
  date?: string,
): GateViolation | undefined {
  const day = evaluationDate(date);
  const retirement = cloudRetirementAt(cloud, release, day);
  if (retirement === undefined) return undefined;
  const live = liveReleases(cloud, day);
  const fits = minor === undefined ? live : releasesOnKubernetes(cloud, minor, day);
  const later = live
    .filter((r) => !fits.includes(r))
    .map((r) => `'${r}' on Kubernetes 1.${CLOUD_RELEASES[cloud][r]?.firstMinor ?? 0} or newer`);
  const to =
    fits.length > 0
      ? `release ${quoted(fits)}${later.length > 0 ? ` (or ${later.join(', ')})` : ''}`
      : `release ${later.join(' or ')}`;
  return {
    message: retirementSentence(cloud, release, retirement),
    fix: `Move to ${to} and rebuild the images on its base (${retirement.migration}).`,
  };
}

/**
 * Checks that `cloud` runs `release` on Kubernetes `version` (`1.32`, `v1.32.4`, `1.32.0-eks-…`) at `date` (today
 * unless given). Returns the violation, or undefined when it fits. A retired release is refused whatever the
 * version; a version that is not a Kubernetes 1.x version is not checked further (callers check syntax).
 */
export function checkCloudRelease(
  cloud: Cloud,
  release: WindowsRelease,
  version: string | undefined,
  date?: string,
): GateViolation | undefined {
  const day = evaluationDate(date);
  const minor = version === undefined ? undefined : parseKubernetesMinor(version);
  const info = releaseInfo(release);
  const facts = CLOUD_RELEASES[cloud][release];
  const name = CLOUD_NAMES[cloud];
  if (facts === undefined) {
    return {
      message: `${name} does not offer ${info.displayName} nodes.`,
      fix: `Use release ${quoted(liveReleases(cloud, day))}.`,
    };
  }
  const retired = checkCloudRetirement(cloud, release, minor, day);
  if (retired) return retired;
  if (minor === undefined) return undefined;
  const gate = gateOf(facts);
  const others = (m: number): string => {
    const fits = releasesOnKubernetes(cloud, m, day);
    return fits.length > 0 ? `release ${quoted(fits)}` : 'another release';
  };
  if (minor < gate.firstMinor) {
    return {
      message: `${name} runs ${info.displayName} nodes on Kubernetes 1.${gate.firstMinor} or newer; '${version}' is older (${gate.source}).`,
      fix: `Use Kubernetes 1.${gate.firstMinor} or newer, or ${others(minor)}.`,
    };
  }
  if (gate.lastMinor !== undefined && minor > gate.lastMinor) {
    return {
      message: `${name} runs ${info.displayName} nodes on Kubernetes 1.${gate.lastMinor} at the newest; '${version}' is newer (${gate.source}).`,
      fix: `Use ${others(minor)}, or Kubernetes 1.${gate.lastMinor}.`,
    };
  }
  return undefined;
}

/**
 * The release a pool on `cloud` gets when none is given, for Kubernetes `version` (a plain string) or, when the
 * version is not known, the cloud's first default.
 */
export function defaultReleaseFor(cloud: Cloud, version: unknown): WindowsRelease {
  const minor = typeof version === 'string' ? parseKubernetesMinor(version) : undefined;
  return cloudDefaultRelease(cloud, minor);
}
