import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import { toWindowsPodSpec } from 'k8s-windows';
import { POLICY_NAMES, runPolicies, windowsPolicyPackArgs, createWindowsPolicies } from 'k8s-windows/pulumi/policy';
import { cloudFindingSink } from '../../lib/core/rules/cloud-findings';
import { kubernetesTypeOf, manifestOf } from '../../lib/pulumi/policy/manifests';
import { windowsPolicies } from '../../lib/pulumi/policy/policies';
import { readProps } from '../../lib/pulumi/policy/props';

// The policy SDK's preview placeholders and proxy: what a policy sees for values not known yet.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const proxy = require('@pulumi/policy/proxy') as {
  unknownCheckingProxy<T>(value: T): T;
  unknownStringValue: string;
  unknownObjectValue: string;
};

type Json = Record<string, unknown>;
interface FakeResource {
  readonly type: string;
  readonly name: string;
  readonly props: Json;
}

/** A policy of the pack; with `settings`, of a pack reading those settings (as a config file holds them). */
function policy(name: string, settings?: object): ResourceValidationPolicy & StackValidationPolicy {
  const policies = settings === undefined ? windowsPolicies : createWindowsPolicies({ settings: { ...settings } });
  const found = policies.find((p) => p.name === name);
  if (!found) throw new Error(`no policy ${name}`);
  return found as ResourceValidationPolicy & StackValidationPolicy;
}

const urnOf = (r: { type: string; name: string }): string => `urn:pulumi:dev::proj::${r.type}::${r.name}`;

/** Calls a stack policy's validateStack with fake args; returns the reported [message, urn] pairs. */
async function stackViolations(
  name: string,
  resources: readonly FakeResource[],
  settings: object = {},
): Promise<[string, string | undefined][]> {
  const report = jest.fn<void, Parameters<ReportViolation>>();
  const args = {
    resources: resources.map((r) => ({ ...r, urn: urnOf(r), props: proxy.unknownCheckingProxy(r.props) })),
    stackTags: new Map(),
    getConfig: () => ({}),
    notApplicable: () => {
      throw new Error('not applicable');
    },
  } as unknown as StackValidationArgs;
  await policy(name, settings).validateStack(args, report);
  return report.mock.calls.map(([message, urn]) => [message, urn]);
}

/** Calls a resource policy's validateResource with fake args; returns the reported messages. */
async function resourceViolations(name: string, r: FakeResource, settings: object = {}): Promise<string[]> {
  const report = jest.fn<void, Parameters<ReportViolation>>();
  const args = {
    type: r.type,
    name: r.name,
    urn: urnOf(r),
    props: proxy.unknownCheckingProxy(r.props),
    getConfig: () => ({}),
  } as unknown as ResourceValidationArgs;
  const validate = policy(name, settings).validateResource;
  for (const v of Array.isArray(validate) ? validate : validate ? [validate] : []) await v(args, report);
  return report.mock.calls.map(([message]) => message);
}

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const windowsPod = toWindowsPodSpec({
  containers: [
    {
      name: 'iis',
      image: IIS,
      livenessProbe: { httpGet: { path: '/', port: 80 } },
    },
  ],
}) as unknown as Json;

function deployment(name: string, podSpec: Json, withTypeFields = true): FakeResource {
  return {
    type: 'kubernetes:apps/v1:Deployment',
    name,
    props: {
      ...(withTypeFields ? { apiVersion: 'apps/v1', kind: 'Deployment' } : {}),
      metadata: { namespace: 'apps' },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: podSpec },
      },
    },
  };
}

