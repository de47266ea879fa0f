import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadManifests, validateManifests } from 'k8s-windows';
import { ApiObject, Include, Testing, type Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { RULES_BY_ID } from '../../lib/core/validate/rules';
import { WindowsAnnotations, WindowsDeployment, WindowsRuntimeClass, pinLinuxWorkloads } from 'k8s-windows/cdk8s';
import { IIS, objectOf, podSpecOf, silenceWarnings } from '../helpers/cdk8s';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'cdk8s', 'hybrid-workloads.yaml');

let chart: Chart;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

test('a kplus Deployment is pinned to Linux, a WindowsDeployment is left alone', () => {
  new kplus.Deployment(chart, 'api', { containers: [{ image: 'nginx:1.27' }] });
  new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
  pinLinuxWorkloads(chart);
  const manifests = Testing.synth(chart);
  const [linux, windows] = manifests.filter((m) => m.kind === 'Deployment');
  expect(linux.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  expect(windows.spec.template.spec.nodeSelector['kubernetes.io/os']).toBe('windows');
  expect(WindowsAnnotations.warningsOf(chart)).toEqual([]);
});

test('objects from Include are pinned, Windows ones left alone, other kinds untouched', () => {
  new Include(chart, 'chart', { url: FIXTURE });
  pinLinuxWorkloads(chart);
  const manifests = Testing.synth(chart);
  expect(podSpecOf(manifests, 'Deployment', 'nginx').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  expect(podSpecOf(manifests, 'DaemonSet', 'log-agent').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  expect(podSpecOf(manifests, 'Deployment', 'iis').nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
  expect(objectOf(manifests, 'ConfigMap')).toEqual({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings' },
    data: { mode: 'hybrid' },
  });
});

test('a wildcard toleration is reported with the rule id', () => {
  new Include(chart, 'chart', { url: FIXTURE });
  pinLinuxWorkloads(chart);
  Testing.synth(chart);
  const warnings = WindowsAnnotations.warningsOf(chart);
  expect(warnings).toHaveLength(1);
  expect(warnings[0].ruleId).toBe('wildcard-toleration');
  expect(RULES_BY_ID.has('wildcard-toleration')).toBe(true);
  expect(warnings[0].message).toMatch(/^\[wildcard-toleration\] spec\.template\.spec\.tolerations\[0\]: /);
  expect(emitWarning).toHaveBeenCalledTimes(1);
});

test("the wildcard warning is lint's finding on the pod as written: same path, message and fix", () => {
  new Include(chart, 'chart', { url: FIXTURE });
  pinLinuxWorkloads(chart);
  Testing.synth(chart);
  const lint = validateManifests(loadManifests(readFileSync(FIXTURE, 'utf8'))).filter(
    (d) => d.ruleId === 'wildcard-toleration',
  );
  expect(lint).toHaveLength(1);
  expect(WindowsAnnotations.warningsOf(chart).map((w) => w.message)).toEqual([
    `[wildcard-toleration] ${lint[0].path}: ${lint[0].message} Fix: ${lint[0].fix}`,
  ]);
});

test('a pod that selects its OS itself is not warned about its wildcard toleration, as lint does not', () => {
  new ApiObject(chart, 'agent', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [{ operator: 'Exists' }],
          containers: [{ name: 'c', image: 'busybox:1.36' }],
        },
      },
    },
  });
  pinLinuxWorkloads(chart);
  Testing.synth(chart);
  expect(WindowsAnnotations.warningsOf(chart)).toEqual([]);
});

test('wildcard warnings can be switched off', () => {
  new Include(chart, 'chart', { url: FIXTURE });
  pinLinuxWorkloads(chart, { warnWildcardTolerations: false });
  Testing.synth(chart);
  expect(WindowsAnnotations.warningsOf(chart)).toEqual([]);
});

test('raw ApiObjects are pinned, keeping their own nodeSelector entries', () => {
  new ApiObject(chart, 'pod', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'raw' },
    spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'busybox:1.36' }] },
  });
  new ApiObject(chart, 'cron', {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'nightly' },
    spec: {
      schedule: '0 0 * * *',
      jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } } },
    },
  });
  pinLinuxWorkloads(chart);
  const manifests = Testing.synth(chart);
  expect(podSpecOf(manifests, 'Pod').nodeSelector).toEqual({ disk: 'ssd', 'kubernetes.io/os': 'linux' });
  expect(podSpecOf(manifests, 'CronJob').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
});

test('objects added after the call are pinned too, and pinning twice patches once', () => {
  pinLinuxWorkloads(chart);
  new kplus.Job(chart, 'later', { containers: [{ image: 'busybox:1.36' }] });
  pinLinuxWorkloads(chart);
  expect(podSpecOf(Testing.synth(chart), 'Job').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
});

test('pods that say Windows by affinity, RuntimeClass or images are left alone', () => {
  const rc = new WindowsRuntimeClass(chart, 'rc');
  const spec = (extra: Record<string, unknown>, image = 'app:1.0') => ({
    apiVersion: 'v1',
    kind: 'Pod',
    spec: { containers: [{ name: 'c', image }], ...extra },
  });
  new ApiObject(chart, 'affinity', {
    ...spec({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] },
            ],
          },
        },
      },
    }),
    metadata: { name: 'by-affinity' },
  });
  new ApiObject(chart, 'rc-pod', { ...spec({ runtimeClassName: rc.name }), metadata: { name: 'by-runtimeclass' } });
  new ApiObject(chart, 'image-pod', { ...spec({}, IIS), metadata: { name: 'by-image' } });
  new ApiObject(chart, 'os-pod', { ...spec({ os: { name: 'linux' } }), metadata: { name: 'by-os' } });
  pinLinuxWorkloads(chart);
  const manifests = Testing.synth(chart);
  for (const name of ['by-affinity', 'by-runtimeclass', 'by-image']) {
    expect(podSpecOf(manifests, 'Pod', name).nodeSelector).toBeUndefined();
  }
  expect(podSpecOf(manifests, 'Pod', 'by-os').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
});

test('a pod whose image is named for Windows is left alone (lint says it selects no OS), unless it says Linux', () => {
  const pod = (name: string, image: string, extra: Record<string, unknown> = {}) =>
    new ApiObject(chart, name, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image }], ...extra },
    });
  pod('named', 'contoso/iis-windows-ltsc2019');
  pod('declared-linux', 'contoso/iis-windows-ltsc2019', { os: { name: 'linux' } });
  pod('cross-compiler', 'dockcross/windows-static-x64');
  pinLinuxWorkloads(chart);
  const manifests = Testing.synth(chart);
  expect(podSpecOf(manifests, 'Pod', 'named').nodeSelector).toBeUndefined();
  expect(podSpecOf(manifests, 'Pod', 'declared-linux').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  expect(podSpecOf(manifests, 'Pod', 'cross-compiler').nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  const named = validateManifests(manifests.filter((m) => m.metadata.name === 'named'));
  expect(named.map((d) => [d.ruleId, d.severity, d.path])).toEqual([
    ['windows-node-selector-missing', 'warning', 'spec.nodeSelector'],
  ]);
});
