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

/** What looking a registry's credential up found: one, none, or a problem that says why none could be read. */
export interface CredentialAnswer {
  readonly credential?: RegistryCredential;
  /** The Docker config file or a credential helper failed: what happened, never a secret. */
  readonly problem?: string;
}

/** A helper's output for a message: one line, printable, short (it is not expected to hold a secret, but is capped). */
function excerpt(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return '';
  const printable = line.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 200 ? `${printable.slice(0, 200)}…` : printable;
}

/** What helpers say when they hold nothing for the server (docker-credential-helpers' `credentials not found`). */
const NOT_FOUND = /credentials not found|not found in (native )?keychain|no credentials/i;

/** Runs `docker-credential-NAME get`: a credential, nothing (the helper has none for the server), or its failure. */
function runHelper(
  name: string,
  serverUrl: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CredentialAnswer> {
  const program = `docker-credential-${name}`;
  // A helper is a program on PATH, named by a word: never a path the config could point anywhere.
  if (!/^[\w.-]+$/.test(name)) {
    return Promise.resolve({
      problem: `the credential helper name ${JSON.stringify(name)} is not a word, so no docker-credential-* program is run for it`,
    });
  }
  return new Promise((resolve) => {
    const child = execFile(
      program,
      ['get'],
      { env: process.env, timeout: timeoutMs, maxBuffer: 1 << 20, ...(signal ? { signal } : {}) },
      (error, stdout, stderr) => {
        if (error) {
          const { code, killed } = error as NodeJS.ErrnoException & { killed?: boolean };
          if (code === 'ENOENT') return resolve({ problem: `the credential helper ${program} is not on PATH` });
          if (killed || signal?.aborted || error.name === 'AbortError') {
            return resolve({ problem: `the credential helper ${program} did not answer within ${timeoutMs} ms` });
          }
          if (NOT_FOUND.test(`${stdout}\n${stderr}`)) return resolve({});
          const said = excerpt(String(stderr)) || excerpt(String(stdout));
          return resolve({
            problem: `the credential helper ${program} failed (exit ${typeof code === 'number' ? code : String(code ?? '?')})${said ? `: ${said}` : ''}`,
          });
        }
        try {
          const answer = JSON.parse(stdout) as { Username?: unknown; Secret?: unknown };
          if (typeof answer.Username === 'string' && typeof answer.Secret === 'string' && answer.Secret !== '') {
            return resolve({
              credential:
                answer.Username === TOKEN_USERNAME
                  ? { username: '', password: '', identityToken: answer.Secret, source: program }
                  : { username: answer.Username, password: answer.Secret, source: program },
            });
          }
          return resolve({ problem: `the credential helper ${program} answered with no Username and Secret` });
        } catch {
          return resolve({ problem: `the credential helper ${program} answered something other than JSON` });
        }
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(serverUrl);
  });
}

/** `line 3, column 7` of a JSON.parse error's position; the error text itself may quote the file (and a secret). */
function jsonErrorPlace(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column}`;
}

interface ReadConfig {
  readonly config: DockerConfigFile;
  readonly problem?: string;
}

/** Reads credentials for registries from one Docker config directory, once per registry. */
export class DockerCredentials {
  private config?: Promise<ReadConfig>;
  private readonly found = new Map<string, Promise<CredentialAnswer>>();

  /**
   * @param dir The Docker config directory. @default - `$DOCKER_CONFIG`, else `~/.docker`
   * @param helperTimeoutMs How long a credential helper may run. @default 10000
   * @param deadline Its signal stops a helper still running (the resolution's deadline; read when a helper runs).
   *   @default - none
   */
  constructor(
    readonly dir: string = defaultDockerConfigDir(),
    private readonly helperTimeoutMs = CREDENTIAL_HELPER_TIMEOUT_MS,
    private readonly deadline?: { readonly signal: AbortSignal },
  ) {}

  /** The config file. */
  get file(): string {
    return join(this.dir, 'config.json');
  }

  /** The credential for a registry (`docker.io`, `host:5000`), or undefined when there is none or it failed. */
  async get(registry: string): Promise<RegistryCredential | undefined> {
    return (await this.find(registry)).credential;
  }

  /** The credential for a registry, or why none could be read (a malformed config, a failing helper). */
  find(registry: string): Promise<CredentialAnswer> {
    let entry = this.found.get(registry);
    if (!entry) {
      entry = this.lookup(registry);
      this.found.set(registry, entry);
    }
    return entry;
  }

  /** A problem with the config file itself (unreadable, not JSON), or undefined. */
  async configProblem(): Promise<string | undefined> {
    return (await this.readConfig()).problem;
  }

  private readConfig(): Promise<ReadConfig> {
    const file = this.file;
    this.config ??= readFile(file, 'utf8').then(
      (text) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text) as unknown;
        } catch (error) {
          return { config: {}, problem: `the Docker config ${file} is not valid JSON${jsonErrorPlace(text, error)}` };
        }
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
          ? { config: parsed as DockerConfigFile }
          : { config: {}, problem: `the Docker config ${file} is not a JSON object` };
      },
      (error: NodeJS.ErrnoException) =>
        // No config file is the usual case: no credentials, no problem.
        error.code === 'ENOENT' || error.code === 'ENOTDIR'
          ? { config: {} }
          : { config: {}, problem: `the Docker config ${file} cannot be read (${error.code ?? error.message})` },
    );
    return this.config;
  }

  private async lookup(registry: string): Promise<CredentialAnswer> {
    const { config, problem: configProblem } = await this.readConfig();
    if (configProblem !== undefined) return { problem: configProblem };
    const aliases = registryAliases(registry).map(keyHost);
    const serverUrl = registry === DOCKER_HUB ? DOCKER_HUB_CONFIG_KEY : registry;
    const file = this.file;
    const helpers = typeof config.credHelpers === 'object' && config.credHelpers !== null ? config.credHelpers : {};
    const helper = Object.entries(helpers).find(([key]) => aliases.includes(keyHost(key)))?.[1];
    if (typeof helper === 'string' && helper !== '') {
      const answer = await runHelper(helper, serverUrl, this.helperTimeoutMs, this.deadline?.signal);
      return answer.problem !== undefined ? { problem: `${answer.problem} (credHelpers in ${file})` } : answer;
    }
    let storeProblem: string | undefined;
    if (typeof config.credsStore === 'string' && config.credsStore !== '') {
      const stored = await runHelper(config.credsStore, serverUrl, this.helperTimeoutMs, this.deadline?.signal);
      if (stored.credential) return stored;
      if (stored.problem !== undefined) storeProblem = `${stored.problem} (credsStore in ${file})`;
    }
    const auths = typeof config.auths === 'object' && config.auths !== null ? config.auths : {};
    for (const [key, value] of Object.entries(auths)) {
      if (!aliases.includes(keyHost(key)) || !value || typeof value !== 'object') continue;
      if (typeof value.identitytoken === 'string' && value.identitytoken !== '') {
        const user = typeof value.auth === 'string' ? decodeAuth(value.auth)?.username : value.username;
        return {
          credential: {
            username: user ?? '',
            password: '',
            identityToken: value.identitytoken,
            source: `auths in ${file}`,
          },
        };
      }
      const pair =
        typeof value.auth === 'string' && value.auth !== ''
          ? decodeAuth(value.auth)
          : typeof value.username === 'string' && typeof value.password === 'string'
            ? { username: value.username, password: value.password }
            : undefined;
      if (pair) return { credential: { ...pair, source: `auths in ${file}` } };
      if (typeof value.auth === 'string' && value.auth !== '') {
        return { problem: `the auths entry for ${key} in ${file} is not base64 of user:password` };
      }
    }
    return storeProblem !== undefined ? { problem: storeProblem } : {};
  }
}
