import { WindowsValidationError } from '../../../lib/core/errors';
import {
  checkClusterFacts,
  CLUSTER_FACTS_CRD_NAME,
  clusterFactsCrd,
  clusterFactsFromTargets,
  clusterFactsObject,
  readClusterFacts,
} from '../../../lib/core/policies/cluster-facts';
import type { ClusterFacts } from '../../../lib/core/policies/types';
import { windowsNodeTarget } from '../../../lib/core/target';

function issuesOf(run: () => unknown): { path: string; message: string; fix?: string }[] {
  try {
    run();
  } catch (e) {
    if (e instanceof WindowsValidationError)
      return e.issues.map((i) => ({ path: i.path, message: i.message, fix: i.fix }));
    throw e;
  }
  throw new Error('expected a WindowsValidationError');
}

describe('clusterFactsObject', () => {
  test('writes the facts as given, with each pool’s build filled in from its release', () => {
    const facts: ClusterFacts = {
      pools: [
        {
          name: 'win2022',
          provider: 'eks',
          release: '2022',
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        },
        { name: 'win2025', provider: 'aks', build: '10.0.26100', labels: { agentpool: 'win25' } },
      ],
      runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
    };
    expect(clusterFactsObject(facts)).toEqual({
      apiVersion: 'k8s-windows.io/v1alpha1',
      kind: 'WindowsClusterFacts',
      metadata: { name: 'k8s-windows', labels: { 'app.kubernetes.io/managed-by': 'k8s-windows' } },
      spec: {
        pools: [
          {
            name: 'win2022',
            provider: 'eks',
            release: '2022',
            build: '10.0.20348',
            taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
          },
          { name: 'win2025', provider: 'aks', build: '10.0.26100', labels: { agentpool: 'win25' } },
        ],
        runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
      },
    });
  });

  test('takes another object name', () => {
    const obj = clusterFactsObject({ pools: [{ name: 'p', provider: 'other' }] }, 'prod-facts');
    expect(obj.metadata.name).toBe('prod-facts');
  });

  test('a pool of unknown build keeps neither release nor build', () => {
    const obj = clusterFactsObject({ pools: [{ name: 'p', provider: 'other' }] }) as unknown as {
      spec: { pools: unknown[] };
    };
    expect(obj.spec.pools).toEqual([{ name: 'p', provider: 'other' }]);
  });

  test('checkClusterFacts fills in what follows: release from build, the OS and build labels, no taints', () => {
    expect(checkClusterFacts({ pools: [{ name: 'p', build: '10.0.26100' }] }).pools).toEqual([
      {
        name: 'p',
        provider: 'other',
        release: '2025',
        build: '10.0.26100',
        labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
        taints: [],
      },
    ]);
  });

  test('readClusterFacts takes the object or its spec, and names fields under the file', () => {
    const spec = { pools: [{ name: 'p', release: '2022' }] };
    expect(readClusterFacts(spec, 'f.yaml')).toEqual({ facts: spec, issues: [] });
    expect(readClusterFacts({ apiVersion: 'k8s-windows.io/v1alpha1', kind: 'WindowsClusterFacts', spec }, 'f')).toEqual(
      {
        facts: spec,
        issues: [],
      },
    );
    expect(
      readClusterFacts(
        {
          apiVersion: 'k8s-windows.io/v1alpha1',
          kind: 'WindowsClusterFacts',
          spec: { pools: [{ name: 'p', release: 'x' }] },
        },
        'f',
      ).issues.map((i) => i.path),
    ).toEqual(['f.spec.pools[0].release']);
    expect(readClusterFacts({ pools: 3 }, 'f').issues.map((i) => i.path)).toEqual(['f.pools']);
    expect(readClusterFacts({ apiVersion: 'v1', kind: 'ConfigMap' }, 'f').issues[0]?.message).toBe(
      'The object is v1 ConfigMap, not k8s-windows.io/v1alpha1 WindowsClusterFacts.',
    );
  });

  test('names every bad field at once, each with its fix', () => {
    const bad = {
      pools: [
        {
          name: 'a',
          provider: 'EKS',
          release: 'ltsc2022',
          taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
        },
        { name: 'b', provider: 'azure', build: '10.0.18362' },
        { name: 'a', provider: 'gke', release: '2022', build: '10.0.26100', taint: [] },
        { name: 'c', provider: 'other', build: '10.0.20348.1906', labels: { 'kubernetes.io/os': 'linux' } },
      ],
      runtimeClasses: [{ name: 'Windows', handler: 'runc' }],
    };
    const issues = issuesOf(() => clusterFactsObject(bad as unknown as ClusterFacts));
    expect(issues).toEqual([
      { path: 'spec.pools[0].provider', message: 'The provider "EKS" is not one the facts know.', fix: "Write 'eks'." },
      {
        path: 'spec.pools[0].release',
        message: "Windows release 'ltsc2022' is not a release name.",
        fix: "Write '2022'.",
      },
      {
        path: 'spec.pools[0].taints[0].effect',
        message: 'The taint effect "NO_SCHEDULE" is not a Kubernetes effect.',
        fix: "Write 'NoSchedule' (the Kubernetes spelling).",
      },
      {
        path: 'spec.pools[1].provider',
        message: 'The provider "azure" is not one the facts know.',
        fix: "Use one of eks, aks, gke, karpenter, other ('other' when none fits).",
      },
      {
        path: 'spec.pools[1].build',
        message: "The build '10.0.18362' is Windows Server 1903, which no supported Windows node runs.",
        fix: "Write the build the pool's nodes run: one of '10.0.17763' (2019), '10.0.20348' (2022), '10.0.26100' (2025).",
      },
      { path: 'spec.pools[2].taint', message: 'taint is not a field of spec.pools[2].', fix: 'Write taints.' },
      {
        path: 'spec.pools[2].build',
        message: "The build '10.0.26100' is Windows Server 2025, but release is '2022'.",
        fix: "Write build '10.0.20348', or release '2025' (or only one of them).",
      },
      {
        path: 'spec.pools[3].build',
        message:
          "The build '10.0.20348.1906' carries a revision; node.kubernetes.io/windows-build is major.minor.build.",
        fix: "Write '10.0.20348'.",
      },
      {
        path: 'spec.pools[3].labels["kubernetes.io/os"]',
        message: 'The label kubernetes.io/os=linux says the pool is not Windows.',
        fix: 'Remove it: the facts list Windows pools only, labelled kubernetes.io/os=windows.',
      },
      {
        path: 'spec.pools[2].name',
        message: "The pool name 'a' is used by the pool at index 0 already.",
        fix: 'Give each pool its own name.',
      },
      {
        path: 'spec.runtimeClasses[0].name',
        message: 'The RuntimeClass name "Windows" is not a lowercase DNS-1123 subdomain.',
        fix: "Write e.g. 'windows-2022'.",
      },
      {
        path: 'spec.runtimeClasses[0].handler',
        message: 'The handler "runc" does not run Windows containers (the facts list Windows RuntimeClasses only).',
        fix: "Write 'runhcs-wcow-process' (process isolation) or 'runhcs-wcow-hypervisor' (Hyper-V), or leave this RuntimeClass out.",
      },
    ]);
  });

  test('facts without pools are empty; a provider left out is other; a bad object name is refused', () => {
    expect(checkClusterFacts({})).toEqual({ pools: [], runtimeClasses: [] });
    expect(checkClusterFacts({ pools: [{ name: 'p' }] }).pools[0].provider).toBe('other');
    expect(issuesOf(() => checkClusterFacts({ pools: {} }))).toEqual([
      {
        path: 'spec.pools',
        message: 'pools {} is not a list of pools.',
        fix: "List each Windows node pool: [{ name: win2022, provider: eks, release: '2022', taints: [...] }].",
      },
    ]);
    expect(issuesOf(() => checkClusterFacts('pools'))[0].path).toBe('spec');
    expect(issuesOf(() => clusterFactsObject({ pools: [{ name: 'p', provider: 'eks' }] }, 'Bad_Name'))).toEqual([
      {
        path: 'name',
        message: 'The facts object name "Bad_Name" is not a lowercase DNS-1123 subdomain.',
        fix: "Write e.g. 'k8s-windows'.",
      },
    ]);
  });

  test('a build given only as the build label is read as the pool’s build', () => {
    const resolved = checkClusterFacts({
      pools: [{ name: 'p', provider: 'other', labels: { 'node.kubernetes.io/windows-build': '10.0.17763' } }],
    });
    expect(resolved.pools[0]).toMatchObject({ release: '2019', build: '10.0.17763' });
  });
});

