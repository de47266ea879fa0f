/**
 * Every component, every input, every wrong type (issue 24): null, numbers for strings, strings for objects, lists,
 * Outputs of garbage, nested wrong types. Each bad input ends in exactly one `pulumi.InputPropertiesError` naming
 * the property it was given for — never a TypeError from deep inside, never a provider's plain Error — or, where the
 * value is acceptable after all (an Output of a string for a string input), the program runs. A plain value of
 * another JavaScript type than the input takes is always refused. Runs each program as `pulumi up` would
 * (`runProgram`), so refusals raised inside an `apply` count too.
 */
import fc from 'fast-check';
import { propertyParameters } from '../helpers/property';
import * as pulumi from '@pulumi/pulumi';
import { PulumiProgramError, runProgram } from 'k8s-windows/pulumi/testing';
import { windowsNodeTarget } from 'k8s-windows';
import * as k8s from 'k8s-windows/pulumi';
import * as eks from 'k8s-windows/pulumi/eks';
import * as aks from 'k8s-windows/pulumi/aks';
import * as gke from 'k8s-windows/pulumi/gke';

type Args = Record<string, unknown>;

interface Component {
  readonly name: string;
  /** Valid args: the program runs without an error. Built inside the program (Outputs need the mocked runtime). */
  readonly base: () => Args;
  readonly build: (args: Args) => unknown;
  /** Paths not probed. @default - none */
  readonly skip?: (path: string) => boolean;
  /** Optional inputs the base leaves out, probed too. */
  readonly probe?: readonly string[];
}

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const DOMAIN = {
  dnsName: 'contoso.com',
  netBiosName: 'CONTOSO',
  sid: 'S-1-5-21-1111111111-2222222222-3333333333',
  guid: '244818ae-87ca-4fcd-92ec-e79e5252348a',
};
const LINUX_ROLE = {
  rolearn: 'arn:aws:iam::123456789012:role/linux',
  username: 'system:node:{{EC2PrivateDNSName}}',
  groups: ['system:bootstrappers', 'system:nodes'],
};

async function provider(): Promise<pulumi.ProviderResource> {
  const { Provider } = await import('@pulumi/kubernetes/provider');
  return new Provider('k8s', {});
}

