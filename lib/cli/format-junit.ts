/**
 * JUnit XML output of `lint` and `fix` (`--format junit`), for CI systems that show test reports (Jenkins, GitLab,
 * Azure Pipelines, CircleCI, Buildkite): one test suite per input file, one test case per checked object, a failure
 * when the object has findings at the `--fail-on` severity or above, and an error test case per file whose input
 * could not be read or parsed.
 *
 * The output validates against both schemas CI tools read it by: the strict Apache Ant schema
 * (windyroad/JUnit-Schema `JUnit.xsd`) and Jenkins' (jenkinsci/xunit-plugin `junit-10.xsd`); copies with their
 * provenance are in test/fixtures/junit. The Ant schema shapes it: a test case holds at most one failure, so every
 * finding of an object is listed in that one failure's text (its message names the first and the count); test cases
 * have no output of their own, so findings below the threshold and suppressed ones go to the suite's system-out.
 */
import { hostname as osHostname } from 'node:os';
import { resourceRef } from '../core/validate/report';
import type { Diagnostic, ResourceRef, Severity } from '../core/model/types';
import { STDIN_SOURCE, type InputProblem } from './files';
import type { LocatedDiagnostic } from './locate';
import type { PackageInfo } from './package-info';

/** An object that was checked: the input it came from and what it is. */
export interface CheckedObject {
  /** The input's display name: relative path, or `<stdin>` (or the `--stdin-filename`). */
  readonly source: string;
  readonly resource: ResourceRef;
}

export interface JunitFormatOptions {
  /** Every object checked, in input order: each is a test case. */
  readonly objects: readonly CheckedObject[];
  /**
   * How a finding names its object: its index in `objects` (lint: the engine's `location.object`), or by
   * source, kind, namespace and name when the objects were listed apart from the run that found them (fix).
   * @default 'index'
   */
  readonly match?: 'index' | 'identity';
  readonly problems: readonly InputProblem[];
  /** The lowest severity that fails the run: findings at it or above are failures. */
  readonly failOn: Severity;
  readonly tool: PackageInfo;
  /** When the run started; written without a time zone, as the Ant schema wants it (UTC). */
  readonly timestamp: Date;
  /** Where the run was, as Ant writes it. @default - the machine's host name, else 'localhost' */
  readonly hostname?: string;
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The package name Ant writes on aggregated suites; ours groups every suite under the tool. */
const SUITE_PACKAGE = 'k8s-windows';
/** Suite for input problems that name no file (rare: a problem with the run's inputs as a whole). */
const NO_SOURCE_SUITE = '(inputs)';
/** Test case name for a file's input problems. */
const INPUT_CASE = '(input)';
/** Test case for findings that name no object the run listed (kept, never dropped). */
const FILE_CASE = '(file)';

interface Case {
  readonly name: string;
  readonly findings: LocatedDiagnostic[];
  readonly problems: InputProblem[];
}

interface Suite {
  readonly source: string;
  readonly cases: Case[];
  readonly byKey: Map<string, Case>;
}

/** The JUnit XML document. */
export function formatJunit(findings: readonly LocatedDiagnostic[], options: JunitFormatOptions): string {
  const suites = new Map<string, Suite>();
  const suiteOf = (source: string): Suite => {
    let suite = suites.get(source);
    if (suite === undefined) {
      suite = { source, cases: [], byKey: new Map() };
      suites.set(source, suite);
    }
    return suite;
  };
  const addCase = (suite: Suite, name: string, key?: string): Case => {
    // Two objects of one name in a file (a mistake the API server also refuses) stay two test cases.
    const taken = new Set(suite.cases.map((c) => c.name));
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name} #${n}`;
    const c: Case = { name: unique, findings: [], problems: [] };
    suite.cases.push(c);
    if (key !== undefined && !suite.byKey.has(key)) suite.byKey.set(key, c);
    return c;
  };

  const objectCases = options.objects.map((o) => addCase(suiteOf(o.source), objectName(o.resource), identity(o)));
  for (const item of findings) {
    const at = item.diagnostic.location?.object;
    const byIndex = options.match !== 'identity' && at !== undefined ? objectCases[at] : undefined;
    if (byIndex !== undefined) {
      byIndex.findings.push(item);
      continue;
    }
    const source = item.source ?? item.diagnostic.resource.source ?? STDIN_SOURCE;
    const suite = suiteOf(source);
    const c =
      suite.byKey.get(identity({ source, resource: item.diagnostic.resource })) ??
      suite.cases.find((k) => k.name === FILE_CASE) ??
      addCase(suite, FILE_CASE);
    c.findings.push(item);
  }
  for (const p of options.problems) {
    const suite = suiteOf(p.source ?? NO_SOURCE_SUITE);
    const c = suite.cases.find((k) => k.name === INPUT_CASE) ?? addCase(suite, INPUT_CASE);
    c.problems.push(p);
  }

