import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { escapeData, escapeProperty, formatGithub, workflowCommand } from '../../lib/cli/format-github';
import { printable } from '../../lib/cli/format-text';
import { cli, columnOf, FIXTURES, lineOf, tempTree } from '../helpers/cli';

const REALWORLD = path.join(__dirname, '../fixtures/realworld');
const WEB = 'windows-web.yaml';
const WEB_TEXT = readFileSync(path.join(FIXTURES, WEB), 'utf8');

/** A `%` only as the start of an escape the runner undoes. */
const VALUE_CHAR = String.raw`(?:[^%\r\n]|%25|%0D|%0A|%3A|%2C)`;
const PROPERTY = String.raw`(?:file|line|endLine|col|endColumn|title)=(?:(?![:,])${VALUE_CHAR})*`;
/** A workflow command line as the runner parses it (actions/runner ActionCommand, @actions/core command.ts). */
const WELL_FORMED = new RegExp(
  String.raw`^::(?:error|warning|notice)(?: ${PROPERTY}(?:,${PROPERTY})*)?::${VALUE_CHAR}*$`,
);

/** The runner's unescaping (property values: also `%3A` and `%2C`), `%25` last. */
const unescapeProperty = (v: string): string =>
  v.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
const unescapeData = (v: string): string => v.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

function parse(line: string): { command: string; props: Record<string, string>; message: string } {
  const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (m === null) throw new Error(`not a workflow command: ${line}`);
  const props = Object.fromEntries(
    (m[2] ?? '')
      .split(',')
      .filter((p) => p !== '')
      .map((p) => [p.slice(0, p.indexOf('=')), unescapeProperty(p.slice(p.indexOf('=') + 1))]),
  );
  return { command: m[1], props, message: unescapeData(m[3]) };
}

describe('k8s-windows lint --format github', () => {
  test('one workflow command per finding, severities mapped, at the file, line and column', async () => {
    const r = await cli(['lint', '--format', 'github', WEB]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(WELL_FORMED);
    const parsed = lines.map(parse);
    expect(parsed.map((p) => [p.command, p.props.title])).toEqual([
      ['error', 'k8s-windows windows-forbidden-field'],
      ['notice', 'k8s-windows windows-startup-probe'],
      ['warning', 'k8s-windows windows-service-external-traffic-local'],
    ]);
    expect(parsed[0].props).toEqual({
      file: WEB,
      line: String(lineOf(WEB_TEXT, 'runAsUser')),
      col: String(columnOf(WEB_TEXT, 'runAsUser')),
      title: 'k8s-windows windows-forbidden-field',
    });
    expect(parsed[0].message).toBe(
      "Deployment shop/web: spec.template.spec.containers[0].securityContext.runAsUser 1000: Forbidden: cannot be set for a windows pod. Fix: Use securityContext.windowsOptions.runAsUserName (e.g. 'ContainerUser') instead.",
    );
  });

  test('files are named relative to GITHUB_WORKSPACE when the run is in a subdirectory of it', async () => {
    const r = await cli(['lint', '--format', 'github', WEB], { env: { GITHUB_WORKSPACE: path.dirname(FIXTURES) } });
    expect(parse(r.stdout.split('\n')[0]).props.file).toBe(`fixtures/${WEB}`);
  });

  test('--quiet leaves errors only; input problems are errors at their file', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB_TEXT, 'bad.yaml': 'kind: Pod\nmetadata: {name: [\n' });
    try {
      const r = await cli(['lint', '--format', 'github', '--quiet', 'web.yaml', 'bad.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      const lines = r.stdout.trimEnd().split('\n');
      for (const line of lines) expect(line).toMatch(WELL_FORMED);
      const parsed = lines.map(parse);
      expect(parsed.map((p) => p.command)).toEqual(['error', 'error', 'error']);
      expect(parsed[0].props.title).toBe('k8s-windows windows-forbidden-field');
      expect(parsed[1].props).toMatchObject({ file: 'bad.yaml', title: 'k8s-windows input', line: '3', col: '1' });
    } finally {
      cleanup();
    }
  });

  test('control characters from a manifest or a file name are written as visible escapes, never raw', async () => {
    // YAML's \0, \a and \e are NUL, BEL and ESC; the namespace carries a C1 CSI and a bidi override.
    const pod = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: "p\\0\\a\\e[31mred"',
      '  namespace: "ns\\x7f\\u009b\\u202e"',
      'spec:',
      '  os: {name: windows}',
      '  nodeSelector: {kubernetes.io/os: windows}',
      '  tolerations: [{key: os, value: windows, effect: NoSchedule}]',
      '  containers:',
      '  - name: c',
      '    image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
      '    securityContext: {runAsUser: 1000}',
      '',
    ].join('\n');
    const { dir, cleanup } = tempTree({});
    try {
      const name = 'evil\u001b[31m\u0007.yaml';
      writeFileSync(path.join(dir, name), pod);
      const r = await cli(['lint', '--format', 'github', name], { cwd: dir });
      expect(r.code).toBe(1);
      // eslint-disable-next-line no-control-regex
      expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      const lines = r.stdout.trimEnd().split('\n');
      for (const line of lines) expect(line).toMatch(WELL_FORMED);
      const forbidden = parse(lines.find((l) => l.includes('windows-forbidden-field')) ?? '');
      expect(forbidden.props.file).toBe('evil\\u001b[31m\\u0007.yaml');
      expect(forbidden.message).toMatch(
        /^Pod ns\\u007f\\u009b\\u202e\/p\\u0000\\u0007\\u001b\[31mred: spec\.containers\[0\]\.securityContext\.runAsUser 1000: Forbidden/,
      );
      // An input problem's file is escaped the same way.
      writeFileSync(path.join(dir, name), 'kind: [\n');
      const bad = await cli(['lint', '--format', 'github', name], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(parse(bad.stdout.trimEnd()).props.file).toBe('evil\\u001b[31m\\u0007.yaml');
    } finally {
      cleanup();
    }
  });

  test('every line of the report on the real-world manifests is well formed', async () => {
    const files = readdirSync(REALWORLD).filter((f) => /\.ya?ml$/.test(f));
    const r = await cli(['lint', '--format', 'github', ...files], { cwd: REALWORLD });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) expect(line).toMatch(WELL_FORMED);
    expect(new Set(lines.map((l) => parse(l).command))).toEqual(new Set(['error', 'warning', 'notice']));
  });
});

