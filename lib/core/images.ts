/**
 * Container image references and the Windows build they were made for. Process isolation needs the image build
 * to equal the host build; Hyper-V isolation runs an image on a host of the same or a newer build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import {
  RETIRED_RELEASES,
  releaseForBuild,
  releaseInfo,
  WINDOWS_RELEASES,
  type WindowsIsolation,
  type WindowsRelease,
} from './releases';

export interface ImageReference {
  /** Registry host (`mcr.microsoft.com`), or undefined for Docker Hub shorthand. */
  readonly registry?: string;
  /** Repository path (`windows/servercore`). */
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** Parses `registry/repo:tag@digest`. Returns undefined when the text is not an image reference. */
export function parseImageReference(image: string): ImageReference | undefined {
  if (typeof image !== 'string') return undefined;
  const text = image.trim();
  if (text === '' || /\s/.test(text)) return undefined;
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  let registry: string | undefined;
  if (parts.length > 1 && (/[.:]/.test(parts[0]) || parts[0] === 'localhost')) registry = parts.shift();
  const repository = parts.join('/');
  if (
    repository === '' ||
    !/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(repository)
  ) {
    return undefined;
  }
  return {
    ...(registry !== undefined ? { registry } : {}),
    repository,
    ...(tag !== undefined ? { tag } : {}),
    ...(digest !== undefined ? { digest } : {}),
  };
}

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

/**
 * A year after a Windows word names the LTSC release in vendors' tags: fluent-bit's `3.1.4-windows-2022`,
 * `win2019`, `servercore-2022`.
 */
const WINDOWS_YEAR_TAG = /(?:^|[-_.])(?:windows|win|servercore|nanoserver|wcow)[-_]?(20(?:16|19|22|25))(?:$|[-_.])/;

/** Infers the Windows build from a tag (`4.8-windowsservercore-ltsc2022`, `nanoserver-1809`, `10.0.20348.2655`). */
export function inferWindowsBuild(tag: string | undefined): ImageBuild {
  if (!tag) return { kind: 'unknown' };
  const lower = tag.toLowerCase();
  const full = /(?:^|[-_])(10\.0\.\d{5})(?:\.\d+)?(?:$|[-_])/.exec(lower);
  if (full) {
    const release = releaseForBuild(full[1]);
    if (release) return { kind: 'release', release, build: releaseInfo(release).build };
    const retired = RETIRED_RELEASES.find((r) => r.build === full[1]);
    if (retired) return { kind: 'retired', name: retired.name, build: retired.build, displayName: retired.displayName };
  }
  const tokens = lower.split(/[-_.]/);
  for (const { token, build } of TAG_TOKENS) if (tokens.includes(token)) return build;
  const year = WINDOWS_YEAR_TAG.exec(lower);
  if (year) {
    const byYear = TAG_TOKENS.find((t) => t.token === `ltsc${year[1]}`);
    if (byYear) return byYear.build;
  }
  return { kind: 'unknown' };
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

/** Where the legacy repository's images live now, for fixes. */
const LEGACY_SUCCESSORS: Readonly<Record<string, string>> = {
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

/** The advice for a tag that names no build, shared by the validator and the constructs. */
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

/** Whether the reference names a Windows image, from its repository or tag. `undefined` when it cannot be told. */
export function isWindowsImage(image: string | ImageReference): boolean | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return undefined;
  if (WINDOWS_REPOSITORY.test(ref.repository) || legacyWindowsRepository(ref) !== undefined) return true;
  if (ref.tag && (WINDOWS_TAG_WORD.test(ref.tag.toLowerCase()) || inferWindowsBuild(ref.tag).kind !== 'unknown')) {
    return inferWindowsBuild(ref.tag).kind !== 'unknown' || WINDOWS_TAG_WORD.test(ref.tag.toLowerCase());
  }
  return undefined;
}

/** HostProcess containers run on the host, so their image need not match its build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility). */
export function isHostProcessBaseImage(ref: ImageReference): boolean {
  return ref.repository.endsWith('windows-host-process-containers-base-image');
}

export type CompatibilityIsolation = WindowsIsolation | 'hostProcess';

export type ImageCompatibility =
  | { readonly status: 'compatible'; readonly reason: string }
  | { readonly status: 'incompatible'; readonly reason: string; readonly fix: string }
  | { readonly status: 'unknown'; readonly reason: string };

/**
 * Whether `image` can run on a `host` node under `isolation`.
 * - process: the image build must equal the host build;
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
      const imageBuild = Number(built.build.split('.')[2]);
      const hostBuild = Number(hostInfo.build.split('.')[2]);
      const tagFor = `ltsc${host}`;
      switch (isolation) {
        case 'process':
          return imageBuild === hostBuild
            ? { status: 'compatible', reason: `Image build ${built.build} matches the ${hostInfo.displayName} host.` }
            : {
                status: 'incompatible',
                reason: `Image '${image}' is built for Windows Server ${built.release} (${built.build}) but the node runs ${hostInfo.displayName} (${hostInfo.build}); process isolation needs equal builds ("the container operating system does not match the host operating system").`,
                fix: `Use the image's ${tagFor} tag, or pin the workload to Windows Server ${built.release} nodes.`,
              };
        case 'hyperv':
          return imageBuild <= hostBuild
            ? {
                status: 'compatible',
                reason: `Hyper-V isolation runs a ${built.build} image on a ${hostInfo.build} host.`,
              }
            : {
                status: 'incompatible',
                reason: `Image '${image}' (${built.build}) is newer than the ${hostInfo.displayName} host (${hostInfo.build}); Hyper-V isolation only runs images of the same or an older build.`,
                fix: `Use the image's ${tagFor} tag, or run the workload on Windows Server ${built.release} nodes.`,
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
