import { nodeFacts, upgradedNodes } from '../../../lib/core/cluster/nodes';
import {
  clusterKubernetesVersion,
  isTopLevelWorkload,
  judgeWorkloads,
  type WorkloadFinding,
} from '../../../lib/core/cluster/workloads';

type Json = Record<string, unknown>;

const DATE = '2026-12-07';
const TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' };
const TOLERATION = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };
const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
const IIS_2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

function node(name: string, os: 'linux' | 'windows', build?: string, taints: Json[] = [], kubelet = 'v1.37.2'): Json {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': os,
        ...(build !== undefined ? { 'node.kubernetes.io/windows-build': build } : {}),
      },
    },
    spec: { taints },
    status: {
      nodeInfo: {
        operatingSystem: os,
        kernelVersion: build !== undefined ? `${build}.2966` : '6.1.0',
        kubeletVersion: kubelet,
        containerRuntimeVersion: 'containerd://1.7.20',
        osImage: os === 'windows' ? 'Windows Server Datacenter' : 'Debian GNU/Linux 12 (bookworm)',
      },
    },
  };
}

const NODES = [
  node('linux-1', 'linux'),
  node('win2019-1', 'windows', '10.0.17763', [TAINT]),
  node('win2022-1', 'windows', '10.0.20348', [TAINT]),
  node('win2022-2', 'windows', '10.0.20348', [TAINT], 'v1.36.4'),
].map(nodeFacts);

function deployment(name: string, spec: Json, annotations?: Json): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'shop', ...(annotations ? { annotations } : {}), managedFields: [{ manager: 'x' }] },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec },
    },
    status: { replicas: 1 },
  };
}

function windowsSpec(image: string, extra: Json = {}): Json {
  return {
    os: { name: 'windows' },
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    tolerations: [TOLERATION],
    containers: [{ name: 'app', image, resources: { requests: { memory: '1Gi' }, limits: { memory: '1Gi' } } }],
    ...extra,
  };
}

const rules = (findings: readonly WorkloadFinding[], name: string) =>
  findings.filter((f) => f.resource.name === name).map((f) => f.ruleId);

