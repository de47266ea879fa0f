/**
 * The catalogue as a whole: every rule is a module (its failing and passing cases are its examples, run by
 * test/core/rules/examples.test.ts), ids are unique, and manifests that follow every rule yield nothing.
 */
import { RULES, validateManifests } from 'k8s-windows';
import { RULE_MODULES } from '../../../lib/core/rules';
import { deployment, hostProcessSpec, linuxPod, runtimeClass, windowsPod, WINDOWS_TOLERATION } from './fixtures';

describe('rule catalogue', () => {
  test('every rule is a module (lib/core/rules/<id>.ts), whose examples are its cases', () => {
    expect(RULES.map((r) => r.id).sort()).toEqual(RULE_MODULES.map((r) => r.meta.id).sort());
  });

  test('ids are unique kebab-case, with summary, rationale and docs', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.rationale.length).toBeGreaterThan(10);
      expect(r.docs).toMatch(/^https:\/\//);
    }
  });
});

describe('clean manifests', () => {
  test('a Windows pod, Deployment and HostProcess DaemonSet that follow every rule yield nothing', () => {
    const daemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: hostProcessSpec() },
      },
    };
    expect(validateManifests([windowsPod(), deployment(), daemonSet, linuxPod()])).toEqual([]);
  });

  test('the toleration rule accepts a toleration of the taint key with Exists', () => {
    const p = windowsPod({ tolerations: [{ key: 'os', operator: 'Exists', effect: 'NoSchedule' }] });
    expect(validateManifests([p])).toEqual([]);
  });

  test('tolerations merged in from the RuntimeClass count', () => {
    const p = windowsPod({ tolerations: undefined, nodeSelector: undefined, runtimeClassName: 'windows-2022' });
    expect(validateManifests([runtimeClass('windows-2022', 'runhcs-wcow-process', '10.0.20348'), p])).toEqual([]);
  });

  test('a wildcard toleration on a pod pinned to its OS is not reported', () => {
    const p = windowsPod({ tolerations: [{ operator: 'Exists' }] });
    expect(validateManifests([p])).toEqual([]);
  });

  test('WINDOWS_TOLERATION is the os=windows:NoSchedule toleration', () => {
    expect(WINDOWS_TOLERATION).toEqual({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
  });
});
