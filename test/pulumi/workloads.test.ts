import * as pulumi from '@pulumi/pulumi';
import { windowsNodeTarget, type WindowsNodeTarget } from 'k8s-windows';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { inputErrorsOf, mockPulumi, resolved } from './mocks';

const { registered, warn, findings } = mockPulumi();

let lib: typeof k8sWindows;
beforeAll(async () => {
  // Load after setMocks so @pulumi/kubernetes registers against the mocked runtime.
  lib = await import('k8s-windows/pulumi');
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function inputsOf(resource: pulumi.CustomResource, type: string, name: string): Promise<Json> {
  await resolved(resource.urn);
  const found = registered.filter((r) => r.type === type && r.name === name);
  expect(found).toHaveLength(1);
  return found[0].inputs;
}

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const POOL_TARGET: WindowsNodeTarget = windowsNodeTarget({
  release: '2022',
  labels: { 'example.com/pool': 'win' },
  taints: [
    { key: 'os', value: 'windows', effect: 'NoSchedule' },
    { key: 'dedicated', effect: 'NoExecute' },
  ],
});

describe('WindowsDeployment', () => {
  test('defaults: os.name, 2022 nodeSelector, the Windows toleration, generated labels and selector', async () => {
    const d = new lib.WindowsDeployment('web', { podSpec: { containers: [{ name: 'iis', image: IIS }] } });
    const inputs = await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'web');
    expect(inputs.apiVersion).toBe('apps/v1');
    expect(inputs.kind).toBe('Deployment');
    expect(inputs.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'web' } });
    expect(inputs.spec.template.metadata).toEqual({ labels: { 'app.kubernetes.io/name': 'web' } });
    const pod = inputs.spec.template.spec;
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(pod.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(pod.containers).toEqual([{ name: 'iis', image: IIS, imagePullPolicy: 'IfNotPresent' }]);
    expect(pod.securityContext).toBeUndefined();
    expect(registered.find((r) => r.type === 'k8s-windows:kubernetes:WindowsDeployment')?.name).toBe('web');
    expect(await resolved(d.podLabels)).toEqual({ 'app.kubernetes.io/name': 'web' });
    expect(warn).not.toHaveBeenCalled();
  });

  test("tolerations match the target's taints exactly and the selector carries its labels", async () => {
    const d = new lib.WindowsDeployment('pooled', {
      metadata: { namespace: 'apps' },
      spec: {
        replicas: 3,
        template: { metadata: { labels: { app: 'iis' } }, spec: { containers: [{ name: 'iis', image: IIS }] } },
      },
      windows: { target: POOL_TARGET },
    });
    const inputs = await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'pooled');
    expect(inputs.metadata).toEqual({ namespace: 'apps' });
    expect(inputs.spec.replicas).toBe(3);
    expect(inputs.spec.selector).toEqual({ matchLabels: { app: 'iis' } });
    const pod = inputs.spec.template.spec;
    expect(pod.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'example.com/pool': 'win',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(pod.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
    ]);
    expect(await resolved(d.nodeTarget)).toEqual(POOL_TARGET);
  });

  test('an Output target is applied once it resolves', async () => {
    const d = new lib.WindowsDeployment('eventual', {
      podSpec: { containers: [{ name: 'iis', image: IIS }] },
      windows: { target: pulumi.output(POOL_TARGET) },
    });
    const inputs = await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'eventual');
    expect(inputs.spec.template.spec.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
    ]);
    expect(inputs.spec.template.spec.nodeSelector['example.com/pool']).toBe('win');
  });

  test('forbidden fields set to false or empty are dropped, not emitted', async () => {
    const d = new lib.WindowsDeployment('clean', {
      podSpec: {
        hostNetwork: false,
        shareProcessNamespace: false,
        securityContext: { sysctls: [] },
        containers: [
          { name: 'a', image: IIS, securityContext: { privileged: false, allowPrivilegeEscalation: false } },
        ],
      },
    });
    const pod = (await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'clean')).spec.template.spec;
    expect(pod.hostNetwork).toBeUndefined();
    expect(pod.shareProcessNamespace).toBeUndefined();
    expect(pod.securityContext).toBeUndefined();
    expect(pod.containers[0].securityContext).toBeUndefined();
  });

  test('windows options: runAsUserName, gMSA by name, restricted profile', async () => {
    const d = new lib.WindowsDeployment('identity', {
      podSpec: { containers: [{ name: 'a', image: IIS }] },
      windows: { gmsa: 'webapp01', securityProfile: 'restricted' },
    });
    const pod = (await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'identity')).spec.template.spec;
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      windowsOptions: { gmsaCredentialSpecName: 'webapp01', runAsUserName: 'ContainerUser' },
    });
  });

  test('hostProcess sets hostNetwork and the least-privileged HostProcess user', async () => {
    const d = new lib.WindowsDaemonSet('agent', {
      podSpec: {
        containers: [
          {
            name: 'agent',
            image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
          },
        ],
      },
      windows: { hostProcess: true },
    });
    const pod = (await inputsOf(d.daemonSet, 'kubernetes:apps/v1:DaemonSet', 'agent')).spec.template.spec;
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' },
    });
  });

  test('a floating image tag is warned about with the rule id', async () => {
    const d = new lib.WindowsDeployment('floating', {
      podSpec: { containers: [{ name: 'a', image: 'contoso.azurecr.io/shop/api:4.8' }] },
    });
    await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'floating');
    expect(findings.map((f) => [f.ruleId, f.severity, f.path, f.resource])).toEqual([
      ['image-floating-tag', 'warning', 'podSpec.containers[0].image', 'floating'],
    ]);
    // Printed for users on the workload's resource.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toBe(d);
  });

  test('every bad input is listed in one InputPropertiesError, before anything registers', () => {
    const errors = inputErrorsOf(
      () =>
        new lib.WindowsDeployment('bad', {
          spec: {
            selector: { matchLabels: { app: 'other' } },
            template: {
              metadata: { labels: { app: 'iis' } },
              spec: {
                hostPID: true,
                securityContext: { runAsUser: 1000 },
                containers: [{ name: 'a', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' }],
              },
            },
          },
          windows: { release: '2022', runAsUserName: 'a\\b\\c', securityProfile: 'strict' as never },
        }),
    );
    expect(errors.map((e) => e.propertyPath).sort()).toEqual(
      [
        'spec.selector.matchLabels["app"]',
        'spec.template.spec.containers[0].image',
        'spec.template.spec.hostPID',
        'spec.template.spec.securityContext.runAsUser',
        'windows.runAsUserName',
        'windows.securityProfile',
      ].sort(),
    );
    expect(errors.every((e) => e.reason.includes('Fix:'))).toBe(true);
    expect(registered).toEqual([]);
  });

  test('null entries, memory emptyDirs and bad inline windowsOptions are input errors, not a TypeError; a host port is advice, as in lint', () => {
    const errors = inputErrorsOf(
      () =>
        new lib.WindowsDeployment('features', {
          spec: {
            selector: { matchLabels: { app: 'iis' } },
            template: {
              metadata: { labels: { app: 'iis' } },
              spec: {
                securityContext: { windowsOptions: { runAsUserName: '*', gmsaCredentialSpec: '' } },
                volumes: [{ name: 'cache', emptyDir: { medium: 'Memory' } }],
                containers: [null as never, { name: 'a', image: IIS, ports: [{ containerPort: 80, hostPort: 80 }] }],
              },
            },
          },
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'spec.template.spec.containers[0]',
      'spec.template.spec.securityContext.windowsOptions.runAsUserName',
      'spec.template.spec.securityContext.windowsOptions.gmsaCredentialSpec',
      'spec.template.spec.volumes[0].emptyDir.medium',
    ]);
    expect(registered).toEqual([]);
  });

  test('a bad release is reported under windows.', () => {
    const errors = inputErrorsOf(
      () => new lib.WindowsDeployment('sac', { podSpec: { containers: [] }, windows: { release: '1909' as never } }),
    );
    expect(errors).toEqual([
      { propertyPath: 'windows.release', reason: expect.stringContaining('Semi-Annual Channel') },
    ]);
  });

  test('the pod template must be given exactly once', () => {
    expect(inputErrorsOf(() => new lib.WindowsDeployment('none', {}))).toEqual([
      { propertyPath: 'spec.template', reason: expect.stringContaining('needs a pod template') },
    ]);
    expect(
      inputErrorsOf(
        () =>
          new lib.WindowsDeployment('both', {
            podSpec: { containers: [] },
            spec: { template: { spec: { containers: [] } } },
          }),
      ),
    ).toEqual([{ propertyPath: 'podSpec', reason: expect.stringContaining('ambiguous') }]);
  });

  test.each([
    ['spec is not an object', { spec: 'x' as never, podSpec: { containers: [] } }, ['spec']],
    ['podSpec is not an object', { podSpec: 3 as never }, ['podSpec']],
    ['the template has no spec', { spec: { template: { metadata: {} } as never } }, ['spec.template.spec']],
    [
      'selector is not an object',
      { spec: { selector: 'app' as never }, podSpec: { containers: [] } },
      ['spec.selector'],
    ],
    [
      'hostProcess is not a boolean',
      { podSpec: { containers: [] }, windows: { hostProcess: 'yes' as never } },
      ['windows.hostProcess'],
    ],
    [
      'hostProcess with gMSA and the restricted profile',
      {
        podSpec: { containers: [] },
        windows: { hostProcess: true, gmsa: 'webapp01', securityProfile: 'restricted' as const },
      },
      ['windows.securityProfile', 'windows.gmsa'],
    ],
    [
      'a nodeSelector that contradicts the target',
      { podSpec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [] } },
      ['podSpec.nodeSelector["kubernetes.io/os"]'],
    ],
  ])('bad input: %s', (_case, args, paths) => {
    expect(inputErrorsOf(() => new lib.WindowsDeployment('bad-input', args)).map((e) => e.propertyPath)).toEqual(paths);
    expect(registered).toEqual([]);
  });

  test('the caller args are never mutated', async () => {
    const podSpec = { containers: [{ name: 'a', image: IIS, securityContext: { privileged: false } }] };
    const before = structuredClone(podSpec);
    const d = new lib.WindowsDeployment('pure', { podSpec });
    await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'pure');
    expect(podSpec).toEqual(before);
  });
});

