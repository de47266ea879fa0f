import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { WindowsValidationError } from 'k8s-windows';
import {
  GmsaCredentialSpec,
  WindowsAnnotations,
  WindowsDeployment,
  type GmsaCredentialSpecProps,
} from 'k8s-windows/cdk8s';
import { awsSecretsManagerHostAccount, azureKeyVaultHostAccount } from '../../lib/core/gmsa-credspec';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
};

const DOMAIN = {
  dnsName: 'contoso.com',
  netBiosName: 'CONTOSO',
  sid: 'S-1-5-21-2126449477-2524075714-3094792973',
  guid: '244818ae-87ac-4fcd-92ec-e79e5252348a',
};
const PROPS: GmsaCredentialSpecProps = { name: 'webapp01', domain: DOMAIN, accounts: [{ name: 'WebApp01' }] };

function chart(namespace?: string): Chart {
  return new Chart(Testing.app(), 'test', namespace === undefined ? {} : { namespace });
}

function synth(c: Chart): Obj[] {
  return Testing.synth(c) as Obj[];
}

function ofKind(objects: Obj[], kind: string): Obj[] {
  return objects.filter((o) => o.kind === kind);
}

/** The issues a construction throws, or fails the test. */
function issuesOf(build: () => unknown): { path: string; message: string; fix?: string }[] {
  try {
    build();
  } catch (e) {
    expect(e).toBeInstanceOf(WindowsValidationError);
    return [...(e as WindowsValidationError).issues];
  }
  throw new Error('expected a WindowsValidationError');
}

beforeAll(() => {
  // WindowsAnnotations prints each warning once; keep the test output clean.
  jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});

