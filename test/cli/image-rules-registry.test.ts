/**
 * Every rule that reads registry facts, failing and passing, against a real registry (Debian's docker-registry on
 * loopback): `lint --resolve-images` on one pod per case, the images pushed as a registry holds them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RegistryServer } from '../registry/registry-server';
import { cli } from './helpers';

let server: RegistryServer;
/** A registry that wants Basic credentials this machine's (empty) Docker config does not have. */
let locked: RegistryServer;
let dir: string;

const WS2019 = '10.0.17763.5576';
const WS2022 = '10.0.20348.2340';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-image-rules-'));
  server = await RegistryServer.start();
  locked = await RegistryServer.start({ htpasswd: { username: 'ci', password: 'not-given-to-lint' } });
  const win = (osVersion: string | undefined, user: string) => ({
    os: 'windows',
    architecture: 'amd64',
    osVersion,
    user,
  });
  // Built FROM servercore:ltsc2019 under a tag that does not say so.
  await server.pushImage('shop/web', win(WS2019, 'ContainerAdministrator'), { tag: '2e' });
  // One 2022 build that names no user.
  await server.pushImage('shop/api', win(WS2022, ''), { tag: 'v2' });
  // Nano Server based: ContainerUser.
  await server.pushImage('shop/nano', win(WS2022, 'ContainerUser'), { tag: '1' });
  await server.pushImage('tools/busybox', { os: 'linux', architecture: 'amd64' }, { tag: '1.36' });
  // Built on the HostProcess base image: Windows with no os.version, a few bytes of layers.
  await server.pushImage('agents/exporter', win(undefined, ''), { tag: '0.30' });
  const e2019 = await server.pushImage('shop/iis', win(WS2019, 'ContainerUser'));
  const e2022 = await server.pushImage('shop/iis', win(WS2022, 'ContainerUser'));
  const linux = await server.pushImage('shop/iis', { os: 'linux', architecture: 'amd64' });
  await server.pushIndex(
    'shop/iis',
    [
      { image: e2019, os: 'windows', architecture: 'amd64', osVersion: WS2019 },
      { image: e2022, os: 'windows', architecture: 'amd64', osVersion: WS2022 },
      { image: linux, os: 'linux', architecture: 'amd64' },
    ],
    { tag: 'multi' },
  );
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  await locked?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

interface PodCase {
  readonly image: string;
  /** @default 'windows' */
  readonly os?: 'windows' | 'linux';
  /** The node.kubernetes.io/windows-build the pod selects. @default '10.0.20348' */
  readonly build?: string | null;
  readonly runAsNonRoot?: boolean;
  readonly runAsUserName?: string;
  readonly hostProcess?: boolean;
}

function pod({ image, os = 'windows', build = '10.0.20348', runAsNonRoot, runAsUserName, hostProcess }: PodCase) {
  const image_ = image.replace('LOCKED', locked.host).replace('REG', server.host);
  const selector =
    os === 'linux'
      ? '{kubernetes.io/os: linux}'
      : `{kubernetes.io/os: windows${build ? `, node.kubernetes.io/windows-build: '${build}'` : ''}}`;
  const windowsOptions = [
    ...(hostProcess ? ['hostProcess: true'] : []),
    ...(runAsUserName
      ? [`runAsUserName: '${runAsUserName}'`]
      : hostProcess
        ? ["runAsUserName: 'NT AUTHORITY\\system'"]
        : []),
  ];
  const sc = [
    ...(runAsNonRoot ? ['runAsNonRoot: true'] : []),
    ...(windowsOptions.length ? [`windowsOptions: {${windowsOptions.join(', ')}}`] : []),
  ];
  return `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  os: {name: ${os}}
  nodeSelector: ${selector}
${hostProcess ? '  hostNetwork: true\n' : ''}${sc.length ? `  securityContext: {${sc.join(', ')}}\n` : ''}  containers:
  - name: app
    image: ${image_}
`;
}

