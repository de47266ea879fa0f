import * as pulumi from '@pulumi/pulumi';
import { schedulingFor, type Taint } from 'k8s-windows';
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, tolerates } from '../../lib/core/target';
import type * as gkeModule from 'k8s-windows/pulumi/gke';
import { inputErrorsOf, mockPulumi, resolved } from './mocks';

const { registered, findings } = mockPulumi();

let gke: typeof gkeModule;
beforeAll(async () => {
  // Load after setMocks so the provider module registers against the mocked runtime.
  gke = await import('k8s-windows/pulumi/gke');
});

const CLUSTER = { name: 'gke1', location: 'europe-west1' };

async function nodePoolInputs(
  name: string,
  args: Partial<gkeModule.WindowsNodePoolArgs> = {},
): Promise<{ pool: gkeModule.WindowsNodePool; inputs: Record<string, unknown> }> {
  const pool = new gke.WindowsNodePool(name, { cluster: CLUSTER, ...args });
  await resolved(pool.nodePool.urn);
  const found = registered.filter((r) => r.type === 'gcp:container/nodePool:NodePool' && r.name === name);
  expect(found).toHaveLength(1);
  return { pool, inputs: found[0].inputs };
}

/** `[rule-id, path]` of each finding the components reported in this test. */
function warnings(): [string, string][] {
  return findings.map((f) => [f.ruleId, f.path]);
}

