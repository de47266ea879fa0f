/**
 * Who vouches for registry settings: the config file's keys (read anonymously), the environment's variables
 * (trusted), and the placeholders that are never looked up.
 */
import { loadConfigFile } from '../../lib/core/config';
import { isPlaceholderReference } from '../../lib/registry/reference';
import { registryEnvironment, withTrusted } from '../../lib/registry/trust';
import { readSettings } from '../../lib/core/validate/settings';
import { CONFIG_SETTINGS } from '../../lib/core/config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('the config file takes insecureRegistries, mirrorFallback and resolveTimeout, checked', () => {
  expect(
    readSettings(
      { insecureRegistries: 'a.internal:5000, 10.0.0.5', mirrorFallback: false, resolveTimeout: '2.5s' },
      'config',
      CONFIG_SETTINGS,
    ),
  ).toEqual({
    settings: { insecureRegistries: ['a.internal:5000', '10.0.0.5'], mirrorFallback: false, resolveTimeout: 2.5 },
    issues: [],
  });
  expect(
    readSettings(
      { insecureRegistries: ['http://x'], mirrorFallback: 'no', resolveTimeout: 0 },
      'config',
      CONFIG_SETTINGS,
    ).issues,
  ).toEqual([
    {
      path: 'config.insecureRegistries[0]',
      message: '"http://x" is not a registry host.',
      fix: "Write host or host:port, with no scheme or path: 'registry.internal:5000'.",
    },
    { path: 'config.mirrorFallback', message: '"no" is not true or false.' },
    {
      path: 'config.resolveTimeout',
      message: '0 is not a time to resolve images in.',
      fix: "Write seconds, more than 0 and at most 3600: 30, '30s' or '1500ms'.",
    },
  ]);
});

test('a config file cannot say which registries are trusted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'k8s-windows-trust-'));
  try {
    writeFileSync(join(dir, '.k8s-windows.yaml'), 'trustedRegistries: {mirrors: {docker.io: "http://evil"}}\n');
    expect(loadConfigFile(join(dir, '.k8s-windows.yaml')).issues).toEqual([
      expect.objectContaining({
        path: '.k8s-windows.yaml: trustedRegistries',
        message: "'trustedRegistries' is not a setting here.",
      }),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the environment names trusted mirrors and insecure registries; bad entries are problems', () => {
  expect(
    registryEnvironment({
      K8S_WINDOWS_REGISTRY_MIRRORS: 'docker.io=https://m.internal:5000, ghcr.io=http://g.internal',
      K8S_WINDOWS_INSECURE_REGISTRIES: 'g.internal,10.0.0.5:5000',
    }),
  ).toEqual({
    trusted: {
      mirrors: { 'docker.io': 'https://m.internal:5000', 'ghcr.io': 'http://g.internal' },
      insecureRegistries: ['g.internal', '10.0.0.5:5000'],
    },
    issues: [],
  });
  expect(registryEnvironment({ K8S_WINDOWS_REGISTRY_MIRRORS: 'docker.io' }).issues).toEqual([
    expect.objectContaining({ path: 'K8S_WINDOWS_REGISTRY_MIRRORS.docker.io' }),
  ]);
});

test('settings the user did not vouch for are split out as untrusted', () => {
  const trusted = { mirrors: { 'docker.io': 'https://mine' }, insecureRegistries: ['mine.internal'] };
  expect(
    withTrusted(trusted, { 'docker.io': 'https://mine', 'ghcr.io': 'https://theirs' }, [
      'mine.internal',
      'theirs.internal',
    ]),
  ).toEqual({
    mirrors: { 'docker.io': 'https://mine' },
    untrustedMirrors: { 'ghcr.io': 'https://theirs' },
    insecureRegistries: ['mine.internal'],
    untrustedInsecureRegistries: ['theirs.internal'],
  });
  // A repository that names another URL for a registry the user mirrors does not get the user's trust.
  expect(withTrusted(trusted, { 'docker.io': 'https://theirs' }, []).untrustedMirrors).toEqual({
    'docker.io': 'https://theirs',
  });
});

test.each([
  '< Registry Name >.azurecr.io/app:1',
  '<Your Image Name>',
  'registry/<image>',
  'ko://github.com/tektoncd/pipeline/cmd/controller',
  'docker://nginx',
  '${REGISTRY}/app',
  '$(IMAGE)',
  '{{ .Values.image.repository }}:{{ .Values.image.tag }}',
  'app:{{.Tag}}',
])('%s is a placeholder', (text) => expect(isPlaceholderReference(text)).toBe(true));

test.each(['nginx', 'mcr.microsoft.com/windows/servercore:ltsc2022', 'localhost:5000/app@sha256:' + 'a'.repeat(64)])(
  '%s is a reference',
  (text) => expect(isPlaceholderReference(text)).toBe(false),
);
