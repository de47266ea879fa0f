/**
 * The resolver against a hostile registry (hostile-server.ts: plain HTTP and HTTPS on loopback, several host names):
 * every case ends within the resolution's deadline with a finding that says what happened, no credential goes where
 * it should not (the server records every Authorization header), and nothing unverified is cached.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ImageResolver,
  MEDIA_TYPES,
  type RegistryImageLookup as ImageLookup,
  type ImageResolverOptions,
} from '../../lib/registry';
import { MAX_ENTRY_DETAILS, MAX_INDEX_ENTRIES } from '../../lib/registry/resolver';
import { MAX_BODY_BYTES } from '../../lib/registry/transport';
import { HostileRegistry, imageManifest, sha256, sha512, WINDOWS_CONFIG } from '../helpers/hostile-server';

const WS2022 = '10.0.20348.2340';
let hostile: HostileRegistry;
let scratch: string;
let docker: string;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const SECRETS = {
  registry: 'registry-Secret-1',
  mirrorHttp: 'mirror-http-Secret-2',
  mirrorHttps: 'mirror-https-Secret-3',
  loopback: 'loopback-Secret-4',
};

/** Every Authorization header a host name was sent. */
const authorizationsTo = (name: string) =>
  hostile.to(name).flatMap((r) => (r.authorization !== undefined ? [r.authorization] : []));

function resolver(options: ImageResolverOptions = {}): ImageResolver {
  return new ImageResolver({
    cacheDir: mkdtempSync(join(scratch, 'cache-')),
    dockerConfigDir: docker,
    ca: hostile.ca,
    lookup: hostile.lookup,
    // Generous for a loaded machine; the cases about time set their own.
    timeoutMs: 3000,
    retries: 1,
    retryDelayMs: 10,
    deadlineMs: 8000,
    ...options,
  });
}

/** Resolves, and measures how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

const config = WINDOWS_CONFIG;
const serveImage = (name: string, manifest?: Buffer) => hostile.serveImage(name, manifest);

/** A 401 asking for Basic credentials unless the request carries `expected`; then `then`. */
function basicOnly(expected: string, then: () => Buffer): Parameters<HostileRegistry['route']>[2] {
  return (request, response) => {
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="registry"' });
      return response.end();
    }
    const body = then();
    response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest, 'Content-Length': body.length });
    response.end(body);
  };
}

/** Files under a directory, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function message(lookup: ImageLookup): string {
  return lookup.status === 'found' ? 'found' : `${lookup.status}: ${lookup.message}`;
}

beforeAll(async () => {
  hostile = await HostileRegistry.start();
  scratch = mkdtempSync(join(tmpdir(), 'k8s-windows-hostile-test-'));
  docker = join(scratch, 'docker');
  mkdirSync(docker);
  const auth = (user: string, password: string) => ({ auth: Buffer.from(`${user}:${password}`).toString('base64') });
  writeFileSync(
    join(docker, 'config.json'),
    JSON.stringify({
      auths: {
        [hostile.host('registry.test')]: auth('reg', SECRETS.registry),
        [hostile.host('mirror.test', 'http')]: auth('mh', SECRETS.mirrorHttp),
        [hostile.host('mirror.test')]: auth('ms', SECRETS.mirrorHttps),
        [`127.0.0.1:${hostile.httpPort}`]: auth('lo', SECRETS.loopback),
      },
    }),
  );
}, 30_000);

afterAll(async () => {
  await hostile?.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => hostile.reset());

/**
 * After every case: each Basic credential went over HTTPS or to loopback/user-marked hosts, and only to the host it
 * is stored for (or, for the registry's, to its HTTPS token realm).
 */
afterEach(() => {
  const allowed: Record<string, string[]> = {
    reg: [hostile.host('registry.test'), hostile.host('realm.test')],
    mh: [hostile.host('mirror.test', 'http')],
    ms: [hostile.host('mirror.test')],
    lo: [`127.0.0.1:${hostile.httpPort}`],
  };
  for (const r of hostile.requests) {
    if (r.authorization === undefined || !r.authorization.startsWith('Basic ')) continue;
    const user = Buffer.from(r.authorization.slice(6), 'base64').toString('utf8').split(':')[0]!;
    expect({ user, host: r.host, ok: allowed[user]?.includes(r.host) }).toEqual({ user, host: r.host, ok: true });
  }
});

