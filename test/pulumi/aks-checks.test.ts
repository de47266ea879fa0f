import * as pulumi from '@pulumi/pulumi';
import type * as containerservice from '@pulumi/azure-native/containerservice';
import { windowsClusterProfile } from 'k8s-windows/pulumi/aks';
import { parseTaintString, releaseForAksOsSku } from '../../lib/core/cloud/aks-agent-pool';
import { parseAzureVmSize } from '../../lib/core/cloud/aks-vm-size';
import { aksAgentPoolWarnings, checkAksAgentPoolInputs } from '../../lib/pulumi/aks/agent-pool-checks';
import { aksClusterWarnings, checkAksClusterForWindows } from '../../lib/pulumi/aks/cluster';
import { mockPulumi } from './mocks';

const { warn } = mockPulumi();

const GOOD_POOL = {
  agentPoolName: 'win1',
  osType: 'Windows',
  osSKU: 'Windows2022',
  mode: 'User',
  nodeTaints: ['os=windows:NoSchedule'],
  vmSize: 'Standard_D4s_v5',
  orchestratorVersion: '1.32',
};

describe('parseAzureVmSize', () => {
  test.each([
    ['Standard_D4s_v5', 'amd64', 16],
    ['Standard_D2s_v5', 'amd64', 8],
    ['Standard_D4ls_v5', 'amd64', 8],
    ['Standard_E4-2ds_v5', 'amd64', 32],
    ['Standard_D4as_v6', 'amd64', 16],
    ['Standard_B2s', 'amd64', 4],
    ['Standard_D4ps_v5', 'arm64', 16],
    ['Standard_E8pds_v6', 'arm64', 64],
    ['Standard_B2pts_v2', 'arm64', undefined],
    ['Standard_D2_v2', 'amd64', undefined],
    ['Standard_NC24ads_A100_v4', 'amd64', undefined],
  ])('%s: %s, %s GiB', (name, arch, memoryGiB) => {
    const parsed = parseAzureVmSize(name);
    expect(parsed?.arch).toBe(arch);
    expect(parsed?.memoryGiB).toBe(memoryGiB);
  });

  test('names outside the convention are not parsed', () => {
    expect(parseAzureVmSize('d4s_v5')).toBeUndefined();
    expect(parseAzureVmSize('Basic_A1')).toBeUndefined();
  });

  test('takes the name apart', () => {
    expect(parseAzureVmSize('Standard_E4-2ds_v5')).toEqual({
      name: 'Standard_E4-2ds_v5',
      family: 'E',
      vcpus: 4,
      features: 'ds',
      version: 5,
      arch: 'amd64',
      memoryGiB: 32,
    });
  });
});

describe('parseTaintString', () => {
  test('key=value:Effect and key:Effect', () => {
    expect(parseTaintString('os=windows:NoSchedule')).toEqual({
      ok: true,
      taint: { key: 'os', value: 'windows', effect: 'NoSchedule' },
    });
    expect(parseTaintString('example.com/dedicated:NoExecute')).toEqual({
      ok: true,
      taint: { key: 'example.com/dedicated', effect: 'NoExecute' },
    });
  });

  test.each([
    ['os=windows:NO_SCHEDULE', "Write 'os=windows:NoSchedule'."],
    ['os=windows', "Write e.g. 'os=windows:NoSchedule'."],
    ['os=windows:Sometimes', 'Use one of NoSchedule, PreferNoSchedule, NoExecute.'],
    ['bad key=windows:NoSchedule', "Use a key such as 'os' or 'example.com/dedicated'."],
    ['os=-windows-:NoSchedule', 'Use at most 63 letters'],
  ])('%s is refused', (text, fix) => {
    const parsed = parseTaintString(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.fix).toContain(fix);
  });
});