describe('gke.WindowsNodePool', () => {
  test('defaults: LTSC containerd image, LTSC2022, the Windows taint in GKE spelling, n2-standard-4, 2 nodes', async () => {
    const { pool, inputs } = await nodePoolInputs('win');
    expect(inputs).toEqual({
      cluster: 'gke1',
      location: 'europe-west1',
      nodeConfig: {
        imageType: 'WINDOWS_LTSC_CONTAINERD',
        windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2022' },
        machineType: 'n2-standard-4',
        taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
      },
      nodeCount: 2,
    });
    expect(pool.release).toBe('2022');
    expect(registered.find((r) => r.type === 'k8s-windows:gke:WindowsNodePool')?.name).toBe('win');
    expect(warnings()).toEqual([]);
  });

  test.each([
    ['2019', 'OS_VERSION_LTSC2019'],
    ['2022', 'OS_VERSION_LTSC2022'],
  ] as const)('release %s sets osversion %s', async (release, osversion) => {
    const { inputs } = await nodePoolInputs(`w${release}`, { release });
    expect(inputs.nodeConfig).toMatchObject({ imageType: 'WINDOWS_LTSC_CONTAINERD', windowsNodeConfig: { osversion } });
  });

  test('labels, taints, machine type, version, project and extra args', async () => {
    const taints: Taint[] = [WINDOWS_TAINT, { key: 'example.com/gpu', effect: 'NoExecute' }];
    const { pool, inputs } = await nodePoolInputs('win2', {
      cluster: { ...CLUSTER, project: 'proj-1' },
      labels: { 'example.com/pool': 'iis' },
      taints,
      machineType: 'n2-highmem-4',
      kubernetesVersion: '1.31.5-gke.1000',
      nodeConfig: { diskSizeGb: 200, serviceAccount: 'nodes@proj-1.iam.gserviceaccount.com' },
      nodePoolArgs: { name: 'win-pool', management: { autoRepair: true } },
    });
    expect(inputs).toMatchObject({
      name: 'win-pool',
      project: 'proj-1',
      version: '1.31.5-gke.1000',
      management: { autoRepair: true },
      nodeConfig: {
        diskSizeGb: 200,
        serviceAccount: 'nodes@proj-1.iam.gserviceaccount.com',
        machineType: 'n2-highmem-4',
        labels: { 'example.com/pool': 'iis' },
        taints: [
          { key: 'os', value: 'windows', effect: 'NO_SCHEDULE' },
          { key: 'example.com/gpu', value: '', effect: 'NO_EXECUTE' },
        ],
      },
    });
    expect(pool.nodeTarget.labels).toEqual({
      'example.com/pool': 'iis',
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
  });

  test('autoscaling: per-zone min/max, initialNodeCount instead of nodeCount', async () => {
    const { inputs } = await nodePoolInputs('auto', { scaling: { minSize: 0, maxSize: 4, desiredSize: 1 } });
    expect(inputs).toMatchObject({ autoscaling: { minNodeCount: 0, maxNodeCount: 4 }, initialNodeCount: 1 });
    expect(inputs).not.toHaveProperty('nodeCount');
  });

  test('fixed size: nodeCount only', async () => {
    const { inputs } = await nodePoolInputs('fixed', { scaling: { desiredSize: 3 } });
    expect(inputs.nodeCount).toBe(3);
    expect(inputs).not.toHaveProperty('autoscaling');
    expect(inputs).not.toHaveProperty('initialNodeCount');
  });

  test("nodeTarget tolerates the pool's taints and GKE's own Windows taint", async () => {
    const { pool, inputs } = await nodePoolInputs('win3');
    expect(pool.nodeTarget.taints).toEqual([WINDOWS_TAINT, GKE_WINDOWS_TAINT]);
    const { tolerations, nodeSelector } = schedulingFor(pool.nodeTarget);
    const applied = (inputs.nodeConfig as { taints: { key: string; value: string; effect: string }[] }).taints;
    expect(applied).toEqual([{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }]);
    expect(tolerations.some((t) => tolerates(t, WINDOWS_TAINT))).toBe(true);
    expect(tolerations.some((t) => tolerates(t, GKE_WINDOWS_TAINT))).toBe(true);
    expect(nodeSelector).toEqual({ 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' });
  });

  test('GKE_WINDOWS_TAINT given as a pool taint is not doubled', async () => {
    const { pool } = await nodePoolInputs('win4', { taints: [GKE_WINDOWS_TAINT] });
    expect(pool.nodeTarget.taints).toEqual([GKE_WINDOWS_TAINT]);
  });

  test('an untainted pool warns (GKE may taint it itself: unverified) and still tolerates GKE_WINDOWS_TAINT', async () => {
    const { pool, inputs } = await nodePoolInputs('win5', { taints: [] });
    expect((inputs.nodeConfig as Record<string, unknown>).taints).toBeUndefined();
    expect(pool.nodeTarget.taints).toEqual([GKE_WINDOWS_TAINT]);
    expect(warnings()).toEqual([['windows-node-pool-untainted', 'taints']]);
  });

  test('warnings: a machine type under 8 GB and a deprecated release', async () => {
    await nodePoolInputs('small', { machineType: 'e2-medium', release: '2019' });
    expect(warnings()).toEqual([
      ['windows-release-deprecated', 'release'],
      ['windows-node-memory', 'machineType'],
    ]);
    expect(findings[1]).toMatchObject({ severity: 'warning', resource: 'small' });
    expect(findings[1].message).toMatch(/^'e2-medium' has 4 GiB/);
  });

  test('every bad input is reported at once, before anything is registered', () => {
    const errors = inputErrorsOf(
      () =>
        new gke.WindowsNodePool('bad', {
          cluster: { ...CLUSTER, autopilot: true, vpcNative: false, hasLinuxNodePool: false },
          release: '2025',
          machineType: 't2a-standard-4',
          taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' as never }],
          labels: { 'kubernetes.io/os': 'linux' },
          scaling: { minSize: 3, maxSize: 1 },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'cluster.autopilot',
      'cluster.vpcNative',
      'cluster.hasLinuxNodePool',
      'release',
      'machineType',
      'labels["kubernetes.io/os"]',
      'taints[0].effect',
      'scaling.minSize',
    ]);
    expect(errors[3].reason).toContain("Use release '2019' or '2022'");
    expect(errors[4].reason).toContain("'n2-standard-4'");
    expect(errors[6].reason).toContain("Write 'NoSchedule'");
    expect(registered).toEqual([]);
  });

  test('missing cluster name/location, an unknown release, an old Kubernetes version', () => {
    expect(
      inputErrorsOf(
        () =>
          new gke.WindowsNodePool('bad2', {
            cluster: { name: '', location: undefined as never },
            release: '1809' as never,
          }),
      ).map((e) => e.propertyPath),
    ).toEqual(['cluster.name', 'cluster.location', 'release']);
    expect(
      inputErrorsOf(
        () => new gke.WindowsNodePool('bad3', { cluster: CLUSTER, release: '2022', kubernetesVersion: '1.22' }),
      ),
    ).toEqual([{ propertyPath: 'kubernetesVersion', reason: expect.stringContaining('Kubernetes 1.23 or newer') }]);
  });

  test('clusterArgs: Autopilot and routes-based clusters are refused; a Standard VPC-native one passes', async () => {
    const errors = inputErrorsOf(
      () =>
        new gke.WindowsNodePool('bad4', {
          cluster: CLUSTER,
          clusterArgs: { enableAutopilot: true, networkingMode: 'ROUTES' },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['clusterArgs.enableAutopilot', 'clusterArgs.networkingMode']);
    const { inputs } = await nodePoolInputs('ok', {
      clusterArgs: {
        networkingMode: 'VPC_NATIVE',
        ipAllocationPolicy: {},
        removeDefaultNodePool: true,
        initialNodeCount: 1,
      },
    });
    expect(inputs.cluster).toBe('gke1');
  });
});

describe('issue 9: uniform bad-input handling', () => {
  test.each([undefined, null])('args %p: one InputPropertiesError', (args) => {
    expect(inputErrorsOf(() => new gke.WindowsNodePool('w', args as unknown as gkeModule.WindowsNodePoolArgs))).toEqual(
      [{ propertyPath: 'args', reason: expect.stringContaining('needs an args object') }],
    );
  });

  test('an Output for a checked arg gets a clear reason, not a toJSON complaint', () => {
    const errors = inputErrorsOf(
      () =>
        new gke.WindowsNodePool('w', {
          cluster: CLUSTER,
          machineType: pulumi.output('n2-standard-4') as unknown as string,
        }),
    );
    expect(errors).toEqual([{ propertyPath: 'machineType', reason: expect.stringContaining('must be a plain value') }]);
  });
});
