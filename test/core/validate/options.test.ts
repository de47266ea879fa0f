/** options.rules (off / re-level), the waive annotation, and the resource named on each diagnostic. */
import { loadManifests, validateManifests, WAIVE_ANNOTATION } from 'k8s-windows';
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

describe(`waive annotation ${WAIVE_ANNOTATION}`, () => {
  test('on the resource metadata waives the listed rules', () => {
    const d = deployment(bad, { annotations: { [WAIVE_ANNOTATION]: 'windows-toleration-missing, other-rule' } });
    expect(ids(validateManifests([d]))).toEqual(['windows-forbidden-field']);
  });

  test('on the pod template metadata waives them too', () => {
    const d = deployment(bad, {}, { annotations: { [WAIVE_ANNOTATION]: 'windows-forbidden-field' } });
    expect(ids(validateManifests([d]))).toEqual(['windows-toleration-missing']);
  });

  test('* waives every rule of that resource only', () => {
    const waived = deployment(bad, { annotations: { [WAIVE_ANNOTATION]: '*' } });
    const other = windowsPod({ tolerations: undefined });
    expect(validateManifests([waived, other]).map((d) => [d.ruleId, d.resource.kind])).toEqual([
      ['windows-toleration-missing', 'Pod'],
    ]);
  });
});

describe('diagnostic shape', () => {
  test('names the resource, the path, the bad value and the fix', () => {
    const [d] = validateManifests([deployment(windowsSpec({ hostPID: true }), { namespace: 'shop' })]);
    expect(d).toEqual({
      ruleId: 'windows-forbidden-field',
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