describe('clusterFactsFromTargets', () => {
  test('reads release, labels and taints from the pools’ node targets and RuntimeClasses from named targets', () => {
    const eks = windowsNodeTarget({ release: '2022', labels: { team: 'web' } });
    const gke = windowsNodeTarget({
      release: '2025',
      taints: [{ key: 'node.kubernetes.io/os', value: 'windows', effect: 'NoSchedule' }],
    });
    const rc = {
      ...windowsNodeTarget({ release: '2022', isolation: 'hyperv' }),
      runtimeClassName: 'windows-2022-hyperv',
    };
    const facts = clusterFactsFromTargets(
      [
        { name: 'web', provider: 'eks', nodeTarget: eks },
        { name: 'gke-win', provider: 'gke', nodeTarget: gke },
        { name: 'plain', nodeTarget: windowsNodeTarget({ taints: [] }) },
      ],
      [rc],
    );
    expect(facts).toEqual({
      pools: [
        {
          name: 'web',
          provider: 'eks',
          release: '2022',
          build: '10.0.20348',
          labels: { team: 'web', 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        },
        {
          name: 'gke-win',
          provider: 'gke',
          release: '2025',
          build: '10.0.26100',
          labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
          taints: [{ key: 'node.kubernetes.io/os', value: 'windows', effect: 'NoSchedule' }],
        },
        { name: 'plain', provider: 'other', labels: { 'kubernetes.io/os': 'windows' }, taints: [] },
      ],
      runtimeClasses: [{ name: 'windows-2022-hyperv', handler: 'runhcs-wcow-hypervisor', build: '10.0.20348' }],
    });
  });

  test('refuses a RuntimeClass target that names no RuntimeClass, and duplicate pool names', () => {
    expect(issuesOf(() => clusterFactsFromTargets([], [windowsNodeTarget()]))[0].path).toBe('runtimeClasses[0]');
    const t = windowsNodeTarget({ release: '2022' });
    expect(
      issuesOf(() =>
        clusterFactsFromTargets([
          { name: 'a', nodeTarget: t },
          { name: 'a', nodeTarget: t },
        ]),
      ).map((i) => i.path),
    ).toEqual(['spec.pools[1].name']);
  });
});

describe('clusterFactsCrd', () => {
  const crd = clusterFactsCrd() as unknown as {
    metadata: { name: string };
    spec: { scope: string; group: string; names: Record<string, string>; versions: Record<string, unknown>[] };
  };

  test('is the cluster-scoped windowsclusterfacts.k8s-windows.io, v1alpha1 served and stored', () => {
    expect(crd.metadata.name).toBe(CLUSTER_FACTS_CRD_NAME);
    expect(crd.metadata.name).toBe('windowsclusterfacts.k8s-windows.io');
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.spec.group).toBe('k8s-windows.io');
    expect(crd.spec.names).toEqual({
      kind: 'WindowsClusterFacts',
      listKind: 'WindowsClusterFactsList',
      plural: 'windowsclusterfacts',
      singular: 'windowsclusterfacts',
    });
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
  });

  /** Structural: every node has a type, lists have items, map-list keys are required (apiextensions validation). */
  function structuralProblems(schema: Record<string, unknown>, at: string): string[] {
    const out: string[] = [];
    if (typeof schema.type !== 'string') out.push(`${at}: no type`);
    if (schema.type === 'array') {
      const items = schema.items as Record<string, unknown> | undefined;
      if (!items) out.push(`${at}: array without items`);
      else {
        if (schema['x-kubernetes-list-type'] === 'map') {
          for (const k of schema['x-kubernetes-list-map-keys'] as string[]) {
            if (!(items.required as string[]).includes(k)) out.push(`${at}: map key ${k} not required`);
          }
        }
        out.push(...structuralProblems(items, `${at}[]`));
      }
      if (typeof schema.maxItems !== 'number') out.push(`${at}: unbounded list`);
    }
    if (
      schema.type === 'string' &&
      typeof schema.maxLength !== 'number' &&
      !Array.isArray(schema.enum) &&
      at.includes('spec')
    ) {
      out.push(`${at}: unbounded string`);
    }
    for (const [k, v] of Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {})) {
      out.push(...structuralProblems(v, `${at}.${k}`));
    }
    if (typeof schema.additionalProperties === 'object') {
      out.push(...structuralProblems(schema.additionalProperties as Record<string, unknown>, `${at}{}`));
    }
    return out;
  }

  test('has a structural, bounded schema', () => {
    const schema = (crd.spec.versions[0].schema as { openAPIV3Schema: Record<string, unknown> }).openAPIV3Schema;
    expect(structuralProblems(schema, '')).toEqual([]);
  });

  test('the facts object of every fixture obeys the schema’s enums and patterns', () => {
    const schema = (crd.spec.versions[0].schema as { openAPIV3Schema: Record<string, unknown> }).openAPIV3Schema;
    const spec = (
      (schema.properties as Record<string, Record<string, unknown>>).spec.properties as Record<
        string,
        Record<string, unknown>
      >
    ).pools.items as { properties: Record<string, { enum?: string[]; pattern?: string }> };
    const obj = clusterFactsObject({ pools: [{ name: 'p', provider: 'karpenter', release: '2025' }] }) as unknown as {
      spec: { pools: Record<string, string>[] };
    };
    const pool = obj.spec.pools[0];
    expect(spec.properties.provider.enum).toContain(pool.provider);
    expect(spec.properties.release.enum).toContain(pool.release);
    expect(new RegExp(spec.properties.build.pattern ?? '').test(pool.build)).toBe(true);
  });
});
