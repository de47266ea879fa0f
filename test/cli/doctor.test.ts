/**
 * `k8s-windows doctor` without a cluster: its options, --print-rbac, and `diagnose` on snapshots shaped as the API
 * server returns them. Reading a live cluster is tested against a real kube-apiserver in doctor.e2e.test.ts.
 */
import { parseAllDocuments } from 'yaml';
import { parseCommand, UsageError } from '../../lib/cli/args';
import { diagnose, doctorJson, doctorSarif, formatDoctorText } from '../../lib/cli/doctor';
import { RULES } from '../../lib/core/validate';
import { cli } from '../helpers/cli';

const ids = RULES.map((r) => r.id);

function node(name: string, os: 'windows' | 'linux', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/os': os,
        ...(os === 'windows' ? { 'node.kubernetes.io/windows-build': '10.0.20348' } : {}),
      },
    },
    spec: {},
    status: { nodeInfo: { operatingSystem: os, kernelVersion: os === 'windows' ? '10.0.20348.2966' : '6.1.0' } },
    ...extra,
  };
}

const PENDING_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'iis-7d9f',
    namespace: 'shop',
    uid: 'u-1',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'iis', uid: 'rs-0', controller: true }],
  },
  spec: {
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
  },
  status: {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message:
          "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint {os: windows}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
      },
    ],
  },
};

const HEALTHY_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'shop', uid: 'u-2' },
  spec: {
    nodeName: 'win-1',
    os: { name: 'windows' },
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    containers: [
      {
        name: 'iis',
        image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
        startupProbe: { httpGet: { path: '/', port: 80 }, failureThreshold: 30 },
      },
    ],
  },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

const TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' };

describe('doctor options', () => {
  test('defaults: every namespace, text, fail on errors, 60 s', () => {
    expect(parseCommand(['doctor'], ids)).toEqual({
      kind: 'doctor',
      format: 'text',
      failOn: 'error',
      timeoutMs: 60_000,
      printRbac: false,
      facts: false,
    });
  });

  test('kubectl’s options', () => {
    expect(
      parseCommand(
        ['doctor', '--kubeconfig', 'k.yaml', '--context', 'prod', '-n', 'shop', '-f', 'json', '--timeout', '1500ms'],
        ids,
      ),
    ).toEqual({
      kind: 'doctor',
      kubeconfig: 'k.yaml',
      context: 'prod',
      namespace: 'shop',
      format: 'json',
      failOn: 'error',
      timeoutMs: 1500,
      printRbac: false,
      facts: false,
    });
    expect(parseCommand(['doctor', '-A'], ids)).toMatchObject({ kind: 'doctor' });
  });

  test('every bad option is named at once', () => {
    const attempt = () =>
      parseCommand(
        ['doctor', '-n', 'Shop', '-A', '--format', 'xml', '--timeout', 'soon', '--fail-on', 'never', 'x'],
        ids,
      );
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(
      [
        "--format 'xml' is not one of text, json, sarif, github.",
        "--fail-on 'never' is not one of error, warning, info.",
        '-n/--namespace and -A/--all-namespaces: give one or the other.',
        "--namespace 'Shop' is not a namespace name: lower-case letters, digits and '-', at most 63 characters.",
        "--timeout 'soon' is not a time: write seconds, more than 0 and at most 3600 (60, 60s or 1500ms).",
        "doctor takes no arguments; got 'x' (it reads the cluster of --context).",
      ].join('\n'),
    );
  });

  test('--upgrade-to takes a release as lint’s --windows-release does; --kubernetes-version a 1.x minor', () => {
    expect(parseCommand(['doctor', '--upgrade-to', '2025', '--kubernetes-version', '1.37'], ids)).toMatchObject({
      upgradeTo: '2025',
      kubernetesVersion: '1.37',
    });
    expect(() => parseCommand(['doctor', '--upgrade-to', 'ltsc2025', '--kubernetes-version', '2.1'], ids)).toThrow(
      [
        "--upgrade-to: Windows release 'ltsc2025' is not a release name. Write '2025'.",
        "--kubernetes-version '2.1' is not a Kubernetes 1.x version; write it as 1.30.",
      ].join('\n'),
    );
  });

  test('--facts judges nothing: the options that judge are refused beside it', () => {
    expect(parseCommand(['doctor', '--facts', '--context', 'prod'], ids)).toMatchObject({
      facts: true,
      context: 'prod',
    });
    expect(() => parseCommand(['doctor', '--facts', '-f', 'json', '--upgrade-to', '2025', '-n', 'shop'], ids)).toThrow(
      "--facts prints the cluster's facts as YAML and judges nothing: drop --format, --upgrade-to, --namespace (the facts come from every node and RuntimeClass, not one namespace).",
    );
  });

  test('--print-rbac: a ClusterRole with get/list on exactly what doctor reads, never Secrets, and a binding', async () => {
    const r = await cli(['doctor', '--print-rbac']);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS() as Record<string, unknown>);
    expect(docs.map((d) => d.kind)).toEqual(['ClusterRole', 'ClusterRoleBinding']);
    expect(docs[0].rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['events'], verbs: ['get', 'list'] },
      { apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list'] },
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
      { apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['get', 'list'] },
    ]);
    expect(JSON.stringify(docs[0].rules)).not.toMatch(/secrets|watch|create|update|patch|delete|\*/);
  });

  test('doctor --help names every option', async () => {
    const r = await cli(['doctor', '--help']);
    for (const option of [
      '--kubeconfig',
      '--context',
      '--namespace',
      '--all-namespaces',
      '--format',
      '--fail-on',
      '--timeout',
      '--print-rbac',
      '--upgrade-to',
      '--kubernetes-version',
      '--facts',
      'sarif',
    ]) {
      expect(r.stdout).toContain(option);
    }
  });
});

