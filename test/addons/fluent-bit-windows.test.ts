import { readFileSync } from 'fs';
import { join } from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { loadManifests, validateManifests } from 'k8s-windows';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { FluentBitWindows, type FluentBitWindowsProps } from 'k8s-windows/addons';
import { ADDON_IMAGE_FACTS, addonImage } from '../../lib/core/facts/addons';
import { FLUENT_BIT_WINDOWS_DIFFERENCES } from '../../lib/core/addons/fluent-bit-windows';
import { inputErrorsOf, mockPulumi, resolved } from '../pulumi/mocks';
import { captureError, objectOf, podSpecOf, silenceWarnings, type Manifest } from '../helpers/cdk8s';
import { unexplainedDifferences, staleDifferences } from './compare';

const { registered } = mockPulumi();
let lib: typeof k8sWindows;
beforeAll(async () => {
  // Load after setMocks so @pulumi/kubernetes registers against the mocked runtime.
  lib = await import('k8s-windows/pulumi');
});

const PRIVILEGED = { 'pod-security.kubernetes.io/enforce': 'privileged' };
const CLOUDWATCH = {
  name: 'cloudwatch_logs',
  settings: { region: 'eu-west-1', log_group_name: '/eks/windows', auto_create_group: true },
};

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

function synth(props?: Partial<FluentBitWindowsProps>, setUp?: (chart: Chart) => Partial<FluentBitWindowsProps>) {
  const chart = new Chart(Testing.app(), 'logging');
  new FluentBitWindows(chart, 'logs', { outputs: [CLOUDWATCH], ...props, ...setUp?.(chart) });
  return Testing.synth(chart) as Manifest[];
}

