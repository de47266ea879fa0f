/**
 * Container image references and the Windows build they were made for. Which image builds a host runs is the
 * table in ./facts/windows.ts (`HOST_COMPATIBILITY`): with process isolation a host runs its own build and, from
 * Windows Server 2025 on, the previous LTSC's (ltsc2022 images on 2025 nodes); Hyper-V isolation runs any image as
 * old as the host or older.
 */
import { hostRunsImage, hostsRunningImage } from './facts/windows';
import {
  RETIRED_RELEASES,
  releaseForBuild,
  releaseInfo,
  WINDOWS_RELEASES,
  type WindowsIsolation,
  type WindowsRelease,
} from './releases';

import { parseImageReference, type ImageReference } from './image-reference';

export { parseImageReference, type ImageReference };

/** What a tag says about the Windows build. */
export type ImageBuild =
  | { readonly kind: 'release'; readonly release: WindowsRelease; readonly build: string }
  /** A release no supported node runs: Windows Server 2016 or an end-of-life SAC release. */
  | { readonly kind: 'retired'; readonly name: string; readonly build: string; readonly displayName: string }
  | { readonly kind: 'unknown' };

const TAG_TOKENS: ReadonlyArray<{ token: string; build: ImageBuild }> = [
  ...WINDOWS_RELEASES.flatMap((release) =>
    releaseInfo(release).imageTags.map((token) => ({
      token,
      build: { kind: 'release', release, build: releaseInfo(release).build } as ImageBuild,
    })),
  ),
  ...RETIRED_RELEASES.flatMap((r) =>
    r.imageTags.map((token) => ({
      token,
      build: { kind: 'retired', name: r.name, build: r.build, displayName: r.displayName } as ImageBuild,
    })),
  ),
];

/** `ltsc2022`, `sac2016`: words only Windows tags use, wherever they stand. */
const CHANNEL_TOKEN = /^(?:ltsc|sac)\d{4}$/;

/**
 * Words that say a build name beside them is a Windows build: `nanoserver-1809`, `windowsservercore-1709`,
 * `3.9-windows-1809-amd64`. Alone, `1809` or `2004` is as likely a version number (`acme/etl:2004`).
 */
const WINDOWS_WORDS: ReadonlySet<string> = new Set([
  'windows',
  'win',
  'windowsservercore',
  'servercore',
  'nanoserver',
  'wcow',
]);

/**
 * A year after a Windows word names the LTSC release in vendors' tags: fluent-bit's `3.1.4-windows-2022`,
 * `win2019`, `servercore-2022`.
 */
const WINDOWS_YEAR_TAG = /(?:^|[-_.])(?:windows|win|servercore|nanoserver|wcow)[-_]?(20(?:16|19|22|25))(?:$|[-_.])/;

/**
 * How surely a tag names a Windows build:
 * - `strong`: in a form only Windows images use — `ltsc2022`, a full build (`10.0.20348.2655`), or a build name
 *   beside a Windows word (`nanoserver-1809`, `-windows-1809-amd64`, `windows-2022`);
 * - `weak`: a bare build name as the tag or one of its dash-separated parts (`1809`, `20h2`, `v1.0-2004`): the
 *   build when the image is known to be a Windows one, a version number otherwise;
 * - `none`: no build name, or one buried in a dotted version (`1.4.1809`, `v2.1909.3`).
 */
export type WindowsTagStrength = 'strong' | 'weak' | 'none';

interface TagReading {
  readonly build: ImageBuild;
  readonly strength: WindowsTagStrength;
}

const NO_READING: TagReading = { build: { kind: 'unknown' }, strength: 'none' };

function buildFromFull(full: string): ImageBuild | undefined {
  const release = releaseForBuild(full);
  if (release) return { kind: 'release', release, build: releaseInfo(release).build };
  const retired = RETIRED_RELEASES.find((r) => r.build === full);
  return retired
    ? { kind: 'retired', name: retired.name, build: retired.build, displayName: retired.displayName }
    : undefined;
}