describe('the other workloads share the implementation', () => {
  test('WindowsStatefulSet', async () => {
    const s = new lib.WindowsStatefulSet('db', {
      spec: { serviceName: 'db' },
      podSpec: { containers: [{ name: 'db', image: IIS }] },
    });
    const inputs = await inputsOf(s.statefulSet, 'kubernetes:apps/v1:StatefulSet', 'db');
    expect(inputs.spec.serviceName).toBe('db');
    expect(inputs.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'db' } });
    expect(inputs.spec.template.spec.os).toEqual({ name: 'windows' });
  });

  test('WindowsJob: no selector, restartPolicy Never unless given', async () => {
    const j = new lib.WindowsJob('once', { podSpec: { containers: [{ name: 'a', image: IIS }] } });
    const inputs = await inputsOf(j.job, 'kubernetes:batch/v1:Job', 'once');
    expect(inputs.spec.selector).toBeUndefined();
    expect(inputs.spec.template.spec.restartPolicy).toBe('Never');
    const k = new lib.WindowsJob('retry', {
      podSpec: { restartPolicy: 'OnFailure', containers: [{ name: 'a', image: IIS }] },
    });
    expect((await inputsOf(k.job, 'kubernetes:batch/v1:Job', 'retry')).spec.template.spec.restartPolicy).toBe(
      'OnFailure',
    );
  });

  test('WindowsCronJob: the pod template sits at spec.jobTemplate.spec.template', async () => {
    const c = new lib.WindowsCronJob('nightly', {
      spec: { schedule: '0 3 * * *' },
      podSpec: { containers: [{ name: 'a', image: IIS }] },
    });
    const inputs = await inputsOf(c.cronJob, 'kubernetes:batch/v1:CronJob', 'nightly');
    expect(inputs.spec.schedule).toBe('0 3 * * *');
    const pod = inputs.spec.jobTemplate.spec.template.spec;
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.restartPolicy).toBe('Never');
    expect(inputs.spec.jobTemplate.spec.template.metadata).toEqual({ labels: { 'app.kubernetes.io/name': 'nightly' } });
    expect(
      inputErrorsOf(
        () =>
          new lib.WindowsCronJob('bad-cron', {
            spec: {
              schedule: '* * * * *',
              jobTemplate: { spec: { template: { spec: { hostIPC: true, containers: [] } } } },
            },
          }),
      ).map((e) => e.propertyPath),
    ).toEqual(['spec.jobTemplate.spec.template.spec.hostIPC']);
  });
});

