import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { validateXML } from 'xmllint-wasm';
import { formatJunit } from '../../lib/cli/format-junit';
import type { Diagnostic } from '../../lib/core/model/types';
import { cli, FIXTURES, lineOf, tempTree } from '../helpers/cli';

/** The schemas CI systems read JUnit XML by (provenance in test/fixtures/junit/SOURCES.md). */
const SCHEMAS = ['ant-junit.xsd', 'jenkins-junit-10.xsd'].map((file) => ({
  fileName: file,
  contents: readFileSync(path.join(__dirname, '../fixtures/junit', file), 'utf8'),
}));
const REALWORLD = path.join(__dirname, '../fixtures/realworld');

/** libxml2's XSD validation of `xml` against each schema: the errors, none when valid. */
async function schemaErrors(xml: string): Promise<string[]> {
  const errors: string[] = [];
  for (const schema of SCHEMAS) {
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
    errors.push(...result.errors.map((e) => `${schema.fileName}: ${e.rawMessage}`));
  }
  return errors;
}

/** The elements of a tag with their attributes (the output is ours, one element per line). */
function elements(xml: string, tag: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const m of xml.matchAll(new RegExp(`<${tag}((?:\\s+[\\w-]+="[^"]*")*)\\s*/?>`, 'g'))) {
    out.push(Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])));
  }
  return out;
}

const WEB = 'windows-web.yaml';
const WEB_TEXT = readFileSync(path.join(FIXTURES, WEB), 'utf8');

