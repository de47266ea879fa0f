/**
 * The image resolver against a real CNCF Distribution registry (scripts/test-tools.sh builds it) on loopback: each
 * manifest shape, digests, 404s, a mirror, the disk cache and offline mode, and a registry that stops or hangs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ImageResolver,
  MEDIA_TYPES,
  type RegistryImageLookup as ImageLookup,
  type ImageResolverOptions,
} from '../../lib/registry';
import { RegistryServer, type Blob } from '../helpers/registry-server';

const WS2019 = '10.0.17763.5576';
const WS2022 = '10.0.20348.2340';

let server: RegistryServer;
let scratch: string;
let win2019: Blob;
let win2022: Blob;
let linux: Blob;
let multi: Blob;

/** A resolver on its own cache directory, with no Docker config, quick to give up. */
function resolver(options: ImageResolverOptions = {}): ImageResolver {
  return new ImageResolver({
    cacheDir: mkdtempSync(join(scratch, 'cache-')),
    dockerConfigDir: join(scratch, 'no-docker-config'),
    timeoutMs: 2000,
    retries: 1,
    retryDelayMs: 10,
    ...options,
  });
}

function found(lookup: ImageLookup) {
  if (lookup.status !== 'found') throw new Error(`expected found, got ${lookup.status}: ${lookup.message}`);
  return lookup.facts;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'k8s-windows-resolver-'));
  server = await RegistryServer.start();
  win2019 = await server.pushImage('team/app', { os: 'windows', architecture: 'amd64', osVersion: WS2019 });
  win2022 = await server.pushImage('team/app', {
    os: 'windows',
    architecture: 'amd64',
    osVersion: WS2022,
    user: 'ContainerUser',
  });
  linux = await server.pushImage('team/app', { os: 'linux', architecture: 'amd64' });
  multi = await server.pushIndex(
    'team/app',
    [
      { image: win2019, os: 'windows', architecture: 'amd64', osVersion: WS2019 },
      { image: win2022, os: 'windows', architecture: 'amd64', osVersion: WS2022 },
      { image: linux, os: 'linux', architecture: 'amd64' },
    ],
    { tag: 'multi' },
  );
  const legacyWindows = await server.pushImage(
    'team/legacy',
    { os: 'windows', architecture: 'amd64', osVersion: WS2019 },
    { oci: false },
  );
  const legacyLinux = await server.pushImage('team/legacy', { os: 'linux', architecture: 'arm64' }, { oci: false });
  await server.pushIndex(
    'team/legacy',
    [
      { image: legacyWindows, os: 'windows', architecture: 'amd64', osVersion: WS2019 },
      { image: legacyLinux, os: 'linux', architecture: 'arm64' },
    ],
    { oci: false, tag: 'list' },
  );
  await server.pushImage(
    'team/iis',
    { os: 'windows', architecture: 'amd64', osVersion: WS2019, user: 'ContainerAdministrator' },
    { oci: false, tag: 'ltsc2019' },
  );
  await server.pushImage('library/busybox', { os: 'linux', architecture: 'amd64' }, { tag: '1.36' });
});

