/**
 * The differential check on generated pods: every rule with a CEL form gives the same verdict from the generated
 * policy (run by @bufbuild/cel) as from its TypeScript check (the engine on the pod alone), on pods and workloads
 * built from the pieces the scheduling and image rules read: spec.os, OS, build and pool selectors, required
 * affinity on the OS and the build, tolerations, Windows, Linux and build-tagged images, HostProcess, a
 * RuntimeClass name and suppression annotations.
 */
import fc from 'fast-check';
import { propertyParameters } from '../../helpers/property';
import { differential } from './differential';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

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

const container = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c'),
    image: fc.constantFrom(...IMAGES),
    securityContext: fc.record({ windowsOptions: fc.record({ hostProcess: fc.boolean() }) }),
  },
  { requiredKeys: ['name', 'image'] },
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

const nodeSelector = fc.record(
  {
    'kubernetes.io/os': fc.constantFrom(...OS_VALUES),
    'beta.kubernetes.io/os': fc.constantFrom(...OS_VALUES),
    'kubernetes.azure.com/os-sku': fc.constantFrom('Windows2019', 'Windows2022', 'Ubuntu', 'windows2025'),
    'node.kubernetes.io/windows-build': fc.constantFrom(...BUILDS),
    agentpool: fc.constant('npwin'),
  },
  { requiredKeys: [] },
);

const annotations = fc.record(
  {
    'suppress.k8s-windows.io/windows-toleration-missing': fc.constant('tainted elsewhere'),
    'suppress.k8s-windows.io/image-build-mismatch': fc.constant(''),
    'k8s-windows.io/waive': fc.constantFrom('windows-os-unset', ' windows-node-selector-missing , x', '*'),
  },
  { requiredKeys: [] },
);

const podSpec = fc.record(
  {
    os: fc.record({ name: fc.constantFrom(...OS_VALUES) }, { requiredKeys: [] }),
    nodeSelector,
    affinity,
    tolerations: fc.array(toleration, { maxLength: 2 }),
    securityContext: fc.record({ windowsOptions: fc.record({ hostProcess: fc.boolean() }) }),
    hostNetwork: fc.constant(true),
    runtimeClassName: fc.constantFrom('windows-2022', 'runc'),
    containers: fc.array(container, { minLength: 1, maxLength: 3 }),
    initContainers: fc.array(container, { maxLength: 1 }),
  },
  { requiredKeys: ['containers'] },
);

const workload = fc
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

test('generated pods and workloads get the same verdict from every CEL form as from its rule', () => {
  fc.assert(
    fc.property(workload, (object) => {
      const found = differential(object, 'generated');
      expect(found.mismatches).toEqual([]);
      expect(found.errors).toEqual([]);
    }),
    propertyParameters(150),
  );
});