describe('diagnose', () => {
  test('a Windows pod stuck on an untolerated taint: the rule id, the cause, the scheduler’s message verbatim and the fix', () => {
    const report = diagnose({
      nodes: [
        node('linux-1', 'linux'),
        node('win-1', 'windows', { spec: { taints: [TAINT] } }),
        node('win-2', 'windows', { spec: { taints: [TAINT] } }),
      ],
      pods: [PENDING_POD, HEALTHY_POD],
      events: [],
      runtimeClasses: [],
      owners: [],
    });
    expect(report.pods).toEqual({ total: 2, windows: 2, notReady: 1 });
    expect(report.nodes).toEqual({ total: 3, windows: 2 });
    expect(report.findings).toHaveLength(1);
    const [finding] = report.findings;
    expect(finding).toMatchObject({
      ruleId: 'doctor-untolerated-taint',
      severity: 'error',
      resource: { kind: 'Pod', namespace: 'shop', name: 'iis-7d9f' },
      evidence: { text: PENDING_POD.status.conditions[0].message },
    });
    expect(finding.fix).toContain('os');
    const text = formatDoctorText(report, 'prod');
    expect(text).toContain('Pod shop/iis-7d9f');
    expect(text).toContain(`evidence (${finding.evidence?.from ?? ''}): ${PENDING_POD.status.conditions[0].message}`);
    expect(text).toContain('✖ 1 problem: 2 Windows pods (1 not Ready) of 2, 2 Windows nodes of 3, context prod.');
    expect(doctorJson(report, 'prod')).toMatchObject({ context: 'prod', summary: { error: 1, warning: 0, info: 0 } });
  });

  test("a pod the API server refused never exists: its ReplicaSet's FailedCreate event names the forbidden field", () => {
    const replicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-7d4b9c8f6', namespace: 'shop', uid: 'rs-1' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            os: { name: 'windows' },
            nodeSelector: { 'kubernetes.io/os': 'windows' },
            securityContext: { runAsUser: 1000 },
            containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
          },
        },
      },
    };
    const message =
      'Error creating: Pod "web-7d4b9c8f6-x2x9k" is invalid: [spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod]';
    const report = diagnose({
      nodes: [node('win-1', 'windows', { spec: { taints: [TAINT] } })],
      pods: [],
      events: [
        {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'web-7d4b9c8f6.1', namespace: 'shop' },
          involvedObject: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d4b9c8f6', uid: 'rs-1' },
          reason: 'FailedCreate',
          message,
          type: 'Warning',
          source: { component: 'replicaset-controller' },
        },
      ],
      runtimeClasses: [],
      owners: [replicaSet],
    });
    expect(report.findings[0]).toEqual(
      expect.objectContaining({
        ruleId: 'doctor-forbidden-field',
        resource: expect.objectContaining({ kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d4b9c8f6' }),
        evidence: expect.objectContaining({ text: message }),
      }),
    );
    // lint's rules judge the ReplicaSet too (no controller owns it); the field the API server named is said once,
    // with its evidence, not again as windows-forbidden-field.
    expect(report.findings.map((f) => f.ruleId)).not.toContain('windows-forbidden-field');
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId)).toEqual([
      'doctor-forbidden-field',
    ]);
    expect(report.workloads).toBe(1);
  });

  test('a healthy cluster is silent', () => {
    const report = diagnose({
      nodes: [node('linux-1', 'linux'), node('win-1', 'windows', { spec: { taints: [TAINT] } })],
      pods: [HEALTHY_POD],
      events: [],
      runtimeClasses: [],
      owners: [],
    });
    expect(report.findings).toEqual([]);
    expect(formatDoctorText(report, 'prod')).toBe(
      '✔ No problems: 1 Windows pod (0 not Ready) of 1, 1 Windows node of 2, context prod.\n',
    );
  });

  test('a Windows node without a taint beside Linux nodes is a warning; in an all-Windows cluster it is not', () => {
    const mixed = diagnose({
      nodes: [node('linux-1', 'linux'), node('win-1', 'windows')],
      pods: [],
      events: [],
      runtimeClasses: [],
      owners: [],
    });
    expect(mixed.findings).toEqual([
      expect.objectContaining({
        ruleId: 'doctor-windows-node-untainted',
        severity: 'warning',
        path: 'spec.taints',
        resource: { apiVersion: 'v1', kind: 'Node', name: 'win-1' },
      }),
    ]);
    expect(
      diagnose({ nodes: [node('win-1', 'windows')], pods: [], events: [], runtimeClasses: [], owners: [] }).findings,
    ).toEqual([]);
    // A state taint (the API server puts node.kubernetes.io/not-ready on every new node) is no pool taint.
    const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
    expect(
      diagnose({
        nodes: [node('linux-1', 'linux'), node('win-1', 'windows', { spec: { taints: [notReady] } })],
        pods: [],
        events: [],
        runtimeClasses: [],
        owners: [],
      }).findings.map((f) => f.ruleId),
    ).toEqual(['doctor-windows-node-untainted']);
  });

  test('a Windows node of a retired release is a warning; of a supported one, silent', () => {
    const build = (name: string, b: string, extra: Record<string, unknown> = {}) =>
      node(name, 'windows', {
        metadata: { name, labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': b } },
        spec: { taints: [TAINT] },
        ...extra,
      });
    const report = diagnose({
      nodes: [build('win-2016', '10.0.14393'), build('win-1909', '10.0.18363'), build('win-2022', '10.0.20348')],
      pods: [],
      events: [],
      runtimeClasses: [],
      owners: [],
    });
    expect(report.findings.map((f) => [f.ruleId, f.resource.name, f.severity, f.path])).toEqual([
      [
        'doctor-windows-node-release-unsupported',
        'win-2016',
        'warning',
        'metadata.labels[node.kubernetes.io/windows-build]',
      ],
      [
        'doctor-windows-node-release-unsupported',
        'win-1909',
        'warning',
        'metadata.labels[node.kubernetes.io/windows-build]',
      ],
    ]);
    expect(report.findings[0]!.message).toBe(
      'Windows node win-2016 runs Windows Server 2016 (build 10.0.14393), which Kubernetes does not support as a node OS: it gets no security updates, and images of the supported releases do not run on it.',
    );
    expect(report.findings[1]!.message).toContain(', an end-of-life Semi-Annual Channel release,');
    // Without the label, the build comes from the kernel version the kubelet reports.
    const unlabelled = node('win-old', 'windows', {
      metadata: { name: 'win-old', labels: { 'kubernetes.io/os': 'windows' } },
      spec: { taints: [TAINT] },
      status: { nodeInfo: { operatingSystem: 'windows', kernelVersion: '10.0.14393.7000' } },
    });
    expect(
      diagnose({ nodes: [unlabelled], pods: [], events: [], runtimeClasses: [], owners: [] }).findings.map((f) => [
        f.ruleId,
        f.path,
      ]),
    ).toEqual([['doctor-windows-node-release-unsupported', 'status.nodeInfo.kernelVersion']]);
  });

  test('a Windows node whose runtime runs no HostProcess container is a warning only when HostProcess workloads exist', () => {
    const withRuntime = (name: string, runtime: string) =>
      node(name, 'windows', {
        spec: { taints: [TAINT] },
        status: {
          nodeInfo: { operatingSystem: 'windows', kernelVersion: '10.0.20348.2966', containerRuntimeVersion: runtime },
        },
      });
    const nodes = [
      withRuntime('win-old', 'containerd://1.5.18'),
      withRuntime('win-docker', 'docker://20.10.9'),
      withRuntime('win-16', 'containerd://1.6.28'),
      withRuntime('win-17', 'containerd://1.7.20+azure'),
    ];
    const agent = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'csi-proxy', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'csi-proxy' } },
        template: {
          metadata: { labels: { app: 'csi-proxy' } },
          spec: {
            nodeSelector: { 'kubernetes.io/os': 'windows' },
            hostNetwork: true,
            securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
            tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
            containers: [{ name: 'csi-proxy', image: 'ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2' }],
          },
        },
      },
    };
    const runtimeFindings = (owners: Record<string, unknown>[]) =>
      diagnose({ nodes, pods: [], events: [], runtimeClasses: [], owners })
        .findings.filter((f) => f.ruleId === 'doctor-windows-node-runtime-hostprocess')
        .map((f) => [f.resource.name, f.severity, f.path, f.message]);
    expect(runtimeFindings([agent])).toEqual([
      [
        'win-old',
        'warning',
        'status.nodeInfo.containerRuntimeVersion',
        'Windows node win-old runs containerd://1.5.18, which runs no HostProcess container (they need containerd 1.6 or newer): DaemonSet kube-system/csi-proxy cannot start there.',
      ],
      [
        'win-docker',
        'warning',
        'status.nodeInfo.containerRuntimeVersion',
        'Windows node win-docker runs docker://20.10.9, which runs no HostProcess container (they need containerd 1.6 or newer): DaemonSet kube-system/csi-proxy cannot start there.',
      ],
    ]);
    expect(runtimeFindings([])).toEqual([]);
  });

  test('running workloads are judged by lint’s rules against the nodes; the report in json, sarif and text says so', () => {
    const legacy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'legacy',
        namespace: 'shop',
        annotations: { 'suppress.k8s-windows.io/windows-startup-probe': 'answers within 10 s' },
      },
      spec: {
        selector: { matchLabels: { app: 'legacy' } },
        template: {
          metadata: { labels: { app: 'legacy' } },
          spec: {
            os: { name: 'windows' },
            nodeSelector: { 'kubernetes.io/os': 'windows' },
            tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
            containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019' }],
          },
        },
      },
    };
    const snapshot = {
      nodes: [node('linux-1', 'linux'), node('win-1', 'windows', { spec: { taints: [TAINT] } })],
      pods: [],
      events: [],
      runtimeClasses: [],
      owners: [legacy],
    };
    const report = diagnose(snapshot, { date: '2026-12-07' });
    expect(report.workloads).toBe(1);
    expect(report.findings.map((f) => [f.ruleId, f.severity, f.evidence?.text])).toEqual([
      ['image-build-mismatch', 'error', 'win-1 (Windows Server 2022, 10.0.20348)'],
    ]);
    expect(report.suppressed.map((f) => f.ruleId)).toEqual(['windows-startup-probe']);
    expect(formatDoctorText(report, 'prod')).toMatch(
      /✖ 1 problem: 0 Windows pods \(0 not Ready\) of 0, 1 Windows node of 2, 1 suppressed, context prod\.\n$/,
    );
    const json = doctorJson(report, 'prod') as { summary: Record<string, unknown>; findings: { ruleId: string }[] };
    expect(json.summary).toMatchObject({ workloads: 1, error: 1, warning: 0, info: 0, suppressed: 1 });
    expect(json.findings.map((f) => f.ruleId)).toEqual(['image-build-mismatch', 'windows-startup-probe']);
    const sarif = doctorSarif(report, '/work');
    const results = sarif.runs[0].results;
    expect(results.map((r) => [r.ruleId, r.level, r.suppressions?.[0]?.status])).toEqual([
      ['image-build-mismatch', 'error', undefined],
      ['windows-startup-probe', 'note', 'accepted'],
    ]);
    expect(results[0].message.text).toContain(
      'Evidence (the Windows nodes its pods can be scheduled on): win-1 (Windows Server 2022, 10.0.20348)',
    );
    expect(results[0].locations[0].logicalLocations?.[0]?.fullyQualifiedName).toBe('Deployment/shop/legacy');
    // --upgrade-to 2019: the same image is fine there, and the scope line says what the nodes were taken to run.
    const upgraded = diagnose(snapshot, { date: '2026-12-07', upgradeTo: '2019' });
    expect(upgraded.findings.map((f) => f.ruleId)).not.toContain('image-build-mismatch');
    expect(formatDoctorText(upgraded, 'prod')).toContain(', workloads judged as on Windows Server 2019,');
  });
});
