import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerCredentials } from '../../../lib/core/registry/credentials';

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
