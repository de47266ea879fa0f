/**
 * A real Kubernetes control plane for the tests (issue 33 §2): kube-apiserver v1.37.2 on loopback over Debian's
 * etcd, and kube-controller-manager running only the ValidatingAdmissionPolicy status controller (which fills
 * `status.typeChecking`, and writes nothing else). No kubelet, scheduler or other controller runs: Nodes, Pods,
 * their `status` subresource, Events and ServiceAccounts are plain API objects a test writes exactly as those
 * components write them (`cluster.request`), and nothing changes them behind the test's back.
 *
 * Both components are one Go binary, `build/kube-test-cluster` (test/kube-apiserver: a module requiring
 * k8s.io/kubernetes v1.37.2, its staging modules replaced with their v0.37.2 releases). scripts/test-tools.sh
 * (npm test's pretest) builds it and etcd first; `ensureKubeTestCluster()` rebuilds it only when a source is newer
 * (minutes on a cold Go cache) and fails, never skips, without Go or etcd.
 *
 * One cluster per test file: `startCluster()` in beforeAll (about 5 s; give it CLUSTER_START_TIMEOUT, for a build),
 * `cluster.stop()` in afterAll. About 600 MB of memory: the API server 300-450 MB, the controller manager 130-450 MB,
 * etcd 50 MB. Every process is started under `setpriv --pdeathsig KILL`, so a killed jest worker leaves none behind.
 *
 * What a test writing cluster state should know (test/kube-apiserver/README.md has the rest):
 * - A new Node gets the `node.kubernetes.io/not-ready:NoSchedule` taint from admission (TaintNodesByCondition);
 *   the node lifecycle controller, which would take it off once the kubelet reports Ready, does not run: a test
 *   writing a Ready node takes the taint off itself (PATCH spec.taints), as that controller does.
 * - A Pod's `status` is written only through `/status` (the main resource ignores it); the API server sets phase
 *   Pending and qosClass at create. The scheduler's PodScheduled condition and Events are the test's to write.
 * - Pod admission needs the namespace's `default` ServiceAccount, which the service-account controller would make:
 *   `cluster.namespace(name)` makes a namespace with it; the `default` namespace has it when startCluster resolves.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { HOW_TO_GET_TOOLS, toolPath } from './tools';

const REPO = path.join(__dirname, '..', '..');
/** The Go module's folder. */
export const KUBE_TEST_CLUSTER_SOURCE = path.join(REPO, 'test', 'kube-apiserver');
/** Where the binary is built (build/ is ignored by git). */
export const KUBE_TEST_CLUSTER_BINARY = path.join(REPO, 'build', 'kube-test-cluster');
/** $ETCD_BINARY, else the tools' etcd (scripts/test-tools.sh; test/helpers/tools.ts), else Debian's (`etcd-server`). */
export const ETCD_BINARY = process.env.ETCD_BINARY ?? toolPath('etcd', '/usr/bin/etcd');

/** The k8s.io/kubernetes version test/kube-apiserver/go.mod requires, e.g. `v1.37.2`. */
export function kubernetesVersion(): string {
  const goMod = readFileSync(path.join(KUBE_TEST_CLUSTER_SOURCE, 'go.mod'), 'utf8');
  const match = /^\s*(?:require\s+)?k8s\.io\/kubernetes\s+(v\d+\.\d+\.\d+)\s*$/m.exec(goMod);
  if (match === null) throw new Error('test/kube-apiserver/go.mod requires no k8s.io/kubernetes version');
  return match[1]!;
}

/**
 * `go build`'s arguments: the version stamped as Kubernetes' own build stamps it (hack/lib/version.sh), so
 * `/version` answers gitVersion v1.37.2, major 1, minor 37 as a released API server does. scripts/test-tools.sh
 * runs the same.
 */
export function kubeTestClusterBuildArgs(output: string): string[] {
  const version = kubernetesVersion();
  const [major, minor] = version.slice(1).split('.');
  const stamp = (name: string, value: string) => `-X k8s.io/component-base/version.${name}=${value}`;
  return [
    'build',
    '-trimpath',
    '-ldflags',
    [stamp('gitVersion', version), stamp('gitMajor', major!), stamp('gitMinor', minor!)].join(' '),
    '-o',
    output,
    './',
  ];
}