function readTag(tag: string | undefined): TagReading {
  if (!tag) return NO_READING;
  const lower = tag.toLowerCase();
  const full = /(?:^|[-_])(10\.0\.\d{5})(?:\.\d+)?(?:$|[-_])/.exec(lower);
  const fromFull = full ? buildFromFull(full[1]) : undefined;
  if (fromFull) return { build: fromFull, strength: 'strong' };
  for (const word of lower.split(/[-_.]/)) {
    if (!CHANNEL_TOKEN.test(word)) continue;
    const hit = TAG_TOKENS.find((t) => t.token === word);
    if (hit) return { build: hit.build, strength: 'strong' };
  }
  const year = WINDOWS_YEAR_TAG.exec(lower);
  const byYear = year ? TAG_TOKENS.find((t) => t.token === `ltsc${year[1]}`) : undefined;
  if (byYear) return { build: byYear.build, strength: 'strong' };
  // Bare build names count only as whole dash- or underscore-separated parts, never inside a dotted version.
  const parts = lower.split(/[-_]/);
  let weak: ImageBuild | undefined;
  for (let i = 0; i < parts.length; i++) {
    const hit = TAG_TOKENS.find((t) => t.token === parts[i]);
    if (!hit) continue;
    if (WINDOWS_WORDS.has(parts[i - 1] ?? '') || WINDOWS_WORDS.has(parts[i + 1] ?? '')) {
      return { build: hit.build, strength: 'strong' };
    }
    weak ??= hit.build;
  }
  return weak ? { build: weak, strength: 'weak' } : NO_READING;
}

/**
 * Infers the Windows build from a tag (`4.8-windowsservercore-ltsc2022`, `nanoserver-1809`, `10.0.20348.2655`),
 * for an image already known to be a Windows one: a bare build name (`1809`) counts, one buried in a dotted
 * version (`1.4.1809`) does not. Whether the tag alone makes the image a Windows one is `windowsTagStrength`.
 */
export function inferWindowsBuild(tag: string | undefined): ImageBuild {
  return readTag(tag).build;
}

/** How surely `tag` names a Windows build (see `WindowsTagStrength`). */
export function windowsTagStrength(tag: string | undefined): WindowsTagStrength {
  return readTag(tag).strength;
}

/**
 * Docker Hub's `microsoft/*` Windows repositories. Microsoft moved its images to mcr.microsoft.com in 2018-2019
 * and stopped updating these: they hold Windows Server 2016 and SAC builds and nothing for 2022 or 2025.
 * @see https://techcommunity.microsoft.com/blog/containers/the-microsoft-container-registry-mcr/382258
 * @see https://hub.docker.com/r/microsoft/iis ("This repository has been deprecated")
 */
const LEGACY_WINDOWS_REPOSITORY =
  /^microsoft\/(?:iis|windowsservercore|nanoserver|aspnet|dotnet-framework(?:-[a-z]+)*|wcf|mssql-server-windows(?:-[a-z]+)*|sqlserver-windows)$/;
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/**
 * Where the legacy repository's images live now, for fixes.
 * @internal
 */
export const LEGACY_SUCCESSORS: Readonly<Record<string, string>> = {
  'microsoft/iis': 'mcr.microsoft.com/windows/servercore/iis',
  'microsoft/windowsservercore': 'mcr.microsoft.com/windows/servercore',
  'microsoft/nanoserver': 'mcr.microsoft.com/windows/nanoserver',
  'microsoft/aspnet': 'mcr.microsoft.com/dotnet/framework/aspnet',
  'microsoft/dotnet-framework': 'mcr.microsoft.com/dotnet/framework/runtime',
  'microsoft/wcf': 'mcr.microsoft.com/dotnet/framework/wcf',
};

/** A retired Docker Hub `microsoft/*` Windows repository, with where its images moved (when one place). */
export function legacyWindowsRepository(
  image: string | ImageReference,
): { readonly repository: string; readonly successor?: string } | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref || (ref.registry !== undefined && !DOCKER_HUB.has(ref.registry))) return undefined;
  if (!LEGACY_WINDOWS_REPOSITORY.test(ref.repository)) return undefined;
  const successor = LEGACY_SUCCESSORS[ref.repository];
  return { repository: ref.repository, ...(successor !== undefined ? { successor } : {}) };
}

/**
 * Publishers whose build-less tags are multi-arch manifest lists with an entry per Windows build: containerd on a
 * Windows node pulls the entry whose `os.version` matches the host, so such a tag does not float across builds.
 * - registry.k8s.io / k8s.gcr.io: the Kubernetes images (CSI sidecars, agnhost, pause) are built for every
 *   supported Windows build (https://github.com/kubernetes-csi/csi-release-tools, `BUILD_PLATFORMS`);
 * - mcr.microsoft.com/oss, mcr.microsoft.com/k8s: AKS-built driver and add-on images, multi-arch likewise;
 * - mcr.microsoft.com/dotnet: the .NET and .NET Framework tags without an OS suffix (`4.8`, `aspnetapp`) are
 *   manifest lists over every supported Windows Server build
 *   (https://github.com/microsoft/dotnet-framework-docker#image-variants).
 * @see https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility#matching-container-host-version-with-container-image-versions
 */