afterAll(async () => {
  await server?.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('without the registry the tests fail, saying how to get it', async () => {
  await expect(RegistryServer.start({ binary: '/nonexistent/registry' })).rejects.toThrow(
    '/nonexistent/registry is missing: the resolver tests need the CNCF Distribution registry: scripts/test-tools.sh builds the test tools into .tools/bin',
  );
});

/** The size of the one layer RegistryServer.pushImage writes. */
const layerSize = (repository: string, os: string, osVersion = '') =>
  Buffer.byteLength(`layer of ${repository} ${os}/amd64 ${osVersion}`);

describe('manifest shapes', () => {
  test('an OCI image index lists each entry with its Windows build', async () => {
    const facts = found(await resolver().resolve(`${server.host}/team/app:multi`));
    expect(facts).toMatchObject({
      reference: `${server.host}/team/app:multi`,
      registry: server.host,
      repository: 'team/app',
      digest: multi.digest,
      mediaType: MEDIA_TYPES.ociIndex,
    });
    expect(facts.platforms).toEqual([
      { os: 'windows', architecture: 'amd64', osVersion: WS2019, digest: win2019.digest },
      { os: 'windows', architecture: 'amd64', osVersion: WS2022, digest: win2022.digest },
      { os: 'linux', architecture: 'amd64', digest: linux.digest },
    ]);
    expect(facts.user).toBeUndefined();
  });

  test('a Docker manifest list', async () => {
    const facts = found(await resolver().resolve(`${server.host}/team/legacy:list`));
    expect(facts.mediaType).toBe(MEDIA_TYPES.dockerList);
    expect(facts.platforms.map((p) => [p.os, p.architecture, p.osVersion])).toEqual([
      ['windows', 'amd64', WS2019],
      ['linux', 'arm64', undefined],
    ]);
  });

  test("a single-platform Windows image: its config's build and user", async () => {
    const facts = found(await resolver().resolve(`${server.host}/team/iis:ltsc2019`));
    expect(facts.mediaType).toBe(MEDIA_TYPES.dockerManifest);
    expect(facts.platforms).toEqual([
      {
        os: 'windows',
        architecture: 'amd64',
        osVersion: WS2019,
        digest: facts.digest,
        user: 'ContainerAdministrator',
        layersSize: layerSize('team/iis', 'windows', WS2019),
      },
    ]);
    expect(facts.user).toBe('ContainerAdministrator');
  });

  test('a Linux-only image', async () => {
    const facts = found(await resolver().resolve(`${server.host}/library/busybox:1.36`));
    expect(facts.mediaType).toBe(MEDIA_TYPES.ociManifest);
    expect(facts.platforms).toEqual([
      {
        os: 'linux',
        architecture: 'amd64',
        digest: facts.digest,
        user: '',
        layersSize: layerSize('library/busybox', 'linux'),
      },
    ]);
    expect(facts.user).toBe(''); // read, and unset
  });

  test('a digest reference, of an index and of one of its entries', async () => {
    const index = found(await resolver().resolve(`${server.host}/team/app@${multi.digest}`));
    expect(index.digest).toBe(multi.digest);
    expect(index.platforms).toHaveLength(3);
    const entry = found(await resolver().resolve(`${server.host}/team/app@${win2022.digest}`));
    expect(entry.platforms).toEqual([
      {
        os: 'windows',
        architecture: 'amd64',
        osVersion: WS2022,
        digest: win2022.digest,
        user: 'ContainerUser',
        layersSize: layerSize('team/app', 'windows', WS2022),
      },
    ]);
  });

  test("platformUsers: an index's Windows entries carry their configs' users", async () => {
    const facts = found(await resolver({ platformUsers: ['windows'] }).resolve(`${server.host}/team/app:multi`));
    expect(facts.platforms.map((p) => [p.os, p.osVersion, p.user, p.layersSize])).toEqual([
      ['windows', WS2019, '', layerSize('team/app', 'windows', WS2019)],
      ['windows', WS2022, 'ContainerUser', layerSize('team/app', 'windows', WS2022)],
      ['linux', undefined, undefined, undefined],
    ]);
    expect(facts.user).toBeUndefined();
  });
});

describe('not found', () => {
  test('a tag the repository does not have', async () => {
    const lookup = await resolver().resolve(`${server.host}/team/app:nope`);
    expect(lookup).toEqual({
      status: 'not-found',
      cause: 'manifest-unknown',
      message: `Registry ${server.host} has no tag nope in team/app; its tags include multi.`,
    });
  });

  test('a repository the registry does not have', async () => {
    const lookup = await resolver().resolve(`${server.host}/team/ghost:1`);
    expect(lookup).toEqual({
      status: 'not-found',
      cause: 'repository-unknown',
      message: `Registry ${server.host} has no repository team/ghost.`,
    });
  });

  test('a digest the repository does not have', async () => {
    const lookup = await resolver().resolve(`${server.host}/team/app@sha256:${'0'.repeat(64)}`);
    expect(lookup.status).toBe('not-found');
  });

  test('an invalid reference', async () => {
    const lookup = await resolver().resolve('Team/App:x');
    expect(lookup.status).toBe('not-found');
    expect(lookup.status !== 'found' && lookup.message).toMatch(/not valid/);
  });
});

test('a mirror of docker.io serves library/ images (Docker Hub shorthand)', async () => {
  const facts = found(
    await resolver({ mirrors: { 'docker.io': server.url }, mirrorFallback: false }).resolve('busybox:1.36'),
  );
  expect(facts).toMatchObject({
    reference: 'docker.io/library/busybox:1.36',
    registry: 'docker.io',
    repository: 'library/busybox',
  });
  expect(facts.platforms.map((p) => p.os)).toEqual(['linux']);
});

test('many lookups at once, under a concurrency bound of 2, each answered', async () => {
  const shared = resolver({ concurrency: 2 });
  const refs = ['team/app:multi', 'team/legacy:list', 'team/iis:ltsc2019', 'library/busybox:1.36', 'team/app:nope'];
  const lookups = await Promise.all([...refs, ...refs].map((ref) => shared.resolve(`${server.host}/${ref}`)));
  expect(lookups.map((lookup) => lookup.status)).toEqual([
    ...['found', 'found', 'found', 'found', 'not-found'],
    ...['found', 'found', 'found', 'found', 'not-found'],
  ]);
});

describe('cache, offline, and a registry that goes away', () => {
  afterEach(async () => {
    await server.restart();
  });

  test('offline answers from the cache once the registry has stopped; a miss says it is offline', async () => {
    const cacheDir = mkdtempSync(join(scratch, 'cache-'));
    const online = await resolver({ cacheDir }).resolve(`${server.host}/team/iis:ltsc2019`);
    const index = await resolver({ cacheDir }).resolve(`${server.host}/team/app:multi`);
    await server.stop();
    const offline = resolver({ cacheDir, offline: true });
    expect(await offline.resolve(`${server.host}/team/iis:ltsc2019`)).toEqual(online);
    // Offline, a tag answer is used however old it is.
    expect(
      await resolver({ cacheDir, offline: true, tagTtlMs: 1 }).resolve(`${server.host}/team/iis:ltsc2019`),
    ).toEqual(online);
    expect(await offline.resolve(`${server.host}/team/app:multi`)).toEqual(index);
    expect(await offline.resolve(`${server.host}/team/app@${multi.digest}`)).toEqual({
      ...index,
      facts: { ...found(index), reference: `${server.host}/team/app@${multi.digest}` },
    });
    const miss = await offline.resolve(`${server.host}/team/legacy:list`);
    expect(miss.status).toBe('unreachable');
    expect(miss.status !== 'found' && miss.message).toMatch(/^Offline, and the cache in .* has no answer for /);
    expect(miss).toMatchObject({ status: 'unreachable', cause: 'offline-miss' });
    // Online, a fresh tag answer is used without asking the (stopped) registry; an expired one is not.
    expect((await resolver({ cacheDir }).resolve(`${server.host}/team/app:multi`)).status).toBe('found');
    expect((await resolver({ cacheDir, tagTtlMs: 1 }).resolve(`${server.host}/team/app:multi`)).status).toBe(
      'unreachable',
    );
  });

  test('a registry stopped mid-run is unreachable, quickly', async () => {
    const shared = resolver();
    found(await shared.resolve(`${server.host}/team/app:multi`));
    await server.stop();
    const started = Date.now();
    const lookup = await shared.resolve(`${server.host}/team/legacy:list`);
    expect(lookup).toEqual({
      status: 'unreachable',
      cause: 'no-answer',
      message: `Registry ${server.host} did not answer (ECONNREFUSED) after 2 tries.`,
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

test('a registry that accepts connections and never answers times out', async () => {
  const sockets: Socket[] = [];
  const silent: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  try {
    const started = Date.now();
    const lookup = await resolver({ timeoutMs: 300, retries: 1 }).resolve(`127.0.0.1:${port}/team/app:1`);
    expect(lookup).toEqual({
      status: 'unreachable',
      cause: 'no-answer',
      message: `Registry 127.0.0.1:${port} did not answer (no answer within 300 ms) after 2 tries.`,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => silent.close(resolve));
  }
});

/**
 * A proxy in front of the registry that answers the first requests with the given statuses, then forwards, and
 * counts how many requests it holds at once (each held `delayMs`).
 */
async function proxy(failures: number[], delayMs = 0) {
  const state = { requests: 0, inFlight: 0, maxInFlight: 0, methods: [] as string[] };
  const queue = [...failures];
  const front = createHttpServer((request, response) => {
    state.requests++;
    state.methods.push(`${request.method} ${request.url}`);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const failure = queue.shift();
    setTimeout(() => {
      const done = () => state.inFlight--;
      if (failure !== undefined) {
        response.writeHead(failure).end();
        return done();
      }
      const accept = String(request.headers.accept ?? '*/*');
      fetch(`${server.url}${request.url}`, { method: request.method, headers: { accept } })
        .then(async (answer) => {
          response.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? '',
            'Docker-Content-Digest': answer.headers.get('docker-content-digest') ?? '',
          });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end())
        .finally(done);
    }, delayMs);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port } = front.address() as { port: number };
  return { state, url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => front.close(resolve)) };
}

describe('retries and the concurrency bound', () => {
  test('a 503 and a 429 are retried with backoff, and the lookup succeeds', async () => {
    const front = await proxy([503, 429]);
    try {
      const lookup = await resolver({ mirrors: { 'docker.io': front.url }, mirrorFallback: false, retries: 2 }).resolve(
        'busybox:1.36',
      );
      expect(found(lookup).platforms[0]?.os).toBe('linux');
      expect(front.state.requests).toBe(4); // two failures, the manifest, the config
    } finally {
      await front.close();
    }
  });

  test('more 5xx than retries: unreachable, saying what the registry answered', async () => {
    const front = await proxy([500, 502, 503, 504]);
    try {
      const lookup = await resolver({ mirrors: { 'docker.io': front.url }, mirrorFallback: false, retries: 1 }).resolve(
        'busybox:1.36',
      );
      expect(lookup).toEqual({
        status: 'unreachable',
        cause: 'http-status',
        message: `Mirror ${front.url} of docker.io answered HTTP 502 after 2 tries.`,
      });
    } finally {
      await front.close();
    }
  });

  test('a mirror that fails falls back to the registry itself, unless told not to', async () => {
    const front = await proxy([404, 404, 404, 404]);
    try {
      const mirrors = { [server.host]: front.url };
      found(await resolver({ mirrors }).resolve(`${server.host}/team/app:multi`));
      expect(await resolver({ mirrors, mirrorFallback: false }).resolve(`${server.host}/team/app:multi`)).toEqual({
        status: 'not-found',
        cause: 'manifest-unknown',
        message: `Mirror ${front.url} of ${server.host} has no tag multi in team/app.`,
      });
      expect(front.state.requests).toBe(4); // each lookup: the manifest's 404, and the tag list's
    } finally {
      await front.close();
    }
  });

  test('an expired tag is checked with one HEAD when its digest is cached', async () => {
    const front = await proxy([]);
    try {
      const cacheDir = mkdtempSync(join(scratch, 'cache-'));
      const options = { cacheDir, mirrors: { 'docker.io': front.url }, mirrorFallback: false, tagTtlMs: 1 };
      const first = found(await resolver(options).resolve('busybox:1.36'));
      front.state.methods.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(found(await resolver(options).resolve('busybox:1.36'))).toEqual(first);
      expect(front.state.methods).toEqual(['HEAD /v2/library/busybox/manifests/1.36']);
    } finally {
      await front.close();
    }
  });

  test('requests in flight never exceed the bound', async () => {
    const front = await proxy([], 30);
    try {
      const shared = resolver({ mirrors: { 'docker.io': front.url }, mirrorFallback: false, concurrency: 3 });
      const refs = ['busybox:1.36', 'team/app:multi', 'team/legacy:list', 'team/iis:ltsc2019', 'team/app:nope'];
      const lookups = await Promise.all(refs.map((ref) => shared.resolve(ref)));
      expect(lookups.map((lookup) => lookup.status)).toEqual(['found', 'found', 'found', 'found', 'not-found']);
      expect(front.state.maxInFlight).toBe(3);
    } finally {
      await front.close();
    }
  });
});
