/**
 * The mutating policies on a live kube-apiserver 1.37 (issue 33 §2: "mutations equal fix's"): the set
 * `k8s-windows policies --mutating` prints (MutatingAdmissionPolicy v1 and their bindings) is created for real, then
 * each case of test/fixtures/policies/mutations.yaml — objects before the policies and what `fix` writes, held to
 * `fixManifests` by test/core/policies/mutating.test.ts — is sent as a create with dryRun=All, and so is its
 * `expected`. The API server's answer to the input must be its answer to the expected object: the same object once
 * the API server's own defaults are applied to both (restartPolicy, dnsPolicy, …), and the expected object comes
 * back as it went in (the policies have nothing left to do). The CEL library run (apiserver-agreement.e2e.test.ts)
 * shows the same for every case; this shows matching, bindings, reinvocation and the admission chain of a live
 * server.
 *
 * The cases with cluster facts are left to that run: their `-cluster` policies read one WindowsClusterFacts object
 * by name, which would have to be replaced per case, and UPDATE cases need a stored object. So are cases the API
 * server's own validation refuses (both sides are refused alike, before any policy could be seen).
 */
import { generatePolicies } from '../../lib/core/policies';
import { readMutationCases } from '../helpers/policy-mutations';
import { CLUSTER_START_TIMEOUT, startCluster, type Cluster, type Json as Rec } from '../helpers/kube-apiserver';

let cluster: Cluster;

const CASES = readMutationCases().filter((c) => c.facts === undefined && (c.operation ?? 'CREATE') === 'CREATE');

/** What changes per request: left out of the comparison. */
const PER_REQUEST = new Set(['uid', 'creationTimestamp', 'managedFields', 'resourceVersion', 'generation']);

/** The object as the API server answers it, without what changes per request (uid, timestamps, a token's name). */
function comparable(o: Rec): string {
  const uid = (o.metadata as Rec | undefined)?.uid;
  const metadata = Object.fromEntries(Object.entries((o.metadata ?? {}) as Rec).filter(([k]) => !PER_REQUEST.has(k)));
  // The ServiceAccount admission plugin names the token volume it adds with a random suffix; a Job's selector and
  // labels carry its uid.
  return JSON.stringify(sortKeys({ ...o, metadata }))
    .replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-*')
    .split(typeof uid === 'string' && uid !== '' ? uid : '\u0000')
    .join('<uid>');
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Rec)[k])]),
  );
}

type Outcome = { readonly admitted: string } | { readonly refused: string };

async function send(o: Rec): Promise<Outcome> {
  const resource = await cluster.resource(String(o.apiVersion), String(o.kind));
  const cut = resource.path.lastIndexOf('/');
  const ns = String((o.metadata as Rec | undefined)?.namespace ?? 'default');
  const path = resource.namespaced
    ? `${resource.path.slice(0, cut)}/namespaces/${ns}${resource.path.slice(cut)}`
    : resource.path;
  const r = await cluster.request('POST', `${path}?dryRun=All&fieldManager=k8s-windows-test`, o);
  return r.status === 201
    ? { admitted: comparable(r.body) }
    : { refused: `HTTP ${r.status} ${String((r.body as Rec | undefined)?.message ?? r.body)}` };
}

const results = new Map<string, { input: Outcome; expected: Outcome }>();

beforeAll(async () => {
  cluster = await startCluster();
  const set = generatePolicies({ mutating: true }).objects as unknown as Rec[];
  for (const o of set.filter((x) => x.kind === 'CustomResourceDefinition')) {
    const resource = await cluster.resource(o.apiVersion, o.kind);
    await cluster.ok('POST', `${resource.path}?fieldManager=k8s-windows-test`, o);
    await cluster.eventually(`CRD ${o.metadata.name} established`, 30_000, async () => {
      const read = await cluster.ok('GET', `${resource.path}/${o.metadata.name}`);
      return ((read.status?.conditions ?? []) as Rec[]).some((c) => c.type === 'Established' && c.status === 'True')
        ? true
        : undefined;
    });
  }
  // Only the mutating policies and their bindings: a validating denial would hide what the mutations wrote.
  for (const o of set.filter((x) => x.kind.startsWith('MutatingAdmissionPolicy'))) {
    const resource = await cluster.resource(o.apiVersion, o.kind);
    await cluster.ok('POST', `${resource.path}?fieldManager=k8s-windows-test`, o);
  }
  // What the pods name that admission looks up: their RuntimeClasses.
  for (const name of new Set(CASES.map((c) => (c.input.spec as Rec | undefined)?.runtimeClassName))) {
    if (typeof name !== 'string') continue;
    await cluster.ok('POST', '/apis/node.k8s.io/v1/runtimeclasses', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name },
      handler: 'runhcs-wcow-process',
    });
  }
  // The bindings take effect once the API server's policy informer has them: wait for a case the policies change.
  const changed = CASES.find((c) => comparable(c.input) !== comparable(c.expected));
  if (changed === undefined) throw new Error('no mutation case without facts changes its object');
  const want = await send(changed.expected);
  let got: Outcome | undefined;
  try {
    await cluster.eventually(`the mutating policies change ${changed.name}`, 60_000, async () => {
      got = await send(changed.input);
      return JSON.stringify(got) === JSON.stringify(want) ? true : undefined;
    });
  } catch (e) {
    throw new Error(
      `${(e as Error).message.split('\n')[0]}\nwant ${JSON.stringify(want)}\ngot  ${JSON.stringify(got)}`,
    );
  }
  for (const c of CASES) results.set(c.name, { input: await send(c.input), expected: await send(c.expected) });
}, CLUSTER_START_TIMEOUT);

afterAll(async () => {
  await cluster?.stop();
});

test('the cases reach the server: most admitted, some changed by the policies', () => {
  expect(CASES.length).toBeGreaterThan(10);
  const admitted = [...results.values()].filter((r) => 'admitted' in r.input);
  expect(admitted.length).toBeGreaterThan(CASES.length / 2);
  expect(CASES.filter((c) => comparable(c.input) !== comparable(c.expected)).length).toBeGreaterThan(3);
});

test.each(CASES.map((c) => [c.name] as const))(
  '%s: the live mutating policies write what fix writes (mutations.yaml expected)',
  (name) => {
    const r = results.get(name)!;
    expect(r.input).toEqual(r.expected);
  },
);
