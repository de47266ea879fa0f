import { ApiObject, Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { WindowsHostProcessDaemonSet, WindowsDaemonSet } from 'k8s-windows/cdk8s';
import { captureError, objectOf, podSpecOf, silenceWarnings } from '../helpers/cdk8s';

const AGENT = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

let chart: Chart;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

test('the defaults: HostProcess pod on every Windows node, in a privileged namespace', () => {
  const ds = new WindowsHostProcessDaemonSet(chart, 'agent', {
    initContainers: [{ image: AGENT, name: 'firewall' }],
    containers: [{ image: AGENT, portNumber: 9182 }],
  });
  expect(ds).toBeInstanceOf(kplus.DaemonSet);
  expect(ds).toBeInstanceOf(WindowsDaemonSet);
  const manifests = Testing.synth(chart);
  const daemonSet = objectOf(manifests, 'DaemonSet');
  expect(daemonSet.metadata.namespace).toBe('windows-system');
  const spec = podSpecOf(manifests, 'DaemonSet');
  expect(spec.hostNetwork).toBe(true);
  expect(spec.os).toEqual({ name: 'windows' });
  expect(spec.securityContext).toEqual({
    windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' },
  });
  // Every container, init included, inherits HostProcess from the pod; none disagrees.
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) expect(c.securityContext).toBeUndefined();
  expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
  expect(spec.tolerations).toEqual([
    { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
  ]);
  expect(objectOf(manifests, 'Namespace').metadata).toEqual({
    name: 'windows-system',
    labels: { 'pod-security.kubernetes.io/enforce': 'privileged' },
  });
  expect(ds.hostProcess).toBe(true);
  // The Namespace is written before the DaemonSet so one `kubectl apply -f` creates both.
  expect(manifests.map((m) => m.kind)).toEqual(['Namespace', 'DaemonSet']);
});

test('agents in the same namespace share one Namespace object', () => {
  new WindowsHostProcessDaemonSet(chart, 'a', { containers: [{ image: AGENT }] });
  new WindowsHostProcessDaemonSet(chart, 'b', { containers: [{ image: AGENT }], namespace: 'windows-system' });
  new WindowsHostProcessDaemonSet(chart, 'c', {
    containers: [{ image: AGENT }],
    metadata: { namespace: 'monitoring' },
    namespacePolicy: 'label-privileged',
  });
  new WindowsHostProcessDaemonSet(chart, 'd', {
    containers: [{ image: AGENT }],
    namespace: 'monitoring',
  });
  const manifests = Testing.synth(chart);
  expect(manifests.filter((m) => m.kind === 'Namespace').map((m) => m.metadata.name)).toEqual([
    'windows-system',
    'monitoring',
  ]);
});

test('an allowed account and a pinned release', () => {
  new WindowsHostProcessDaemonSet(chart, 'agent', {
    containers: [{ image: AGENT }],
    windows: { runAsUserName: 'NT AUTHORITY\\SYSTEM', release: '2022' },
  });
  const spec = podSpecOf(Testing.synth(chart), 'DaemonSet');
  expect(spec.securityContext?.windowsOptions?.runAsUserName).toBe('NT AUTHORITY\\SYSTEM');
  expect(spec.nodeSelector?.['node.kubernetes.io/windows-build']).toBe('10.0.20348');
  expect(spec.tolerations).toHaveLength(2);
});

test('tolerateAllTaints adds a wildcard toleration next to the Windows selector', () => {
  new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], tolerateAllTaints: true });
  const spec = podSpecOf(Testing.synth(chart), 'DaemonSet');
  expect(spec.tolerations?.[0]).toEqual({ operator: 'Exists' });
  expect(spec.nodeSelector?.['kubernetes.io/os']).toBe('windows');
});