describe('checkAksAgentPoolInputs', () => {
  test('a good Windows pool passes', () => {
    expect(checkAksAgentPoolInputs(GOOD_POOL)).toEqual([]);
    expect(aksAgentPoolWarnings(GOOD_POOL)).toEqual([]);
  });

  test('Linux pools are not checked', () => {
    expect(checkAksAgentPoolInputs({ osType: 'Linux', mode: 'System', agentPoolName: 'systempool1' })).toEqual([]);
    expect(checkAksAgentPoolInputs({ mode: 'System' })).toEqual([]);
  });

  test('every problem of a bad pool at once', () => {
    const issues = checkAksAgentPoolInputs({
      agentPoolName: 'Windows1',
      osType: 'Windows',
      osSKU: 'Windows2019',
      orchestratorVersion: '1.33.1',
      mode: 'System',
      nodeTaints: ['os=windows:NO_SCHEDULE', 'gpu'],
      vmSize: 'Standard_D4ps_v5',
    });
    expect(issues.map((i) => i.path)).toEqual([
      'osSKU',
      'agentPoolName',
      'mode',
      'nodeTaints[0]',
      'nodeTaints[1]',
      'vmSize',
    ]);
    expect(issues[0].fix).toBe(
      "Move to release '2022' or '2025' and rebuild the images on its base (https://learn.microsoft.com/azure/aks/upgrade-windows-os).",
    );
    expect(issues[1].fix).toBe("Use a name such as 'window'.");
    expect(issues[5].fix).toBe("Use an x86_64 size such as 'Standard_D4s_v5'.");
  });

  test('osSKU must be a Windows osSKU; a release needs its first Kubernetes minor', () => {
    expect(checkAksAgentPoolInputs({ ...GOOD_POOL, osSKU: 'Ubuntu' }).map((i) => i.path)).toEqual(['osSKU']);
    expect(
      checkAksAgentPoolInputs({ ...GOOD_POOL, osSKU: 'Windows2025', orchestratorVersion: '1.31', enableFIPS: true }),
    ).toEqual([
      expect.objectContaining({
        path: 'orchestratorVersion',
        message: expect.stringContaining('Kubernetes 1.32 or newer'),
      }),
    ]);
    // Windows Server 2025 needs the FIPS image: false is an error, unset a warning (the docs disagree on the default).
    const ws2025 = { ...GOOD_POOL, osSKU: 'Windows2025', orchestratorVersion: '1.33' };
    expect(checkAksAgentPoolInputs({ ...ws2025, enableFIPS: false }).map((i) => i.path)).toEqual(['enableFIPS']);
    expect(checkAksAgentPoolInputs(ws2025)).toEqual([]);
    expect(aksAgentPoolWarnings(ws2025)).toEqual([expect.objectContaining({ ruleId: 'aks-windows-fips' })]);
    expect(checkAksAgentPoolInputs({ ...GOOD_POOL, vmSize: 'garbage' }).map((i) => i.path)).toEqual(['vmSize']);
    expect(checkAksAgentPoolInputs({ ...GOOD_POOL, orchestratorVersion: 'latest' }).map((i) => i.path)).toEqual([
      'orchestratorVersion',
    ]);
    expect(
      checkAksAgentPoolInputs(
        { ...GOOD_POOL, osSKU: 'Windows2019', orchestratorVersion: '1.32.7' },
        { date: '2026-02-28' },
      ),
    ).toEqual([]);
    // From 2026-03-01 AKS takes no Windows2019 pool on any version: the finding is on osSKU, with the dates.
    expect(
      checkAksAgentPoolInputs(
        { ...GOOD_POOL, osSKU: 'Windows2019', orchestratorVersion: '1.32.7' },
        { date: '2026-11-27' },
      ),
    ).toEqual([
      {
        ruleId: 'aks-windows-release',
        messageId: 'release-version',
        severity: 'error',
        path: 'osSKU',
        message:
          'AKS retired Windows Server 2019 on 2026-03-01: no new pools on any Kubernetes version; its node images are deleted from 2027-04-01, after which existing pools cannot scale.',
        fix: "Move to release '2022' or '2025' and rebuild the images on its base (https://learn.microsoft.com/azure/aks/upgrade-windows-os).",
      },
    ]);
  });

  test('a pool with no NoSchedule/NoExecute taint is a warning, as on EKS and GKE (AKS does not taint)', () => {
    for (const nodeTaints of [undefined, [], ['os=windows:PreferNoSchedule']]) {
      expect(checkAksAgentPoolInputs({ ...GOOD_POOL, nodeTaints })).toEqual([]);
      expect(aksAgentPoolWarnings({ ...GOOD_POOL, nodeTaints })).toEqual([
        expect.objectContaining({
          ruleId: 'windows-node-pool-untainted',
          path: 'nodeTaints',
          fix: expect.stringContaining("'os=windows:NoSchedule'"),
        }),
      ]);
    }
    expect(aksAgentPoolWarnings({ ...GOOD_POOL, nodeTaints: ['dedicated=win:NoExecute'] })).toEqual([]);
  });

  test('values not known yet are skipped', () => {
    const unknown = pulumi.output('x');
    expect(
      checkAksAgentPoolInputs({
        osType: 'Windows',
        osSKU: unknown,
        agentPoolName: unknown,
        mode: unknown,
        nodeTaints: [unknown],
        vmSize: unknown,
        orchestratorVersion: unknown,
      }),
    ).toEqual([]);
  });

  test('warnings: osSKU unset, deprecated release, small VM size', () => {
    expect(
      aksAgentPoolWarnings({ ...GOOD_POOL, osSKU: undefined, vmSize: 'Standard_B2s' }).map((w) => w.ruleId),
    ).toEqual(['windows-release-unpinned', 'windows-node-memory']);
    expect(aksAgentPoolWarnings({ ...GOOD_POOL, osSKU: 'Windows2019' }).map((w) => w.ruleId)).toEqual([
      'windows-release-deprecated',
    ]);
    expect(aksAgentPoolWarnings({ ...GOOD_POOL, osType: 'Linux', vmSize: 'Standard_B1s' })).toEqual([]);
  });

  test('releaseForAksOsSku reads the release table', () => {
    expect(releaseForAksOsSku('Windows2025')).toBe('2025');
    expect(releaseForAksOsSku('Windows2004')).toBeUndefined();
  });
});