const MULTI_ARCH_PUBLISHERS: readonly RegExp[] = [
  /^(?:registry\.k8s\.io|k8s\.gcr\.io)$/,
  /^mcr\.microsoft\.com\/(?:oss|k8s|dotnet)\//,
];

/**
 * The advice for a tag that names no build, shared by the validator and the constructs.
 * @internal
 */
export const BUILDLESS_TAG_FIX =
  "Check the tag's manifest (docker manifest inspect) has an entry for your nodes' build, or use the tag for your nodes' release (e.g. '...-ltsc2022').";

/**
 * What an image reference says about the Windows builds it can run on:
 * - `single`: the tag names one build (`ltsc2022`, `1809`, `10.0.20348.1`);
 * - `multi`: a build-less tag of a publisher known to ship multi-arch manifest lists over the Windows builds;
 * - `unknown`: a build-less tag of anyone else — a manifest list or a single image, the reference cannot tell.
 */
export function windowsBuildCoverage(image: string | ImageReference): 'single' | 'multi' | 'unknown' {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return 'unknown';
  if (inferWindowsBuild(ref.tag).kind !== 'unknown') return 'single';
  const where = ref.registry === undefined ? ref.repository : `${ref.registry}/${ref.repository}`;
  return MULTI_ARCH_PUBLISHERS.some((re) => re.test(ref.registry ?? '') || re.test(where)) ? 'multi' : 'unknown';
}

/** Repositories and tag words that only exist as Windows images. */
const WINDOWS_REPOSITORY =
  /^(?:windows(?:\/|$)|dotnet\/framework\/|powershell\/.*(?:nanoserver|windowsservercore))|(?:^|\/)(?:windows-host-process-containers-base-image|nanoserver|servercore|windowsservercore)(?:$|\/)/;
const WINDOWS_TAG_WORD = /(?:^|[-_.])(?:windowsservercore|nanoserver|ltsc20\d\d|windows)(?:$|[-_.])/;

/**
 * Whether the reference names a Windows image, from its repository or tag; `undefined` when it cannot be told.
 * Only strong evidence counts: a known Windows repository, a Windows word in the tag (`nanoserver`,
 * `windowsservercore`, `windows`), or a build in a form only Windows tags use (`windowsTagStrength` `strong`).
 * A bare build name (`api:2004`, `etl:20h2`) or one inside a version (`worker:v2.1909.3`) is not evidence: Linux
 * images carry such versions, and reading them as Windows would pin Linux pods to Windows nodes.
 */
export function isWindowsImage(image: string | ImageReference): boolean | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return undefined;
  if (WINDOWS_REPOSITORY.test(ref.repository) || legacyWindowsRepository(ref) !== undefined) return true;
  if (ref.tag && (WINDOWS_TAG_WORD.test(ref.tag.toLowerCase()) || windowsTagStrength(ref.tag) === 'strong'))
    return true;
  return undefined;
}

/*
 * Windows evidence in an image's name. A repository path names Windows as often as a tag does
 * (`contoso/iis-windows-ltsc2019`, `fabrikam/sql-windows-1809`), but a name is the publisher's choice, not a
 * platform: Linux images that build, emulate or manage Windows carry Windows words too. So the name is read token by
 * token (between `/`, `.`, `-` and `_`, never inside a word: `darwin`, `winston`, `kubewin` name nothing), Linux
 * words beside it cancel it, and what it says is weaker evidence than isWindowsImage's.
 */

/** Token edges in an image name: its start or end, or a `/`, `.`, `-` or `_`. */
const NAME_START = '(?:^|[/._-])';
const NAME_END = '(?:$|[/._-])';

/**
 * Words that say an image is a Linux one even beside a Windows word, as whole tokens of its repository path or tag
 * (a number may follow: `ubuntu22`, `rhel9`, `alpine3`): a Linux distribution or base image; a cross-compiler or
 * emulator that targets Windows from Linux (`dockcross/windows-static-x64`, `mingw`, `wine`, `qemu`, `kvm`); and
 * the parts of Windows support that run on Linux nodes (OpenShift's `windows-machine-config-operator`, a gMSA
 * admission `webhook`, a CSI driver's `controller`).
 */
const LINUX_NAME_WORDS = [
  'linux',
  'alpine',
  'ubuntu',
  'debian',
  'bookworm',
  'bullseye',
  'buster',
  'jammy',
  'focal',
  'noble',
  'centos',
  'rhel',
  'ubi',
  'fedora',
  'distroless',
  'busybox',
  'mingw',
  'wine',
  'cross',
  'dockcross',
  'qemu',
  'kvm',
  'operator',
  'webhook',
  'controller',
];
const LINUX_NAME_WORD = new RegExp(`${NAME_START}(?:${LINUX_NAME_WORDS.join('|')})\\d*${NAME_END}`);

