/**
 * Bearer token auth as Docker Hub, ghcr and quay do it, against a real docker-registry configured with
 * `auth.token`: a 401 names the token realm, service and scope; the resolver gets a token there (anonymously, or
 * with the Docker config's credentials, or by exchanging an identity token in an OAuth2 POST) and retries with it.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ImageResolver, type RegistryImageLookup as ImageLookup } from '../../lib/registry';
import { RegistryServer } from '../helpers/registry-server';
import { TOKEN_ISSUER, TOKEN_SERVICE, TokenServer } from './token-server';

const USER = 'token-user';
const PASSWORD = 'tok3n-Secret-55aa';
/** The refresh token `az acr login` would write as `identitytoken`. */
const IDENTITY_TOKEN = 'refresh-7c1e-Identity-Token';
const originalPath = process.env.PATH;

let tokens: TokenServer;
let server: RegistryServer;
let scratch: string;
const lookups: ImageLookup[] = [];

async function resolve(
  image: string,
  auths: Record<string, { auth?: string; identitytoken?: string }> = {},
  extra: object = {},
): Promise<ImageLookup> {
  const dockerConfigDir = mkdtempSync(join(scratch, 'docker-'));
  writeFileSync(join(dockerConfigDir, 'config.json'), JSON.stringify({ auths, ...extra }));
  const lookup = await new ImageResolver({
    cacheDir: mkdtempSync(join(scratch, 'cache-')),
    dockerConfigDir,
    timeoutMs: 2000,
    retries: 0,
  }).resolve(`${server.host}/${image}`);
  lookups.push(lookup);
  return lookup;
}

const auth = (password: string) => ({ auth: Buffer.from(`${USER}:${password}`).toString('base64') });

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'k8s-windows-token-auth-'));
  tokens = await TokenServer.start({ username: USER, password: PASSWORD, identityToken: IDENTITY_TOKEN });
  // A credential helper that answers as ACR's do: Username "<token>", the identity token as its Secret.
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'docker-credential-acrlike'),
    `#!/bin/sh\ncat >/dev/null\necho '{"Username":"<token>","Secret":"${IDENTITY_TOKEN}"}'\n`,
  );
  chmodSync(join(bin, 'docker-credential-acrlike'), 0o755);
  process.env.PATH = `${bin}${delimiter}${originalPath}`;
  server = await RegistryServer.start({
    token: { realm: tokens.realm, service: TOKEN_SERVICE, issuer: TOKEN_ISSUER, certPath: tokens.certPath },
    pushAuthorization: (repository) =>
      `Bearer ${tokens.token('pusher', [{ name: repository, actions: ['pull', 'push'] }])}`,
  });
  await server.pushImage(
    'public/app',
    { os: 'windows', architecture: 'amd64', osVersion: '10.0.17763.1' },
    { tag: '1' },
  );
  await server.pushImage('team/app', { os: 'linux', architecture: 'amd64' }, { tag: '1' });
  tokens.requests.length = 0;
});

afterAll(async () => {
  process.env.PATH = originalPath;
  await server?.dispose();
  await tokens?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('an anonymous token for a public repository, asked with the challenge’s service and scope', async () => {
  const lookup = await resolve('public/app:1');
  expect(lookup.status === 'found' && lookup.facts.platforms[0]?.osVersion).toBe('10.0.17763.1');
  expect(tokens.requests[0]).toEqual({ service: TOKEN_SERVICE, scope: 'repository:public/app:pull', user: undefined });
});

test('an anonymous token without access to a private repository: unauthorized', async () => {
  expect(await resolve('team/app:1')).toEqual({
    status: 'unauthorized',
    cause: 'credentials-missing',
    message: `Registry ${server.host} refused an anonymous token for team/app: it does not exist, or needs credentials. Run \`docker login ${server.host}\` (or add a credential helper) to give the resolver credentials.`,
  });
});

test('a token got with the Docker config’s credentials', async () => {
  const lookup = await resolve('team/app:1', { [server.host]: auth(PASSWORD) });
  expect(lookup.status === 'found' && lookup.facts.platforms.map((p) => p.os)).toEqual(['linux']);
  expect(tokens.requests.at(-1)?.user).toBe(USER);
});

test('credentials the token service refuses: unauthorized, naming the source', async () => {
  const lookup = await resolve('team/app:1', { [server.host]: auth('wrong-password-x') });
  expect(lookup.status).toBe('unauthorized');
  expect(lookup.status !== 'found' && lookup.message).toMatch(
    /^The token service http:\/\/127\.0\.0\.1:\d+\/token of Registry .* refused the credentials from auths in .*config\.json \(HTTP 401\)\.$/,
  );
});

test('an identity token from auths is exchanged in an OAuth2 refresh-token POST', async () => {
  const lookup = await resolve('team/app:1', { [server.host]: { identitytoken: IDENTITY_TOKEN } });
  expect(lookup.status === 'found' && lookup.facts.platforms.map((p) => p.os)).toEqual(['linux']);
  expect(tokens.requests.at(-1)).toEqual({
    service: TOKEN_SERVICE,
    scope: 'repository:team/app:pull',
    grant: 'refresh_token',
    clientId: 'k8s-windows',
    user: USER,
  });
});

test('a credential helper answering Username <token> gives an identity token', async () => {
  const lookup = await resolve('team/app:1', {}, { credHelpers: { [server.host]: 'acrlike' } });
  expect(lookup.status).toBe('found');
  expect(tokens.requests.at(-1)?.grant).toBe('refresh_token');
});

test('an identity token the token service refuses: unauthorized, naming where it came from', async () => {
  const lookup = await resolve('team/app:1', { [server.host]: { identitytoken: 'expired-refresh-token' } });
  expect(lookup.status !== 'found' && lookup.message).toMatch(
    /^The token service http:\/\/127\.0\.0\.1:\d+\/token of Registry .* refused the identity token from auths in .*config\.json \(HTTP 401\)\.$/,
  );
});

test('no password or token in any result or cache file', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)],
    );
  const cached = files(scratch).filter((path) => path.includes('cache-'));
  expect(cached.length).toBeGreaterThan(0);
  const texts = [JSON.stringify(lookups), ...cached.map((path) => readFileSync(path, 'utf8'))];
  for (const text of texts) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(IDENTITY_TOKEN);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/); // a JWT
  }
});