describe('windowsClusterProfile', () => {
  test('builds windowsProfile with a secret password and requires Azure CNI', async () => {
    const profile = windowsClusterProfile({
      adminUsername: 'winadmin',
      adminPassword: pulumi.secret('Xy7!plenty-long'),
    });
    expect(profile.networkProfile).toEqual({ networkPlugin: 'azure' });
    expect(profile.windowsProfile.adminUsername).toBe('winadmin');
    expect(Object.keys(profile.windowsProfile)).toEqual(['adminUsername', 'adminPassword']);
    expect(await pulumi.isSecret(profile.windowsProfile.adminPassword)).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    // The profile spreads into the cluster args as they are.
    const clusterArgs: containerservice.ManagedClusterArgs = {
      resourceGroupName: 'rg',
      windowsProfile: profile.windowsProfile,
      networkProfile: { ...profile.networkProfile, networkPluginMode: 'overlay' },
    };
    expect(checkAksClusterForWindows({ ...clusterArgs, windowsProfile: { adminUsername: 'winadmin' } })).toEqual([]);
  });

  test('a literal password is made secret, with a warning', async () => {
    const profile = windowsClusterProfile({ adminUsername: 'winadmin', adminPassword: 'Xy7!plenty-long' });
    expect(await pulumi.isSecret(profile.windowsProfile.adminPassword)).toBe(true);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      expect.stringContaining('[aks-windows-password-plaintext] adminPassword'),
    ]);
  });

  test('gMSA, license type and CSI proxy', () => {
    expect(
      windowsClusterProfile({
        adminUsername: 'winadmin',
        adminPassword: pulumi.secret('p'),
        gmsa: { dnsServer: '10.0.0.4', rootDomainName: 'corp.example.com' },
        licenseType: 'Windows_Server',
        enableCSIProxy: true,
      }).windowsProfile,
    ).toMatchObject({
      gmsaProfile: { enabled: true, dnsServer: '10.0.0.4', rootDomainName: 'corp.example.com' },
      licenseType: 'Windows_Server',
      enableCSIProxy: true,
    });
    expect(
      windowsClusterProfile({ adminUsername: 'winadmin', adminPassword: pulumi.secret('p'), gmsa: true }).windowsProfile
        .gmsaProfile,
    ).toEqual({ enabled: true });
  });

  test('every bad input at once', () => {
    let errors: { propertyPath: string }[] = [];
    try {
      windowsClusterProfile({
        adminUsername: 'Admin',
        adminPassword: 'short',
        gmsa: { dnsServer: '10.0.0.4' },
        licenseType: 'BYOL' as never,
      });
    } catch (e) {
      expect(pulumi.InputPropertiesError.isInstance(e)).toBe(true);
      errors = (e as pulumi.InputPropertiesError).errors;
    }
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'adminUsername',
      'adminPassword',
      'gmsa.rootDomainName',
      'licenseType',
    ]);
  });
});

describe('osSKU left to AKS: the fix names what the version takes', () => {
  test('on 1.37 the fix offers Windows2025 only; with no version, the default and its 1.37 change', () => {
    const { osSKU: _sku, ...unpinned } = GOOD_POOL;
    const fixOf = (props: Record<string, unknown>): string | undefined =>
      aksAgentPoolWarnings(props).find((w) => w.ruleId === 'windows-release-unpinned')?.fix;
    expect(fixOf({ ...unpinned, orchestratorVersion: '1.37' })).toBe(
      "Set osSKU (Kubernetes 1.37 takes 'Windows2025').",
    );
    expect(fixOf({ ...unpinned, orchestratorVersion: '1.33' })).toBe(
      "Set osSKU (Kubernetes 1.33 takes 'Windows2022' or 'Windows2025').",
    );
    expect(fixOf({ ...unpinned, orchestratorVersion: undefined })).toBe(
      "Set osSKU, e.g. 'Windows2022' (or 'Windows2025' from Kubernetes 1.37).",
    );
  });
});

