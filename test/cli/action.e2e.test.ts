/**
 * The composite GitHub Action (action.yml) and its lint step, scripts/action.sh, run as a runner runs it: the
 * environment a runner sets (GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_ACTION_PATH, the INPUT_* the step passes), a
 * workspace with manifests and k8s-windows installed as node_modules/.bin/k8s-windows (this checkout's CLI), or
 * not installed: then the action's checkout is installed and built (npm and npx stand in for the registry).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { SarifLog } from '../../lib/cli/format-sarif';

const ROOT = path.join(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/action.sh');
const BAD = readFileSync(path.join(__dirname, 'fixtures/windows-web.yaml'), 'utf8');
const GOOD = [
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: good}',
  'spec:',
  '  os: {name: windows}',
  '  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}',
  '  containers:',
  '  - name: c',
  '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022',
  '',
].join('\n');

let work: string;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'k8s-windows-action-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** A shell script that runs this checkout's CLI. */
function cliShim(file: string, before = ''): void {
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  writeFileSync(
    file,
    `#!/bin/sh\n${before}exec "${process.execPath}" "${tsx}" "${path.join(ROOT, 'lib/cli/main.ts')}" "$@"\n`,
  );
  chmodSync(file, 0o755);
}

/** A checkout with `files`, and k8s-windows installed unless `installed` is false. */
function workspace(files: Readonly<Record<string, string>>, installed = true): string {
  const ws = path.join(work, 'ws');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  }
  if (installed) {
    mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
    cliShim(path.join(ws, 'node_modules/.bin/k8s-windows'));
  }
  return ws;
}

interface StepRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
}

