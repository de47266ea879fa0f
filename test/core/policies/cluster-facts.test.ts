import { celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { WindowsValidationError } from '../../../lib/core/errors';
import { generatePolicies } from '../../../lib/core/policies';
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
import { evaluateMutations } from '../../helpers/map-eval';
import { toCelInput } from '../../helpers/vap-eval';

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

describe('keys and values, as the API server checks a node’s', () => {
  const KEY_FIX =
    "Write the key as the nodes carry it ([prefix/]name: the name 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit; the prefix a lowercase DNS subdomain), e.g.";
  const VALUE_FIX =
    "Write the value as the nodes carry it: at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (or empty), e.g. 'windows'.";

  test('keys with a line break, a quote, a space or too long, values too long, a bad effect: every problem at once', () => {
    const facts = {
      pools: [
        {
          name: 'win',
          release: '2022',
          labels: {
            'team\n': 'web',
            '"pool"': 'win',
            'my label': 'x',
            ['a'.repeat(64)]: 'b',
            'Example.com/x': 'v',
            'a/b/c': 'v',
            tier: 'front end',
            size: 'b'.repeat(64),
          },
        },
        {
          name: 'gpu',
          taints: [
            { key: 'os\n', value: 'win"dows', effect: 'NoSchedule' },
            { key: 'dedicated', value: 'gpu', effect: 'Never' },
            { key: `${'x'.repeat(254)}/y`, effect: 'NoExecute' },
            { value: 'x', effect: 'NoSchedule' },
          ],
        },
      ],
    };
    expect(issuesOf(() => checkClusterFacts(facts))).toEqual([
      {
        path: 'spec.pools[0].labels["team\\n"]',
        message:
          "The label key \"team\\n\" is not a qualified name: it holds \"\\n\"; only letters, digits, '-', '_' and '.' may be used.",
        fix: "Write 'team'.",
      },
      {
        path: 'spec.pools[0].labels["\\"pool\\""]',
        message:
          'The label key "\\"pool\\"" is not a qualified name: it holds "\\""; only letters, digits, \'-\', \'_\' and \'.\' may be used.',
        fix: "Write 'pool'.",
      },
      {
        path: 'spec.pools[0].labels["my label"]',
        message:
          "The label key \"my label\" is not a qualified name: it holds \" \"; only letters, digits, '-', '_' and '.' may be used.",
        fix: `${KEY_FIX} 'agentpool' or 'example.com/pool'.`,
      },
      {
        path: `spec.pools[0].labels["${'a'.repeat(64)}"]`,
        message: `The label key "${'a'.repeat(64)}" is not a qualified name: it is 64 characters long; at most 63.`,
        fix: `${KEY_FIX} 'agentpool' or 'example.com/pool'.`,
      },
      {
        path: 'spec.pools[0].labels["Example.com/x"]',
        message:
          "The label key \"Example.com/x\" is not a qualified name: its prefix 'Example.com' is not a lowercase DNS-1123 subdomain (a-z, 0-9, '-' and '.', at most 253 characters).",
        fix: `${KEY_FIX} 'agentpool' or 'example.com/pool'.`,
      },
      {
        path: 'spec.pools[0].labels["a/b/c"]',
        message: 'The label key "a/b/c" is not a qualified name: it has more than one \'/\'.',
        fix: `${KEY_FIX} 'agentpool' or 'example.com/pool'.`,
      },
      {
        path: 'spec.pools[0].labels["tier"]',
        message:
          "The label value \"front end\" is not a label value: it holds \" \"; only letters, digits, '-', '_' and '.' may be used.",
        fix: VALUE_FIX,
      },
      {
        path: 'spec.pools[0].labels["size"]',
        message: `The label value "${'b'.repeat(64)}" is not a label value: it is 64 characters long; at most 63.`,
        fix: VALUE_FIX,
      },
      {
        path: 'spec.pools[1].taints[0].key',
        message:
          "The taint key \"os\\n\" is not a qualified name: it holds \"\\n\"; only letters, digits, '-', '_' and '.' may be used.",
        fix: "Write 'os'.",
      },
      {
        path: 'spec.pools[1].taints[0].value',
        message:
          'The taint value "win\\"dows" is not a label value: it holds "\\""; only letters, digits, \'-\', \'_\' and \'.\' may be used.',
        fix: VALUE_FIX,
      },
      {
        path: 'spec.pools[1].taints[1].effect',
        message: 'The taint effect "Never" is not a Kubernetes effect.',
        fix: 'Use one of NoSchedule, PreferNoSchedule, NoExecute.',
      },
      {
        path: 'spec.pools[1].taints[2].key',
        message: `The taint key "${'x'.repeat(64)}"… (256 characters) is not a qualified name: its prefix is 254 characters long; at most 253.`,
        fix: `${KEY_FIX} 'os' or 'example.com/dedicated'.`,
      },
      {
        path: 'spec.pools[1].taints[3].key',
        message: 'The taint has no key.',
        fix: "Write the taint's key, e.g. 'os'.",
      },
    ]);
  });

  test('prefixed keys, empty values and every effect pass', () => {
    const pool = {
      name: 'p',
      labels: { 'example.com/pool': '', 'node.kubernetes.io/instance-type': 'm5.large', A_b: 'x-Y_z.1' },
      taints: [
        { key: 'node.kubernetes.io/os', value: 'windows', effect: 'NoSchedule' },
        { key: 'example.com/spot', effect: 'PreferNoSchedule' },
        { key: `${'a'.repeat(253)}/${'b'.repeat(63)}`, value: '', effect: 'NoExecute' },
      ],
    };
    expect(checkClusterFacts({ pools: [pool] }).pools[0].taints).toEqual(pool.taints);
  });

  test('a 60 MB value, key or build is refused by its length, in a message of a few lines', () => {
    const big = 'a'.repeat(60_000_000);
    const shown = `"${'a'.repeat(64)}"… (60000000 characters)`;
    const issues = issuesOf(() =>
      checkClusterFacts({
        pools: [
          {
            name: 'p',
            release: big,
            build: big,
            labels: { team: big, [big]: 'x' },
            taints: [{ key: big, effect: big }],
          },
        ],
      }),
    );
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ['spec.pools[0].release', `Windows release ${shown} is not supported.`],
      [
        'spec.pools[0].build',
        `The build ${shown} is not the build of a Windows Server release (node.kubernetes.io/windows-build).`,
      ],
      [
        'spec.pools[0].labels["team"]',
        `The label value ${shown} is not a label value: it is 60000000 characters long; at most 63.`,
      ],
      [
        `spec.pools[0].labels[${shown}]`,
        `The label key ${shown} is not a qualified name: it is 60000000 characters long; a key has at most 317 (a 253-character prefix, '/', a 63-character name).`,
      ],
      [
        'spec.pools[0].taints[0].key',
        `The taint key ${shown} is not a qualified name: it is 60000000 characters long; a key has at most 317 (a 253-character prefix, '/', a 63-character name).`,
      ],
      ['spec.pools[0].taints[0].effect', `The taint effect ${shown} is not a Kubernetes effect.`],
    ]);
  });

  test('control and invisible characters are escaped in messages', () => {
    expect(issuesOf(() => checkClusterFacts({ pools: [{ name: 'p', labels: { team: 'a\u202eb' } }] }))[0].message).toBe(
      "The label value \"a\\u202eb\" is not a label value: it holds \"\\u202e\"; only letters, digits, '-', '_' and '.' may be used.",
    );
  });
});

