/**
 * Container image references and the Windows build they were made for. Process isolation needs the image build
 * to equal the host build; Hyper-V isolation runs an image on a host of the same or a newer build (reference §1).
 */
import {
  SAC_RELEASES,
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
  | { readonly kind: 'sac'; readonly name: string; readonly build: string }
  | { readonly kind: 'unknown' };

const TAG_TOKENS: ReadonlyArray<{ token: string; build: ImageBuild }> = [
  ...WINDOWS_RELEASES.flatMap((release) =>
    releaseInfo(release).imageTags.map((token) => ({
      token,
      build: { kind: 'release', release, build: releaseInfo(release).build } as ImageBuild,
    })),
  ),
  ...SAC_RELEASES.map((s) => ({
    token: s.name.toLowerCase(),
    build: { kind: 'sac', name: s.name, build: s.build } as ImageBuild,
  })),
];

/** Infers the Windows build from a tag (`4.8-windowsservercore-ltsc2022`, `nanoserver-1809`, `10.0.20348.2655`). */
export function inferWindowsBuild(tag: string | undefined): ImageBuild {
  if (!tag) return { kind: 'unknown' };
  const lower = tag.toLowerCase();
  const full = /(?:^|[-_])(10\.0\.\d{5})(?:\.\d+)?(?:$|[-_])/.exec(lower);
  if (full) {
    const release = releaseForBuild(full[1]);
    if (release) return { kind: 'release', release, build: releaseInfo(release).build };
    const sac = SAC_RELEASES.find((s) => s.build === full[1]);
    if (sac) return { kind: 'sac', name: sac.name, build: sac.build };
  }
  const tokens = lower.split(/[-_.]/);
  for (const { token, build } of TAG_TOKENS) if (tokens.includes(token)) return build;
  return { kind: 'unknown' };
}

/** Repositories and tag words that only exist as Windows images. */
const WINDOWS_REPOSITORY =
  /^(?:windows\/|dotnet\/framework\/|powershell\/.*(?:nanoserver|windowsservercore))|(?:^|\/)(?:windows-host-process-containers-base-image|nanoserver|servercore|windowsservercore)(?:$|\/)/;
const WINDOWS_TAG_WORD = /(?:^|[-_.])(?:windowsservercore|nanoserver|ltsc20\d\d|windows)(?:$|[-_.])/;

/** Whether the reference names a Windows image, from its repository or tag. `undefined` when it cannot be told. */
export function isWindowsImage(image: string | ImageReference): boolean | undefined {
  const ref = typeof image === 'string' ? parseImageReference(image) : image;
  if (!ref) return undefined;
  if (WINDOWS_REPOSITORY.test(ref.repository)) return true;
  if (ref.tag && (WINDOWS_TAG_WORD.test(ref.tag.toLowerCase()) || inferWindowsBuild(ref.tag).kind !== 'unknown')) {
    return inferWindowsBuild(ref.tag).kind !== 'unknown' || WINDOWS_TAG_WORD.test(ref.tag.toLowerCase());
  }
  return undefined;
}

/** HostProcess containers run on the host, so their image need not match its build (reference §1). */
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
          ? `Tag '${ref.tag}' does not name a Windows build, so it can float to another build.`
          : ref.digest
            ? `Image '${image}' is pinned by digest only; its Windows build cannot be read from the reference.`
            : `Image '${image}' has no tag (it means :latest) and does not name a Windows build.`,
      };
    case 'sac':
      return {
        status: 'incompatible',
        reason: `Image '${image}' is built for the end-of-life SAC release ${built.name} (build ${built.build}), which no supported node runs.`,
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