/** Runs the step with the runner's environment and `inputs`; reads back what it wrote to GITHUB_OUTPUT. */
function runStep(ws: string, inputs: Readonly<Record<string, string>>, extraEnv: NodeJS.ProcessEnv = {}): StepRun {
  const output = path.join(work, 'github-output');
  writeFileSync(output, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: work,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: ws,
    GITHUB_OUTPUT: output,
    GITHUB_ACTION_PATH: ROOT,
    RUNNER_TEMP: work,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase().replace(/-/g, '_')}`, v])),
    ...extraEnv,
  };
  const r = spawnSync('bash', [SCRIPT], { cwd: work, env, encoding: 'utf8', timeout: 60_000 });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, outputs };
}

/** The defaults of action.yml's inputs, as the runner passes them when the workflow gives none. */
function defaults(): Record<string, string> {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default: string }>;
  };
  return Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default]));
}

describe('scripts/action.sh, the lint step of the GitHub Action', () => {
  test('findings: a SARIF file for the upload, annotations, the counts and exit code as outputs; the step passes', () => {
    const ws = workspace({ 'k8s/web.yaml': BAD, 'k8s/good.yaml': GOOD, 'docs/notes.yaml': 'not: a manifest\n' });
    const r = runStep(ws, { ...defaults(), paths: 'k8s' });
    expect(r.status).toBe(0);
    expect(r.outputs).toEqual({
      'sarif-file': 'k8s-windows.sarif',
      errors: '1',
      warnings: '1',
      notes: expect.stringMatching(/^\d+$/),
      'exit-code': '1',
    });
    const log = JSON.parse(readFileSync(path.join(ws, 'k8s-windows.sarif'), 'utf8')) as SarifLog;
    const results = log.runs[0].results;
    expect(
      results
        .filter((x) => x.level === 'error')
        .map((x) => [x.ruleId, x.locations[0].physicalLocation?.artifactLocation]),
    ).toEqual([['windows-forbidden-field', { uri: 'k8s/web.yaml', uriBaseId: '%SRCROOT%' }]]);
    expect(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${ws}/`);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toContainEqual(
      expect.stringMatching(
        /^::error file=k8s\/web\.yaml,line=\d+,col=\d+,title=k8s-windows windows-forbidden-field::/,
      ),
    );
    expect(annotations).toHaveLength(results.length);
  });

  test('clean manifests: exit-code 0', () => {
    const ws = workspace({ 'k8s/good.yaml': GOOD });
    const r = runStep(ws, { ...defaults(), paths: 'k8s', annotations: 'false' });
    expect(r.status).toBe(0);
    expect(r.outputs).toMatchObject({
      'sarif-file': 'k8s-windows.sarif',
      errors: '0',
      warnings: '0',
      'exit-code': '0',
    });
    expect(r.stdout).toBe('');
  });

  test('fail-on, args, several paths on lines, another SARIF file', () => {
    const ws = workspace({ 'a/web.yaml': BAD, 'b/good.yaml': GOOD });
    const r = runStep(ws, {
      ...defaults(),
      paths: 'a\nb/good.yaml',
      args: '--disable windows-forbidden-field',
      'fail-on': 'warning',
      'sarif-file': 'out/lint.sarif',
    });
    expect(r.outputs).toMatchObject({ 'sarif-file': 'out/lint.sarif', errors: '0', warnings: '1', 'exit-code': '1' });
    expect(existsSync(path.join(ws, 'out/lint.sarif'))).toBe(true);
  });

  test('paths are never taken as options: "m/bad.yaml --help" lints m/bad.yaml and a file named --help', () => {
    const ws = workspace({ 'm/bad.yaml': BAD, '--help': GOOD });
    const r = runStep(ws, { ...defaults(), paths: 'm/bad.yaml --help' });
    expect(r.status).toBe(0);
    expect(r.outputs).toMatchObject({ 'exit-code': '1', errors: '1' });
    expect(r.stdout).not.toContain('Usage');
  });

  test('a bad option: exit-code 2, no SARIF file to upload, the message in the log', () => {
    const ws = workspace({ 'k8s/web.yaml': BAD });
    const r = runStep(ws, { ...defaults(), paths: 'k8s', args: '--windows-release ltsc2022' });
    expect(r.status).toBe(0);
    expect(r.outputs).toEqual({ 'sarif-file': '', 'exit-code': '2' });
    expect(existsSync(path.join(ws, 'k8s-windows.sarif'))).toBe(false);
    expect(r.stderr).toContain("--windows-release: Windows release 'ltsc2022' is not a release name.");
  });

  test("without an installed k8s-windows: the action's checkout at a source commit, installed and built once (npm ci); or the npm version asked for", () => {
    const ws = workspace({ 'k8s/web.yaml': BAD }, false);
    // The action's checkout, and an npm that records what it is asked and "builds" by writing build/cli/main.js (a
    // script that runs this checkout's CLI); npx stands in for the registry the same way.
    const actionPath = path.join(work, 'action');
    mkdirSync(actionPath);
    const bin = path.join(work, 'bin');
    mkdirSync(bin);
    const calls = path.join(work, 'npm-calls');
    const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
    writeFileSync(
      path.join(work, 'main.js'),
      `const r = require('child_process').spawnSync(process.execPath, [${JSON.stringify(tsx)}, ${JSON.stringify(
        path.join(ROOT, 'lib/cli/main.ts'),
      )}, ...process.argv.slice(2)], { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`,
    );
    writeFileSync(
      path.join(bin, 'npm'),
      `#!/bin/sh\necho "npm $* in $PWD" >> "${calls}"\nmkdir -p build/cli node_modules && cp "${path.join(work, 'main.js')}" build/cli/main.js\n`,
    );
    chmodSync(path.join(bin, 'npm'), 0o755);
    cliShim(path.join(bin, 'npx'), `echo "npx $1 $2" >> "${calls}"\nshift 2\n`);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, GITHUB_ACTION_PATH: actionPath };
    const first = runStep(ws, { ...defaults(), paths: 'k8s' }, env);
    expect(first.outputs).toMatchObject({ 'exit-code': '1', errors: '1' });
    expect(first.stdout.split('\n').slice(0, 2)).toEqual([
      `::group::Installing k8s-windows from the action's checkout (${actionPath}): npm ci --no-audit --no-fund --loglevel=error`,
      '::endgroup::',
    ]);
    expect(runStep(ws, { ...defaults(), paths: 'k8s' }, env).outputs).toMatchObject({ 'exit-code': '1' });
    expect(runStep(ws, { ...defaults(), paths: 'k8s', version: '9.9.9' }, env).outputs['exit-code']).toBe('1');
    expect(
      readFileSync(calls, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ).toEqual([
      `npm ci --no-audit --no-fund --loglevel=error in ${actionPath}`,
      'npx --yes k8s-windows@9.9.9',
      'npx --yes k8s-windows@9.9.9',
    ]);
  });

  test('at a version tag (a release commit, the build committed): only the runtime dependencies, once, no build', () => {
    const ws = workspace({ 'k8s/web.yaml': BAD }, false);
    const actionPath = path.join(work, 'action');
    mkdirSync(path.join(actionPath, 'build/cli'), { recursive: true });
    const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
    writeFileSync(
      path.join(actionPath, 'build/cli/main.js'),
      `const r = require('child_process').spawnSync(process.execPath, [${JSON.stringify(tsx)}, ${JSON.stringify(
        path.join(ROOT, 'lib/cli/main.ts'),
      )}, ...process.argv.slice(2)], { stdio: 'inherit' });\nprocess.exit(r.status ?? 1);\n`,
    );
    const bin = path.join(work, 'bin');
    mkdirSync(bin);
    const calls = path.join(work, 'npm-calls');
    writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\necho "npm $* in $PWD" >> "${calls}"\nmkdir -p node_modules\n`);
    chmodSync(path.join(bin, 'npm'), 0o755);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, GITHUB_ACTION_PATH: actionPath };
    const first = runStep(ws, { ...defaults(), paths: 'k8s' }, env);
    expect(first.outputs).toMatchObject({ 'exit-code': '1', errors: '1' });
    expect(first.stdout.split('\n')[0]).toBe(
      `::group::Installing k8s-windows from the action's checkout (${actionPath}): npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error`,
    );
    expect(runStep(ws, { ...defaults(), paths: 'k8s' }, env).outputs).toMatchObject({ 'exit-code': '1' });
    expect(readFileSync(calls, 'utf8')).toBe(
      `npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error in ${actionPath}\n`,
    );
  });

  test("the action's checkout cannot be installed: exit-code 2, no SARIF file, an error annotation saying what to do", () => {
    const ws = workspace({ 'k8s/web.yaml': BAD }, false);
    const bin = path.join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "npm error code E404" >&2\nexit 1\n');
    chmodSync(path.join(bin, 'npm'), 0o755);
    const actionPath = path.join(work, 'action');
    mkdirSync(actionPath);
    const r = runStep(
      ws,
      { ...defaults(), paths: 'k8s' },
      {
        PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        GITHUB_ACTION_PATH: actionPath,
      },
    );
    expect(r.status).toBe(0);
    expect(r.outputs).toEqual({ 'exit-code': '2', 'sarif-file': '' });
    expect(r.stderr).toBe('npm error code E404\n');
    expect(r.stdout.split('\n')).toEqual([
      `::group::Installing k8s-windows from the action's checkout (${actionPath}): npm ci --no-audit --no-fund --loglevel=error`,
      '::endgroup::',
      `::error title=k8s-windows::npm ci --no-audit --no-fund --loglevel=error in the action's checkout (${actionPath}) failed (above): pin the action to a release tag, or set version: to a published k8s-windows version.`,
      '',
    ]);
  });

  test('outside a runner: says so', () => {
    const r = spawnSync('bash', [SCRIPT], { cwd: work, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('GITHUB_OUTPUT is not set: this script runs as a step of the k8s-windows action');
  });
});

