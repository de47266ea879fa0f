import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { cli, FIXTURES, tempTree } from '../helpers/cli';

const WEB_TEXT = readFileSync(path.join(FIXTURES, 'windows-web.yaml'), 'utf8');
/** A Windows pod with nothing to fix (its missing toleration is advice a fix cannot settle without --toleration). */
const CLEAN = [
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: clean}',
  'spec:',
  '  os: {name: windows}',
  '  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}',
  '  containers:',
  '  - name: c',
  '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022',
  '',
].join('\n');

describe('k8s-windows fix --check', () => {
  test('a fix is due: exit 1, the files that would change listed, nothing written or printed', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB_TEXT, 'clean.yaml': CLEAN });
    try {
      const before = statSync(path.join(dir, 'web.yaml')).mtimeMs;
      const r = await cli(['fix', '--check', 'web.yaml', 'clean.yaml'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(
        [
          'Would fix: web.yaml (1 change)',
          "k8s-windows fix --check: 1 file would be fixed, 1 left as it is. Run 'k8s-windows fix --write' to fix.",
          '',
        ].join('\n'),
      );
      expect(r.stderr).toBe('');
      expect(readFileSync(path.join(dir, 'web.yaml'), 'utf8')).toBe(WEB_TEXT);
      expect(statSync(path.join(dir, 'web.yaml')).mtimeMs).toBe(before);
    } finally {
      cleanup();
    }
  });

  test('nothing to fix: exit 0, whatever findings a fix cannot resolve (those are lint’s)', async () => {
    const { dir, cleanup } = tempTree({ 'clean.yaml': CLEAN });
    try {
      const r = await cli(['fix', '--check', 'clean.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('k8s-windows fix --check: nothing to fix in 1 input.\n');
    } finally {
      cleanup();
    }
  });

  test('--quiet lists only the files', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB_TEXT, 'clean.yaml': CLEAN });
    try {
      expect((await cli(['fix', '--check', '-q', 'web.yaml', 'clean.yaml'], { cwd: dir })).stdout).toBe(
        'Would fix: web.yaml (1 change)\n',
      );
      expect((await cli(['fix', '--check', '-q', 'clean.yaml'], { cwd: dir })).stdout).toBe('');
    } finally {
      cleanup();
    }
  });

  test('--diff shows the change; the list goes to standard error', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB_TEXT });
    try {
      const r = await cli(['fix', '--check', '--diff', 'web.yaml'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^--- a\/web\.yaml\n\+\+\+ b\/web\.yaml\n/);
      expect(r.stdout).toContain('-            runAsUser: 1000');
      expect(r.stderr).toContain('Would fix: web.yaml (1 change)');
    } finally {
      cleanup();
    }
  });

  test('--format json: the fix envelope with the files that would change', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB_TEXT, 'clean.yaml': CLEAN });
    try {
      const r = await cli(['fix', '--check', '--format', 'json', 'web.yaml', 'clean.yaml'], { cwd: dir });
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(report.check).toEqual({ wouldFix: [{ source: 'web.yaml', changes: 1 }] });
      expect(report.written).toBe(0);
      expect(report.dryRun).toBe(true);
    } finally {
      cleanup();
    }
  });

  test('standard input: checked, named as given', async () => {
    const r = await cli(['fix', '--check', '--stdin-filename', 'k8s/web.yaml', '-'], { stdin: WEB_TEXT });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Would fix: k8s/web.yaml (1 change)');
  });

  test('input that cannot be read: exit 2', async () => {
    const r = await cli(['fix', '--check', 'missing.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.yaml');
  });

  test.each([
    [['--write'], '--check writes nothing and fails when a fix is due: drop --write, or --check.'],
    [['--krm'], '--krm returns the fixed ResourceList to Kustomize; --check does not apply.'],
    [
      ['--format', 'sarif'],
      "--check reports the files a fix would change (text, json, junit or github); for SARIF of the findings, run 'k8s-windows lint --format sarif'.",
    ],
  ])('%j with --check is a usage error', async (extra, message) => {
    const r = await cli(['fix', '--check', ...extra, ...(extra[0] === '--krm' ? [] : ['windows-web.yaml'])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`k8s-windows: ${message}`);
  });
});
