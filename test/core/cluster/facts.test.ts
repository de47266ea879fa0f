import { clusterFactsFromNodes } from '../../../lib/core/cluster/facts';
import { nodeFacts } from '../../../lib/core/cluster/nodes';
import { WindowsValidationError } from '../../../lib/core/errors';
import { readClusterFacts } from '../../../lib/core/policies/cluster-facts';

type Json = Record<string, unknown>;

const TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' };

function node(name: string, os: 'linux' | 'windows', labels: Json = {}, taints: Json[] = []): Json {
  return {
    metadata: { name, labels: { 'kubernetes.io/os': os, 'kubernetes.io/hostname': name, ...labels } },
    spec: { taints },
    status: { nodeInfo: { operatingSystem: os } },
  };
}

const runtimeClass = (name: string, handler: string, selector?: Json): Json => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name },
  handler,
  ...(selector ? { scheduling: { nodeSelector: selector } } : {}),
});

describe('clusterFactsFromNodes', () => {
  test('one pool per pool label, with the labels and pool taints all its nodes carry; Linux nodes and state taints left out', () => {
    const nodes = [
      node('linux-1', 'linux', { agentpool: 'system' }),
      node(
        'akswin000000',
        'windows',
        { agentpool: 'win22', 'node.kubernetes.io/windows-build': '10.0.20348', zone: 'a' },
        [TAINT, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      ),
      node(
        'akswin000001',
        'windows',
        { agentpool: 'win22', 'node.kubernetes.io/windows-build': '10.0.20348', zone: 'b' },
        [TAINT],
      ),
    ].map(nodeFacts);
    expect(clusterFactsFromNodes(nodes, [])).toEqual({
      pools: [
        {
          name: 'win22',
          provider: 'aks',
          build: '10.0.20348',
          labels: {
            agentpool: 'win22',
            'kubernetes.io/os': 'windows',
            'node.kubernetes.io/windows-build': '10.0.20348',
          },
          taints: [TAINT],
        },
      ],
      runtimeClasses: [],
    });
  });

  test('nodes without a pool label: one pool per build and taints; Windows RuntimeClasses with the build they select', () => {
    const nodes = [
      node('w19', 'windows', { 'node.kubernetes.io/windows-build': '10.0.17763' }, [TAINT]),
      node('w25', 'windows', { 'node.kubernetes.io/windows-build': '10.0.26100' }, [TAINT]),
    ].map(nodeFacts);
    const facts = clusterFactsFromNodes(nodes, [
      runtimeClass('windows-2025', 'runhcs-wcow-process', {
        'kubernetes.io/os': 'windows',
        'node.kubernetes.io/windows-build': '10.0.26100',
      }),
      runtimeClass('hyperv', 'runhcs-wcow-hypervisor'),
      runtimeClass('gvisor', 'runsc'),
    ]);
    expect(facts.pools?.map((p) => [p.name, p.provider, p.build, p.taints])).toEqual([
      ['windows-10-0-17763', 'other', '10.0.17763', [TAINT]],
      ['windows-10-0-26100', 'other', '10.0.26100', [TAINT]],
    ]);
    expect(facts.runtimeClasses).toEqual([
      { name: 'windows-2025', handler: 'runhcs-wcow-process', build: '10.0.26100' },
      { name: 'hyperv', handler: 'runhcs-wcow-hypervisor' },
    ]);
    // What policies --cluster-facts reads back, unchanged.
    expect(readClusterFacts(facts, 'facts')).toEqual({ facts, issues: [] });
  });

  test('a cluster without Windows nodes has no pools', () => {
    expect(clusterFactsFromNodes([nodeFacts(node('l', 'linux'))], [])).toEqual({ pools: [], runtimeClasses: [] });
  });

  test('facts the policies would refuse are never written: a taint key the facts do not take throws naming it', () => {
    const bad = nodeFacts(node('w', 'windows', {}, [{ key: 'bad key', effect: 'NoSchedule' }]));
    expect(() => clusterFactsFromNodes([bad], [])).toThrow(WindowsValidationError);
  });
});
