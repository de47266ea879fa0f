import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RULES } from '../../lib/core/validate';
import { RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import type { RuleInfo } from '../../lib/core/model/types';
import { readPackageInfo } from '../../lib/cli/package-info';
import { useColor } from '../../lib/cli/io';
import { describeProblem } from '../../lib/cli/report';
import { describeFsError, displayPath, isManifestFile } from '../../lib/cli/files';
import { cli, FIXTURES } from '../helpers/cli';

const ROOT = path.join(__dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

describe('help and version', () => {
  test('--help lists the commands', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const r = await cli(argv);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: k8s-windows <command> \[options\]/);
      expect(r.stdout).toContain('  lint [options] <files|directories|->');
      expect(r.stdout).toContain('  rules [id] [--format text|json|markdown]');
    }
  });

  test('lint --help documents options and exit codes', async () => {
    for (const argv of [
      ['lint', '--help'],
      ['lint', '-h'],
      ['help', 'lint'],
    ]) {
      const r = await cli(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: k8s-windows lint \[options\] <files\|directories\|->/);
      for (const option of [
        '--format',
        '--disable',
        '--severity',
        '--windows-release',
        '--kubernetes-version',
        '--quiet',
        '--config',
        '--no-config',
        '--fail-on',
        '--max-warnings',
      ]) {
        expect(r.stdout).toContain(option);
      }
      expect(r.stdout).toContain('--windows-release <2019|2022|2025>');
      expect(r.stdout).toContain('suppress.k8s-windows.io/<rule>: "<why this finding is accepted>"');
      expect(r.stdout).toContain('Config file (.k8s-windows.yaml;');
      expect(r.stdout).toContain('Exit codes:\n  0  no finding at the --fail-on severity (default: error)');
      expect(r.stdout).toContain('  1  findings that fail the run (by default: at least one error)');
      expect(r.stdout).toContain('  2  bad usage, or input that could not be read');
    }
  });

  test('rules --help', async () => {
    const r = await cli(['rules', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: k8s-windows rules \[--format text\|json\|markdown\]/);
  });

  test('--version prints the package version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: '' });
  });

  test('no command, unknown command: usage errors on stderr, exit 2', async () => {
    expect(await cli([])).toEqual({
      code: 2,
      stdout: '',
      stderr: "k8s-windows: no command given.\nRun 'k8s-windows --help' for usage.\n",
    });
    expect(await cli(['lnt', 'x.yaml'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "k8s-windows: unknown command 'lnt'. Did you mean 'lint'? Commands: lint, fix, rules, facts, policies, doctor.\nRun 'k8s-windows --help' for usage.\n",
    });
  });
});

