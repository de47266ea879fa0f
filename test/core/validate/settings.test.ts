/** readSettings: the one reader of hand-written settings behind the plugin, the policy pack, KRM and the CLI. */
import { readSettings, RULE_SETTINGS, type SettingName } from '../../../lib/core/validate/settings';

const ALL: SettingName[] = [
  'rules',
  'windowsRelease',
  'kubernetesVersion',
  'cloud',
  'tolerations',
  'runtimeClassName',
  'pinLinux',
  'failOn',
];

describe('readSettings', () => {
  test('takes every setting in the forms YAML, JSON and a ConfigMap give it', () => {
    const { settings, issues } = readSettings(
      {
        rules: { 'image-floating-tag': 'off', 'windows-startup-probe': 'warning' },
        windowsRelease: 2022,
        kubernetesVersion: '1.32',
        cloud: 'gke',
        tolerations: 'os=windows:NoSchedule, pool:NoExecute',
        runtimeClassName: 'windows-2022',
        pinLinux: 'true',
        failOn: 'warning',
      },
      'spec',
      ALL,
    );
    expect(issues).toEqual([]);
    expect(settings).toEqual({
      rules: { 'image-floating-tag': 'off', 'windows-startup-probe': 'warning' },
      windowsRelease: '2022',
      kubernetesVersion: '1.32',
      cloud: 'gke',
      tolerations: [
        { key: 'os', value: 'windows', effect: 'NoSchedule' },
        { key: 'pool', effect: 'NoExecute' },
      ],
      runtimeClassName: 'windows-2022',
      pinLinux: true,
      failOn: 'warning',
    });
  });

  test('names every problem at once, with the field, the value and the fix', () => {
    const { issues } = readSettings(
      {
        rules: { 'windows-startup-prob': 'off', 'image-floating-tag': false },
        windowsRelease: '1809x',
        kubernetesVersion: 1.3,
        cloud: 'openshift',
        tolerations: [{ key: 'os' }],
        pinLinux: 'yes',
        failOn: 'fatal',
        colour: 'blue',
      },
      'properties',
      ALL,
    );
    expect(issues.map((i) => i.path)).toEqual([
      'properties.rules.windows-startup-prob',
      'properties.rules.image-floating-tag',
      'properties.windowsRelease',
      'properties.kubernetesVersion',
      'properties.cloud',
      'properties.tolerations[0]',
      'properties.pinLinux',
      'properties.failOn',
      'properties.colour',
    ]);
    expect(issues[0].fix).toMatch(/^Did you mean 'windows-startup-probe'/);
    expect(issues[1].fix).toContain(`Use one of ${RULE_SETTINGS.join(', ')}`);
    expect(issues[3].message).toBe('1.3 is a number: YAML reads 1.30 as 1.3.');
    expect(issues[8].fix).toBe(`Use ${ALL.join(', ')}.`);
  });

  test('a front door takes only the settings it names', () => {
    const { issues } = readSettings({ pinLinux: true }, 'config', ['rules']);
    expect(issues).toEqual([
      { path: 'config.pinLinux', message: "'pinLinux' is not a setting here.", fix: 'Use rules.' },
    ]);
  });

  test('nothing given is nothing set', () => {
    expect(readSettings(undefined, 'config', ALL)).toEqual({ settings: {}, issues: [] });
    expect(readSettings([], 'config', ALL).issues[0].message).toBe('config is not a mapping.');
  });
});
