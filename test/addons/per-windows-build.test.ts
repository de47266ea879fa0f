import { ApiObject, Chart, Testing } from 'cdk8s';
import { validateManifests, windowsNodeTarget, WindowsValidationError } from 'k8s-windows';
import { WindowsKarpenterNodePool } from 'k8s-windows/cdk8s';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { perWindowsBuild } from 'k8s-windows/addons';
import { mockPulumi, inputErrorsOf, resolved } from '../pulumi/mocks';
import { type Manifest } from '../helpers/cdk8s';

const { registered } = mockPulumi();
let lib: typeof k8sWindows;
beforeAll(async () => {
  // Load after setMocks so @pulumi/kubernetes registers against the mocked runtime.
  lib = await import('k8s-windows/pulumi');
});

const KARPENTER = {
  role: 'KarpenterNodeRole-prod',
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
};
const IMAGES = { '2019': 'vendor/agent:1.2-ltsc2019', '2022': 'vendor/agent:1.2-ltsc2022' };
const GPU_TAINT = { key: 'gpu', value: 'true', effect: 'NoSchedule' as const };

/** A vendor agent that is not HostProcess, as a user would write it. */
const AGENT = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'monitoring' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
        initContainers: [{ name: 'setup', image: 'vendor/agent:1.2' }],
        containers: [
          { name: 'agent', image: 'vendor/agent:1.2' },
          { name: 'sidecar', image: 'vendor/sidecar:1' },
        ],
      },
    },
  },
};

describe('perWindowsBuild (cdk8s)', () => {
  test("one DaemonSet per release the pools run, each with its image, build selector and pools' taints", () => {
    const chart = new Chart(Testing.app(), 'agents');
    const pool2019 = { nodeTarget: windowsNodeTarget({ release: '2019', taints: [GPU_TAINT] }) };
    const pool2022 = new WindowsKarpenterNodePool(chart, 'win', {
      ...KARPENTER,
      name: 'windows-2022',
      release: '2022',
    });
    const agent = new ApiObject(chart, 'agent', AGENT);
    const copies = perWindowsBuild(agent, [pool2022, pool2019], { images: IMAGES, containers: ['setup', 'agent'] });
    expect(copies.map((c) => c.node.id)).toEqual(['agent-2019', 'agent-2022']);
    const out = Testing.synth(chart) as Manifest[];
    const daemonSets = out.filter((o) => o.kind === 'DaemonSet');
    expect(daemonSets.map((d) => d.metadata.name)).toEqual(['agent-2019', 'agent-2022']);
    const [ds2019, ds2022] = daemonSets;
    expect(ds2019.metadata.namespace).toBe('monitoring');
    expect(ds2019.spec.selector).toEqual({ matchLabels: { app: 'agent', 'k8s-windows.io/windows-release': '2019' } });
    expect(ds2019.spec.template.metadata.labels).toEqual({ app: 'agent', 'k8s-windows.io/windows-release': '2019' });
    expect(ds2019.spec.template.spec).toEqual({
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
      tolerations: [
        { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
        { key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
      ],
      initContainers: [{ name: 'setup', image: 'vendor/agent:1.2-ltsc2019' }],
      containers: [
        { name: 'agent', image: 'vendor/agent:1.2-ltsc2019' },
        { name: 'sidecar', image: 'vendor/sidecar:1' },
      ],
    });
    expect(ds2022.spec.template.spec.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(ds2022.spec.template.spec.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
    ]);
    expect(ds2022.spec.template.spec.containers[0].image).toBe('vendor/agent:1.2-ltsc2022');
  });

  test("lint finds nothing in the copies of an agent whose images match each copy's build", () => {
    const chart = new Chart(Testing.app(), 'agents');
    const resources = { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '100m', memory: '100Mi' } };
    const agent = new ApiObject(chart, 'agent', {
      ...AGENT,
      spec: {
        ...AGENT.spec,
        template: {
          ...AGENT.spec.template,
          spec: { containers: [{ name: 'agent', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', resources }] },
        },
      },
    });
    const pools = [
      { nodeTarget: windowsNodeTarget({ release: '2019' }) },
      { nodeTarget: windowsNodeTarget({ release: '2022' }) },
    ];
    perWindowsBuild(agent, pools, {
      images: {
        '2019': 'mcr.microsoft.com/windows/nanoserver:1809',
        '2022': 'mcr.microsoft.com/windows/nanoserver:ltsc2022',
      },
    });
    expect(validateManifests(Testing.synth(chart))).toEqual([]);
  });

  test('bad input: every problem at once, and the DaemonSet stays', () => {
    const chart = new Chart(Testing.app(), 'agents');
    const agent = new ApiObject(chart, 'agent', AGENT);
    const unpinned = { nodeTarget: windowsNodeTarget({}) };
    const pool2025 = { nodeTarget: windowsNodeTarget({ release: '2025' }) };
    let err: unknown;
    try {
      perWindowsBuild(agent, [unpinned, pool2025], { images: { '2019': 'vendor/agent:1.2-ltsc2019' }, containers: [] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WindowsValidationError);
    expect((err as WindowsValidationError).issues.map((i) => [i.path, i.message])).toEqual([
      ['pools[0]', 'the pool runs no pinned Windows release, so its build is unknown.'],
      ['images.2025', 'images has no image for Windows Server 2025, which a pool runs.'],
      ['containers', 'containers [] names no container.'],
    ]);
    expect((Testing.synth(chart) as Manifest[]).map((o) => o.metadata.name)).toEqual(['agent']);
  });
});

describe('perWindowsBuild (Pulumi)', () => {
  test('the same copies from DaemonSet args; bad input in one InputPropertiesError', async () => {
    const pools = [
      { nodeTarget: windowsNodeTarget({ release: '2019', taints: [GPU_TAINT] }) },
      { nodeTarget: windowsNodeTarget({ release: '2022' }) },
    ];
    const { apiVersion: _v, kind: _k, ...args } = AGENT;
    const copies = lib.perWindowsBuild('agent', args, pools, { images: IMAGES, containers: ['setup', 'agent'] });
    await resolved(copies[1].urn);
    const inputs = registered
      .filter((r) => r.type === 'kubernetes:apps/v1:DaemonSet' && /^agent-/.test((r.inputs as Manifest).metadata.name))
      .map((r) => r.inputs as Manifest)
      .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    expect(inputs.map((d) => d.metadata.name)).toEqual(['agent-2019', 'agent-2022']);
    const chart = new Chart(Testing.app(), 'agents');
    perWindowsBuild(new ApiObject(chart, 'agent', AGENT), pools, { images: IMAGES, containers: ['setup', 'agent'] });
    const cdk8s = (Testing.synth(chart) as Manifest[]).filter((o) => o.kind === 'DaemonSet');
    expect(inputs.map((d) => d.spec)).toEqual(cdk8s.map((d) => d.spec));
    const errors = inputErrorsOf(() => lib.perWindowsBuild('bad', args, pools, { images: {} }));
    expect(errors.map((e) => e.propertyPath)).toEqual(['images.2019', 'images.2022']);
  });
});
