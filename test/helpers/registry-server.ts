/**
 * A real CNCF Distribution registry on loopback for the resolver's tests, and the Distribution API calls that push
 * images into it (blob uploads, manifests by digest and by tag).
 *
 * `scripts/test-tools.sh` (npm's `pretest`) builds the registry (github.com/distribution/distribution/v3/cmd/registry)
 * and an `htpasswd` for its Basic auth into .tools/bin (test/helpers/tools.ts); Debian's `docker-registry` and
 * apache2-utils' `htpasswd` do as well. Without them the tests fail with a message saying how to get them, never skip.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOW_TO_GET_TOOLS, toolPath } from './tools';

/** `$DOCKER_REGISTRY_BINARY`, else the tools' `registry` (test/helpers/tools.ts), else Debian's docker-registry. */
export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_BINARY ?? toolPath('registry', '/usr/bin/docker-registry');

export interface RegistryServerOptions {
  /** The registry program. @default - REGISTRY_BINARY */
  readonly binary?: string;
  /** Require Basic auth through an htpasswd file with this one user. */
  readonly htpasswd?: { readonly username: string; readonly password: string };
  /** Require Bearer tokens from a token service (see token-server.ts), signed by the key of this certificate. */
  readonly token?: {
    readonly realm: string;
    readonly service: string;
    readonly issuer: string;
    readonly certPath: string;
  };
  /** The Authorization header of this helper's own pushes to a repository, when the registry requires auth. */
  readonly pushAuthorization?: (repository: string) => string;
}

export interface Blob {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
}

const digestOf = (body: Buffer): string => `sha256:${createHash('sha256').update(body).digest('hex')}`;

/** A free loopback port (the registry binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A bcrypt htpasswd line, as the registry requires (`htpasswd -nbB`: the tools' own, or apache2-utils'). */
function htpasswdLine(username: string, password: string): string {
  const htpasswd = toolPath('htpasswd');
  try {
    return execFileSync(htpasswd, ['-nbB', username, password], { encoding: 'utf8' }).trim();
  } catch (error) {
    throw new Error(`htpasswd could not run to test Basic auth: ${HOW_TO_GET_TOOLS}. ${String(error)}`);
  }
}

export class RegistryServer {
  private child?: ChildProcess;
  private log = '';
  readonly dir: string;

