/**
 * `lint --resolve-images` and `fix --resolve-images` against a real registry (Debian's docker-registry on loopback,
 * started by the test): the image rules judge what the registry says, the fix pins a pod to its images' build, and
 * `--offline` answers from the cache once the registry is gone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RegistryServer } from '../registry/registry-server';
import type { StackValidationArgs, StackValidationPolicy } from '@pulumi/policy';
import { WindowsValidation } from 'k8s-windows/cdk8s/plugin';
import { createWindowsPolicies, POLICY_NAMES } from 'k8s-windows/pulumi/policy';
import { cli } from './helpers';

let server: RegistryServer;
let dir: string;

const WS2019 = '10.0.17763.5576';
const WS2022 = '10.0.20348.2340';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-resolve-'));
  server = await RegistryServer.start();
  // A custom image built FROM servercore:ltsc2019 under a tag that does not say so, running as ContainerAdministrator.
  await server.pushImage(
    'shop/web',
    { os: 'windows', architecture: 'amd64', osVersion: WS2019, user: 'ContainerAdministrator' },
    { tag: '2e' },
  );
  // A single-build 2022 image under a version tag.
  await server.pushImage(
    'shop/api',
    { os: 'windows', architecture: 'amd64', osVersion: WS2022, user: '' },
    { tag: 'v2' },
  );
  // A Linux-only helper image.
  await server.pushImage('tools/busybox', { os: 'linux', architecture: 'amd64' }, { tag: '1.36' });
  // A multi-build Server Core based index whose Windows entries run as ContainerAdministrator.
  const admin = { architecture: 'amd64', user: 'ContainerAdministrator' };
  const i2019 = await server.pushImage('shop/iis', { os: 'windows', osVersion: WS2019, ...admin });
  const i2022 = await server.pushImage('shop/iis', { os: 'windows', osVersion: WS2022, ...admin });
  await server.pushIndex(
    'shop/iis',
    [
      { image: i2019, os: 'windows', architecture: 'amd64', osVersion: WS2019 },
      { image: i2022, os: 'windows', architecture: 'amd64', osVersion: WS2022 },
    ],
    { tag: 'multi' },
  );
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function manifests(): string {
  const r = server.host;
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
      securityContext: {runAsNonRoot: true}
      initContainers:
      - name: wait
        image: ${r}/tools/busybox:1.36
      containers:
      - name: web
        image: ${r}/shop/web:2e
      - name: missing
        image: ${r}/shop/web:3
---
apiVersion: v1
kind: Pod
metadata: {name: api}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows}
  containers:
  - name: api
    image: ${r}/shop/api:v2
`;
}

interface Finding {
  ruleId: string;
  severity: string;
  path: string;
}

async function lint(...args: string[]): Promise<{ code: number; findings: Finding[]; stderr: string }> {
  const r = await cli(['lint', '--format', 'json', '--no-config', ...args], { cwd: dir });
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings, stderr: r.stderr };
}

test('lint --resolve-images judges the images as the registry describes them', async () => {
  writeFileSync(path.join(dir, 'app.yaml'), manifests());
  const cache = path.join(dir, 'cache');
  const { code, findings } = await lint('--resolve-images', '--image-cache', cache, 'app.yaml');
  expect(code).toBe(1);
  const of = (id: string) => findings.filter((f) => f.ruleId === id).map((f) => [f.path, f.severity]);
  expect(of('image-os-missing')).toEqual([['spec.template.spec.initContainers[0].image', 'error']]);
  expect(of('image-build-unavailable')).toEqual([['spec.template.spec.containers[0].image', 'error']]);
  expect(of('image-not-found')).toEqual([['spec.template.spec.containers[1].image', 'error']]);
  expect(of('windows-run-as-non-root-image-user')).toEqual([
    ['spec.template.spec.containers[0].securityContext.windowsOptions.runAsUserName', 'error'],
  ]);
  expect(of('image-single-build')).toEqual([['spec.containers[0].image', 'warning']]);

  // Without --resolve-images none of these facts exist: the registry is never asked.
  const plain = await lint('app.yaml');
  expect(plain.findings.map((f) => f.ruleId)).not.toContain('image-build-unavailable');
});

test('runAsNonRoot against the user of a multi-platform index: its Windows entries run as ContainerAdministrator', async () => {
  writeFileSync(
    path.join(dir, 'iis.yaml'),
    `apiVersion: v1
kind: Pod
metadata: {name: iis}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
  securityContext: {runAsNonRoot: true}
  containers:
  - name: iis
    image: ${server.host}/shop/iis:multi
`,
  );
  const { findings } = await lint('--resolve-images', '--image-cache', path.join(dir, 'cache-iis'), 'iis.yaml');
  expect(findings.filter((f) => f.ruleId === 'windows-run-as-non-root-image-user')).toEqual([
    expect.objectContaining({
      severity: 'error',
      path: 'spec.containers[0].securityContext.windowsOptions.runAsUserName',
    }),
  ]);
  expect(findings.map((f) => f.ruleId)).not.toContain('image-build-unavailable');
});

test('fix --resolve-images pins a pod to the build its images share', async () => {
  writeFileSync(path.join(dir, 'api.yaml'), manifests().split('---\n')[1]);
  const r = await cli(
    ['fix', '--no-config', '--resolve-images', '--image-cache', path.join(dir, 'cache'), '--write', 'api.yaml'],
    { cwd: dir },
  );
  expect(r.stdout).toContain(
    "set spec.nodeSelector[node.kubernetes.io/windows-build] to '10.0.20348' (image-single-build)",
  );
  expect(readFileSync(path.join(dir, 'api.yaml'), 'utf8')).toContain(
    'nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}',
  );
});

test('--offline answers from the cache once the registry is gone; an uncached image is reported, not a crash', async () => {
  writeFileSync(path.join(dir, 'app.yaml'), manifests());
  await server.stop();
  try {
    const cached = await lint('--resolve-images', '--offline', '--image-cache', path.join(dir, 'cache'), 'app.yaml');
    expect(cached.findings.map((f) => f.ruleId)).toContain('image-build-unavailable');
    const cold = await lint(
      '--resolve-images',
      '--offline',
      '--image-cache',
      path.join(dir, 'empty-cache'),
      'app.yaml',
    );
    expect(cold.findings.filter((f) => f.ruleId === 'image-unresolved').length).toBeGreaterThan(0);
    expect(cold.findings.map((f) => f.ruleId)).not.toContain('image-build-unavailable');
  } finally {
    await server.restart();
  }
});

test('the cdk8s plugin and the policy pack take resolveImages too', async () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      containers: [{ name: 'web', image: `${server.host}/shop/web:2e` }],
    },
  };
  const imageCache = path.join(dir, 'cache-doors');

  const manifest = path.join(dir, 'app.k8s.yaml');
  writeFileSync(manifest, JSON.stringify(pod));
  const violations: string[] = [];
  await new WindowsValidation({ resolveImages: true, imageCache }).validate({
    manifests: [manifest],
    report: { addViolation: (v) => void violations.push(v.ruleName), submit: () => undefined },
    logger: { log: () => undefined },
  });
  expect(violations).toContain('image-build-unavailable [error]');

  const policy = createWindowsPolicies({ settings: { resolveImages: true, imageCache } }).find(
    (p) => p.name === POLICY_NAMES.kubernetes,
  ) as StackValidationPolicy;
  const messages: string[] = [];
  await policy.validateStack(
    {
      resources: [
        {
          type: 'kubernetes:core/v1:Pod',
          name: 'web',
          urn: 'urn:pulumi:s::p::kubernetes:core/v1:Pod::web',
          props: pod,
        },
      ],
      stackTags: new Map(),
      getConfig: () => ({}),
      notApplicable: () => undefined,
    } as unknown as StackValidationArgs,
    (m) => void messages.push(m),
  );
  expect(messages.some((m) => m.startsWith('[image-build-unavailable]'))).toBe(true);
});