  const timestamp = options.timestamp.toISOString().slice(0, 19);
  const hostname = options.hostname ?? (osHostname().trim() || 'localhost');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  [...suites.values()].forEach((suite, id) => {
    const classname = classnameOf(suite.source);
    let failures = 0;
    let errors = 0;
    const caseXml: string[] = [];
    const systemOut: string[] = [];
    for (const c of suite.cases) {
      const open = `    <testcase classname="${attr(classname)}" name="${attr(c.name)}" time="0"`;
      const reported = c.findings.filter((f) => f.diagnostic.suppression?.honoured !== true);
      const failing = reported.filter((f) => RANK[f.diagnostic.severity] <= RANK[options.failOn]);
      const below = reported.filter((f) => RANK[f.diagnostic.severity] > RANK[options.failOn]);
      const suppressed = c.findings.filter((f) => f.diagnostic.suppression?.honoured === true);
      if (c.problems.length > 0) {
        errors++;
        const message = c.problems.length === 1 ? c.problems[0].message : `${c.problems.length} input problems`;
        caseXml.push(
          `${open}>`,
          `      <error type="input-problem" message="${attr(message)}">${text(c.problems.map(problemLine).join('\n'))}</error>`,
          '    </testcase>',
        );
      } else if (failing.length > 0) {
        failures++;
        const first = failing[0].diagnostic;
        const more = failing.length > 1 ? ` (and ${failing.length - 1} more)` : '';
        const body = [...failing.map(findingLines), ...below.map(findingLines)].join('\n');
        caseXml.push(
          `${open}>`,
          `      <failure type="${attr(first.ruleId)}" message="${attr(`${first.message}${more}`)}">${text(body)}</failure>`,
          '    </testcase>',
        );
      } else {
        caseXml.push(`${open}/>`);
      }
      if (failing.length === 0 && below.length > 0) systemOut.push(`${c.name}:`, ...below.map(findingLines));
      if (suppressed.length > 0) systemOut.push(`${c.name} (suppressed):`, ...suppressed.map(suppressedLines));
    }
    out.push(
      `  <testsuite package="${SUITE_PACKAGE}" id="${id}" name="${attr(suiteName(suite.source))}" timestamp="${timestamp}" hostname="${attr(hostname)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" time="0">`,
      '    <properties>',
      `      <property name="tool" value="${attr(`${options.tool.name} ${options.tool.version}`)}"/>`,
      `      <property name="failOn" value="${options.failOn}"/>`,
      '    </properties>',
      ...caseXml,
      `    <system-out>${text(systemOut.join('\n'))}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    );
  });
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/**
 * The severity at which findings are failures: `--fail-on`, or `warning` when more warnings are left than
 * `--max-warnings` allows, so a run that fails on its warnings shows them as failures rather than a green report.
 */
export function junitFailOn(
  diagnostics: readonly Diagnostic[],
  settings: { readonly failOn?: Severity; readonly maxWarnings?: number },
): Severity {
  const failOn = settings.failOn ?? 'error';
  if (failOn !== 'error' || settings.maxWarnings === undefined) return failOn;
  const warnings = diagnostics.filter((d) => d.severity === 'warning' && d.suppression?.honoured !== true).length;
  return warnings > settings.maxWarnings ? 'warning' : failOn;
}

/** The checked objects of loaded inputs, for `objects`. */
export function checkedObjects(
  loaded: readonly { readonly object: unknown; readonly source: string }[],
): CheckedObject[] {
  return loaded.map((l) => ({ source: l.source, resource: resourceRef(l.object) }));
}

/** The suite's name: the source, or a stand-in where it is blank (the Ant schema wants a non-empty token). */
function suiteName(source: string): string {
  return source.trim() === '' ? NO_SOURCE_SUITE : source;
}

/** `Deployment shop/web`: the kind, then the namespace and name as kubectl writes them. */
function objectName(r: ResourceRef): string {
  return `${r.kind ?? '(no kind)'} ${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name ?? '(no name)'}`;
}

function identity(o: CheckedObject): string {
  return [o.source, o.resource.kind ?? '', o.resource.namespace ?? '', o.resource.name ?? ''].join('\u0000');
}

/**
 * The class name of a file's test cases: its path without the extension, so Jenkins (which splits a class name at
 * its last dot into package and class) shows the directory and file name instead of `yaml`.
 */
function classnameOf(source: string): string {
  return source.replace(/\.(ya?ml|json)$/i, '');
}

function where(source: string | undefined, line: number | undefined, column: number | undefined): string {
  if (source === undefined) return '';
  return line === undefined ? source : `${source}:${line}:${column ?? 1}`;
}

/** A finding as lines of the failure's text: where, severity, rule, message, fix, field. */
function findingLines(item: LocatedDiagnostic): string {
  const d: Diagnostic = item.diagnostic;
  const at = where(item.source, item.line, item.column);
  return [
    `${at !== '' ? `${at}: ` : ''}${d.severity} ${d.ruleId}: ${d.message}`,
    ...(d.fix !== undefined ? [`  fix: ${d.fix}`] : []),
    ...(d.path !== '' ? [`  field: ${d.path}`] : []),
  ].join('\n');
}

function suppressedLines(item: LocatedDiagnostic): string {
  const s = item.diagnostic.suppression;
  return `${findingLines(item)}\n  suppressed: ${s?.reason ?? ''}`;
}

function problemLine(p: InputProblem): string {
  const at = where(p.source, p.line, p.column);
  return `${at !== '' ? `${at}: ` : ''}${p.message}`;
}

/**
 * Characters XML 1.0 cannot carry at all (C0 controls other than tab, newline and carriage return; lone surrogates;
 * U+FFFE and U+FFFF): shown as `\uXXXX` so a name or message holding one still yields a well-formed document.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function clean(value: string): string {
  return value.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element text: `&`, `<` and `>` escaped (`>` for `]]>`); CR as a reference, which parsers would fold. */
function text(value: string): string {
  return clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** An attribute value in double quotes; tab, newline and carriage return as references so they survive. */
function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}