describe('judgeWorkloads', () => {
  test('a workload is judged against the releases of the nodes it can land on: an ltsc2019 image unpinned beside 2022 nodes is an error, with those nodes as evidence', () => {
    const r = judgeWorkloads([deployment('legacy', windowsSpec(IIS_2019))], { nodes: NODES, date: DATE });
    const mismatch = r.findings.filter((f) => f.ruleId === 'image-build-mismatch');
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0]).toMatchObject({
      severity: 'error',
      path: 'spec.template.spec.containers[0].image',
      resource: { kind: 'Deployment', namespace: 'shop', name: 'legacy' },
      evidence: {
        from: 'the Windows nodes its pods can be scheduled on',
        text: 'win2022-1, win2022-2 (Windows Server 2022, 10.0.20348)',
      },
    });
    expect(r.workloads).toBe(1);
  });

  test('pinned to the 2019 build, the same image is fine; the workload is judged once', () => {
    const spec = windowsSpec(IIS_2019, {
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
    });
    const r = judgeWorkloads([deployment('pinned', spec)], { nodes: NODES, date: DATE });
    expect(rules(r.findings, 'pinned')).not.toContain('image-build-mismatch');
    const keys = r.findings.map((f) => `${f.ruleId} ${f.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('--upgrade-to 2025: the workload on an ltsc2019 image is named on every node; a build-pinned DaemonSet is unschedulable', () => {
    const daemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: windowsSpec(IIS_2019, {
            nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
          }),
        },
      },
    };
    const objects = [deployment('legacy', windowsSpec(IIS_2019)), daemonSet];
    const today = judgeWorkloads(objects, { nodes: NODES, date: DATE });
    expect(rules(today.findings, 'agent')).not.toContain('doctor-daemonset-unschedulable');
    const r = judgeWorkloads(objects, { nodes: NODES, date: DATE, upgradeTo: '2025' });
    const legacy = r.findings.find((f) => f.resource.name === 'legacy' && f.ruleId === 'image-build-mismatch');
    expect(legacy?.evidence?.text).toBe('win2019-1, win2022-1, win2022-2 (Windows Server 2025, 10.0.26100)');
    const agent = r.findings.find((f) => f.ruleId === 'doctor-daemonset-unschedulable');
    expect(agent).toMatchObject({ severity: 'error', path: 'spec.template.spec' });
    expect(agent?.message).toBe(
      'With every Windows node on Windows Server 2025, DaemonSet kube-system/agent is a Windows DaemonSet that no Windows node runs: win2019-1, win2022-1, win2022-2 have node.kubernetes.io/windows-build=10.0.26100, not 10.0.17763. The DaemonSet controller creates no pod there, so nothing is Pending and no event says so.',
    );
  });

  test('--upgrade-to: a Deployment pinned to a build the upgrade removes is named, and only under --upgrade-to', () => {
    const pinned = deployment(
      'web-2022',
      windowsSpec(IIS_2022, {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      }),
    );
    expect(rules(judgeWorkloads([pinned], { nodes: NODES, date: DATE }).findings, 'web-2022')).not.toContain(
      'doctor-upgrade-unschedulable',
    );
    const r = judgeWorkloads([pinned], { nodes: NODES, date: DATE, upgradeTo: '2025' });
    expect(r.findings.find((f) => f.ruleId === 'doctor-upgrade-unschedulable')?.message).toBe(
      'With every Windows node on Windows Server 2025, no Windows node takes the pods of Deployment shop/web-2022, which run today: win2019-1, win2022-1, win2022-2 have node.kubernetes.io/windows-build=10.0.26100, not 10.0.20348. Its pods would stay Pending once the nodes they run on are replaced.',
    );
  });

  test('a Windows DaemonSet without the toleration: unschedulable, the taint named in the message and the fix', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'exporter', namespace: 'monitoring' },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: windowsSpec(IIS_2022, { tolerations: [] }) },
      },
    };
    const r = judgeWorkloads([ds], { nodes: NODES, date: DATE });
    const f = r.findings.find((x) => x.ruleId === 'doctor-daemonset-unschedulable');
    expect(f?.message).toContain(
      'win2019-1, win2022-1, win2022-2 have the taint os=windows:NoSchedule it does not tolerate',
    );
    expect(f?.fix).toMatch(/^Tolerate os=windows:NoSchedule in spec\.template\.spec\.tolerations; and select only/);
    // With the toleration: silent.
    const ok = judgeWorkloads([{ ...ds, spec: { ...ds.spec, template: { spec: windowsSpec(IIS_2022) } } }], {
      nodes: NODES,
      date: DATE,
    });
    expect(ok.findings.map((x) => x.ruleId)).not.toContain('doctor-daemonset-unschedulable');
  });

  test('a Linux workload without an OS selector: reported when an untainted Windows node takes it, not when the Windows nodes are tainted', () => {
    const linux = deployment('web', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    const untainted = [node('linux-1', 'linux'), node('win-1', 'windows', '10.0.20348')].map(nodeFacts);
    const r = judgeWorkloads([linux], { nodes: untainted, date: DATE });
    expect(r.findings.filter((f) => f.ruleId === 'doctor-linux-pod-on-windows-node')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'spec.template.spec.nodeSelector',
        message:
          'Deployment shop/web is a Linux workload without a kubernetes.io/os: linux nodeSelector, and the Windows node win-1 can take its pods (no taint there it does not tolerate): a pod scheduled there never starts its Linux image ("no match for platform in manifest").',
      }),
    ]);
    expect(rules(judgeWorkloads([linux], { nodes: NODES, date: DATE }).findings, 'web')).toEqual([]);
    // Pinned to Linux, or only Windows nodes (no mixed cluster): silent.
    const pinned = deployment('web', {
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      containers: [{ name: 'web', image: 'nginx:1.27' }],
    });
    expect(rules(judgeWorkloads([pinned], { nodes: untainted, date: DATE }).findings, 'web')).toEqual([]);
    expect(judgeWorkloads([linux], { nodes: untainted.slice(1), date: DATE }).findings).toEqual([]);
  });

  test('a suppression annotation is honoured as lint honours it: the finding moves to suppressed', () => {
    const annotated = deployment('legacy', windowsSpec(IIS_2022, { tolerations: [TOLERATION] }), {
      'suppress.k8s-windows.io/windows-startup-probe': 'the app answers within 10 s',
    });
    const r = judgeWorkloads([annotated], { nodes: NODES, date: DATE });
    expect(rules(r.findings, 'legacy')).not.toContain('windows-startup-probe');
    expect(r.suppressed.map((f) => [f.ruleId, f.suppression?.reason])).toEqual([
      ['windows-startup-probe', 'the app answers within 10 s'],
    ]);
  });

  test('only top-level workloads: a ReplicaSet of a Deployment and a Pod of a ReplicaSet are their owners’ to judge', () => {
    const owned = { controller: true, kind: 'ReplicaSet', name: 'x', apiVersion: 'apps/v1', uid: 'u' };
    expect(isTopLevelWorkload({ kind: 'Pod', metadata: { ownerReferences: [owned] } })).toBe(false);
    expect(isTopLevelWorkload({ kind: 'Pod', metadata: {} })).toBe(true);
    expect(isTopLevelWorkload({ kind: 'Service', metadata: {} })).toBe(false);
    expect(isTopLevelWorkload({ kind: 'Job', metadata: { ownerReferences: [{ ...owned, controller: false }] } })).toBe(
      true,
    );
  });

  test('the Kubernetes minor judged by is the oldest Windows kubelet', () => {
    expect(clusterKubernetesVersion(NODES)).toBe('1.36');
    expect(clusterKubernetesVersion([nodeFacts(node('l', 'linux', undefined, [], 'v1.35.1'))])).toBe('1.35');
    expect(clusterKubernetesVersion([])).toBeUndefined();
  });

  test('--kubernetes-version judges by that minor: Windows Server 2025 nodes need 1.32; by default the kubelets’ minor', () => {
    const nodes = [nodeFacts(node('w25', 'windows', '10.0.26100', [TAINT], 'v1.37.1'))];
    const ltsc2025 = deployment(
      'new',
      windowsSpec('mcr.microsoft.com/windows/servercore:ltsc2025', {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
      }),
    );
    expect(rules(judgeWorkloads([ltsc2025], { nodes, date: DATE }).findings, 'new')).not.toContain(
      'windows-release-support',
    );
    const old = judgeWorkloads([ltsc2025], { nodes, date: DATE, kubernetesVersion: '1.31' });
    expect(old.findings.find((f) => f.ruleId === 'windows-release-support')).toMatchObject({
      severity: 'warning',
      message: 'This pod needs Windows Server 2025 nodes, which Kubernetes supports from 1.32, not 1.31.',
    });
  });

  test('upgradedNodes moves the Windows nodes only', () => {
    const up = upgradedNodes(NODES, '2025');
    expect(up.map((n) => [n.name, n.build, n.release, n.labels['node.kubernetes.io/windows-build']])).toEqual([
      ['linux-1', undefined, undefined, undefined],
      ['win2019-1', '10.0.26100', '2025', '10.0.26100'],
      ['win2022-1', '10.0.26100', '2025', '10.0.26100'],
      ['win2022-2', '10.0.26100', '2025', '10.0.26100'],
    ]);
  });
});
