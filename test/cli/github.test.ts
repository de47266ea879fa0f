import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { escapeData, escapeProperty, formatGithub, workflowCommand } from '../../lib/cli/format-github';
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
  test('any property value and message round-trip through the runner and keep the line well formed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (value, message) => {
        const line = workflowCommand('warning', { file: value, title: value, line: 3 }, message).replace(/\n$/, '');
        expect(line).not.toContain('\n');
        expect(line).toMatch(WELL_FORMED);
        const parsed = parse(line);
        expect(parsed.message).toBe(message);
        expect(parsed.props).toEqual({ ...(value !== '' ? { file: value, title: value } : {}), line: '3' });
      }),
    );
  });

  test('the characters GitHub names', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
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