describe('GmsaCredentialSpec', () => {
  test('renders a cluster-scoped GMSACredentialSpec with the credspec at the top level', () => {
    const c = chart();
    new GmsaCredentialSpec(c, 'spec', PROPS);
    const [obj] = synth(c);
    expect(obj).toEqual({
      apiVersion: 'windows.k8s.io/v1',
      kind: 'GMSACredentialSpec',
      metadata: { name: 'webapp01' },
      credspec: {
        CmsPlugins: ['ActiveDirectory'],
        DomainJoinConfig: {
          Sid: 'S-1-5-21-2126449477-2524075714-3094792973',
          MachineAccountName: 'WebApp01',
          Guid: '244818ae-87ac-4fcd-92ec-e79e5252348a',
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
    expect(obj).not.toHaveProperty('spec');
  });

  test('the credspec JSON of a full spec (snapshot)', () => {
    const c = chart();
    const spec = new GmsaCredentialSpec(c, 'spec', {
      ...PROPS,
      domain: { ...DOMAIN, dnsTreeName: 'corp.contoso.com', machineAccountName: 'WebApp01' },
      accounts: [{ name: 'WebApp01' }, { name: 'Reporting', scope: 'fabrikam.com' }],
      hostAccountConfig: azureKeyVaultHostAccount({
        identityObjectId: '8f3a0c5e-1b2d-4e6f-9a7b-0c1d2e3f4a5b',
        secretUri: 'https://contoso-kv.vault.azure.net/secrets/gmsa-webapp01',
      }),
    });
    expect(JSON.stringify(spec.credspec, null, 2)).toMatchSnapshot();
  });

  test('omits the namespace of a namespaced chart: the object is cluster-scoped', () => {
    const c = chart('shop');
    new GmsaCredentialSpec(c, 'spec', {
      ...PROPS,
      metadata: { labels: { team: 'web' }, annotations: { 'k8s-windows.io/waive': 'gmsa-credspec-account-sid' } },
    });
    const [obj] = synth(c);
    expect(obj.metadata).toEqual({
      name: 'webapp01',
      labels: { team: 'web' },
      annotations: { 'k8s-windows.io/waive': 'gmsa-credspec-account-sid' },
    });
  });

  test('generates a DNS-1123 name when none is given', () => {
    const c = chart();
    const spec = new GmsaCredentialSpec(c, 'Web App', { domain: DOMAIN, accounts: [{ name: 'WebApp01' }] });
    expect(spec.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(synth(c)[0].metadata.name).toBe(spec.name);
  });

  test('an account with a scope is listed once; the primary account defaults to the first', () => {
    const c = chart();
    const spec = new GmsaCredentialSpec(c, 'spec', {
      ...PROPS,
      accounts: [{ name: 'WebApp01' }, { name: 'Batch01', scope: 'CONTOSO' }],
    });
    expect(spec.credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts).toEqual([
      { Name: 'WebApp01', Scope: 'contoso.com' },
      { Name: 'WebApp01', Scope: 'CONTOSO' },
      { Name: 'Batch01', Scope: 'CONTOSO' },
    ]);
    expect(spec.credspec.DomainJoinConfig.MachineAccountName).toBe('WebApp01');
  });

  test('AWS Secrets Manager plugin: PluginInput is a JSON string', () => {
    const c = chart();
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:gmsa-webapp01-AbCdEf';
    const spec = new GmsaCredentialSpec(c, 'spec', {
      ...PROPS,
      hostAccountConfig: awsSecretsManagerHostAccount({ credentialArn: arn }),
    });
    expect(spec.credspec.ActiveDirectoryConfig.HostAccountConfig).toEqual({
      PortableCcgVersion: '1',
      PluginGUID: '{859E1386-BDB4-49E8-85C7-3070B13920E1}',
      PluginInput: `{"credentialArn":"${arn}"}`,
    });
  });

  test('Azure Key Vault plugin: PluginInput is ObjectId=...;SecretUri=...', () => {
    const c = chart();
    const spec = new GmsaCredentialSpec(c, 'spec', {
      ...PROPS,
      hostAccountConfig: azureKeyVaultHostAccount({
        identityObjectId: '8f3a0c5e-1b2d-4e6f-9a7b-0c1d2e3f4a5b',
        secretUri: 'https://contoso-kv.vault.azure.net/secrets/gmsa',
      }),
    });
    expect(spec.credspec.ActiveDirectoryConfig.HostAccountConfig).toEqual({
      PortableCcgVersion: '1',
      PluginGUID: '{CCC2A336-D7F3-4818-A213-272B7924213E}',
      PluginInput:
        'ObjectId=8f3a0c5e-1b2d-4e6f-9a7b-0c1d2e3f4a5b;SecretUri=https://contoso-kv.vault.azure.net/secrets/gmsa',
    });
  });

  describe('normalises unambiguous spellings and says so', () => {
    test('a domain GUID in braces', () => {
      const c = chart();
      const spec = new GmsaCredentialSpec(c, 'spec', { ...PROPS, domain: { ...DOMAIN, guid: `{${DOMAIN.guid}}` } });
      expect(spec.credspec.DomainJoinConfig.Guid).toBe(DOMAIN.guid);
      expect(WindowsAnnotations.warningsOf(c)).toEqual([
        expect.objectContaining({ ruleId: 'gmsa-credspec-format', constructPath: 'test/spec' }),
      ]);
      expect(WindowsAnnotations.warningsOf(c)[0].message).toContain('domain.guid');
    });

    test('a plugin GUID without braces', () => {
      const c = chart();
      const spec = new GmsaCredentialSpec(c, 'spec', {
        ...PROPS,
        hostAccountConfig: {
          pluginGuid: '859E1386-BDB4-49E8-85C7-3070B13920E1',
          pluginInput: '{"credentialArn":"arn:aws:secretsmanager:us-east-1:123456789012:secret:x"}',
        },
      });
      expect(spec.credspec.ActiveDirectoryConfig.HostAccountConfig?.PluginGUID).toBe(
        '{859E1386-BDB4-49E8-85C7-3070B13920E1}',
      );
      expect(WindowsAnnotations.warningsOf(c).map((w) => w.ruleId)).toEqual(['gmsa-host-account-config']);
    });

    test('an account SID (with RID) is kept, with a warning', () => {
      const c = chart();
      const spec = new GmsaCredentialSpec(c, 'spec', { ...PROPS, domain: { ...DOMAIN, sid: `${DOMAIN.sid}-1107` } });
      expect(spec.credspec.DomainJoinConfig.Sid).toBe(`${DOMAIN.sid}-1107`);
      const [w] = WindowsAnnotations.warningsOf(c);
      expect(w.ruleId).toBe('gmsa-credspec-account-sid');
      expect(w.message).toContain(`Use the domain SID '${DOMAIN.sid}'`);
    });

    test('a valid spec has no warnings', () => {
      const c = chart();
      new GmsaCredentialSpec(c, 'spec', PROPS);
      expect(WindowsAnnotations.warningsOf(c)).toEqual([]);
    });
  });

  describe('bad input throws WindowsValidationError naming the field', () => {
    const cases: [string, Partial<GmsaCredentialSpecProps>, string[]][] = [
      ['name not DNS-1123', { name: 'WebApp_01' }, ['metadata.name']],
      ['domain SID', { domain: { ...DOMAIN, sid: 'S-1-5-32-544' } }, ['credspec.DomainJoinConfig.Sid']],
      [
        'domain SID sub-authority over 32 bits',
        { domain: { ...DOMAIN, sid: 'S-1-5-21-1-2-4294967296' } },
        ['credspec.DomainJoinConfig.Sid'],
      ],
      ['domain GUID', { domain: { ...DOMAIN, guid: 'not-a-guid' } }, ['credspec.DomainJoinConfig.Guid']],
      [
        'NetBIOS name over 15 characters',
        { domain: { ...DOMAIN, netBiosName: 'CONTOSOCORPORATION' } },
        ['credspec.DomainJoinConfig.NetBiosName'],
      ],
      [
        'NetBIOS name starting with a period',
        { domain: { ...DOMAIN, netBiosName: '.CONTOSO' } },
        [
          'credspec.DomainJoinConfig.NetBiosName',
          'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Scope',
        ],
      ],
      [
        'DNS name',
        { domain: { ...DOMAIN, dnsName: 'contoso..com' } },
        ['credspec.DomainJoinConfig.DnsName', 'credspec.DomainJoinConfig.DnsTreeName'],
      ],
      [
        'DNS tree name',
        { domain: { ...DOMAIN, dnsTreeName: '-contoso.com' } },
        ['credspec.DomainJoinConfig.DnsTreeName'],
      ],
      [
        'machine account with $',
        { domain: { ...DOMAIN, machineAccountName: 'WebApp01$' } },
        ['credspec.DomainJoinConfig.MachineAccountName'],
      ],
      [
        'account with $',
        { accounts: [{ name: 'WebApp01$' }] },
        [
          'credspec.DomainJoinConfig.MachineAccountName',
          'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[0].Name',
          'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Name',
        ],
      ],
      [
        'account with a domain',
        { accounts: [{ name: 'CONTOSO\\WebApp01' }] },
        [
          'credspec.DomainJoinConfig.MachineAccountName',
          'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[0].Name',
          'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Name',
        ],
      ],
      [
        'account scope',
        { accounts: [{ name: 'WebApp01' }, { name: 'B', scope: 'bad/scope' }] },
        ['credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[2].Scope'],
      ],
      [
        'no accounts',
        { accounts: [] },
        ['credspec.DomainJoinConfig.MachineAccountName', 'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts'],
      ],
      [
        'plugin GUID',
        { hostAccountConfig: { pluginGuid: 'aws', pluginInput: 'x' } },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginGUID'],
      ],
      [
        'AWS plugin input not JSON',
        { hostAccountConfig: { pluginGuid: '{859E1386-BDB4-49E8-85C7-3070B13920E1}', pluginInput: 'arn:aws:x' } },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput'],
      ],
      [
        'AWS plugin input with a non-Secrets-Manager ARN',
        {
          hostAccountConfig: awsSecretsManagerHostAccount({
            credentialArn: 'arn:aws:ssm:us-east-1:123456789012:parameter/x',
          }),
        },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput'],
      ],
      [
        'Azure plugin input in the wrong format',
        { hostAccountConfig: { pluginGuid: '{CCC2A336-D7F3-4818-A213-272B7924213E}', pluginInput: 'SecretUri=x' } },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput'],
      ],
      [
        'Azure plugin input with a bad identity',
        {
          hostAccountConfig: azureKeyVaultHostAccount({
            identityObjectId: 'me',
            secretUri: 'https://kv.vault.azure.net/secrets/s',
          }),
        },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput'],
      ],
      [
        'Azure plugin input with a bad secret URI',
        {
          hostAccountConfig: azureKeyVaultHostAccount({
            identityObjectId: '8f3a0c5e-1b2d-4e6f-9a7b-0c1d2e3f4a5b',
            secretUri: 'http://kv/secret',
          }),
        },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput'],
      ],
      [
        'portable CCG version',
        {
          hostAccountConfig: {
            ...awsSecretsManagerHostAccount({
              credentialArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:x',
            }),
            portableCcgVersion: '2',
          },
        },
        ['credspec.ActiveDirectoryConfig.HostAccountConfig.PortableCcgVersion'],
      ],
    ];

    // The rule modules judge the emitted object, as lint does: paths are the object's, and an input the builder
    // writes to several fields (an unscoped account, listed once per domain name) is named at each.
    test.each(cases)('%s', (_label, override, paths) => {
      const issues = issuesOf(() => new GmsaCredentialSpec(chart(), 'spec', { ...PROPS, ...override }));
      expect(issues.map((i) => i.path)).toEqual(paths);
      for (const i of issues)
        expect(i.fix).toMatch(/^Set (the `[\w.]+` prop|the account's `(name|scope)` in the `accounts` prop)/);
    });

    test('every problem at once, with the construct path in the message', () => {
      let error: unknown;
      try {
        new GmsaCredentialSpec(chart(), 'spec', {
          name: 'Bad_Name',
          domain: { dnsName: 'contoso', netBiosName: 'C:O', sid: 'S-1', guid: 'x' },
          accounts: [{ name: 'WebApp01$' }],
        });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WindowsValidationError);
      const err = error as WindowsValidationError;
      expect(err.issues.map((i) => [i.ruleId, i.path])).toEqual([
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.Sid'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.Guid'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.NetBiosName'],
        ['gmsa-credspec-format', 'credspec.DomainJoinConfig.MachineAccountName'],
        ['gmsa-credspec-format', 'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[0].Name'],
        ['gmsa-credspec-format', 'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Name'],
        ['gmsa-credspec-format', 'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[1].Scope'],
        ['gmsa-credspec-name', 'metadata.name'],
      ]);
      expect(err.message).toContain('GmsaCredentialSpec test/spec');
      expect(err.message).toContain(
        "credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[0].Name: Name 'WebApp01$' ends with '$' (the sAMAccountName form). Fix: Set the account's `name` in the `accounts` prop: Write 'WebApp01'.",
      );
      expect(err.message).toContain("metadata.name: metadata.name 'Bad_Name' is not a lowercase DNS-1123 subdomain");
      expect(err.message).toContain("Fix: Set the `name` prop: Rename it to 'bad-name'.");
    });
  });
});

describe('grantUse', () => {
  function setup(namespace?: string) {
    const c = chart(namespace);
    const spec = new GmsaCredentialSpec(c, 'spec', PROPS);
    return { c, spec };
  }

  test('creates a ClusterRole allowing use of this credspec only, and a RoleBinding in the account namespace', () => {
    const { c, spec } = setup();
    const sa = new kplus.ServiceAccount(c, 'sa', { metadata: { name: 'api', namespace: 'shop' } });
    spec.grantUse(sa);
    const objects = synth(c);
    const [role] = ofKind(objects, 'ClusterRole');
    expect(role.rules).toEqual([
      {
        apiGroups: ['windows.k8s.io'],
        resources: ['gmsacredentialspecs'],
        resourceNames: ['webapp01'],
        verbs: ['use'],
      },
    ]);
    expect(role.metadata.namespace).toBeUndefined();
    const [binding] = ofKind(objects, 'RoleBinding');
    expect(binding.metadata.namespace).toBe('shop');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: role.metadata.name,
    });
    expect(binding.subjects).toEqual([{ apiGroup: '', kind: 'ServiceAccount', name: 'api', namespace: 'shop' }]);
  });

  test('is idempotent per service account; one ClusterRole per credspec', () => {
    const { c, spec } = setup();
    const a = new kplus.ServiceAccount(c, 'a', { metadata: { name: 'a', namespace: 'one' } });
    const b = new kplus.ServiceAccount(c, 'b', { metadata: { name: 'b', namespace: 'two' } });
    const first = spec.grantUse(a);
    expect(spec.grantUse(a)).toBe(first);
    spec.grantUse(b);
    const objects = synth(c);
    expect(ofKind(objects, 'ClusterRole')).toHaveLength(1);
    expect(ofKind(objects, 'RoleBinding').map((r) => r.metadata.namespace)).toEqual(['one', 'two']);
  });

  test("a namespaced chart's ClusterRole has no namespace; the binding takes the account's chart namespace", () => {
    const { c, spec } = setup('shop');
    spec.grantUse(new kplus.ServiceAccount(c, 'sa'));
    const objects = synth(c);
    expect(ofKind(objects, 'ClusterRole')[0].metadata.namespace).toBeUndefined();
    const [binding] = ofKind(objects, 'RoleBinding');
    expect(binding.metadata.namespace).toBe('shop');
    expect((binding.subjects as { namespace?: string }[])[0].namespace).toBe('shop');
  });

  test('an account without a namespace gets a binding without one (both land in the same namespace)', () => {
    const { c, spec } = setup();
    spec.grantUse(new kplus.ServiceAccount(c, 'sa', { metadata: { name: 'api' } }));
    const [binding] = ofKind(synth(c), 'RoleBinding');
    expect(binding.metadata.namespace).toBeUndefined();
    expect(binding.subjects).toEqual([{ apiGroup: '', kind: 'ServiceAccount', name: 'api' }]);
  });

  test("an imported account's namespace defaults to cdk8s-plus's 'default'", () => {
    const { c, spec } = setup();
    spec.grantUse(kplus.ServiceAccount.fromServiceAccountName(c, 'default-sa', 'default'));
    const [binding] = ofKind(synth(c), 'RoleBinding');
    expect(binding.metadata.namespace).toBe('default');
    expect(binding.subjects).toEqual([{ apiGroup: '', kind: 'ServiceAccount', name: 'default', namespace: 'default' }]);
  });

  test('fromName: a credspec created elsewhere can be granted too', () => {
    const c = chart();
    const spec = GmsaCredentialSpec.fromName(c, 'imported', 'legacy-app');
    expect(spec.name).toBe('legacy-app');
    spec.grantUse(kplus.ServiceAccount.fromServiceAccountName(c, 'sa', 'legacy', { namespaceName: 'apps' }));
    const objects = synth(c);
    expect(ofKind(objects, 'GMSACredentialSpec')).toEqual([]);
    expect(ofKind(objects, 'ClusterRole')[0].rules).toEqual([
      {
        apiGroups: ['windows.k8s.io'],
        resources: ['gmsacredentialspecs'],
        resourceNames: ['legacy-app'],
        verbs: ['use'],
      },
    ]);
    expect(ofKind(objects, 'RoleBinding')[0].metadata.namespace).toBe('apps');
  });

  test('fromName refuses a name pods cannot reference', () => {
    const issues = issuesOf(() => GmsaCredentialSpec.fromName(chart(), 'imported', 'Legacy_App'));
    expect(issues.map((i) => i.path)).toEqual(['name']);
  });

  test('a WindowsDeployment with windows.gmsa names the credspec and grants its service account', () => {
    const { c, spec } = setup('shop');
    new WindowsDeployment(c, 'api', {
      containers: [{ image: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2022' }],
      windows: { gmsa: spec },
    });
    const objects = synth(c);
    const [deployment] = ofKind(objects, 'Deployment');
    const pod = (deployment.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    expect(pod.securityContext).toEqual({ windowsOptions: { gmsaCredentialSpecName: 'webapp01' } });
    const [binding] = ofKind(objects, 'RoleBinding');
    expect(binding.subjects).toEqual([
      { apiGroup: '', kind: 'ServiceAccount', name: pod.serviceAccountName, namespace: 'shop' },
    ]);
  });
});
