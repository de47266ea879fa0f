/**
 * `k8s-windows lint`: reads the inputs (input.ts), runs the rules on every object, places each finding (a chart's
 * on its template) and hands them to the one writer (report.ts). Input problems go to standard error first.
 */
import { loadManifestsWithErrors, validateManifests } from '../core/validate';
import { validateOptionsOf } from '../core/validate/settings';
import { looksLikeObject } from '../core/model/key-case';
import type { LintCommand } from './args';
import { failsOnProblems, STDIN_SOURCE } from './files';
import { checkedObjects, junitFailOn } from './format-junit';
import { formatText, nothingChecked } from './format-text';
import { imageLookups } from './images';
import { emptyStdinProblem, loadProblems, readInputs, withVersion } from './input';
import { EXIT_LINT_ERRORS, EXIT_OK, EXIT_USAGE, useColor, type CliIO } from './io';
import { createLocator, type LoadedObject } from './locate';
import { TOOL_NAME } from './package-info';
import { renderedSources } from './render';
import { findingsReport, writeProblems } from './report';
import { failsRun, resolveRunSettings } from './settings';

export async function runLint(command: LintCommand, io: CliIO): Promise<number> {
  const started = new Date();
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const { settings, ignored } = resolveRunSettings(command, cwd, env);
  const { read, problems } = await readInputs(withVersion(command, settings), io, ignored);
  const loaded: LoadedObject[] = [];
  const inputCount = read.length;
  /** Documents of walked files that are no Kubernetes objects, left out. */
  let skippedDocuments = 0;
  for (const { input, text, display } of read) {
    const { objects, errors } = loadManifestsWithErrors(text, display);
    if (input.kind === 'stdin' && objects.length === 0 && errors.length === 0 && !command.allowEmpty) {
      problems.push(emptyStdinProblem(display));
    }
    for (const object of objects) {
      // A directory also holds files that are not manifests (a chart's values.yaml, cdk8s's construct-metadata.json).
      if (input.kind === 'file' && input.discovered && !looksLikeObject(object)) {
        skippedDocuments++;
        continue;
      }
      loaded.push({ object, source: display });
    }
    // One by one: a spread of every malformed document's problem passes the engine's argument limit.
    for (const p of loadProblems(errors, text, display)) problems.push(p);
  }

  const objects = loaded.map((l) => l.object);
  const images = await imageLookups(
    () => objects,
    settings,
    (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
  );
  const all = validateManifests(objects, {
    ...validateOptionsOf(settings),
    ...(images !== undefined ? { images } : {}),
    includeSuppressed: true,
  });
  const reported = all.filter((d) => d.suppression?.honoured !== true);
  const suppressed = all.filter((d) => d.suppression?.honoured === true);

  // Input problems first: on a terminal they then sit above the report that the summary line closes.
  writeProblems(problems, io.stderr);
  // Findings in a rendered chart or kustomization are placed on the template or resource file they come from.
  const locate = await renderedSources(read, all, createLocator(loaded), cwd);
  // Inputs read, no object among them (a directory of compose files and values.yaml): said, never a clean pass. Not
  // a failure (kube-linter's default too): a pre-commit run on YAML that holds no manifest passes.
  const inputsAreFiles = read.every((r) => r.input.kind === 'file');
  const notes =
    loaded.length === 0 && problems.length === 0 ? [nothingChecked(inputCount, skippedDocuments, inputsAreFiles)] : [];

  if (command.format === 'sarif' && read.some((r) => r.input.kind === 'stdin') && command.stdinFilename === undefined) {
    io.stderr.write(
      `${TOOL_NAME}: note: SARIF results of standard input name '${STDIN_SOURCE}', which code scanning cannot place: pass --stdin-filename with the path of the rendered file in the repository, or lint that file.\n`,
    );
  }
  findingsReport({
    format: command.format,
    findings: reported,
    suppressed,
    quiet: command.quiet,
    locate,
    problems,
    notes,
    cwd,
    env,
    json: { objects: loaded.length, inputs: inputCount, skippedDocuments, fixSettings: settings },
    junit: { objects: () => checkedObjects(loaded), failOn: junitFailOn(reported, settings), timestamp: started },
    text: (shown) =>
      formatText(shown.findings, {
        color: useColor(env, io.isTTY === true),
        objectCount: loaded.length,
        inputCount,
        inputProblemCount: problems.length,
        markFixable: true,
        fixSettings: settings,
        suppressed: shown.suppressed,
        skippedDocuments,
        inputsAreFiles,
      }),
  })?.(io.stdout);

  if (failsOnProblems(problems)) return EXIT_USAGE;
  return failsRun(reported, settings) ? EXIT_LINT_ERRORS : EXIT_OK;
}