describe('k8s-windows lint --format junit', () => {
  test('one suite per file, one test case per object, a failure for the object with an error', async () => {
    const r = await cli(['lint', '--format', 'junit', WEB]);
    expect(r.code).toBe(1);
    expect(await schemaErrors(r.stdout)).toEqual([]);
    expect(elements(r.stdout, 'testsuite')).toEqual([
      expect.objectContaining({ name: WEB, tests: '2', failures: '1', errors: '0', package: 'k8s-windows', id: '0' }),
    ]);
    expect(elements(r.stdout, 'testcase')).toEqual([
      { classname: 'windows-web', name: 'Deployment shop/web', time: '0' },
      { classname: 'windows-web', name: 'Service shop/web', time: '0' },
    ]);
    const failures = elements(r.stdout, 'failure');
    expect(failures).toEqual([
      {
        type: 'windows-forbidden-field',
        message:
          'spec.template.spec.containers[0].securityContext.runAsUser 1000: Forbidden: cannot be set for a windows pod.',
      },
    ]);
    // The failure's text lists the finding where it is, then the object's findings below the threshold.
    expect(r.stdout).toContain(
      `${WEB}:${lineOf(WEB_TEXT, 'runAsUser')}:13: error windows-forbidden-field: spec.template.spec.containers[0].securityContext.runAsUser 1000`,
    );
    expect(r.stdout).toContain('info windows-startup-probe');
    // The Service passes at --fail-on error: its warning is in the suite's output.
    expect(r.stdout).toMatch(/<system-out>Service shop\/web:\n[^<]*warning windows-service-external-traffic-local/);
  });

  test('--fail-on warning makes the warning a failure too', async () => {
    const r = await cli(['lint', '--format', 'junit', '--fail-on', 'warning', WEB]);
    expect(await schemaErrors(r.stdout)).toEqual([]);
    expect(elements(r.stdout, 'testsuite')[0]).toMatchObject({ tests: '2', failures: '2' });
    expect(elements(r.stdout, 'failure').map((f) => f.type)).toEqual([
      'windows-forbidden-field',
      'windows-service-external-traffic-local',
    ]);
    expect(elements(r.stdout, 'property')).toContainEqual({ name: 'failOn', value: 'warning' });
  });

  test('more warnings than --max-warnings: the warnings are failures, as they fail the run', async () => {
    const r = await cli([
      'lint',
      '--format',
      'junit',
      '--max-warnings',
      '0',
      '--disable',
      'windows-forbidden-field',
      WEB,
    ]);
    expect(r.code).toBe(1);
    expect(await schemaErrors(r.stdout)).toEqual([]);
    expect(elements(r.stdout, 'failure').map((f) => f.type)).toEqual(['windows-service-external-traffic-local']);
    expect(elements(r.stdout, 'property')).toContainEqual({ name: 'failOn', value: 'warning' });
    const within = await cli([
      'lint',
      '--format',
      'junit',
      '--max-warnings',
      '1',
      '--disable',
      'windows-forbidden-field',
      WEB,
    ]);
    expect(within.code).toBe(0);
    expect(elements(within.stdout, 'failure')).toEqual([]);
  });

  test('several failing findings on one object: one failure (the schema allows one) naming the first and the count', async () => {
    const { dir, cleanup } = tempTree({
      'pod.yaml': [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: p}',
        'spec:',
        '  os: {name: windows}',
        '  hostPID: true',
        '  containers:',
        '  - name: c',
        '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022',
        '    securityContext: {runAsUser: 1, privileged: true}',
      ].join('\n'),
    });
    try {
      const r = await cli(['lint', '--format', 'junit', 'pod.yaml'], { cwd: dir });
      expect(await schemaErrors(r.stdout)).toEqual([]);
      const failures = elements(r.stdout, 'failure');
      expect(failures).toHaveLength(1);
      const errorLines = r.stdout.split('\n').filter((l) => / error [a-z-]+: /.test(l));
      expect(errorLines.length).toBeGreaterThanOrEqual(3);
      expect(failures[0].message).toMatch(new RegExp(`\\(and ${errorLines.length - 1} more\\)$`));
    } finally {
      cleanup();
    }
  });

  test('input problems are errors: a test case per file that could not be read or parsed', async () => {
    const { dir, cleanup } = tempTree({ 'bad.yaml': 'kind: Pod\nmetadata: {name: [\n', 'ok.yaml': WEB_TEXT });
    try {
      const r = await cli(['lint', '--format', 'junit', 'bad.yaml', 'missing.yaml', 'ok.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(await schemaErrors(r.stdout)).toEqual([]);
      const suites = elements(r.stdout, 'testsuite');
      expect(suites.map((s) => [s.name, s.tests, s.failures, s.errors])).toEqual([
        ['ok.yaml', '2', '1', '0'],
        ['missing.yaml', '1', '0', '1'],
        ['bad.yaml', '1', '0', '1'],
      ]);
      expect(elements(r.stdout, 'error').map((e) => e.type)).toEqual(['input-problem', 'input-problem']);
      expect(r.stdout).toContain('>missing.yaml: no such file or directory.</error>');
    } finally {
      cleanup();
    }
  });

  test('suppressed findings are no failure, and are listed with their reason', async () => {
    const text = WEB_TEXT.replace(
      '  name: web\n  namespace: shop\nspec:\n  replicas',
      '  name: web\n  namespace: shop\n  annotations:\n    suppress.k8s-windows.io/windows-startup-probe: warmed by the load balancer\nspec:\n  replicas',
    );
    expect(text).not.toBe(WEB_TEXT);
    const { dir, cleanup } = tempTree({ 'web.yaml': text });
    try {
      const r = await cli(['lint', '--format', 'junit', 'web.yaml'], { cwd: dir });
      expect(await schemaErrors(r.stdout)).toEqual([]);
      expect(r.stdout).toMatch(
        /Deployment shop\/web \(suppressed\):\n[^<]*windows-startup-probe[^<]*suppressed: warmed/,
      );
    } finally {
      cleanup();
    }
  });

  test('every real-world manifest in test/fixtures/realworld gives a valid report', async () => {
    const files = readdirSync(REALWORLD).filter((f) => /\.ya?ml$/.test(f));
    const r = await cli(['lint', '--format', 'junit', ...files], { cwd: REALWORLD });
    expect(r.stderr).toBe('');
    expect(await schemaErrors(r.stdout)).toEqual([]);
    const suites = elements(r.stdout, 'testsuite');
    expect(suites).toHaveLength(files.length);
    const cases = elements(r.stdout, 'testcase');
    expect(cases.length).toBe(suites.reduce((n, s) => n + Number(s.tests), 0));
    expect(elements(r.stdout, 'failure').length).toBe(suites.reduce((n, s) => n + Number(s.failures), 0));
  });
});

describe('k8s-windows fix --format junit', () => {
  test('the findings left after fixing, one test case per object', async () => {
    const r = await cli(['fix', '--dry-run', '--format', 'junit', WEB]);
    expect(await schemaErrors(r.stdout)).toEqual([]);
    expect(elements(r.stdout, 'testcase').map((c) => c.name)).toEqual(['Deployment shop/web', 'Service shop/web']);
    // runAsUser is fixed: nothing at error is left.
    expect(elements(r.stdout, 'failure')).toEqual([]);
    expect(r.code).toBe(0);
  });

  test('--check: each object a fix would change fails with its changes', async () => {
    const r = await cli(['fix', '--check', '--format', 'junit', WEB]);
    expect(r.code).toBe(1);
    expect(await schemaErrors(r.stdout)).toEqual([]);
    const failures = elements(r.stdout, 'failure');
    expect(failures).toEqual([
      { type: 'windows-forbidden-field', message: expect.stringMatching(/^k8s-windows fix would change this: /) },
    ]);
  });
});

describe('formatJunit', () => {
  const diagnostic = (message: string, name: string): Diagnostic => ({
    ruleId: 'windows-forbidden-field',
    severity: 'error',
    message,
    path: 'spec.hostPID',
    resource: { kind: 'Pod', name, source: 'a.yaml' },
    location: { object: 0, path: ['spec', 'hostPID'] } as unknown as Diagnostic['location'],
  });

  test('any text in names, messages and paths gives a valid document', async () => {
    // Sampled, then validated in one libxml2 run per schema (one run per document would take seconds each).
    const samples = fc.sample(fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), 200);
    const docs = samples.map(([name, message], i) => ({
      fileName: `sample-${i}.xml`,
      contents: formatJunit([{ diagnostic: diagnostic(message, name), source: `a${name}.yaml`, line: 1, column: 1 }], {
        objects: [{ source: `a${name}.yaml`, resource: { kind: 'Pod', name } }],
        problems: [{ source: name, message }],
        failOn: 'error',
        tool: { name: 'k8s-windows', version: '0.0.0', informationUri: 'https://example.invalid' },
        timestamp: new Date(0),
      }),
    }));
    for (const schema of SCHEMAS) {
      const result = await validateXML({ xml: docs, schema: [schema] });
      expect(result.errors.map((e) => `${schema.fileName}: ${e.rawMessage}`)).toEqual([]);
    }
  });
});