  private constructor(
    readonly port: number,
    private readonly options: RegistryServerOptions,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'k8s-windows-registry-'));
  }

  /** Starts a registry and waits until `/v2/` answers. */
  static async start(options: RegistryServerOptions = {}): Promise<RegistryServer> {
    const binary = options.binary ?? REGISTRY_BINARY;
    if (!existsSync(binary)) {
      throw new Error(
        `${binary} is missing: the resolver tests need the CNCF Distribution registry: ${HOW_TO_GET_TOOLS}.`,
      );
    }
    const server = new RegistryServer(await freePort(), options);
    await server.startProcess();
    return server;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `http://${this.host}`;
  }

  private async startProcess(): Promise<void> {
    const auth = this.options.htpasswd
      ? (() => {
          const path = join(this.dir, 'htpasswd');
          writeFileSync(path, `${htpasswdLine(this.options.htpasswd.username, this.options.htpasswd.password)}\n`);
          return `auth:\n  htpasswd:\n    realm: test-realm\n    path: ${path}\n`;
        })()
      : this.options.token
        ? `auth:\n  token:\n    realm: ${this.options.token.realm}\n    service: ${this.options.token.service}\n` +
          `    issuer: ${this.options.token.issuer}\n    rootcertbundle: ${this.options.token.certPath}\n`
        : '';
    const config = join(this.dir, 'config.yml');
    writeFileSync(
      config,
      `version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${join(this.dir, 'data')}\n  delete:\n    enabled: true\nhttp:\n  addr: ${this.host}\n  secret: test-secret\n${auth}`,
    );
    const child = spawn(this.options.binary ?? REGISTRY_BINARY, ['serve', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`registry exited (${child.exitCode}): ${this.log}`);
      try {
        const response = await fetch(`${this.url}/v2/`, { signal: AbortSignal.timeout(1000) });
        if (response.status === 200 || response.status === 401) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.stop();
    throw new Error(`registry did not answer on ${this.url} within 10 s: ${this.log}`);
  }

  /** Stops the registry (the data stays, so `restart` serves the same images). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.startProcess();
  }

  /** Stops the registry and removes its files. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private headers(repository: string, extra: Record<string, string> = {}): Record<string, string> {
    if (this.options.pushAuthorization) return { ...extra, Authorization: this.options.pushAuthorization(repository) };
    const credentials = this.options.htpasswd;
    return credentials
      ? {
          ...extra,
          Authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
        }
      : extra;
  }

  /** Pushes a blob (POST an upload, PUT its content with the digest). */
  async pushBlob(repository: string, body: Buffer, mediaType: string): Promise<Blob> {
    const digest = digestOf(body);
    const start = await fetch(`${this.url}/v2/${repository}/blobs/uploads/`, {
      method: 'POST',
      headers: this.headers(repository),
    });
    if (start.status !== 202) throw new Error(`blob upload start: HTTP ${start.status} ${await start.text()}`);
    const location = new URL(start.headers.get('location')!, this.url);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, {
      method: 'PUT',
      headers: this.headers(repository, { 'Content-Type': 'application/octet-stream' }),
      body,
    });
    if (put.status !== 201) throw new Error(`blob upload: HTTP ${put.status} ${await put.text()}`);
    return { mediaType, digest, size: body.length };
  }

  /** Pushes a manifest under a tag or its digest; returns its descriptor. */
  async pushManifest(repository: string, manifest: object, mediaType: string, tag?: string): Promise<Blob> {
    const body = Buffer.from(JSON.stringify(manifest));
    const digest = digestOf(body);
    const response = await fetch(`${this.url}/v2/${repository}/manifests/${tag ?? digest}`, {
      method: 'PUT',
      headers: this.headers(repository, { 'Content-Type': mediaType }),
      body,
    });
    if (response.status !== 201) throw new Error(`manifest push: HTTP ${response.status} ${await response.text()}`);
    return { mediaType, digest, size: body.length };
  }

  /**
   * Pushes a single-platform image (a config blob, one layer, an image manifest) and returns the manifest's
   * descriptor; `tag` also tags it.
   */
  async pushImage(
    repository: string,
    config: { os: string; architecture: string; osVersion?: string; user?: string },
    options: { oci?: boolean; tag?: string } = {},
  ): Promise<Blob> {
    const oci = options.oci ?? true;
    const layerBody = Buffer.from(
      `layer of ${repository} ${config.os}/${config.architecture} ${config.osVersion ?? ''}`,
    );
    const layer = await this.pushBlob(
      repository,
      layerBody,
      oci ? 'application/vnd.oci.image.layer.v1.tar+gzip' : 'application/vnd.docker.image.rootfs.diff.tar.gzip',
    );
    const configBody = Buffer.from(
      JSON.stringify({
        architecture: config.architecture,
        os: config.os,
        ...(config.osVersion ? { 'os.version': config.osVersion } : {}),
        config: config.user !== undefined ? { User: config.user } : {},
        rootfs: { type: 'layers', diff_ids: [layer.digest] },
      }),
    );
    const configBlob = await this.pushBlob(
      repository,
      configBody,
      oci ? 'application/vnd.oci.image.config.v1+json' : 'application/vnd.docker.container.image.v1+json',
    );
    const mediaType = oci
      ? 'application/vnd.oci.image.manifest.v1+json'
      : 'application/vnd.docker.distribution.manifest.v2+json';
    return this.pushManifest(
      repository,
      { schemaVersion: 2, mediaType, config: configBlob, layers: [layer] },
      mediaType,
      options.tag,
    );
  }

  /** Pushes an OCI image index or a Docker manifest list over images already pushed. */
  async pushIndex(
    repository: string,
    entries: { image: Blob; os: string; architecture: string; osVersion?: string }[],
    options: { oci?: boolean; tag: string },
  ): Promise<Blob> {
    const oci = options.oci ?? true;
    const mediaType = oci
      ? 'application/vnd.oci.image.index.v1+json'
      : 'application/vnd.docker.distribution.manifest.list.v2+json';
    const manifests = entries.map(({ image, os, architecture, osVersion }) => ({
      ...image,
      platform: { os, architecture, ...(osVersion ? { 'os.version': osVersion } : {}) },
    }));
    return this.pushManifest(repository, { schemaVersion: 2, mediaType, manifests }, mediaType, options.tag);
  }
}
