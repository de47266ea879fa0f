/**
 * The resolver's credentials against a real docker-registry that requires Basic auth (htpasswd, bcrypt): from the
 * Docker config's `auths`, from a `credHelpers` helper and a `credsStore`, refused ones, and none. No result, and
 * no file of the cache, ever holds the password.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { defaultDockerConfigDir, ImageResolver, type RegistryImageLookup as ImageLookup } from '../../lib/registry';
import { RegistryServer } from '../helpers/registry-server';

const USER = 'ci-reader';
const PASSWORD = 'pa55-Secret-7f3a';
const WRONG = 'wrong-Secret-91c2';
const SECRETS = [PASSWORD, WRONG, Buffer.from(`${USER}:${PASSWORD}`).toString('base64')];

let server: RegistryServer;
let scratch: string;
let helperLog: string;
const originalPath = process.env.PATH;
const lookups: ImageLookup[] = [];

/** A Docker config directory holding `config`. */
function dockerConfig(config: object): string {
  const dir = mkdtempSync(join(scratch, 'docker-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

async function resolve(dockerConfigDir: string, image = 'team/app:1'): Promise<ImageLookup> {
  const lookup = await new ImageResolver({
    // A cache per lookup: a cached answer would hide what the registry says to these credentials.
    cacheDir: mkdtempSync(join(scratch, 'caches', 'cache-')),
    dockerConfigDir,
    timeoutMs: 2000,
    retries: 0,
    credentialHelperTimeoutMs: 500,
  }).resolve(`${server.host}/${image}`);
  lookups.push(lookup);
  return lookup;
}

/** Every file under a directory, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'k8s-windows-auth-'));
  server = await RegistryServer.start({ htpasswd: { username: USER, password: PASSWORD } });
  await server.pushImage(
    'team/app',
    { os: 'windows', architecture: 'amd64', osVersion: '10.0.20348.2340', user: 'ContainerUser' },
    { tag: '1' },
  );
  // Credential helpers on PATH: `test` answers for this registry only, `hangs` never answers.
  mkdirSync(join(scratch, 'caches'));
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  helperLog = join(scratch, 'helper.log');
  writeFileSync(
    join(bin, 'docker-credential-test'),
    `#!/bin/sh\n[ "$1" = get ] || exit 2\nread -r server\necho "$server" >> '${helperLog}'\n` +
      `if [ "$server" = '${server.host}' ]; then printf '{"ServerURL":"%s","Username":"${USER}","Secret":"${PASSWORD}"}' "$server"; ` +
      `else echo 'credentials not found in native keychain'; exit 1; fi\n`,
  );
  writeFileSync(join(bin, 'docker-credential-hangs'), '#!/bin/sh\nexec sleep 30\n');
  chmodSync(join(bin, 'docker-credential-test'), 0o755);
  chmodSync(join(bin, 'docker-credential-hangs'), 0o755);
  process.env.PATH = `${bin}${delimiter}${originalPath}`;
});

afterAll(async () => {
  process.env.PATH = originalPath;
  await server?.dispose();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('without credentials: unauthorized, saying where it looked', async () => {
  const dir = dockerConfig({});
  expect(await resolve(dir)).toEqual({
    status: 'unauthorized',
    cause: 'credentials-missing',
    message: `Registry ${server.host} requires credentials for team/app, and the Docker config in ${dir} has none for ${server.host}. Run \`docker login ${server.host}\` (or add a credential helper) to give the resolver credentials.`,
  });
});

test('credentials from auths (base64 user:password)', async () => {
  const auth = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
  const lookup = await resolve(dockerConfig({ auths: { [`https://${server.host}`]: { auth } } }));
  expect(lookup.status === 'found' && lookup.facts.user).toBe('ContainerUser');
});

test('credentials from auths (username and password fields)', async () => {
  const lookup = await resolve(dockerConfig({ auths: { [server.host]: { username: USER, password: PASSWORD } } }));
  expect(lookup.status).toBe('found');
});

test('a wrong password: unauthorized, naming the source and never the password', async () => {
  const auth = Buffer.from(`${USER}:${WRONG}`).toString('base64');
  const dir = dockerConfig({ auths: { [server.host]: { auth } } });
  expect(await resolve(dir)).toEqual({
    status: 'unauthorized',
    cause: 'credentials-refused',
    message: `Registry ${server.host} refused the credentials from auths in ${join(dir, 'config.json')} for team/app.`,
  });
});

test('credentials from a credHelpers helper, given the server on stdin', async () => {
  rmSync(helperLog, { force: true });
  const lookup = await resolve(dockerConfig({ credHelpers: { [server.host]: 'test' } }));
  expect(lookup.status).toBe('found');
  expect(readFileSync(helperLog, 'utf8')).toBe(`${server.host}\n`);
});

test('credentials from a credsStore, and auths when the store has none', async () => {
  expect((await resolve(dockerConfig({ credsStore: 'test' }))).status).toBe('found');
  const auth = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
  const other = dockerConfig({ credsStore: 'hangs', auths: { [server.host]: { auth } } });
  const started = Date.now();
  expect((await resolve(other)).status).toBe('found');
  expect(Date.now() - started).toBeLessThan(3000);
});

test('a helper that is missing or hangs leaves the lookup unauthorized, not hung, saying which helper and why', async () => {
  const absent = dockerConfig({ credHelpers: { [server.host]: 'absent' } });
  expect(await resolve(absent)).toEqual({
    status: 'unauthorized',
    cause: 'credentials-missing',
    message: `Registry ${server.host} requires credentials for team/app, and no credentials could be read: the credential helper docker-credential-absent is not on PATH (credHelpers in ${join(absent, 'config.json')}).`,
  });
  const hangs = dockerConfig({ credHelpers: { [server.host]: 'hangs' } });
  expect(await resolve(hangs)).toEqual({
    status: 'unauthorized',
    cause: 'credentials-missing',
    message: `Registry ${server.host} requires credentials for team/app, and no credentials could be read: the credential helper docker-credential-hangs did not answer within 500 ms (credHelpers in ${join(hangs, 'config.json')}).`,
  });
});

test('a Docker config that is not JSON is named with where it breaks, not as "has no credentials"', async () => {
  const dir = mkdtempSync(join(scratch, 'docker-'));
  writeFileSync(join(dir, 'config.json'), '{"auths": {');
  expect(await resolve(dir)).toEqual({
    status: 'unauthorized',
    cause: 'credentials-missing',
    message: `Registry ${server.host} requires credentials for team/app, and no credentials could be read: the Docker config ${join(dir, 'config.json')} is not valid JSON at line 1, column 12.`,
  });
});

test('no password in any result or cache file', () => {
  expect(lookups.length).toBeGreaterThan(5);
  const texts = [JSON.stringify(lookups), ...files(join(scratch, 'caches')).map((path) => readFileSync(path, 'utf8'))];
  expect(texts.length).toBeGreaterThan(2);
  for (const secret of SECRETS) for (const text of texts) expect(text).not.toContain(secret);
});

test('the Docker config directory is $DOCKER_CONFIG, else ~/.docker', () => {
  const saved = process.env.DOCKER_CONFIG;
  try {
    process.env.DOCKER_CONFIG = '/somewhere/docker';
    expect(defaultDockerConfigDir()).toBe('/somewhere/docker');
    delete process.env.DOCKER_CONFIG;
    expect(defaultDockerConfigDir()).toMatch(/\.docker$/);
  } finally {
    if (saved === undefined) delete process.env.DOCKER_CONFIG;
    else process.env.DOCKER_CONFIG = saved;
  }
});
