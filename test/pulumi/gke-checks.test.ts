import * as pulumi from '@pulumi/pulumi';
import { parseGceMachineType } from '../../lib/core/cloud/gce-machine-type';
import { isWindowsImageType, releaseForGkeOsVersion } from '../../lib/core/cloud/gke-node-pool';
import { checkGkeClusterForWindows, checkGkeClusterInfo } from '../../lib/pulumi/gke/cluster-checks';
import { checkGkeNodePoolInputs, gkeNodePoolWarnings } from '../../lib/pulumi/gke/node-pool-checks';

const GOOD_POOL = {
  cluster: 'gke1',
  version: '1.31',
  nodeConfig: {
    imageType: 'WINDOWS_LTSC_CONTAINERD',
    windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2022' },
    machineType: 'n2-standard-4',
    taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
  },
};

function withNodeConfig(nodeConfig: Record<string, unknown>): Record<string, unknown> {
  return { ...GOOD_POOL, nodeConfig: { ...GOOD_POOL.nodeConfig, ...nodeConfig } };
}

describe('parseGceMachineType', () => {
  test.each([
    ['n2-standard-4', 'amd64', 16],
    ['n1-standard-2', 'amd64', 7.5],
    ['e2-highcpu-4', 'amd64', 4],
    ['c3-standard-4-lssd', 'amd64', 16],
    ['e2-medium', 'amd64', 4],
    ['n2-custom-4-8192', 'amd64', 8],
    ['custom-2-6144', 'amd64', 6],
    ['t2a-standard-4', 'arm64', undefined],
    ['c4a-highmem-8', 'arm64', undefined],
    ['n4a-standard-2', 'arm64', undefined],
    ['c4-standard-8', 'amd64', undefined],
  ])('%s: %s, %s GB', (name, arch, memoryGiB) => {
    const parsed = parseGceMachineType(name);
    expect(parsed?.arch).toBe(arch);
    expect(parsed?.memoryGiB).toBe(memoryGiB);
  });

  test('names outside the patterns are not parsed', () => {
    expect(parseGceMachineType('Standard_D4s_v5')).toBeUndefined();
  });
});