/** Linux images named after Windows: dockurr/windows runs Windows in a KVM virtual machine inside a Linux container. */
const LINUX_REPOSITORY = /(?:^|\/)dockurr\/windows(?:-arm)?$/;

/** A Windows word (`WINDOWS_WORDS`) as a whole token of a repository path. */
const WINDOWS_NAME_WORD = new RegExp(`${NAME_START}(?:${[...WINDOWS_WORDS].map(literal).join('|')})${NAME_END}`);

interface NameBuildPattern {
  readonly pattern: string;
  readonly re: RegExp;
  readonly built: Exclude<ImageBuild, { kind: 'unknown' }>;
}

let nameBuildPatterns: readonly NameBuildPattern[] | undefined;

/**
 * The forms in which a repository path names a build, per release, in readTag's stage order and table order: a
 * full build (`10.0.17763`), a channel word (`ltsc2019`), a year after a Windows word (`win2022`, `windows-2019`),
 * a build name beside a Windows word (`windows-1809`, `1809-nanoserver`). Only the strong forms: a bare `2004` in a
 * name is as likely a version as in a tag, and the name is not known to be a Windows one.
 */
function namePatterns(): readonly NameBuildPattern[] {
  if (nameBuildPatterns !== undefined) return nameBuildPatterns;
  const words = [...WINDOWS_WORDS].map(literal).join('|');
  const yearWords = /\(\?:\^\|\[-_\.\]\)\(\?:([a-z|]+)\)/.exec(WINDOWS_YEAR_TAG.source)?.[1];
  if (yearWords === undefined) throw new Error('WINDOWS_YEAR_TAG changed: update namePatterns');
  const readings: { tokens: readonly string[]; built: Exclude<ImageBuild, { kind: 'unknown' }> }[] = [
    ...WINDOWS_RELEASES.map((release) => ({
      tokens: releaseInfo(release).imageTags,
      built: { kind: 'release', release, build: releaseInfo(release).build } as const,
    })),
    ...RETIRED_RELEASES.map((r) => ({
      tokens: r.imageTags,
      built: { kind: 'retired', name: r.name, build: r.build, displayName: r.displayName } as const,
    })),
  ];
  const stages: ((r: (typeof readings)[number]) => string | undefined)[] = [
    (r) => `(?:^|[/_-])${literal(r.built.build)}(?:\\.\\d+)?(?:$|[/_-])`,
    (r) => {
      const channel = r.tokens.filter((t) => CHANNEL_TOKEN.test(t));
      return channel.length > 0 ? `${NAME_START}(?:${channel.map(literal).join('|')})${NAME_END}` : undefined;
    },
    (r) => {
      const years = r.tokens.map((t) => /^ltsc(20\d\d)$/.exec(t)?.[1]).filter((y): y is string => y !== undefined);
      return years.length > 0 ? `${NAME_START}(?:${yearWords})[-_]?(?:${years.join('|')})${NAME_END}` : undefined;
    },
    (r) => {
      const tokens = r.tokens.map(literal).join('|');
      return `(?:^|[/_-])(?:(?:${words})[-_](?:${tokens})|(?:${tokens})[-_](?:${words}))(?:$|[/_-])`;
    },
  ];
  nameBuildPatterns = stages.flatMap((stage) =>
    readings.flatMap((r) => {
      const pattern = stage(r);
      return pattern === undefined ? [] : [{ pattern, re: new RegExp(pattern), built: r.built }];
    }),
  );
  return nameBuildPatterns;
}

/** A build an image's repository path names, with the words that name it (`ltsc2019`, `windows-1809`). */
export interface RepositoryBuild {
  readonly build: Exclude<ImageBuild, { kind: 'unknown' }>;
  readonly words: string;
}

/**
 * The Windows build an image's repository path names in a form only Windows images use (`iis-windows-ltsc2019`,
 * `sql-windows-1809`, `agent-win2022`, `app-10.0.20348`); undefined when it names none. The tag is
 * `inferWindowsBuild`'s.
 */
export function repositoryWindowsBuild(image: string | ImageReference): RepositoryBuild | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return undefined;
  for (const p of namePatterns()) {
    const m = p.re.exec(ref.repository);
    if (m) return { build: p.built, words: m[0].replace(/^[/._-]|[/._-]$/g, '') };
  }
  return undefined;
}

