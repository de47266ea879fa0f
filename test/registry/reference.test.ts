import { parseChallenges, parseReference } from '../../lib/registry';

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