describe('checkGkeNodePoolInputs', () => {
  test('a good Windows pool passes', () => {
    expect(checkGkeNodePoolInputs(GOOD_POOL)).toEqual([]);
    expect(gkeNodePoolWarnings(GOOD_POOL)).toEqual([]);
  });

  test('Linux pools are not checked', () => {
    expect(
      checkGkeNodePoolInputs({ nodeConfig: { imageType: 'COS_CONTAINERD', machineType: 't2a-standard-4' } }),
    ).toEqual([]);
    expect(checkGkeNodePoolInputs({ cluster: 'gke1' })).toEqual([]);
    expect(isWindowsImageType('windows_ltsc_containerd')).toBe(true);
    expect(isWindowsImageType('UBUNTU_CONTAINERD')).toBe(false);
  });

  test('every problem of a bad pool at once', () => {
    const issues = checkGkeNodePoolInputs(
      withNodeConfig({
        imageType: 'WINDOWS_SAC',
        windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2025' },
        taints: [
          { key: 'os', value: 'windows', effect: 'NoSchedule' },
          { key: 'x', value: 'y', effect: 'Never' },
        ],
        machineType: 'c4a-standard-4',
      }),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'nodeConfig.imageType',
      'nodeConfig.windowsNodeConfig.osversion',
      'nodeConfig.taints[0].effect',
      'nodeConfig.taints[1].effect',
      'nodeConfig.machineType',
    ]);
    expect(issues[1].fix).toBe("Use 'OS_VERSION_LTSC2019' or 'OS_VERSION_LTSC2022'.");
    expect(issues[2].fix).toBe("Write 'NO_SCHEDULE'.");
  });

  test('the image type is compared without regard to case; the release needs its first Kubernetes minor', () => {
    expect(checkGkeNodePoolInputs(withNodeConfig({ imageType: 'windows_ltsc_containerd' }))).toEqual([]);
    expect(checkGkeNodePoolInputs({ ...GOOD_POOL, version: '1.22.3-gke.100' })).toEqual([
      expect.objectContaining({ path: 'version', message: expect.stringContaining('Kubernetes 1.23 or newer') }),
    ]);
  });

  test('values not known yet are skipped', () => {
    const unknown = pulumi.output('x');
    expect(
      checkGkeNodePoolInputs(
        withNodeConfig({
          windowsNodeConfig: { osversion: unknown },
          machineType: unknown,
          taints: [{ key: 'os', effect: unknown }],
        }),
      ),
    ).toEqual([]);
  });

  test('warnings: osversion unset, deprecated release, no taint, small machine type', () => {
    expect(
      gkeNodePoolWarnings(
        withNodeConfig({ windowsNodeConfig: undefined, taints: undefined, machineType: 'e2-small' }),
      ).map((w) => w.ruleId),
    ).toEqual(['windows-node-pool-untainted', 'windows-release-unpinned', 'windows-node-memory']);
    expect(
      gkeNodePoolWarnings(withNodeConfig({ windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2019' } })).map(
        (w) => w.ruleId,
      ),
    ).toEqual(['windows-release-deprecated']);
    expect(
      gkeNodePoolWarnings(
        withNodeConfig({ taints: [{ key: 'os', value: 'windows', effect: 'PREFER_NO_SCHEDULE' }] }),
      ).map((w) => w.ruleId),
    ).toEqual(['windows-node-pool-untainted']);
  });

  test('releaseForGkeOsVersion reads the release table', () => {
    expect(releaseForGkeOsVersion('OS_VERSION_LTSC2019')).toBe('2019');
    expect(releaseForGkeOsVersion('OS_VERSION_UNSPECIFIED')).toBeUndefined();
  });
});

describe('checkGkeClusterForWindows', () => {
  test('a Standard VPC-native cluster passes', () => {
    expect(checkGkeClusterForWindows({ networkingMode: 'VPC_NATIVE', ipAllocationPolicy: {} })).toEqual([]);
    expect(checkGkeClusterForWindows({ initialNodeCount: 1 })).toEqual([]);
    expect(checkGkeClusterForWindows({ removeDefaultNodePool: true, initialNodeCount: 1 })).toEqual([]);
  });

  test('Autopilot and routes-based clusters are refused', () => {
    expect(checkGkeClusterForWindows({ enableAutopilot: true, networkingMode: 'ROUTES' }).map((i) => i.path)).toEqual([
      'enableAutopilot',
      'networkingMode',
    ]);
  });

  test('a cluster whose only pools are Windows has no Linux pool', () => {
    const issues = checkGkeClusterForWindows({
      nodePools: [{ name: 'win', nodeConfig: { imageType: 'WINDOWS_LTSC_CONTAINERD', machineType: 't2a-standard-4' } }],
    });
    expect(issues.map((i) => [i.ruleId, i.path])).toEqual([
      ['gke-windows-linux-pool', 'nodePools'],
      ['gke-windows-machine-type', 'nodePools[0].nodeConfig.machineType'],
    ]);
    expect(issues[0].fix).toContain('Linux NodePool');
    expect(
      checkGkeClusterForWindows({
        nodePools: [
          { name: 'linux', nodeConfig: { imageType: 'COS_CONTAINERD' } },
          { name: 'win', nodeConfig: { imageType: 'WINDOWS_LTSC_CONTAINERD' } },
        ],
      }),
    ).toEqual([]);
    expect(
      checkGkeClusterForWindows({ nodeConfig: { imageType: 'WINDOWS_LTSC_CONTAINERD' } }).map((i) => i.path),
    ).toEqual(['nodePools']);
  });

  test('checkGkeClusterInfo checks the stated facts only', () => {
    expect(checkGkeClusterInfo({ name: 'c', location: 'l' })).toEqual([]);
    expect(
      checkGkeClusterInfo({ name: 'c', location: 'l', vpcNative: true, hasLinuxNodePool: true, autopilot: false }),
    ).toEqual([]);
    expect(
      checkGkeClusterInfo({ name: 'c', location: 'l', vpcNative: false, hasLinuxNodePool: false, autopilot: true }).map(
        (i) => [i.path, i.ruleId],
      ),
    ).toEqual([
      // Judged by the GKE cluster rules, as the policy pack judges a cluster's inputs.
      ['cluster.autopilot', 'gke-windows-autopilot'],
      ['cluster.vpcNative', 'gke-windows-vpc-native'],
      ['cluster.hasLinuxNodePool', 'gke-windows-linux-pool'],
    ]);
  });
});
