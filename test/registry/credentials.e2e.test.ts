import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DockerCredentials } from '../../lib/registry/credentials';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-docker-config-'));
  const auth = (pair: string) => ({ auth: Buffer.from(pair).toString('base64') });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      auths: {
        'https://index.docker.io/v1/': auth('hub-user:hub-pass'),
        'https://ghcr.io': auth('gh:token:with:colons'),
        'registry.example.com:5000': {},
        'quay.io': { username: 'q', password: 'qp' },
      },
      credHelpers: { 'gcr.io': '../../bin/sh' },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('auths keys as Docker writes them: Docker Hub under its v1 URL, hosts with or without a scheme', async () => {
  const credentials = new DockerCredentials(dir);
  expect(await credentials.get('docker.io')).toMatchObject({ username: 'hub-user', password: 'hub-pass' });
  expect(await credentials.get('ghcr.io')).toMatchObject({ username: 'gh', password: 'token:with:colons' });
  expect(await credentials.get('quay.io')).toMatchObject({ username: 'q', password: 'qp' });
  expect((await credentials.get('quay.io'))?.source).toBe(`auths in ${join(dir, 'config.json')}`);
  expect(await credentials.get('registry.example.com:5000')).toBeUndefined();
  expect(await credentials.get('other.example.com')).toBeUndefined();
});

test('a credential helper named by a path is never run', async () => {
  expect(await new DockerCredentials(dir).get('gcr.io')).toBeUndefined();
});

test('a missing or unreadable config has no credentials', async () => {
  expect(await new DockerCredentials(join(dir, 'absent')).get('docker.io')).toBeUndefined();
});

describe('problems are named as what they are, never as "no credentials"', () => {
  let bin: string;
  const originalPath = process.env.PATH;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'k8s-windows-helpers-'));
    const helper = (name: string, script: string) => {
      writeFileSync(join(bin, `docker-credential-${name}`), `#!/bin/sh\n${script}\n`);
      chmodSync(join(bin, `docker-credential-${name}`), 0o755);
    };
    helper('broken', "echo 'error getting credentials - err: exec: gpg: not found' >&2; exit 3");
    helper('empty', "echo 'credentials not found in native keychain'; exit 1");
    helper('chatty', "echo 'Password for keyring:'");
    process.env.PATH = `${bin}${delimiter}${originalPath}`;
  });
  afterAll(() => {
    process.env.PATH = originalPath;
    rmSync(bin, { recursive: true, force: true });
  });

  function configDir(text: string): string {
    const d = mkdtempSync(join(tmpdir(), 'k8s-windows-docker-config-'));
    writeFileSync(join(d, 'config.json'), text);
    return d;
  }

  test('a Docker config that is not JSON: the file and where, never its text', async () => {
    const secret = Buffer.from('user:hunter2-Secret').toString('base64');
    const d = configDir(`{\n  "auths": {\n    "ghcr.io": { "auth": "${secret}" },\n  }\n}\n`);
    const credentials = new DockerCredentials(d);
    const answer = await credentials.find('ghcr.io');
    expect(answer).toEqual({
      problem: `the Docker config ${join(d, 'config.json')} is not valid JSON at line 4, column 3`,
    });
    expect(await credentials.configProblem()).toBe(answer.problem);
    expect(JSON.stringify(answer)).not.toContain(secret);
  });

  test('a Docker config that is JSON but not an object', async () => {
    const d = configDir('[]');
    expect(await new DockerCredentials(d).find('ghcr.io')).toEqual({
      problem: `the Docker config ${join(d, 'config.json')} is not a JSON object`,
    });
  });

  test('a helper that fails: its name, exit code and what it said', async () => {
    const d = configDir(JSON.stringify({ credHelpers: { 'ghcr.io': 'broken' } }));
    expect(await new DockerCredentials(d).find('ghcr.io')).toEqual({
      problem: `the credential helper docker-credential-broken failed (exit 3): error getting credentials - err: exec: gpg: not found (credHelpers in ${join(d, 'config.json')})`,
    });
  });

  test('a helper that is not on PATH, or answers no JSON', async () => {
    const d = configDir(JSON.stringify({ credHelpers: { 'ghcr.io': 'absent', 'quay.io': 'chatty' } }));
    const credentials = new DockerCredentials(d);
    expect((await credentials.find('ghcr.io')).problem).toBe(
      `the credential helper docker-credential-absent is not on PATH (credHelpers in ${join(d, 'config.json')})`,
    );
    expect((await credentials.find('quay.io')).problem).toBe(
      `the credential helper docker-credential-chatty answered something other than JSON (credHelpers in ${join(d, 'config.json')})`,
    );
  });

  test('a helper that has nothing for the server is no problem: no credentials', async () => {
    const d = configDir(JSON.stringify({ credHelpers: { 'ghcr.io': 'empty' } }));
    expect(await new DockerCredentials(d).find('ghcr.io')).toEqual({});
  });

  test('a credsStore that fails, with nothing in auths, is the problem', async () => {
    const d = configDir(JSON.stringify({ credsStore: 'broken' }));
    expect((await new DockerCredentials(d).find('ghcr.io')).problem).toMatch(
      /^the credential helper docker-credential-broken failed \(exit 3\): .* \(credsStore in /,
    );
  });
});
