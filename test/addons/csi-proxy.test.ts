import { readFileSync } from 'fs';
import { join } from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { loadManifests, validateManifests } from 'k8s-windows';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { CsiProxy, type CsiProxyProps } from 'k8s-windows/addons';
import { ADDON_IMAGE_FACTS, addonImage } from '../../lib/core/facts/addons';
import { CSI_PROXY_DIFFERENCES } from '../../lib/core/addons/csi-proxy';
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
const IMAGE = 'ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2';

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

function synth(props?: CsiProxyProps, setUp?: (chart: Chart) => CsiProxyProps): Manifest[] {
  const chart = new Chart(Testing.app(), 'storage');
  new CsiProxy(chart, 'csi-proxy', { ...props, ...setUp?.(chart) });
  return Testing.synth(chart);
}

describe('CsiProxy', () => {
  test('defaults: windows-system at privileged, HostProcess as SYSTEM on every Windows node, the pinned image', () => {
    const out = synth();
    expect(out.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//windows-system',
      'DaemonSet/windows-system/csi-proxy',
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
    expect(pod.containers).toEqual([
      {
        name: 'csi-proxy',
        image: IMAGE,
        imagePullPolicy: 'IfNotPresent',
        resources: { requests: { cpu: '100m', memory: '600Mi' }, limits: { cpu: '500m', memory: '600Mi' } },
      },
    ]);
    expect(validateManifests(out).filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('bad props: every problem at once; a namespace policy that would label yours is refused', () => {
    const chart = new Chart(Testing.app(), 'storage');
    const err = captureError(
      () =>
        new CsiProxy(chart, 'csi-proxy', {
          name: 'CSI',
          image: ' ',
          namespacePolicy: 'label-privileged' as never,
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['name', 'image', 'namespacePolicy']);
  });

  test('Pulumi: the same pod as the construct; bad args in one InputPropertiesError', async () => {
    const taints = [{ key: 'os', value: 'windows', effect: 'NoSchedule' as const }];
    const proxy = new lib.CsiProxy('csi-proxy', { taints, namespace: 'storage' });
    await resolved(proxy.daemonSet.daemonSet.urn);
    const ds = registered.find((r) => r.type === 'kubernetes:apps/v1:DaemonSet')?.inputs as Manifest;
    expect(ds.metadata).toEqual({
      name: 'csi-proxy',
      namespace: 'storage',
      labels: { 'app.kubernetes.io/name': 'csi-proxy', 'app.kubernetes.io/instance': 'csi-proxy' },
    });
    expect(registered.some((r) => r.type === 'kubernetes:core/v1:Namespace')).toBe(false);
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
      'containers',
    ] as const) {
      expect([field, pulumiPod[field]]).toEqual([field, cdk8sPod[field]]);
    }
    const errors = inputErrorsOf(() => new lib.CsiProxy('bad', { taints: [{ key: 'os', effect: 'Never' as never }] }));
    expect(errors.map((e) => e.propertyPath)).toEqual(['taints[0].effect']);
  });
});

describe('compared field by field with upstream (kubernetes-sigs/sig-windows-tools, hostprocess/csi-proxy)', () => {
  // hostprocess/csi-proxy/csi-proxy.yaml at 401ee6f (test/fixtures/realworld/SOURCES.md; the same as the copy read).
  const upstream = loadManifests(
    readFileSync(join(__dirname, '../fixtures/realworld/sig-windows-tools__csi-proxy.yaml'), 'utf8'),
  ) as Manifest[];
  // The upstream image, as the facts pin it; the rest of ours in a privileged namespace of the app.
  const ours = synth(undefined, (chart) => ({
    namespace: new ApiObject(chart, 'ns', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'storage', labels: PRIVILEGED },
    }),
  }));

  test('every upstream field is ours, or its difference is listed and explained', () => {
    expect(unexplainedDifferences(upstream, ours, CSI_PROXY_DIFFERENCES, ['DaemonSet'])).toEqual([]);
  });

  test('every listed difference is one', () => {
    expect(staleDifferences(upstream, ours, CSI_PROXY_DIFFERENCES)).toEqual([]);
  });

  test("the image is the facts' pin, the one upstream's manifest deploys (digest unverified, said in the fact)", () => {
    expect(podSpecOf(ours, 'DaemonSet').containers[0].image).toBe(addonImage('csi-proxy'));
    expect(podSpecOf(upstream, 'DaemonSet').containers[0].image).toBe(addonImage('csi-proxy'));
    expect(ADDON_IMAGE_FACTS['csi-proxy'].digest).toBeUndefined();
    expect(ADDON_IMAGE_FACTS['csi-proxy'].note).toMatch(/Digest unverified/);
  });
});
