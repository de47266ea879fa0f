/**
 * Ids are never renamed: a rule split into specific rules stays in the catalogue as an alias (`meta.covers`), and
 * a setting or suppression naming it applies to every rule it covers. The engine's lookups (rule settings,
 * suppressions) and the cloud findings' settings resolve aliases; the rule's own id wins over an alias.
 */
import { CONFIG_SETTINGS } from '../../../lib/core/config';
import { RULE_MODULES } from '../../../lib/core/rules';
import { DiagnosticSink } from '../../../lib/core/validate/report';
import { RULE_ALIASES, RULES_BY_ID, ruleNames } from '../../../lib/core/validate/rules';
import { applyRuleSetting, readSettings } from '../../../lib/core/validate/settings';

const SPLITS: Record<string, readonly string[]> = {
  'aks-windows-agent-pool': [
    'aks-windows-release',
    'aks-windows-pool-name',
    'aks-windows-pool-mode',
    'aks-windows-pool-taints',
    'aks-windows-vm-size',
  ],
  'aks-windows-cluster': ['aks-windows-profile', 'aks-windows-cni', 'aks-windows-dataplane'],
  'gke-windows-node-pool': [
    'gke-windows-image-type',
    'gke-windows-release',
    'gke-windows-taint-effect',
    'gke-windows-machine-type',
  ],
  'gke-windows-cluster': ['gke-windows-autopilot', 'gke-windows-vpc-native', 'gke-windows-linux-pool'],
};

test('the aliases are the split buckets, each covering rules of the catalogue that are not aliases', () => {
  const aliases = Object.fromEntries(
    RULE_MODULES.filter((r) => r.meta.covers !== undefined).map((r) => [r.meta.id, r.meta.covers]),
  );
  expect(aliases).toEqual(SPLITS);
  for (const covered of Object.values(SPLITS).flat()) {
    expect(RULES_BY_ID.has(covered)).toBe(true);
    expect(RULES_BY_ID.get(covered)).not.toHaveProperty('covers');
  }
  // An alias reports nothing itself: it has no check of its own.
  for (const id of Object.keys(SPLITS)) {
    const rule = RULE_MODULES.find((r) => r.meta.id === id);
    expect(rule?.check).toEqual({ scope: 'cloud', resources: expect.any(Array) });
  }
});

test('a rule is named by its own id first, then the id it was reported under, then its aliases', () => {
  expect(ruleNames('aks-windows-pool-name')).toEqual(['aks-windows-pool-name', 'aks-windows-agent-pool']);
  expect(ruleNames('gke-windows-machine-type', 'gke-windows-cluster')).toEqual([
    'gke-windows-machine-type',
    'gke-windows-cluster',
    'gke-windows-node-pool',
  ]);
  expect(ruleNames('windows-hugepages')).toEqual(['windows-hugepages']);
  expect(RULE_ALIASES.get('aks-windows-fips')).toBeUndefined();
});

describe('rule settings', () => {
  const finding = { ruleId: 'aks-windows-pool-mode', severity: 'error' as const, path: 'mode', message: 'm' };

  test("the old id's setting applies; the rule's own wins", () => {
    expect(applyRuleSetting(finding, { 'aks-windows-agent-pool': 'off' })).toBeUndefined();
    expect(applyRuleSetting(finding, { 'aks-windows-agent-pool': 'warning' })).toEqual({
      ...finding,
      severity: 'warning',
    });
    expect(applyRuleSetting(finding, { 'aks-windows-agent-pool': 'off', 'aks-windows-pool-mode': 'error' })).toEqual(
      finding,
    );
    expect(applyRuleSetting(finding, { 'aks-windows-cluster': 'off' })).toEqual(finding);
  });

  test('a finding split out of another bucket (an inline pool) is named by that bucket too', () => {
    const inline = { ...finding, formerly: 'aks-windows-cluster' };
    expect(applyRuleSetting(inline, { 'aks-windows-cluster': 'off' })).toBeUndefined();
  });

  test('a config naming an old id is valid', () => {
    const { issues } = readSettings(
      { rules: { 'aks-windows-agent-pool': 'off', 'gke-windows-cluster': 'warning' } },
      'config',
      CONFIG_SETTINGS,
    );
    expect(issues).toEqual([]);
  });
});

describe("the engine's lookups (validateManifests' reporter)", () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } };
  const report = (options: ConstructorParameters<typeof DiagnosticSink>[1]) => {
    const sink = new DiagnosticSink(1, options);
    sink.reporter(0, pod)('gke-windows-machine-type' as never, 'spec', 'message', 'fix');
    return sink.diagnostics();
  };

  test('rules: the alias re-levels or turns off what it covers', () => {
    expect(report({}).map((d) => [d.ruleId, d.severity])).toEqual([['gke-windows-machine-type', 'error']]);
    expect(report({ rules: { 'gke-windows-node-pool': 'off' } })).toEqual([]);
    expect(report({ rules: { 'gke-windows-node-pool': 'info' } }).map((d) => d.severity)).toEqual(['info']);
    expect(
      report({ rules: { 'gke-windows-node-pool': 'off', 'gke-windows-machine-type': 'warning' } }).map(
        (d) => d.severity,
      ),
    ).toEqual(['warning']);
  });

  test('suppressions: a config suppression naming the alias suppresses what it covers', () => {
    const suppressions = [{ rules: ['gke-windows-node-pool'], name: 'p', reason: 'tested elsewhere' }];
    expect(report({ suppressions })).toEqual([]);
    expect(report({ suppressions, includeSuppressed: true })[0].suppression).toMatchObject({
      reason: 'tested elsewhere',
      honoured: true,
    });
  });
});
