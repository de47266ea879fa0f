/**
 * The generated policies in a real API server (issue 33 §2): kube-apiserver v1.37.2 over etcd on loopback, with
 * kube-controller-manager's ValidatingAdmissionPolicy status controller beside it (test/helpers/kube-apiserver.ts).
 * Every policy set `k8s-windows policies` prints — each --mode, with and without --cluster-facts and --mutating,
 * each --cloud, the --kubernetes-version that picks MutatingAdmissionPolicy v1beta1, a config that enforces every
 * CEL rule — must be accepted object by object (a server-side create with dryRun=All: every admission step and
 * validation, nothing stored, so the sets do not meet), and every distinct ValidatingAdmissionPolicy of them,
 * created, must get a `status.typeChecking` with no warning (the API server's own TypeChecker, run by the status
 * controller against the schemas of the kinds the policy matches and of the WindowsClusterFacts param).
 *
 * Then a Pod that names a RuntimeClass pinning a retired build (issue 33): the RuntimeClass admission plugin merges the
 * RuntimeClass's nodeSelector into the Pod before the default set's pod policy runs, and the denial names the
 * RuntimeClass.
 *
 * Then the harness itself: a Node, a Pod, their `status` subresource and a FailedScheduling Event, written as the
 * kubelet and the scheduler write them, read back as kubectl and `k8s-windows doctor` read them.
 *
 * Without Go or etcd the cluster cannot start and every test here fails (beforeAll throws): none is skipped.
 */
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { generatePolicies } from '../../lib/core/policies';
import { celRules } from '../../lib/core/policies/validating';
import { cli, tempTree } from '../helpers/cli';
import { CLUSTER_START_TIMEOUT, startCluster, type Cluster, type Json as Rec } from '../helpers/kube-apiserver';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    // A 1.34 or 1.35 cluster serves MutatingAdmissionPolicy as v1beta1 with this on; 1.37 still serves it.
    apiserverFlags: ['--runtime-config=admissionregistration.k8s.io/v1beta1=true'],
  });
}, CLUSTER_START_TIMEOUT);

afterAll(async () => {
  await cluster?.stop();
});

test('the API server is the v1.37.2 the helper built, and it authenticates and authorizes', async () => {
  const version = await cluster.ok('GET', '/version');
  expect([version.gitVersion, version.major, version.minor]).toEqual([cluster.version, '1', '37']);
  expect(cluster.version).toBe('v1.37.2');
  // A token not in the token file: 401. A user without rights: 403. No token at all: system:anonymous, 403.
  expect((await cluster.request('GET', '/api/v1/nodes', undefined, 'not-a-token')).status).toBe(401);
  const forbidden = await cluster.request('GET', '/api/v1/nodes', undefined, cluster.users.alice.token);
  expect([forbidden.status, forbidden.body.reason]).toEqual([403, 'Forbidden']);
  expect(forbidden.body.message).toContain('User "alice" cannot list resource "nodes"');
  expect((await cluster.request('GET', '/api/v1/nodes', undefined, { anonymous: true })).status).toBe(403);
  // The kubeconfig a CLI under test reads: the CA inline, the user's token.
  const config = parse(readFileSync(cluster.kubeconfig('bob'), 'utf8')) as Rec;
  expect(config.clusters[0].cluster.server).toBe(cluster.server);
  expect(config.users[0]).toEqual({ name: 'bob', user: { token: cluster.users.bob.token } });
});

// ---------------------------------------------------------------------------------------------------------------
// Every policy set.

/** Every CEL rule enforced: the rules that are info by default raised to warnings, so their validations exist. */
const ENFORCE_ALL_CONFIG = `rules:\n${celRules()
  .filter((r) => r.meta.defaultSeverity === 'info' || (r.meta.cases ?? []).some((c) => c.severity === 'info'))
  .map((r) => `  ${r.meta.id}: warning\n`)
  .join('')}`;

const FACTS_YAML = `apiVersion: k8s-windows.io/v1alpha1
kind: WindowsClusterFacts
metadata: {name: k8s-windows}
spec:
  pools:
  - name: win2022
    provider: aks
    release: '2022'
    build: '10.0.20348'
    labels: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.20348'}
    taints: [{key: os, value: windows, effect: NoSchedule}]
  runtimeClasses:
  - {name: windows-2022, handler: runhcs-wcow-process, build: '10.0.20348'}
`;