/** The newest modification time of the module's sources (go files, go.mod, go.sum). */
function newestSource(): number {
  return readdirSync(KUBE_TEST_CLUSTER_SOURCE)
    .filter((name) => name.endsWith('.go') || name === 'go.mod' || name === 'go.sum')
    .reduce((newest, name) => Math.max(newest, statSync(path.join(KUBE_TEST_CLUSTER_SOURCE, name)).mtimeMs), 0);
}

/**
 * Builds build/kube-test-cluster unless it is newer than every source: on a cold Go cache about 18 minutes of CPU
 * (kube-apiserver and kube-controller-manager are most of Kubernetes), about 30 s when only the link is left. The
 * build goes to a temporary name first, so jest workers building at once never run a half-written binary. Throws,
 * never skips, when Go is missing.
 */
export function ensureKubeTestCluster(): string {
  if (existsSync(KUBE_TEST_CLUSTER_BINARY) && statSync(KUBE_TEST_CLUSTER_BINARY).mtimeMs >= newestSource()) {
    return KUBE_TEST_CLUSTER_BINARY;
  }
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error !== undefined || go.status !== 0) {
    throw new Error(
      'Go is not on PATH: the live API server tests build test/kube-apiserver with Go 1.26 (CONTRIBUTING.md: Set up; scripts/test-tools.sh builds it before npm test).',
    );
  }
  mkdirSync(path.dirname(KUBE_TEST_CLUSTER_BINARY), { recursive: true });
  const partial = `${KUBE_TEST_CLUSTER_BINARY}.${process.pid}.tmp`;
  try {
    execFileSync('nice', ['go', ...kubeTestClusterBuildArgs(partial)], {
      cwd: KUBE_TEST_CLUSTER_SOURCE,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    rmSync(partial, { force: true });
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`go build in test/kube-apiserver failed:\n${stderr || String(error)}`);
  }
  renameSync(partial, KUBE_TEST_CLUSTER_BINARY);
  return KUBE_TEST_CLUSTER_BINARY;
}

// ---------------------------------------------------------------------------------------------------------------
// Users.

/** A user of the token file (`--token-auth-file`). */
export interface ClusterUser {
  readonly name: string;
  readonly token: string;
  /** Besides system:authenticated, which every authenticated user has. */
  readonly groups: readonly string[];
}

/**
 * The token file's users. `admin` is in system:masters (every right, RBAC or not); `alice` and `bob` have no
 * right at all (403 on anything but discovery, /version and health), for tests that bind them a Role or
 * ClusterRole of their own. A token not in the file is refused with 401 (`kubeconfig({ name, token })`).
 */
export type ClusterUserName = 'admin' | 'alice' | 'bob';

const USER_GROUPS: Readonly<Record<ClusterUserName, readonly string[]>> = {
  admin: ['system:masters'],
  alice: [],
  bob: [],
};

/** A kubeconfig's user: one of the token file's, or any name and token (a wrong token is refused with 401). */
export type KubeconfigUser = ClusterUserName | { readonly name: string; readonly token: string };

// ---------------------------------------------------------------------------------------------------------------
// The cluster.

export interface StartClusterOptions {
  /**
   * The kube-controller-manager controllers to run (its --controllers names); [] runs no controller manager.
   * @default ['validatingadmissionpolicy-status-controller']
   */
  readonly controllers?: readonly string[];
  /**
   * More kube-apiserver flags, e.g. `--runtime-config=admissionregistration.k8s.io/v1beta1=true` to serve a beta
   * version, `--feature-gates=...`. @default []
   */
  readonly apiserverFlags?: readonly string[];
  /** How long the start may take, build excluded, before it fails with the logs' tail. @default 90 s */
  readonly timeoutMs?: number;
}

