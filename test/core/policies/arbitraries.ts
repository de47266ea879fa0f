/**
 * Generated pods, workloads and RuntimeClasses for the differential tests (issue 26 §4), built from the pieces the
 * scheduling and image rules read: spec.os, OS, build and pool selectors, required affinity on the OS and the build,
 * tolerations, Windows, Linux and build-tagged images, HostProcess, a RuntimeClass name and suppression annotations.
 * differential.property.test.ts holds the @bufbuild/cel policies to the rules on them; the API server agreement test
 * (test/policies/apiserver-agreement.e2e.test.ts) sends a fixed sample of them to the Go judge.
 */
import fc from 'fast-check';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** `arb` in `present` cases out of `present + absent` (absent otherwise). */
const sometimes = <T>(arb: fc.Arbitrary<T>, present: number, absent: number) =>
  fc.oneof({ arbitrary: arb, weight: present }, { arbitrary: fc.constant(undefined), weight: absent });
/** A record without the keys whose value came out undefined. */
const compact = <T extends Record<string, unknown>>(arb: fc.Arbitrary<T>) =>
  arb.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
/** Mostly the first value. */
const mostly = <T>(first: T, ...rest: T[]) =>
  fc.oneof({ arbitrary: fc.constant(first), weight: rest.length * 2 }, fc.constantFrom(...rest));

const IMAGES = [
  'mcr.microsoft.com/windows/nanoserver:ltsc2022',
  'mcr.microsoft.com/windows/servercore:ltsc2019',
  'mcr.microsoft.com/windows/servercore:ltsc2025',
  'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  'mcr.microsoft.com/dotnet/framework/aspnet:4.8',
  'mcr.microsoft.com/powershell:lts-nanoserver-1809',
  'fluent/fluent-bit:3.1.4-windows-2022',
  'acme/app:10.0.17763.1',
  'acme/app:10.0.14393.0',
  'acme/app:1809',
  'acme/app:v1-1809',
  'acme/etl:2004',
  'acme/agent:1.0-win2019',
  'acme/agent:20h2-nanoserver',
  'microsoft/iis',
  'docker.io/microsoft/iis:latest',
  'quay.io/microsoft/iis',
  'registry.k8s.io/pause:3.9',
  'nginx:1.25',
  'localhost:5000/windows/app:ltsc2022',
  'ghcr.io/acme/servercore-tools:ltsc2022@sha256:' + 'a'.repeat(64),
  'Windows/App:ltsc2022',
  'acme/app:ltsc2022@sha256:abc',
  'acme/app:LTSC2019',
];

const OS_VALUES = ['windows', 'linux', 'Windows', 'foo', ''];
const BUILDS = ['10.0.17763', '10.0.20348', '10.0.26100', '10.0.20348.2655', '10.0.14393', '10.0.19041', '10.0', 'x'];
const TAINT_KEYS = ['os', 'node.kubernetes.io/os', 'dedicated', ''];

const container = compact(
  fc.record({
    name: fc.constantFrom('a', 'b', 'c'),
    image: fc.constantFrom(...IMAGES),
    securityContext: sometimes(fc.record({ windowsOptions: fc.record({ hostProcess: fc.boolean() }) }), 1, 3),
  }),
);

const expression = fc.oneof(
  fc.record({
    key: fc.constantFrom('kubernetes.io/os', 'beta.kubernetes.io/os'),
    operator: fc.constantFrom('In', 'NotIn', 'DoesNotExist', 'Exists'),
    values: fc.subarray(['windows', 'linux', 'foo', '']),
  }),
  fc.record({
    key: fc.constant('node.kubernetes.io/windows-build'),
    operator: fc.constant('In'),
    values: fc.subarray(BUILDS.slice(0, 6), { maxLength: 2 }),
  }),
  fc.record({ key: fc.constantFrom('agentpool', 'zone'), operator: fc.constant('In'), values: fc.constant(['a']) }),
);

const affinity = fc.record({
  nodeAffinity: fc.record({
    requiredDuringSchedulingIgnoredDuringExecution: fc.record({
      nodeSelectorTerms: fc.array(fc.record({ matchExpressions: fc.array(expression, { maxLength: 3 }) }), {
        maxLength: 2,
      }),
    }),
  }),
});

