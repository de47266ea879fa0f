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
import { DOCTOR_RULE_IDS, MESSAGE_PATTERNS } from '../../lib/core/cluster/messages';
import { CLUSTER_START_TIMEOUT, startCluster, type Cluster } from '../helpers/kube-apiserver';

const ROOT = path.join(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAIN = path.join(ROOT, 'lib/cli/main.ts');

let cluster: Cluster;
let home: string;

/** Runs the CLI in a process of its own, as a user would; bounded. */
function doctor(args: readonly string[], env: Record<string, string> = {}) {
  return k8sWindows(['doctor', ...args], env);
}

function k8sWindows(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [TSX, MAIN, ...args], {
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
        osImage:
          os === 'windows'
            ? `Windows Server ${{ '10.0.17763': '2019', '10.0.20348': '2022', '10.0.26100': '2025' }[build ?? ''] ?? ''} Datacenter`
            : 'Debian GNU/Linux 12 (bookworm)',
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
    ['win2019-1', 'windows', '10.0.17763', [TAINT]],
    ['win2022-1', 'windows', '10.0.20348', [TAINT]],
    ['win2022-2', 'windows', '10.0.20348', [TAINT]],
    ['win2025-1', 'windows', '10.0.26100', [TAINT]],
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
  await runningWorkloads();
}, CLUSTER_START_TIMEOUT);

const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
const STARTUP = { httpGet: { path: '/', port: 80 }, periodSeconds: 10, failureThreshold: 30 };

function workload(kind: 'Deployment' | 'DaemonSet', name: string, spec: object, annotations?: object) {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: 'apps', ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec },
    },
  };
}

/**
 * Workloads of namespace apps as they run (no controller manager here: no ReplicaSets or pods are made from them,
 * which doctor does not need to judge them): an ltsc2019 image on every release, a RuntimeClass-pinned 2022 one, a
 * Windows DaemonSet without the pools' toleration, a Linux Deployment without an OS selector.
 */