test('bad HostProcess props are all reported at once', () => {
  const err = captureError(
    () =>
      new WindowsHostProcessDaemonSet(chart, 'agent', {
        containers: [{ image: AGENT, securityContext: { ensureNonRoot: true } }],
        hostNetwork: false,
        windows: { runAsUserName: 'ContainerUser', securityProfile: 'restricted', gmsa: 'webapp01' },
      }),
  );
  expect(err.issues.map((i) => i.path).sort()).toEqual([
    'hostNetwork',
    'spec.template.spec.containers[0].securityContext.runAsNonRoot',
    'windows.gmsa',
    'windows.runAsUserName',
    'windows.securityProfile',
  ]);
  // The construct's own prop names the fix, not the manifest field (hostprocess-run-as-non-root's cdk8s fix).
  expect(err.issues.find((i) => i.path.endsWith('runAsNonRoot'))).toMatchObject({
    ruleId: 'hostprocess-run-as-non-root',
    fix: "Remove `securityContext: { ensureNonRoot }`; choose the account with `windows: { runAsUserName: 'NT AUTHORITY\\\\SYSTEM' }` (or Local service, NetworkService).",
  });
  expect(err.message).toMatch(/^test\/agent: 5 Windows validation problems/);
});

test('Hyper-V isolation is refused', () => {
  const err = captureError(
    () =>
      new WindowsHostProcessDaemonSet(chart, 'agent', {
        containers: [{ image: AGENT }],
        windows: { isolation: 'hyperv' },
      }),
  );
  expect(err.issues.map((i) => i.path)).toEqual(['windows.isolation']);
});

test('a container added later that says it is not HostProcess fails at synth', () => {
  const ds = new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }] });
  ds.addContainer({ name: 'late', image: AGENT, securityContext: { ensureNonRoot: true } });
  const err = captureError(() => Testing.synth(chart));
  expect(err.message).toMatch(/^test\/agent: /);
  expect(err.issues.map((i) => i.path)).toEqual(['spec.template.spec.containers[1].securityContext.runAsNonRoot']);
});

describe('a given namespace', () => {
  test('a privileged kplus.Namespace is used as is', () => {
    const ns = new kplus.Namespace(chart, 'ns', {
      metadata: { name: 'node-agents', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } },
    });
    const ds = new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: ns });
    const manifests = Testing.synth(chart);
    expect(objectOf(manifests, 'DaemonSet').metadata.namespace).toBe('node-agents');
    expect(manifests.filter((m) => m.kind === 'Namespace')).toHaveLength(1);
    expect(ds.namespace).toBe(ns);
  });

  test('a label added after construction counts', () => {
    const ns = new ApiObject(chart, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'agents' } });
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: ns });
    ns.metadata.addLabel('pod-security.kubernetes.io/enforce', 'privileged');
    expect(objectOf(Testing.synth(chart), 'DaemonSet').metadata.namespace).toBe('agents');
  });

  test('a namespace that is not privileged fails at synth with the fix', () => {
    const ns = new kplus.Namespace(chart, 'ns', {
      metadata: { name: 'apps', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    });
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: ns });
    const err = captureError(() => Testing.synth(chart));
    expect(err.message).toMatch(/^test\/agent: 1 Windows validation problem/);
    expect(err.issues[0].message).toMatch(/enforces Pod Security level 'baseline'/);
    expect(err.issues[0].fix).toMatch(/pod-security\.kubernetes\.io\/enforce: privileged/);
  });

  test('a namespace without the label fails at synth', () => {
    const ns = new kplus.Namespace(chart, 'ns', { metadata: { name: 'apps' } });
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: ns });
    expect(() => Testing.synth(chart)).toThrow(/has no pod-security\.kubernetes\.io\/enforce label/);
  });

  test('an object that is not a Namespace, or a disagreeing metadata.namespace, is refused', () => {
    const cm = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const err = captureError(
      () =>
        new WindowsHostProcessDaemonSet(chart, 'agent', {
          containers: [{ image: AGENT }],
          namespace: cm,
          metadata: { namespace: 'other' },
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['metadata.namespace', 'namespace']);
  });
});