describe('action.yml', () => {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
    name: string;
    description: string;
    inputs: Record<string, { description: string; default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: {
      using: string;
      steps: {
        id?: string;
        uses?: string;
        'continue-on-error'?: boolean;
        run?: string;
        if?: string;
        with?: Record<string, string>;
        env?: Record<string, string>;
      }[];
    };
  };

  test('a composite action: Node.js, the script, the SARIF upload that cannot fail the job, then the verdict', () => {
    expect(action.runs.using).toBe('composite');
    const [node, lint, upload, uploadFailed, forkSkipped, verdict] = action.runs.steps;
    expect(node).toEqual({ uses: 'actions/setup-node@v5', with: { 'node-version': '${{ inputs.node-version }}' } });
    expect(action.inputs['node-version'].default).toBe('22');
    expect(lint.run).toBe('bash "$GITHUB_ACTION_PATH/scripts/action.sh"');
    expect(upload).toMatchObject({
      id: 'upload',
      uses: 'github/codeql-action/upload-sarif@v4',
      'continue-on-error': true,
      with: { sarif_file: '${{ steps.lint.outputs.sarif-file }}', category: '${{ inputs.category }}' },
    });
    const fork = 'github.event.pull_request && github.event.pull_request.head.repo.full_name != github.repository';
    expect(upload.if).toBe(
      `always() && inputs.upload-sarif == 'true' && steps.lint.outputs.sarif-file != '' && !(${fork})`,
    );
    expect(uploadFailed.if).toBe("always() && steps.upload.outcome == 'failure'");
    expect(uploadFailed.run).toMatch(/^echo "::warning title=k8s-windows::The SARIF upload to code scanning failed/);
    expect(forkSkipped.if).toBe(
      `always() && inputs.upload-sarif == 'true' && steps.lint.outputs.sarif-file != '' && ${fork}`,
    );
    expect(forkSkipped.run).toMatch(
      /^echo "::notice title=k8s-windows::SARIF upload skipped: a pull request from a fork/,
    );
    expect(verdict.if).toBe("always() && steps.lint.outputs.exit-code != '0'");
  });

  test('every input reaches the script as the INPUT_ variable it reads, and every output is one it writes', () => {
    const script = readFileSync(SCRIPT, 'utf8');
    const env = action.runs.steps.find((s) => s.id === 'lint')?.env ?? {};
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description).not.toBe('');
      const variable = `INPUT_${name.toUpperCase().replace(/-/g, '_')}`;
      // Used by the upload step and by setup-node.
      if (name === 'upload-sarif' || name === 'category' || name === 'node-version') continue;
      expect(env[variable]).toBe(`\${{ inputs.${name} }}`);
      expect(script).toContain(variable);
    }
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.lint.outputs.${name} }}`);
      expect(script).toMatch(new RegExp(`"${name}=`));
    }
  });
});