describe('k8s-windows rules', () => {
  test('text: one aligned row per rule with id, default severity and summary', async () => {
    const r = await cli(['rules']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(RULES.length + 1);
    const idWidth = Math.max(4, ...RULES.map((x) => x.id.length));
    expect(lines[0]).toBe(`${'RULE'.padEnd(idWidth)}  SEVERITY  SUMMARY`);
    RULES.forEach((rule, i) => {
      const summary = rule.fixable !== undefined ? `${rule.summary} [fixable]` : rule.summary;
      expect(lines[i + 1]).toBe(`${rule.id.padEnd(idWidth)}  ${rule.defaultSeverity.padEnd(8)}  ${summary}`);
    });
  });

  test('json: the catalogue as RULES holds it, each rule with its messages by id (manifest and cloud rules)', async () => {
    const r = await cli(['rules', '--format', 'json']);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as (RuleInfo & { messages?: Record<string, { description: string }> })[];
    expect(listed.map(({ messages: _m, ...info }) => info)).toEqual(RULES);
    const byId = new Map((RULE_MODULES as readonly RuleModule[]).map((m) => [m.meta.id, m]));
    for (const rule of listed) {
      const declared = byId.get(rule.id)?.messages ?? {};
      expect(rule.messages).toEqual(
        Object.keys(declared).length === 0
          ? undefined
          : Object.fromEntries(Object.entries(declared).map(([id, m]) => [id, { description: m.description }])),
      );
    }
    expect(listed.find((x) => x.id === 'windows-host-port')?.messages).toHaveProperty('host-network');
    expect(listed.find((x) => x.id === 'aks-windows-cni')?.messages).toEqual({
      kubenet: { description: "networkPlugin 'kubenet', which takes no Windows pools." },
      'byo-cni': { description: "networkPlugin 'none' (bring your own CNI), which AKS refuses Windows pools on." },
    });
  });

  test('sarif is not a rules format', async () => {
    const r = await cli(['rules', '--format', 'sarif']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "k8s-windows: --format 'sarif' is not one of text, json, markdown.\nRun 'k8s-windows rules --help' for usage.\n",
    );
  });
});

describe('the bin as a process', () => {
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const main = path.join(ROOT, 'lib/cli/main.ts');
  const spawn = (args: string[], input?: string) =>
    spawnSync(process.execPath, [tsx, main, ...args], {
      cwd: FIXTURES,
      input,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
      timeout: 60_000,
    });

  test('lint a fixture: text output, exit 1', () => {
    const r = spawn(['lint', 'windows-web.yaml']);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['windows-web.yaml', '  Deployment shop/web']);
    expect(r.stdout).toContain('windows-forbidden-field');
    expect(r.status).toBe(1);
  });

  test('stdin piped in, json out; a clean manifest exits 0', () => {
    const r = spawn(['lint', '--format', 'json', '-'], readFileSync(path.join(FIXTURES, 'configmap.yaml'), 'utf8'));
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: { name: 'k8s-windows' }, findings: [], inputProblems: [] });
    expect(r.status).toBe(0);
  });

  test('bad usage: a message, no stack trace, exit 2', () => {
    const r = spawn(['lint', '--format', 'xml', 'missing.yaml']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "k8s-windows: --format 'xml' is not one of text, json, sarif, junit, github.\nRun 'k8s-windows lint --help' for usage.\n",
    );
    expect(r.status).toBe(2);
  });
});

describe('helpers', () => {
  test('useColor: TTY, NO_COLOR, TERM=dumb, FORCE_COLOR', () => {
    expect(useColor({}, true)).toBe(true);
    expect(useColor({}, false)).toBe(false);
    expect(useColor({ NO_COLOR: '' }, true)).toBe(true);
    expect(useColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(useColor({ TERM: 'dumb' }, true)).toBe(false);
    expect(useColor({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(useColor({ FORCE_COLOR: 'false' }, true)).toBe(false);
  });

  test('describeProblem: as much location as is known', () => {
    expect(describeProblem({ message: 'm' })).toBe('m');
    expect(describeProblem({ source: 'a.yaml', message: 'm' })).toBe('a.yaml: m');
    expect(describeProblem({ source: 'a.yaml', line: 3, column: 7, message: 'm' })).toBe('a.yaml:3:7: m');
  });

  test('files: extensions, display paths, fs errors in words', () => {
    expect(['a.yaml', 'b.YML', 'c.json', 'd.txt', 'yaml'].map(isManifestFile)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(displayPath(path.join('/work', 'x', 'y.yaml'), '/work')).toBe('x/y.yaml');
    expect(displayPath('/elsewhere/y.yaml', '/work')).toBe('../elsewhere/y.yaml');
    expect(describeFsError(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied.');
    expect(describeFsError(new Error('boom'))).toBe('boom');
  });

  test('package info is found from the compiled location too, and missing package.json is not a crash', () => {
    expect(readPackageInfo(path.join(ROOT, 'build', 'cli')).version).toBe(PACKAGE.version);
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-pkg-'));
    try {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'other', version: '9.9.9' }));
      expect(readPackageInfo(dir)).toEqual({
        name: 'k8s-windows',
        version: '0.0.0',
        informationUri: 'https://www.npmjs.com/package/k8s-windows',
      });
      writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({
          name: 'k8s-windows',
          version: '1.2.3',
          repository: { url: 'git+https://github.com/o/r.git' },
        }),
      );
      expect(readPackageInfo(dir)).toEqual({
        name: 'k8s-windows',
        version: '1.2.3',
        informationUri: 'https://github.com/o/r',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('rules --format markdown prints the README table', async () => {
  const r = await cli(['rules', '--format', 'markdown']);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines.slice(0, 2)).toEqual([
    '| rule | severity | family | what it finds | why | why this severity | `fix` |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ]);
  expect(lines[2]).toMatch(
    /^\| \[`windows-forbidden-field`\]\(https:\/\/kubernetes\.io\/.*\) \| error \| api-server \| /,
  );
});
