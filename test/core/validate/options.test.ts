/** options.rules (off / re-level), the waive annotation, and the resource named on each diagnostic. */
import { loadManifests, validateManifests } from 'k8s-windows';
import { SUPPRESS_ANNOTATION_PREFIX, WAIVE_ANNOTATION } from '../../../lib/core/model/types';
import { deployment, windowsPod, windowsSpec } from './fixtures';

const bad = windowsSpec({ tolerations: undefined, securityContext: { runAsUser: 1000 } });
const ids = (ds: { ruleId: string }[]): string[] => ds.map((d) => d.ruleId).sort();

describe('options.rules', () => {
  test("'off' disables a rule", () => {
    const ds = validateManifests([deployment(bad)], { rules: { 'windows-toleration-missing': 'off' } });
    expect(ids(ds)).toEqual(['windows-forbidden-field']);
  });

  test('a severity re-levels a rule, whatever the finding would have been', () => {
    const ds = validateManifests([deployment(bad)], {
      rules: { 'windows-toleration-missing': 'error', 'windows-forbidden-field': 'info' },
    });
    expect(ds.map((d) => [d.ruleId, d.severity])).toEqual([
      ['windows-forbidden-field', 'info'],
      ['windows-toleration-missing', 'error'],
    ]);
  });

  test('unknown settings and rule ids are ignored', () => {
    const ds = validateManifests([deployment(bad)], {
      rules: { 'windows-toleration-missing': 'loud' as never, 'no-such-rule': 'off' },
    });
    expect(ids(ds)).toEqual(['windows-forbidden-field', 'windows-toleration-missing']);
  });
});

describe(`suppressions: ${SUPPRESS_ANNOTATION_PREFIX}<rule-id> and ${WAIVE_ANNOTATION}`, () => {
  const suppress = (id: string, reason: string) => ({ [`${SUPPRESS_ANNOTATION_PREFIX}${id}`]: reason });

  test('a per-rule annotation on the resource suppresses that rule, with its reason', () => {
    const d = deployment(bad, { annotations: suppress('windows-toleration-missing', 'our pools are untainted') });
    expect(ids(validateManifests([d]))).toEqual(['windows-forbidden-field']);
    const all = validateManifests([d], { includeSuppressed: true });
    expect(all.find((x) => x.ruleId === 'windows-toleration-missing')?.suppression).toEqual({
      kind: 'annotation',
      reason: 'our pools are untainted',
      from: 'metadata.annotations[suppress.k8s-windows.io/windows-toleration-missing]',
      honoured: true,
    });
  });

  test('on the pod template metadata too', () => {
    const d = deployment(bad, {}, { annotations: suppress('windows-toleration-missing', 'untainted pools') });
    expect(ids(validateManifests([d]))).toEqual(['windows-forbidden-field']);
    expect(
      validateManifests([d], { includeSuppressed: true }).find((x) => x.ruleId === 'windows-toleration-missing')
        ?.suppression?.from,
    ).toBe('spec.template.metadata.annotations[suppress.k8s-windows.io/windows-toleration-missing]');
  });

  test('an error the API server rejects the object for stays reported, its suppression marked not honoured', () => {
    const d = deployment(bad, {}, { annotations: suppress('windows-forbidden-field', 'we need runAsUser') });
    const [forbidden] = validateManifests([d]).filter((x) => x.ruleId === 'windows-forbidden-field');
    expect(forbidden.suppression).toMatchObject({ honoured: false, reason: 'we need runAsUser' });
  });

  test('the older waive list still suppresses (not API-rejected errors), and asks for reasons; unknown ids are errors', () => {
    const d = deployment(bad, { annotations: { [WAIVE_ANNOTATION]: 'windows-toleration-missing, other-rule' } });
    expect(validateManifests([d]).map((x) => [x.ruleId, x.severity])).toEqual([
      ['windows-forbidden-field', 'error'],
      ['suppression-invalid', 'error'],
      ['suppression-invalid', 'warning'],
    ]);
  });

  test('* suppresses every rule of that resource only, except API-rejected errors', () => {
    const waived = deployment(bad, { annotations: { [WAIVE_ANNOTATION]: '*' } });
    const other = windowsPod({ tolerations: undefined });
    expect(validateManifests([waived, other]).map((d) => [d.ruleId, d.resource.kind])).toEqual([
      ['windows-forbidden-field', 'Deployment'],
      ['suppression-invalid', 'Deployment'],
      ['windows-toleration-missing', 'Pod'],
    ]);
  });

  test('config suppressions match kind, namespace and name globs', () => {
    const d = deployment(bad, { namespace: 'team-a' });
    const only = (s: object) =>
      ids(validateManifests([d], { suppressions: [{ rules: ['windows-toleration-missing'], reason: 'r', ...s }] }));
    expect(only({ namespace: 'team-*', kind: 'Deployment' })).toEqual(['windows-forbidden-field']);
    expect(only({ namespace: 'team-b' })).toEqual(['windows-forbidden-field', 'windows-toleration-missing']);
    expect(only({ kind: 'StatefulSet' })).toEqual(['windows-forbidden-field', 'windows-toleration-missing']);
  });
});

describe('diagnostic shape', () => {
  test('names the resource, the path, the bad value and the fix', () => {
    const [d] = validateManifests([deployment(windowsSpec({ hostPID: true }), { namespace: 'shop' })]);
    expect(d).toEqual({
      ruleId: 'windows-forbidden-field',
      messageId: 'forbidden',
      severity: 'error',
      message: 'spec.template.spec.hostPID true: Forbidden: cannot be set for a windows pod.',
      fix: 'Remove it: Windows pods cannot share the host PID namespace.',
      path: 'spec.template.spec.hostPID',
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' },
      // Built in code, not loaded from text: the object and the field, no source position.
      location: { object: 0, segments: ['spec', 'template', 'spec', 'hostPID'] },
    });
  });

  test('the location of a loaded object gives its source position, for every consumer', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  os: {name: windows}\n  nodeSelector:\n    beta.kubernetes.io/os: windows\n  containers: [{name: a, image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022'}]\n`;
    const beta = validateManifests(loadManifests(text, 'pod.yaml')).find((d) => d.ruleId === 'windows-beta-os-label');
    expect(beta?.location).toEqual({
      object: 0,
      segments: ['spec', 'nodeSelector', 'beta.kubernetes.io/os'],
      position: { source: 'pod.yaml', line: 7, column: 5 },
    });
  });

  test('diagnostics follow input order, also for rules that need the whole set', () => {
    const linux = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a' },
      spec: { containers: [{ name: 'a', image: 'nginx:1' }] },
    };
    const win = windowsPod({ tolerations: undefined }, { name: 'b' });
    expect(validateManifests([linux, win]).map((d) => d.resource.name)).toEqual(['a', 'b']);
  });

  test('options.windowsRelease pins unpinned pods for the image build check', () => {
    const p = windowsPod({
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' }],
    });
    expect(validateManifests([p]).map((d) => d.ruleId)).toEqual(['image-build-unpinned']);
    const [d] = validateManifests([p], { windowsRelease: '2022' });
    expect(d).toMatchObject({ ruleId: 'image-build-mismatch', path: 'spec.containers[0].image' });
    expect(d.message).toContain('options.windowsRelease');
  });
});