describe('checkAksClusterForWindows', () => {
  const GOOD_CLUSTER = {
    resourceGroupName: 'rg',
    windowsProfile: { adminUsername: 'winadmin', adminPassword: 'Xy7!plenty-long' },
    networkProfile: { networkPlugin: 'azure' },
    agentPoolProfiles: [{ name: 'system', mode: 'System', osType: 'Linux', vmSize: 'Standard_D2s_v5' }],
  };

  test("an inline Windows pool without orchestratorVersion is gated against the cluster's kubernetesVersion", () => {
    const { orchestratorVersion: _version, ...inline } = GOOD_POOL;
    const cluster = {
      ...GOOD_CLUSTER,
      kubernetesVersion: '1.37',
      agentPoolProfiles: [...GOOD_CLUSTER.agentPoolProfiles, { ...inline, name: 'win1', agentPoolName: undefined }],
    };
    // The inline pool's finding is its pool rule's, still named by aks-windows-cluster in settings.
    expect(checkAksClusterForWindows(cluster)).toEqual([
      {
        ruleId: 'aks-windows-release',
        messageId: 'release-version',
        severity: 'error',
        formerly: 'aks-windows-cluster',
        path: 'kubernetesVersion',
        message: expect.stringMatching(
          /^agentPoolProfiles\[1\] sets no orchestratorVersion, so it runs the cluster's: AKS runs Windows Server 2022 nodes on Kubernetes 1\.36 at the newest; '1\.37' is newer/,
        ),
        fix: "Use release '2025', or Kubernetes 1.36.",
      },
    ]);
    expect(checkAksClusterForWindows({ ...cluster, kubernetesVersion: '1.36' })).toEqual([]);
  });

  test('a cluster created for Windows passes', () => {
    expect(checkAksClusterForWindows(GOOD_CLUSTER)).toEqual([]);
    expect(aksClusterWarnings(GOOD_CLUSTER)).toEqual([]);
  });

  test('no windowsProfile and kubenet are refused, with the fix', () => {
    const issues = checkAksClusterForWindows({ resourceGroupName: 'rg', networkProfile: { networkPlugin: 'kubenet' } });
    expect(issues.map((i) => i.path)).toEqual(['windowsProfile', 'networkProfile.networkPlugin']);
    expect(issues[0].message).toContain('cannot be added later');
    expect(issues[1].fix).toContain("networkPlugin 'azure'");
  });

  test('admin user, password and gMSA settings', () => {
    const issues = checkAksClusterForWindows({
      ...GOOD_CLUSTER,
      windowsProfile: {
        adminUsername: 'administrator',
        adminPassword: 'P@ssw0rd',
        gmsaProfile: { enabled: true, rootDomainName: 'corp.example.com' },
      },
    });
    expect(issues.map((i) => i.path)).toEqual([
      'windowsProfile.adminUsername',
      'windowsProfile.adminPassword',
      'windowsProfile.gmsaProfile.dnsServer',
    ]);
  });

  test('inline Windows pools are checked like AgentPools', () => {
    const issues = checkAksClusterForWindows({
      ...GOOD_CLUSTER,
      agentPoolProfiles: [
        ...GOOD_CLUSTER.agentPoolProfiles,
        {
          name: 'windowspool',
          osType: 'Windows',
          osSKU: 'Windows2022',
          mode: 'User',
          nodeTaints: ['os=windows:NoSchedule'],
        },
      ],
    });
    expect(issues.map((i) => i.path)).toEqual(['agentPoolProfiles[1].name']);
  });

  test('values not known yet are skipped', () => {
    expect(checkAksClusterForWindows({ windowsProfile: pulumi.output({ adminUsername: 'admin' }) })).toEqual([]);
  });

  test('warnings: network plugin unset', () => {
    expect(aksClusterWarnings({ ...GOOD_CLUSTER, networkProfile: undefined }).map((w) => w.path)).toEqual([
      'networkProfile.networkPlugin',
    ]);
    expect(aksClusterWarnings({ ...GOOD_CLUSTER, networkProfile: { networkPlugin: 'none' } })).toEqual([]);
  });

  test('errors: bring-your-own CNI (AzureCNIOnlyForWindows) and the Cilium dataplane (Linux only)', () => {
    expect(checkAksClusterForWindows({ ...GOOD_CLUSTER, networkProfile: { networkPlugin: 'none' } })).toEqual([
      expect.objectContaining({
        path: 'networkProfile.networkPlugin',
        message: expect.stringContaining('AzureCNIOnlyForWindows'),
      }),
    ]);
    expect(
      checkAksClusterForWindows({
        ...GOOD_CLUSTER,
        networkProfile: { networkPlugin: 'azure', networkDataplane: 'cilium' },
      }),
    ).toEqual([expect.objectContaining({ path: 'networkProfile.networkDataplane' })]);
    expect(
      checkAksClusterForWindows({
        ...GOOD_CLUSTER,
        networkProfile: { networkPlugin: 'azure', networkPluginMode: 'overlay' },
      }),
    ).toEqual([]);
  });
});