/** What an image's name says about Windows (`readWindowsName`). */
export interface WindowsNameReading {
  /** The repository path (`contoso/iis-windows-ltsc2019`). */
  readonly repository: string;
  /** The Windows words of the path, as written (`windows`, `ltsc2019`, `windows-1809`). */
  readonly words: readonly string[];
  /** The build the name names: its repository path's, else its tag's (`unknown` when neither names one). */
  readonly build: ImageBuild;
  /** Where the build was read. */
  readonly buildFrom?: 'repository' | 'tag';
  /** For messages: `the image repository name 'contoso/iis-windows-ltsc2019' names Windows ('windows', 'ltsc2019': Windows Server 2019)`. */
  readonly evidence: string;
}

/** `Windows Server 2019`, `Windows Server 1709`: a build's release, for messages. */
function buildName(build: Exclude<ImageBuild, { kind: 'unknown' }>): string {
  return build.kind === 'release' ? releaseInfo(build.release).displayName : build.displayName;
}

/**
 * What an image's repository path says about Windows, read token by token: a Windows word (`windows`, `win`,
 * `servercore`, `nanoserver`, `wcow`) or a build in a form only Windows images use (`ltsc2019`, `windows-1809`,
 * `win2022`), and then the build, from the path or else from the tag (where a bare `1809` counts, the name having
 * said Windows). Undefined when the path names neither, or when the path or tag also holds a Linux word (`alpine`,
 * `mingw`, `operator`…) or it is a known Linux image named after Windows. The registry host is not read.
 *
 * Weaker evidence than `isWindowsImage`: the rules that read it say so, at a lower severity.
 */
export function readWindowsName(image: string | ImageReference): WindowsNameReading | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return undefined;
  const tag = ref.tag?.toLowerCase() ?? '';
  if (LINUX_REPOSITORY.test(ref.repository) || LINUX_NAME_WORD.test(ref.repository) || LINUX_NAME_WORD.test(tag)) {
    return undefined;
  }
  const named = repositoryWindowsBuild(ref);
  if (named === undefined && !WINDOWS_NAME_WORD.test(ref.repository)) return undefined;
  const inside = new Set(named?.words.split(/[/._-]/) ?? []);
  const words = [
    ...new Set(ref.repository.split(/[/._-]/).filter((t) => WINDOWS_WORDS.has(t) && !inside.has(t))),
    ...(named ? [named.words] : []),
  ];
  const fromTag = named === undefined ? inferWindowsBuild(ref.tag) : undefined;
  const build: ImageBuild = named?.build ?? fromTag ?? { kind: 'unknown' };
  const quoted = words.map((w) => `'${w}'`).join(', ');
  const name = `the image repository name '${ref.repository}'`;
  const evidence =
    named !== undefined
      ? `${name} names Windows (${quoted}: ${buildName(named.build)})`
      : build.kind !== 'unknown'
        ? `${name} names Windows (${quoted}) and its tag '${ref.tag}' names ${buildName(build)}`
        : `${name} names Windows (${quoted})`;
  return {
    repository: ref.repository,
    words,
    build,
    ...(named !== undefined
      ? { buildFrom: 'repository' as const }
      : build.kind !== 'unknown'
        ? { buildFrom: 'tag' as const }
        : {}),
    evidence,
  };
}

/**
 * `readWindowsName` as regular-expression sources (RE2-compatible), for the rules' CEL forms, generated from the
 * same constants:
 * - `linuxRepository`, `linuxWord`: a reading is cancelled when the repository matches either, or the lower-cased
 *   tag matches `linuxWord`;
 * - `word`: the repository holds a Windows word;
 * - `builds`: per release, in order, the repository names its build (`release` 'retired' for one no node runs);
 *   the first that matches names it; any of them makes the name a Windows one.
 * @internal
 */
export function windowsNamePatterns(): {
  readonly linuxRepository: string;
  readonly linuxWord: string;
  readonly word: string;
  readonly builds: readonly {
    readonly pattern: string;
    readonly release: WindowsRelease | 'retired';
    readonly build: string;
  }[];
} {
  return {
    linuxRepository: LINUX_REPOSITORY.source,
    linuxWord: LINUX_NAME_WORD.source,
    word: WINDOWS_NAME_WORD.source,
    builds: namePatterns().map((p) => ({
      pattern: p.pattern,
      release: p.built.kind === 'release' ? p.built.release : 'retired',
      build: p.built.build,
    })),
  };
}

