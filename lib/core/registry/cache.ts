/**
 * The resolver's disk cache: manifests and image configs by digest, kept forever (a digest names its content), and
 * tag → digest answers, kept for a TTL. It holds registry content and digests only, never a credential or a token.
 *
 * Layout under the cache directory: `v1/content/<algorithm>/<hex>.json` (`{ mediaType, content }`) and
 * `v1/tags/<sha256 of registry/repository:tag>.json` (`{ reference, digest, storedAt }`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
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
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A cache directory. Write failures are swallowed: a cache that cannot be written only costs a lookup. */
export class RegistryCache {
  constructor(readonly dir: string) {}

  private contentPath(digest: string): string | undefined {
    const match = /^([a-z0-9]+):([a-f0-9]{32,})$/.exec(digest);
    return match ? join(this.dir, 'v1', 'content', match[1]!, `${match[2]}.json`) : undefined;
  }

  private tagPath(registry: string, repository: string, tag: string): string {
    const key = createHash('sha256').update(`${registry}/${repository}:${tag}`).digest('hex');
    return join(this.dir, 'v1', 'tags', `${key}.json`);
  }

  /** Content by digest, checked against the digest (a corrupt file is a miss). */
  async getContent(digest: string): Promise<CachedContent | undefined> {
    const path = this.contentPath(digest);
    const entry = path ? ((await readJson(path)) as { mediaType?: unknown; content?: unknown } | undefined) : undefined;
    if (!entry || typeof entry.mediaType !== 'string' || typeof entry.content !== 'string') return undefined;
    const body = Buffer.from(entry.content, 'base64');
    return digest.startsWith('sha256:') && sha256Digest(body) !== digest
      ? undefined
      : { mediaType: entry.mediaType, body };
  }

  async putContent(digest: string, content: CachedContent): Promise<void> {
    const path = this.contentPath(digest);
    if (!path) return;
    const text = JSON.stringify({ mediaType: content.mediaType, content: content.body.toString('base64') });
    await writeAtomically(path, text).catch(() => undefined);
  }

  async getTag(registry: string, repository: string, tag: string): Promise<CachedTag | undefined> {
    const entry = (await readJson(this.tagPath(registry, repository, tag))) as Partial<CachedTag> | undefined;
    return entry && typeof entry.digest === 'string' && typeof entry.storedAt === 'number'
      ? { digest: entry.digest, storedAt: entry.storedAt }
      : undefined;
  }

  async putTag(registry: string, repository: string, tag: string, digest: string): Promise<void> {
    const text = JSON.stringify({ reference: `${registry}/${repository}:${tag}`, digest, storedAt: Date.now() });
    await writeAtomically(this.tagPath(registry, repository, tag), text).catch(() => undefined);
  }
}
