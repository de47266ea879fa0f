/**
 * The whole object against the API of the target Kubernetes version, on the shapes the real-world corpus showed:
 * an extensions/v1beta1 Deployment (microsoft/SDN samples), a Windows toleration with a capital-E `Effect`, and
 * `memory: 800m` (Azure/aks-engine's cpu-consumption test workload).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadManifests, validateManifests, type Diagnostic } from 'k8s-windows';
import {
  apiSchema,
  knownMinors,
  newestMinor,
  schemaSources,
  targetMinor,
  unknownFields,
} from '../../../lib/core/api/schema';
import { REMOVED_APIS } from '../../../lib/core/api/removed';
import { generate, readCdk8sPlus, readUpstream, upstreamEntries } from '../../../scripts/api-schema';

const lint = (text: string, options = {}): Diagnostic[] => validateManifests(loadManifests(text), options);
const of = (ds: Diagnostic[], rule: string) => ds.filter((d) => d.ruleId === rule);

const SDN_DEPLOYMENT = `
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  labels:
    app: win-webserver
  name: win-webserver
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: win-webserver
      name: win-webserver
    spec:
      containers:
      - name: windowswebserver
        image: mcr.microsoft.com/windows/servercore:ltsc2022
        command: [powershell.exe, -command, "echo hi"]
      nodeSelector:
        kubernetes.io/os: windows
`;

const EFFECT_DAEMONSET = `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: csi-node-win, namespace: kube-system}
spec:
  selector:
    matchLabels: {app: csi-node-win}
  template:
    metadata:
      labels: {app: csi-node-win}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      tolerations:
      - key: "node.kubernetes.io/os"
        operator: "Equal"
        value: "windows"
        Effect: "NoSchedule"
      containers:
      - name: node
        image: mcr.microsoft.com/oss/kubernetes-csi/csi-node-driver-registrar:v2.10.0
`;

const MEMORY_800M = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: validate-windows-cpu-consumption}
spec:
  selector:
    matchLabels: {app: iis-2019}
  template:
    metadata:
      labels: {app: iis-2019}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      containers:
      - name: iis
        image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019
        resources:
          limits: {cpu: .25, memory: 800m}
          requests: {cpu: .25, memory: 300m}
`;

describe('api-version-removed', () => {
  test('an extensions/v1beta1 Deployment: removed in 1.16, use apps/v1', () => {
    const [d, ...rest] = of(lint(SDN_DEPLOYMENT), 'api-version-removed');
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ path: 'apiVersion', severity: 'error' });
    expect(d.message).toContain('removed in Kubernetes 1.16');
    expect(d.fix).toContain('apps/v1');
    // Its fields are not judged against a schema the version does not have.
    expect(of(lint(SDN_DEPLOYMENT), 'api-unknown-field')).toEqual([]);
  });

  test('node.k8s.io/v1beta1 RuntimeClass follows the target version: served by 1.24, refused by 1.25', () => {
    const text =
      'apiVersion: node.k8s.io/v1beta1\nkind: RuntimeClass\nmetadata: {name: w}\nhandler: runhcs-wcow-process\n';
    expect(of(lint(text, { kubernetesVersion: '1.24' }), 'api-version-removed')).toEqual([]);
    const [d] = of(lint(text, { kubernetesVersion: '1.25' }), 'api-version-removed');
    expect(d.message).toContain('removed in Kubernetes 1.25');
    expect(d.fix).toContain('node.k8s.io/v1');
  });

  test('removals inside the data range come from the data: flowcontrol v1beta3 is gone in 1.32', () => {
    const text = 'apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: f}\nspec: {}\n';
    expect(of(lint(text, { kubernetesVersion: '1.31' }), 'api-version-removed')).toEqual([]);
    expect(of(lint(text, { kubernetesVersion: '1.32' }), 'api-version-removed')).toHaveLength(1);
  });

  test('the replacement is one the target serves: flowcontrol v1beta3 on 1.28 (v1 only from 1.29)', () => {
    const text = 'apiVersion: flowcontrol.apiserver.k8s.io/v1beta1\nkind: FlowSchema\nmetadata: {name: f}\nspec: {}\n';
    const [old] = of(lint(text, { kubernetesVersion: '1.28' }), 'api-version-removed');
    expect(old.fix).toMatch(/^Use apiVersion: flowcontrol\.apiserver\.k8s\.io\/v1beta3 or /);
    const [now] = of(lint(text, { kubernetesVersion: '1.30' }), 'api-version-removed');
    expect(now.fix).toMatch(/^Use apiVersion: flowcontrol\.apiserver\.k8s\.io\/v1 /);
  });

  test('an unknown kind in a built-in group; custom resources and core Events are not judged', () => {
    const text = [
      'apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: a}',
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: b}\nspec: {Effect: x}',
      'apiVersion: windows.k8s.io/v1\nkind: GMSACredentialSpec\nmetadata: {name: c}\ncredspec: {}',
      'apiVersion: v1\nkind: Event\nmetadata: {name: d}\nreason: Pulled',
    ].join('\n---\n');
    const ds = lint(text);
    expect(of(ds, 'api-version-removed').map((d) => d.resource.kind)).toEqual(['Deploymnet']);
    expect(of(ds, 'api-unknown-field')).toEqual([]);
  });

  test('the betas removed in 1.33, 1.34 and 1.37 name their release and a replacement the target serves', () => {
    const cases: [string, string, string, string][] = [
      ['authentication.k8s.io/v1beta1', 'SelfSubjectReview', '1.33', 'authentication.k8s.io/v1'],
      ['admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicy', '1.34', 'admissionregistration.k8s.io/v1'],
      ['networking.k8s.io/v1beta1', 'ServiceCIDR', '1.37', 'networking.k8s.io/v1'],
      ['storage.k8s.io/v1beta1', 'VolumeAttributesClass', '1.37', 'storage.k8s.io/v1'],
    ];
    for (const [apiVersion, kind, removed, replacement] of cases) {
      const text = `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: x}\n`;
      const before = `1.${Number(removed.split('.')[1]) - 1}`;
      expect([kind, of(lint(text, { kubernetesVersion: before }), 'api-version-removed')]).toEqual([kind, []]);
      const [d] = of(lint(text, { kubernetesVersion: removed }), 'api-version-removed');
      expect([kind, d.message]).toEqual([kind, expect.stringContaining(`removed in Kubernetes ${removed}`)]);
      expect([kind, d.fix]).toEqual([kind, expect.stringMatching(new RegExp(`^Use apiVersion: ${replacement} `))]);
      expect(apiSchema(Number(removed.split('.')[1])).kinds.has(`${replacement}/${kind}`)).toBe(true);
    }
  });

  test('every removal the table words is one the schema data agrees with', () => {
    const minors = knownMinors();
    for (const r of REMOVED_APIS) {
      for (const kind of r.kinds) {
        // Served from its introduction (1.31 for networking.k8s.io/v1beta1 IPAddress, or before the data) up to the
        // minor before its removal, and never after.
        const served = minors.filter((m) => apiSchema(m).kinds.has(`${r.apiVersion}/${kind}`));
        const first = served[0] ?? r.removedIn;
        const expected = minors.filter((m) => m >= first && m < r.removedIn);
        expect([`${r.apiVersion}/${kind}`, served]).toEqual([`${r.apiVersion}/${kind}`, expected]);
        if (r.removedIn - 1 >= minors[0])
          expect([`${r.apiVersion}/${kind}`, served.length > 0]).toEqual([`${r.apiVersion}/${kind}`, true]);
      }
    }
  });
});

describe('api-unknown-field', () => {
  test("a capital-E Effect in a Windows toleration: path and the close name 'effect'", () => {
    const [d, ...rest] = of(lint(EFFECT_DAEMONSET), 'api-unknown-field');
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ path: 'spec.template.spec.tolerations[0].Effect', severity: 'error' });
    expect(d.message).toContain('unknown field "Effect"');
    expect(d.fix).toContain("'effect'");
  });

  test('fields follow the target version: pod-level resources exist from 1.32', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resources: {limits: {memory: 1Gi}}
  containers: [{name: c, image: nginx}]
`;
    expect(of(lint(text, { kubernetesVersion: '1.31' }), 'api-unknown-field').map((d) => d.path)).toEqual([
      'spec.resources',
    ]);
    expect(of(lint(text, { kubernetesVersion: '1.32' }), 'api-unknown-field')).toEqual([]);
    expect(of(lint(text), 'api-unknown-field')).toEqual([]);
  });

  test('maps of typed values are checked inside; free-form maps are not', () => {
    const type = apiSchema(newestMinor()).kinds.get('v1/Pod')!;
    const found = unknownFields(
      {
        metadata: { labels: { Any: 'x' }, annotations: { 'a/b': 'y' } },
        spec: {
          containers: [{ name: 'c', resources: { limits: { memory: '1Gi' } } }],
          overhead: { cpu: '1' },
          nodeSelector: { Weird: 'ok' },
        },
      },
      type,
    );
    expect(found).toEqual([]);
  });
});

describe('memory-too-small', () => {
  test('memory: 800m is 0.8 bytes: an error naming the suffix, with 800Mi as the fix', () => {
    const ds = of(lint(MEMORY_800M), 'memory-too-small');
    expect(ds.map((d) => [d.path, d.severity])).toEqual([
      ['spec.template.spec.containers[0].resources.requests.memory', 'error'],
      ['spec.template.spec.containers[0].resources.limits.memory', 'error'],
    ]);
    expect(ds[1].message).toContain('0.8 bytes');
    expect(ds[1].message).toContain("'m' is milli");
    expect(ds[1].fix).toContain('800Mi');
    expect(ds[0].fix).toContain('300Mi');
  });
});

describe('the API data of Kubernetes 1.35 to 1.37', () => {
  const pod = (spec: string) => `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  containers: [{name: c, image: mcr.microsoft.com/windows/nanoserver:ltsc2022}]
${spec}`;
  const unknown = (text: string, kubernetesVersion?: string) =>
    of(lint(text, kubernetesVersion ? { kubernetesVersion } : {}), 'api-unknown-field').map((d) => [
      d.path,
      d.severity,
    ]);

  test('1.37 is the newest known minor, and the target when none is given', () => {
    expect(knownMinors()).toEqual([28, 29, 30, 31, 32, 33, 34, 35, 36, 37]);
    expect(newestMinor()).toBe(37);
    expect(targetMinor(undefined)).toBe(37);
  });

  test("PodSpec.workloadRef is 1.35's alone (alpha); schedulingGroup replaced it in 1.36 and is kept by 1.37", () => {
    const workloadRef = pod('  workloadRef: {name: w, podGroup: g}');
    expect(unknown(workloadRef, '1.34')).toEqual([['spec.workloadRef', 'error']]);
    expect(unknown(workloadRef, '1.35')).toEqual([]);
    expect(unknown(workloadRef, '1.36')).toEqual([['spec.workloadRef', 'error']]);
    const schedulingGroup = pod('  schedulingGroup: {podGroupName: g}');
    expect(unknown(schedulingGroup, '1.35')).toEqual([['spec.schedulingGroup', 'error']]);
    expect(unknown(schedulingGroup, '1.36')).toEqual([]);
    expect(unknown(schedulingGroup, '1.37')).toEqual([]);
    expect(unknown(schedulingGroup)).toEqual([]);
  });

  test('fields 1.37 added to a pod are known to 1.37 (PodSpec.evictionResponders, VolumeMount.bindMountOptions)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  evictionResponders: [{name: r}]
  containers:
  - name: c
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
    volumeMounts: [{name: v, mountPath: 'C:\\data', bindMountOptions: {}}]
  volumes: [{name: v, emptyDir: {}}]
`;
    expect(unknown(text, '1.36')).toEqual([
      ['spec.evictionResponders', 'error'],
      ['spec.containers[0].volumeMounts[0].bindMountOptions', 'error'],
    ]);
    expect(unknown(text, '1.37')).toEqual([]);
    expect(unknown(text)).toEqual([]);
  });

  test("a field 1.37 added (NodeSpec.podPreemptionPolicy) and 1.37's new kinds are known to 1.37 only", () => {
    const node = 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec:\n  podPreemptionPolicy: {}\n';
    expect(unknown(node, '1.36')).toEqual([['spec.podPreemptionPolicy', 'error']]);
    expect(unknown(node, '1.37')).toEqual([]);
    expect(apiSchema(36).kinds.has('certificates.k8s.io/v1/ClusterTrustBundle')).toBe(false);
    expect(apiSchema(37).kinds.has('certificates.k8s.io/v1/ClusterTrustBundle')).toBe(true);
    expect(apiSchema(37).kinds.has('certificates.k8s.io/v1/ClusterTrustBundleList')).toBe(true);
    expect(apiSchema(36).kinds.has('scheduling.k8s.io/v1alpha2/Workload')).toBe(true);
    expect(apiSchema(37).kinds.has('scheduling.k8s.io/v1alpha2/Workload')).toBe(false);
    expect(apiSchema(37).kinds.has('scheduling.k8s.io/v1alpha3/Workload')).toBe(true);
  });

  test('a truly unknown field on 1.37 is an error; on 1.38 a warning judged by 1.37', () => {
    const text = pod('  notAField: 1');
    const [on37, ...rest] = of(lint(text, { kubernetesVersion: '1.37' }), 'api-unknown-field');
    expect(rest).toEqual([]);
    expect(on37).toMatchObject({ path: 'spec.notAField', severity: 'error' });
    expect(on37.message).not.toContain('newest this package knows');
    const [on38] = of(lint(text, { kubernetesVersion: '1.38' }), 'api-unknown-field');
    expect(on38).toMatchObject({ path: 'spec.notAField', severity: 'warning' });
    expect(on38.message).toContain(
      'by the API of Kubernetes 1.37, the newest this package knows: 1.38 may have added it',
    );
  });

  test('every known minor says where its data came from and when', () => {
    const sources = schemaSources();
    expect(sources.map((s) => s.minor)).toEqual(knownMinors().map((m) => `1.${m}`));
    for (const s of sources) {
      expect([s.minor, s.source.length > 0, s.from.length > 0, s.at.length > 0]).toEqual([s.minor, true, true, true]);
      expect([s.minor, s.retrieved]).toEqual([s.minor, expect.stringMatching(/^20\d\d-\d\d-\d\d$/)]);
    }
    expect(sources.find((s) => s.minor === '1.34')!.from).toBe('npm cdk8s-plus-34 lib/imports/k8s.js');
    expect(sources.find((s) => s.minor === '1.35')!.at).toBe('v1.35.0');
    expect(sources.find((s) => s.minor === '1.36')!.at).toBe('v1.36.0');
    expect(sources.find((s) => s.minor === '1.37')!.at).toBe('v1.37.0');
  });
});

test('pod-level resources on a Windows pod: unknown before 1.32, a warning on 1.32 and 1.33, refused from 1.34', () => {
  const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows}
  resources: {limits: {memory: 1Gi}}
  containers: [{name: c, image: mcr.microsoft.com/windows/nanoserver:ltsc2022}]
`;
  const found = (kubernetesVersion: string) =>
    lint(text, { kubernetesVersion })
      .filter((d) => d.path === 'spec.resources')
      .map((d) => [d.ruleId, d.severity]);
  expect(found('1.31')).toEqual([['api-unknown-field', 'error']]);
  expect(found('1.32')).toEqual([['windows-forbidden-field', 'warning']]);
  expect(found('1.33')).toEqual([['windows-forbidden-field', 'warning']]);
  expect(found('1.34')).toEqual([['windows-forbidden-field', 'error']]);
  expect(found('1.37')).toEqual([['windows-forbidden-field', 'error']]);
});

describe('the generator', () => {
  test('the committed schema data is what scripts/api-schema.ts generates from the committed inputs', () => {
    const committed = readFileSync(join(__dirname, '../../../lib/core/api/schema-data.ts'), 'utf8');
    expect(generate() === committed).toBe(true);
  });

  test("1.34 from upstream's swagger.json and 1.34 as cdk8s-plus-34 ships it agree field for field", () => {
    const upstream = readUpstream(upstreamEntries().find((e) => e.minor === '1.34')!);
    const plus = readCdk8sPlus(34);
    expect(Object.keys(upstream.types)).toHaveLength(Object.keys(plus.types).length);
    expect(upstream.types).toEqual(plus.types);
    expect(upstream.kinds).toEqual(plus.kinds);
  });
});
