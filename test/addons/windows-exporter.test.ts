import { readFileSync } from 'fs';
import { join } from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse } from 'yaml';
import { loadManifests, validateManifests } from 'k8s-windows';
import { WindowsExporter, type WindowsExporterProps } from 'k8s-windows/addons';
import { ADDON_IMAGE_FACTS, addonImage } from '../../lib/core/facts/addons';
import { WINDOWS_EXPORTER_DIFFERENCES } from '../../lib/core/addons/windows-exporter';
import { captureError, objectOf, podSpecOf, silenceWarnings, type Manifest } from '../helpers/cdk8s';
import { staleDifferences, unexplainedDifferences } from './compare';

const PRIVILEGED = { 'pod-security.kubernetes.io/enforce': 'privileged' };
const IMAGE = 'ghcr.io/prometheus-community/windows-exporter:0.31.8';

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

function synth(props?: WindowsExporterProps, setUp?: (chart: Chart) => WindowsExporterProps): Manifest[] {
  const chart = new Chart(Testing.app(), 'monitoring');
  new WindowsExporter(chart, 'exporter', { ...props, ...setUp?.(chart) });
  return Testing.synth(chart);
}

describe('WindowsExporter', () => {
  test('defaults: windows-system at privileged, HostProcess as SYSTEM, the pinned image, config, firewall, Service', () => {
    const out = synth();
    expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//windows-system',
      'DaemonSet/windows-system/windows-exporter',
      'ConfigMap/windows-system/windows-exporter-config',
      'Service/windows-system/windows-exporter',
    ]);
    expect(objectOf(out, 'Namespace').metadata.labels).toEqual(PRIVILEGED);

    const pod = podSpecOf(out, 'DaemonSet');
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(pod.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    });
    expect(pod.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
    ]);
    expect(pod.volumes).toEqual([{ name: 'windows-exporter-config', configMap: { name: 'windows-exporter-config' } }]);
    const [exporter] = pod.containers;
    expect(exporter.name).toBe('windows-exporter');
    expect(exporter.image).toBe(IMAGE);
    expect(exporter.args).toEqual(['--config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/config.yml']);
    expect(exporter.ports).toEqual([{ containerPort: 9182, name: 'http' }]);
    expect(exporter.readinessProbe?.httpGet).toEqual({ path: '/health', port: 9182, scheme: 'HTTP' });
    expect(exporter.volumeMounts).toEqual([
      { name: 'windows-exporter-config', mountPath: '/config.yml', subPath: 'config.yml' },
    ]);
    expect(exporter.resources).toEqual({
      requests: { cpu: '100m', memory: '600Mi' },
      limits: { cpu: '500m', memory: '600Mi' },
    });
    expect(pod.initContainers?.map((c) => [c.name, c.image])).toEqual([['configure-firewall', IMAGE]]);
    expect(pod.initContainers?.[0].command).toEqual([
      'powershell.exe',
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      "Remove-NetFirewallRule -DisplayName 'windows-exporter' -ErrorAction SilentlyContinue; New-NetFirewallRule -DisplayName 'windows-exporter' -Direction Inbound -Profile Any -Action Allow -LocalPort 9182 -Protocol TCP | Out-Null",
    ]);

    expect(objectOf(out, 'ConfigMap').data).toEqual({
      'config.yml':
        'collectors:\n  enabled: "[defaults],container"\ncollector:\n  service:\n    include: containerd|kubelet\n',
    });
    const service = objectOf(out, 'Service');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.ports).toEqual([{ name: 'http', port: 9182, targetPort: 9182 }]);
    expect(service.spec.selector).toEqual(objectOf(out, 'DaemonSet').spec.selector.matchLabels);
  });

  test('the rule engine finds nothing at error or warning in its output', () => {
    const out = synth({ podMonitor: true });
    expect(validateManifests(out).filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('collectors, config, port, taints, a PodMonitor and no firewall rule, as asked', () => {
    const out = synth({
      name: 'node-metrics',
      collectors: ['[defaults]', 'process'],
      config: { collector: { process: { include: 'w3wp' } }, log: { level: 'warn' } },
      port: 9100,
      firewallRule: false,
      taints: [{ key: 'dedicated', value: 'win', effect: 'NoExecute' }],
      podMonitor: { labels: { release: 'prometheus' }, interval: '30s' },
    });
    const pod = podSpecOf(out, 'DaemonSet');
    expect(pod.initContainers).toBeUndefined();
    expect(pod.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'win', effect: 'NoExecute' }]);
    expect(pod.containers[0].ports).toEqual([{ containerPort: 9100, name: 'http' }]);
    expect(parse(objectOf(out, 'ConfigMap', 'node-metrics-config').data['config.yml'])).toEqual({
      collectors: { enabled: '[defaults],process' },
      web: { 'listen-address': ':9100' },
      collector: { process: { include: 'w3wp' } },
      log: { level: 'warn' },
    });
    expect(objectOf(out, 'PodMonitor')).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: {
        name: 'node-metrics',
        namespace: 'windows-system',
        labels: {
          'app.kubernetes.io/name': 'windows-exporter',
          'app.kubernetes.io/instance': 'node-metrics',
          release: 'prometheus',
        },
      },
      spec: {
        jobLabel: 'app.kubernetes.io/name',
        selector: {
          matchLabels: { 'app.kubernetes.io/name': 'windows-exporter', 'app.kubernetes.io/instance': 'node-metrics' },
        },
        podMetricsEndpoints: [{ port: 'http', scheme: 'http', interval: '30s' }],
      },
    });
  });

  test('a given privileged Namespace is used as it is, never relabelled', () => {
    const out = synth(undefined, (chart) => ({
      namespace: new kplus.Namespace(chart, 'ns', { metadata: { name: 'monitoring', labels: PRIVILEGED } }),
    }));
    expect(out.filter((o) => o.kind === 'Namespace').map((o) => [o.metadata.name, o.metadata.labels])).toEqual([
      ['monitoring', PRIVILEGED],
    ]);
    expect(out.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata.namespace)).toEqual([
      'monitoring',
      'monitoring',
      'monitoring',
    ]);
  });

  test('a given Namespace that is not privileged is refused at synth, and left unlabelled', () => {
    const chart = new Chart(Testing.app(), 'monitoring');
    const ns = new kplus.Namespace(chart, 'ns', { metadata: { name: 'monitoring' } });
    new WindowsExporter(chart, 'exporter', { namespace: ns });
    expect(() => Testing.synth(chart)).toThrow(
      "Namespace 'monitoring' has no pod-security.kubernetes.io/enforce label (the cluster default, usually baseline, applies), which refuses HostProcess pods",
    );
    expect(ns.metadata.getLabel('pod-security.kubernetes.io/enforce')).toBeUndefined();
  });

  test("a name outside the app: refused by default, taken on the user's word with 'privileged-outside-app'", () => {
    expect(() => synth({ namespace: 'monitoring' })).toThrow(
      "Namespace 'monitoring' is not in this app, so its Pod Security level cannot be checked",
    );
    const out = synth({ namespace: 'monitoring', namespacePolicy: 'privileged-outside-app' });
    expect(out.filter((o) => o.kind === 'Namespace')).toEqual([]);
    expect(objectOf(out, 'DaemonSet').metadata.namespace).toBe('monitoring');
  });

  test('bad props: every problem at once, each naming the prop, the value and the fix', () => {
    const chart = new Chart(Testing.app(), 'monitoring');
    const err = captureError(
      () =>
        new WindowsExporter(chart, 'exporter', {
          name: 'Node Metrics',
          collectors: ['cpu,net'],
          config: { collectors: { enabled: 'cpu' }, log: { level: { nested: [{}] } } },
          port: 70000,
          taints: [{ key: '', effect: 'NoSchedule' }],
          podMonitor: { interval: 'often' },
          namespacePolicy: 'label-privileged' as never,
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      'name',
      'taints[0].key',
      'collectors[0]',
      'config.collectors.enabled',
      'config.log.level.nested',
      'port',
      'podMonitor.interval',
      'namespacePolicy',
    ]);
    expect(err.issues.find((i) => i.path === 'port')).toEqual({
      path: 'port',
      message: 'port 70000 is not a TCP port.',
      fix: 'Use an integer from 1 to 65535 (default 9182).',
    });
    expect(err.issues.find((i) => i.path === 'config.collectors.enabled')?.fix).toBe(
      'Remove it and use the collectors prop.',
    );
    expect(chart.node.tryFindChild('exporter')).toBeUndefined();
  });
});