/** The findings of one rule on one pod, as [path, severity]. */
async function findingsOf(rule: string, c: PodCase): Promise<string[][]> {
  const file = path.join(dir, 'pod.yaml');
  writeFileSync(file, pod(c));
  const r = await cli(
    ['lint', '--format', 'json', '--no-config', '--resolve-images', '--image-cache', path.join(dir, 'cache'), file],
    { cwd: dir },
  );
  const { findings } = JSON.parse(r.stdout) as { findings: { ruleId: string; path: string; severity: string }[] };
  return findings.filter((f) => f.ruleId === rule).map((f) => [f.path, f.severity]);
}

const IMAGE = 'spec.containers[0].image';
const USER = 'spec.containers[0].securityContext.windowsOptions.runAsUserName';

const cases: readonly (readonly [string, string, PodCase, string[][]])[] = [
  ['image-not-found', 'a tag the repository does not have', { image: 'REG/shop/web:3' }, [[IMAGE, 'error']]],
  ['image-not-found', 'a tag it has', { image: 'REG/shop/api:v2' }, []],
  ['image-unresolved', 'a registry that is down', { image: '127.0.0.1:1/shop/api:v2' }, [[IMAGE, 'info']]],
  ['image-unresolved', 'a registry that refuses', { image: 'LOCKED/shop/api:v2' }, [[IMAGE, 'warning']]],
  ['image-unresolved', 'a registry that answers', { image: 'REG/shop/api:v2' }, []],
  ['image-os-missing', 'a Linux-only image in a Windows pod', { image: 'REG/tools/busybox:1.36' }, [[IMAGE, 'error']]],
  [
    'image-os-missing',
    'a Windows-only image in a Linux pod',
    { image: 'REG/shop/api:v2', os: 'linux' },
    [[IMAGE, 'error']],
  ],
  ['image-os-missing', 'an index with a Windows entry', { image: 'REG/shop/iis:multi' }, []],
  ['image-build-unavailable', 'a 2019-only image on 2022 nodes', { image: 'REG/shop/web:2e' }, [[IMAGE, 'error']]],
  ['image-build-unavailable', 'the same image on 2019 nodes', { image: 'REG/shop/web:2e', build: '10.0.17763' }, []],
  ['image-build-unavailable', 'an index with a 2022 entry', { image: 'REG/shop/iis:multi' }, []],
  [
    'image-single-build',
    'a single-build image, no build pinned',
    { image: 'REG/shop/api:v2', build: null },
    [[IMAGE, 'warning']],
  ],
  ['image-single-build', 'pinned to its build', { image: 'REG/shop/api:v2' }, []],
  ['image-single-build', 'a multi-build index, no build pinned', { image: 'REG/shop/iis:multi', build: null }, []],
  [
    'windows-run-as-non-root-image-user',
    'runAsNonRoot on a ContainerAdministrator image',
    { image: 'REG/shop/web:2e', build: '10.0.17763', runAsNonRoot: true },
    [[USER, 'error']],
  ],
  [
    'windows-run-as-non-root-image-user',
    'runAsNonRoot on an image that names no user',
    { image: 'REG/shop/api:v2', runAsNonRoot: true },
    [[USER, 'warning']],
  ],
  [
    'windows-run-as-non-root-image-user',
    'runAsNonRoot on a ContainerUser image',
    { image: 'REG/shop/nano:1', runAsNonRoot: true },
    [],
  ],
  [
    'windows-run-as-non-root-image-user',
    'runAsNonRoot with runAsUserName',
    { image: 'REG/shop/web:2e', build: '10.0.17763', runAsNonRoot: true, runAsUserName: 'ContainerUser' },
    [],
  ],
  [
    'image-hostprocess-only',
    'a HostProcess-base image as an ordinary container',
    { image: 'REG/agents/exporter:0.30' },
    [[IMAGE, 'error']],
  ],
  [
    'image-hostprocess-only',
    'the same image as a HostProcess container',
    { image: 'REG/agents/exporter:0.30', hostProcess: true },
    [],
  ],
  ['image-hostprocess-only', 'an image built on a Windows base', { image: 'REG/shop/api:v2' }, []],
];

test.each(cases)('%s: %s', async (rule, _title, c, expected) => {
  expect(await findingsOf(rule, c)).toEqual(expected);
});