/** The `policies` command lines: each mode × facts × mutating, each cloud, the v1beta1 minors, every rule on. */
const VARIANTS: readonly (readonly string[])[] = [
  ...['deny', 'warn', 'audit'].flatMap((mode) =>
    [[], ['--cluster-facts', 'facts.yaml']].flatMap((facts) =>
      [[], ['--mutating']].map((mutating) => ['--mode', mode, ...facts, ...mutating]),
    ),
  ),
  ...['eks', 'aks', 'gke'].map((cloud) => ['--cloud', cloud, '--cluster-facts', 'facts.yaml', '--mutating']),
  ['--kubernetes-version', '1.34', '--mutating', '--cluster-facts', 'facts.yaml'],
  ['--kubernetes-version', '1.35', '--mutating'],
  ['--kubernetes-version', '1.30', '--cluster-facts', 'facts.yaml'],
  ['--config', 'enforce-all.yaml', '--cluster-facts', 'facts.yaml', '--mutating'],
];

/** The objects `k8s-windows policies <args>` prints, in its order. */
async function policySet(args: readonly string[]): Promise<Rec[]> {
  const { dir, cleanup } = tempTree({ 'facts.yaml': FACTS_YAML, 'enforce-all.yaml': ENFORCE_ALL_CONFIG });
  try {
    const noConfig = args.includes('--config') ? [] : ['--no-config'];
    const r = await cli(['policies', ...noConfig, ...args], { cwd: dir });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const documents = parseAllDocuments(r.stdout);
    const list = Array.isArray(documents) ? documents : [documents];
    for (const d of list) expect(d.errors).toEqual([]);
    return list.map((d) => d.toJS() as Rec);
  } finally {
    cleanup();
  }
}

/** A spec as a key: two policies with the same spec type-check the same. */
const specKey = (o: Rec) => JSON.stringify(o.spec);

