/**
 * The prelude's variables, evaluated by the standalone evaluator on pods whose facts lint knows: each says what
 * `analyzePod` says (declared, selected and affinity OS, HostProcess, Windows image, windows).
 */
import { podPrelude, type PolicyShape } from '../../../lib/core/policies/prelude';
import { evaluatePolicies } from '../../helpers/vap-eval';

/** A policy that fails with the JSON of the named variables, to read them. */
function reader(shape: PolicyShape, names: readonly string[]) {
  const kinds = {
    pod: ['', 'v1', 'pods'],
    workload: ['apps', 'v1', 'deployments'],
    cronjob: ['batch', 'v1', 'cronjobs'],
  };
  const [group, version, resource] = kinds[shape];
  return [
    {
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'reader' },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: [group], apiVersions: [version], operations: ['CREATE'], resources: [resource] },
          ],
        },
        variables: podPrelude(shape),
        validations: [
          {
            expression: 'false',
            messageExpression: `'x: ' + ${names.map((n) => `string(variables.${n})`).join(" + '|' + ")}`,
          },
        ],
      },
    },
    { kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'reader' }, spec: { policyName: 'reader' } },
  ];
}

const VARS = ['declaredOs', 'selectedOs', 'affinityOs', 'hostProcess', 'windowsImage', 'windows'];

function read(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'p' }): string {
  const result = evaluatePolicies(reader('pod', VARS), { apiVersion: 'v1', kind: 'Pod', metadata, spec });
  expect(result.errors).toEqual([]);
  return result.violations[0]!.message.slice(3);
}

const linux = { containers: [{ name: 'a', image: 'nginx:1.25' }] };

test.each([
  ['nothing', linux, '|||false|false|false'],
  ['os.name', { ...linux, os: { name: 'windows' } }, 'windows|||false|false|true'],
  ['a bad os.name', { ...linux, os: { name: 'Windows' } }, '|||false|false|false'],
  ['selector', { ...linux, nodeSelector: { 'kubernetes.io/os': 'windows' } }, '|windows||false|false|true'],
  ['beta selector', { ...linux, nodeSelector: { 'beta.kubernetes.io/os': 'linux' } }, '|linux||false|false|false'],
  [
    'aks sku',
    { ...linux, nodeSelector: { 'kubernetes.azure.com/os-sku': 'Windows2022' } },
    '|windows||false|false|true',
  ],
  [
    'affinity In windows',
    {
      ...linux,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] },
            ],
          },
        },
      },
    },
    '||windows|false|false|true',
  ],
  [
    'affinity NotIn linux, or a term without OS',
    {
      ...linux,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'NotIn', values: ['linux'] }] },
              { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
            ],
          },
        },
      },
    },
    '|||false|false|false',
  ],
  [
    'affinity NotIn linux',
    {
      ...linux,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'NotIn', values: ['linux'] }] },
            ],
          },
        },
      },
    },
    '||windows|false|false|true',
  ],
  [
    'HostProcess on the pod',
    { ...linux, securityContext: { windowsOptions: { hostProcess: true } } },
    '|||true|false|true',
  ],
  [
    'HostProcess off on the container',
    {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [{ name: 'a', image: 'x', securityContext: { windowsOptions: { hostProcess: false } } }],
    },
    '|||false|false|false',
  ],
  [
    'a Windows repository',
    { containers: [{ name: 'a', image: 'mcr.microsoft.com/windows/servercore:ltsc2022' }] },
    '|||false|true|true',
  ],
  [
    'a Windows tag',
    { containers: [{ name: 'a', image: 'fluent/fluent-bit:3.1.4-windows-2022' }] },
    '|||false|true|true',
  ],
  ['a build tag', { containers: [{ name: 'a', image: 'acme/app:10.0.17763.1' }] }, '|||false|true|true'],
  ['a bare build', { containers: [{ name: 'a', image: 'acme/etl:2004' }] }, '|||false|false|false'],
  ['a legacy Docker Hub repository', { containers: [{ name: 'a', image: 'microsoft/iis' }] }, '|||false|true|true'],
  ['a legacy name elsewhere', { containers: [{ name: 'a', image: 'quay.io/microsoft/iis' }] }, '|||false|false|false'],
  [
    'an invalid reference',
    { containers: [{ name: 'a', image: 'Windows/Servercore:ltsc2022' }] },
    '|||false|false|false',
  ],
])('%s', (_title, spec, expected) => {
  expect(read(spec)).toBe(expected);
});

const PIN_VARS = ['pinSource', 'pinBuild', 'pinRelease', 'pinVia'];

test.each([
  ['no pin', linux, '|||'],
  [
    'a build selector',
    { ...linux, nodeSelector: { 'node.kubernetes.io/windows-build': '10.0.20348' } },
    'selector|10.0.20348|2022|nodeSelector node.kubernetes.io/windows-build=10.0.20348',
  ],
  [
    'a retired build',
    { ...linux, nodeSelector: { 'node.kubernetes.io/windows-build': '10.0.14393' } },
    'selector|10.0.14393||nodeSelector node.kubernetes.io/windows-build=10.0.14393',
  ],
  [
    'an AKS os-sku',
    { ...linux, nodeSelector: { 'kubernetes.azure.com/os-sku': 'Windows2019' } },
    'sku||2019|nodeSelector kubernetes.azure.com/os-sku=Windows2019',
  ],
  [
    'affinity on one build',
    {
      ...linux,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'node.kubernetes.io/windows-build', operator: 'In', values: ['10.0.26100.1'] },
                ],
              },
            ],
          },
        },
      },
    },
    'affinity|10.0.26100.1|2025|node affinity node.kubernetes.io/windows-build In [10.0.26100.1]',
  ],
])('pin: %s', (_title, spec, expected) => {
  const result = evaluatePolicies(reader('pod', PIN_VARS), {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec,
  });
  expect(result.errors).toEqual([]);
  expect(result.violations[0]!.message.slice(3)).toBe(expected);
});
