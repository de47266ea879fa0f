import fc from 'fast-check';
import { parseImageReference } from '../../lib/core/images';
import { parseChallenges, parseReference } from '../../lib/registry';
import { propertyParameters } from '../helpers/property';

describe('parseReference', () => {
  test.each([
    ['nginx', 'docker.io', 'registry-1.docker.io', 'library/nginx', 'latest', undefined],
    ['nginx:1.27', 'docker.io', 'registry-1.docker.io', 'library/nginx', '1.27', undefined],
    ['docker.io/nginx', 'docker.io', 'registry-1.docker.io', 'library/nginx', 'latest', undefined],
    ['index.docker.io/library/nginx:1', 'docker.io', 'registry-1.docker.io', 'library/nginx', '1', undefined],
    ['bitnami/redis:7', 'docker.io', 'registry-1.docker.io', 'bitnami/redis', '7', undefined],
    [
      'mcr.microsoft.com/windows/servercore:ltsc2022',
      'mcr.microsoft.com',
      'mcr.microsoft.com',
      'windows/servercore',
      'ltsc2022',
      undefined,
    ],
    ['localhost:5000/app', 'localhost:5000', 'localhost:5000', 'app', 'latest', undefined],
    ['localhost/app:v1', 'localhost', 'localhost', 'app', 'v1', undefined],
    [
      'Registry.Example.com:8443/a/b/c:x',
      'registry.example.com:8443',
      'registry.example.com:8443',
      'a/b/c',
      'x',
      undefined,
    ],
  ])('%s', (text, registry, host, repository, tag, digest) => {
    expect(parseReference(text)).toMatchObject({ registry, host, repository, tag, digest });
  });

  test('digests, with or without a tag', () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    expect(parseReference(`nginx@${digest}`)).toEqual({
      registry: 'docker.io',
      host: 'registry-1.docker.io',
      repository: 'library/nginx',
      tag: undefined,
      digest,
      canonical: `docker.io/library/nginx@${digest}`,
    });
    expect(parseReference(`ghcr.io/o/r:1.0@${digest}`).canonical).toBe(`ghcr.io/o/r:1.0@${digest}`);
  });

  test.each([
    ['', /empty/],
    ['a b', /white space/],
    ['Nginx', /path component "Nginx"/],
    ['nginx@sha256:xyz', /digest/],
    [`nginx@sha256:${'A'.repeat(64)}`, /64 lower-case hex/],
    ['nginx:-bad', /tag "-bad"/],
  ])('rejects %j', (text, why) => {
    expect(() => parseReference(text)).toThrow(why);
  });
});

describe('parseChallenges', () => {
  test('Bearer with realm, service and a scope holding a comma', () => {
    expect(
      parseChallenges(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/nginx:pull,push"',
      ),
    ).toEqual([
      {
        scheme: 'bearer',
        params: {
          realm: 'https://auth.docker.io/token',
          service: 'registry.docker.io',
          scope: 'repository:library/nginx:pull,push',
        },
      },
    ]);
  });

  test('Basic, several challenges, and nothing', () => {
    expect(parseChallenges('Basic realm="Registry Realm"')).toEqual([
      { scheme: 'basic', params: { realm: 'Registry Realm' } },
    ]);
    expect(parseChallenges('Bearer realm="https://a/t", Basic realm=x').map((c) => c.scheme)).toEqual([
      'bearer',
      'basic',
    ]);
    expect(parseChallenges(null)).toEqual([]);
  });
});

describe('one grammar for the rules and the registry client', () => {
  const accepts = (text: string): boolean => {
    try {
      parseReference(text);
      return true;
    } catch {
      return false;
    }
  };

  test.each([
    ['a sha256 digest in upper-case hex', `app@sha256:${'AB'.repeat(32)}`, false],
    ['a sha256 digest of 63 digits', `app@sha256:${'a'.repeat(63)}`, false],
    ['a sha512 digest', `app@sha512:${'a'.repeat(128)}`, true],
    ['an OCI digest with a base64url encoding', `app@sha256+b64u:${'A_-='.repeat(11)}`, true],
    ['an upper-case path', 'UPPER/case', false],
    ['a tag starting with a dash', 'app:-bad', false],
    ['a registry host with a port and no path', 'host:5000', true],
  ])('%s: the same answer from both', (_, text, valid) => {
    expect(parseImageReference(text) !== undefined).toBe(valid);
    expect(accepts(text)).toBe(valid);
  });

  test('they accept and refuse the same references, and read the same parts', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      'Z',
      '0',
      '.',
      '-',
      '_',
      '__',
      '/',
      ':',
      '@',
      'sha256:',
      'mcr.io',
      'localhost',
    );
    const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const digest = fc.constantFrom('', `@sha256:${'ab'.repeat(32)}`, `@sha256:${'AB'.repeat(32)}`, '@md5:abc');
    fc.assert(
      fc.property(text, digest, (name, at) => {
        const reference = `${name}${at}`;
        const core = parseImageReference(reference);
        expect(accepts(reference)).toBe(core !== undefined);
        if (core === undefined) return;
        const registry = parseReference(reference);
        expect(registry.digest).toBe(core.digest);
        expect(registry.repository.endsWith(core.repository)).toBe(true);
      }),
      propertyParameters(500),
    );
  });
});
