import { WindowsValidationError } from '../../../lib/core/errors';
import { generatePolicies } from '../../../lib/core/policies';
import { checkPolicyOptions } from '../../../lib/core/policies/options';
import type { PolicyOptions } from '../../../lib/core/policies/types';

describe('checkPolicyOptions', () => {
  test('good options, and none, have no problem', () => {
    expect(checkPolicyOptions({})).toEqual([]);
    expect(
      checkPolicyOptions({
        mode: 'audit',
        mutating: true,
        mutatingVersion: 'v1beta1',
        kubernetesVersion: '1.35',
        cloud: 'gke',
        settings: { 'windows-os-unset': 'off', 'windows-toleration-missing': 'error' },
        systemNamespaces: ['kube-system'],
        exclude: [{ name: 'web', namespace: 'legacy', kind: 'Deployment' }],
        namePrefix: 'acme',
        clusterFactsName: 'prod',
        clusterFacts: { pools: [{ name: 'p', release: '2022' }] },
      }),
    ).toEqual([]);
  });

  test('wrong shapes are named, never a TypeError; the rest goes on to checkPolicyOptions', () => {
    const bad = {
      mode: 42,
      mutating: 'yes',
      cloud: 'azure',
      settings: 'off',
      systemNamespaces: 'kube-system',
      exclude: [{ namespace: '', nam: 'x' }],
      clusterFacts: [],
      namePrefix: 'Acme',
      mutatingVersion: 'v1alpha1',
    } as unknown as PolicyOptions;
    expect(checkPolicyOptions(bad).map((i) => i.path)).toEqual([
      'mode',
      'mutating',
      'cloud',
      'settings',
      'systemNamespaces',
      'exclude[0].namespace',
      'exclude[0].nam',
      'clusterFacts',
      'mutatingVersion',
      'namePrefix',
    ]);
    expect(checkPolicyOptions({ cloud: 'azure' as 'aks' })).toEqual([
      { path: 'cloud', message: 'The cloud "azure" has no preset.', fix: 'Use one of eks, aks, gke, or leave it out.' },
    ]);
  });

  test('bad cluster facts are named under clusterFacts, each with its fix', () => {
    const issues = checkPolicyOptions({ clusterFacts: { pools: [{ name: 'p', build: '10.0.1' }] } });
    expect(issues.map((i) => i.path)).toEqual(['clusterFacts.pools[0].build']);
    expect(issues[0].fix).toBe("Write one of '10.0.17763' (2019), '10.0.20348' (2022), '10.0.26100' (2025).");
  });
});

test('generatePolicies refuses options of the wrong type with every problem named, never a TypeError', () => {
  const bad = {
    systemNamespaces: 'kube-system',
    exclude: 'web',
    mutating: 'yes',
    cloud: 'aws',
  } as unknown as PolicyOptions;
  let thrown: unknown;
  try {
    generatePolicies(bad);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(WindowsValidationError);
  expect((thrown as WindowsValidationError).issues.map((i) => i.path).sort()).toEqual([
    'cloud',
    'exclude',
    'mutating',
    'systemNamespaces',
  ]);
});
