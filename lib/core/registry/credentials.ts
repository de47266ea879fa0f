/**
 * Registry credentials from the Docker config file, found as Docker finds them: `credHelpers[host]`, then
 * `credsStore`, then `auths[host]` (`auth` is base64 `user:password`). A helper is the program
 * `docker-credential-NAME`, run as `docker-credential-NAME get` with the server URL on stdin, answering
 * `{ "Username": …, "Secret": … }` (https://github.com/docker/docker-credential-helpers). An identity token (an
 * `auths` entry's `identitytoken`, as `az acr login` writes it, or a helper's Secret under the Username `<token>`)
 * is a refresh token the token service exchanges with an OAuth2 POST (transport.ts).
 *
 * Credentials stay in memory: no message, error or cache file ever holds one. Messages name where a credential
 * came from (`auths`, `docker-credential-NAME`), never its value.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DOCKER_HUB, DOCKER_HUB_CONFIG_KEY, registryAliases } from './reference';

export interface RegistryCredential {
  readonly username: string;
  readonly password: string;
  /**
   * An OAuth2 refresh token to exchange at the token service instead of Basic credentials
   * (https://distribution.github.io/distribution/spec/auth/oauth/).
   */
  readonly identityToken?: string;
  /** Where it came from, for messages: `auths in /x/config.json`, `docker-credential-pass`. */
  readonly source: string;
}

interface DockerConfigFile {
  readonly auths?: Record<
    string,
    { auth?: string; username?: string; password?: string; identitytoken?: string } | undefined
  >;
  readonly credHelpers?: Record<string, string | undefined>;
  readonly credsStore?: string;
}

/** The Username a credential helper answers with when its Secret is an identity token (as the docker CLI reads it). */
const TOKEN_USERNAME = '<token>';

/** How long a credential helper may run. */
export const CREDENTIAL_HELPER_TIMEOUT_MS = 10_000;

/** The Docker config directory: `$DOCKER_CONFIG`, else `~/.docker` (as the docker CLI resolves it). */
export function defaultDockerConfigDir(): string {
  return process.env.DOCKER_CONFIG || join(homedir(), '.docker');
}

/** `https://host:5000/v2/` → `host:5000`: how Docker compares `auths` keys. */
function keyHost(key: string): string {
  return key
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
}

function decodeAuth(auth: string): { username: string; password: string } | undefined {
  const text = Buffer.from(auth, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon > 0 ? { username: text.slice(0, colon), password: text.slice(colon + 1) } : undefined;
}

/** Runs `docker-credential-NAME get`; undefined when the helper has nothing for the server or fails. */
function runHelper(name: string, serverUrl: string, timeoutMs: number): Promise<RegistryCredential | undefined> {
  const program = `docker-credential-${name}`;
  // A helper is a program on PATH, named by a word: never a path the config could point anywhere.
  if (!/^[\w.-]+$/.test(name)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = execFile(
      program,
      ['get'],
      { env: process.env, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) return resolve(undefined);
        try {
          const answer = JSON.parse(stdout) as { Username?: unknown; Secret?: unknown };
          if (typeof answer.Username === 'string' && typeof answer.Secret === 'string' && answer.Secret !== '') {
            return resolve(
              answer.Username === TOKEN_USERNAME
                ? { username: '', password: '', identityToken: answer.Secret, source: program }
                : { username: answer.Username, password: answer.Secret, source: program },
            );
          }
        } catch {
          // Not JSON: the helper has nothing useful for this server.
        }
        resolve(undefined);
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(serverUrl);
  });
}

/** Reads credentials for registries from one Docker config directory, once per registry. */
export class DockerCredentials {
  private config?: Promise<DockerConfigFile>;
  private readonly found = new Map<string, Promise<RegistryCredential | undefined>>();

  /**
   * @param dir The Docker config directory. @default - `$DOCKER_CONFIG`, else `~/.docker`
   * @param helperTimeoutMs How long a credential helper may run. @default 10000
   */
  constructor(
    readonly dir: string = defaultDockerConfigDir(),
    private readonly helperTimeoutMs = CREDENTIAL_HELPER_TIMEOUT_MS,
  ) {}

  /** The credential for a registry (`docker.io`, `host:5000`), or undefined when the config has none. */
  get(registry: string): Promise<RegistryCredential | undefined> {
    let entry = this.found.get(registry);
    if (!entry) {
      entry = this.lookup(registry);
      this.found.set(registry, entry);
    }
    return entry;
  }

  private readConfig(): Promise<DockerConfigFile> {
    this.config ??= readFile(join(this.dir, 'config.json'), 'utf8').then(
      (text) => {
        try {
          const parsed = JSON.parse(text) as unknown;
          return parsed !== null && typeof parsed === 'object' ? (parsed as DockerConfigFile) : {};
        } catch {
          return {};
        }
      },
      () => ({}),
    );
    return this.config;
  }

  private async lookup(registry: string): Promise<RegistryCredential | undefined> {
    const config = await this.readConfig();
    const aliases = registryAliases(registry).map(keyHost);
    const serverUrl = registry === DOCKER_HUB ? DOCKER_HUB_CONFIG_KEY : registry;
    const helper = Object.entries(config.credHelpers ?? {}).find(([key]) => aliases.includes(keyHost(key)))?.[1];
    if (typeof helper === 'string' && helper !== '') return runHelper(helper, serverUrl, this.helperTimeoutMs);
    if (typeof config.credsStore === 'string' && config.credsStore !== '') {
      const stored = await runHelper(config.credsStore, serverUrl, this.helperTimeoutMs);
      if (stored) return stored;
    }
    const file = join(this.dir, 'config.json');
    for (const [key, value] of Object.entries(config.auths ?? {})) {
      if (!aliases.includes(keyHost(key)) || !value) continue;
      if (typeof value.identitytoken === 'string' && value.identitytoken !== '') {
        const user = value.auth ? decodeAuth(value.auth)?.username : value.username;
        return { username: user ?? '', password: '', identityToken: value.identitytoken, source: `auths in ${file}` };
      }
      const pair =
        typeof value.auth === 'string' && value.auth !== ''
          ? decodeAuth(value.auth)
          : typeof value.username === 'string' && typeof value.password === 'string'
            ? { username: value.username, password: value.password }
            : undefined;
      if (pair) return { ...pair, source: `auths in ${file}` };
    }
    return undefined;
  }
}