describe('a pool’s release without its build', () => {
  const runtimeClasses = [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }];
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'web', image: 'example.com/web:1.0' }],
    },
  };

  test('gives the policy set of release and build: the facts object has the build, the RuntimeClass is set', () => {
    const releaseOnly = generatePolicies({
      mutating: true,
      clusterFacts: { pools: [{ name: 'win2022', release: '2022' }], runtimeClasses },
    }).objects;
    const withBuild = generatePolicies({
      mutating: true,
      clusterFacts: { pools: [{ name: 'win2022', release: '2022', build: '10.0.20348' }], runtimeClasses },
    }).objects;
    expect(releaseOnly).toEqual(withBuild);
    const facts = releaseOnly.find((o) => o.kind === 'WindowsClusterFacts')!;
    expect((facts.spec as { pools: unknown[] }).pools).toEqual([
      { name: 'win2022', release: '2022', build: '10.0.20348' },
    ]);
    const mutated = evaluateMutations(releaseOnly, pod, { params: [facts] });
    expect(mutated.errors).toEqual([]);
    expect((mutated.object.spec as { runtimeClassName?: string }).runtimeClassName).toBe('windows-2022');
  });

  test('a release and a build that disagree are refused', () => {
    expect(issuesOf(() => checkClusterFacts({ pools: [{ name: 'p', release: '2019', build: '10.0.20348' }] }))).toEqual(
      [
        {
          path: 'spec.pools[0].build',
          message: "The build '10.0.20348' is Windows Server 2022, but release is '2019'.",
          fix: "Write build '10.0.17763', or release '2022' (or only one of them).",
        },
      ],
    );
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

  /** Evaluates a CRD validation rule on `self` (@bufbuild/cel; the rules were checked on apiextensions-apiserver too). */
  const cel = celEnv({ funcs: strings });
  function evaluate(expression: string, self: unknown): unknown {
    const result = plan(cel, parse(expression))({ self: toCelInput(self as never) });
    if (isCelError(result)) throw new Error(result.message);
    return result;
  }
  type Rule = { rule: string; message: string; messageExpression?: string; fieldPath?: string };
  const schemaOf = () => (crd.spec.versions[0].schema as { openAPIV3Schema: Record<string, unknown> }).openAPIV3Schema;
  const poolSchema = () =>
    (schemaOf().properties as Record<string, { properties: Record<string, { items: Record<string, unknown> }> }>).spec
      .properties.pools.items as {
      properties: Record<string, Record<string, unknown>>;
      'x-kubernetes-validations': Rule[];
    };

  test('refuses a pool whose release comes without its build, or with another, naming the build to write', () => {
    const [rule] = poolSchema()['x-kubernetes-validations'];
    expect(rule.fieldPath).toBe('.build');
    expect(evaluate(rule.rule, { name: 'win', build: '10.0.20348' })).toBe(true);
    expect(evaluate(rule.rule, { name: 'win', release: '2022', build: '10.0.20348' })).toBe(true);
    expect(evaluate(rule.rule, { name: 'win', release: '2022' })).toBe(false);
    expect(evaluate(rule.rule, { name: 'win', release: '2019', build: '10.0.20348' })).toBe(false);
    expect(evaluate(rule.messageExpression!, { name: 'win', release: '2022' })).toBe(
      "pool win has release '2022' but no build: write build: '10.0.20348' (the policies compare builds)",
    );
    expect(evaluate(rule.messageExpression!, { name: 'win', release: '2019', build: '10.0.20348' })).toBe(
      "pool win has release '2019' but build '10.0.20348', which is not its build: write build: '10.0.17763' (the policies compare builds)",
    );
    // What clusterFactsObject writes passes it.
    const obj = clusterFactsObject({ pools: [{ name: 'win', release: '2025' }] }) as unknown as {
      spec: { pools: unknown[] };
    };
    expect(evaluate(rule.rule, obj.spec.pools[0])).toBe(true);
  });

  test('refuses the label and taint keys and values the API server refuses on a node', () => {
    const pool = poolSchema().properties;
    const taint = pool.taints.items as {
      properties: Record<string, { pattern: string }>;
      'x-kubernetes-validations': Rule[];
    };
    const key = new RegExp(taint.properties.key.pattern);
    const value = new RegExp(taint.properties.value.pattern);
    expect(
      ['os', 'node.kubernetes.io/os', 'example.com/a_b.c-d', `${'a'.repeat(253)}/${'b'.repeat(63)}`].filter(
        (k) => !key.test(k),
      ),
    ).toEqual([]);
    expect(
      ['os\n', '"os"', 'my key', 'Example.com/x', 'a/b/c', '/x', 'x/', 'a'.repeat(64), '-os'].filter((k) =>
        key.test(k),
      ),
    ).toEqual([]);
    expect(['', 'windows', 'a-B_c.1'].filter((v) => !value.test(v))).toEqual([]);
    expect(['win"dows', 'front end', '-a', 'a\n'].filter((v) => value.test(v))).toEqual([]);
    const [prefix] = taint['x-kubernetes-validations'];
    expect(evaluate(prefix.rule, { key: `${'a'.repeat(253)}/b` })).toBe(true);
    expect(evaluate(prefix.rule, { key: `${'a'.repeat(254)}/b` })).toBe(false);
    const labels = pool.labels as { additionalProperties: { pattern: string }; 'x-kubernetes-validations': Rule[] };
    expect(labels.additionalProperties.pattern).toBe(taint.properties.value.pattern);
    const [labelKeys] = labels['x-kubernetes-validations'];
    expect(evaluate(labelKeys.rule, { 'kubernetes.io/os': 'windows', 'example.com/pool': 'a' })).toBe(true);
    for (const bad of ['team\n', '"os"', 'a b', `${'a'.repeat(254)}/b`]) {
      expect([bad, evaluate(labelKeys.rule, { team: 'web', [bad]: 'x' })]).toEqual([bad, false]);
    }
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
