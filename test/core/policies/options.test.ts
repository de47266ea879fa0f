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

  test('every bad option, with its value and fix', () => {
    const bad = {
      mode: 'block',
      mutating: 'yes',
      mutatingVersion: 'v1alpha1',
      cloud: 'azure',
      settings: { 'windows-os-unsett': 'off', 'windows-os-unset': false },
      systemNamespaces: ['Kube-System'],
      exclude: [{ namespace: '', nam: 'x' }],
      namePrefix: 'a'.repeat(240),
      clusterFactsName: 'Prod',
      clusterFacts: { pools: [{ name: 'p', build: '10.0.1' }] },
    } as unknown as PolicyOptions;
    const issues = checkPolicyOptions(bad);
    expect(issues.map((i) => i.path)).toEqual([
      'mode',
      'mutating',
      'mutatingVersion',
      'cloud',
      'settings.windows-os-unsett',
      'settings.windows-os-unset',
      'systemNamespaces[0]',
      'exclude[0].name',
      'exclude[0].namespace',
      'exclude[0].nam',
      'namePrefix',
      'clusterFactsName',
      'clusterFacts.pools[0].build',
    ]);
    expect(issues[2]).toEqual({
      path: 'mutatingVersion',
      message: 'The MutatingAdmissionPolicy version "v1alpha1" is not served by any Kubernetes release.',
      fix: "Use 'v1' (Kubernetes 1.36 on) or 'v1beta1' (1.34 and 1.35, with the MutatingAdmissionPolicy feature gate).",
    });
    expect(issues.every((i) => (i.fix ?? '').length > 0)).toBe(true);
    expect(checkPolicyOptions(bad, false).map((i) => i.path)).not.toContain('clusterFacts.pools[0].build');
  });
});