describe('bounded: every case ends by the deadline', () => {
  test('a registry that never answers: 20 images end by the deadline, which the message names', async () => {
    hostile.route('dead.test', '*', () => undefined);
    const r = resolver({ timeoutMs: 5000, deadlineMs: 1000, deadlineSetting: '--resolve-timeout' });
    const images = Array.from({ length: 20 }, (_, i) => `${hostile.host('dead.test')}/app:${i}`);
    const { value, ms } = await timed(() => Promise.all(images.map((i) => r.resolve(i))));
    expect(ms).toBeLessThan(2500);
    for (const lookup of value) {
      expect(lookup.status).toBe('unreachable');
      expect(message(lookup)).toMatch(/the resolution's deadline of 1 s \(--resolve-timeout\) passed/);
    }
  });

  test('a registry that never answers, with a short request timeout: not asked again once it failed every try', async () => {
    hostile.route('dead.test', '*', () => undefined);
    const r = resolver({ timeoutMs: 200, retries: 1, concurrency: 2, deadlineMs: 5000 });
    const images = Array.from({ length: 30 }, (_, i) => `${hostile.host('dead.test')}/app:${i}`);
    const { value, ms } = await timed(() => Promise.all(images.map((i) => r.resolve(i))));
    // 30 images × 2 tries × 200 ms would be 6 s at this concurrency, and the deadline is 5 s.
    expect(ms).toBeLessThan(3000);
    expect(hostile.to('dead.test').length).toBeLessThanOrEqual(4);
    expect(message(value[29]!)).toBe(
      `unreachable: Registry ${hostile.host('dead.test')} did not answer (no answer within 200 ms) 2 times in a row (earlier in this run; not asked again).`,
    );
  });

  test('hosts that do not resolve fail at once, mirror and registry, and are looked up once', async () => {
    const r = resolver({
      mirrors: { 'alsonowhere.test': 'https://nowhere.test' },
      timeoutMs: 5000,
      retries: 3,
      retryDelayMs: 5000,
    });
    const images = Array.from({ length: 62 }, (_, i) => `alsonowhere.test/app:${i}`);
    const { value: first } = await timed(() => r.resolve(images[0]!));
    const { value, ms } = await timed(() => Promise.all(images.slice(1).map((i) => r.resolve(i))));
    // One retry alone would wait 5 s.
    expect(ms).toBeLessThan(3000);
    expect(message(first)).toBe(
      'unreachable: Registry alsonowhere.test cannot be reached: its host alsonowhere.test does not resolve (ENOTFOUND). (Mirror https://nowhere.test of alsonowhere.test cannot be reached: its host nowhere.test does not resolve (ENOTFOUND).)',
    );
    expect(message(value[60]!)).toBe(
      'unreachable: Registry alsonowhere.test cannot be reached: its host alsonowhere.test does not resolve (ENOTFOUND) (earlier in this run; not asked again). (Mirror https://nowhere.test of alsonowhere.test cannot be reached: its host nowhere.test does not resolve (ENOTFOUND) (earlier in this run; not asked again).)',
    );
    expect(first).toMatchObject({ status: 'unreachable', cause: 'host-unresolved' });
    expect(value[60]).toMatchObject({ status: 'unreachable', cause: 'host-unresolved' });
    expect(hostile.lookups.get('alsonowhere.test')).toBe(1);
    expect(hostile.lookups.get('nowhere.test')).toBeLessThanOrEqual(8);
  });

  test('a certificate the resolver does not trust fails at once, not retried like a timeout', async () => {
    serveImage('registry.test');
    const r = new ImageResolver({
      cacheDir: mkdtempSync(join(scratch, 'cache-')),
      dockerConfigDir: docker,
      lookup: hostile.lookup,
      retries: 3,
      retryDelayMs: 5000,
    });
    const { value, ms } = await timed(() => r.resolve(`${hostile.host('registry.test')}/app:1`));
    // One retry alone would wait 5 s.
    expect(ms).toBeLessThan(3000);
    expect(message(value)).toBe(
      `unreachable: Registry ${hostile.host('registry.test')} presented a TLS certificate the resolver does not trust (DEPTH_ZERO_SELF_SIGNED_CERT): give its CA in NODE_EXTRA_CA_CERTS.`,
    );
    expect(authorizationsTo('registry.test')).toEqual([]);
  });

  test('mirror only (mirrorFallback: false): the registry is never asked', async () => {
    serveImage('registry.test');
    const r = resolver({ mirrors: { [hostile.host('registry.test')]: 'https://nowhere.test' }, mirrorFallback: false });
    const lookup = await r.resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      'unreachable: Mirror https://nowhere.test of ' +
        `${hostile.host('registry.test')} cannot be reached: its host nowhere.test does not resolve (ENOTFOUND).`,
    );
    expect(hostile.to('registry.test')).toEqual([]);
  });

  test('a registry that drips its body a byte at a time is cut off by the request timeout', async () => {
    hostile.route('registry.test', '*', (_request, response) => {
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest });
      const timer = setInterval(() => response.write(' '), 20);
      response.on('close', () => clearInterval(timer));
    });
    const { value, ms } = await timed(() =>
      resolver({ timeoutMs: 300 }).resolve(`${hostile.host('registry.test')}/app:1`),
    );
    expect(ms).toBeLessThan(3000);
    expect(message(value)).toBe(
      `unreachable: Registry ${hostile.host('registry.test')} did not answer (no answer within 300 ms) after 2 tries.`,
    );
  });

  test('a redirect loop ends after 5 redirects', async () => {
    hostile.route('registry.test', '*', (_request, response, url) => {
      response.writeHead(302, { Location: url.pathname });
      response.end();
    });
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `unreachable: Registry ${hostile.host('registry.test')} redirected /v2/app/manifests/1 more than 5 times (a redirect loop?).`,
    );
    expect(hostile.to('registry.test')).toHaveLength(6);
  });
});