describe('mapping Pulumi Kubernetes resources back to manifests', () => {
  test('type tokens: group/version and kind; core/v1 is v1; non-objects are skipped', () => {
    expect(kubernetesTypeOf('kubernetes:apps/v1:Deployment')).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(kubernetesTypeOf('kubernetes:core/v1:Service')).toEqual({ apiVersion: 'v1', kind: 'Service' });
    expect(kubernetesTypeOf('kubernetes:windows.k8s.io/v1:GMSACredentialSpec')).toEqual({
      apiVersion: 'windows.k8s.io/v1',
      kind: 'GMSACredentialSpec',
    });
    expect(kubernetesTypeOf('kubernetes:apps/v1:DeploymentPatch')).toBeUndefined();
    expect(kubernetesTypeOf('kubernetes:core/v1:PodList')).toBeUndefined();
    expect(kubernetesTypeOf('kubernetes:helm.sh/v3:Release')).toBeUndefined();
    expect(kubernetesTypeOf('kubernetes:yaml/v2:ConfigGroup')).toBeUndefined();
    expect(kubernetesTypeOf('aws:eks/nodeGroup:NodeGroup')).toBeUndefined();
  });

  test('apiVersion, kind and metadata.name are filled in when the props lack them; status is dropped', () => {
    const r = deployment('web', windowsPod, false);
    const m = manifestOf({ ...r, urn: 'u', props: { ...r.props, status: { replicas: 1 } } });
    expect(m?.manifest.apiVersion).toBe('apps/v1');
    expect(m?.manifest.kind).toBe('Deployment');
    expect(m?.manifest.metadata).toEqual({ namespace: 'apps', name: 'web' });
    expect(m?.manifest.status).toBeUndefined();
  });

  test('unknown preview values are left out and their paths remembered', () => {
    const props = proxy.unknownCheckingProxy({
      spec: {
        template: {
          spec: { nodeSelector: proxy.unknownObjectValue, containers: [{ image: proxy.unknownStringValue }] },
        },
      },
    });
    expect(readProps(props, 'omit')).toEqual({
      value: { spec: { template: { spec: { containers: [{}] } } } },
      unknownPaths: ['spec.template.spec.nodeSelector', 'spec.template.spec.containers[0].image'],
    });
  });
});