/** A regular expression's source for a literal word. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * `isWindowsImage` as regular-expression sources (RE2-compatible: no lookaround), for the admission policies' CEL
 * (lib/core/policies/prelude.ts): generated from the same constants, so the two cannot drift.
 * - `repository`, `legacyRepository`: tested on the repository path (registry host removed);
 * - `dockerHubHosts`: the hosts a legacy repository counts on (or none);
 * - `tagWord`, `strongTag`: tested on the lower-cased tag; `strongTag` is `windowsTagStrength(tag) === 'strong'`.
 * @internal
 */
export function windowsImagePatterns(): {
  readonly repository: string;
  readonly legacyRepository: string;
  readonly dockerHubHosts: readonly string[];
  readonly tagWord: string;
  readonly strongTag: string;
} {
  const builds = [
    ...new Set([...WINDOWS_RELEASES.map((r) => releaseInfo(r).build), ...RETIRED_RELEASES.map((r) => r.build)]),
  ];
  const channel = TAG_TOKENS.map((t) => t.token).filter((t) => CHANNEL_TOKEN.test(t));
  const tokens = [...new Set(TAG_TOKENS.map((t) => t.token))].map(literal).join('|');
  const words = [...WINDOWS_WORDS].map(literal).join('|');
  // The year form names a release only when ltsc<year> is a known tag: every year the pattern admits is one.
  for (const year of /\(20\(\?:([\d|]+)\)\)/.exec(WINDOWS_YEAR_TAG.source)?.[1]?.split('|') ?? []) {
    if (!TAG_TOKENS.some((t) => t.token === `ltsc20${year}`)) throw new Error(`ltsc20${year} is not a known tag`);
  }
  const strong = [
    `(?:^|[-_])(?:${builds.map(literal).join('|')})(?:\\.\\d+)?(?:$|[-_])`,
    `(?:^|[-_.])(?:${channel.map(literal).join('|')})(?:$|[-_.])`,
    WINDOWS_YEAR_TAG.source,
    `(?:^|[-_])(?:${words})[-_](?:${tokens})(?:$|[-_])`,
    `(?:^|[-_])(?:${tokens})[-_](?:${words})(?:$|[-_])`,
  ];
  return {
    repository: WINDOWS_REPOSITORY.source,
    legacyRepository: LEGACY_WINDOWS_REPOSITORY.source,
    dockerHubHosts: [...DOCKER_HUB],
    tagWord: WINDOWS_TAG_WORD.source,
    strongTag: strong.join('|'),
  };
}

/**
 * `inferWindowsBuild` as an ordered list of regular-expression sources over the lower-cased tag, for the admission
 * policies' CEL: the first that matches names the release (`retired` for a release no node runs). The stages are
 * readTag's (a full build, a channel word, a year beside a Windows word, a build name as a whole dash-separated
 * part); within a stage the releases are tried in table order, where readTag takes the first hit in the tag (they
 * differ only for a tag naming two builds in one form).
 * @internal
 */
export function windowsBuildTagPatterns(): readonly {
  readonly pattern: string;
  readonly release: WindowsRelease | 'retired';
  /** The build the pattern names (`10.0.17763`, a retired one's `10.0.14393`). */
  readonly build: string;
}[] {
  const readings: { tokens: readonly string[]; build: string; release: WindowsRelease | 'retired' }[] = [
    ...WINDOWS_RELEASES.map((release) => ({
      tokens: releaseInfo(release).imageTags,
      build: releaseInfo(release).build,
      release,
    })),
    ...RETIRED_RELEASES.map((r) => ({ tokens: r.imageTags, build: r.build, release: 'retired' as const })),
  ];
  const yearWords = /\(\?:\^\|\[-_\.\]\)\(\?:([a-z|]+)\)/.exec(WINDOWS_YEAR_TAG.source)?.[1];
  if (yearWords === undefined) throw new Error('WINDOWS_YEAR_TAG changed: update windowsBuildTagPatterns');
  const stages: ((r: (typeof readings)[number]) => string | undefined)[] = [
    (r) => `(?:^|[-_])${literal(r.build)}(?:\\.\\d+)?(?:$|[-_])`,
    (r) => {
      const channel = r.tokens.filter((t) => CHANNEL_TOKEN.test(t));
      return channel.length > 0 ? `(?:^|[-_.])(?:${channel.map(literal).join('|')})(?:$|[-_.])` : undefined;
    },
    (r) => {
      const years = r.tokens.map((t) => /^ltsc(20\d\d)$/.exec(t)?.[1]).filter((y): y is string => y !== undefined);
      return years.length > 0 ? `(?:^|[-_.])(?:${yearWords})[-_]?(?:${years.join('|')})(?:$|[-_.])` : undefined;
    },
    (r) => `(?:^|[-_])(?:${r.tokens.map(literal).join('|')})(?:$|[-_])`,
  ];
  return stages.flatMap((stage) =>
    readings.flatMap((r) => {
      const pattern = stage(r);
      return pattern === undefined ? [] : [{ pattern, release: r.release, build: r.build }];
    }),
  );
}