describe('every policy set `k8s-windows policies` prints', () => {
  const sets = new Map<string, Rec[]>();

  beforeAll(async () => {
    for (const args of VARIANTS) sets.set(args.join(' '), await policySet(args));
    // The facts CRD is the same in every set: created for real once, so the facts objects can be (dry-run) created
    // and the -cluster policies' paramKind is served when the status controller type-checks them.
    const crds = new Map(
      [...sets.values()]
        .flat()
        .filter((o) => o.kind === 'CustomResourceDefinition')
        .map((o) => [JSON.stringify(o), o]),
    );
    expect(crds.size).toBe(1);
    const crd = [...crds.values()][0]!;
    const resource = await cluster.resource(crd.apiVersion, crd.kind);
    await cluster.ok('POST', `${resource.path}?fieldManager=k8s-windows-test`, crd);
    await cluster.eventually(`CRD ${crd.metadata.name} established`, 30_000, async () => {
      const read = await cluster.ok('GET', `${resource.path}/${crd.metadata.name}`);
      const conditions = (read.status?.conditions ?? []) as Rec[];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    });
  }, 120_000);

  test.each(VARIANTS.map((args) => [args.join(' ')] as const))(
    'policies %s: the API server accepts every object (server-side create, dry run)',
    async (line) => {
      const objects = sets.get(line)!;
      expect(objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy').length).toBeGreaterThanOrEqual(13);
      if (line.includes('--mutating')) {
        const version = /1\.3[45]/.test(line) ? 'v1beta1' : 'v1';
        const mutating = objects.filter((o) => o.kind.startsWith('MutatingAdmissionPolicy'));
        expect(mutating).not.toEqual([]);
        expect(new Set(mutating.map((o) => o.apiVersion))).toEqual(
          new Set([`admissionregistration.k8s.io/${version}`]),
        );
      }
      const refused: string[] = [];
      for (const object of objects) {
        const resource = await cluster.resource(object.apiVersion, object.kind);
        // dryRun=All: every admission step and validation of a create, nothing stored, so the sets do not meet.
        // The CRD exists already (beforeAll): it is applied instead, which validates it the same way.
        const r =
          object.kind === 'CustomResourceDefinition'
            ? await cluster.request(
                'PATCH',
                `${resource.path}/${object.metadata.name}?dryRun=All&fieldManager=k8s-windows-test&force=true`,
                object,
                { contentType: 'application/apply-patch+yaml' },
              )
            : await cluster.request('POST', `${resource.path}?dryRun=All&fieldManager=k8s-windows-test`, object);
        if (r.status !== (object.kind === 'CustomResourceDefinition' ? 200 : 201)) {
          refused.push(`${object.kind} ${object.metadata.name}: HTTP ${r.status} ${r.body?.message ?? ''}`);
        }
      }
      expect(refused).toEqual([]);
    },
    120_000,
  );

  test(
    'every ValidatingAdmissionPolicy of every set, created, type-checks clean (status.typeChecking)',
    async () => {
      // One of each spec: a mode or the facts change only the bindings, so the 18 sets hold about 30 distinct
      // policies. Each is created under its own name (a second spec of one name gets a suffix).
      const distinct = new Map<string, Rec>();
      const names = new Set<string>();
      for (const o of [...sets.values()].flat().filter((o) => o.kind === 'ValidatingAdmissionPolicy')) {
        if (distinct.has(specKey(o))) continue;
        let name = o.metadata.name as string;
        for (let i = 2; names.has(name); i++) name = `${o.metadata.name}-${i}`;
        names.add(name);
        distinct.set(specKey(o), { ...o, metadata: { ...o.metadata, name } });
      }
      expect(distinct.size).toBeGreaterThan(13);
      const path = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
      for (const policy of distinct.values()) await cluster.ok('POST', `${path}?fieldManager=k8s-windows-test`, policy);
      await cluster.ok('POST', path, {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'control-wrong-field' },
        spec: {
          matchConstraints: {
            resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
          },
          validations: [{ expression: "object.spec.notAField == 'x'" }],
        },
      });
      // About 8 s of the status controller's CPU per policy: one to five minutes on a 2-core machine.
      const checked = await cluster.eventually('status.typeChecking of every policy', 15 * 60_000, async () => {
        const list = await cluster.ok('GET', `${path}?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dk8s-windows`);
        const items = (list.items as Rec[]).filter((p) => names.has(p.metadata.name));
        const done = items.filter(
          (p) => p.status?.typeChecking !== undefined && p.status.observedGeneration === p.metadata.generation,
        );
        return done.length === names.size ? done : undefined;
      });
      const control = await cluster.eventually('status.typeChecking of the control policy', 60_000, async () => {
        const policy = await cluster.ok('GET', `${path}/control-wrong-field`);
        return policy.status?.typeChecking !== undefined ? policy : undefined;
      });
      const warnings = checked.flatMap((p) =>
        ((p.status.typeChecking.expressionWarnings ?? []) as Rec[]).map(
          (w) => `${p.metadata.name} ${w.fieldRef}: ${w.warning}`,
        ),
      );
      expect(warnings).toEqual([]);
      // The control: a wrong field read on a Pod is found, so an empty list means the checker ran and found nothing.
      expect(control.status.typeChecking.expressionWarnings).toEqual([
        expect.objectContaining({ fieldRef: 'spec.validations[0].expression' }),
      ]);
      expect(control.status.typeChecking.expressionWarnings[0].warning).toContain("undefined field 'notAField'");
    },
    20 * 60_000,
  );
});

// ---------------------------------------------------------------------------------------------------------------
// The harness: what the kubelet and the scheduler would write.

