import { readFileSync } from 'fs';
import { join } from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { loadManifests, validateManifests } from 'k8s-windows';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { SmbCsiNodeWindows, type SmbCsiNodeWindowsProps } from 'k8s-windows/addons';
import { ADDON_IMAGE_FACTS, addonImage } from '../../lib/core/facts/addons';
import { SMB_CSI_NODE_WINDOWS_DIFFERENCES } from '../../lib/core/addons/smb-csi-node-windows';
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

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

function synth(props?: SmbCsiNodeWindowsProps, setUp?: (chart: Chart) => SmbCsiNodeWindowsProps): Manifest[] {
  const chart = new Chart(Testing.app(), 'storage');
  new SmbCsiNodeWindows(chart, 'smb', { ...props, ...setUp?.(chart) });
  return Testing.synth(chart);
}

const SOCKET = 'C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock';

describe('SmbCsiNodeWindows', () => {
  test("defaults: windows-system at privileged, HostProcess as SYSTEM, upstream's containers, sizes and priority", () => {
    const out = synth();
    expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//windows-system',
      'DaemonSet/windows-system/smb-csi-node-windows',
    ]);
    expect(objectOf(out, 'Namespace').metadata.labels).toEqual(PRIVILEGED);
    const pod = podSpecOf(out, 'DaemonSet');
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.priorityClassName).toBe('system-node-critical');
    expect(pod.serviceAccountName).toBeUndefined();
    expect(pod.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    });
    expect((pod.initContainers ?? []).map((c) => [c.name, c.image])).toEqual([
      ['init', 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp'],
    ]);
    expect(pod.containers.map((c: Manifest) => [c.name, c.image, c.resources])).toEqual([
      [
        'node-driver-registrar',
        'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.17.0',
        { limits: { memory: '150Mi' }, requests: { cpu: '30m', memory: '40Mi' } },
      ],
      [
        'smb',
        'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp',
        { limits: { memory: '600Mi' }, requests: { cpu: '10m', memory: '40Mi' } },
      ],
    ]);
    expect(pod.containers[1].env).toEqual([
      { name: 'CSI_ENDPOINT', value: `unix://${SOCKET}` },
      { name: 'KUBE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
    ]);
    expect(validateManifests(out).filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('options: the mapping flag, the registrar image and your ServiceAccount', () => {
    const pod = podSpecOf(
      synth({
        removeSmbMappingDuringUnmount: false,
        registrarImage: 'mirror/registrar:v2.17.0',
        serviceAccountName: 'smb-node',
      }),
      'DaemonSet',
    );
    expect(pod.containers[1].args).toContain('--remove-smb-mapping-during-unmount=false');
    expect(pod.containers[0].image).toBe('mirror/registrar:v2.17.0');
    expect(pod.serviceAccountName).toBe('smb-node');
  });

  test('bad props: every problem at once', () => {
    const chart = new Chart(Testing.app(), 'storage');
    const err = captureError(
      () =>
        new SmbCsiNodeWindows(chart, 'smb', {
          name: 'SMB',
          registrarImage: 'a b',
          removeSmbMappingDuringUnmount: 'yes' as never,
          serviceAccountName: 'Bad_Name',
          namespacePolicy: 'label-privileged' as never,
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      'name',
      'registrarImage',
      'removeSmbMappingDuringUnmount',
      'serviceAccountName',
      'namespacePolicy',
    ]);
  });

  test('Pulumi: the same pod as the construct; bad args in one InputPropertiesError', async () => {
    const taints = [{ key: 'os', value: 'windows', effect: 'NoSchedule' as const }];
    const smb = new lib.SmbCsiNodeWindows('smb', { taints, namespace: 'storage' });
    await resolved(smb.daemonSet.daemonSet.urn);
    const ds = registered.find(
      (r) =>
        r.type === 'kubernetes:apps/v1:DaemonSet' && (r.inputs as Manifest).metadata.name === 'smb-csi-node-windows',
    )?.inputs as Manifest;
    expect(ds.metadata.namespace).toBe('storage');
    const cdk8sPod = podSpecOf(
      synth({ taints, namespace: 'storage', namespacePolicy: 'privileged-outside-app' }),
      'DaemonSet',
    );
    const pulumiPod = ds.spec.template.spec;
    for (const field of [
      'os',
      'hostNetwork',
      'nodeSelector',
      'tolerations',
      'securityContext',
      'priorityClassName',
      'initContainers',
      'containers',
    ] as const) {
      expect([field, pulumiPod[field]]).toEqual([field, cdk8sPod[field]]);
    }
    const errors = inputErrorsOf(() => new lib.SmbCsiNodeWindows('bad', { registrarImage: '' }));
    expect(errors.map((e) => e.propertyPath)).toEqual(['registrarImage']);
  });
});

describe('compared field by field with upstream (kubernetes-csi/csi-driver-smb, deploy/v1.20.3)', () => {
  // deploy/v1.20.3/csi-smb-node-windows-hostprocess.yaml at 95c6968 (test/fixtures/addons/SOURCES.md).
  const upstream = loadManifests(
    readFileSync(
      join(__dirname, '../fixtures/addons/csi-driver-smb__v1.20.3__csi-smb-node-windows-hostprocess.yaml'),
      'utf8',
    ),
  ) as Manifest[];
  const ours = synth(undefined, (chart) => ({
    namespace: new ApiObject(chart, 'ns', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'storage', labels: PRIVILEGED },
    }),
  }));

  test('every upstream field is ours, or its difference is listed and explained', () => {
    expect(unexplainedDifferences(upstream, ours, SMB_CSI_NODE_WINDOWS_DIFFERENCES, ['DaemonSet'])).toEqual([]);
  });

  test('every listed difference is one', () => {
    expect(staleDifferences(upstream, ours, SMB_CSI_NODE_WINDOWS_DIFFERENCES)).toEqual([]);
  });

  test("the images are the facts' pins, the ones upstream's manifest runs (digests unverified, said in the fact)", () => {
    const images = (list: Manifest[]) =>
      [...(podSpecOf(list, 'DaemonSet').initContainers ?? []), ...podSpecOf(list, 'DaemonSet').containers].map(
        (c) => c.image,
      );
    expect(images(ours)).toEqual(images(upstream));
    expect(images(ours)).toContain(addonImage('smb-csi-node-windows'));
    expect(ADDON_IMAGE_FACTS['smb-csi-node-windows'].digest).toBeUndefined();
    expect(ADDON_IMAGE_FACTS['smb-csi-node-windows'].note).toMatch(/Digests unverified/);
  });
});