/**
 * The last part of the HostProcess base image's repository (mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image).
 * @internal
 */
export const HOST_PROCESS_BASE_REPOSITORY = 'windows-host-process-containers-base-image';

/** HostProcess containers run on the host, so their image need not match its build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility). */
export function isHostProcessBaseImage(ref: ImageReference): boolean {
  return ref.repository.endsWith(HOST_PROCESS_BASE_REPOSITORY);
}

export type CompatibilityIsolation = WindowsIsolation | 'hostProcess';

export type ImageCompatibility =
  | { readonly status: 'compatible'; readonly reason: string }
  | { readonly status: 'incompatible'; readonly reason: string; readonly fix: string }
  | { readonly status: 'unknown'; readonly reason: string };

/**
 * Whether `image` can run on a `host` node under `isolation` (the table `HOST_COMPATIBILITY`):
 * - process: the host's own build, and on Windows Server 2025 hosts also ltsc2022;
 * - hyperv: the image build must be the host's or older;
 * - hostProcess: any build (the container runs on the host).
 */
export function checkImageCompatibility(
  image: string,
  host: WindowsRelease,
  isolation: CompatibilityIsolation = 'process',
): ImageCompatibility {
  // Charts repeat a handful of images thousands of times: answers are pure, so keep the recent ones.
  const key = `${isolation}|${host}|${image}`;
  const cached = COMPATIBILITY_CACHE.get(key);
  if (cached) return cached;
  const answer = compatibility(image, host, isolation);
  if (COMPATIBILITY_CACHE.size >= COMPATIBILITY_CACHE_SIZE) COMPATIBILITY_CACHE.clear();
  COMPATIBILITY_CACHE.set(key, answer);
  return answer;
}

const COMPATIBILITY_CACHE_SIZE = 1024;
const COMPATIBILITY_CACHE = new Map<string, ImageCompatibility>();

function compatibility(image: string, host: WindowsRelease, isolation: CompatibilityIsolation): ImageCompatibility {
  const ref = parseImageReference(image);
  if (!ref) return { status: 'unknown', reason: `'${image}' is not a valid image reference.` };
  if (isolation === 'hostProcess')
    return { status: 'compatible', reason: 'HostProcess containers run on the host and need not match its build.' };
  const hostInfo = releaseInfo(host);
  const built = inferWindowsBuild(ref.tag);
  switch (built.kind) {
    case 'unknown':
      return {
        status: 'unknown',
        reason: ref.tag
          ? `Tag '${ref.tag}' names no Windows build: unless it is a manifest list with an entry for the node's build, the image may not match the host.`
          : ref.digest
            ? `Image '${image}' is pinned by digest only; its Windows build cannot be read from the reference.`
            : `Image '${image}' has no tag (it means :latest) and does not name a Windows build.`,
      };
    case 'retired':
      return {
        status: 'incompatible',
        reason: `Image '${image}' is built for ${built.displayName} (build ${built.build}), which no supported node runs.`,
        fix: `Rebuild it on an LTSC base image for ${hostInfo.displayName} (tag ltsc${host}).`,
      };
    case 'release': {
      const tagFor = `ltsc${host}`;
      const runsOn = (iso: WindowsIsolation): string =>
        hostsRunningImage(built.release, iso)
          .map((r) => releaseInfo(r).displayName)
          .join(' or ');
      switch (isolation) {
        case 'process':
          if (hostRunsImage(host, built.release, 'process')) {
            return {
              status: 'compatible',
              reason:
                built.release === host
                  ? `Image build ${built.build} matches the ${hostInfo.displayName} host.`
                  : `A ${hostInfo.displayName} host (${hostInfo.build}) runs Windows Server ${built.release} images (${built.build}) with process isolation.`,
            };
          }
          return {
            status: 'incompatible',
            reason: `Image '${image}' is built for Windows Server ${built.release} (${built.build}) but the node runs ${hostInfo.displayName} (${hostInfo.build}); with process isolation a ${hostInfo.displayName} host runs only ${hostsRunningOnHost(host, 'process')} images ("the container operating system does not match the host operating system").`,
            fix: `Use the image's ${tagFor} tag, or pin the workload to ${runsOn('process')} nodes.`,
          };
        case 'hyperv':
          return hostRunsImage(host, built.release, 'hyperv')
            ? {
                status: 'compatible',
                reason: `Hyper-V isolation runs a ${built.build} image on a ${hostInfo.build} host.`,
              }
            : {
                status: 'incompatible',
                reason: `Image '${image}' (${built.build}) is newer than the ${hostInfo.displayName} host (${hostInfo.build}); Hyper-V isolation only runs images of the same or an older build.`,
                fix: `Use the image's ${tagFor} tag, or run the workload on ${runsOn('hyperv')} nodes.`,
              };
        default: {
          const never: never = isolation;
          throw new Error(`unknown isolation ${String(never)}`);
        }
      }
    }
    default: {
      const never: never = built;
      throw new Error(`unknown build kind ${JSON.stringify(never)}`);
    }
  }
}