describe('compared field by field with upstream (prometheus-community/windows_exporter at v0.31.8)', () => {
  // kubernetes/windows-exporter-daemonset.yaml, unchanged from v0.31.8 (c73b596) to the copy in the fixtures
  // (589ec15, test/fixtures/realworld/SOURCES.md).
  const upstream = loadManifests(
    readFileSync(join(__dirname, '../fixtures/realworld/windows_exporter__windows-exporter-daemonset.yaml'), 'utf8'),
  ) as Manifest[];
  // kubernetes/windows-exporter-podmonitor.yaml at v0.31.8 (c73b596; last changed b450a50, 2022-02-07), its fields.
  upstream.push({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { labels: { app: 'windows-exporter' }, name: 'windows-exporter', namespace: 'monitoring' },
    spec: {
      jobLabel: 'windows-exporter',
      selector: { matchLabels: { app: 'windows-exporter' } },
      podMetricsEndpoints: [{ port: 'http', scheme: 'http' }],
    },
  });
  // Upstream's namespace, given as a privileged Namespace of the app.
  const ours = synth({ podMonitor: true }, (chart) => ({
    namespace: new ApiObject(chart, 'ns', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'monitoring', labels: PRIVILEGED },
    }),
  }));

  test('every upstream field is ours, or its difference is listed and explained', () => {
    expect(unexplainedDifferences(upstream, ours, WINDOWS_EXPORTER_DIFFERENCES)).toEqual([]);
  });

  test('every listed difference is one: some field under it differs', () => {
    expect(staleDifferences(upstream, ours, WINDOWS_EXPORTER_DIFFERENCES)).toEqual([]);
  });

  test("the image is the facts' pin, by version (the digest is unverified, said in the fact)", () => {
    expect(podSpecOf(ours, 'DaemonSet').containers[0].image).toBe(addonImage('windows-exporter'));
    const fact = ADDON_IMAGE_FACTS['windows-exporter'];
    expect(fact.image).toBe(`ghcr.io/prometheus-community/windows-exporter:${fact.version}`);
    expect(fact.digest).toBeUndefined();
    expect(fact.note).toMatch(/^Digest unverified/);
    expect(fact.upstream).toEqual({
      repo: 'prometheus-community/windows_exporter',
      path: 'kubernetes/windows-exporter-daemonset.yaml',
      commit: 'c73b596c0ebb4088bb9b9422a26903f8a35cec86',
    });
  });
});
