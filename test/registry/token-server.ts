/**
 * A token service for the Distribution registry's `auth.token` configuration
 * (https://distribution.github.io/distribution/spec/auth/token/): an RS256 JWT signing key with its self-signed
 * certificate (made by `openssl req -x509`; the registry trusts it as `rootcertbundle` and finds it in each
 * token's `x5c` header), and an HTTP endpoint that grants what it is asked for to one user with Basic
 * credentials or (POST, the OAuth2 refresh-token grant) with that user's identity token, and pull on `public/*` to
 * anyone.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createSign, randomUUID, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TOKEN_SERVICE = 'test-registry';
export const TOKEN_ISSUER = 'test-token-issuer';

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export interface TokenRequest {
  readonly service: string | null;
  readonly scope: string | null;
  readonly user?: string;
  /** `refresh_token` for an OAuth2 POST; absent for a GET. */
  readonly grant?: string;
  readonly clientId?: string;
}

export class TokenServer {
  /** What was asked of the service, in order. */
  readonly requests: TokenRequest[] = [];
  private constructor(
    private readonly dir: string,
    private readonly server: Server,
    private readonly key: KeyObject,
    private readonly certificate: string,
    private readonly user: { username: string; password: string; identityToken?: string },
  ) {}

  static async start(user: { username: string; password: string; identityToken?: string }): Promise<TokenServer> {
    const dir = mkdtempSync(join(tmpdir(), 'k8s-windows-token-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ].concat(['-days', '1', '-subj', `/CN=${TOKEN_ISSUER}`]),
      { stdio: 'ignore' },
    );
    const key = createPrivateKey(readFileSync(join(dir, 'key.pem')));
    const certificate = new X509Certificate(readFileSync(join(dir, 'cert.pem'))).raw.toString('base64');
    const holder: { self?: TokenServer } = {};
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const answer = request.method === 'POST' ? holder.self!.oauth(body) : holder.self!.answer(request);
        response.writeHead(answer.status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.self = new TokenServer(dir, server, key, certificate, user);
    return holder.self;
  }

  get certPath(): string {
    return join(this.dir, 'cert.pem');
  }

  get realm(): string {
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}/token`;
  }

  /** A signed token granting `actions` on one repository. */
  token(subject: string, access: { name: string; actions: string[] }[]): string {
    const now = Math.floor(Date.now() / 1000);
    const header = { typ: 'JWT', alg: 'RS256', x5c: [this.certificate] };
    const claims = {
      iss: TOKEN_ISSUER,
      sub: subject,
      aud: TOKEN_SERVICE,
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomUUID(),
      access: access.map((entry) => ({ type: 'repository', ...entry })),
    };
    const signed = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(signed).sign(this.key);
    return `${signed}.${base64url(signature)}`;
  }

  /** The OAuth2 refresh-token grant: the form's refresh_token must be the user's identity token. */
  oauth(form: string): { status: number; body: object } {
    const params = new URLSearchParams(form);
    const request = {
      service: params.get('service'),
      scope: params.get('scope'),
      grant: params.get('grant_type') ?? '',
      clientId: params.get('client_id') ?? '',
    };
    const valid =
      request.grant === 'refresh_token' &&
      this.user.identityToken !== undefined &&
      params.get('refresh_token') === this.user.identityToken &&
      request.clientId !== '';
    this.requests.push({ ...request, ...(valid ? { user: this.user.username } : {}) });
    if (!valid) return { status: 401, body: { error: 'invalid_grant' } };
    return { status: 200, body: { access_token: this.grant(this.user.username, request.scope), expires_in: 300 } };
  }

  /** A token for what `scope` asks of one repository: everything for the user, pull on public/* for anyone. */
  private grant(user: string | undefined, scope: string | null): string {
    const [, name, actions] = /^repository:([^:]+):(.+)$/.exec(scope ?? '') ?? [];
    const granted =
      name && actions && (user !== undefined || name.startsWith('public/'))
        ? [{ name, actions: user !== undefined ? actions.split(',') : ['pull'] }]
        : [];
    return this.token(user ?? '', granted);
  }

  private answer(request: IncomingMessage): { status: number; body: object } {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const service = url.searchParams.get('service');
    const scope = url.searchParams.get('scope');
    const authorization = request.headers.authorization;
    let user: string | undefined;
    if (authorization) {
      const [username, password] = Buffer.from(authorization.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      if (username !== this.user.username || password !== this.user.password) {
        this.requests.push({ service, scope, user: username });
        return { status: 401, body: { details: 'wrong credentials' } };
      }
      user = username;
    }
    this.requests.push({ service, scope, user });
    return { status: 200, body: { token: this.grant(user, scope), expires_in: 300 } };
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
