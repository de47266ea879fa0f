/** Rules that look across the input set: RuntimeClasses, Namespaces, gMSA specs with RBAC, Services. */
import { validateManifests, type Diagnostic } from 'k8s-windows';
import {
  container,
  credspec,
  gmsaRbac,
  hostProcessSpec,
  namespace,
  pod,
  runtimeClass,
  service,
  windowsPod,
  windowsSpec,
} from './fixtures';

const rule = (ds: Diagnostic[], id: string): Diagnostic[] => ds.filter((d) => d.ruleId === id);

describe('RuntimeClass named by a pod', () => {
  test('its scheduling makes the pod Windows and pins its release', () => {
    const p = pod({
      runtimeClassName: 'windows-2022',
      containers: [container({ image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019' })],
    });
    const ds = validateManifests([runtimeClass('windows-2022', 'runhcs-wcow-process', '10.0.20348'), p]);
    const d = rule(ds, 'image-build-mismatch');
    expect(d).toMatchObject([{ path: 'spec.containers[0].image', resource: { kind: 'Pod' } }]);
    expect(d[0].message).toContain("RuntimeClass 'windows-2022'");
  });

  test('a Hyper-V handler runs older images on a newer host', () => {
    const p = windowsPod({
      runtimeClassName: 'hyperv-2022',
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' })],
    });
    const rc = runtimeClass('hyperv-2022', 'runhcs-wcow-hypervisor', '10.0.20348');
    expect(rule(validateManifests([rc, p]), 'image-build-mismatch')).toEqual([]);
    const newer = windowsPod({
      runtimeClassName: 'hyperv-2019',
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' })],
    });
    const old = runtimeClass('hyperv-2019', 'runhcs-wcow-hypervisor', '10.0.17763');
    expect(rule(validateManifests([old, newer]), 'image-build-mismatch')).toHaveLength(1);
  });

  test('a RuntimeClass outside the set may be Hyper-V: only an image newer than the pinned host is reported', () => {
    const older = windowsPod({
      runtimeClassName: 'elsewhere',
      containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' })],
    });
    expect(rule(validateManifests([older], { windowsRelease: '2022' }), 'image-build-mismatch')).toEqual([]);
    const newer = windowsPod({
      runtimeClassName: 'elsewhere',
      containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2025' })],
    });
    expect(rule(validateManifests([newer], { windowsRelease: '2022' }), 'image-build-mismatch')).toHaveLength(1);
  });

  test('a RuntimeClass outside the set may carry the selector and tolerations', () => {
    const p = windowsPod({ runtimeClassName: 'windows-2022', nodeSelector: undefined, tolerations: undefined });
    expect(validateManifests([p])).toEqual([]);
    const linux = windowsPod({ runtimeClassName: 'windows-2022', nodeSelector: { 'kubernetes.io/os': 'linux' } });
    expect(rule(validateManifests([linux]), 'windows-node-selector-missing')).toHaveLength(1);
  });

  test('without the RuntimeClass in the set the pod is judged by its own fields', () => {
    const p = pod({ runtimeClassName: 'windows-2022', containers: [{ name: 'a', image: 'example/app:1' }] });
    expect(validateManifests([p])).toEqual([]);
  });

  test('HostProcess containers are exempt from image build checks', () => {
    const spec = hostProcessSpec({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      containers: [container({ image: 'example/agent:ltsc2019' })],
    });
    expect(validateManifests([pod(spec)])).toEqual([]);
  });

  test('containers built for different releases cannot share a node', () => {
    const p = windowsPod({
      containers: [container(), container({ name: 'b', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' })],
    });
    expect(rule(validateManifests([p]), 'image-build-mismatch')).toMatchObject([{ path: 'spec.containers[1].image' }]);
  });
});

describe('Namespace Pod Security level', () => {
  test('a restricted namespace rejects a Windows pod without runAsNonRoot, at the violating field', () => {
    const ds = rule(
      validateManifests([namespace('shop', 'restricted'), windowsPod({}, { namespace: 'shop' })]),
      'pod-security-level',
    );
    expect(ds.length).toBeGreaterThan(0);
    expect(ds[0].message).toContain("Namespace 'shop' enforces Pod Security 'restricted'");
    expect(ds.every((d) => d.path.startsWith('spec'))).toBe(true);
  });

  test('a restricted namespace accepts a Windows pod with runAsNonRoot and ContainerUser', () => {
    const p = windowsPod(
      { securityContext: { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } } },
      { namespace: 'shop' },
    );
    expect(rule(validateManifests([namespace('shop', 'restricted'), p]), 'pod-security-level')).toEqual([]);
  });

  test('a HostProcess pod in a baseline namespace is told to use a privileged namespace', () => {
    const ds = rule(
      validateManifests([namespace('agents', 'baseline'), pod(hostProcessSpec(), { namespace: 'agents' })]),
      'pod-security-level',
    );
    expect(ds.length).toBeGreaterThan(0);
    expect(ds.some((d) => (d.fix ?? '').includes('pod-security.kubernetes.io/enforce: privileged'))).toBe(true);
  });

  test('namespaces not in the set, or without an enforce label, are not judged', () => {
    expect(rule(validateManifests([pod(hostProcessSpec(), { namespace: 'agents' })]), 'pod-security-level')).toEqual(
      [],
    );
    expect(
      rule(
        validateManifests([namespace('agents'), pod(hostProcessSpec(), { namespace: 'agents' })]),
        'pod-security-level',
      ),
    ).toEqual([]);
  });
});

describe('gMSA credspec and RBAC', () => {
  const user = (sa?: string) =>
    windowsPod(
      {
        ...(sa ? { serviceAccountName: sa } : {}),
        containers: [container({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'webapp-gmsa' } } })],
      },
      { namespace: 'shop' },
    );

  test('a ClusterRole + RoleBinding to the pod ServiceAccount grants use', () => {
    expect(validateManifests([credspec(), user('web'), ...gmsaRbac('webapp-gmsa', 'shop', 'web')])).toEqual([]);
  });

  test('a binding in another namespace does not count', () => {
    const ds = rule(
      validateManifests([credspec(), user('web'), ...gmsaRbac('webapp-gmsa', 'other', 'web')]),
      'gmsa-rbac-missing',
    );
    expect(ds).toMatchObject([
      { severity: 'error', path: 'spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName' },
    ]);
    expect(ds[0].fix).toContain("ServiceAccount 'web'");
  });

  test('a role granting use on another credspec does not count', () => {
    const [role, binding] = gmsaRbac('other-gmsa', 'shop', 'default');
    expect(rule(validateManifests([credspec(), user(), role, { ...binding }]), 'gmsa-rbac-missing')).toHaveLength(1);
  });

  test('without RBAC objects in the set it is advice only', () => {
    expect(rule(validateManifests([credspec(), user()]), 'gmsa-rbac-missing')).toMatchObject([{ severity: 'info' }]);
  });

  test('a binding to a ClusterRole outside the set cannot be judged', () => {
    const [, binding] = gmsaRbac('webapp-gmsa', 'shop', 'default');
    expect(rule(validateManifests([credspec(), user(), binding]), 'gmsa-rbac-missing')).toEqual([]);
  });

  test('AWS plugin input must be a JSON string with a Secrets Manager ARN', () => {
    const aws = (PluginInput: unknown) =>
      credspec('webapp-gmsa', {
        ...(credspec().credspec as Record<string, unknown>),
        ActiveDirectoryConfig: {
          GroupManagedServiceAccounts: [
            { Name: 'webapp01', Scope: 'contoso.com' },
            { Name: 'webapp01', Scope: 'CONTOSO' },
          ],
          HostAccountConfig: {
            PortableCcgVersion: '1',
            PluginGUID: '{859E1386-BDB4-49E8-85C7-3070B13920E1}',
            PluginInput,
          },
        },
      });
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:gmsa-user-AbCdEf';
    expect(validateManifests([aws(JSON.stringify({ credentialArn: arn }))])).toEqual([]);
    expect(rule(validateManifests([aws({ credentialArn: arn })]), 'gmsa-host-account-config')).toMatchObject([
      { path: 'credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput' },
    ]);
  });

  test('credspec formats: plugins, NetBIOS length, DNS names, $ on the account, PluginGUID braces', () => {
    const content = credspec().credspec as Record<string, Record<string, unknown>>;
    const broken = credspec('webapp-gmsa', {
      ...content,
      CmsPlugins: [{ PluginGUID: '{DABB1965-CB8D-40B4-B527-F78BCFFBD657}' }],
      DomainJoinConfig: {
        ...content.DomainJoinConfig,
        NetBiosName: 'CONTOSOCORPORATION',
        DnsName: 'contoso_com',
        MachineAccountName: 'webapp01$',
      },
      ActiveDirectoryConfig: {
        ...content.ActiveDirectoryConfig,
        HostAccountConfig: {
          PortableCcgVersion: '1',
          PluginGUID: 'CCC2A336-D7F3-4818-A213-272B7924213E',
          PluginInput: 'x',
        },
      },
    });
    const ds = validateManifests([broken]);
    expect(ds.map((d) => [d.ruleId, d.path])).toEqual(
      expect.arrayContaining([
        ['gmsa-credspec-format', 'credspec.CmsPlugins'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.NetBiosName'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.DnsName'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.MachineAccountName'],
        ['gmsa-host-account-config', 'credspec.ActiveDirectoryConfig.HostAccountConfig.PluginGUID'],
      ]),
    );
    expect(ds.find((d) => d.path === 'credspec.DomainJoinConfig.MachineAccountName')?.fix).toBe("Write 'webapp01'.");
  });
});

describe('Services in front of Windows pods', () => {
  const winPod = (ns?: string) =>
    pod(windowsSpec(), { labels: { app: 'web', tier: 'front' }, ...(ns ? { namespace: ns } : {}) });
  const local = service({
    type: 'LoadBalancer',
    externalTrafficPolicy: 'Local',
    selector: { app: 'web', tier: 'front' },
  });

  test('matches pods by every selector label', () => {
    expect(rule(validateManifests([winPod(), local]), 'windows-service-external-traffic-local')).toHaveLength(1);
    const other = service({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      selector: { app: 'web', tier: 'back' },
    });
    expect(validateManifests([winPod(), other])).toEqual([]);
  });

  test('only in the same namespace', () => {
    expect(validateManifests([winPod('shop'), local])).toEqual([]);
  });

  test('Services selecting Linux pods are not judged', () => {
    const linux = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'l', labels: { app: 'web', tier: 'front' } },
      spec: { containers: [{ name: 'a', image: 'nginx:1' }] },
    };
    expect(validateManifests([linux, local])).toEqual([]);
  });
});