describe('never weakens a namespace it does not own', () => {
  const kinds = (manifests: readonly { kind: string; metadata: { name: string } }[]): string[] =>
    manifests.map((m) => `${m.kind}/${m.metadata.name}`);

  // kube-node-lease and any other kube- namespace too (issue 24): the prefix is the cluster's.
  test.each(['default', 'kube-system', 'kube-public', 'kube-node-lease', 'kube-flannel'])(
    "'%s' is never labelled, even when asked",
    (name) => {
      const err = captureError(
        () =>
          new WindowsHostProcessDaemonSet(chart, 'agent', {
            containers: [{ image: AGENT }],
            namespace: name,
            namespacePolicy: 'label-privileged',
          }),
      );
      expect(err.issues.map((i) => i.path)).toEqual(['namespacePolicy']);
      expect(err.issues[0].message).toContain(`Pod Security off for every pod in '${name}'`);
      expect(err.issues[0].fix).toMatch(/privileged-outside-app/);
    },
  );

  test("namespace: 'default' is refused at synth and no Namespace/default is emitted", () => {
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: 'default' });
    const err = captureError(() => Testing.synth(chart));
    expect(err.issues).toEqual([
      expect.objectContaining({ path: 'namespace', message: expect.stringMatching(/'default' is not in this app/) }),
    ]);
    expect(chart.node.findAll().some((c) => c instanceof ApiObject && c.kind === 'Namespace')).toBe(false);
  });

  test('a name the user says is privileged in the cluster is used as is, with nothing emitted', () => {
    const ds = new WindowsHostProcessDaemonSet(chart, 'agent', {
      containers: [{ image: AGENT }],
      namespace: 'kube-system',
      namespacePolicy: 'privileged-outside-app',
    });
    const manifests = Testing.synth(chart);
    expect(kinds(manifests)).toEqual([`DaemonSet/${objectOf(manifests, 'DaemonSet').metadata.name}`]);
    expect(objectOf(manifests, 'DaemonSet').metadata.namespace).toBe('kube-system');
    expect(ds.namespace).toBeUndefined();
    expect(ds.namespaceName).toBe('kube-system');
  });

  test('a baseline Namespace of the app named by string is refused, never duplicated', () => {
    new kplus.Namespace(chart, 'apps', {
      metadata: { name: 'apps', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    });
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }], namespace: 'apps' });
    expect(() => Testing.synth(chart)).toThrow(/Namespace 'apps' enforces Pod Security level 'baseline'/);
  });

  test("'label-privileged' labels the app's own Namespace object instead of emitting a second one", () => {
    new kplus.Namespace(chart, 'apps', {
      metadata: { name: 'apps', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    });
    new WindowsHostProcessDaemonSet(chart, 'agent', {
      containers: [{ image: AGENT }],
      namespace: 'apps',
      namespacePolicy: 'label-privileged',
    });
    const namespaces = Testing.synth(chart).filter((m) => m.kind === 'Namespace');
    expect(namespaces).toHaveLength(1);
    expect(namespaces[0].metadata.labels).toEqual({ 'pod-security.kubernetes.io/enforce': 'privileged' });
  });

  test('a second Namespace with the name of the one it owns is a synth error, not two objects', () => {
    new WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: AGENT }] });
    new kplus.Namespace(chart, 'mine', { metadata: { name: 'windows-system' } });
    const err = captureError(() => Testing.synth(chart));
    expect(err.issues[0].message).toMatch(/2 Namespace objects named 'windows-system'/);
  });

  test('agents in two charts of one app share one owned Namespace', () => {
    const app = Testing.app();
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    new WindowsHostProcessDaemonSet(a, 'agent', { containers: [{ image: AGENT }] });
    new WindowsHostProcessDaemonSet(b, 'agent', { containers: [{ image: AGENT }] });
    const all = app.charts.flatMap((c) => Testing.synth(c));
    expect(all.filter((m) => m.kind === 'Namespace')).toHaveLength(1);
  });
});

test('agent resources by default: 100m CPU request, 500m limit, 600Mi memory (not 1 CPU and 2 GiB per node)', () => {
  new WindowsHostProcessDaemonSet(chart, 'agent', {
    initContainers: [{ image: AGENT, name: 'firewall' }],
    containers: [{ image: AGENT }],
  });
  new WindowsDaemonSet(chart, 'plain', { containers: [{ image: AGENT }] });
  const manifests = Testing.synth(chart);
  const agentResources = {
    requests: { cpu: '100m', memory: '600Mi' },
    limits: { cpu: '500m', memory: '600Mi' },
  };
  for (const ds of manifests.filter((m) => m.kind === 'DaemonSet')) {
    const spec = ds.spec.template.spec;
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) expect(c.resources).toEqual(agentResources);
  }
});

test('resources the user gives win over the agent defaults', () => {
  new WindowsHostProcessDaemonSet(chart, 'agent', {
    containers: [{ image: AGENT, resources: { memory: { limit: Size.mebibytes(128) } } }],
  });
  expect(podSpecOf(Testing.synth(chart), 'DaemonSet').containers[0].resources).toEqual({
    limits: { memory: '128Mi' },
    requests: { memory: '128Mi' },
  });
});
