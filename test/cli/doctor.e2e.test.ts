/**
 * `k8s-windows doctor` against a real kube-apiserver (with etcd on loopback: test/helpers/kube-apiserver.ts). There
 * are no kubelets: the Nodes, the Pods' status (through the status subresource) and the Events are written exactly
 * as the kubelet and the scheduler write them, with the texts of lib/core/cluster/messages.ts. The CLI runs as a
 * process of its own, as users run it (the cluster client is an ES module loaded at run time).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { MESSAGE_PATTERNS } from '../../lib/core/cluster/messages';
import { CLUSTER_START_TIMEOUT, startCluster, type Cluster } from '../helpers/kube-apiserver';

const ROOT = path.join(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAIN = path.join(ROOT, 'lib/cli/main.ts');

let cluster: Cluster;
let home: string;

/** Runs the CLI in a process of its own, as a user would; bounded. */
function doctor(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [TSX, MAIN, 'doctor', ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`doctor ${args.join(' ')} did not end within 60 s: ${stderr}`));
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function example(id: string): string {
  const found = MESSAGE_PATTERNS.find((p) => p.id === id);
  if (found === undefined) throw new Error(`no catalogue entry ${id}`);
  return found.example;
}

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' };
const TOLERATION = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };

function nodeObject(name: string, os: 'linux' | 'windows', build?: string, taints: readonly object[] = []) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': os,
        'kubernetes.io/hostname': name,
        ...(build !== undefined ? { 'node.kubernetes.io/windows-build': build } : {}),
      },
    },
    spec: { taints },
  };
}

function nodeStatus(os: 'linux' | 'windows', build?: string) {
  return {
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: '2026-12-07T10:00:00Z',
          lastTransitionTime: '2026-12-07T09:00:00Z',
        },
      ],
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: os === 'windows' ? `${build}.2966` : '6.1.0-28-cloud-amd64',
        osImage: os === 'windows' ? 'Windows Server 2022 Datacenter' : 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.7.20',
        kubeletVersion: 'v1.37.2',
        kubeProxyVersion: '',
        operatingSystem: os,
        architecture: 'amd64',
      },
    },
  };
}

/** A Windows pod as a Deployment's ReplicaSet makes it. */
function windowsPod(
  name: string,
  extra: { nodeName?: string; tolerations?: object[]; image?: string; command?: string[] },
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', labels: { app: name } },
    spec: {
      ...(extra.nodeName !== undefined ? { nodeName: extra.nodeName } : {}),
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      ...(extra.tolerations !== undefined ? { tolerations: extra.tolerations } : {}),
      os: { name: 'windows' },
      containers: [{ name: 'app', image: extra.image ?? IIS, ...(extra.command ? { command: extra.command } : {}) }],
    },
  };
}

/** A namespace with its default service account (no controller manager runs here to make it). */
async function namespace(name: string): Promise<void> {
  await cluster.ok('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await cluster.ok('POST', `/api/v1/namespaces/${name}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default' },
  });
}

async function createPod(pod: ReturnType<typeof windowsPod>, status: object): Promise<void> {
  await cluster.ok('POST', '/api/v1/namespaces/shop/pods', pod);
  const current = await cluster.ok('GET', `/api/v1/namespaces/shop/pods/${pod.metadata.name}`);
  await cluster.ok('PUT', `/api/v1/namespaces/shop/pods/${pod.metadata.name}/status`, { ...current, status });
}