describe('a Node, a Pod, their status and an Event, written as the components write them', () => {
  const namespace = 'shop';
  const nodeName = 'akswin000000';
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  /** MicroTime: RFC 3339 with six fractional digits. */
  const microNow = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

  test('the Node, its status written through the status subresource as the kubelet writes it', async () => {
    const node = await cluster.ok('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: nodeName,
        labels: {
          'kubernetes.io/os': 'windows',
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': nodeName,
          'node.kubernetes.io/windows-build': '10.0.20348',
          'node.kubernetes.io/instance-type': 'Standard_D4s_v3',
          'kubernetes.azure.com/os-sku': 'Windows2022',
        },
      },
      spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] },
    });
    // Until the kubelet writes it, the node info is empty.
    expect(node.status.nodeInfo).toMatchObject({ operatingSystem: '', kubeletVersion: '' });
    const ready = {
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastHeartbeatTime: now(),
      lastTransitionTime: now(),
    };
    // The kubelet patches its node's status (strategic merge) with its node info, capacity and conditions.
    await cluster.ok(
      'PATCH',
      `/api/v1/nodes/${nodeName}/status`,
      {
        status: {
          capacity: { cpu: '4', memory: '16Gi', pods: '30', 'ephemeral-storage': '128Gi' },
          allocatable: { cpu: '3860m', memory: '12Gi', pods: '30', 'ephemeral-storage': '119Gi' },
          conditions: [ready],
          addresses: [
            { type: 'Hostname', address: nodeName },
            { type: 'InternalIP', address: '10.224.0.33' },
          ],
          nodeInfo: {
            machineID: nodeName,
            systemUUID: '7D5B2F34-0E0C-4F5E-9C1F-2D3C4B5A6978',
            bootID: '9',
            kernelVersion: '10.0.20348.2655',
            osImage: 'Windows Server 2022 Datacenter',
            containerRuntimeVersion: 'containerd://1.7.20+azure',
            kubeletVersion: 'v1.37.2',
            kubeProxyVersion: '',
            operatingSystem: 'windows',
            architecture: 'amd64',
          },
        },
      },
      { contentType: 'application/strategic-merge-patch+json' },
    );
    const read = await cluster.ok('GET', `/api/v1/nodes/${nodeName}`);
    expect(read.status.nodeInfo).toMatchObject({ operatingSystem: 'windows', kernelVersion: '10.0.20348.2655' });
    expect(read.status.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'True' })]);
    // The TaintNodesByCondition admission plugin taints every new Node not-ready; in a cluster the node lifecycle
    // controller takes the taint off once the kubelet reports Ready. It does not run here (with no kubelet renewing
    // the node's lease it would mark the node unreachable): a test takes the taint off itself, as that controller does.
    expect(read.spec.taints).toEqual([
      { key: 'os', value: 'windows', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
    const untainted = await cluster.ok('PATCH', `/api/v1/nodes/${nodeName}`, {
      spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] },
    });
    expect(untainted.spec.taints).toEqual([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    expect(untainted.status.nodeInfo.operatingSystem).toBe('windows');
  });

  test('a Pending Pod the scheduler could not place, and its FailedScheduling Event', async () => {
    // The namespace and its default ServiceAccount (the service-account controller does not run).
    await cluster.namespace(namespace);
    const pod = await cluster.ok('POST', `/api/v1/namespaces/${namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'iis', labels: { app: 'iis' } },
      spec: {
        os: { name: 'windows' },
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
        containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019' }],
      },
    });
    // The API server's own defaults: phase Pending, the default service account's token mounted.
    expect(pod.status.phase).toBe('Pending');
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.volumes).toEqual([expect.objectContaining({ name: expect.stringMatching(/^kube-api-access-/) })]);

    // The main resource ignores status: only the status subresource writes it.
    await cluster.ok(
      'PATCH',
      `/api/v1/namespaces/${namespace}/pods/iis`,
      { status: { phase: 'Running' } },
      { contentType: 'application/strategic-merge-patch+json' },
    );
    expect((await cluster.ok('GET', `/api/v1/namespaces/${namespace}/pods/iis`)).status.phase).toBe('Pending');

    const message =
      "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {os: windows}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    // The scheduler's status patch (strategic merge on pods/status), as its PatchPodStatus sends it.
    const patched = await cluster.ok(
      'PATCH',
      `/api/v1/namespaces/${namespace}/pods/iis/status`,
      {
        status: {
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              lastProbeTime: null,
              lastTransitionTime: now(),
              reason: 'Unschedulable',
              message,
            },
          ],
        },
      },
      { contentType: 'application/strategic-merge-patch+json' },
    );
    expect(patched.status.phase).toBe('Pending');
    expect(patched.status.conditions).toEqual([
      expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }),
    ]);
    expect(patched.spec.nodeName).toBeUndefined();

    // The scheduler's Event (events.k8s.io/v1, named <pod>.<hex nanoseconds> by client-go's recorder).
    const event = await cluster.ok('POST', `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `iis.${(BigInt(Date.now()) * 1_000_000n).toString(16)}`, namespace },
      eventTime: microNow(),
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
      action: 'Scheduling',
      reason: 'FailedScheduling',
      type: 'Warning',
      note: message,
      regarding: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace,
        name: 'iis',
        uid: pod.metadata.uid,
        resourceVersion: patched.metadata.resourceVersion,
      },
    });
    expect(event.reason).toBe('FailedScheduling');

    // As kubectl describe and doctor read it: core/v1 Events of the pod, by field selector.
    const selector = encodeURIComponent(
      `involvedObject.kind=Pod,involvedObject.name=iis,involvedObject.uid=${pod.metadata.uid}`,
    );
    const events = await cluster.ok('GET', `/api/v1/namespaces/${namespace}/events?fieldSelector=${selector}`);
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({
      reason: 'FailedScheduling',
      type: 'Warning',
      message,
      reportingComponent: 'default-scheduler',
      involvedObject: { kind: 'Pod', name: 'iis', namespace, uid: pod.metadata.uid },
    });

    // A user without rights sees none of it.
    const denied = await cluster.request(
      'GET',
      `/api/v1/namespaces/${namespace}/events`,
      undefined,
      cluster.users.bob.token,
    );
    expect(denied.status).toBe(403);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The RuntimeClass admission plugin and the pod policy.