/** A JSON object from the API server, read field by field in tests. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An API response: its status and body (JSON parsed when it is JSON, else the text). */
export interface ApiResponse<T = Json> {
  readonly status: number;
  readonly body: T;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface RequestOptions {
  /** The bearer token. @default the admin's */
  readonly token?: string;
  /** Send no Authorization header: the request is system:anonymous's. @default false */
  readonly anonymous?: boolean;
  /**
   * The body's Content-Type. @default `application/json`; for PATCH `application/merge-patch+json` (use
   * `application/apply-patch+yaml` with `?fieldManager=...` for a server-side apply, `application/strategic-merge-patch+json`
   * or `application/json-patch+json`)
   */
  readonly contentType?: string;
  /** @default 30 s */
  readonly timeoutMs?: number;
}

export interface Cluster {
  /** `https://127.0.0.1:<port>`. */
  readonly server: string;
  /** The PEM file of the API server's self-signed serving certificate and its CA (`--cert-dir` generates both). */
  readonly caFile: string;
  /** That file's text. */
  readonly ca: string;
  /** The token of `admin` (system:masters). */
  readonly adminToken: string;
  /** The token file's users. */
  readonly users: Readonly<Record<ClusterUserName, ClusterUser>>;
  /** The API server's version, `v1.37.2`. */
  readonly version: string;
  /** The cluster's temporary folder (logs, certificates, kubeconfigs, etcd's data); removed by stop(). */
  readonly dir: string;
  /**
   * Writes a kubeconfig for the user (one cluster `test`, one user, one context `test`, current) and returns its
   * path; the CA is inline (certificate-authority-data), so the file stands alone. @default user 'admin'
   */
  kubeconfig(user?: KubeconfigUser, file?: string): string;
  /**
   * One API request, as the admin unless a token is given: `request('POST', '/api/v1/nodes', node)`,
   * `request('PUT', '/api/v1/namespaces/x/pods/p/status', pod)`, `request('GET', '/api/v1/pods', undefined, alice)`.
   * Never throws on an HTTP status (tests assert 401 and 403); throws on a connection failure.
   */
  request<T = Json>(
    method: string,
    apiPath: string,
    body?: unknown,
    options?: string | RequestOptions,
  ): Promise<ApiResponse<T>>;
  /** Like request, but throws with the status and the API server's message unless the status is 2xx. */
  ok<T = Json>(method: string, apiPath: string, body?: unknown, options?: string | RequestOptions): Promise<T>;
  /**
   * The collection path of a kind, from the API server's discovery (`/api/v1/nodes`,
   * `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies`); a namespaced kind's path needs its
   * namespace put in: `namespaced` says so. Waits up to 10 s for a kind a CRD has just added.
   */
  resource(apiVersion: string, kind: string): Promise<{ readonly path: string; readonly namespaced: boolean }>;
  /**
   * Polls `check` every 200 ms until it returns something other than undefined; after `ms`, fails with `what` and
   * the logs' tail, at once when a process of the cluster has exited. For what a controller writes (a policy's
   * status) and a CRD's Established.
   */
  eventually<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T>;
  /**
   * Creates a namespace (with these labels) and its `default` ServiceAccount, as the API server and the
   * service-account controller would; returns the Namespace.
   */
  namespace(name: string, labels?: Readonly<Record<string, string>>): Promise<Json>;
  /** The last lines of each component's log, for a failure message. */
  logs(lines?: number): string;
  /** Kills the processes and removes the folder. Safe to call twice. */
  stop(): Promise<void>;
}

const DEFAULT_CONTROLLERS = ['validatingadmissionpolicy-status-controller'];

/** A free loopback port (a process binds it a moment later: a start that loses the race is retried). */
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

async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** setpriv (util-linux, in every Debian): the child gets SIGKILL when this process dies, however it dies. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/** The last `lines` lines of a log file. */
function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '(no log)';
  const text = readFileSync(file, 'utf8');
  return text
    .split('\n')
    .slice(-lines - 1)
    .join('\n');
}

/** A failed start that another try with other ports may fix. */
class PortTakenError extends Error {}