describe(POLICY_NAMES.kubernetes, () => {
  test('fails: a forbidden field on a Windows pod, reported against its resource', async () => {
    const bad = deployment('bad', { ...windowsPod, securityContext: { runAsUser: 1000 } });
    const violations = await stackViolations(POLICY_NAMES.kubernetes, [bad]);
    expect(violations).toEqual([
      [
        expect.stringMatching(
          /^\[windows-forbidden-field\] Deployment apps\/bad: spec\.template\.spec\.securityContext\.runAsUser 1000: Forbidden: .* \(fixable: k8s-windows fix\)$/,
        ),
        urnOf(bad),
      ],
    ]);
  });

  test('passes: a pod converted by toWindowsPodSpec, with a Service in front', async () => {
    const service: FakeResource = {
      type: 'kubernetes:core/v1:Service',
      name: 'web',
      props: { metadata: { namespace: 'apps' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
    };
    expect(await stackViolations(POLICY_NAMES.kubernetes, [deployment('web', windowsPod), service])).toEqual([]);
  });

  test('cross-object: a gMSA pod needs its service account granted use of the credspec', async () => {
    const pod = {
      ...windowsPod,
      serviceAccountName: 'web',
      securityContext: { windowsOptions: { gmsaCredentialSpecName: 'webapp01' } },
    };
    const rbacRule = 'gmsa-rbac-missing';
    const ids = async (resources: FakeResource[]): Promise<(string | undefined)[]> =>
      [
        ...(await stackViolations(POLICY_NAMES.kubernetes, resources)),
        ...(await stackViolations(POLICY_NAMES.kubernetesAdvice, resources)),
      ].map(([m]) => /^\[([a-z-]+)\]/.exec(m)?.[1]);
    expect(await ids([deployment('gmsa', pod)])).toContain(rbacRule);

    const role: FakeResource = {
      type: 'kubernetes:rbac.authorization.k8s.io/v1:ClusterRole',
      name: 'use',
      props: {
        metadata: { name: 'webapp01-gmsa-use' },
        rules: [
          {
            apiGroups: ['windows.k8s.io'],
            resources: ['gmsacredentialspecs'],
            verbs: ['use'],
            resourceNames: ['webapp01'],
          },
        ],
      },
    };
    const binding: FakeResource = {
      type: 'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding',
      name: 'bind',
      props: {
        metadata: { name: 'webapp01-gmsa-use-web', namespace: 'apps' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'webapp01-gmsa-use' },
        subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: 'apps' }],
      },
    };
    expect(await ids([deployment('gmsa', pod), role, binding])).not.toContain(rbacRule);
  });

  test('a finding on a value not known yet (preview) is deferred, not reported', async () => {
    const eventual = deployment('eventual', { ...windowsPod, securityContext: proxy.unknownObjectValue });
    expect(await stackViolations(POLICY_NAMES.kubernetes, [eventual])).toEqual([]);
  });

  test('rules can be turned off through the k8s-windows settings', async () => {
    const bad = deployment('bad', { ...windowsPod, securityContext: { runAsUser: 1000 } });
    expect(
      await stackViolations(POLICY_NAMES.kubernetes, [bad], { rules: { 'windows-forbidden-field': 'off' } }),
    ).toEqual([]);
  });

  test('a typo in the settings is a violation naming it, once, and the rest of the settings still applies', async () => {
    const bad = deployment('bad', { ...windowsPod, securityContext: { runAsUser: 1000 } });
    const config = { rules: { 'windows-forbidden-feild': 'off' }, kubernetesVersion: '1.32' };
    const mandatory = (await stackViolations(POLICY_NAMES.kubernetes, [bad], config)).map(([m]) => m);
    expect(mandatory).toContain(
      "[k8s-windows config] config.rules.windows-forbidden-feild: 'windows-forbidden-feild' is not a rule id. Fix: Did you mean 'windows-forbidden-field'?",
    );
    expect(mandatory.some((m) => m.startsWith('[windows-forbidden-field]'))).toBe(true);
    const advice = (await stackViolations(POLICY_NAMES.kubernetesAdvice, [bad], config)).map(([m]) => m);
    expect(advice.filter((m) => m.startsWith('[k8s-windows config]'))).toEqual([]);
  });

  test('a rule raised to error is reported once, by the mandatory policy of the pair', async () => {
    const untolerated = deployment('untolerated', { ...windowsPod, tolerations: undefined } as never);
    const settings = { rules: { 'windows-toleration-missing': 'error' } };
    const mandatory = (await stackViolations(POLICY_NAMES.kubernetes, [untolerated], settings)).map(([m]) => m);
    const advice = (await stackViolations(POLICY_NAMES.kubernetesAdvice, [untolerated], settings)).map(([m]) => m);
    expect(mandatory.filter((m) => m.startsWith('[windows-toleration-missing]'))).toHaveLength(1);
    expect(advice.filter((m) => m.startsWith('[windows-toleration-missing]'))).toEqual([]);
  });

  test('settings given to a policy itself (--policy-pack-config) are not read: one violation says where they go', async () => {
    const report = jest.fn<void, Parameters<ReportViolation>>();
    const args = {
      resources: [],
      stackTags: new Map(),
      getConfig: () => ({ rules: { 'windows-startup-probe': 'off' } }),
      notApplicable: () => undefined,
    } as unknown as StackValidationArgs;
    await policy(POLICY_NAMES.kubernetes, {}).validateStack(args, report);
    expect(report.mock.calls.map(([m]) => m)).toEqual([
      expect.stringMatching(/^\[policy config\] windows-kubernetes: rules is not read here: .*\.k8s-windows\.yaml/),
    ]);
  });

  test('the config file: K8S_WINDOWS_CONFIG names it for the policy pack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k8s-windows-policy-'));
    const file = join(dir, 'k8s-windows.yaml');
    writeFileSync(file, "rules:\n  windows-forbidden-field: 'off'\n");
    const previous = process.env.K8S_WINDOWS_CONFIG;
    process.env.K8S_WINDOWS_CONFIG = file;
    try {
      const bad = deployment('bad', { ...windowsPod, securityContext: { runAsUser: 1000 } });
      const fresh = createWindowsPolicies().find((p) => p.name === POLICY_NAMES.kubernetes) as StackValidationPolicy;
      const report = jest.fn<void, Parameters<ReportViolation>>();
      await fresh.validateStack(
        {
          resources: [{ ...bad, urn: urnOf(bad) }],
          stackTags: new Map(),
          getConfig: () => ({}),
          notApplicable: () => undefined,
        } as unknown as StackValidationArgs,
        report,
      );
      expect(report.mock.calls.map(([m]) => m).filter((m) => m.startsWith('[windows-forbidden-field]'))).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.K8S_WINDOWS_CONFIG;
      else process.env.K8S_WINDOWS_CONFIG = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(`${POLICY_NAMES.kubernetesAdvice}: the cloud in the policy config`, () => {
  test('cloud gke makes a missing Windows toleration a warning; without it the advice is info', async () => {
    const untolerated = deployment('untolerated', { ...windowsPod, tolerations: undefined } as never);
    const messages = async (config: object) =>
      (await stackViolations(POLICY_NAMES.kubernetesAdvice, [untolerated], config)).map(([m]) => m);
    expect(await messages({ cloud: 'gke' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[windows-toleration-missing\].*GKE puts on Windows Server nodes/),
      ]),
    );
    expect(await messages({})).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\[windows-toleration-missing\].*AKS and EKS add no taint/)]),
    );
  });
});