describe('a Pod whose RuntimeClass pins a retired build, under the default pod policy', () => {
  const namespace = 'rc-merge';
  const supported =
    "'10.0.17763' (Windows Server 2019), '10.0.20348' (Windows Server 2022), '10.0.26100' (Windows Server 2025)";
  const runtimeClass = (name: string, build: string) => ({
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name },
    handler: 'runhcs-wcow-process',
    scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': build } },
  });
  const pod = (runtimeClassName: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      os: { name: 'windows' },
      runtimeClassName,
      tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
    },
  });
  const create = (body: Rec) =>
    cluster.request('POST', `/api/v1/namespaces/${namespace}/pods?dryRun=All&fieldManager=k8s-windows-test`, body);

  test('is refused with a message that names the RuntimeClass; one pinning a supported build is merged and admitted', async () => {
    await cluster.namespace(namespace);
    for (const rc of [runtimeClass('windows-2016', '10.0.14393'), runtimeClass('windows-2022', '10.0.20348')]) {
      await cluster.ok('POST', '/apis/node.k8s.io/v1/runtimeclasses?fieldManager=k8s-windows-test', rc);
    }
    // The default set's pod policy, bound to this namespace alone (the file's other tests do not meet it).
    const policy = generatePolicies({}).objects.find(
      (o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === 'k8s-windows-pod-deny',
    ) as Rec;
    const name = 'rc-merge-pod-deny';
    await cluster.ok('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      ...policy,
      metadata: { ...policy.metadata, name },
    });
    await cluster.ok('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } },
      },
    });
    // The policy and the RuntimeClasses reach the API server's informers in their own time.
    const refused = await cluster.eventually('the pod policy refuses the pod', 60_000, async () => {
      const r = await create(pod('windows-2016'));
      return r.status !== 201 && String(r.body?.message).includes('windows-build-retired') ? r : undefined;
    });
    expect([refused.status, refused.body.message]).toEqual([
      422,
      `pods "web" is forbidden: ValidatingAdmissionPolicy '${name}' with binding '${name}' denied request: windows-build-retired: This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.14393 (written in the pod, or merged in from RuntimeClass 'windows-2016' by the RuntimeClass admission plugin), Windows Server 2016, which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${supported}, with images of the same release, in RuntimeClass 'windows-2016' (its scheduling.nodeSelector) if the pin came from there.`,
    ]);
    // The control: the plugin merged a supported RuntimeClass's selector, and the policy admits the pod.
    const admitted = await create(pod('windows-2022'));
    expect([admitted.status, admitted.body.spec?.nodeSelector]).toEqual([
      201,
      { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
    ]);
    await cluster.ok('DELETE', `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${name}`);
  }, 120_000);
});
