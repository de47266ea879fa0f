/**
 * The cache keeps only content verified against its digest, and hands back only content that still matches it:
 * a property over bodies and digests (right, wrong, and of algorithms the resolver cannot verify), and a file
 * changed on disk after it was written.
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryCache } from '../../lib/registry/cache';
import { propertyParameters } from '../helpers/property';

const hash = (algorithm: string, body: Uint8Array) => createHash(algorithm).update(body).digest('hex');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'k8s-windows-cache-digests-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('content is stored and read back only under the digest it has, of sha256 or sha512', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 64 }),
      fc.uint8Array({ maxLength: 64 }),
      fc.constantFrom('sha256', 'sha512', 'sha384', 'md5'),
      fc.boolean(),
      async (body, other, algorithm, right) => {
        const cache = new RegistryCache(mkdtempSync(join(dir, 'c-')));
        const named = `${algorithm}:${hash(algorithm, right ? body : Buffer.concat([body, other, Buffer.from('x')]))}`;
        await cache.putContent(named, { mediaType: 'application/json', body: Buffer.from(body) });
        const got = await cache.getContent(named);
        const verifiable = algorithm === 'sha256' || algorithm === 'sha512';
        if (right && verifiable) expect(got?.body.equals(Buffer.from(body))).toBe(true);
        else {
          expect(got).toBeUndefined();
          expect(files(cache.dir)).toEqual([]);
        }
      },
    ),
    propertyParameters(200),
  );
});

test('a cached file changed on disk is a miss, not an answer', async () => {
  const cache = new RegistryCache(mkdtempSync(join(dir, 'c-')));
  const body = Buffer.from('{"schemaVersion":2}');
  const digest = `sha512:${hash('sha512', body)}`;
  await cache.putContent(digest, { mediaType: 'application/json', body });
  const [file] = files(cache.dir);
  writeFileSync(
    file!,
    JSON.stringify({ mediaType: 'application/json', content: Buffer.from('{"planted":1}').toString('base64') }),
  );
  expect(await cache.getContent(digest)).toBeUndefined();
});

test('a cache that cannot be written says so once', async () => {
  const blocker = join(dir, 'file');
  writeFileSync(blocker, '');
  const warnings: string[] = [];
  const cache = new RegistryCache(join(blocker, 'cache'), (m) => warnings.push(m));
  const body = Buffer.from('{}');
  for (let i = 0; i < 3; i++) {
    await cache.putContent(`sha256:${hash('sha256', body)}`, { mediaType: 'application/json', body });
    await cache.putTag('docker.io', 'library/nginx', String(i), `sha256:${hash('sha256', body)}`);
  }
  expect(warnings).toEqual([
    `the image cache ${join(blocker, 'cache')} cannot be written (ENOTDIR): registry answers are not kept, so every run asks again. Give a writable directory with --image-cache or imageCache (or set XDG_CACHE_HOME / HOME).`,
  ]);
});
