/**
 * `windows.resolveImages` and the app context `k8s-windows:resolveImages`: the constructs check their images against
 * a real registry (Debian's docker-registry on loopback) when they render, through the synchronous child-process
 * bridge: errors fail the synth naming the construct, an unreachable registry is a warning, and nothing is asked
 * unless resolution is on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Chart, Testing } from 'cdk8s';
import { RESOLVE_IMAGES_CONTEXT, WindowsAnnotations, WindowsDeployment } from 'k8s-windows/cdk8s';
import { RegistryServer } from '../registry/registry-server';
import { captureError, podSpecOf, silenceWarnings } from './helpers';

let server: RegistryServer;
let dir: string;
let chart: Chart;
let emitWarning: jest.SpyInstance;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-cdk8s-resolve-'));
  server = await RegistryServer.start();
  const win = (osVersion: string) => ({ os: 'windows', architecture: 'amd64', osVersion, user: 'ContainerUser' });
  await server.pushImage('shop/web', win('10.0.17763.5576'), { tag: '2e' });
  await server.pushImage('shop/api', win('10.0.20348.2340'), { tag: 'v2' });
  await server.pushImage('tools/busybox', { os: 'linux', architecture: 'amd64' }, { tag: '1.36' });
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

const cache = () => ({ imageCache: path.join(dir, 'cache') });

test('an image with no entry for the nodes’ build fails the synth, naming the construct and the rule', () => {
  new WindowsDeployment(chart, 'web', {
    containers: [{ image: `${server.host}/shop/web:2e`, portNumber: 80 }],
    windows: { resolveImages: cache() },
  });
  const err = captureError(() => Testing.synth(chart));
  expect(err.message.startsWith(`${chart.node.path}/web: 1 Windows validation problem`)).toBe(true);
  expect(err.issues.map((i) => [i.ruleId, i.path])).toEqual([
    ['image-build-unavailable', 'spec.template.spec.containers[0].image'],
  ]);
});

test('a Linux-only image in the Windows pod fails the synth', () => {
  new WindowsDeployment(chart, 'web', {
    containers: [
      { image: `${server.host}/shop/api:v2`, portNumber: 80 },
      { name: 'sidecar', image: `${server.host}/tools/busybox:1.36` },
    ],
    windows: { resolveImages: cache() },
  });
  const err = captureError(() => Testing.synth(chart));
  expect(err.issues.map((i) => [i.ruleId, i.path])).toEqual([
    ['image-os-missing', 'spec.template.spec.containers[1].image'],
  ]);
});

test('the app context turns it on for every workload', () => {
  const app = Testing.app();
  app.node.setContext(RESOLVE_IMAGES_CONTEXT, cache());
  const apps = new Chart(app, 'apps');
  new WindowsDeployment(apps, 'api', { containers: [{ image: `${server.host}/shop/api:v2`, portNumber: 80 }] });
  expect(podSpecOf(Testing.synth(apps), 'Deployment').containers[0].image).toBe(`${server.host}/shop/api:v2`);
  // The registry answered: the tag that names no build is no longer a question (no image-floating-tag advice).
  expect(WindowsAnnotations.warningsOf(apps)).toEqual([]);
  new WindowsDeployment(apps, 'web', { containers: [{ image: `${server.host}/shop/web:2e`, portNumber: 80 }] });
  expect(captureError(() => Testing.synth(apps)).issues.map((i) => i.ruleId)).toEqual(['image-build-unavailable']);
  // A workload's own prop wins over the context.
  const off = new Chart(app, 'off');
  new WindowsDeployment(off, 'web', {
    containers: [{ image: `${server.host}/shop/web:2e`, portNumber: 80 }],
    windows: { resolveImages: false },
  });
  expect(() => Testing.synth(off)).not.toThrow();
});

test('an unreachable registry is a warning on the construct, not a failure', () => {
  new WindowsDeployment(chart, 'web', {
    containers: [{ image: '127.0.0.1:1/shop/api:v2', portNumber: 80 }],
    windows: { resolveImages: cache() },
  });
  expect(podSpecOf(Testing.synth(chart), 'Deployment').containers[0].image).toBe('127.0.0.1:1/shop/api:v2');
  // Unanswered, the tag keeps its advice: whether it is a multi-arch list is still unknown.
  expect(WindowsAnnotations.warningsOf(chart).map((w) => w.ruleId)).toEqual(['image-floating-tag', 'image-unresolved']);
});

test('without resolveImages nothing is asked: the tag says nothing wrong', () => {
  new WindowsDeployment(chart, 'web', { containers: [{ image: `${server.host}/shop/web:2e`, portNumber: 80 }] });
  expect(podSpecOf(Testing.synth(chart), 'Deployment').containers[0].image).toBe(`${server.host}/shop/web:2e`);
});

test('bad resolveImages settings are refused at construction, every problem named', () => {
  const err = captureError(
    () =>
      new WindowsDeployment(chart, 'web', {
        containers: [{ image: `${server.host}/shop/api:v2`, portNumber: 80 }],
        windows: { resolveImages: { offline: 'yes', registryMirrors: { 'docker.io': 'mirror:5000' } } as never },
      }),
  );
  expect(err.issues.map((i) => i.path)).toEqual([
    'windows.resolveImages.offline',
    'windows.resolveImages.registryMirrors.docker.io',
  ]);
});