describe('bounded: bodies and indexes', () => {
  test('a 100 MB manifest sent chunked (no Content-Length) is cut off at the cap, and nothing is cached', async () => {
    let sent = 0;
    hostile.route('registry.test', '*', (_request, response) => {
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (sent < 100e6 && !response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => (sent = Math.min(sent, sent)));
      pump();
    });
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    const lookup = await resolver({ cacheDir }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `invalid: Registry ${hostile.host('registry.test')} sent more than ${MAX_BODY_BYTES} bytes for /v2/app/manifests/1, more than any manifest or config (the cap is ${MAX_BODY_BYTES} bytes).`,
    );
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'too-large' });
    expect(sent).toBeLessThan(60e6);
    expect(files(cacheDir)).toEqual([]);
  });

  test('a Content-Length over the cap is refused before the body is read', async () => {
    hostile.route('registry.test', '*', (_request, response) => {
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest, 'Content-Length': 100e6 });
      response.write('{');
    });
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `invalid: Registry ${hostile.host('registry.test')} announced 100000000 bytes for /v2/app/manifests/1, more than any manifest or config (the cap is ${MAX_BODY_BYTES} bytes).`,
    );
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'too-large' });
  });

  test('a Content-Length longer than the body sent: the request times out, it is not taken as whole', async () => {
    hostile.route('registry.test', '*', (_request, response) => {
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest, 'Content-Length': 1000 });
      response.write('{"schemaVersion":2}');
    });
    const lookup = await resolver({ timeoutMs: 200 }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toMatch(
      /^unreachable: Registry registry\.test:\d+ did not answer \(no answer within 200 ms\)/,
    );
    expect(lookup).toMatchObject({ status: 'unreachable', cause: 'no-answer' });
  });

  test('an index of 100,000 entries sent chunked is refused, not read entry by entry', async () => {
    const entry = (i: number) =>
      // Terse entries, so that 100,000 fit under the body cap and the entry cap is what refuses them.
      JSON.stringify({ digest: sha256(String(i)), platform: { os: 'windows', architecture: 'amd64' } });
    const chunks = Array.from(
      { length: 100 },
      (_, i) => Array.from({ length: 1000 }, (_, j) => entry(i * 1000 + j)).join(',') + (i < 99 ? ',' : ''),
    );
    hostile.route('registry.test', '/v2/app/manifests/huge', (_request, response) => {
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociIndex });
      response.write(`{"schemaVersion":2,"mediaType":"${MEDIA_TYPES.ociIndex}","manifests":[`);
      for (const chunk of chunks) response.write(chunk);
      response.end(']}');
    });
    const lookup = await resolver({ platformUsers: ['windows'], timeoutMs: 5000, deadlineMs: 10_000 }).resolve(
      `${hostile.host('registry.test')}/app:huge`,
    );
    expect(message(lookup)).toBe(
      `invalid: The index of ${hostile.host('registry.test')}/app:huge lists 100000 entries, more than the ${MAX_INDEX_ENTRIES} the resolver reads: it was not read (no real image lists so many).`,
    );
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'index-too-large' });
    expect(hostile.requests).toHaveLength(1);
  });

  test(`an index of 1,000 Windows entries: every platform listed, the details of ${MAX_ENTRY_DETAILS} read`, async () => {
    const manifests = Array.from({ length: 1000 }, (_, i) => imageManifest(sha256(config), `entry ${i}`));
    for (const m of manifests)
      hostile.serve('registry.test', `/v2/app/manifests/${sha256(m)}`, m, MEDIA_TYPES.ociManifest);
    hostile.serve('registry.test', `/v2/app/blobs/${sha256(config)}`, config);
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.ociIndex,
      manifests: manifests.map((m) => ({
        mediaType: MEDIA_TYPES.ociManifest,
        digest: sha256(m),
        size: m.length,
        platform: { os: 'windows', architecture: 'amd64', 'os.version': WS2022 },
      })),
    });
    hostile.serve('registry.test', '/v2/app/manifests/wide', index, MEDIA_TYPES.ociIndex);
    const lookup = await resolver({ platformUsers: ['windows'] }).resolve(`${hostile.host('registry.test')}/app:wide`);
    if (lookup.status !== 'found') throw new Error(message(lookup));
    expect(lookup.facts.platforms).toHaveLength(1000);
    expect(lookup.facts.platforms.filter((p) => p.user === 'ContainerUser')).toHaveLength(MAX_ENTRY_DETAILS);
    expect(hostile.requests.length).toBeLessThanOrEqual(1 + 2 * MAX_ENTRY_DETAILS);
  });
});

