/**
 * `k8s-windows fix`: reads manifests as `lint` does, calls `fixManifestSet`, and prints the fixed manifests (or
 * rewrites the files with `--write`). The change report and the findings left go to standard error, as text or
 * JSON (report.ts, the writer lint uses too). `--krm` makes it a Kustomize exec KRM function (fix-krm.ts).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { fixManifestSet } from '../core/fix';
import { loadManifestsWithErrors } from '../core/validate';
import type { Diagnostic } from '../core/model/types';
import { isRecord } from '../core/model/util';
import type { FixCommand } from './args';
import { failsOnProblems, STDIN_SOURCE, type Input, type InputProblem } from './files';
import { checkSummary, changesAsFindings, wouldChange, type RenderedDirectory } from './fix-check';
import { runKrm } from './fix-krm';
import { formatChanges } from './format-changes';
import { checkedObjects, junitFailOn } from './format-junit';
import { imageLookups } from './images';
import { emptyStdinProblem, loadProblems, readInputs, withVersion } from './input';
import { EXIT_LINT_ERRORS, EXIT_OK, EXIT_USAGE, type CliIO, type OutputSink } from './io';
import type { LocatedDiagnostic } from './locate';
import { TOOL_NAME } from './package-info';
import { renderedSources } from './render';
import { findingsReport, writeProblems } from './report';
import { failsRun, fixOptionsOf, resolveRunSettings } from './settings';
import { encodeAs, writeAtomically } from './write';

export async function runFix(command: FixCommand, io: CliIO): Promise<number> {
  const started = new Date();
  const cwd = io.cwd ?? process.cwd();
  const { settings, ignored } = resolveRunSettings(command, cwd, io.env ?? process.env);
  const { read, problems } = await readInputs(
    withVersion(command, settings),
    io,
    ignored,
    command.write ? refuseWrite : undefined,
  );
  if (command.krm) return runKrm(read[0]?.text, problems, settings, io);

  // --resolve-images: the registries' answers first, so the image rules and their fixers can read them.
  const images = await imageLookups(
    () => read.flatMap((r) => loadManifestsWithErrors(r.text).objects),
    settings,
    (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
  );
  const result = fixManifestSet(
    read.map(({ input, text, display }) => ({
      text,
      source: display,
      manifestsOnly: input.kind === 'file' && input.discovered,
    })),
    { ...fixOptionsOf(settings), ...(images !== undefined ? { images } : {}) },
  );
  read.forEach(({ input, display }, i) => {
    if (input.kind !== 'stdin' || command.allowEmpty || result.objectCounts[i] > 0) return;
    if (result.errors.some((e) => e.source === display)) return;
    problems.push(emptyStdinProblem(display));
  });
  for (const { text, display } of read) {
    // One by one: a spread of every malformed document's problem passes the engine's argument limit.
    const errors = result.errors.filter((e) => (e.source ?? STDIN_SOURCE) === display);
    for (const p of loadProblems(errors, text, display)) problems.push(p);
  }

  let written = 0;
  const notWritten: string[] = [];
  if (command.write) {
    for (const [i, { input, text, snapshot }] of read.entries()) {
      const out = result.texts[i];
      if (input.kind !== 'file' || snapshot === undefined || out === text) continue;
      const outcome = await writeAtomically(input.path, encodeAs(out, snapshot.encoding), {
        snapshot,
        root: input.root,
        display: input.display,
        ...(io.fs !== undefined ? { fs: io.fs } : {}),
      });
      if (outcome.written) {
        written++;
        continue;
      }
      notWritten.push(input.display);
      problems.push({
        source: input.display,
        message: `not written: ${outcome.reason}.${outcome.intact ? ' The file is as it was.' : ''}`,
      });
    }
  } else if (command.diff) {
    io.stdout.write(
      read
        .map(({ text, display }, i) => unifiedDiff(display, text, result.texts[i]))
        .filter((d) => d !== '')
        .join(''),
    );
  } else if (!command.dryRun && !command.check) {
    io.stdout.write(
      joinOutputs(
        read
          .map(({ input }, i) => ({ input, text: result.texts[i], manifests: result.objectCounts[i] }))
          .filter((o) => o.input.kind !== 'file' || !o.input.discovered || o.manifests > 0),
      ),
    );
  }

  // The report goes where no manifests go: a named file, else stdout when it carries nothing else, else stderr.
  const carriesManifests = command.diff || (!command.write && !command.dryRun && !command.check);
  // Charts and kustomizations, by the name their output is reported under: fix --write does not rewrite them.
  const renderedDirectories = new Map<string, RenderedDirectory>();
  for (const { input, display } of read) {
    if (input.kind === 'render') renderedDirectories.set(display, { renderer: input.renderer, dir: input.display });
  }
  const changed = wouldChange(
    read.map(({ text, display }, i) => {
      const rendered = renderedDirectories.get(display);
      return { source: display, before: text, after: result.texts[i], ...(rendered !== undefined ? { rendered } : {}) };
    }),
    result.changes,
  );
  const fixedReads = read.map((r, i) => ({ ...r, text: result.texts[i] }));
  // Findings left in a rendered chart or kustomization are placed on the template or resource file they come from.
  const place = await renderedSources(fixedReads, result.diagnostics, locatedAt, cwd);
  // --check --format github: each change a fix would make, a chart's on its template (by the object it changes).
  const changeFindings = changesAsFindings(command.check ? result.changes : [], renderedDirectories);
  const placeChange =
    command.check && command.report === 'github'
      ? await renderedSources(
          read,
          changeFindings.map((f) => f.diagnostic),
          locatedAt,
          cwd,
        )
      : locatedAt;
  const report = findingsReport({
    format: command.report,
    findings: result.diagnostics,
    suppressed: [],
    quiet: command.quiet,
    locate: place,
    problems,
    cwd,
    env: io.env ?? process.env,
    json: {
      objects: result.objectCount,
      inputs: read.length,
      fixSettings: settings,
      extra: {
        changes: command.quiet ? [] : result.changes,
        refused: result.refused,
        written: command.write ? written : 0,
        notWritten,
        dryRun: command.dryRun || command.diff || command.check,
        ...(command.check ? { check: { wouldFix: changed } } : {}),
      },
    },
    junit: {
      // The objects checked, as the fixed texts hold them (what the findings left are about). By input and object,
      // as the test cases are: a chart's findings stay with the chart's objects, not on its templates.
      objects: () =>
        checkedObjects(
          read.flatMap(({ input, display }, i) =>
            loadManifestsWithErrors(result.texts[i], display)
              .objects.filter((o) => !(input.kind === 'file' && input.discovered) || hasKind(o))
              .map((object) => ({ object, source: display })),
          ),
        ),
      match: 'identity',
      locate: locatedAt,
      failOn: junitFailOn(result.diagnostics, settings),
      timestamp: started,
    },
    ...(command.check
      ? {
          wouldFix: {
            findings: changeFindings,
            locate: placeChange,
            summary: checkSummary(changed, read.length, command.quiet),
          },
        }
      : {}),
    text: (shown) =>
      formatChanges(command.quiet ? [] : result.changes, result.refused, shown.findings, {
        objects: result.objectCount,
        written,
        notWritten: notWritten.length,
        write: command.write,
        dryRun: command.dryRun || command.diff,
        inputs: read.length,
        problems: problems.length,
      }),
  });
  if (command.reportFile !== undefined) {
    try {
      writeReportFile(path.resolve(cwd, command.reportFile), report);
    } catch (err) {
      problems.push({
        source: command.reportFile,
        message: `cannot write the report: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  } else if (report !== undefined) {
    report(carriesManifests ? io.stderr : io.stdout);
  }
  // Input problems are in a JSON or SARIF report; in text they lead it, on stderr whatever else is where.
  if (command.report === 'text' || command.reportFile !== undefined) writeProblems(problems, io.stderr);
  if (failsOnProblems(problems)) return EXIT_USAGE;
  // --check fails on what a fix would change; the findings it cannot fix are lint's to fail on.
  if (command.check) return changed.length > 0 ? EXIT_LINT_ERRORS : EXIT_OK;
  return failsRun(result.diagnostics, settings) ? EXIT_LINT_ERRORS : EXIT_OK;
}

/**
 * `fix --write` on a chart or kustomization: refused before anything is rendered or written. The fixed manifests
 * are the rendered output, which no file holds; templates and bases are the user's to change.
 */
