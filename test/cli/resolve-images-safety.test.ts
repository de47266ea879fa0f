/**
 * `lint --resolve-images` as a CI runner meets it: a repository's `.k8s-windows.yaml` that names a mirror cannot
 * send the runner's credentials anywhere, a dead registry costs at most `--resolve-timeout`, `--no-mirror-fallback`
 * keeps to the mirror, an unwritable cache and a malformed Docker config are said once, and template placeholders
 * are not looked up. Registries are hostile-server.ts instances on loopback (plain HTTP).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HostileRegistry, imageManifest, sha256, WINDOWS_CONFIG } from '../registry/hostile-server';
import { cli } from './helpers';

let registry: HostileRegistry;
let mirror: HostileRegistry;
let dir: string;
let docker: string;
const savedDockerConfig = process.env.DOCKER_CONFIG;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const REGISTRY_SECRET = 'registry-Secret-9';
const MIRROR_SECRET = 'mirror-Secret-8';

const registryHost = () => `127.0.0.1:${registry.httpPort}`;
const mirrorUrl = () => `http://127.0.0.1:${mirror.httpPort}`;

function pod(image: string): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows}
  containers:
  - name: web
    image: ${image}
`;
}

/** A fresh project directory with `files`, and a cache of its own. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(dir, 'project-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

interface Finding {
  readonly ruleId: string;
  readonly message: string;
}

async function lint(cwd: string, args: readonly string[], env: Record<string, string> = {}) {
  const result = await cli(['lint', '--format', 'json', '--resolve-images', ...args], { cwd, env });
  const findings = result.stdout ? ((JSON.parse(result.stdout) as { findings: Finding[] }).findings ?? []) : [];
  // What the registry lookups themselves report (the image rules that judge a found image are other tests').
  const images = findings.filter((f) => f.ruleId === 'image-unresolved' || f.ruleId === 'image-not-found');
  return { ...result, findings, images };
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  registry = await HostileRegistry.start();
  mirror = await HostileRegistry.start();
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-resolve-safety-'));
  docker = join(dir, 'docker');
  mkdirSync(docker);
  const auth = (user: string, password: string) => ({ auth: Buffer.from(`${user}:${password}`).toString('base64') });
  writeFileSync(
    join(docker, 'config.json'),
    JSON.stringify({
      auths: {
        [`127.0.0.1:${registry.httpPort}`]: auth('reg', REGISTRY_SECRET),
        [`127.0.0.1:${mirror.httpPort}`]: auth('mir', MIRROR_SECRET),
      },
    }),
  );
  // The resolver reads the Docker config of the process, as the docker CLI does.
  process.env.DOCKER_CONFIG = docker;
}, 30_000);

afterAll(async () => {
  if (savedDockerConfig === undefined) delete process.env.DOCKER_CONFIG;
  else process.env.DOCKER_CONFIG = savedDockerConfig;
  await registry?.dispose();
  await mirror?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  registry.reset();
  mirror.reset();
});

/** The mirror serves its image only to its own credentials; anyone else gets a Basic challenge. */
function mirrorWantsItsCredentials(): void {
  const manifest = imageManifest();
  const guard = (body: Buffer, type: string) => (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.authorization !== basic('mir', MIRROR_SECRET)) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="mirror"' });
      return response.end();
    }
    response.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length });
    response.end(body);
  };
  mirror.route('127.0.0.1', '/v2/app/manifests/1', guard(manifest, 'application/vnd.oci.image.manifest.v1+json'));
  mirror.route('127.0.0.1', `/v2/app/blobs/${sha256(WINDOWS_CONFIG)}`, guard(WINDOWS_CONFIG, 'application/json'));
}