const toleration = fc.record(
  {
    key: fc.constantFrom(...TAINT_KEYS),
    operator: fc.constantFrom('Equal', 'Exists'),
    value: fc.constantFrom('windows', 'Windows', 'win'),
    effect: fc.constantFrom('NoSchedule', 'NoExecute', ''),
  },
  { requiredKeys: [] },
);

const nodeSelector = compact(
  fc.record({
    'kubernetes.io/os': sometimes(mostly('windows', 'linux', 'Windows', 'foo', ''), 1, 1),
    'beta.kubernetes.io/os': sometimes(fc.constantFrom(...OS_VALUES), 1, 5),
    'kubernetes.azure.com/os-sku': sometimes(
      fc.constantFrom('Windows2019', 'Windows2022', 'Ubuntu', 'windows2025'),
      1,
      5,
    ),
    'node.kubernetes.io/windows-build': sometimes(fc.constantFrom(...BUILDS), 1, 1),
    agentpool: sometimes(fc.constant('npwin'), 1, 3),
  }),
);

const annotations = fc.record(
  {
    'suppress.k8s-windows.io/windows-toleration-missing': fc.constant('tainted elsewhere'),
    'suppress.k8s-windows.io/image-build-mismatch': fc.constant(''),
    'k8s-windows.io/waive': fc.constantFrom('windows-os-unset', ' windows-node-selector-missing , x', '*'),
  },
  { requiredKeys: [] },
);

const podSpec = compact(
  fc.record({
    os: sometimes(fc.record({ name: mostly('windows', 'linux', 'Windows', '') }, { requiredKeys: [] }), 1, 1),
    nodeSelector: sometimes(nodeSelector, 3, 1),
    affinity: sometimes(affinity, 1, 3),
    tolerations: sometimes(fc.array(toleration, { minLength: 1, maxLength: 2 }), 1, 1),
    securityContext: sometimes(fc.record({ windowsOptions: fc.record({ hostProcess: fc.boolean() }) }), 1, 5),
    hostNetwork: sometimes(fc.constant(true), 1, 7),
    runtimeClassName: sometimes(fc.constantFrom('windows-2022', 'runc'), 1, 5),
    containers: fc.array(container, { minLength: 1, maxLength: 3 }),
    initContainers: sometimes(fc.array(container, { maxLength: 1 }), 1, 3),
  }),
);

/** A Pod, Deployment or CronJob whose pod spec is generated. */
export const workload = fc
  .record({
    kind: fc.constantFrom('Pod', 'Deployment', 'CronJob'),
    spec: podSpec,
    annotations: maybe(annotations),
    templateAnnotations: maybe(annotations),
  })
  .map(({ kind, spec, annotations: own, templateAnnotations }) => {
    const metadata = { name: 'w', ...(own ? { annotations: own } : {}) };
    const template = { metadata: { ...(templateAnnotations ? { annotations: templateAnnotations } : {}) }, spec };
    switch (kind) {
      case 'Pod':
        return { apiVersion: 'v1', kind, metadata, spec };
      case 'Deployment':
        return { apiVersion: 'apps/v1', kind, metadata, spec: { selector: {}, template } };
      default:
        return {
          apiVersion: 'batch/v1',
          kind,
          metadata,
          spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } },
        };
    }
  });

const runtimeClassParts = fc.record(
  {
    handler: fc.constantFrom(
      'runhcs-wcow-process',
      'runhcs-wcow-hypervisor',
      'runhcs-wcow-hypervisor-17763',
      'runhcs-wcow',
      'runc',
      '',
    ),
    scheduling: fc.record(
      {
        nodeSelector: fc.record(
          {
            'kubernetes.io/os': fc.constantFrom('windows', 'linux', 'Windows'),
            'node.kubernetes.io/windows-build': fc.constantFrom(...BUILDS),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    annotations: maybe(annotations),
  },
  { requiredKeys: ['handler'] },
);

/** A RuntimeClass object (named `windows`, with suppression annotations at times). */
export const runtimeClass = runtimeClassParts.map(({ annotations: own, ...rc }) => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'windows', ...(own ? { annotations: own } : {}) },
  ...rc,
}));