describe('WindowsRuntimeClass', () => {
  test('process handler and the default target scheduling', async () => {
    const rc = new lib.WindowsRuntimeClass('windows-2022');
    const inputs = await inputsOf(rc.runtimeClass, 'kubernetes:node.k8s.io/v1:RuntimeClass', 'windows-2022');
    expect(inputs).toEqual({
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'windows-2022' },
      handler: 'runhcs-wcow-process',
      scheduling: {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      },
    });
    expect(rc.nodeTarget).toEqual({ ...windowsNodeTarget({ release: '2022' }), runtimeClassName: 'windows-2022' });
  });

  test('Hyper-V isolation picks the hypervisor handler; workloads built from its target name it', async () => {
    const rc = new lib.WindowsRuntimeClass('hyperv', { name: 'win-hyperv', isolation: 'hyperv', release: '2025' });
    const inputs = await inputsOf(rc.runtimeClass, 'kubernetes:node.k8s.io/v1:RuntimeClass', 'hyperv');
    expect(inputs.handler).toBe('runhcs-wcow-hypervisor');
    expect(inputs.scheduling.nodeSelector['node.kubernetes.io/windows-build']).toBe('10.0.26100');
    const d = new lib.WindowsDeployment('on-hyperv', {
      podSpec: { containers: [{ name: 'a', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2025' }] },
      windows: { target: rc.nodeTarget },
    });
    const pod = (await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'on-hyperv')).spec.template.spec;
    expect(pod.runtimeClassName).toBe('win-hyperv');
  });

  test("windows.isolation 'hyperv' without a RuntimeClass is refused, as the engine reads isolation from one (issue 24)", () => {
    expect(
      inputErrorsOf(
        () =>
          new lib.WindowsDeployment('hv', {
            podSpec: { containers: [{ name: 'a', image: IIS }] },
            windows: { isolation: 'hyperv' },
          }),
      ),
    ).toEqual([
      {
        propertyPath: 'windows.isolation',
        reason: expect.stringMatching(/runhcs-wcow-hypervisor.*Fix: .*WindowsRuntimeClass with isolation 'hyperv'/),
      },
    ]);
  });

  test("an Output target: the scheduling is the target's once resolved", async () => {
    const rc = new lib.WindowsRuntimeClass('pool-rc', { target: pulumi.output(POOL_TARGET) });
    const inputs = await inputsOf(rc.runtimeClass, 'kubernetes:node.k8s.io/v1:RuntimeClass', 'pool-rc');
    expect(inputs.scheduling.tolerations).toHaveLength(2);
    expect(await resolved(pulumi.output(rc.nodeTarget))).toEqual({ ...POOL_TARGET, runtimeClassName: 'pool-rc' });
  });

  test('bad inputs are listed at once', () => {
    expect(
      inputErrorsOf(() => new lib.WindowsRuntimeClass('Bad_Name', { release: '2004' as never })).map(
        (e) => e.propertyPath,
      ),
    ).toEqual(['name']);
    expect(inputErrorsOf(() => new lib.WindowsRuntimeClass('rc', { release: '2004' as never }))).toEqual([
      { propertyPath: 'release', reason: expect.stringContaining('Semi-Annual Channel') },
    ]);
  });
});

const DOMAIN = {
  dnsName: 'contoso.com',
  netBiosName: 'CONTOSO',
  sid: 'S-1-5-21-1111111111-2222222222-3333333333',
  guid: '244818ae-87ca-4fcd-92ec-e79e5252348a',
};

describe('GmsaCredentialSpec', () => {
  test('a cluster-scoped windows.k8s.io/v1 object with a top-level credspec', async () => {
    const spec = new lib.GmsaCredentialSpec('webapp01', { domain: DOMAIN, accounts: [{ name: 'WebApp01' }] });
    const inputs = await inputsOf(spec.resource, 'kubernetes:windows.k8s.io/v1:GMSACredentialSpec', 'webapp01');
    expect(inputs).toEqual({
      apiVersion: 'windows.k8s.io/v1',
      kind: 'GMSACredentialSpec',
      metadata: { name: 'webapp01' },
      credspec: {
        CmsPlugins: ['ActiveDirectory'],
        DomainJoinConfig: {
          Sid: DOMAIN.sid,
          MachineAccountName: 'WebApp01',
          Guid: DOMAIN.guid,
          DnsTreeName: 'contoso.com',
          DnsName: 'contoso.com',
          NetBiosName: 'CONTOSO',
        },
        ActiveDirectoryConfig: {
          GroupManagedServiceAccounts: [
            { Name: 'WebApp01', Scope: 'contoso.com' },
            { Name: 'WebApp01', Scope: 'CONTOSO' },
          ],
        },
      },
    });
    expect(spec.credentialSpecName).toBe('webapp01');
  });

  test('grantUse: a ClusterRole with verb use on this credspec only, bound in the namespace', async () => {
    const spec = new lib.GmsaCredentialSpec('gmsa', {
      name: 'webapp01',
      domain: DOMAIN,
      accounts: [{ name: 'WebApp01' }],
    });
    const grant = spec.grantUse('web', 'apps');
    expect(spec.grantUse('web', 'apps')).toBe(grant);
    const role = await inputsOf(grant.clusterRole, 'kubernetes:rbac.authorization.k8s.io/v1:ClusterRole', 'gmsa-use');
    expect(role.rules).toEqual([
      {
        apiGroups: ['windows.k8s.io'],
        resources: ['gmsacredentialspecs'],
        verbs: ['use'],
        resourceNames: ['webapp01'],
      },
    ]);
    const binding = await inputsOf(
      grant.roleBinding,
      'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding',
      'gmsa-use-apps-web',
    );
    expect(binding.metadata).toEqual({ name: 'webapp01-gmsa-use-web', namespace: 'apps' });
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'webapp01-gmsa-use',
    });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'web', namespace: 'apps' }]);
    // A second account shares the ClusterRole.
    expect(spec.grantUse('worker', 'apps').clusterRole).toBe(grant.clusterRole);
  });

  test('a workload given the spec names it and depends on it', async () => {
    const spec = new lib.GmsaCredentialSpec('app-gmsa', { domain: DOMAIN, accounts: [{ name: 'WebApp01' }] });
    const d = new lib.WindowsDeployment('gmsa-web', {
      podSpec: { serviceAccountName: 'web', containers: [{ name: 'a', image: IIS }] },
      windows: { gmsa: spec },
    });
    const pod = (await inputsOf(d.deployment, 'kubernetes:apps/v1:Deployment', 'gmsa-web')).spec.template.spec;
    expect(pod.securityContext.windowsOptions).toEqual({ gmsaCredentialSpecName: 'app-gmsa' });
  });

  test('every credspec error and bad name at once; braced GUIDs normalised with a warning', async () => {
    const errors = inputErrorsOf(
      () =>
        new lib.GmsaCredentialSpec('Bad', {
          domain: { ...DOMAIN, sid: 'S-1-2-3', netBiosName: 'WAY-TOO-LONG-NETBIOS' },
          accounts: [{ name: 'WebApp01$' }],
        }),
    );
    // The rule modules judge the object the component emits, as lint does; the fix names the arg to set.
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'credspec.DomainJoinConfig.Sid',
      'credspec.DomainJoinConfig.NetBiosName',
      'credspec.DomainJoinConfig.MachineAccountName',
      'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[0].Name',
      'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Name',
      'metadata.name',
    ]);
    expect(errors[0].reason).toBe(
      "'S-1-2-3' is not a domain SID. Fix: Set the `domain.sid` arg: Use the domain SID S-1-5-21-<a>-<b>-<c>: (Get-ADDomain).DomainSID.Value, or New-CredentialSpec's DomainJoinConfig.Sid.",
    );
    expect(errors[5].reason).toMatch(
      /Fix: Set the `name` arg \(it defaults to the resource name\): Rename it to 'bad'\.$/,
    );
    expect(registered).toEqual([]);

    const ok = new lib.GmsaCredentialSpec('braced', {
      domain: { ...DOMAIN, guid: `{${DOMAIN.guid}}` },
      accounts: [{ name: 'WebApp01' }],
    });
    expect(ok.credspec.DomainJoinConfig.Guid).toBe(DOMAIN.guid);
    // The sink holds the refusals of 'Bad' as errors, then the warning of 'braced' at its prop path.
    expect(findings.map((f) => [f.ruleId, f.severity, f.path, f.resource])).toEqual([
      ...errors.map((e) => [
        e.propertyPath === 'metadata.name' ? 'gmsa-credspec-name' : 'gmsa-credspec-format',
        'error',
        e.propertyPath,
        'Bad',
      ]),
      ['gmsa-credspec-format', 'warning', 'domain.guid', 'braced'],
    ]);
  });

  test('grantUse refuses names Kubernetes would refuse', () => {
    const spec = new lib.GmsaCredentialSpec('names', { domain: DOMAIN, accounts: [{ name: 'WebApp01' }] });
    expect(inputErrorsOf(() => spec.grantUse('Web_SA', 'My.Namespace')).map((e) => e.propertyPath)).toEqual([
      'serviceAccountName',
      'namespace',
    ]);
  });
});

describe('issue 9: args of null or undefined', () => {
  test.each([undefined, null])('%p: one InputPropertiesError from every k8s component', (args) => {
    const bad = args as never;
    for (const build of [
      () => new lib.WindowsDeployment('w', bad),
      () => new lib.WindowsStatefulSet('w', bad),
      () => new lib.WindowsJob('w', bad),
      () => new lib.GmsaCredentialSpec('w', bad),
    ]) {
      expect(inputErrorsOf(build)).toEqual([{ propertyPath: 'args', reason: expect.stringContaining('args object') }]);
    }
  });
});