describe('a repository config cannot direct credentials', () => {
  test('a mirror from .k8s-windows.yaml is asked anonymously; neither its credentials nor the registry ones are sent', async () => {
    mirrorWantsItsCredentials();
    registry.serveImage('127.0.0.1');
    const cwd = project({
      '.k8s-windows.yaml': `registryMirrors:\n  '${registryHost()}': '${mirrorUrl()}'\nmirrorFallback: false\nimageCache: ${join(dir, 'cache-a')}\n`,
      'pod.yaml': pod(`${registryHost()}/app:1`),
    });
    const { images } = await lint(cwd, ['pod.yaml']);
    expect(images).toEqual([
      expect.objectContaining({
        ruleId: 'image-unresolved',
        message: `spec.containers[0].image '${registryHost()}/app:1' was not checked: Mirror ${mirrorUrl()} of ${registryHost()} requires credentials for app, and a mirror named in a repository's config file is asked anonymously (name it with --registry-mirror or in K8S_WINDOWS_REGISTRY_MIRRORS to give it the credentials stored for its host).`,
      }),
    ]);
    expect(mirror.requests.length).toBeGreaterThan(0);
    expect(mirror.requests.filter((r) => r.authorization !== undefined)).toEqual([]);
    expect(registry.requests).toEqual([]);
  });

  test('the same mirror named on the command line gets its own credentials, never the registry ones', async () => {
    mirrorWantsItsCredentials();
    const cwd = project({ 'pod.yaml': pod(`${registryHost()}/app:1`) });
    const { images } = await lint(cwd, [
      '--registry-mirror',
      `${registryHost()}=${mirrorUrl()}`,
      '--no-mirror-fallback',
      '--image-cache',
      join(dir, 'cache-b'),
      'pod.yaml',
    ]);
    expect(images).toEqual([]);
    const sent = new Set(mirror.requests.flatMap((r) => (r.authorization ? [r.authorization] : [])));
    expect(sent).toEqual(new Set([basic('mir', MIRROR_SECRET)]));
    expect(registry.requests).toEqual([]);
  });

  test('a mirror from K8S_WINDOWS_REGISTRY_MIRRORS (the user environment) is trusted like the command line', async () => {
    mirror.route('127.0.0.1', '*', (request, response) => {
      response.writeHead(request.headers.authorization === basic('mir', MIRROR_SECRET) ? 404 : 401, {
        'WWW-Authenticate': 'Basic realm="mirror"',
        'Content-Type': 'application/json',
      });
      response.end(JSON.stringify({ errors: [{ code: 'NAME_UNKNOWN' }] }));
    });
    const cwd = project({ 'pod.yaml': pod(`${registryHost()}/app:1`) });
    const { images } = await lint(cwd, ['--no-mirror-fallback', '--image-cache', join(dir, 'cache-c'), 'pod.yaml'], {
      K8S_WINDOWS_REGISTRY_MIRRORS: `${registryHost()}=${mirrorUrl()}`,
    });
    expect(images.map((f) => f.ruleId)).toEqual(['image-not-found']);
    expect(new Set(mirror.requests.flatMap((r) => (r.authorization ? [r.authorization] : [])))).toEqual(
      new Set([basic('mir', MIRROR_SECRET)]),
    );
  });
});

