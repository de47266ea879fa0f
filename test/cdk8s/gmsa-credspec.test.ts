// Tests of the framework-free credspec model in lib/core/gmsa-credspec.ts (shared by the cdk8s construct, Pulumi
// and the rule engine): the document checks `credentialSpecProblems` run on manifests written by hand.
import fc from 'fast-check';
import {
  buildCredentialSpec,
  credentialSpecProblems,
  sidChecks,
  type CredentialSpecDocument,
} from '../../lib/core/gmsa-credspec';

const GOOD: CredentialSpecDocument = {
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
};

/** A deep copy of GOOD with one path replaced (undefined deletes it). */
function withValue(path: string[], value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(GOOD)) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const summary = (credspec: unknown) =>
  credentialSpecProblems(credspec).map((p) => `${p.severity} ${p.ruleId} ${p.path}`);

describe('credentialSpecProblems', () => {
  test('a credspec as New-CredentialSpec writes it passes', () => {
    expect(credentialSpecProblems(GOOD)).toEqual([]);
  });

  test('what buildCredentialSpec renders passes', () => {
    const { credspec, problems } = buildCredentialSpec({
      domain: {
        dnsName: 'contoso.com',
        netBiosName: 'CONTOSO',
        sid: GOOD.DomainJoinConfig.Sid,
        guid: GOOD.DomainJoinConfig.Guid,
      },
      accounts: [{ name: 'WebApp01' }],
    });
    expect(problems).toEqual([]);
    expect(credspec).toEqual(GOOD);
    expect(credentialSpecProblems(credspec)).toEqual([]);
  });

  test.each<[string, string[], unknown, string]>([
    ['CmsPlugins missing ActiveDirectory', ['CmsPlugins'], ['Other'], 'error gmsa-credspec-format credspec.CmsPlugins'],
    [
      'CmsPlugins with a non-string entry',
      ['CmsPlugins'],
      ['ActiveDirectory', { PluginGUID: '{CCC2A336-D7F3-4818-A213-272B7924213E}' }],
      'error gmsa-credspec-format credspec.CmsPlugins[1]',
    ],
    [
      'Sid not a SID',
      ['DomainJoinConfig', 'Sid'],
      'S-1-5-21-x',
      'error gmsa-credspec-format credspec.DomainJoinConfig.Sid',
    ],
    [
      'Sid an account SID',
      ['DomainJoinConfig', 'Sid'],
      'S-1-5-21-2126449477-2524075714-3094792973-1107',
      'warning gmsa-credspec-account-sid credspec.DomainJoinConfig.Sid',
    ],
    [
      'Guid in braces',
      ['DomainJoinConfig', 'Guid'],
      '{244818ae-87ac-4fcd-92ec-e79e5252348a}',
      'error gmsa-credspec-format credspec.DomainJoinConfig.Guid',
    ],
    [
      'NetBiosName too long',
      ['DomainJoinConfig', 'NetBiosName'],
      'A'.repeat(16),
      'error gmsa-credspec-format credspec.DomainJoinConfig.NetBiosName',
    ],
    [
      'DnsName',
      ['DomainJoinConfig', 'DnsName'],
      'contoso_com',
      'error gmsa-credspec-format credspec.DomainJoinConfig.DnsName',
    ],
    [
      'DnsTreeName missing',
      ['DomainJoinConfig', 'DnsTreeName'],
      undefined,
      'error gmsa-credspec-format credspec.DomainJoinConfig.DnsTreeName',
    ],
    [
      'MachineAccountName with $',
      ['DomainJoinConfig', 'MachineAccountName'],
      'WebApp01$',
      'error gmsa-credspec-format credspec.DomainJoinConfig.MachineAccountName',
    ],
    [
      'DomainJoinConfig missing',
      ['DomainJoinConfig'],
      undefined,
      'error gmsa-credspec-format credspec.DomainJoinConfig',
    ],
    [
      'ActiveDirectoryConfig missing',
      ['ActiveDirectoryConfig'],
      undefined,
      'error gmsa-credspec-format credspec.ActiveDirectoryConfig',
    ],
    [
      'no accounts',
      ['ActiveDirectoryConfig', 'GroupManagedServiceAccounts'],
      [],
      'error gmsa-credspec-format credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts',
    ],
    [
      'primary account for one scope only',
      ['ActiveDirectoryConfig', 'GroupManagedServiceAccounts'],
      [{ Name: 'WebApp01', Scope: 'contoso.com' }],
      'warning gmsa-credspec-accounts credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts',
    ],
    [
      'account without Scope',
      ['ActiveDirectoryConfig', 'GroupManagedServiceAccounts'],
      [{ Name: 'WebApp01', Scope: 'contoso.com' }, { Name: 'WebApp01', Scope: 'CONTOSO' }, { Name: 'Other' }],
      'error gmsa-credspec-format credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts[2].Scope',
    ],
  ])('%s', (_label, path, value, expected) => {
    expect(summary(withValue(path, value))).toEqual([expected]);
  });

  describe('HostAccountConfig', () => {
    const hac = (value: unknown) => withValue(['ActiveDirectoryConfig', 'HostAccountConfig'], value);
    const AWS = '{859E1386-BDB4-49E8-85C7-3070B13920E1}';
    const AZURE = '{CCC2A336-D7F3-4818-A213-272B7924213E}';
    const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:gmsa-AbCdEf';

    test('AWS and Azure inputs in their formats pass', () => {
      expect(
        summary(hac({ PortableCcgVersion: '1', PluginGUID: AWS, PluginInput: JSON.stringify({ credentialArn: ARN }) })),
      ).toEqual([]);
      expect(
        summary(
          hac({
            PortableCcgVersion: '1',
            PluginGUID: AZURE.toLowerCase(),
            PluginInput:
              'ObjectId=8f3a0c5e-1b2d-4e6f-9a7b-0c1d2e3f4a5b;SecretUri=https://kv.vault.azure.net/secrets/gmsa/0123',
          }),
        ),
      ).toEqual([]);
    });

    test('an unknown plugin: only the GUID format is checked', () => {
      expect(
        summary(
          hac({
            PortableCcgVersion: '1',
            PluginGUID: '{00000000-0000-0000-0000-000000000001}',
            PluginInput: 'anything',
          }),
        ),
      ).toEqual([]);
    });

    test.each<[string, unknown, string]>([
      [
        'AWS input as an object, not a string',
        { PortableCcgVersion: '1', PluginGUID: AWS, PluginInput: { credentialArn: ARN } },
        'PluginInput',
      ],
      [
        'AWS input without credentialArn',
        { PortableCcgVersion: '1', PluginGUID: AWS, PluginInput: '{"arn":"x"}' },
        'PluginInput',
      ],
      [
        'Azure input swapped',
        { PortableCcgVersion: '1', PluginGUID: AZURE, PluginInput: 'SecretUri=x;ObjectId=y' },
        'PluginInput',
      ],
      [
        'GUID without braces',
        { PortableCcgVersion: '1', PluginGUID: AWS.slice(1, -1), PluginInput: JSON.stringify({ credentialArn: ARN }) },
        'PluginGUID',
      ],
      [
        'version as a number',
        { PortableCcgVersion: 1, PluginGUID: AWS, PluginInput: JSON.stringify({ credentialArn: ARN }) },
        'PortableCcgVersion',
      ],
    ])('%s', (_label, value, field) => {
      expect(summary(hac(value))).toEqual([
        `error gmsa-host-account-config credspec.ActiveDirectoryConfig.HostAccountConfig.${field}`,
      ]);
    });
  });

  test('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(Array.isArray(credentialSpecProblems(v))).toBe(true);
        expect(Array.isArray(credentialSpecProblems({ ...GOOD, DomainJoinConfig: v }))).toBe(true);
      }),
    );
  });
});

describe('sidChecks', () => {
  test('every domain SID with 32-bit sub-authorities passes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4294967295 }), { minLength: 3, maxLength: 3 }), (parts) => {
        expect(sidChecks(`S-1-5-21-${parts.join('-')}`)).toEqual([]);
      }),
    );
  });

  test('the account SID warning offers the domain SID', () => {
    expect(sidChecks('S-1-5-21-1-2-3-500')).toEqual([
      expect.objectContaining({ severity: 'warning', fix: "Use the domain SID 'S-1-5-21-1-2-3'." }),
    ]);
  });
});