describe('digests: verified, or refused', () => {
  test.each([
    ['sha256', sha256],
    ['sha512', sha512],
  ])('a manifest that does not match its %s digest is a clear finding, not cached', async (algorithm, digestOf) => {
    const named = digestOf('what the reference names');
    const sent = imageManifest();
    hostile.serve('registry.test', `/v2/app/manifests/${named}`, sent, MEDIA_TYPES.ociManifest);
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    const lookup = await resolver({ cacheDir }).resolve(`${hostile.host('registry.test')}/app@${named}`);
    expect(message(lookup)).toBe(
      `invalid: Registry ${hostile.host('registry.test')} sent a manifest for ${hostile.host('registry.test')}/app@${named} whose ${algorithm} digest is ${digestOf(sent)}, not ${named}: the content does not match its digest (a corrupt or tampered registry or mirror). It was not used or cached.`,
    );
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'digest-mismatch' });
    expect(files(cacheDir)).toEqual([]);
  });

  test('a mirror whose manifest fails its digest stays a digest mismatch when the registry is then unreachable', async () => {
    const named = sha256('what the reference names');
    hostile.serve('mirror.test', `/v2/app/manifests/${named}`, imageManifest(), MEDIA_TYPES.ociManifest);
    const mirrors = { 'nowhere.test': `https://${hostile.host('mirror.test')}` };
    const lookup = await resolver({ mirrors }).resolve(`nowhere.test/app@${named}`);
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'digest-mismatch' });
    expect(message(lookup)).toContain('does not resolve (ENOTFOUND)');
    expect(message(lookup)).toContain('the content does not match its digest');
  });

  test('content addressed by sha512 is verified and used', async () => {
    const manifest = imageManifest(sha512(config));
    hostile.serve('registry.test', `/v2/app/manifests/${sha512(manifest)}`, manifest, MEDIA_TYPES.ociManifest);
    hostile.serve('registry.test', `/v2/app/blobs/${sha512(config)}`, config);
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    const lookup = await resolver({ cacheDir }).resolve(`${hostile.host('registry.test')}/app@${sha512(manifest)}`);
    expect(lookup.status === 'found' && lookup.facts.user).toBe('ContainerUser');
    expect(files(cacheDir).map((f) => f.replace(cacheDir, '').split('/').slice(0, 4).join('/'))).toEqual([
      '/v1/content/sha512',
      '/v1/content/sha512',
    ]);
  });

  test.each(['sha384', 'md5', 'blake3', 'sha256+b64u'])(
    'a reference by a %s digest is refused without asking the registry',
    async (algorithm) => {
      const digest = `${algorithm}:${'ab'.repeat(32)}`;
      const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app@${digest}`);
      expect(message(lookup)).toBe(
        `invalid: ${hostile.host('registry.test')}/app@${digest} is addressed by a digest the resolver cannot verify: its algorithm "${algorithm}" is not one the resolver verifies (sha256, sha512). It is not looked up.`,
      );
      expect(lookup).toMatchObject({ status: 'invalid', cause: 'digest-unsupported' });
      expect(hostile.requests).toEqual([]);
    },
  );

  test.each([
    ['sha256', (body: Buffer) => sha256(Buffer.concat([body, Buffer.from(' ')]))],
    ['sha512', (body: Buffer) => sha512(Buffer.concat([body, Buffer.from(' ')]))],
  ])('a config blob that does not match its %s digest is a clear finding', async (algorithm, wrong) => {
    const named = wrong(config);
    const manifest = imageManifest(named);
    hostile.serve('registry.test', '/v2/app/manifests/1', manifest, MEDIA_TYPES.ociManifest);
    hostile.serve('registry.test', `/v2/app/blobs/${named}`, config);
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    const lookup = await resolver({ cacheDir }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `invalid: Registry ${hostile.host('registry.test')} sent the config of ${hostile.host('registry.test')}/app:1 whose ${algorithm} digest is ${algorithm === 'sha256' ? sha256(config) : sha512(config)}, not ${named}: the content does not match its digest (a corrupt or tampered registry or mirror). It was not used or cached.`,
    );
    expect(lookup).toMatchObject({ status: 'invalid', cause: 'digest-mismatch' });
    // The manifest (by its own sha256) may be kept; the config is not.
    expect(files(cacheDir).some((f) => f.includes(named.slice(7, 40)))).toBe(false);
  });

  test('a config named by an unverifiable digest is refused without fetching it', async () => {
    const named = `sha384:${'cd'.repeat(48)}`;
    hostile.serve('registry.test', '/v2/app/manifests/1', imageManifest(named), MEDIA_TYPES.ociManifest);
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(lookup.status).toBe('invalid');
    expect(hostile.requests.map((r) => r.path)).toEqual(['/v2/app/manifests/1']);
  });
});

describe('credentials go only where they may', () => {
  test('Basic credentials over HTTPS to the registry they are stored for', async () => {
    const manifest = imageManifest();
    serveImage('registry.test', manifest);
    hostile.route(
      'registry.test',
      '/v2/app/manifests/1',
      basicOnly(basic('reg', SECRETS.registry), () => manifest),
    );
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(lookup.status).toBe('found');
    expect(authorizationsTo('registry.test')).toContain(basic('reg', SECRETS.registry));
  });

  test('a Bearer realm on another host over plain HTTP gets no credentials; the message says why', async () => {
    const realm = `http://${hostile.host('realm.test', 'http')}/token`;
    hostile.route('registry.test', '*', (_request, response) => {
      response.writeHead(401, { 'WWW-Authenticate': `Bearer realm="${realm}",service="registry"` });
      response.end();
    });
    hostile.serve('realm.test', '/token', JSON.stringify({ token: 'anonymous-token' }));
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `unauthorized: Registry ${hostile.host('registry.test')} refused an anonymous token for app: it does not exist, or needs credentials, and credentials are not sent to ${realm}: plain HTTP carries them only to loopback and to registries marked insecure on the command line (--insecure-registry) or in K8S_WINDOWS_INSECURE_REGISTRIES.`,
    );
    expect(hostile.to('realm.test')).toHaveLength(1);
    expect(authorizationsTo('realm.test')).toEqual([]);
  });

  test('a Bearer realm on another host over HTTPS is sent the registry credentials (the token flow)', async () => {
    const realm = `https://${hostile.host('realm.test')}/token`;
    const manifest = imageManifest();
    serveImage('registry.test', manifest);
    hostile.route('registry.test', '/v2/app/manifests/1', (request, response) => {
      if (request.headers.authorization !== 'Bearer good-token') {
        response.writeHead(401, { 'WWW-Authenticate': `Bearer realm="${realm}",service="registry"` });
        return response.end();
      }
      response.writeHead(200, { 'Content-Type': MEDIA_TYPES.ociManifest });
      response.end(manifest);
    });
    hostile.serve('realm.test', '/token', JSON.stringify({ token: 'good-token' }));
    expect((await resolver().resolve(`${hostile.host('registry.test')}/app:1`)).status).toBe('found');
    expect(authorizationsTo('realm.test')).toEqual([basic('reg', SECRETS.registry)]);
  });

  test('a redirect to another host carries no Authorization', async () => {
    const manifest = imageManifest();
    serveImage('registry.test', manifest);
    const storage = `https://${hostile.host('storage.test')}/blobs/config`;
    hostile.serve('storage.test', '/blobs/config', config);
    hostile.route('registry.test', `/v2/app/blobs/${sha256(config)}`, (request, response) => {
      if (request.headers.authorization !== basic('reg', SECRETS.registry)) {
        response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="registry"' });
        return response.end();
      }
      response.writeHead(307, { Location: storage });
      response.end();
    });
    const lookup = await resolver().resolve(`${hostile.host('registry.test')}/app:1`);
    expect(lookup.status === 'found' && lookup.facts.user).toBe('ContainerUser');
    expect(hostile.to('storage.test')).toHaveLength(1);
    expect(authorizationsTo('storage.test')).toEqual([]);
  });

  test('a plain-HTTP mirror not marked insecure gets no credentials at all', async () => {
    const mirror = `http://${hostile.host('mirror.test', 'http')}`;
    hostile.route(
      'mirror.test',
      '*',
      basicOnly('never', () => Buffer.from('')),
    );
    const lookup = await resolver({
      mirrors: { [hostile.host('registry.test')]: mirror },
      mirrorFallback: false,
    }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `unauthorized: Mirror ${mirror} of ${hostile.host('registry.test')} requires credentials for app, and credentials are not sent to ${mirror}/: plain HTTP carries them only to loopback and to registries marked insecure on the command line (--insecure-registry) or in K8S_WINDOWS_INSECURE_REGISTRIES.`,
    );
    expect(authorizationsTo('mirror.test')).toEqual([]);
  });

  test('a mirror marked insecure by the user gets its own host credentials, never the registry ones', async () => {
    const manifest = imageManifest();
    const mirror = `http://${hostile.host('mirror.test', 'http')}`;
    hostile.route(
      'mirror.test',
      '/v2/app/manifests/1',
      basicOnly(basic('mh', SECRETS.mirrorHttp), () => manifest),
    );
    hostile.route(
      'mirror.test',
      `/v2/app/blobs/${sha256(config)}`,
      basicOnly(basic('mh', SECRETS.mirrorHttp), () => config),
    );
    const lookup = await resolver({
      mirrors: { [hostile.host('registry.test')]: mirror },
      insecureRegistries: [hostile.host('mirror.test', 'http')],
    }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe('found');
    expect(new Set(authorizationsTo('mirror.test'))).toEqual(new Set([basic('mh', SECRETS.mirrorHttp)]));
    expect(hostile.to('registry.test')).toEqual([]);
  });

  test('an HTTPS mirror from a repository config (untrusted) is asked anonymously, its own host credentials unread', async () => {
    const mirror = `https://${hostile.host('mirror.test')}`;
    hostile.route(
      'mirror.test',
      '*',
      basicOnly(basic('ms', SECRETS.mirrorHttps), () => imageManifest()),
    );
    const lookup = await resolver({
      untrustedMirrors: { [hostile.host('registry.test')]: mirror },
      mirrorFallback: false,
    }).resolve(`${hostile.host('registry.test')}/app:1`);
    expect(message(lookup)).toBe(
      `unauthorized: Mirror ${mirror} of ${hostile.host('registry.test')} requires credentials for app, and a mirror named in a repository's config file is asked anonymously (name it with --registry-mirror or in K8S_WINDOWS_REGISTRY_MIRRORS to give it the credentials stored for its host).`,
    );
    expect(authorizationsTo('mirror.test')).toEqual([]);
  });

  test('an insecure registry from a repository config is spoken to over HTTP, never with credentials', async () => {
    const host = hostile.host('registry.test', 'http');
    hostile.route(
      'registry.test',
      '*',
      basicOnly('never', () => Buffer.from('')),
    );
    const lookup = await resolver({ untrustedInsecureRegistries: [host] }).resolve(`${host}/app:1`);
    expect(lookup.status).toBe('unauthorized');
    expect(hostile.to('registry.test').every((r) => r.scheme === 'http' && r.authorization === undefined)).toBe(true);
  });

  test('loopback over plain HTTP is sent the credentials stored for it', async () => {
    const manifest = imageManifest();
    serveImage('127.0.0.1', manifest);
    hostile.route(
      '127.0.0.1',
      '/v2/app/manifests/1',
      basicOnly(basic('lo', SECRETS.loopback), () => manifest),
    );
    const lookup = await resolver().resolve(`127.0.0.1:${hostile.httpPort}/app:1`);
    expect(lookup.status).toBe('found');
  });
});
