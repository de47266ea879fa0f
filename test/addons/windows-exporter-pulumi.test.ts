import { Chart, Testing } from 'cdk8s';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { WindowsExporter as WindowsExporterConstruct } from 'k8s-windows/addons';
import { validateManifests } from 'k8s-windows';
import { inputErrorsOf, mockPulumi, resolved } from '../pulumi/mocks';
import { podSpecOf, silenceWarnings } from '../helpers/cdk8s';

const { registered, warn } = mockPulumi();

let lib: typeof k8sWindows;
beforeAll(async () => {
  // Load after setMocks so @pulumi/kubernetes registers against the mocked runtime.
  lib = await import('k8s-windows/pulumi');
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the mocked engine registered, as kind/namespace/name, once `exporter` is done. */
async function objects(exporter: k8sWindows.WindowsExporter): Promise<Json[]> {
  await resolved(exporter.urn);
  await resolved(exporter.daemonSet.daemonSet.urn);
  if (exporter.podMonitor) await resolved(exporter.podMonitor.urn);
  return registered.filter((r) => r.type.startsWith('kubernetes:')).map((r) => r.inputs);
}

describe('WindowsExporter (Pulumi)', () => {
  test('defaults: its own Namespace at privileged, the DaemonSet, ConfigMap and Service', async () => {
    const out = await objects(new lib.WindowsExporter('exporter'));
    expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort()).toEqual([
      'ConfigMap/windows-exporter/windows-exporter-config',
      'DaemonSet/windows-exporter/windows-exporter',
      'Namespace//windows-exporter',
      'Service/windows-exporter/windows-exporter',
    ]);
    expect(out.find((o) => o.kind === 'Namespace')?.metadata.labels).toEqual({
      'pod-security.kubernetes.io/enforce': 'privileged',
    });
    const service = out.find((o) => o.kind === 'Service') as Json;
    expect(service.spec).toEqual({
      clusterIP: 'None',
      selector: { 'app.kubernetes.io/name': 'windows-exporter', 'app.kubernetes.io/instance': 'windows-exporter' },
      ports: [{ name: 'http', port: 9182, targetPort: 9182 }],
    });
    expect(registered.find((r) => r.type === 'k8s-windows:kubernetes:WindowsExporter')?.name).toBe('exporter');
    expect(warn).not.toHaveBeenCalled();
  });

  test('the same pod, config and PodMonitor as the cdk8s construct for the same props, and lint-clean', async () => {
    const props = {
      collectors: ['[defaults]', 'container', 'process'],
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' as const }],
      podMonitor: { labels: { release: 'prometheus' } },
    };
    const out = await objects(new lib.WindowsExporter('exporter', { ...props, namespace: 'monitoring' }));
    const emitWarning = silenceWarnings();
    const chart = new Chart(Testing.app(), 'c');
    new WindowsExporterConstruct(chart, 'exporter', {
      ...props,
      namespace: 'monitoring',
      namespacePolicy: 'privileged-outside-app',
    });
    const cdk8s = Testing.synth(chart);
    emitWarning.mockRestore();

    expect(out.some((o) => o.kind === 'Namespace')).toBe(false);
    const pulumiPod = (out.find((o) => o.kind === 'DaemonSet') as Json).spec.template.spec;
    const cdk8sPod = podSpecOf(cdk8s, 'DaemonSet');
    for (const field of ['os', 'hostNetwork', 'nodeSelector', 'tolerations', 'securityContext', 'volumes'] as const) {
      expect([field, pulumiPod[field]]).toEqual([field, cdk8sPod[field]]);
    }
    for (const list of ['containers', 'initContainers'] as const) {
      const pick = (c: Json) => ({
        name: c.name,
        image: c.image,
        command: c.command,
        args: c.args,
        ports: c.ports,
        resources: c.resources,
        volumeMounts: c.volumeMounts,
        readiness: c.readinessProbe?.httpGet,
      });
      expect(pulumiPod[list].map(pick)).toEqual((cdk8sPod[list] as Json[]).map(pick));
    }
    const byKind = (list: Json[], kind: string) => list.find((o) => o.kind === kind) as Json;
    expect(byKind(out, 'ConfigMap').data).toEqual(byKind(cdk8s, 'ConfigMap').data);
    expect(byKind(out, 'PodMonitor')).toEqual(byKind(cdk8s, 'PodMonitor'));
    expect(validateManifests(out).filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('bad args: one InputPropertiesError naming every property', () => {
    const errors = inputErrorsOf(
      () => new lib.WindowsExporter('bad', { port: 0, collectors: [], podMonitor: 'yes' as never }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['collectors', 'port', 'podMonitor']);
    expect(errors[1].reason).toBe('port 0 is not a TCP port. Fix: Use an integer from 1 to 65535 (default 9182).');
    expect(registered.filter((r) => r.name === 'bad')).toEqual([]);
  });
});