describe('FluentBitWindows', () => {
  test('defaults: HostProcess as SYSTEM tailing the container logs, its config in a ConfigMap, upstream sizes', () => {
    const out = synth();
    expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//windows-system',
      'DaemonSet/windows-system/fluent-bit-windows',
      'ConfigMap/windows-system/fluent-bit-windows-config',
    ]);
    expect(objectOf(out, 'Namespace').metadata.labels).toEqual(PRIVILEGED);
    const pod = podSpecOf(out, 'DaemonSet');
    expect(pod.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.serviceAccountName).toBeUndefined();
    expect(pod.containers).toEqual([
      {
        name: 'fluent-bit-windows',
        image: 'fluent/fluent-bit:windows-2019-2.2.2',
        imagePullPolicy: 'IfNotPresent',
        command: ['%CONTAINER_SANDBOX_MOUNT_POINT%/fluent-bit/bin/fluent-bit.exe'],
        args: ['-c', '%CONTAINER_SANDBOX_MOUNT_POINT%/fluent-bit-config/fluent-bit.conf'],
        resources: { limits: { memory: '500Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        volumeMounts: [{ name: 'fluent-bit-windows-config', mountPath: '/fluent-bit-config' }],
      },
    ]);
    expect(pod.volumes).toEqual([
      { name: 'fluent-bit-windows-config', configMap: { name: 'fluent-bit-windows-config' } },
    ]);
    expect(objectOf(out, 'ConfigMap').data['fluent-bit.conf']).toBe(
      [
        '[SERVICE]',
        '    Flush     5',
        '    Log_Level info',
        '    Daemon    off',
        '',
        '[INPUT]',
        '    Name             tail',
        '    Tag              kube.*',
        '    Path             C:\\var\\log\\containers\\*.log',
        '    Exclude_Path     C:\\var\\log\\containers\\fluent-bit-windows-*',
        '    multiline.parser cri',
        '    DB               C:\\var\\log\\fluent-bit-windows-containers.db',
        '    Mem_Buf_Limit    5MB',
        '    Skip_Long_Lines  On',
        '    Refresh_Interval 10',
        '    Rotate_Wait      30',
        '',
        '[OUTPUT]',
        '    Name              cloudwatch_logs',
        '    Match             kube.*',
        '    region            eu-west-1',
        '    log_group_name    /eks/windows',
        '    auto_create_group true',
        '',
      ].join('\n'),
    );
    expect(validateManifests(out).filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('kubernetesMetadata: the filter, your ServiceAccount and its token; no RBAC is created', () => {
    const out = synth({ kubernetesMetadata: { serviceAccountName: 'fluent-bit' } });
    const pod = podSpecOf(out, 'DaemonSet');
    expect(pod.serviceAccountName).toBe('fluent-bit');
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(objectOf(out, 'ConfigMap').data['fluent-bit.conf']).toContain(
      '[FILTER]\n    Name            kubernetes\n    Match           kube.*\n',
    );
    expect(out.some((o) => /Role|ServiceAccount/.test(o.kind))).toBe(false);
  });

  test('bad props: every problem at once', () => {
    const chart = new Chart(Testing.app(), 'logging');
    const err = captureError(
      () =>
        new FluentBitWindows(chart, 'logs', {
          outputs: [{ name: 'bad name', match: '', settings: { 'a b': 'x', region: 'two\nlines' } }],
          kubernetesMetadata: { serviceAccountName: '' },
          logLevel: 'loud' as never,
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      'outputs[0].name',
      'outputs[0].match',
      'outputs[0].settings.a b',
      'outputs[0].settings.region',
      'kubernetesMetadata.serviceAccountName',
      'logLevel',
    ]);
    const none = captureError(() => new FluentBitWindows(new Chart(Testing.app(), 'x'), 'logs', { outputs: [] }));
    expect(none.issues.map((i) => [i.path, i.fix])).toEqual([
      [
        'outputs',
        "Give at least one, e.g. [{ name: 'cloudwatch_logs', settings: { region: 'eu-west-1', log_group_name: 'windows' } }].",
      ],
    ]);
  });

  test('Pulumi: the same pod and config as the construct; bad args in one InputPropertiesError', async () => {
    const taints = [{ key: 'os', value: 'windows', effect: 'NoSchedule' as const }];
    const logs = new lib.FluentBitWindows('logs', { taints, namespace: 'logging', outputs: [CLOUDWATCH] });
    await resolved(logs.daemonSet.daemonSet.urn);
    const ds = registered.find(
      (r) => r.type === 'kubernetes:apps/v1:DaemonSet' && (r.inputs as Manifest).metadata.name === 'fluent-bit-windows',
    )?.inputs as Manifest;
    const cm = registered.find(
      (r) =>
        r.type === 'kubernetes:core/v1:ConfigMap' &&
        (r.inputs as Manifest).metadata.name === 'fluent-bit-windows-config',
    )?.inputs as Manifest;
    const cdk8s = synth({ taints, namespace: 'logging', namespacePolicy: 'privileged-outside-app' });
    expect(cm.data).toEqual(objectOf(cdk8s, 'ConfigMap').data);
    const cdk8sPod = podSpecOf(cdk8s, 'DaemonSet');
    const pulumiPod = ds.spec.template.spec;
    for (const field of [
      'os',
      'hostNetwork',
      'nodeSelector',
      'tolerations',
      'securityContext',
      'containers',
      'volumes',
    ] as const) {
      expect([field, pulumiPod[field]]).toEqual([field, cdk8sPod[field]]);
    }
    const errors = inputErrorsOf(() => new lib.FluentBitWindows('bad', { outputs: [] }));
    expect(errors.map((e) => e.propertyPath)).toEqual(['outputs']);
  });
});

describe('compared field by field with upstream (Siemens-Healthineers/K2s, Fluent Bit for Windows)', () => {
  // addons/logging/manifests/logging/fluentbit/windows/daemonset-windows.yaml at eaa769c
  // (test/fixtures/realworld-fresh/SOURCES.md).
  const upstream = loadManifests(
    readFileSync(
      join(__dirname, '../fixtures/realworld-fresh/kustomize/k2s-fluentbit-windows/daemonset-windows.yaml'),
      'utf8',
    ),
  ) as Manifest[];
  const ours = synth(undefined, (chart) => ({
    namespace: new ApiObject(chart, 'ns', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'windows-logging', labels: PRIVILEGED },
    }),
  }));

  test('every upstream field is ours, or its difference is listed and explained', () => {
    expect(unexplainedDifferences(upstream, ours, FLUENT_BIT_WINDOWS_DIFFERENCES, ['DaemonSet'])).toEqual([]);
  });

  test('every listed difference is one', () => {
    expect(staleDifferences(upstream, ours, FLUENT_BIT_WINDOWS_DIFFERENCES)).toEqual([]);
  });

  test("the image is the facts' pin (digest unverified, said in the fact)", () => {
    expect(podSpecOf(ours, 'DaemonSet').containers[0].image).toBe(addonImage('fluent-bit-windows'));
    expect(ADDON_IMAGE_FACTS['fluent-bit-windows'].digest).toBeUndefined();
    expect(ADDON_IMAGE_FACTS['fluent-bit-windows'].note).toMatch(/Digest unverified/);
  });
});
