import * as pulumi from '@pulumi/pulumi';
import type * as containerservice from '@pulumi/azure-native/containerservice';
import { schedulingFor, type Taint } from 'k8s-windows';
import { tolerationFor } from '../../lib/core/target';
import { runCloudRules } from '../../lib/core/rules/cloud-runner';
import type * as aksModule from 'k8s-windows/pulumi/aks';
import { inputErrorsOf, mockPulumi, resolved } from './mocks';

const { registered, warn, findings } = mockPulumi();

let aks: typeof aksModule;
beforeAll(async () => {
  // Load after setMocks so the provider module registers against the mocked runtime.
  aks = await import('k8s-windows/pulumi/aks');
});

/** Builds a pool, waits for its agent pool to register and returns the captured inputs. */
async function agentPoolInputs(
  name: string,
  args: Partial<aksModule.WindowsNodePoolArgs> = {},
): Promise<{ pool: aksModule.WindowsNodePool; inputs: Record<string, unknown> }> {
  const pool = new aks.WindowsNodePool(name, { resourceGroupName: 'rg', resourceName: 'aks1', ...args });
  await resolved(pool.agentPool.urn);
  const found = registered.filter((r) => r.type === 'azure-native:containerservice:AgentPool' && r.name === name);
  expect(found).toHaveLength(1);
  return { pool, inputs: found[0].inputs };
}

const BASE = { resourceGroupName: 'rg', resourceName: 'aks1' };
/** A day before AKS retired Windows Server 2019 (2026-03-01), for the tests of a 2019 pool itself. */
const BEFORE_2019_RETIREMENT = '2026-02-01';
/** Pretends the installed azure-native's AgentPool API version lists Windows2025 (a later SDK). */
function withWindows2025InSdk<T>(run: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const enums = require('@pulumi/azure-native/types/enums/containerservice') as { OSSKU: Record<string, string> };
  enums.OSSKU.Windows2025 = 'Windows2025';
  return run().finally(() => delete enums.OSSKU.Windows2025);
}