const COMPONENTS: readonly Component[] = [
  {
    name: 'WindowsRuntimeClass',
    base: () => ({ name: 'win', release: '2022', isolation: 'process', labels: { a: 'b' } }),
    build: (a) => new k8s.WindowsRuntimeClass('rc', a as never),
    probe: ['target', 'overhead'],
  },
  {
    name: 'WindowsAdmissionPolicies',
    base: () => ({
      mode: 'warn',
      mutating: true,
      mutatingVersion: 'v1',
      cloud: 'eks',
      settings: { 'windows-os-unset': 'warning' },
      systemNamespaces: ['kube-system'],
      exclude: [{ namespace: 'legacy', name: 'web', kind: 'Deployment' }],
      namePrefix: 'acme',
      clusterFactsName: 'prod',
      pools: [{ name: 'win', provider: 'eks', nodeTarget: windowsNodeTarget({ release: '2022' }) }],
    }),
    build: (a) => new k8s.WindowsAdmissionPolicies('policies', a as never),
    probe: ['runtimeClasses'],
  },
  {
    name: 'GmsaCredentialSpec',
    base: () => ({ name: 'webapp01', domain: { ...DOMAIN }, accounts: [{ name: 'WebApp01' }], labels: { a: 'b' } }),
    build: (a) => new k8s.GmsaCredentialSpec('gmsa', a as never),
    probe: ['hostAccountConfig'],
  },
  {
    name: 'WindowsDeployment',
    base: () => ({
      metadata: { namespace: 'apps' },
      podSpec: { containers: [{ name: 'iis', image: IIS }] },
      windows: { release: '2022' },
      replicas: 2,
    }),
    build: (a) => new k8s.WindowsDeployment('web', a as never),
    probe: ['spec', 'windows.gmsa', 'windows.hostProcess', 'windows.runAsUserName', 'windows.securityProfile'],
  },
  {
    name: 'WindowsStatefulSet (target, gmsa)',
    base: () => ({
      spec: {
        serviceName: 'web',
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'iis', image: IIS }] } },
      },
      windows: {
        target: windowsNodeTarget({ release: '2022', labels: { 'example.com/pool': 'win' } }),
        gmsa: 'webapp01',
      },
    }),
    build: (a) => new k8s.WindowsStatefulSet('web', a as never),
    // The rest of spec is the Kubernetes provider's to check: only what the component reads is probed.
    skip: (path) => path.startsWith('spec.') && !path.startsWith('spec.template'),
  },
  {
    name: 'eks.WindowsNodePool',
    base: () => ({
      clusterName: 'prod',
      subnetIds: ['subnet-a'],
      labels: { 'example.com/pool': 'win' },
      scaling: { minSize: 1, maxSize: 3 },
      instanceTypes: ['m5.xlarge'],
    }),
    build: (a) => new eks.WindowsNodePool('win', a as never),
    probe: ['release', 'kubernetesVersion', 'taints', 'diskSize', 'nodeRoleArn', 'tags', 'capacityType', 'amiVariant'],
  },
  {
    name: 'SelfManagedWindowsNodePool',
    base: () => ({
      clusterName: 'prod',
      subnetIds: ['subnet-a'],
      amiId: 'ami-0123456789abcdef0',
      securityGroupIds: ['sg-cluster'],
      labels: { 'example.com/pool': 'win' },
      scaling: { minSize: 1, maxSize: 3 },
      instanceType: 'm5.xlarge',
    }),
    build: (a) => new eks.SelfManagedWindowsNodePool('win', a as never),
    probe: [
      'release',
      'kubernetesVersion',
      'taints',
      'diskSize',
      'tags',
      'amiVariant',
      'authenticationMode',
      'awsAuth',
      'clusterEndpoint',
      'clusterCertificateAuthority',
      'dnsClusterIp',
      'nodeRole',
      'systemReservedMemory',
      'kubeletExtraArgs',
      'createAccessEntry',
      'keyName',
      'partition',
    ],
  },
  {
    name: 'SelfManagedWindowsNodePool (CONFIG_MAP)',
    base: () => ({
      clusterName: 'prod',
      subnetIds: ['subnet-a'],
      amiId: 'ami-0123456789abcdef0',
      securityGroupIds: ['sg-cluster'],
      authenticationMode: 'CONFIG_MAP',
      awsAuth: { kubernetesProvider: undefined, otherMapRoles: [{ ...LINUX_ROLE }] },
    }),
    build: (a) => new eks.SelfManagedWindowsNodePool('win', a as never),
  },
  {
    name: 'WindowsKarpenterNodePool',
    base: () => ({
      clusterName: 'prod',
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
      securityGroupSelectorTerms: [{ id: 'sg-0cluster' }],
      labels: { 'example.com/pool': 'win' },
      tags: { team: 'web' },
    }),
    build: (a) => new eks.WindowsKarpenterNodePool('win', a as never),
    probe: ['name', 'release', 'kubernetesVersion', 'taints', 'nodeRole', 'createAccessEntry', 'partition', 'diskSize'],
  },
  {
    name: 'WindowsClusterPrerequisites',
    base: () => ({
      clusterName: 'prod',
      clusterRoleName: 'prod-cluster-role',
      windowsNodeRoleArns: ['arn:aws:iam::123456789012:role/win'],
      vpcCniAddon: { addonVersion: 'v1.19.2-eksbuild.1', windowsPrefixDelegation: true },
    }),
    build: (a) => new eks.WindowsClusterPrerequisites('pre', a as never),
    probe: ['linuxNodeGroup', 'forceConfigMapPatch', 'partition', 'kubernetesProvider'],
  },
  {
    name: 'aks.WindowsNodePool',
    base: () => ({
      resourceGroupName: 'rg',
      resourceName: 'aks1',
      agentPoolName: 'win1',
      vmSize: 'Standard_D4s_v5',
      labels: { 'example.com/pool': 'win' },
      scaling: { minSize: 1, maxSize: 3 },
    }),
    build: (a) => new aks.WindowsNodePool('win', a as never),
    probe: ['release', 'kubernetesVersion', 'mode', 'taints', 'autoscaling', 'clusterArgs', 'agentPoolArgs'],
  },
  {
    name: 'gke.WindowsNodePool',
    base: () => ({
      cluster: { name: 'gke1', location: 'europe-west1' },
      machineType: 'n2-standard-4',
      labels: { 'example.com/pool': 'win' },
      scaling: { minSize: 1, maxSize: 3 },
    }),
    build: (a) => new gke.WindowsNodePool('win', a as never),
    probe: ['release', 'kubernetesVersion', 'taints', 'autoscaling', 'clusterArgs', 'nodeConfig', 'nodePoolArgs'],
  },
];