describe(POLICY_NAMES.kubernetesAdvice, () => {
  test('fails: a build-less image tag on a pinned Windows pod is advice', async () => {
    const pod = toWindowsPodSpec({
      containers: [{ name: 'a', image: 'contoso.azurecr.io/shop/api:4.8' }],
    });
    const violations = await stackViolations(POLICY_NAMES.kubernetesAdvice, [deployment('floating', pod as never)]);
    expect(violations.map(([m]) => m)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\[image-floating-tag\]/)]),
    );
    expect(await stackViolations(POLICY_NAMES.kubernetes, [deployment('floating', pod as never)])).toEqual([]);
  });

  test('passes: the converted pod with a liveness-derived startup probe', async () => {
    expect(await stackViolations(POLICY_NAMES.kubernetesAdvice, [deployment('web', windowsPod)])).toEqual([]);
  });
});

const EKS_GOOD: FakeResource = {
  type: 'aws:eks/nodeGroup:NodeGroup',
  name: 'win',
  props: {
    amiType: 'WINDOWS_CORE_2022_x86_64',
    instanceTypes: ['m5.xlarge'],
    diskSize: 50,
    taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
    tags: { 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows' },
  },
};
const AKS_GOOD: FakeResource = {
  type: 'azure-native:containerservice:AgentPool',
  name: 'win',
  props: {
    osType: 'Windows',
    osSKU: 'Windows2022',
    mode: 'User',
    agentPoolName: 'win1',
    vmSize: 'Standard_D4s_v5',
    nodeTaints: ['os=windows:NoSchedule'],
  },
};
const GKE_GOOD: FakeResource = {
  type: 'gcp:container/nodePool:NodePool',
  name: 'win',
  props: {
    nodeConfig: {
      imageType: 'WINDOWS_LTSC_CONTAINERD',
      machineType: 'n2-standard-4',
      windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2022' },
      taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
    },
  },
};

describe(POLICY_NAMES.nodePools, () => {
  test.each([EKS_GOOD, AKS_GOOD, GKE_GOOD])('passes: a well-formed $type', async (r) => {
    expect(await resourceViolations(POLICY_NAMES.nodePools, r)).toEqual([]);
    expect(await resourceViolations(POLICY_NAMES.nodePoolsAdvice, r)).toEqual([]);
  });

  test('EKS: the Kubernetes taint spelling and a Graviton instance type', async () => {
    const bad = {
      ...EKS_GOOD,
      props: {
        ...EKS_GOOD.props,
        instanceTypes: ['m6g.xlarge'],
        taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
      },
    };
    expect(await resourceViolations(POLICY_NAMES.nodePools, bad)).toEqual([
      expect.stringMatching(/^\[eks-windows-taint-effect\] taints\[0\]\.effect: /),
      expect.stringMatching(/^\[eks-windows-instance-arch\] instanceTypes\[0\]: /),
    ]);
  });

  test('AKS: System mode and a long name are errors; no taint is advice, as on EKS and GKE', async () => {
    const bad = {
      ...AKS_GOOD,
      props: { ...AKS_GOOD.props, mode: 'System', agentPoolName: 'windowspool', nodeTaints: [] },
    };
    expect(await resourceViolations(POLICY_NAMES.nodePools, bad)).toEqual([
      expect.stringMatching(/^\[aks-windows-pool-name\] agentPoolName: /),
      expect.stringMatching(/^\[aks-windows-pool-mode\] mode: /),
    ]);
    expect(await resourceViolations(POLICY_NAMES.nodePoolsAdvice, bad)).toEqual([
      expect.stringMatching(/^\[windows-node-pool-untainted\] nodeTaints: /),
    ]);
  });

  test('GKE: a retired image type', async () => {
    const bad = {
      ...GKE_GOOD,
      props: { nodeConfig: { ...(GKE_GOOD.props.nodeConfig as Json), imageType: 'WINDOWS_SAC' } },
    };
    expect(await resourceViolations(POLICY_NAMES.nodePools, bad)).toEqual([
      expect.stringMatching(/^\[gke-windows-image-type\] nodeConfig\.imageType: /),
    ]);
  });

  test('Linux pools and other resources are not checked', async () => {
    expect(
      await resourceViolations(POLICY_NAMES.nodePools, { ...EKS_GOOD, props: { amiType: 'AL2023_x86_64_STANDARD' } }),
    ).toEqual([]);
    expect(await resourceViolations(POLICY_NAMES.nodePools, deployment('web', windowsPod))).toEqual([]);
  });

  test('unknown values are skipped, not flagged', async () => {
    const eventual = { ...AKS_GOOD, props: { ...AKS_GOOD.props, nodeTaints: proxy.unknownObjectValue } };
    expect(await resourceViolations(POLICY_NAMES.nodePools, eventual)).toEqual([]);
  });
});

describe(POLICY_NAMES.nodePoolsAdvice, () => {
  test('fails: a Windows Server 2019 agent pool is deprecated, and refused since AKS retired it (as the component does)', async () => {
    const old = { ...AKS_GOOD, props: { ...AKS_GOOD.props, osSKU: 'Windows2019' } };
    expect(await resourceViolations(POLICY_NAMES.nodePoolsAdvice, old)).toEqual([
      expect.stringMatching(
        /^\[windows-release-deprecated\] osSKU: Windows Server 2019 is deprecated: upstream Kubernetes no longer lists it/,
      ),
    ]);
    // Judged today (after 2026-03-01): the pack and aks.WindowsNodePool give the same refusal.
    expect(await resourceViolations(POLICY_NAMES.nodePools, old)).toEqual([
      expect.stringMatching(
        /^\[aks-windows-release\] osSKU: AKS retired Windows Server 2019 on 2026-03-01: no new pools/,
      ),
    ]);
  });
});

describe(POLICY_NAMES.clusters, () => {
  const cluster = (props: Json): FakeResource => ({
    type: 'azure-native:containerservice:ManagedCluster',
    name: 'aks',
    props,
  });
  const good = {
    windowsProfile: { adminUsername: 'azureuser', adminPassword: 'S3cure!Passw0rd-long' },
    networkProfile: { networkPlugin: 'azure' },
  };

  test('fails: an AKS cluster with kubenet and no windowsProfile, when the stack has a Windows pool', async () => {
    const bad = cluster({ networkProfile: { networkPlugin: 'kubenet' } });
    expect(await stackViolations(POLICY_NAMES.clusters, [bad, AKS_GOOD])).toEqual([
      [expect.stringMatching(/^\[aks-windows-profile\] windowsProfile: /), urnOf(bad)],
      [expect.stringMatching(/^\[aks-windows-cni\] networkProfile\.networkPlugin: /), urnOf(bad)],
    ]);
  });

  test('passes: the same cluster without Windows pools in the stack, and a Windows-ready cluster', async () => {
    expect(
      await stackViolations(POLICY_NAMES.clusters, [cluster({ networkProfile: { networkPlugin: 'kubenet' } })]),
    ).toEqual([]);
    expect(await stackViolations(POLICY_NAMES.clusters, [cluster(good), AKS_GOOD])).toEqual([]);
  });

  test('GKE: an Autopilot cluster cannot take a Windows node pool', async () => {
    const autopilot: FakeResource = {
      type: 'gcp:container/cluster:Cluster',
      name: 'gke',
      props: { enableAutopilot: true },
    };
    expect(await stackViolations(POLICY_NAMES.clusters, [autopilot, GKE_GOOD])).toEqual([
      [expect.stringMatching(/^\[gke-windows-autopilot\] enableAutopilot: /), urnOf(autopilot)],
    ]);
  });

  test(`${POLICY_NAMES.clustersAdvice}: networkPlugin left to the default`, async () => {
    const unset = cluster({ windowsProfile: good.windowsProfile });
    expect(await stackViolations(POLICY_NAMES.clustersAdvice, [unset, AKS_GOOD])).toEqual([
      [expect.stringMatching(/^\[aks-windows-network-plugin\] networkProfile\.networkPlugin: /), urnOf(unset)],
    ]);
    expect(await stackViolations(POLICY_NAMES.clustersAdvice, [cluster(good), AKS_GOOD])).toEqual([]);
  });
});

describe('the pack', () => {
  test('windowsPolicies: mandatory errors, advisory advice, unique names', () => {
    expect(windowsPolicies.map((p) => [p.name, p.enforcementLevel])).toEqual([
      ['windows-kubernetes', 'mandatory'],
      ['windows-kubernetes-advice', 'advisory'],
      ['windows-node-pools', 'mandatory'],
      ['windows-node-pools-advice', 'advisory'],
      ['windows-clusters', 'mandatory'],
      ['windows-clusters-advice', 'advisory'],
    ]);
  });

  test('windowsPolicyPackArgs: exclusions and an enforcement override', () => {
    const args = windowsPolicyPackArgs({ enforcementLevel: 'advisory', exclude: [POLICY_NAMES.clusters] });
    expect(args.policies.map((p) => p.name)).not.toContain(POLICY_NAMES.clusters);
    expect(args.policies.every((p) => p.enforcementLevel === 'advisory')).toBe(true);
  });

  test('runPolicies runs resource and stack policies over captured resources', async () => {
    const bad = deployment('bad', { ...windowsPod, hostPID: true });
    const violations = await runPolicies(
      [bad, AKS_GOOD].map((r) => ({ ...r, urn: urnOf(r) })),
      { config: {} },
    );
    expect(violations).toEqual([
      {
        policy: 'windows-kubernetes',
        enforcementLevel: 'mandatory',
        message: expect.stringMatching(
          /^\[windows-forbidden-field\] Deployment apps\/bad: spec\.template\.spec\.hostPID true: /,
        ),
        urn: urnOf(bad),
      },
    ]);
  });
});

describe('cloud rules under the rules config (one settings reader for every policy)', () => {
  const group: FakeResource = {
    type: 'aws:eks/nodeGroup:NodeGroup',
    name: 'win',
    props: {
      amiType: 'WINDOWS_CORE_2022_x86_64',
      diskSize: 20,
      taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
    },
  };

  test('off drops a cloud rule, a severity moves it between the mandatory and the advisory policy', async () => {
    expect(await resourceViolations(POLICY_NAMES.nodePools, group)).toEqual([
      expect.stringMatching(/^\[eks-windows-disk-size\] diskSize 20 GiB is below /),
    ]);
    const off = { rules: { 'eks-windows-disk-size': 'off' } };
    expect(await resourceViolations(POLICY_NAMES.nodePools, group, off)).toEqual([]);
    const relevel = { rules: { 'eks-windows-disk-size': 'warning' } };
    expect(await resourceViolations(POLICY_NAMES.nodePools, group, relevel)).toEqual([]);
    expect(await resourceViolations(POLICY_NAMES.nodePoolsAdvice, group, relevel)).toContainEqual(
      expect.stringMatching(/^\[eks-windows-disk-size\] /),
    );
  });

  test('an unknown rule id in the config is a violation of the mandatory policy, with the close match', async () => {
    const messages = await resourceViolations(POLICY_NAMES.nodePools, group, {
      rules: { 'eks-windows-disksize': 'off' },
    });
    expect(messages[0]).toMatch(/^\[k8s-windows config\] config\.rules\.eks-windows-disksize: .*eks-windows-disk-size/);
  });
});

describe('old ids name the rules they were split into (ids are never renamed)', () => {
  const pool: FakeResource = {
    type: 'azure-native:containerservice:AgentPool',
    name: 'np',
    props: {
      osType: 'Windows',
      osSKU: 'Windows2022',
      agentPoolName: 'windowspool',
      mode: 'System',
      vmSize: 'Standard_D4s_v3',
      nodeTaints: ['os=windows:NoSchedule'],
    },
  };

  test('a setting of the old id applies to every part; a setting of the new id wins over it', async () => {
    expect(await resourceViolations(POLICY_NAMES.nodePools, pool)).toEqual([
      expect.stringMatching(/^\[aks-windows-pool-name\] /),
      expect.stringMatching(/^\[aks-windows-pool-mode\] /),
    ]);
    const off = { rules: { 'aks-windows-agent-pool': 'off' } };
    expect(await resourceViolations(POLICY_NAMES.nodePools, pool, off)).toEqual([]);
    const relevel = { rules: { 'aks-windows-agent-pool': 'warning', 'aks-windows-pool-mode': 'error' } };
    expect(await resourceViolations(POLICY_NAMES.nodePools, pool, relevel)).toEqual([
      expect.stringMatching(/^\[aks-windows-pool-mode\] /),
    ]);
    expect(await resourceViolations(POLICY_NAMES.nodePoolsAdvice, pool, relevel)).toContainEqual(
      expect.stringMatching(/^\[aks-windows-pool-name\] /),
    );
  });

  test("a cluster's inline pool is still named by the cluster's old id, and by the pool's", async () => {
    const cluster: FakeResource = {
      type: 'gcp:container/cluster:Cluster',
      name: 'gke',
      props: {
        networkingMode: 'VPC_NATIVE',
        nodePools: [
          { name: 'linux', nodeConfig: { imageType: 'COS_CONTAINERD' } },
          { name: 'win', nodeConfig: { imageType: 'WINDOWS_LTSC_CONTAINERD', machineType: 't2a-standard-4' } },
        ],
      },
    };
    expect(await stackViolations(POLICY_NAMES.clusters, [cluster])).toEqual([
      [expect.stringMatching(/^\[gke-windows-machine-type\] nodePools\[1\]\./), urnOf(cluster)],
    ]);
    for (const id of ['gke-windows-cluster', 'gke-windows-node-pool', 'gke-windows-machine-type']) {
      expect(await stackViolations(POLICY_NAMES.clusters, [cluster], { rules: { [id]: 'off' } })).toEqual([]);
    }
    expect(
      await stackViolations(POLICY_NAMES.clusters, [cluster], { rules: { 'gke-windows-autopilot': 'off' } }),
    ).toHaveLength(1);
  });

  test('the policy pack reports its findings to the sink, with the resource and the message id', async () => {
    const recording = cloudFindingSink.record();
    try {
      await resourceViolations(POLICY_NAMES.nodePools, pool);
    } finally {
      recording.stop();
    }
    expect(recording.findings.map((f) => [f.ruleId, f.messageId, f.severity, f.path, f.resource])).toEqual([
      ['aks-windows-pool-name', 'pool-name', 'error', 'agentPoolName', urnOf(pool)],
      ['aks-windows-pool-mode', 'mode', 'error', 'mode', urnOf(pool)],
    ]);
  });
});

describe('EKS cluster-level checks (windows-clusters-advice)', () => {
  const cluster: FakeResource = { type: 'aws:eks/cluster:Cluster', name: 'eks', props: { roleArn: 'arn:r' } };
  const windowsGroup: FakeResource = {
    type: 'aws:eks/nodeGroup:NodeGroup',
    name: 'win',
    props: { amiType: 'WINDOWS_CORE_2022_x86_64', taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }] },
  };
  const controller: FakeResource = {
    type: 'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
    name: 'vpcrc',
    props: { role: 'cluster', policyArn: 'arn:aws:iam::aws:policy/AmazonEKSVPCResourceController' },
  };
  const ipamPatch: FakeResource = {
    type: 'kubernetes:core/v1:ConfigMapPatch',
    name: 'ipam',
    props: { metadata: { name: 'amazon-vpc-cni', namespace: 'kube-system' }, data: { 'enable-windows-ipam': 'true' } },
  };
  const addon = (values: Json, resolve = 'OVERWRITE'): FakeResource => ({
    type: 'aws:eks/addon:Addon',
    name: 'vpc-cni',
    props: { addonName: 'vpc-cni', configurationValues: JSON.stringify(values), resolveConflictsOnUpdate: resolve },
  });
  const advice = (resources: FakeResource[]) => stackViolations(POLICY_NAMES.clustersAdvice, resources);

  test('a Windows node group without the controller policy and Windows IPAM: two warnings on the cluster', async () => {
    expect(await advice([cluster, windowsGroup])).toEqual([
      [expect.stringMatching(/^\[eks-windows-vpc-resource-controller\] /), urnOf(cluster)],
      [expect.stringMatching(/^\[eks-windows-ipam\] /), urnOf(cluster)],
    ]);
    expect(await stackViolations(POLICY_NAMES.clusters, [cluster, windowsGroup])).toEqual([]);
  });

  test('the policy attachment and the ConfigMap patch, or the add-on configuration, satisfy them', async () => {
    expect(await advice([cluster, windowsGroup, controller, ipamPatch])).toEqual([]);
    expect(await advice([cluster, windowsGroup, controller, addon({ enableWindowsIpam: 'true' })])).toEqual([]);
  });

  test('a ConfigMap patch under an add-on that overwrites on update is flagged', async () => {
    expect(await advice([cluster, windowsGroup, controller, ipamPatch, addon({})])).toEqual([
      [expect.stringMatching(/^\[eks-windows-ipam\] .*OVERWRITE/), urnOf(cluster)],
    ]);
    expect(await advice([cluster, windowsGroup, controller, ipamPatch, addon({}, 'PRESERVE')])).toEqual([]);
  });

  test('self-managed Windows nodes (EC2_WINDOWS access entry) count; Linux-only stacks are not checked', async () => {
    const entry: FakeResource = { type: 'aws:eks/accessEntry:AccessEntry', name: 'e', props: { type: 'EC2_WINDOWS' } };
    expect((await advice([cluster, entry])).length).toBe(2);
    expect(await advice([cluster])).toEqual([]);
  });
});
