/**
 * The JSON report of `lint` and of `fix --report json`: the tool, what was checked and what was found, each finding
 * with where it points and what fixes it.
 */
import { factsDates } from '../core/facts';
import type { Diagnostic } from '../core/model/types';
import type { InputProblem } from './files';
import { fixability, type FixSettings } from './fixable';
import type { LocatedDiagnostic } from './locate';
import { packageInfo } from './package-info';

/** What the JSON report says. */
export interface JsonReportInput {
  readonly findings: readonly LocatedDiagnostic[];
  readonly problems: readonly InputProblem[];
  readonly objects: number;
  readonly inputs: number;
  /** Documents of walked files that are no Kubernetes objects, left out (lint). @default - not in the summary */
  readonly skippedDocuments?: number;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The settings `fix` would read too: `fixable` is what plain fix changes, `fixableWith` the option it needs. @default {} */
  readonly fixSettings?: FixSettings;
}

/** The tool, what was checked and what was found: the JSON output of `lint` (and of `fix --format json`). */
export function jsonReport(input: JsonReportInput): Record<string, unknown> {
  const counts = { error: 0, warning: 0, info: 0 };
  let fixable = 0;
  let suppressed = 0;
  const findings = input.findings.map((item) => {
    const d = item.diagnostic;
    // A rule with a fixer, on a kind fix edits (it leaves Argo Workflows and Knative Services), that needs no option.
    const how = fixability(d, input.fixSettings ?? {});
    const isFixable = how === 'fix';
    if (d.suppression?.honoured === true) suppressed++;
    else {
      counts[d.severity]++;
      if (isFixable) fixable++;
    }
    return {
      ...jsonEntry(item),
      fixable: isFixable,
      ...(how !== undefined && how !== 'fix' ? { fixableWith: how.option } : {}),
    };
  });
  const info = packageInfo();
  return {
    tool: { name: info.name, version: info.version, factsChecked: factsDates() },
    summary: {
      inputs: input.inputs,
      objects: input.objects,
      ...(input.skippedDocuments !== undefined ? { skippedDocuments: input.skippedDocuments } : {}),
      errors: counts.error,
      warnings: counts.warning,
      info: counts.info,
      fixable,
      suppressed,
      inputProblems: input.problems.length,
    },
    ...(input.extra ?? {}),
    findings,
    inputProblems: input.problems.map(problemEntry),
  };
}

/** A finding in JSON output: the engine's fields plus where it points, as text and SARIF give it. */
function jsonEntry(item: LocatedDiagnostic): Diagnostic & { source?: string; line?: number; column?: number } {
  return {
    ...item.diagnostic,
    ...(item.source !== undefined ? { source: item.source } : {}),
    ...(item.line !== undefined ? { line: item.line, column: item.column } : {}),
    // A finding in a rendered chart or kustomization: where it is in what the tool printed.
    ...(item.rendered !== undefined ? { rendered: item.rendered } : {}),
  };
}

/** An input problem in JSON output: where, as far as known, and what. */
function problemEntry(p: InputProblem): Record<string, unknown> {
  return {
    message: p.message,
    // Only a problem that does not fail the run says so: an entry without it is an error (exit 2), as before.
    ...(p.severity !== undefined ? { severity: p.severity } : {}),
    ...(p.source !== undefined ? { source: p.source } : {}),
    ...(p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : {}),
  };
}
