/**
 * The one writer of findings: what `lint` prints and what `fix` reports, in each of the five formats. A command
 * says what it found and where; this module decides what each format shows of it (`--quiet`, suppressed findings,
 * what `fix --check` would change), so a format behaves the same whichever command writes it.
 */
import type { Diagnostic, Severity } from '../core/model/types';
import { RULES } from '../core/validate';
import type { ReportFormat } from './args';
import type { InputProblem } from './files';
import { formatGithub } from './format-github';
import { jsonReport, type JsonReportInput } from './format-json';
import { formatJunit, type CheckedObject } from './format-junit';
import { formatSarif } from './format-sarif';
import { printable } from './format-text';
import { githubWorkspace, type OutputSink } from './io';
import { writeJson } from './json-out';
import type { LocatedDiagnostic, Locator } from './locate';
import { packageInfo, TOOL_NAME } from './package-info';

/** What a run reports: its findings, where they are, and what each format needs besides. */
export interface FindingsReport {
  readonly format: ReportFormat;
  /** The findings reported: none that an honoured suppression silences. */
  readonly findings: readonly Diagnostic[];
  /**
   * The findings an honoured suppression silences: SARIF lists them as suppressed, JSON and JUnit do too unless
   * `quiet`, text counts them.
   */
  readonly suppressed: readonly Diagnostic[];
  /** `--quiet`: errors only, no suppressed finding but in SARIF, and no text at all when no error is left. */
  readonly quiet: boolean;
  /** Where each finding is: in a rendered chart or kustomization, the template or resource file it comes from. */
  readonly locate: Locator;
  readonly problems: readonly InputProblem[];
  /**
   * What the run says besides its findings and problems (that it checked nothing): SARIF notifications, GitHub
   * notices.
   * @default none
   */
  readonly notes?: readonly string[];
  /** The directory sources are relative to. */
  readonly cwd: string;
  /** Where `GITHUB_WORKSPACE` is read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The JSON report's counts, and the command's own keys. */
  readonly json: Omit<JsonReportInput, 'findings' | 'problems'>;
  /** JUnit's test cases are the objects checked: each fails with the findings about it. */
  readonly junit: {
    readonly objects: () => readonly CheckedObject[];
    /** How a finding names its object (format-junit.ts). @default 'index' */
    readonly match?: 'index' | 'identity';
    /** Where each finding is for JUnit (`identity` matches by source, so not on a template). @default locate */
    readonly locate?: Locator;
    /** The lowest severity that fails the run. */
    readonly failOn: Severity;
    /** When the run started. */
    readonly timestamp: Date;
  };
  /**
   * `fix --check`: the changes a fix would make, as error findings. JUnit and GitHub report them instead of the
   * findings left, text its summary; JSON and SARIF still list the findings left (JSON with `check` in `json.extra`).
   * @default - not a check run
   */
  readonly wouldFix?: {
    readonly findings: readonly LocatedDiagnostic[];
    /** Where each is for GitHub: a chart's on its template. */
    readonly locate: Locator;
    readonly summary: string;
  };
  /** The text report of the findings shown: lint's list, fix's change report. */
  readonly text: (shown: {
    readonly findings: readonly LocatedDiagnostic[];
    readonly suppressed: readonly LocatedDiagnostic[];
  }) => string;
}

/** The report in its format, as a writer to a sink; undefined when `--quiet` leaves nothing to say. */
export function findingsReport(report: FindingsReport): ((sink: OutputSink) => void) | undefined {
  const shown = report.quiet ? report.findings.filter((d) => d.severity === 'error') : report.findings;
  const listedSuppressed = report.quiet ? [] : report.suppressed;
  const { locate } = report;
  switch (report.format) {
    case 'json': {
      const value = jsonReport({
        ...report.json,
        findings: [...shown, ...listedSuppressed].map(locate),
        problems: report.problems,
      });
      return (sink) => writeJson(value, sink);
    }
    case 'sarif': {
      const log = formatSarif([...shown, ...report.suppressed].map(locate), {
        rules: RULES,
        tool: packageInfo(),
        cwd: report.cwd,
        inputProblems: report.problems,
        notes: report.notes ?? [],
      });
      return (sink) => writeJson(log, sink);
    }
    case 'junit': {
      const check = report.wouldFix;
      const xml = formatJunit(
        check !== undefined ? check.findings : [...shown, ...listedSuppressed].map(report.junit.locate ?? locate),
        {
          objects: report.junit.objects(),
          ...(report.junit.match !== undefined ? { match: report.junit.match } : {}),
          problems: report.problems,
          failOn: check !== undefined ? 'error' : report.junit.failOn,
          tool: packageInfo(),
          timestamp: report.junit.timestamp,
        },
      );
      return (sink) => sink.write(xml);
    }
    case 'github': {
      const check = report.wouldFix;
      const findings = check !== undefined ? check.findings.map((f) => check.locate(f.diagnostic)) : shown.map(locate);
      const lines = formatGithub(findings, {
        cwd: report.cwd,
        problems: report.problems,
        notes: report.notes ?? [],
        ...githubWorkspace(report.env),
      });
      return (sink) => sink.write(lines);
    }
    case 'text': {
      const summary = report.wouldFix?.summary;
      if (summary !== undefined) return (sink) => sink.write(summary);
      if (report.quiet && shown.length === 0) return undefined;
      const text = report.text({ findings: shown.map(locate), suppressed: listedSuppressed.map(locate) });
      return (sink) => sink.write(text);
    }
    default: {
      const unknownFormat: never = report.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
}

/** `file:line:col: message`, with as much of the location as is known; file names and text escaped. */
export function describeProblem(p: InputProblem): string {
  const message = `${p.severity === 'warning' ? 'warning: ' : ''}${printable(p.message)}`;
  if (p.source === undefined) return message;
  if (p.line === undefined) return `${printable(p.source)}: ${message}`;
  return `${printable(p.source)}:${p.line}:${p.column ?? 1}: ${message}`;
}

/** The input problems, one line each, as `k8s-windows: file:line:col: message`. */
export function writeProblems(problems: readonly InputProblem[], sink: OutputSink): void {
  for (const p of problems) sink.write(`${TOOL_NAME}: ${describeProblem(p)}\n`);
}