/** The image releases a `host` runs under `isolation`, as `ltsc2022 or ltsc2025`. */
function hostsRunningOnHost(host: WindowsRelease, isolation: WindowsIsolation): string {
  return WINDOWS_RELEASES.filter((r) => hostRunsImage(host, r, isolation))
    .map((r) => `ltsc${r}`)
    .join(' or ');
}

/**
 * Images that run only as HostProcess containers: Microsoft's HostProcess base image ("cannot be used with any
 * other type of Windows container", https://github.com/microsoft/windows-host-process-containers-base-image) and
 * images built FROM it by their publisher. windows_exporter moved to that base in 0.30.0 (commit d13d726, 2024-11,
 * https://github.com/prometheus-community/windows_exporter/commit/d13d726453fc3ad5f78c26de5fed168b7fc73a78); its
 * earlier tags were built on Nano Server per OS and start as ordinary containers, so they are not reported. The
 * value says what it is; `since` is the first version tag built on the base (later and non-version tags such as
 * `latest` are; a digest says no version and is not reported).
 * @internal
 */
export const HOSTPROCESS_BUILT_ON_BASE: readonly {
  readonly repository: RegExp;
  readonly what: string;
  readonly since: readonly [major: number, minor: number];
}[] = [
  {
    repository: /^ghcr\.io\/prometheus-community\/windows-exporter$/,
    what: 'windows_exporter (0.30 and later), built on the HostProcess base image',
    since: [0, 30],
  },
];

/** Whether `ref`'s tag is `since` or later, or names no version (`latest`); a digest alone names none. */
function taggedSince(ref: ImageReference, [major, minor]: readonly [number, number]): boolean {
  if (ref.tag === undefined) return ref.digest === undefined;
  const m = /^v?(\d+)\.(\d+)/.exec(ref.tag);
  if (!m) return true;
  const [tagMajor, tagMinor] = [Number(m[1]), Number(m[2])];
  return tagMajor > major || (tagMajor === major && tagMinor >= minor);
}

/** What a HostProcess-only image is (`windows_exporter (0.30 and later), ...`), or undefined. */
export function hostProcessOnlyImage(ref: ImageReference): string | undefined {
  if (isHostProcessBaseImage(ref)) return "Microsoft's HostProcess base image";
  const where = ref.registry === undefined ? ref.repository : `${ref.registry}/${ref.repository}`;
  return HOSTPROCESS_BUILT_ON_BASE.find((i) => i.repository.test(where) && taggedSince(ref, i.since))?.what;
}

/**
 * What `isServerCoreImage` reads: Microsoft's registry, its Server Core based repositories, the tag word (on the
 * lower-cased tag); exported for the CEL form of windows-run-as-non-root-image-user.
 * @internal
 */
export const SERVER_CORE_REGISTRY = 'mcr.microsoft.com';
/** @internal */
export const SERVER_CORE_REPOSITORY = /^(?:windows\/servercore(?:\/|$)|windows\/server$|dotnet\/framework\/)/;
/** @internal */
export const SERVER_CORE_TAG = /(?:^|[-_.])windowsservercore(?:$|[-_.])/;

/**
 * Well-known images built on Windows Server Core, which run as ContainerAdministrator (their config names no user:
 * https://github.com/kubernetes/kubernetes/issues/112469#issuecomment-1307784766): Server Core itself,
 * Server and IIS, .NET Framework (`dotnet/framework/*`), and any tag that names `windowsservercore`. Nano Server
 * images default to ContainerUser (https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/).
 */
export function isServerCoreImage(ref: ImageReference): boolean {
  if (ref.registry === SERVER_CORE_REGISTRY && SERVER_CORE_REPOSITORY.test(ref.repository)) return true;
  return ref.tag !== undefined && SERVER_CORE_TAG.test(ref.tag.toLowerCase());
}