describe('k8s-windows fix --format github', () => {
  test('--check: a file-level error per change a fix would make', async () => {
    const r = await cli(['fix', '--check', '--format', 'github', WEB]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(WELL_FORMED);
    expect(lines.map(parse)).toEqual([
      {
        command: 'error',
        props: { file: WEB, title: 'k8s-windows windows-forbidden-field' },
        message: expect.stringMatching(/^Deployment shop\/web: k8s-windows fix would change this: remove/),
      },
    ]);
  });
});

describe('workflow command escaping', () => {
  test('any property value and message round-trip through the runner, control characters shown as printable shows them', () => {
    // Line breaks are the runner's to carry (%0D, %0A); every other control character reaches it escaped.
    const shown = (s: string) => s.replace(/[^\r\n]+/g, (run) => printable(run));
    const control = fc.constantFrom(
      '\u0000',
      '\u0007',
      '\t',
      '\u001b[31m',
      '\u007f',
      '\u009b',
      '\u202e',
      '\r',
      '\n',
      '%',
    );
    const text = fc.array(fc.oneof(control, fc.string({ unit: 'binary' }))).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (value, message) => {
        const line = workflowCommand('warning', { file: value, title: value, line: 3 }, message).replace(/\n$/, '');
        expect(line).not.toContain('\n');
        expect(line).toMatch(WELL_FORMED);
        // eslint-disable-next-line no-control-regex
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
        const parsed = parse(line);
        expect(parsed.message).toBe(shown(message));
        expect(parsed.props).toEqual({
          ...(value !== '' ? { file: shown(value), title: shown(value) } : {}),
          line: '3',
        });
      }),
    );
  });

  test('the characters GitHub names', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
  });

  test('other control characters as the text report shows them: not %XX, which the runner would not undo', () => {
    expect(escapeData('a\u0000b\u0007c\u001b[31md\te\u007f\r\n')).toBe(
      'a\\u0000b\\u0007c\\u001b[31md\\te\\u007f%0D%0A',
    );
    expect(escapeProperty('x\u001b[31m:y,\u0000')).toBe('x\\u001b[31m%3Ay%2C\\u0000');
  });

  test('standard input has no file property', () => {
    const out = formatGithub(
      [
        {
          diagnostic: {
            ruleId: 'x',
            severity: 'info',
            message: 'm',
            path: '',
            resource: { kind: 'Pod', name: 'p' },
          },
          source: '<stdin>',
          line: 1,
          column: 1,
        },
      ],
      { cwd: '/', problems: [] },
    );
    expect(out).toBe('::notice line=1,col=1,title=k8s-windows x::Pod p: m\n');
  });
});
