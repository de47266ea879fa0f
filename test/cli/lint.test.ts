import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { loadManifests, validateManifests } from '../../lib/core/validate';
import type { Diagnostic, ValidateOptions } from '../../lib/core/model/types';
import { cli, columnOf, FIXTURES, lineOf, tempTree } from '../helpers/cli';
import { FIX_OPTIONS } from '../../lib/cli/fixable';
import { RULES_BY_ID } from '../../lib/core/validate';

const WEB = 'windows-web.yaml';
const WEB_TEXT = readFileSync(path.join(FIXTURES, WEB), 'utf8');
const CONFIGMAP_TEXT = readFileSync(path.join(FIXTURES, 'configmap.yaml'), 'utf8');

/** What the engine says about the fixture, loaded under the name the CLI shows. */
function expected(options: ValidateOptions = {}, source = WEB, text = WEB_TEXT): Diagnostic[] {
  return validateManifests(loadManifests(text, source), options);
}

/**
 * JSON output minus what the CLI adds to the engine's diagnostics: where each points (source, line, column, tested
 * in input.test.ts) and the input problems.
 */
function engineView(report: unknown): Diagnostic[] {
  return (
    report as {
      findings: (Diagnostic & {
        source?: string;
        line?: number;
        column?: number;
        fixable: boolean;
        fixableWith?: string;
      })[];
    }
  ).findings.map(
    ({ source: _source, line: _line, column: _column, fixable: _fixable, fixableWith: _fixableWith, ...d }) => d,
  );
}

async function lintJson(...args: string[]): Promise<{ code: number; diagnostics: Diagnostic[]; stderr: string }> {
  const r = await cli(['lint', '--format', 'json', ...args]);
  return { code: r.code, diagnostics: engineView(JSON.parse(r.stdout)), stderr: r.stderr };
}

describe('k8s-windows lint --format json', () => {
  test('prints exactly what validateManifests returns, pretty with 2 spaces', async () => {
    const r = await cli(['lint', '--format', 'json', WEB]);
    const diagnostics = expected();
    expect(engineView(JSON.parse(r.stdout))).toEqual(diagnostics);
    expect(r.stdout).toMatch(/^\{\n {2}"tool": \{\n {4}"name": "k8s-windows",/);
    expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
  });

  test('the forbidden field is reported with its API-server path, its message id and its file', async () => {
    const { diagnostics } = await lintJson(WEB);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        ruleId: 'windows-forbidden-field',
        messageId: 'forbidden',
        severity: 'error',
        path: 'spec.template.spec.containers[0].securityContext.runAsUser',
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop', source: WEB },
      }),
    );
  });

  test('exit 0 and no findings for a clean manifest', async () => {
    const r = await cli(['lint', '--format', 'json', 'configmap.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      tool: {
        name: 'k8s-windows',
        version: expect.any(String),
        factsChecked: { newest: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), oldest: expect.any(String) },
      },
      summary: {
        inputs: 1,
        objects: 1,
        skippedDocuments: 0,
        errors: 0,
        warnings: 0,
        info: 0,
        fixable: 0,
        suppressed: 0,
        inputProblems: 0,
      },
      findings: [],
      inputProblems: [],
    });
  });

  test('exit 0 when only warnings and info remain', async () => {
    const { code, diagnostics } = await lintJson('--severity', 'windows-forbidden-field=warning', WEB);
    expect(diagnostics.some((d) => d.severity === 'error')).toBe(
      expected({ rules: { 'windows-forbidden-field': 'warning' } }).some((d) => d.severity === 'error'),
    );
    expect(code).toBe(diagnostics.some((d) => d.severity === 'error') ? 1 : 0);
  });

  test('all objects are validated together, across files', async () => {
    const { diagnostics } = await lintJson(WEB, 'configmap.yaml');
    const objects = [...loadManifests(WEB_TEXT, WEB), ...loadManifests(CONFIGMAP_TEXT, 'configmap.yaml')];
    expect(diagnostics).toEqual(validateManifests(objects));
  });
});