/** What the providers would compute: role names and ARNs, the node group's Auto Scaling group. */
function computed(type: string, name: string): Record<string, unknown> {
  if (type === 'aws:iam/role:Role') return { arn: `arn:aws:iam::123456789012:role/${name}`, name };
  if (type === 'aws:iam/instanceProfile:InstanceProfile') return { arn: `arn:aws:iam::123:instance-profile/${name}` };
  if (type === 'aws:ec2/launchTemplate:LaunchTemplate') return { latestVersion: 1 };
  if (type === 'aws:eks/nodeGroup:NodeGroup') return { resources: [{ autoscalingGroups: [{ name: `eks-${name}` }] }] };
  return {};
}

function call(token: string, inputs: Record<string, unknown>): Record<string, unknown> {
  return token === 'aws:ssm/getParameter:getParameter' ? { ...inputs, value: 'ami-0123', type: 'String' } : inputs;
}

/** A wrong value, made inside the program. */
interface Garbage {
  readonly label: string;
  readonly make: () => unknown;
  /** A plain value: compared by JavaScript type with the input it replaces. */
  readonly plain: boolean;
}

const GARBAGE: readonly Garbage[] = [
  { label: 'null', make: () => null, plain: false },
  { label: '42', make: () => 42, plain: true },
  { label: "'garbage'", make: () => 'garbage', plain: true },
  { label: 'true', make: () => true, plain: true },
  { label: '[]', make: () => [], plain: true },
  { label: "['garbage']", make: () => ['garbage'], plain: true },
  { label: '{}', make: () => ({}), plain: false },
  { label: '{ garbage: 1 }', make: () => ({ garbage: 1 }), plain: true },
  { label: "output('garbage')", make: () => pulumi.output('garbage'), plain: false },
  { label: 'output(42)', make: () => pulumi.output(42), plain: false },
  { label: 'output({ garbage: 1 })', make: () => pulumi.output({ garbage: 1 }), plain: false },
  { label: 'output([42])', make: () => pulumi.output([42]), plain: false },
];

type Step = string | number;

/** Every path in a value (objects and lists, to depth 3), as steps. */
function pathsOf(value: unknown, at: Step[] = [], depth = 0): Step[][] {
  if (depth >= 3 || typeof value !== 'object' || value === null || pulumi.Output.isInstance(value)) return [];
  const entries: [Step, unknown][] = Array.isArray(value)
    ? value.map((v, i): [Step, unknown] => [i, v])
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k], depth + 1)]);
}

