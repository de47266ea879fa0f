/**
 * The transport's credential rules as a property: whatever a registry answers (Basic or Bearer challenges naming
 * realms on any host and scheme, redirects anywhere, success), over any endpoint (registry or mirror, HTTP or
 * HTTPS, trusted or not) and any set of user-marked insecure hosts, a credential goes only
 * - to its own endpoint's origin, or to a token realm that endpoint named;
 * - over HTTPS, or over plain HTTP to loopback or a user-marked insecure host;
 * - never to an endpoint the caller gave no credential key (a repository's mirror);
 * and no Authorization crosses a redirect to another origin. The registry is a fake HTTP client.
 */
import fc from 'fast-check';
import type { DockerCredentials } from '../../lib/registry/credentials';
import { Deadline } from '../../lib/registry/deadline';
import type { HttpRequest, HttpResponse } from '../../lib/registry/http';
import { RegistryTransport, type Endpoint } from '../../lib/registry/transport';
import { propertyParameters } from '../helpers/property';

const HOSTS = ['127.0.0.1:5000', 'registry.example', 'mirror.example', 'realm.example', 'evil.example'] as const;
const isLoopback = (host: string) => host.startsWith('127.');

type Answer =
  | { readonly kind: 'ok' }
  | { readonly kind: 'basic' }
  | { readonly kind: 'bearer'; readonly realm: string }
  | { readonly kind: 'redirect'; readonly to: string; readonly status: 301 | 302 | 303 | 307 | 308 };

const origin = fc.tuple(fc.constantFrom('http', 'https'), fc.constantFrom(...HOSTS)).map(([s, h]) => `${s}://${h}`);
const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant<Answer>({ kind: 'ok' }),
  fc.constant<Answer>({ kind: 'basic' }),
  origin.map((o): Answer => ({ kind: 'bearer', realm: `${o}/token` })),
  fc
    .tuple(origin, fc.constantFrom(301 as const, 302 as const, 303 as const, 307 as const, 308 as const))
    .map(([o, status]): Answer => ({ kind: 'redirect', to: `${o}/v2/app/manifests/1`, status })),
);

/** Credentials for every host, named by it: `user-<host>`. */
const credentials = {
  dir: '/docker',
  find: (key: string) =>
    Promise.resolve({ credential: { username: `user-${key}`, password: 'secret', source: `auths for ${key}` } }),
} as unknown as DockerCredentials;

interface Sent {
  readonly url: URL;
  readonly authorization?: string;
}

test('credentials go only to their endpoint or its realm, over HTTPS or to loopback/marked hosts; none across redirects', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        scheme: fc.constantFrom('http', 'https'),
        host: fc.constantFrom(...HOSTS),
        keyed: fc.boolean(),
        insecure: fc.subarray([...HOSTS]),
        answers: fc.array(answer, { minLength: 1, maxLength: 8 }),
      }),
      async ({ scheme, host, keyed, insecure, answers }) => {
        const sent: Sent[] = [];
        let turn = 0;
        const client = {
          send: (url: URL, init: HttpRequest): Promise<HttpResponse> => {
            const authorization = Object.entries(init.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
            sent.push({ url, ...(authorization !== undefined ? { authorization } : {}) });
            const headers = new Headers();
            if (url.pathname === '/token') {
              // A token got with credentials is a secret too; an anonymous one is anyone's.
              const token = authorization === undefined ? 'anonymous' : 'got-with-credentials';
              return Promise.resolve({ status: 200, headers, body: Buffer.from(JSON.stringify({ token })) });
            }
            const next = answers[turn++ % answers.length]!;
            switch (next.kind) {
              case 'ok':
                return Promise.resolve({ status: 200, headers, body: Buffer.from('{}') });
              case 'basic':
                headers.set('www-authenticate', 'Basic realm="r"');
                return Promise.resolve({ status: 401, headers, body: Buffer.alloc(0) });
              case 'bearer':
                headers.set('www-authenticate', `Bearer realm="${next.realm}",service="s"`);
                return Promise.resolve({ status: 401, headers, body: Buffer.alloc(0) });
              case 'redirect':
                headers.set('location', next.to);
                return Promise.resolve({ status: next.status, headers, body: Buffer.alloc(0) });
              default: {
                const never: never = next;
                return never;
              }
            }
          },
          close: () => undefined,
        };
        const transport = new RegistryTransport({
          credentials,
          concurrency: 2,
          timeoutMs: 1000,
          retries: 0,
          retryDelayMs: 0,
          deadline: new Deadline(5000),
          credentialHttpHosts: new Set(insecure),
          client,
        });
        const endpoint: Endpoint = {
          url: `${scheme}://${host}`,
          ...(keyed ? { credentialKey: host } : {}),
          label: 'Endpoint',
        };
        await transport.get(endpoint, 'app', '/v2/app/manifests/1', '*/*').catch(() => undefined);

        const endpointOrigin = new URL(endpoint.url).origin;
        const realms = new Set(answers.flatMap((a) => (a.kind === 'bearer' ? [new URL(a.realm).origin] : [])));
        for (const request of sent) {
          if (request.authorization === undefined) continue;
          const where = { request: request.url.href, authorization: request.authorization, endpoint: endpoint.url };
          // Anything sent carries it only to the endpoint's own origin, or to a token realm the endpoint named
          // (a redirect to another origin is sent without it).
          const token = request.url.pathname === '/token';
          expect({
            ...where,
            ok: token ? realms.has(request.url.origin) : request.url.origin === endpointOrigin,
          }).toEqual({ ...where, ok: true });
          const secret =
            request.authorization.startsWith('Basic ') || request.authorization === 'Bearer got-with-credentials';
          if (!secret) continue;
          // A secret only over HTTPS, or plain HTTP to loopback or a host the user marked, and only for an endpoint
          // the caller gave a credential key (never a repository's mirror), and only that key's.
          const safe =
            request.url.protocol === 'https:' ||
            isLoopback(request.url.host) ||
            insecure.includes(request.url.host as (typeof HOSTS)[number]);
          expect({ ...where, safe, keyed }).toEqual({ ...where, safe: true, keyed: true });
          if (request.authorization.startsWith('Basic ')) {
            const pair = Buffer.from(request.authorization.slice(6), 'base64').toString();
            const user = pair.slice(0, pair.lastIndexOf(':'));
            expect(user).toBe(`user-${host}`);
          }
        }
      },
    ),
    propertyParameters(400),
  );
});