describe('aks.WindowsNodePool', () => {
  test('defaults: Windows2022, User mode, the Windows taint, Standard_D4s_v5, 2 nodes', async () => {
    const { pool, inputs } = await agentPoolInputs('win1');
    expect(inputs).toEqual({
      resourceGroupName: 'rg',
      resourceName: 'aks1',
      agentPoolName: 'win1',
      osType: 'Windows',
      osSKU: 'Windows2022',
      mode: 'User',
      vmSize: 'Standard_D4s_v5',
      count: 2,
      nodeTaints: ['os=windows:NoSchedule'],
    });
    expect(pool.release).toBe('2022');
    expect(pool.agentPoolName).toBe('win1');
    const component = registered.find((r) => r.type === 'k8s-windows:aks:WindowsNodePool');
    expect(component?.name).toBe('win1');
  });

  test.each([
    ['2019', 'Windows2019'],
    ['2022', 'Windows2022'],
  ] as const)('release %s sets osSKU %s, no FIPS flag', async (release, osSku) => {
    const { inputs } = await agentPoolInputs(`w${release}`, { release, date: BEFORE_2019_RETIREMENT });
    expect(inputs.osSKU).toBe(osSku);
    expect(inputs.osType).toBe('Windows');
    expect(inputs).not.toHaveProperty('enableFIPS');
  });

  describe('release 2025', () => {
    test("is refused while azure-native's API version lacks the Windows2025 osSKU, with the reason", () => {
      expect(inputErrorsOf(() => new aks.WindowsNodePool('w25', { ...BASE, release: '2025' }))).toEqual([
        {
          propertyPath: 'release',
          reason: expect.stringMatching(
            /API version whose osSKU list lacks 'Windows2025'.*Fix: Use release '2022', or generate a local SDK for a containerservice API version whose osSKU list has 'Windows2025' \(pulumi package add azure-native containerservice <api-version>\) and pass its AgentPool as agentPoolResource\.$/,
          ),
        },
      ]);
    });

    test('with an SDK that has it: osSKU Windows2025 and the FIPS image AKS requires', () =>
      withWindows2025InSdk(async () => {
        const { inputs } = await agentPoolInputs('w2025', { release: '2025', kubernetesVersion: '1.33' });
        expect(inputs.osSKU).toBe('Windows2025');
        expect(inputs.enableFIPS).toBe(true);
      }));

    test('enableFIPS: false and Kubernetes before 1.32 are refused', () =>
      withWindows2025InSdk(async () => {
        const errors = inputErrorsOf(
          () =>
            new aks.WindowsNodePool('w2025', {
              ...BASE,
              release: '2025',
              kubernetesVersion: '1.31',
              agentPoolArgs: { enableFIPS: false },
            }),
        );
        expect(errors.map((e) => e.propertyPath)).toEqual(['kubernetesVersion', 'agentPoolArgs.enableFIPS']);
        expect(errors[1].reason).toMatch(/require a FIPS-enabled image.*Fix: Set enableFIPS: true/);
        return Promise.resolve();
      }));
  });

  test('release 2022 is refused from Kubernetes 1.37 (AKS retires it)', () => {
    expect(
      inputErrorsOf(() => new aks.WindowsNodePool('w22', { ...BASE, release: '2022', kubernetesVersion: '1.37' })),
    ).toEqual([{ propertyPath: 'kubernetesVersion', reason: expect.stringContaining('1.36 at the newest') }]);
  });

  test("the refusals the AKS pool rules make on its args come in the order of the args, in the rules' words", () => {
    const errors = inputErrorsOf(
      () => new aks.WindowsNodePool('windows-pool', { ...BASE, mode: 'System', vmSize: 'Standard_D4ps_v5' }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['agentPoolName', 'mode', 'vmSize']);
    expect(errors[0].reason).toMatch(
      /^Agent pool name "windows-pool" is not valid for a Windows pool: .* \(It defaults to the component name 'windows-pool'\.\) Fix: Set agentPoolName\. Use a name such as '/,
    );
    expect(errors[1].reason).toMatch(/^Agent pool mode "System" is not allowed for a Windows pool/);
    expect(errors[2].reason).toMatch(/^VM size 'Standard_D4ps_v5' has an Arm-based processor/);
  });

  test("vmSize 'garbage' is not an Azure VM size", () => {
    expect(inputErrorsOf(() => new aks.WindowsNodePool('w', { ...BASE, vmSize: 'garbage' }))).toEqual([
      { propertyPath: 'vmSize', reason: expect.stringContaining('is not an Azure VM size name') },
    ]);
  });

  test.each([undefined, null])('args %p: one InputPropertiesError', (args) => {
    expect(inputErrorsOf(() => new aks.WindowsNodePool('w', args as unknown as aksModule.WindowsNodePoolArgs))).toEqual(
      [{ propertyPath: 'args', reason: expect.stringContaining('needs an args object') }],
    );
  });

  test('an Output for a checked arg gets a clear reason', () => {
    const errors = inputErrorsOf(
      () => new aks.WindowsNodePool('w', { ...BASE, vmSize: pulumi.output('Standard_D4s_v5') as unknown as string }),
    );
    expect(errors).toEqual([{ propertyPath: 'vmSize', reason: expect.stringContaining('must be a plain value') }]);
  });

  test('labels, taints, VM size, Kubernetes version and extra AgentPool args', async () => {
    const taints: Taint[] = [
      { key: 'os', value: 'windows', effect: 'NoSchedule' },
      { key: 'example.com/dedicated', effect: 'PreferNoSchedule' },
    ];
    const { pool, inputs } = await agentPoolInputs('win2', {
      labels: { 'example.com/pool': 'iis' },
      taints,
      vmSize: 'Standard_E4s_v5',
      kubernetesVersion: '1.32.4',
      agentPoolArgs: { vnetSubnetID: 'subnet-1', osDiskSizeGB: 128 },
    });
    expect(inputs.nodeLabels).toEqual({ 'example.com/pool': 'iis' });
    expect(inputs.nodeTaints).toEqual(['os=windows:NoSchedule', 'example.com/dedicated:PreferNoSchedule']);
    expect(inputs.vmSize).toBe('Standard_E4s_v5');
    expect(inputs.orchestratorVersion).toBe('1.32.4');
    expect(inputs.vnetSubnetID).toBe('subnet-1');
    expect(inputs.osDiskSizeGB).toBe(128);
    expect(pool.nodeTarget.taints).toEqual(taints);
    expect(pool.nodeTarget.labels).toEqual({
      'example.com/pool': 'iis',
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
  });

  test('a Kubernetes version given as an Output passes through, and is checked once known', async () => {
    const { inputs } = await agentPoolInputs('win3', { release: '2022', kubernetesVersion: pulumi.output('1.34') });
    expect(inputs.orchestratorVersion).toBe('1.34');
    expect(inputs.osSKU).toBe('Windows2022');
  });

  test('autoscaling: enableAutoScaling with minCount/maxCount, count within bounds', async () => {
    const { inputs } = await agentPoolInputs('auto', { scaling: { minSize: 1, maxSize: 5 } });
    expect(inputs).toMatchObject({ enableAutoScaling: true, minCount: 1, maxCount: 5, count: 2 });
  });

  test('explicit autoscaling with a desired size', async () => {
    const { inputs } = await agentPoolInputs('auto2', {
      autoscaling: true,
      scaling: { minSize: 0, maxSize: 3, desiredSize: 1 },
    });
    expect(inputs).toMatchObject({ enableAutoScaling: true, minCount: 0, maxCount: 3, count: 1 });
  });

  test('fixed size: count only', async () => {
    const { inputs } = await agentPoolInputs('fixed', { scaling: { desiredSize: 4 } });
    expect(inputs.count).toBe(4);
    expect(inputs).not.toHaveProperty('enableAutoScaling');
    expect(inputs).not.toHaveProperty('minCount');
    expect(inputs).not.toHaveProperty('maxCount');
  });

  test('nodeTarget: the tolerations workloads get match the taints the pool applies', async () => {
    const { pool, inputs } = await agentPoolInputs('win4', { release: '2019', date: BEFORE_2019_RETIREMENT });
    const scheduling = schedulingFor(pool.nodeTarget);
    expect(scheduling.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(inputs.nodeTaints).toEqual(pool.nodeTarget.taints.map((t) => `${t.key}=${t.value}:${t.effect}`));
    expect(scheduling.tolerations).toEqual(pool.nodeTarget.taints.map(tolerationFor));
    expect(scheduling.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.17763',
    });
    expect(pool.nodeTarget.release).toBe('2019');
  });

  test('every bad input is reported at once, before anything is registered', () => {
    const errors = inputErrorsOf(
      () =>
        new aks.WindowsNodePool('bad', {
          resourceGroupName: 'rg',
          resourceName: 'aks1',
          agentPoolName: 'Winpool',
          release: '2019',
          kubernetesVersion: '1.33',
          mode: 'System',
          vmSize: 'Standard_D4ps_v5',
          taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' as never }],
          scaling: { minSize: 5, maxSize: 2 },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'agentPoolName',
      'release',
      'mode',
      'vmSize',
      'taints[0].effect',
      'scaling.minSize',
    ]);
    expect(errors[1].reason).toContain("Move to release '2022' or '2025'");
    expect(errors[3].reason).toContain("'Standard_D4s_v5'");
    expect(errors[4].reason).toContain("Write 'NoSchedule'");
    expect(registered).toEqual([]);
  });

  test('unknown releases and a 7-character name', () => {
    const errors = inputErrorsOf(
      () =>
        new aks.WindowsNodePool('bad2', {
          resourceGroupName: 'rg',
          resourceName: 'aks1',
          agentPoolName: 'winpool',
          release: 'ltsc2022' as never,
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['agentPoolName', 'release']);
    expect(errors[1].reason).toContain("Write '2022'");
    expect(registered).toEqual([]);
  });

  test('a component name that breaks the pool name rule asks for agentPoolName', () => {
    const errors = inputErrorsOf(
      () => new aks.WindowsNodePool('windows-pool', { resourceGroupName: 'rg', resourceName: 'aks1' }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0].propertyPath).toBe('agentPoolName');
    expect(errors[0].reason).toContain("defaults to the component name 'windows-pool'");
    expect(errors[0].reason).toContain("'window'");
  });

  test('a pool without a NoSchedule taint is refused: windows-node-pool-untainted in its aks-component case', () => {
    const taints: Taint[] = [{ key: 'os', value: 'windows', effect: 'PreferNoSchedule' }];
    const errors = inputErrorsOf(
      () =>
        new aks.WindowsNodePool('notaint', {
          resourceGroupName: 'rg',
          resourceName: 'aks1',
          agentPoolName: 'win5',
          taints,
        }),
    );
    // The rule module owns the refusal, its id and its text: the component's error is its finding.
    const [finding] = runCloudRules({ kind: 'aks-pool-component', props: { taints } }).filter(
      (f) => f.ruleId === 'windows-node-pool-untainted',
    );
    expect(finding).toEqual({
      ruleId: 'windows-node-pool-untainted',
      messageId: 'untainted',
      severity: 'error',
      path: 'taints',
      message:
        'A Windows pool without a NoSchedule or NoExecute taint takes Linux pods that do not select kubernetes.io/os; they then fail to pull their images.',
      fix: "Add the taint { key: 'os', value: 'windows', effect: 'NoSchedule' } ('os=windows:NoSchedule') (workloads get the toleration from the pool's nodeTarget).",
    });
    expect(errors).toEqual([{ propertyPath: 'taints', reason: `${finding.message} Fix: ${finding.fix}` }]);
    expect(findings).toEqual([{ ...finding, resource: 'notaint' }]);
    expect(warn).not.toHaveBeenCalled();
    expect(registered).toEqual([]);
  });

  test('a pool with a NoExecute taint only, or the default taint, is neither refused nor warned about', async () => {
    await agentPoolInputs('win7', { taints: [{ key: 'dedicated', value: 'win', effect: 'NoExecute' }] });
    await agentPoolInputs('win8');
    expect(findings.filter((f) => f.ruleId === 'windows-node-pool-untainted')).toEqual([]);
  });

  test('labels that contradict Windows, min/max without autoscaling, missing cluster names', () => {
    const errors = inputErrorsOf(
      () =>
        new aks.WindowsNodePool('win6', {
          resourceGroupName: '',
          resourceName: undefined as never,
          labels: { 'kubernetes.io/os': 'linux' },
          autoscaling: false,
          scaling: { minSize: 1, maxSize: 3 },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'resourceGroupName',
      'resourceName',
      'labels["kubernetes.io/os"]',
      'scaling',
    ]);
  });

  test('clusterArgs: a cluster without windowsProfile on kubenet is refused', () => {
    const errors = inputErrorsOf(
      () =>
        new aks.WindowsNodePool('win7', {
          resourceGroupName: 'rg',
          resourceName: 'aks1',
          clusterArgs: { resourceGroupName: 'rg', networkProfile: { networkPlugin: 'kubenet' } },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'clusterArgs.windowsProfile',
      'clusterArgs.networkProfile.networkPlugin',
    ]);
    expect(errors[1].reason).toContain('Azure/AKS#1005');
  });

  test('clusterArgs: a good cluster passes; a literal password warns', async () => {
    const { inputs } = await agentPoolInputs('win8', {
      clusterArgs: {
        resourceGroupName: 'rg',
        windowsProfile: { adminUsername: 'winadmin', adminPassword: 'Xy7!plenty-long' },
        networkProfile: { networkPlugin: 'azure', networkPluginMode: 'overlay' },
      },
    });
    expect(inputs.osType).toBe('Windows');
    expect(findings.map((f) => [f.ruleId, f.path])).toEqual([
      ['aks-windows-password-plaintext', 'clusterArgs.windowsProfile.adminPassword'],
    ]);
    // Users still see it printed, rule id first.
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      expect.stringContaining('[aks-windows-password-plaintext] clusterArgs.windowsProfile.adminPassword'),
    ]);
  });

  test('warnings: a 4 GiB VM size and a deprecated release', async () => {
    await agentPoolInputs('small', {
      agentPoolName: 'small',
      vmSize: 'Standard_B2s',
      release: '2019',
      date: BEFORE_2019_RETIREMENT,
    });
    expect(findings.map((f) => [f.ruleId, f.path, f.resource])).toEqual([
      ['windows-release-deprecated', 'release', 'small'],
      ['windows-node-memory', 'vmSize', 'small'],
    ]);
    expect(findings[1].message).toMatch(/^'Standard_B2s' has 4 GiB/);
  });
});

describe('aks.WindowsNodePool: facts of 2026 (issue 23)', () => {
  test("release '2019' on Kubernetes 1.31 is refused: AKS retired it on 2026-03-01, with the date and the way out", () => {
    expect(
      inputErrorsOf(() => new aks.WindowsNodePool('w19', { ...BASE, release: '2019', kubernetesVersion: '1.31' })),
    ).toEqual([
      {
        propertyPath: 'release',
        reason:
          "AKS retired Windows Server 2019 on 2026-03-01: no new pools on any Kubernetes version; its node images are deleted from 2027-04-01, after which existing pools cannot scale. Fix: Move to release '2022' (or '2025' on Kubernetes 1.32 or newer) and rebuild the images on its base (https://learn.microsoft.com/azure/aks/upgrade-windows-os).",
      },
    ]);
  });

  test('the retirement follows the date, not the code: the same pool passes on 2026-02-28', async () => {
    const { inputs } = await agentPoolInputs('w19ok', {
      release: '2019',
      kubernetesVersion: '1.31',
      date: '2026-02-28',
    });
    expect(inputs.osSKU).toBe('Windows2019');
    expect(
      inputErrorsOf(() => new aks.WindowsNodePool('w19d', { ...BASE, release: '2019', date: '2026-03-01' })),
    ).toEqual([expect.objectContaining({ propertyPath: 'release' })]);
  });

  test('on Kubernetes 1.37 with no release the pool picks 2025, not the 2022 AKS refuses there', () =>
    withWindows2025InSdk(async () => {
      const { pool, inputs } = await agentPoolInputs('w37', { kubernetesVersion: '1.37' });
      expect(pool.release).toBe('2025');
      expect(inputs.osSKU).toBe('Windows2025');
      expect(inputs.enableFIPS).toBe(true);
      expect(pool.nodeTarget.labels['node.kubernetes.io/windows-build']).toBe('10.0.26100');
    }));

  test("without an SDK that lists Windows2025, a 1.37 pool is refused for the SDK's reason, and the fix offers no 2022", () => {
    const errors = inputErrorsOf(() => new aks.WindowsNodePool('w37s', { ...BASE, kubernetesVersion: '1.37' }));
    expect(errors).toEqual([
      {
        propertyPath: 'release',
        reason: expect.stringContaining(
          "Fix: Generate a local SDK for a containerservice API version whose osSKU list has 'Windows2025' (pulumi package add azure-native containerservice <api-version>) and pass its AgentPool as agentPoolResource",
        ),
      },
    ]);
    expect(errors[0].reason).not.toContain("'2022'");
    expect(errors[0].reason).not.toMatch(/upgrade @pulumi\/azure-native/i);
  });

  test("with a local SDK's AgentPool (agentPoolResource), a 1.37 pool is Windows2025 without the installed SDK's list", async () => {
    const local = 'azure-native_containerservice_v20260501:containerservice:AgentPool';
    class LocalAgentPool extends pulumi.CustomResource {
      constructor(name: string, args: containerservice.AgentPoolArgs, opts?: pulumi.CustomResourceOptions) {
        super(local, name, args, opts);
      }
    }
    const pool = new aks.WindowsNodePool('w37l', {
      ...BASE,
      kubernetesVersion: '1.37',
      agentPoolResource: LocalAgentPool,
    });
    await resolved(pool.agentPool.urn);
    expect(pool.agentPool).toBeInstanceOf(LocalAgentPool);
    const found = registered.filter((r) => r.type === local && r.name === 'w37l');
    expect(found).toHaveLength(1);
    expect(found[0].inputs).toMatchObject({ osType: 'Windows', osSKU: 'Windows2025', enableFIPS: true });
  });

  test('agentPoolResource that is not a class is refused by its shape', () => {
    expect(
      inputErrorsOf(
        () =>
          new aks.WindowsNodePool('w', {
            ...BASE,
            agentPoolResource: 'AgentPool' as unknown as aksModule.WindowsNodePoolArgs['agentPoolResource'],
          }),
      ),
    ).toEqual([{ propertyPath: 'agentPoolResource', reason: expect.stringContaining('must be a resource class') }]);
  });

  test('a version from clusterArgs.kubernetesVersion is held to the same gates as kubernetesVersion', () => {
    const clusterArgs = {
      resourceGroupName: 'rg',
      kubernetesVersion: '1.33',
      windowsProfile: { adminUsername: 'azureuser' },
      networkProfile: { networkPlugin: 'azure' },
    };
    const errors = inputErrorsOf(
      () => new aks.WindowsNodePool('w19c', { ...BASE, release: '2019', clusterArgs, date: BEFORE_2019_RETIREMENT }),
    );
    expect(errors).toEqual([
      {
        propertyPath: 'clusterArgs.kubernetesVersion',
        reason: expect.stringContaining(
          "AKS runs Windows Server 2019 nodes on Kubernetes 1.32 at the newest; '1.33' is newer",
        ),
      },
    ]);
    // And today the release is retired whatever the version.
    expect(
      inputErrorsOf(() => new aks.WindowsNodePool('w19t', { ...BASE, release: '2019', clusterArgs })).map(
        (e) => e.propertyPath,
      ),
    ).toEqual(['release']);
  });

  test('clusterArgs.kubernetesVersion 1.37 with no release picks 2025 too', () =>
    withWindows2025InSdk(async () => {
      const clusterArgs = {
        resourceGroupName: 'rg',
        kubernetesVersion: '1.37',
        windowsProfile: { adminUsername: 'azureuser' },
        networkProfile: { networkPlugin: 'azure' },
      };
      const { pool } = await agentPoolInputs('w37c', { clusterArgs });
      expect(pool.release).toBe('2025');
    }));

  test('a bad date is named with the fix', () => {
    expect(inputErrorsOf(() => new aks.WindowsNodePool('wd', { ...BASE, date: '27/11/2026' }))).toEqual([
      {
        propertyPath: 'date',
        reason: expect.stringMatching(
          /^Date "27\/11\/2026" is not a calendar date written YYYY-MM-DD\. Fix: Write e\.g\. '\d{4}-\d{2}-\d{2}'\.$/,
        ),
      },
    ]);
  });
});