function refuseWrite(inputs: readonly Input[]): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const input of inputs) {
    if (input.kind !== 'render') continue;
    const what = input.renderer === 'helm' ? 'a Helm chart' : 'a Kustomize directory';
    const instead =
      input.renderer === 'helm'
        ? `print the fixed manifests (${TOOL_NAME} fix ${input.display} > fixed.yaml), or fix at install time as a post-renderer (helm install NAME ${input.display} --post-renderer ./k8s-windows-fix.sh; see '${TOOL_NAME} fix --help')`
        : `print the fixed manifests (${TOOL_NAME} fix ${input.display} > fixed.yaml), run fix as a KRM function in the kustomization (--krm; see docs/fix.md), or pass --no-render to fix its files as plain manifests`;
    problems.push({
      source: input.display,
      message: `is ${what}: fix --write never rewrites templates or bases, and the rendered output it fixes is in no file. Nothing was written. Instead, ${instead}.`,
    });
  }
  return problems;
}

function hasKind(object: unknown): boolean {
  return isRecord(object) && 'kind' in object;
}

/** Writes a report to a file, in pieces as it is made (a JSON report of a large input is large too). */
function writeReportFile(file: string, report: ((sink: OutputSink) => void) | undefined): void {
  const fd = openSync(file, 'w');
  try {
    report?.({ write: (chunk: string) => writeSync(fd, chunk) });
  } finally {
    closeSync(fd);
  }
}

/** Where a finding left by fix is in the fixed text it was found in. */
function locatedAt(d: Diagnostic): LocatedDiagnostic {
  return {
    diagnostic: d,
    ...(d.location?.position?.source !== undefined || d.resource.source !== undefined
      ? { source: d.location?.position?.source ?? d.resource.source }
      : {}),
    ...(d.location?.position !== undefined
      ? { line: d.location.position.line, column: d.location.position.column }
      : {}),
  };
}

/** A unified diff of one input (`--- a/file`, `+++ b/file`, as git shows it); '' when nothing changed. */
function unifiedDiff(display: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${display}`, `b/${display}`, before, after, undefined, undefined, {
    context: 3,
  });
  // jsdiff leads with a "=====" separator line, which is not part of a unified diff (git apply and patch skip it).
  return patch.startsWith('=') ? patch.slice(patch.indexOf('\n') + 1) : patch;
}

/**
 * Several inputs on standard output: one YAML stream, `---` between inputs. A discovered file without a manifest
 * (a chart's values.yaml) is not printed.
 */
function joinOutputs(outputs: readonly { text: string }[]): string {
  if (outputs.length === 1) return outputs[0].text;
  const parts: string[] = [];
  for (const { text } of outputs) {
    if (text.trim() === '') continue;
    const body = text.endsWith('\n') ? text : `${text}\n`;
    parts.push(parts.length === 0 || /^---/.test(body) ? body : `---\n${body}`);
  }
  return parts.join('');
}