class Process {
  readonly child: ChildProcess;
  private exited = false;
  private readonly exit: Promise<void>;

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[],
    readonly logFile: string,
    cwd: string,
    env: Readonly<Record<string, string>> = {},
  ) {
    // A fresh log per start: a retried start's failure is read from its own lines.
    const log = openSync(logFile, 'w');
    const [file, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, [...args]];
    try {
      this.child = spawn(file, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
    } finally {
      closeSync(log);
    }
    this.exit = new Promise((resolve) => {
      this.child.once('exit', () => {
        this.exited = true;
        resolve();
      });
      this.child.once('error', () => {
        this.exited = true;
        resolve();
      });
    });
  }

  get running(): boolean {
    return !this.exited && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Fails when the process has exited: with PortTakenError when it could not bind its port. */
  check(): void {
    if (this.running) return;
    const log = tail(this.logFile, 40);
    const message = `${this.name} exited (${String(this.child.exitCode ?? this.child.signalCode)}):\n${log}`;
    if (/address already in use/.test(log)) throw new PortTakenError(message);
    throw new Error(message);
  }

  /** SIGKILL: nothing in a test cluster needs a graceful shutdown, and a kill cannot hang. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exit, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
  }
}

/** A GET answered over plain HTTP (etcd's /health) or HTTPS without verification (the API server's /readyz). */
function probe(url: string, timeoutMs = 2000): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const secure = url.startsWith('https:');
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', timeout: timeoutMs, ...(secure ? { rejectUnauthorized: false } : {}) },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

class TestCluster implements Cluster {
  readonly users: Readonly<Record<ClusterUserName, ClusterUser>>;
  readonly version = kubernetesVersion();
  server = '';
  caFile = '';
  ca = '';
  private agent?: Agent;
  private readonly processes: Process[] = [];
  private kubeconfigs = 0;
  /** On a process.exit() without stop(): the processes killed, the folder removed (best effort, synchronously). */
  private readonly onExit = () => {
    for (const p of this.processes) if (p.running) p.child.kill('SIGKILL');
    try {
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // A process still writing: the folder stays in the temp dir.
    }
  };

  constructor(readonly dir: string) {
    this.users = Object.fromEntries(
      Object.entries(USER_GROUPS).map(([name, groups]) => [
        name,
        { name, token: randomBytes(24).toString('hex'), groups },
      ]),
    ) as unknown as Record<ClusterUserName, ClusterUser>;
    process.once('exit', this.onExit);
  }

  get adminToken(): string {
    return this.users.admin.token;
  }

  start(name: string, command: string, args: readonly string[], env?: Readonly<Record<string, string>>): Process {
    const p = new Process(name, command, args, path.join(this.dir, `${name}.log`), this.dir, env);
    this.processes.push(p);
    return p;
  }

  connected(server: string): void {
    this.server = server;
    this.caFile = path.join(this.dir, 'certs', 'apiserver.crt');
    this.ca = readFileSync(this.caFile, 'utf8');
    this.agent = new Agent({ ca: this.ca, keepAlive: true, maxSockets: 16 });
  }

  kubeconfig(user: KubeconfigUser = 'admin', file?: string): string {
    const entry = typeof user === 'string' ? this.users[user] : user;
    if (entry === undefined)
      throw new Error(`no user ${String(user)}: the users are ${Object.keys(this.users).join(', ')}`);
    const out = file ?? path.join(this.dir, `kubeconfig-${entry.name}-${++this.kubeconfigs}.yaml`);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'test',
          cluster: { server: this.server, 'certificate-authority-data': Buffer.from(this.ca).toString('base64') },
        },
      ],
      users: [{ name: entry.name, user: { token: entry.token } }],
      contexts: [{ name: 'test', context: { cluster: 'test', user: entry.name } }],
      'current-context': 'test',
      preferences: {},
    };
    writeFileSync(out, stringify(config), { mode: 0o600 });
    return out;
  }

  request<T = Json>(
    method: string,
    apiPath: string,
    body?: unknown,
    options: string | RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const o: RequestOptions = typeof options === 'string' ? { token: options } : options;
    const agent = this.agent;
    if (agent === undefined) return Promise.reject(new Error('the cluster is stopped'));
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const contentType =
      o.contentType ?? (method.toUpperCase() === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
    const headers: Record<string, string | number> = { Accept: 'application/json' };
    if (!o.anonymous) headers.Authorization = `Bearer ${o.token ?? this.adminToken}`;
    if (payload !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        new URL(apiPath, this.server),
        { method: method.toUpperCase(), agent, headers, timeout: o.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            if ((res.headers['content-type'] ?? '').includes('json') && text !== '') {
              try {
                parsed = JSON.parse(text);
              } catch {
                // Keep the text.
              }
            }
            resolve({ status: res.statusCode ?? 0, body: parsed as T, headers: res.headers });
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`${method} ${apiPath}: no answer within ${o.timeoutMs ?? 30_000} ms`)),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  async ok<T = Json>(method: string, apiPath: string, body?: unknown, options?: string | RequestOptions): Promise<T> {
    const response = await this.request<T>(method, apiPath, body, options);
    if (response.status < 200 || response.status > 299) {
      const status = response.body as { message?: string } | string;
      const message = typeof status === 'object' && status !== null ? status.message : status;
      throw new Error(`${method} ${apiPath}: HTTP ${response.status}: ${String(message)}`);
    }
    return response.body;
  }

  private readonly discovered = new Map<string, Map<string, { path: string; namespaced: boolean }>>();

  async resource(apiVersion: string, kind: string): Promise<{ readonly path: string; readonly namespaced: boolean }> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const deadline = Date.now() + 10_000;
    for (;;) {
      let kinds = this.discovered.get(apiVersion);
      if (kinds === undefined || !kinds.has(kind)) {
        const list = await this.request('GET', base);
        kinds = new Map();
        for (const r of list.status === 200 ? (list.body.resources as Json[]) : []) {
          if (!String(r.name).includes('/')) kinds.set(r.kind, { path: `${base}/${r.name}`, namespaced: r.namespaced });
        }
        this.discovered.set(apiVersion, kinds);
      }
      const found = kinds.get(kind);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${apiVersion} ${kind} is not served (the discovery of ${base})`);
      await sleep(200);
    }
  }

  async eventually<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      for (const p of this.processes) {
        if (!p.running)
          throw new Error(
            `${what}: ${p.name} exited (${String(p.child.exitCode ?? p.child.signalCode)})\n${this.logs(40)}`,
          );
      }
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s\n${this.logs(20)}`);
      await sleep(200);
    }
  }

  async namespace(name: string, labels: Readonly<Record<string, string>> = {}): Promise<Json> {
    const namespace = await this.ok('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels },
    });
    await this.defaultServiceAccount(name);
    return namespace;
  }

  /** The namespace's `default` ServiceAccount, unless it exists (a test may run the service-account controller). */
  async defaultServiceAccount(namespace: string): Promise<void> {
    const r = await this.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
    });
    if (r.status !== 201 && r.status !== 409) {
      throw new Error(`POST the default ServiceAccount of ${namespace}: HTTP ${r.status}: ${String(r.body?.message)}`);
    }
  }

  logs(lines = 30): string {
    return this.processes.map((p) => `--- ${p.name} (${p.logFile}):\n${tail(p.logFile, lines)}`).join('\n');
  }

  /** Kills every process (the controller manager and the API server before etcd). */
  async killAll(): Promise<void> {
    for (const p of [...this.processes].reverse()) await p.kill();
    this.processes.length = 0;
  }

  async stop(): Promise<void> {
    this.agent?.destroy();
    this.agent = undefined;
    await this.killAll();
    process.removeListener('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Polls `ready` every 100 ms until it returns true; fails when a process exits or at the deadline. */
async function waitFor(
  what: string,
  deadline: number,
  processes: readonly Process[],
  ready: () => Promise<boolean>,
): Promise<void> {
  for (;;) {
    for (const p of processes) p.check();
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within the start's time limit`);
    await sleep(100);
  }
}

/** etcd, then the API server, on fresh ports; throws PortTakenError when a port was taken meanwhile. */
async function startServers(cluster: TestCluster, binary: string, options: StartClusterOptions, deadline: number) {
  const dir = cluster.dir;
  const [etcdClient, etcdPeer, securePort] = await freePorts(3);
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const peerUrl = `http://127.0.0.1:${etcdPeer}`;
  rmSync(path.join(dir, 'etcd'), { recursive: true, force: true });
  const etcd = cluster.start('etcd', ETCD_BINARY, [
    '--name=test',
    `--data-dir=${path.join(dir, 'etcd')}`,
    `--listen-client-urls=${etcdUrl}`,
    `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=test=${peerUrl}`,
    // No fsync: the data is thrown away after the test, and the writes are then as fast as memory.
    '--unsafe-no-fsync',
    '--logger=zap',
    '--log-level=warn',
    // The API server compacts etcd itself (every 5 minutes), as in a real cluster.
  ]);
  await waitFor('etcd /health', deadline, [etcd], async () => {
    const r = await probe(`${etcdUrl}/health`);
    return r?.status === 200 && r.body.includes('"true"');
  });

  const server = `https://127.0.0.1:${securePort}`;
  const apiserver = cluster.start('kube-apiserver', binary, [
    'kube-apiserver',
    `--etcd-servers=${etcdUrl}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${securePort}`,
    `--cert-dir=${path.join(dir, 'certs')}`,
    `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${path.join(dir, 'service-account.pub')}`,
    `--service-account-signing-key-file=${path.join(dir, 'service-account.key')}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // The `kubernetes` Service's endpoints would be 127.0.0.1, which an Endpoints object may not hold.
    '--endpoint-reconciler-type=none',
    '--profiling=false',
    ...(options.apiserverFlags ?? []),
  ]);
  await waitFor(`kube-apiserver ${server}/readyz`, deadline, [etcd, apiserver], async () => {
    const r = await probe(`${server}/readyz`);
    return r?.status === 200;
  });
  cluster.connected(server);
}

/**
 * Starts etcd, kube-apiserver and (unless `controllers: []`) kube-controller-manager on loopback, each on a free
 * port, in a fresh temporary folder; resolves when /readyz answers 200 and the `default` namespace exists, with its
 * `default` ServiceAccount (so a Pod can be created there at once). Builds the
 * binary first when it is stale (give beforeAll minutes: `CLUSTER_START_TIMEOUT`). On failure everything started
 * is killed and the error holds the logs' tail.
 */
export async function startCluster(options: StartClusterOptions = {}): Promise<Cluster> {
  const binary = ensureKubeTestCluster();
  if (!existsSync(ETCD_BINARY)) {
    throw new Error(`${ETCD_BINARY} is missing: the live API server tests need etcd: ${HOW_TO_GET_TOOLS}.`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-cluster-'));
  const cluster = new TestCluster(dir);
  const timeoutMs = options.timeoutMs ?? 90_000;
  const deadline = Date.now() + timeoutMs;
  try {
    writeFileSync(
      path.join(dir, 'tokens.csv'),
      Object.values(cluster.users)
        .map((u) => `${u.token},${u.name},${u.name},"${u.groups.join(',')}"`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );
    // ECDSA P-256: the API server signs service-account tokens with ES256; the key is made in milliseconds.
    const keys = generateKeyPairSync('ec', {
      namedCurve: 'prime256v1',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    writeFileSync(path.join(dir, 'service-account.key'), keys.privateKey, { mode: 0o600 });
    writeFileSync(path.join(dir, 'service-account.pub'), keys.publicKey);

    for (let attempt = 1; ; attempt++) {
      try {
        await startServers(cluster, binary, options, deadline);
        break;
      } catch (error) {
        await cluster.killAll();
        if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
      }
    }

    await waitFor('the default namespace', deadline, [], async () => {
      return (await cluster.request('GET', '/api/v1/namespaces/default')).status === 200;
    });
    await cluster.defaultServiceAccount('default');
    const controllers = options.controllers ?? DEFAULT_CONTROLLERS;
    if (controllers.length > 0) {
      cluster.start(
        'kube-controller-manager',
        binary,
        [
          'kube-controller-manager',
          `--kubeconfig=${cluster.kubeconfig('admin', path.join(dir, 'controller-manager.kubeconfig'))}`,
          `--controllers=${controllers.join(',')}`,
          '--leader-elect=false',
          // No serving port: nothing probes it, and parallel test files would fight over 10257.
          '--secure-port=0',
          '--profiling=false',
        ],
        // The ValidatingAdmissionPolicy status controller's TypeChecker allocates hard (about 8 s of CPU per policy
        // of ours at the default GOGC); collecting less often saves a third of that for about 450 MB at its peak.
        { GOGC: '400' },
      );
    }
    return cluster;
  } catch (error) {
    const logs = cluster.logs(40);
    await cluster.stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`the test cluster did not start (limit ${timeoutMs / 1000} s): ${message}\n${logs}`);
  }
}

/** beforeAll's timeout for startCluster: a cold build of the binary takes minutes (ensureKubeTestCluster). */
export const CLUSTER_START_TIMEOUT = 30 * 60_000;
