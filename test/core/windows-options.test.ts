import {
  gmsaCredentialSpecNameProblems,
  isDns1123Subdomain,
  isHostProcessUser,
  runAsUserNameProblems,
} from '../../lib/core/windows-options';

describe('runAsUserName (API server rules)', () => {
  test.each([
    'ContainerUser',
    'ContainerAdministrator',
    'NT AUTHORITY\\SYSTEM',
    'CONTOSO\\svc-web',
    'corp.contoso.com\\user',
  ])('accepts %s', (v) => expect(runAsUserNameProblems(v)).toEqual([]));
  test.each([
    ['', 'empty'],
    ['a\\b\\c', 'at most one'],
    ['bad\u0001user', 'control'],
    ['.dom\\user', 'neither a NetBIOS'],
    ['DOMAIN\\', 'cannot be empty'],
    ['...', 'periods and spaces'],
    ['user@corp', 'cannot contain'],
    ['x'.repeat(105), 'at most 104'],
    [`${'d'.repeat(256)}\\user`, 'under 256'],
  ])('refuses %j (%s)', (v, words) => {
    expect(runAsUserNameProblems(v).join(' ')).toContain(words);
  });
});

test('gMSA names are DNS-1123 subdomains', () => {
  expect(gmsaCredentialSpecNameProblems('webapp1')).toEqual([]);
  expect(gmsaCredentialSpecNameProblems('Web_App')).toHaveLength(1);
  expect(isDns1123Subdomain('a.b-c')).toBe(true);
  expect(isDns1123Subdomain('x'.repeat(254))).toBe(false);
});

test('HostProcess users', () => {
  expect(isHostProcessUser('nt authority\\system')).toBe(true);
  expect(isHostProcessUser('ContainerUser')).toBe(false);
});