describe('bounded', () => {
  test('--resolve-timeout bounds a registry that never answers (10 images, 1 s)', async () => {
    registry.route('127.0.0.1', '*', () => undefined);
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`pod-${i}.yaml`] = pod(`${registryHost()}/app:${i}`);
    const cwd = project(files);
    const started = Date.now();
    const { images, code } = await lint(cwd, ['--resolve-timeout', '1', '--image-cache', join(dir, 'cache-d'), '.']);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(code).toBe(0);
    expect(images).toHaveLength(10);
    for (const finding of images) {
      expect(finding.ruleId).toBe('image-unresolved');
      expect(finding.message).toMatch(
        /Registry 127\.0\.0\.1:\d+ (did not answer before|was not asked:) the resolution's deadline of 1 s \(--resolve-timeout, or resolveTimeout in the config file\) passed\.$/,
      );
    }
  });

  test('resolveTimeout in the config file does the same', async () => {
    registry.route('127.0.0.1', '*', () => undefined);
    const cwd = project({
      '.k8s-windows.yaml': `resolveTimeout: 0.5s\nimageCache: ${join(dir, 'cache-e')}\n`,
      'pod.yaml': pod(`${registryHost()}/app:1`),
    });
    const started = Date.now();
    const { images } = await lint(cwd, ['pod.yaml']);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(images[0]?.message).toMatch(/deadline of 0\.5 s/);
  });

  test('--no-mirror-fallback: a mirror that is down is the answer; without it the registry answers', async () => {
    registry.serveImage('127.0.0.1');
    const down = `http://127.0.0.1:${await closedPort()}`;
    const cwd = project({ 'pod.yaml': pod(`${registryHost()}/app:1`) });
    const args = ['--registry-mirror', `${registryHost()}=${down}`, 'pod.yaml'];
    const fallback = await lint(cwd, ['--image-cache', join(dir, 'cache-f'), ...args]);
    expect(fallback.images).toEqual([]);
    registry.reset();
    const only = await lint(cwd, ['--no-mirror-fallback', '--image-cache', join(dir, 'cache-g'), ...args]);
    expect(only.images).toEqual([
      expect.objectContaining({
        ruleId: 'image-unresolved',
        message: expect.stringContaining(`Mirror ${down} of ${registryHost()} did not answer (ECONNREFUSED)`),
      }),
    ]);
    expect(registry.requests).toEqual([]);
  });

  test('an unwritable cache directory is said once, and the run goes on', async () => {
    registry.serveImage('127.0.0.1');
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const cwd = project({ 'a.yaml': pod(`${registryHost()}/app:1`), 'b.yaml': pod(`${registryHost()}/app:1`) });
    const { stderr, code, images } = await lint(cwd, ['--image-cache', join(blocker, 'cache'), '.']);
    expect(code).toBe(0);
    expect(images).toEqual([]);
    expect(stderr).toBe(
      `k8s-windows: warning: the image cache ${join(blocker, 'cache')} cannot be written (ENOTDIR): registry answers are not kept, so every run asks again. Give a writable directory with --image-cache or imageCache (or set XDG_CACHE_HOME / HOME).\n`,
    );
  });

  test('a malformed Docker config is said once, by file and place', async () => {
    registry.serveImage('127.0.0.1');
    const broken = join(dir, 'broken-docker');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'config.json'), '{"auths": {"x": {"auth": "c2VjcmV0"}},}');
    process.env.DOCKER_CONFIG = broken;
    try {
      const cwd = project({ 'pod.yaml': pod(`${registryHost()}/app:1`) });
      const { stderr } = await lint(cwd, ['--image-cache', join(dir, 'cache-h'), 'pod.yaml']);
      expect(stderr).toBe(
        `k8s-windows: warning: the Docker config ${join(broken, 'config.json')} is not valid JSON at line 1, column 39: no credentials are read from it.\n`,
      );
    } finally {
      process.env.DOCKER_CONFIG = docker;
    }
  });
});

describe('false errors', () => {
  test('placeholders and ko:// build references are not looked up nor reported', async () => {
    const images = [
      '< Registry Name >.azurecr.io/app:1',
      '<Your Image Name>',
      'ko://github.com/tektoncd/pipeline/cmd/controller',
      '${REGISTRY}/app:${TAG}',
      '{{ .Values.image }}',
      '$(IMAGE)',
    ];
    const cwd = project(Object.fromEntries(images.map((image, i) => [`pod-${i}.yaml`, pod(image)])));
    const { findings } = await lint(cwd, ['--image-cache', join(dir, 'cache-i'), '.']);
    expect(findings.filter((f) => f.ruleId === 'image-not-found' || f.ruleId === 'image-unresolved')).toEqual([]);
  });
});