describe('rule options', () => {
  test('--disable turns a rule off', async () => {
    const { diagnostics } = await lintJson('--disable', 'windows-forbidden-field', WEB);
    expect(diagnostics.map((d) => d.ruleId)).not.toContain('windows-forbidden-field');
    expect(diagnostics).toEqual(expected({ rules: { 'windows-forbidden-field': 'off' } }));
  });

  test('--disable takes comma lists and repeats', async () => {
    const all = expected();
    const ids = [...new Set(all.map((d) => d.ruleId))];
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const { code, diagnostics } = await lintJson(
      '--disable',
      ids.slice(0, -1).join(','),
      '--disable',
      ids[ids.length - 1],
      WEB,
    );
    expect(diagnostics).toEqual([]);
    expect(code).toBe(0);
  });

  test('--severity re-levels and turns off', async () => {
    const { code, diagnostics } = await lintJson('--severity', 'windows-forbidden-field=info', WEB);
    expect(diagnostics.find((d) => d.ruleId === 'windows-forbidden-field')?.severity).toBe('info');
    expect(diagnostics).toEqual(expected({ rules: { 'windows-forbidden-field': 'info' } }));
    expect(code).toBe(diagnostics.some((d) => d.severity === 'error') ? 1 : 0);

    const off = await lintJson('--severity', 'windows-forbidden-field=off', WEB);
    expect(off.diagnostics.map((d) => d.ruleId)).not.toContain('windows-forbidden-field');
  });

  test('--windows-release and --kubernetes-version reach the engine', async () => {
    const withRelease = await lintJson('--windows-release', '2022', WEB);
    expect(withRelease.diagnostics).toEqual(expected({ windowsRelease: '2022' }));
    const withVersion = await lintJson('--kubernetes-version', '1.30', WEB);
    expect(withVersion.diagnostics).toEqual(expected({ kubernetesVersion: '1.30' }));
  });

  test('--quiet keeps errors only', async () => {
    const { diagnostics } = await lintJson('--quiet', WEB);
    expect(diagnostics).toEqual(expected().filter((d) => d.severity === 'error'));
    expect(diagnostics.length).toBeGreaterThan(0);
  });

  test('--quiet prints nothing in text format when there are no errors', async () => {
    const r = await cli(['lint', '--quiet', 'configmap.yaml']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('unknown rule ids are a usage error naming the id and close matches', async () => {
    const r = await cli(['lint', '--disable', 'windows-forbiden-field', '--severity', 'hostnetwork=off', WEB]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        "k8s-windows: --disable: unknown rule 'windows-forbiden-field'. Did you mean 'windows-forbidden-field'?",
        "k8s-windows: --severity: unknown rule 'hostnetwork'. Did you mean 'windows-host-network', 'hostprocess-host-network'?",
        "Run 'k8s-windows lint --help' for usage.",
        '',
      ].join('\n'),
    );
  });

  test('bad option values are usage errors', async () => {
    for (const args of [
      ['--format', 'xml'],
      ['--severity', 'windows-forbidden-field=fatal'],
      ['--windows-release', '1809'],
      ['--kubernetes-version', 'latest'],
      ['--bogus'],
    ]) {
      const r = await cli(['lint', ...args, WEB]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^k8s-windows: /);
    }
    expect((await cli(['lint', '--windows-release', '1809', WEB])).stderr).toContain(
      "k8s-windows: --windows-release: Windows release '1809' is not a release name. Write '2019'.",
    );
  });
});

describe('inputs', () => {
  test('- reads standard input, shown as <stdin>', async () => {
    const r = await cli(['lint', '--format', 'json', '-'], { stdin: WEB_TEXT });
    expect(engineView(JSON.parse(r.stdout))).toEqual(expected({}, '<stdin>'));
    expect(r.code).toBe(1);
  });

  test('- reads a stream (Helm output piped in)', async () => {
    const half = Math.floor(WEB_TEXT.length / 2);
    const stdin = Readable.from([Buffer.from(WEB_TEXT.slice(0, half)), WEB_TEXT.slice(half)]);
    const r = await cli(['lint', '-'], { stdin });
    expect(r.stdout.split('\n')[0]).toBe('<stdin>');
    expect(r.code).toBe(1);
  });

  test('- without a standard input is unreadable input', async () => {
    const r = await cli(['lint', '-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('k8s-windows: <stdin>: standard input is not available.\n');
  });

  test('directories are walked recursively for .yaml, .yml and .json, skipping node_modules and dot entries', async () => {
    const deployment = WEB_TEXT;
    const tree = tempTree({
      'a.yaml': deployment,
      'sub/b.yml': deployment.replace(/name: web/g, 'name: web-b'),
      'sub/deeper/c.JSON': JSON.stringify(loadManifests(CONFIGMAP_TEXT)[0]),
      'notes.txt': 'not a manifest',
      'node_modules/dep/x.yaml': deployment,
      '.git/x.yaml': deployment,
      '.hidden.yaml': deployment,
    });
    try {
      const r = await cli(['lint', '--format', 'json', '.'], { cwd: tree.dir });
      const sources = new Set(engineView(JSON.parse(r.stdout)).map((d) => d.resource.source));
      expect([...sources].sort()).toEqual(['a.yaml', 'sub/b.yml']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');

      // The configmap in sub/deeper/c.JSON was read too: it is clean, so it shows in the object count only.
      const text = await cli(['lint', '--disable', 'windows-forbidden-field', path.join(tree.dir, 'sub/deeper')], {
        cwd: tree.dir,
      });
      expect(text.stdout).toBe('✔ No problems in 1 object from 1 input.\n');
    } finally {
      tree.cleanup();
    }
  });

  test('in directories, documents without a kind are not manifests; a file named explicitly is checked whole', async () => {
    const tree = tempTree({
      'dist/app.k8s.yaml': WEB_TEXT,
      'dist/construct-metadata.json': JSON.stringify({ version: '1.0.0', resources: {} }),
      'chart/values.yaml': 'replicaCount: 2\n',
    });
    try {
      const walked = await cli(['lint', '--format', 'json', '.'], { cwd: tree.dir });
      const diagnostics = engineView(JSON.parse(walked.stdout));
      expect(new Set(diagnostics.map((d) => d.resource.source))).toEqual(new Set(['dist/app.k8s.yaml']));
      const named = await cli(['lint', '--format', 'json', 'chart/values.yaml'], { cwd: tree.dir });
      expect(engineView(JSON.parse(named.stdout)).map((d) => d.ruleId)).toEqual(['input-invalid-document']);
    } finally {
      tree.cleanup();
    }
  });

  test('a file named twice, or named and inside a named directory, is read once', async () => {
    const tree = tempTree({ 'm/a.yaml': WEB_TEXT });
    try {
      const once = await cli(['lint', '--format', 'json', 'm/a.yaml'], { cwd: tree.dir });
      const twice = await cli(['lint', '--format', 'json', 'm/a.yaml', 'm', './m/a.yaml'], { cwd: tree.dir });
      expect(twice.stdout).toBe(once.stdout);
    } finally {
      tree.cleanup();
    }
  });

  test('a missing file is exit 2, and the other inputs are still linted', async () => {
    const r = await cli(['lint', '--format', 'json', 'missing.yaml', WEB]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('k8s-windows: missing.yaml: no such file or directory.\n');
    expect(engineView(JSON.parse(r.stdout))).toEqual(expected());
  });

  test('text summary does not claim a clean run when input was unreadable', async () => {
    const r = await cli(['lint', 'missing.yaml', 'configmap.yaml']);
    expect(r).toEqual({
      code: 2,
      stdout: '✖ No problems in 1 object from 1 input; 1 input problem reported on stderr.\n',
      stderr: 'k8s-windows: missing.yaml: no such file or directory.\n',
    });
  });

  test('a directory without manifests is exit 2', async () => {
    const tree = tempTree({ 'README.md': '# nothing here' });
    try {
      const r = await cli(['lint', tree.dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`k8s-windows: ${tree.dir}: no manifest files (.yaml, .yml, .json) in this directory.\n`);
    } finally {
      tree.cleanup();
    }
  });

  test('a malformed document is reported with file:line:column, exit 2, and the good documents are linted', async () => {
    const broken = `${WEB_TEXT}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n`;
    const tree = tempTree({ 'broken.yaml': broken });
    try {
      const r = await cli(['lint', '--format', 'json', 'broken.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      const reports = r.stderr.trimEnd().split('\n');
      expect(reports.length).toBeGreaterThan(0);
      for (const report of reports) {
        const m = /^k8s-windows: broken\.yaml:(\d+):(\d+): .+$/.exec(report);
        expect(m).not.toBeNull();
        expect(Number(m![1])).toBeGreaterThanOrEqual(lineOf(broken, 'metadata: {name: [unclosed'));
      }
      expect(engineView(JSON.parse(r.stdout))).toEqual(expected({}, 'broken.yaml'));
    } finally {
      tree.cleanup();
    }
  });

  test('a byte-order mark does not break the first key', async () => {
    const r = await cli(['lint', '--format', 'json', '-'], { stdin: `\uFEFF${WEB_TEXT}` });
    expect(engineView(JSON.parse(r.stdout))).toEqual(expected({}, '<stdin>'));
  });
});

describe('text output', () => {
  test('grouped by file, then resource; line:column of the offending field; fix; summary', async () => {
    const r = await cli(['lint', WEB]);
    const byRule = (id: string) => {
      const d = expected().find((x) => x.ruleId === id);
      if (d === undefined) throw new Error(`fixture no longer triggers ${id}`);
      return d;
    };
    const forbidden = byRule('windows-forbidden-field');
    const probe = byRule('windows-startup-probe');
    const local = byRule('windows-service-external-traffic-local');
    const pad = ' '.repeat(20);
    const pos = (needle: string, shift = 0) =>
      `${lineOf(WEB_TEXT, needle)}:${columnOf(WEB_TEXT, needle) + shift}`.padEnd(5);
    expect(r.stdout).toBe(
      [
        WEB,
        '  Deployment shop/web',
        // No startupProbe field exists: the nearest ancestor, the container (its map, after "- "), gives the line.
        `    ${pos('- name: web', 2)}  info     ${probe.message}  windows-startup-probe`,
        `${pad}at spec.template.spec.containers[0].startupProbe`,
        `${pad}fix: ${probe.fix}`,
        // The message names the path already, so no "at" line.
        // `k8s-windows fix` has a fixer for this rule: marked, and counted under the summary.
        `    ${pos('runAsUser: 1000')}  error    ${forbidden.message}  windows-forbidden-field (fixable)`,
        `${pad}fix: ${forbidden.fix}`,
        '  Service shop/web',
        `    ${pos('externalTrafficPolicy: Local')}  warning  ${local.message}  windows-service-external-traffic-local`,
        `${pad}fix: ${local.fix}`,
        '',
        '✖ 3 problems (1 error, 1 warning, 1 info) in 2 objects from 1 input',
        '  1 of them potentially fixable with `k8s-windows fix`.',
        '',
      ].join('\n'),
    );
    expect(forbidden.message).toContain(forbidden.path);
    expect(r.code).toBe(1);
  });

  test('fixes are printed under the diagnostic', async () => {
    const r = await cli(['lint', WEB]);
    const withFix = expected().find((d) => d.fix !== undefined);
    expect(withFix).toBeDefined();
    expect(r.stdout).toContain(`fix: ${withFix!.fix}`);
  });

  test('a clean run says so', async () => {
    const r = await cli(['lint', 'configmap.yaml']);
    expect(r).toEqual({ code: 0, stdout: '✔ No problems in 1 object from 1 input.\n', stderr: '' });
  });

  test('colour on a TTY only, NO_COLOR turns it off, FORCE_COLOR forces it either way', async () => {
    const hasAnsi = async (isTTY: boolean, env: Record<string, string>) =>
      (await cli(['lint', WEB], { isTTY, env })).stdout.includes('\u001b[');
    expect(await hasAnsi(true, {})).toBe(true);
    expect(await hasAnsi(false, {})).toBe(false);
    expect(await hasAnsi(true, { NO_COLOR: '1' })).toBe(false);
    expect(await hasAnsi(true, { TERM: 'dumb' })).toBe(false);
    expect(await hasAnsi(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(await hasAnsi(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(await hasAnsi(true, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(true);
  });

  test('errors are red on a TTY', async () => {
    const r = await cli(['lint', WEB], { isTTY: true });
    expect(r.stdout).toContain('\u001b[31merror  \u001b[0m');
  });
});

describe('issue 36: an empty spec.os.name, hostNetwork: true and a hostPort other than the containerPort', () => {
  /** The pod the fix fuzz left: the API server refuses it twice over, whatever its OS. */
  const POD = [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: agent',
    'spec:',
    '  os:',
    '    name: ""',
    '  hostNetwork: true',
    '  containers:',
    '  - name: agent',
    '    image: registry.example.com/team/agent:3.2.1',
    '    ports:',
    '    - containerPort: 80',
    '      hostPort: 8080',
    '',
  ].join('\n');
  const errors = (ds: readonly Diagnostic[]) =>
    ds.filter((d) => d.severity === 'error').map((d) => [d.ruleId, d.path, d.messageId]);
  const BOTH = [
    ['windows-os-name', 'spec.os.name', 'empty'],
    ['windows-host-port', 'spec.containers[0].ports[0].hostPort', 'not-windows'],
  ];

  test('lint reports both refusals, under the API-server rules', async () => {
    const r = await cli(['lint', '--format', 'json', '-'], { stdin: POD });
    expect(r.code).toBe(1);
    const diagnostics = engineView(JSON.parse(r.stdout));
    expect(errors(diagnostics)).toEqual(BOTH);
    expect(diagnostics.find((d) => d.ruleId === 'windows-host-port')).toMatchObject({
      message:
        'spec.containers[0].ports[0].hostPort 8080: Invalid value: must match `containerPort` (80) when `hostNetwork` is true; the API server refuses the pod, whatever its OS.',
      fix: "Set hostPort to 80 or remove it (on the host network the container's port is the node's port anyway), or remove hostNetwork.",
    });
    expect(diagnostics.find((d) => d.ruleId === 'windows-os-name')?.message).toBe(
      'spec.os.name is empty: Required value: cannot be empty.',
    );
  });

  test('fix changes nothing in a pod not known to be Windows, and reports both refusals as left', async () => {
    const r = await cli(['fix', '--format', 'json', '-'], { stdin: POD });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(POD);
    const report = JSON.parse(r.stderr) as { changes: unknown[]; refused: unknown[] };
    expect(report.changes).toEqual([]);
    expect(errors(engineView(report))).toEqual(BOTH);
  });

  test('with a Windows image the pod is Windows: fix sets the hostPort; the empty name is left, and reported', async () => {
    const windows = POD.replace(
      'registry.example.com/team/agent:3.2.1',
      'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
    );
    const lint = await cli(['lint', '--format', 'json', '-'], { stdin: windows });
    expect(errors(engineView(JSON.parse(lint.stdout)))).toEqual(
      expect.arrayContaining([
        ['windows-os-name', 'spec.os.name', 'empty'],
        ['windows-host-port', 'spec.containers[0].ports[0].hostPort', 'host-network'],
      ]),
    );
    const r = await cli(['fix', '--format', 'json', '-'], { stdin: windows });
    expect(r.stdout).toContain('      hostPort: 80\n');
    expect(r.stdout).toContain('    name: ""\n');
    const report = JSON.parse(r.stderr) as { changes: { ruleId: string; path: string }[] };
    expect(report.changes).toContainEqual(
      expect.objectContaining({ ruleId: 'windows-host-port', path: 'spec.containers[0].ports[0].hostPort' }),
    );
    expect(errors(engineView(report))).toEqual([['windows-os-name', 'spec.os.name', 'empty']]);
  });

  test.each([
    ['equals the container port', 'hostPort: 8080', 'hostPort: 80'],
    ['is unset', '\n      hostPort: 8080', ''],
  ])('no host-port finding when the host port %s: the empty name alone is left', async (_title, from, to) => {
    const r = await cli(['lint', '--format', 'json', '-'], { stdin: POD.replace(from, to) });
    expect(errors(engineView(JSON.parse(r.stdout)))).toEqual([['windows-os-name', 'spec.os.name', 'empty']]);
  });

  test('a Linux pod is refused for the port as well: reported, and fix leaves it as it is', async () => {
    const linux = POD.replace('name: ""', 'name: linux');
    const lint = await cli(['lint', '--format', 'json', '-'], { stdin: linux });
    expect(errors(engineView(JSON.parse(lint.stdout)))).toEqual([BOTH[1]]);
    const r = await cli(['fix', '-'], { stdin: linux });
    expect(r.stdout).toBe(linux);
  });
});

describe('YAML that holds no Kubernetes object, and keys written in another case (issue 34)', () => {
  const NOT_MANIFESTS = {
    'deploy/docker-compose.yml': 'services:\n  web:\n    image: nginx\n',
    'deploy/ci.yml': 'on: push\njobs:\n  test: {runs-on: windows-latest, steps: []}\n',
    'deploy/values.yaml': 'replicaCount: 2\n',
    // The config file is a dot file: read as the config, never walked as an input.
    '.k8s-windows.yaml': "rules:\n  windows-startup-probe: 'off'\n",
  };
  const NOTHING = 'No Kubernetes objects in 3 files (none has apiVersion and kind): nothing was checked.';

  test('text: a directory of YAML without manifests says what was read, never "No problems"; exit 0', async () => {
    const tree = tempTree(NOT_MANIFESTS);
    try {
      expect(await cli(['lint', 'deploy'], { cwd: tree.dir })).toEqual({ code: 0, stdout: `${NOTHING}\n`, stderr: '' });
      const one = await cli(['lint', 'deploy/values.yaml', '--', 'deploy'], { cwd: tree.dir });
      // Named on the command line, values.yaml is checked whole: a warning, as before.
      expect(one.stdout).toContain('Document 1 has no apiVersion or kind');
    } finally {
      tree.cleanup();
    }
  });

  test('text: one file, and a file without documents (a commit of a comment-only YAML file still passes)', async () => {
    const tree = tempTree({ 'deploy/values.yaml': 'replicaCount: 2\n', 'empty.yaml': '# nothing yet\n' });
    try {
      expect(await cli(['lint', 'deploy'], { cwd: tree.dir })).toEqual({
        code: 0,
        stdout: 'No Kubernetes objects in 1 file (it has no apiVersion and kind): nothing was checked.\n',
        stderr: '',
      });
      expect(await cli(['lint', 'empty.yaml'], { cwd: tree.dir })).toEqual({
        code: 0,
        stdout: 'No Kubernetes objects in 1 file: nothing was checked.\n',
        stderr: '',
      });
    } finally {
      tree.cleanup();
    }
  });

  test('json: the summary counts the documents left out, and no object', async () => {
    const tree = tempTree(NOT_MANIFESTS);
    try {
      const r = await cli(['lint', '--format', 'json', 'deploy'], { cwd: tree.dir });
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as Record<string, unknown>;
      expect([report.summary, report.findings, report.inputProblems]).toEqual([
        {
          inputs: 3,
          objects: 0,
          skippedDocuments: 3,
          errors: 0,
          warnings: 0,
          info: 0,
          fixable: 0,
          suppressed: 0,
          inputProblems: 0,
        },
        [],
        [],
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test('sarif: a note notification; github: a notice', async () => {
    const tree = tempTree(NOT_MANIFESTS);
    try {
      const sarif = await cli(['lint', '--format', 'sarif', 'deploy'], { cwd: tree.dir });
      const run = (JSON.parse(sarif.stdout) as { runs: { invocations: unknown[]; results: unknown[] }[] }).runs[0];
      expect([sarif.code, run.invocations, run.results]).toEqual([
        0,
        [{ executionSuccessful: true, toolExecutionNotifications: [{ level: 'note', message: { text: NOTHING } }] }],
        [],
      ]);
      expect(await cli(['lint', '--format', 'github', 'deploy'], { cwd: tree.dir })).toEqual({
        code: 0,
        stdout: `::notice title=k8s-windows::${NOTHING}\n`,
        stderr: '',
      });
    } finally {
      tree.cleanup();
    }
  });

  const MISCASED = 'apiVersion: v1\nKind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: production}\n';
  const KIND_MESSAGE =
    "Document 1 writes 'Kind': did you mean kind? kubectl reads keys case-sensitively and refuses the document (Object 'Kind' is missing in '…'); it is checked here as if kind were written.";

  test('text: Kind: is an error at its line, on the object it names; exit 1', async () => {
    const r = await cli(['lint', '--stdin-filename', 'settings.yaml', '-'], { stdin: MISCASED });
    expect(r).toEqual({
      code: 1,
      stdout: [
        'settings.yaml',
        '  ConfigMap settings',
        `    2:1  error    ${KIND_MESSAGE}  input-invalid-document`,
        '                  fix: Write kind, not Kind: Kubernetes field names are case-sensitive.',
        '',
        '✖ 1 problem (1 error, 0 warnings, 0 info) in 1 object from 1 input',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  test('json: the finding as the engine gives it, with its line', async () => {
    const r = await cli(['lint', '--format', 'json', '--stdin-filename', 'settings.yaml', '-'], { stdin: MISCASED });
    expect((JSON.parse(r.stdout) as { findings: unknown[] }).findings).toEqual([
      {
        ruleId: 'input-invalid-document',
        messageId: 'wrong-case',
        severity: 'error',
        message: KIND_MESSAGE,
        fix: 'Write kind, not Kind: Kubernetes field names are case-sensitive.',
        path: 'Kind',
        resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', source: 'settings.yaml' },
        location: { object: 0, segments: ['Kind'], position: { source: 'settings.yaml', line: 2, column: 1 } },
        source: 'settings.yaml',
        line: 2,
        column: 1,
        fixable: false,
      },
    ]);
  });

  test('in a directory, Kind: and apiversion: beside a good document: both judged, the Windows finding on each', async () => {
    const bad = WEB_TEXT.replace(/^apiVersion: apps\/v1\nkind: Deployment$/m, 'apiversion: apps/v1\nKind: Deployment');
    expect(bad).not.toBe(WEB_TEXT);
    const tree = tempTree({ 'm/good.yaml': WEB_TEXT, 'm/bad.yaml': bad, 'm/values.yaml': 'replicaCount: 2\n' });
    try {
      const r = await cli(['lint', '--format', 'json', 'm'], { cwd: tree.dir });
      const findings = (JSON.parse(r.stdout) as { findings: (Diagnostic & { line?: number })[] }).findings;
      const of = (source: string, ruleId: string) =>
        findings.filter((d) => d.resource.source === source && d.ruleId === ruleId).map((d) => [d.path, d.line]);
      expect(of('m/bad.yaml', 'input-invalid-document')).toEqual([
        ['apiversion', lineOf(bad, 'apiversion:')],
        ['Kind', lineOf(bad, 'Kind:')],
      ]);
      expect(of('m/good.yaml', 'input-invalid-document')).toEqual([]);
      // The same Windows finding on both, at the same line: the misspelt one is judged as meant.
      expect(of('m/bad.yaml', 'windows-forbidden-field')).toEqual(of('m/good.yaml', 'windows-forbidden-field'));
      expect(of('m/bad.yaml', 'windows-forbidden-field')).not.toEqual([]);
      expect((JSON.parse(r.stdout) as { summary: unknown }).summary).toMatchObject({ objects: 4, skippedDocuments: 1 });
      expect(r.code).toBe(1);
    } finally {
      tree.cleanup();
    }
  });
});

describe('a finding plain fix leaves alone is not called fixable: lint names the option of fix that fixes it', () => {
  /** A Windows Deployment without a toleration beside a Linux one pinned to no OS: a hybrid set. */
  const HYBRID = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: win, namespace: shop}',
    'spec:',
    '  selector: {matchLabels: {app: win}}',
    '  template:',
    '    metadata: {labels: {app: win}}',
    '    spec:',
    '      os: {name: windows}',
    '      nodeSelector: {kubernetes.io/os: windows}',
    '      containers: [{name: web, image: mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022}]',
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: api, namespace: shop}',
    'spec:',
    '  selector: {matchLabels: {app: api}}',
    '  template:',
    '    metadata: {labels: {app: api}}',
    '    spec:',
    '      containers: [{name: api, image: nginx:1.27}]',
    '',
  ].join('\n');

  test('text: (fixable with --toleration), (fixable with --pin-linux), and the summary says which command fixes them', async () => {
    const tree = tempTree({ 'hybrid.yaml': HYBRID });
    try {
      const r = await cli(['lint', '--no-config', 'hybrid.yaml'], { cwd: tree.dir });
      expect(r.stdout).toMatch(/ windows-toleration-missing \(fixable with --toleration\)$/m);
      expect(r.stdout).toMatch(/ linux-node-selector-missing \(fixable with --pin-linux\)$/m);
      expect(r.stdout).not.toMatch(/windows-toleration-missing \(fixable\)|linux-node-selector-missing \(fixable\)/);
      // image-build-unpinned: plain fix pins the build the image needs.
      expect(r.stdout.trimEnd().split('\n').slice(-3)).toEqual([
        '  1 of them potentially fixable with `k8s-windows fix`.',
        '  1 more with `k8s-windows fix --toleration <key=value:Effect>`.',
        '  1 more with `k8s-windows fix --pin-linux`.',
      ]);
      const windowsOnly = await cli(
        ['lint', '--no-config', '--disable', 'image-build-unpinned,linux-node-selector-missing', 'hybrid.yaml'],
        {
          cwd: tree.dir,
        },
      );
      expect(windowsOnly.stdout.trimEnd().split('\n').slice(-1)).toEqual([
        '  1 of them potentially fixable with `k8s-windows fix --toleration <key=value:Effect>`.',
      ]);
      // The config file gives fix what the options give: plain fix then fixes both.
      const withConfig = tempTree({
        'hybrid.yaml': HYBRID,
        '.k8s-windows.yaml': 'pinLinux: true\ntolerations: ["os=windows:NoSchedule"]\n',
      });
      try {
        const configured = await cli(['lint', 'hybrid.yaml'], { cwd: withConfig.dir });
        expect(configured.stdout).toMatch(/ windows-toleration-missing \(fixable\)$/m);
        expect(configured.stdout).toMatch(/ linux-node-selector-missing \(fixable\)$/m);
        expect(configured.stdout.trimEnd().split('\n').slice(-1)).toEqual([
          '  3 of them potentially fixable with `k8s-windows fix`.',
        ]);
      } finally {
        withConfig.cleanup();
      }
      // --cloud gke taints Windows nodes itself: fix --cloud gke adds the toleration.
      const gke = await cli(['lint', '--no-config', '--cloud', 'gke', 'hybrid.yaml'], { cwd: tree.dir });
      expect(gke.stdout).toMatch(/ windows-toleration-missing \(fixable\)$/m);
    } finally {
      tree.cleanup();
    }
  });

  test('json: fixable is false and fixableWith names the option; the summary counts only what plain fix fixes', async () => {
    const r = await cli(['lint', '--no-config', '--format', 'json', '--stdin-filename', 'hybrid.yaml', '-'], {
      stdin: HYBRID,
    });
    const report = JSON.parse(r.stdout) as {
      summary: { fixable: number };
      findings: { ruleId: string; fixable: boolean; fixableWith?: string }[];
    };
    const by = (id: string) => report.findings.find((f) => f.ruleId === id);
    expect(by('windows-toleration-missing')).toMatchObject({
      fixable: false,
      fixableWith: '--toleration <key=value:Effect>',
    });
    expect(by('linux-node-selector-missing')).toMatchObject({ fixable: false, fixableWith: '--pin-linux' });
    expect(report.summary.fixable).toBe(report.findings.filter((f) => f.fixable).length);
  });

  test("each option named is one the rule's own fixable text names", () => {
    const needing = [...RULES_BY_ID.values()].filter((r) => r.fixNeeds !== undefined);
    expect(needing.map((r) => [r.id, r.fixNeeds]).sort()).toEqual([
      ['linux-node-selector-missing', 'pinLinux'],
      ['windows-toleration-missing', 'tolerations'],
    ]);
    for (const r of needing) expect(r.fixable).toContain(FIX_OPTIONS[r.fixNeeds!].option.split(' ')[0]);
  });
});