function render(path: readonly Step[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function get(value: unknown, path: readonly Step[]): unknown {
  return path.reduce<unknown>((v, s) => (v as Record<Step, unknown> | undefined)?.[s], value);
}

function set(value: Args, path: readonly Step[], replacement: unknown): void {
  const parent = get(value, path.slice(0, -1)) as Record<Step, unknown>;
  parent[path[path.length - 1]] = replacement;
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** How a program ended: ran, or the errors it raised. */
async function outcome(component: Component, path: readonly Step[], garbage: Garbage | undefined) {
  let base: Args = {};
  const run = runProgram(
    async () => {
      base = component.base();
      if (component.name.includes('CONFIG_MAP')) (base.awsAuth as Args).kubernetesProvider = await provider();
      if (garbage === undefined) return component.build(base);
      const args = structuredCloneArgs(base);
      set(args, path, garbage.make());
      component.build(args);
    },
    { computed, call },
  );
  const result = await run.then(
    () => ({ ok: true as const }),
    (e: unknown) => ({ ok: false as const, errors: e instanceof PulumiProgramError ? e.errors : [e] }),
  );
  return { result, original: garbage === undefined ? undefined : get(base, path) };
}

/** A deep copy of plain args (Outputs and resources kept as they are). */
function structuredCloneArgs(value: Args): Args {
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v !== 'object' || v === null || pulumi.Output.isInstance(v) || pulumi.Resource.isInstance(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
  };
  return copy(value) as Args;
}

/** What went wrong with one case, or undefined when it behaved. */
function judge(
  mutated: string,
  garbage: Garbage,
  original: unknown,
  result: { ok: true } | { ok: false; errors: readonly unknown[] },
): string | undefined {
  if (result.ok) {
    const wrongKind = garbage.plain && original !== undefined && kind(original) !== kind(garbage.make());
    return wrongKind ? 'accepted a plain value of the wrong type' : undefined;
  }
  const distinct = result.errors;
  if (distinct.length !== 1) return `${distinct.length} errors: ${distinct.map(String).join(' | ')}`;
  const error = distinct[0];
  if (!pulumi.InputPropertiesError.isInstance(error)) {
    return `${error instanceof Error ? error.constructor.name : typeof error}: ${String(error instanceof Error ? error.message : error).slice(0, 200)}`;
  }
  // `labels["example.com/pool"]` is `labels.example.com/pool` here.
  const names = error.errors.map((e) => e.propertyPath.replace(/\["([^"]*)"\]/g, '.$1'));
  const root = /^[^.[]*/.exec(mutated)?.[0] ?? mutated;
  // An arg that needs another (an endpoint without its CA) may be named in the other's reason.
  if (error.errors.some((e) => e.reason.includes(root))) return undefined;
  const named = names.some(
    (p) =>
      p === mutated ||
      mutated.startsWith(`${p}.`) ||
      mutated.startsWith(`${p}[`) ||
      p.startsWith(`${mutated}.`) ||
      p.startsWith(`${mutated}[`) ||
      p === 'args',
  );
  return named ? undefined : `InputPropertiesError naming ${names.join(', ')}`;
}

describe.each(COMPONENTS.map((c) => [c.name, c] as const))('%s', (_name, component) => {
  test('the base args run', async () => {
    expect((await outcome(component, [], undefined)).result).toEqual({ ok: true });
  });

  test('every wrong type at every input: one InputPropertiesError naming it, or accepted when it fits', async () => {
    const failures: string[] = [];
    const sample = component.base();
    const paths = [...pathsOf(sample), ...(component.probe ?? []).map((p) => p.split('.'))].filter(
      (p) =>
        !(component.name.includes('CONFIG_MAP') && render(p).startsWith('awsAuth.kubernetesProvider')) &&
        !(component.skip?.(render(p)) ?? false),
    );
    for (const path of paths) {
      for (const garbage of GARBAGE) {
        const { result, original } = await outcome(component, path, garbage);
        const problem = judge(render(path), garbage, original, result);
        if (problem !== undefined) failures.push(`${render(path)} = ${garbage.label}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

test('workload windows: an Output (of garbage or not) is refused, naming windows: the block is plain', async () => {
  for (const value of ['garbage', 42, ['x'], null, { release: '2022' }]) {
    const e = await runProgram(() => {
      new k8s.WindowsDeployment('web', {
        podSpec: { containers: [{ name: 'iis', image: IIS }] },
        windows: pulumi.output(value) as never,
      });
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(PulumiProgramError);
    const errors = (e as PulumiProgramError).errors;
    expect(errors).toHaveLength(1);
    expect(pulumi.InputPropertiesError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as pulumi.InputPropertiesError).errors.map((x) => x.propertyPath)).toEqual(['windows']);
  }
});

test('nested wrong types anywhere in a node pool: one InputPropertiesError, never a TypeError', async () => {
  const pools = COMPONENTS.filter((c) => c.name === 'SelfManagedWindowsNodePool' || c.name === 'aks.WindowsNodePool');
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...pools),
      fc.constantFrom('labels', 'scaling', 'taints', 'kubeletExtraArgs', 'tags', 'agentPoolArgs'),
      fc.anything({ maxDepth: 2, withNullPrototype: false }),
      async (component, key, value) => {
        const e = await runProgram(() => component.build({ ...component.base(), [key]: value })).then(
          () => undefined,
          (err: unknown) => err,
        );
        if (e === undefined) return;
        expect(e).toBeInstanceOf(PulumiProgramError);
        const errors = (e as PulumiProgramError).errors;
        expect(errors).toHaveLength(1);
        expect(pulumi.InputPropertiesError.isInstance(errors[0])).toBe(true);
      },
    ),
    propertyParameters(60),
  );
}, 120_000);