async function runningWorkloads(): Promise<void> {
  await namespace('apps');
  await cluster.ok('POST', '/apis/node.k8s.io/v1/runtimeclasses', {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'windows-2022' },
    handler: 'runhcs-wcow-process',
    scheduling: {
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      tolerations: [TOLERATION],
    },
  });
  const created = [
    workload(
      'Deployment',
      'legacy-iis',
      {
        os: { name: 'windows' },
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        tolerations: [TOLERATION],
        containers: [{ name: 'iis', image: IIS_2019 }],
      },
      { 'suppress.k8s-windows.io/windows-startup-probe': 'IIS answers its liveness probe within 10 s' },
    ),
    workload('Deployment', 'web-2022', {
      os: { name: 'windows' },
      runtimeClassName: 'windows-2022',
      containers: [{ name: 'iis', image: IIS, startupProbe: STARTUP }],
    }),
    workload('DaemonSet', 'exporter', {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'exporter', image: IIS, startupProbe: STARTUP }],
    }),
    workload('Deployment', 'linux-web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }),
  ];
  for (const w of created) {
    await cluster.ok(
      'POST',
      `/apis/apps/v1/namespaces/apps/${w.kind === 'DaemonSet' ? 'daemonsets' : 'deployments'}`,
      w,
    );
  }
}

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
    expect(report.summary.nodes).toEqual({ total: 5, windows: 4 });
    expect(report.summary.pods).toEqual({ total: 5, windows: 5, notReady: 4 });
    const explained = report.findings.filter((f) => (DOCTOR_RULE_IDS as readonly string[]).includes(f.ruleId));
    const byPod = new Map<string, string[]>();
    for (const f of explained) byPod.set(f.resource.name, [...(byPod.get(f.resource.name) ?? []), f.ruleId]);
    expect(byPod.get('untolerated')).toContain('doctor-untolerated-taint');
    expect(byPod.get('linux-image')).toContain('doctor-image-linux-only');
    expect(byPod.get('os-mismatch')).toContain('doctor-image-os-mismatch');
    expect(byPod.get('nano-powershell')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^doctor-(nanoserver-powershell|command-not-found)$/)]),
    );
    expect(byPod.get('forbidden-7d4b9c8f6')).toContain('doctor-forbidden-field');
    expect(byPod.has('healthy')).toBe(false);
    // The healthy pod is judged by lint's rules too (a bare pod): nothing at error or warning.
    expect(
      report.findings.filter((f) => f.resource.name === 'healthy' && f.severity !== 'info').map((f) => f.ruleId),
    ).toEqual([]);
    for (const f of explained) {
      expect(f.severity).toBe('error');
      expect(f.evidence?.text.length).toBeGreaterThan(20);
    }
    const untolerated = report.findings.find((f) => f.resource.name === 'untolerated');
    expect(untolerated?.evidence?.text).toContain('2 node(s) had untolerated taint {os: windows}');
  });

  test('-n limits the pods and events to a namespace; text output names each pod and its evidence', async () => {
    const other = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'default']);
    expect(other.code).toBe(0);
    // No pod there; the nodes are judged whatever the namespace: the 2019 node gets advice (info, exit code 0).
    expect(other.stdout).toBe(
      [
        'Node win2019-1',
        '  info     Windows node win2019-1 runs Windows Server 2019 (build 10.0.17763), whose support is ending: upstream Kubernetes no longer lists it as a node OS (since 2025-12-19).  doctor-windows-node-release-unsupported',
        '           fix: Plan the move of the pool to a newer Windows Server release (2022 or 2025), with images rebuilt for it.',
        '',
        '✖ 1 problem: 0 Windows pods (0 not Ready) of 0, 4 Windows nodes of 5, context test.',
        '',
      ].join('\n'),
    );
    const shop = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '--namespace', 'shop']);
    expect(shop.code).toBe(1);
    expect(shop.stdout).toContain('Pod shop/untolerated');
    expect(shop.stdout).toContain('evidence (');
    expect(shop.stdout).toMatch(
      /✖ \d+ problems?: 5 Windows pods \(4 not Ready\) of 5, 4 Windows nodes of 5, context test\.\n$/,
    );
  });

  test('running workloads judged against the nodes: an ltsc2019 image on the 2022 and 2025 nodes, a DaemonSet no Windows node runs; suppressions honoured; RuntimeClass-pinned and Linux workloads silent', async () => {
    const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'apps', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      summary: { workloads: number; suppressed: number };
      findings: {
        ruleId: string;
        severity: string;
        message: string;
        resource: { kind: string; name: string };
        evidence?: { text: string };
        suppression?: { honoured: boolean };
      }[];
    };
    expect(report.summary.workloads).toBe(4);
    const serious = report.findings
      .filter((f) => f.severity !== 'info' && f.suppression === undefined)
      .map((f) => [f.resource.kind, f.resource.name, f.ruleId, f.evidence?.text])
      .sort();
    expect(serious).toEqual([
      ['DaemonSet', 'exporter', 'doctor-daemonset-unschedulable', undefined],
      // No node takes it: judged as lint judges it without a release (it pins no build).
      ['DaemonSet', 'exporter', 'image-build-unpinned', undefined],
      ['Deployment', 'legacy-iis', 'image-build-mismatch', 'win2022-1, win2022-2 (Windows Server 2022, 10.0.20348)'],
      ['Deployment', 'legacy-iis', 'image-build-mismatch', 'win2025-1 (Windows Server 2025, 10.0.26100)'],
    ]);
    const exporter = report.findings.find((f) => f.ruleId === 'doctor-daemonset-unschedulable');
    expect(exporter?.message).toBe(
      'DaemonSet apps/exporter is a Windows DaemonSet that no Windows node runs: win2019-1, win2022-1, win2022-2, win2025-1 have the taint os=windows:NoSchedule it does not tolerate. The DaemonSet controller creates no pod there, so nothing is Pending and no event says so.',
    );
    // The annotation hides windows-startup-probe on legacy-iis, as lint hides it; it is listed as suppressed.
    expect(report.summary.suppressed).toBe(1);
    expect(
      report.findings
        .filter((f) => f.ruleId === 'windows-startup-probe')
        .map((f) => [f.resource.name, f.suppression?.honoured]),
    ).toEqual([['legacy-iis', true]]);
  });

  test('--upgrade-to 2025 names the workload on the ltsc2019 image on every node, and the one pinned to the 2022 build', async () => {
    const r = await doctor([
      '--kubeconfig',
      cluster.kubeconfig('admin'),
      '-n',
      'apps',
      '--upgrade-to',
      '2025',
      '-f',
      'json',
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      upgradeTo: string;
      findings: { ruleId: string; severity: string; resource: { name: string }; evidence?: { text: string } }[];
    };
    expect(report.upgradeTo).toBe('2025');
    const errors = report.findings
      .filter((f) => f.severity === 'error')
      .map((f) => [f.resource.name, f.ruleId, f.evidence?.text])
      .sort();
    expect(errors).toEqual([
      ['exporter', 'doctor-daemonset-unschedulable', undefined],
      [
        'legacy-iis',
        'image-build-mismatch',
        'win2019-1, win2022-1, win2022-2, win2025-1 (Windows Server 2025, 10.0.26100)',
      ],
      ['web-2022', 'doctor-upgrade-unschedulable', undefined],
    ]);
  });

  test('--format sarif: lint’s SARIF, the cluster objects as logical locations', async () => {
    const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'apps', '--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as {
      version: string;
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
        }[];
      }[];
    };
    expect(log.version).toBe('2.1.0');
    expect(
      log.runs[0].results
        .filter((x) => x.level === 'error')
        .map((x) => `${x.ruleId} ${x.locations[0].logicalLocations[0].fullyQualifiedName}`)
        .sort(),
    ).toEqual([
      'doctor-daemonset-unschedulable DaemonSet/apps/exporter',
      'image-build-mismatch Deployment/apps/legacy-iis',
      'image-build-mismatch Deployment/apps/legacy-iis',
    ]);
  });

  test('--facts writes the WindowsClusterFacts of the nodes and RuntimeClasses, which policies --cluster-facts takes', async () => {
    const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '--facts']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    type Facts = { apiVersion: string; kind: string; spec: { pools: unknown[]; runtimeClasses: unknown[] } };
    const [facts] = parseAllDocuments(r.stdout).map((d) => d.toJS() as Facts);
    expect(facts.apiVersion).toBe('k8s-windows.io/v1alpha1');
    expect(facts.kind).toBe('WindowsClusterFacts');
    const taints = [TAINT];
    expect(facts.spec.pools).toEqual([
      {
        name: 'windows-10-0-17763',
        provider: 'other',
        build: '10.0.17763',
        labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
        taints,
      },
      {
        name: 'windows-10-0-20348',
        provider: 'other',
        build: '10.0.20348',
        labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        taints,
      },
      {
        name: 'windows-10-0-26100',
        provider: 'other',
        build: '10.0.26100',
        labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
        taints,
      },
    ]);
    expect(facts.spec.runtimeClasses).toEqual([
      { name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' },
    ]);
    const file = path.join(home, 'facts.yaml');
    writeFileSync(file, r.stdout);
    const policies = await k8sWindows(['policies', '--no-config', '--cluster-facts', file]);
    expect(policies.stderr).toBe('');
    expect(policies.code).toBe(0);
    const objects = parseAllDocuments(policies.stdout).map((d) => d.toJS() as Partial<Facts> | null);
    expect(objects.find((o) => o?.kind === 'WindowsClusterFacts')?.spec).toEqual(facts.spec);
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

  test('an untainted Windows node: the Linux workload without an OS selector can land there, and the node is named', async () => {
    await cluster.ok('POST', '/api/v1/nodes', nodeObject('win2022-open', 'windows', '10.0.20348', []));
    try {
      const r = await doctor(['--kubeconfig', cluster.kubeconfig('admin'), '-n', 'apps', '-f', 'json']);
      const report = JSON.parse(r.stdout) as {
        findings: { ruleId: string; resource: { name: string }; message: string }[];
      };
      expect(
        report.findings
          .filter(
            (f) => f.ruleId === 'doctor-linux-pod-on-windows-node' || f.ruleId === 'doctor-windows-node-untainted',
          )
          .map((f) => [f.ruleId, f.resource.name]),
      ).toEqual([
        ['doctor-linux-pod-on-windows-node', 'linux-web'],
        ['doctor-windows-node-untainted', 'win2022-open'],
      ]);
    } finally {
      await cluster.ok('DELETE', '/api/v1/nodes/win2022-open');
    }
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
