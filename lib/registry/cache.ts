/**
 * The resolver's disk cache: manifests and image configs by digest, kept forever (a digest names its content), and
 * tag → digest answers, kept for a TTL. It holds registry content and digests only, never a credential or a token.
 * Content is verified against its digest when written and when read: a digest the resolver cannot verify (an
 * algorithm other than sha256 and sha512) is never cached. A cache that cannot be written is said once (`onWarning`).
 *
 * Layout under the cache directory: `v1/content/<algorithm>/<hex>.json` (`{ mediaType, content }`) and
 * `v1/tags/<sha256 of registry/repository:tag>.json` (`{ reference, digest, storedAt }`).
 */
import { createHash } from 'node:crypto';
import { checkDigest, digestOf } from './digest';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface CachedContent {
  readonly mediaType: string;
  readonly body: Buffer;
}

export interface CachedTag {
  readonly digest: string;
  /** Milliseconds since the epoch. */
  readonly storedAt: number;
}

/** The platform's cache directory for this tool (XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows). */
export function defaultCacheDir(): string {
  const home = homedir();
  if (process.platform === 'win32') {
    return join(process.env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'k8s-windows', 'cache');
  }
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'k8s-windows');
  return join(process.env.XDG_CACHE_HOME || join(home, '.cache'), 'k8s-windows');
}

/** The sha256 digest of bytes, as a registry writes it. */
export function sha256Digest(body: Buffer): string {
  return digestOf(body, 'sha256');
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A cache directory. A write that fails costs only a lookup next time, and is reported once through `onWarning`. */
export class RegistryCache {
  private writeProblem?: string;

  /**
   * @param dir The cache directory.
   * @param onWarning Told once when the directory cannot be written. @default - nothing is told
   */
  constructor(
    readonly dir: string,
    private readonly onWarning?: (message: string) => void,
  ) {}

  private contentPath(digest: string): string | undefined {
    const match = /^([a-z0-9]+):([a-f0-9]{32,})$/.exec(digest);
    return match ? join(this.dir, 'v1', 'content', match[1]!, `${match[2]}.json`) : undefined;
  }

  /** `scope` keeps answers apart that came through different mirrors (a mirror may answer a tag otherwise). */
  private tagPath(registry: string, repository: string, tag: string, scope: string): string {
    const key = createHash('sha256')
      .update(`${registry}/${repository}:${tag}${scope ? ` via ${scope}` : ''}`)
      .digest('hex');
    return join(this.dir, 'v1', 'tags', `${key}.json`);
  }

  /** Content by digest, checked against the digest: a corrupt file, or one whose digest cannot be verified, is a miss. */
  async getContent(digest: string): Promise<CachedContent | undefined> {
    const path = this.contentPath(digest);
    const entry = path ? ((await readJson(path)) as { mediaType?: unknown; content?: unknown } | undefined) : undefined;
    if (!entry || typeof entry.mediaType !== 'string' || typeof entry.content !== 'string') return undefined;
    const body = Buffer.from(entry.content, 'base64');
    return checkDigest(digest, body) === 'ok' ? { mediaType: entry.mediaType, body } : undefined;
  }

  /** Stores content under its digest, only when it is that digest's content. */
  async putContent(digest: string, content: CachedContent): Promise<void> {
    const path = this.contentPath(digest);
    if (!path || checkDigest(digest, content.body) !== 'ok') return;
    const text = JSON.stringify({ mediaType: content.mediaType, content: content.body.toString('base64') });
    await this.write(path, text);
  }

  async getTag(registry: string, repository: string, tag: string, scope = ''): Promise<CachedTag | undefined> {
    const entry = (await readJson(this.tagPath(registry, repository, tag, scope))) as Partial<CachedTag> | undefined;
    return entry && typeof entry.digest === 'string' && typeof entry.storedAt === 'number'
      ? { digest: entry.digest, storedAt: entry.storedAt }
      : undefined;
  }

  async putTag(registry: string, repository: string, tag: string, digest: string, scope = ''): Promise<void> {
    const text = JSON.stringify({ reference: `${registry}/${repository}:${tag}`, digest, storedAt: Date.now() });
    await this.write(this.tagPath(registry, repository, tag, scope), text);
  }

  /** One write; after a failure none is tried again, and the failure is told once. */
  private async write(path: string, text: string): Promise<void> {
    if (this.writeProblem !== undefined) return;
    try {
      await writeAtomically(path, text);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      this.writeProblem = code ?? message;
      this.onWarning?.(
        `the image cache ${this.dir} cannot be written (${this.writeProblem}): registry answers are not kept, so every run asks again. Give a writable directory with --image-cache or imageCache (or set XDG_CACHE_HOME / HOME).`,
      );
    }
  }
}