async function createEvent(podName: string, reason: string, message: string, source: string, type = 'Warning') {
  const pod = await cluster.ok('GET', `/api/v1/namespaces/shop/pods/${podName}`);
  await cluster.ok('POST', '/api/v1/namespaces/shop/events', {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${podName}.${reason.toLowerCase()}`, namespace: 'shop' },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: podName, uid: pod.metadata.uid, apiVersion: 'v1' },
    reason,
    message,
    type,
    source: { component: source },
    reportingComponent: source,
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:05:00Z',
    count: 12,
  });
}

function waiting(reason: string, message: string, image = IIS) {
  return {
    phase: 'Pending',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-12-07T10:00:00Z' },
      {
        type: 'Ready',
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [app]',
      },
    ],
    containerStatuses: [
      {
        name: 'app',
        image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        state: { waiting: { reason, message } },
      },
    ],
  };
}

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'k8s-windows-doctor-'));
  cluster = await startCluster({ controllers: [] });
  await namespace('shop');
  const nodes: [string, 'linux' | 'windows', string | undefined, object[]][] = [
    ['linux-1', 'linux', undefined, []],
    ['win2022-1', 'windows', '10.0.20348', [TAINT]],
    ['win2022-2', 'windows', '10.0.20348', [TAINT]],
  ];
  for (const [name, os, build, taints] of nodes) {
    await cluster.ok('POST', '/api/v1/nodes', nodeObject(name, os, build, taints));
    const current = await cluster.ok('GET', `/api/v1/nodes/${name}`);
    await cluster.ok('PUT', `/api/v1/nodes/${name}/status`, { ...current, ...nodeStatus(os, build) });
  }
  // 1. No toleration for the Windows pools' taint: the scheduler's event and condition.
  const scheduling =
    "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint {os: windows}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  await createPod(windowsPod('untolerated', {}), {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: scheduling,
        lastTransitionTime: '2026-12-07T10:00:00Z',
      },
    ],
  });
  await createEvent('untolerated', 'FailedScheduling', scheduling, 'default-scheduler');
  // 2. A Linux-only image on a Windows node.
  const nginx = 'ghcr.io/nginx/nginx-gateway-fabric:2.0.2';
  await createPod(
    windowsPod('linux-image', { nodeName: 'win2022-1', tolerations: [TOLERATION], image: nginx }),
    waiting(
      'ErrImagePull',
      example('containerd-no-match-for-platform').replace(/^Failed to pull image "[^"]+": /, ''),
      nginx,
    ),
  );
  await createEvent('linux-image', 'Failed', example('containerd-no-match-for-platform'), 'kubelet');
  // 3. An image of another Windows build.
  await createPod(
    windowsPod('os-mismatch', {
      nodeName: 'win2022-2',
      tolerations: [TOLERATION],
      image: 'mcr.microsoft.com/windows/servercore:ltsc2019',
    }),
    waiting('CreateContainerError', example('hcs-os-mismatch'), 'mcr.microsoft.com/windows/servercore:ltsc2019'),
  );
  // 4. Windows PowerShell in a Nano Server container.
  await createPod(
    windowsPod('nano-powershell', {
      nodeName: 'win2022-1',
      tolerations: [TOLERATION],
      image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022',
      command: ['powershell', '-Command', 'Start-Sleep 3600'],
    }),
    waiting(
      'CreateContainerError',
      example('hcs-create-process-file-not-found'),
      'mcr.microsoft.com/windows/nanoserver:ltsc2022',
    ),
  );
  // 5. A field the API server forbids on Windows pods: the pod never exists; the ReplicaSet's FailedCreate says why.
  const replicaSet = await cluster.ok('POST', '/apis/apps/v1/namespaces/shop/replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'forbidden-7d4b9c8f6', namespace: 'shop' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'forbidden' } },
      template: {
        metadata: { labels: { app: 'forbidden' } },
        spec: {
          os: { name: 'windows' },
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          tolerations: [TOLERATION],
          containers: [{ name: 'app', image: IIS }],
        },
      },
    },
  });
  // The refusal, as the API server words it for this template with runAsUser set (the object itself could not be
  // stored with it: the API server refuses the pod, not the ReplicaSet).
  const refused = await cluster.request('POST', '/api/v1/namespaces/shop/pods', {
    ...windowsPod('forbidden-7d4b9c8f6-x2x9k', { tolerations: [TOLERATION] }),
    spec: { ...windowsPod('x', { tolerations: [TOLERATION] }).spec, securityContext: { runAsUser: 1000 } },
  });
  expect(refused.status).toBe(422);
  await cluster.ok('POST', '/api/v1/namespaces/shop/events', {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'forbidden-7d4b9c8f6.failedcreate', namespace: 'shop' },
    involvedObject: {
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'forbidden-7d4b9c8f6',
      uid: replicaSet.metadata.uid,
      apiVersion: 'apps/v1',
    },
    reason: 'FailedCreate',
    message: `Error creating: ${refused.body.message as string}`,
    type: 'Warning',
    source: { component: 'replicaset-controller' },
    firstTimestamp: '2026-12-07T10:00:00Z',
    lastTimestamp: '2026-12-07T10:05:00Z',
    count: 7,
  });
  // A healthy Windows pod: silent.
  await createPod(windowsPod('healthy', { nodeName: 'win2022-2', tolerations: [TOLERATION] }), {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [
      {
        name: 'app',
        image: IIS,
        imageID: '',
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: '2026-12-07T10:00:00Z' } },
      },
    ],
  });
}, CLUSTER_START_TIMEOUT);

afterAll(async () => {
  await cluster?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('doctor on a scripted cluster', () => {
  test('names the cause of every stuck Windows pod with a rule id and the evidence verbatim; healthy pods are silent; exit 1', async () => {
    const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      context: string;
      summary: {
        pods: { total: number; windows: number; notReady: number };
        nodes: { total: number; windows: number };
      };
      findings: { ruleId: string; severity: string; resource: { name: string }; evidence?: { text: string } }[];
    };
    expect(report.context).toBe('test');
    expect(report.summary.nodes).toEqual({ total: 3, windows: 2 });
    expect(report.summary.pods).toEqual({ total: 5, windows: 5, notReady: 4 });
    const byPod = new Map<string, string[]>();
    for (const f of report.findings) byPod.set(f.resource.name, [...(byPod.get(f.resource.name) ?? []), f.ruleId]);
    expect(byPod.get('untolerated')).toContain('doctor-untolerated-taint');
    expect(byPod.get('linux-image')).toContain('doctor-image-linux-only');
    expect(byPod.get('os-mismatch')).toContain('doctor-image-os-mismatch');
    expect(byPod.get('nano-powershell')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^doctor-(nanoserver-powershell|command-not-found)$/)]),
    );
    expect(byPod.get('forbidden-7d4b9c8f6')).toContain('doctor-forbidden-field');
    expect(byPod.has('healthy')).toBe(false);
    for (const f of report.findings) {
      expect(f.severity).toBe('error');
      expect(f.evidence?.text.length).toBeGreaterThan(20);
    }
    const untolerated = report.findings.find((f) => f.resource.name === 'untolerated');
    expect(untolerated?.evidence?.text).toContain('2 node(s) had untolerated taint {os: windows}');
  });

  test('-n limits the pods and events to a namespace; text output names each pod and its evidence', async () => {
    const other = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'default']);
    expect(other.code).toBe(0);
    expect(other.stdout).toBe(
      '✔ No problems: 0 Windows pods (0 not Ready) of 0, 2 Windows nodes of 3, context test.\n',
    );
    const shop = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '--namespace', 'shop']);
    expect(shop.code).toBe(1);
    expect(shop.stdout).toContain('Pod shop/untolerated');
    expect(shop.stdout).toContain('evidence (');
    expect(shop.stdout).toMatch(
      /✖ \d+ problems?: 5 Windows pods \(4 not Ready\) of 5, 2 Windows nodes of 3, context test\.\n$/,
    );
  });

  test('a user bound to exactly the ClusterRole --print-rbac prints can run doctor; without it, 403 names the verb and resource', async () => {
    const forbidden = await doctor(['--kubeconfig', cluster.kubeconfig('alice')]);
    expect(forbidden.code).toBe(2);
    expect(forbidden.stdout).toBe('');
    expect(forbidden.stderr).toMatch(
      /^k8s-windows doctor: user alice \(context test\) may not list nodes at the cluster scope: 403 Forbidden \(.*\)\. doctor needs list on nodes, pods, events, runtimeclasses\.node\.k8s\.io and the controllers that make pods: k8s-windows doctor --print-rbac prints the ClusterRole to bind\.\n$/,
    );
    const rbac = await doctor(['--print-rbac']);
    expect(rbac.code).toBe(0);
    const file = path.join(home, 'rbac.yaml');
    writeFileSync(file, rbac.stdout);
    const [role, binding] = parseAllDocuments(rbac.stdout).map((d) => d.toJS() as Record<string, unknown>);
    await cluster.ok('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', role);
    await cluster.ok('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      ...binding,
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    // RBAC is read from the API server's cache: give it a moment, bounded.
    let allowed = await doctor(['--kubeconfig', cluster.kubeconfig('alice'), '--format', 'json']);
    for (let i = 0; i < 10 && allowed.code === 2; i++) {
      await new Promise((done) => setTimeout(done, 500));
      allowed = await doctor(['--kubeconfig', cluster.kubeconfig('alice'), '--format', 'json']);
    }
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(1);
    expect(JSON.parse(allowed.stdout).summary.pods.total).toBe(5);
  });

  test('a wrong token: one clear 401 error, exit 2', async () => {
    const r = await doctor(['--kubeconfig', cluster.kubeconfig({ name: 'mallory', token: 'not-a-token' })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^k8s-windows doctor: the API server at https:\/\/127\.0\.0\.1:\d+ refused the credentials of user mallory \(context test\): 401 Unauthorized.*\n$/,
    );
  });

  test('a closed port: one clear error, exit 2', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const file = path.join(home, 'closed.yaml');
    writeFileSync(file, kubeconfigFor(`https://127.0.0.1:${port}`));
    const r = await doctor(['--kubeconfig', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `k8s-windows doctor: cannot reach the API server at https://127.0.0.1:${port} (context test): connection refused (is the server running, and is this its address?).\n`,
    );
  });

  test('a server that never answers: the deadline ends the run, exit 2', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const file = path.join(home, 'silent.yaml');
    writeFileSync(file, kubeconfigFor(`https://127.0.0.1:${(silent.address() as { port: number }).port}`));
    try {
      const r = await doctor(['--kubeconfig', file, '--timeout', '2']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^k8s-windows doctor: the deadline of 2 s \(--timeout\) passed while listing nodes from https:\/\/127\.0\.0\.1:\d+\.\n$/,
      );
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('no kubeconfig and not in a pod: says how to name one, exit 2', async () => {
    const r = await doctor([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `k8s-windows doctor: no kubeconfig: ${path.join(home, '.kube', 'config')} does not exist and this is not a pod in a cluster. Name one with --kubeconfig FILE (or set KUBECONFIG), as for kubectl.\n`,
    );
    const unknown = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '--context', 'prod']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^k8s-windows doctor: --context prod: no such context in .* \(it has test\)\.\n$/);
  });

  test('pages: more pods than one page holds are all read (limit/continue)', async () => {
    await namespace('many');
    const batch = 50;
    for (let i = 0; i < 520; i += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, 520 - i) }, (_, k) =>
          cluster.ok('POST', '/api/v1/namespaces/many/pods', {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `p-${i + k}` },
            spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
          }),
        ),
      );
    }
    const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'many', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).summary.pods).toEqual({ total: 520, windows: 0, notReady: 0 });
  });
});

/** A kubeconfig for a server nothing real answers on (TLS not verified: the connection never gets that far). */
function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: test`,
    `  cluster: {server: "${server}", insecure-skip-tls-verify: true}`,
    'users:',
    '- name: u',
    '  user: {token: t}',
    'contexts:',
    '- name: test',
    '  context: {cluster: test, user: u}',
    'current-context: test',
    '',
  ].join('\n');
}
