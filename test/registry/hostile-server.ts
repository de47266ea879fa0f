/**
 * A hostile registry for the resolver's tests: one handler behind a plain-HTTP and an HTTPS listener on loopback
 * (the certificate, for the names in HOSTS, made with openssl at test time), routed by the Host header, so that
 * `registry.test`, `realm.test`, `mirror.test` and `storage.test` are different hosts to the resolver (its `lookup`
 * option resolves them to 127.0.0.1). Every request is recorded with its Authorization header, so a test can
 * assert where credentials went. Routes misbehave on purpose: never answering, dripping, lying about lengths,
 * chunked giants, redirect loops, realms on other hosts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The names the certificate holds and `lookup` resolves to loopback. */
export const HOSTS = ['registry.test', 'realm.test', 'mirror.test', 'storage.test', 'dead.test'] as const;
/** A name that never resolves (ENOTFOUND), as on a network without DNS for it. */
export const UNRESOLVED_HOSTS = ['nowhere.test', 'alsonowhere.test'];

export interface RecordedRequest {
  readonly scheme: 'http' | 'https';
  /** The Host header: `registry.test:12345`. */
  readonly host: string;
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
}

export type Route = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

export const sha256 = (body: Buffer | string): string => `sha256:${createHash('sha256').update(body).digest('hex')}`;
export const sha512 = (body: Buffer | string): string => `sha512:${createHash('sha512').update(body).digest('hex')}`;

/** A self-signed certificate for HOSTS and 127.0.0.1, made with the openssl CLI. */
function certificate(dir: string): { key: string; cert: string } {
  const san = [...HOSTS.map((h) => `DNS:${h}`), 'DNS:localhost', 'IP:127.0.0.1'].join(',');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=registry.test',
      '-addext',
      `subjectAltName=${san}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

/** A Windows Server 2022 image config running as ContainerUser. */
export const WINDOWS_CONFIG = Buffer.from(
  JSON.stringify({
    os: 'windows',
    architecture: 'amd64',
    'os.version': '10.0.20348.2340',
    config: { User: 'ContainerUser' },
  }),
);

/** An OCI image manifest naming `configDigest` (a 200 MB layer, so it is no HostProcess image); `note` varies it. */
export function imageManifest(configDigest = sha256(WINDOWS_CONFIG), note = ''): Buffer {
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: configDigest,
        size: WINDOWS_CONFIG.length,
      },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256('layer'), size: 200e6 }],
      ...(note ? { annotations: { note } } : {}),
    }),
  );
}

export class HostileRegistry {
  readonly requests: RecordedRequest[] = [];
  /** Routes by `host path` (`registry.test /v2/app/manifests/1`) or `host *` for every path of a host. */
  private readonly routes = new Map<string, Route>();
  private readonly sockets = new Set<Socket>();
  private readonly dir: string;
  readonly ca: string;
  private http!: Server;
  private https!: Server;
  httpPort = 0;
  httpsPort = 0;

  private constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'k8s-windows-hostile-'));
    const { key, cert } = certificate(this.dir);
    this.ca = cert;
    const handler = (scheme: 'http' | 'https') => (request: IncomingMessage, response: ServerResponse) => {
      const host = request.headers.host ?? '';
      const url = new URL(request.url ?? '/', `${scheme}://${host}`);
      this.requests.push({
        scheme,
        host,
        method: request.method ?? 'GET',
        path: url.pathname,
        ...(request.headers.authorization !== undefined ? { authorization: request.headers.authorization } : {}),
      });
      const name = url.hostname;
      const route = this.routes.get(`${name} ${url.pathname}`) ?? this.routes.get(`${name} *`);
      if (route) return route(request, response, url);
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN' }] }));
    };
    this.http = createHttpServer(handler('http'));
    this.https = createHttpsServer({ key, cert }, handler('https'));
    for (const server of [this.http, this.https]) {
      server.on('connection', (socket: Socket) => {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
      });
    }
  }

  static async start(): Promise<HostileRegistry> {
    const registry = new HostileRegistry();
    const listen = (server: Server) =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : 0);
        }),
      );
    registry.httpPort = await listen(registry.http);
    registry.httpsPort = await listen(registry.https);
    return registry;
  }

  /** `registry.test:<https port>` (or the plain-HTTP port). */
  host(name: string, scheme: 'http' | 'https' = 'https'): string {
    return `${name}:${scheme === 'https' ? this.httpsPort : this.httpPort}`;
  }

  /** The resolver's `lookup`: HOSTS to 127.0.0.1, UNRESOLVED_HOSTS to ENOTFOUND; counts the look-ups of each. */
  readonly lookups = new Map<string, number>();
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.lookups.set(hostname, (this.lookups.get(hostname) ?? 0) + 1);
    const done = callback as unknown as (
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void;
    if (!(HOSTS as readonly string[]).includes(hostname) && hostname !== 'localhost' && hostname !== '127.0.0.1') {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      return process.nextTick(() => done(error, ''));
    }
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
  };

  route(host: string, path: string, route: Route): void {
    this.routes.set(`${host} ${path}`, route);
  }

  /** Serves `body` as JSON of `mediaType` at a host's path. */
  serve(host: string, path: string, body: Buffer | string, mediaType = 'application/json'): void {
    this.route(host, path, (_request, response) => {
      response.writeHead(200, { 'Content-Type': mediaType, 'Content-Length': Buffer.byteLength(body) });
      response.end(body);
    });
  }

  /** A well-formed single-image repository `app` on a host name: tag `1`, by digest, and its config. */
  serveImage(name: string, manifest = imageManifest()): void {
    const type = 'application/vnd.oci.image.manifest.v1+json';
    this.serve(name, '/v2/app/manifests/1', manifest, type);
    this.serve(name, `/v2/app/manifests/${sha256(manifest)}`, manifest, type);
    this.serve(name, `/v2/app/blobs/${sha256(WINDOWS_CONFIG)}`, WINDOWS_CONFIG);
  }

  /** The requests to one host name (any port, either scheme). */
  to(name: string): RecordedRequest[] {
    return this.requests.filter((r) => r.host.replace(/:\d+$/, '') === name);
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
    this.lookups.clear();
  }

  async dispose(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all([this.http, this.https].map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
