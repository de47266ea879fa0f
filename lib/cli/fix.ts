/**
 * `k8s-windows fix`: reads manifests as `lint` does, calls `fixManifestSet`, and prints the fixed manifests (or
 * rewrites the files with `--write`). The change report and the findings left go to standard error, as text or
 * JSON. `--krm` makes it a Kustomize exec KRM function: a ResourceList in, the fixed ResourceList out, with the
 * changes and findings as `results`.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { parseDocument, stringify } from 'yaml';
import { fixManifestSet, type FixChange, type FixOptions, type FixRefusal } from '../core/fix';
import { loadManifestsWithErrors } from '../core/validate';
import { readWhole } from '../core/validate/loader';
import { imageLookups } from './images';
import { mergeSettings } from '../core/config';
import { readSettings, validateOptionsOf, type EngineSettings } from '../core/validate/settings';
import type { Diagnostic } from '../core/model/types';
import { isRecord } from '../core/model/util';
import type { FixCommand } from './args';
import { failsOnProblems, STDIN_SOURCE, type Input, type InputProblem } from './files';
import { checkedObjects, junitFailOn } from './format-junit';
import { checkSummary, changesAsFindings, wouldChange, type RenderedDirectory } from './fix-check';
import type { LocatedDiagnostic } from './locate';
import { formatText, printable, resourceLabel } from './format-text';
import { TOOL_NAME } from './package-info';
import { emptyStdinProblem, loadProblems, readInputs, withVersion } from './input';
import { EXIT_LINT_ERRORS, EXIT_OK, EXIT_USAGE, type CliIO, type OutputSink } from './io';
import { renderedSources } from './render';
import { describeProblem, findingsReport, writeProblems } from './report';
import { failsRun, resolveRunSettings } from './settings';
import { encodeAs, writeAtomically } from './write';

/** The KRM ResourceList kind and API version (https://github.com/kubernetes-sigs/kustomize/blob/master/cmd/config/docs/api-conventions/functions-spec.md). */
export const RESOURCE_LIST_KIND = 'ResourceList';
export const RESOURCE_LIST_API_VERSION = 'config.kubernetes.io/v1';

/** `fixManifestSet`'s options from a run's settings (the config file under the command line). */
function optionsOf(settings: EngineSettings): FixOptions {
  return {
    ...validateOptionsOf(settings),
    tolerations: settings.tolerations ?? [],
    ...(settings.runtimeClassName !== undefined ? { runtimeClassName: settings.runtimeClassName } : {}),
    pinLinux: settings.pinLinux === true,
  };
}

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
    { ...optionsOf(settings), ...(images !== undefined ? { images } : {}) },
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

interface ReportCounts {
  readonly objects: number;
  readonly written: number;
  /** Files with changes that could not be written (each is an input problem saying why). @default 0 */
  readonly notWritten?: number;
  readonly write: boolean;
  /** Nothing was written or printed (`--dry-run`, `--diff`): say "would". */
  readonly dryRun?: boolean;
  readonly inputs: number;
  readonly problems: number;
}

/**
 * The text change report: one line per change and per fix not made (with why), grouped by file and resource,
 * then the findings left.
 */
export function formatChanges(
  changes: readonly FixChange[],
  refused: readonly FixRefusal[],
  /** The findings left, where they are (a chart's on its templates). */
  diagnostics: readonly LocatedDiagnostic[],
  counts: ReportCounts,
): string {
  const out: string[] = [];
  // One heading per object, in input order: its changes, then the fixes not made.
  const byObject = new Map<string, string[]>();
  for (const c of [...changes, ...refused]) {
    // Names and values come from the manifests: shown escaped, so none can drive the terminal.
    const head = `${printable(c.resource.source ?? '(no file)')}: ${printable(resourceLabel(c.resource))}`;
    const lines = byObject.get(head) ?? [];
    lines.push(`  ${printable(c.message)}`);
    byObject.set(head, lines);
  }
  for (const [head, lines] of byObject) out.push(head, ...lines);
  const objects = new Set(changes.map((c) => `${c.resource.source}\u0000${resourceLabel(c.resource)}`)).size;
  const failed = counts.notWritten ?? 0;
  const where = counts.write
    ? `; ${counts.written} file${counts.written === 1 ? '' : 's'} rewritten${failed > 0 ? `, ${failed} not written` : ''}`
    : '';
  const notMade = refused.length > 0 ? `; ${refused.length} fix${refused.length === 1 ? '' : 'es'} not made` : '';
  const would = counts.dryRun === true ? ' (dry run: nothing written)' : '';
  out.push(
    `${TOOL_NAME} fix: ${changes.length} change${changes.length === 1 ? '' : 's'} in ${objects} object${objects === 1 ? '' : 's'}${where}${notMade}${would}.`,
  );
  if (diagnostics.length > 0) {
    out.push('Left to fix by hand:');
    out.push(
      formatText(
        // Grouped by file (a chart's findings by template), without positions: the fixed text has moved them.
        diagnostics.map(({ diagnostic, source, rendered }) => {
          const file = rendered !== undefined ? source : diagnostic.resource.source;
          return { diagnostic, ...(file !== undefined ? { source: file } : {}) };
        }),
        {
          color: false,
          objectCount: counts.objects,
          inputCount: counts.inputs,
          inputProblemCount: counts.problems,
          markFixable: false,
        },
      ).trimEnd(),
    );
  }
  return `${out.join('\n')}\n`;
}

/** A problem with the ResourceList or its functionConfig: reported, exit 2 (a Kustomize build then stops). */
class KrmError extends Error {}

/** What a functionConfig may hold at its top: the object's own fields and where the options go. */
const KRM_CONFIG_KEYS: readonly string[] = ['apiVersion', 'kind', 'metadata', 'spec', 'data'];

/**
 * The options a KRM functionConfig gives (`spec:` of any kind, or a ConfigMap's `data:`, whose values are strings:
 * the kpt and Kustomize convention for function config, read as the same settings), over the command line's and
 * the config file's, read by the engine's one settings reader: tolerations, cloud, windowsRelease,
 * kubernetesVersion, runtimeClassName, pinLinux, rules, suppressions. A functionConfig that is not a mapping, or
 * holds options anywhere else, is refused: options silently dropped would fix toward the wrong nodes.
 */
function krmSettings(functionConfig: unknown, base: EngineSettings): EngineSettings {
  if (functionConfig === undefined || functionConfig === null) return base;
  if (!isRecord(functionConfig)) {
    throw new KrmError(
      `functionConfig is ${typeof functionConfig === 'string' ? 'a string' : Array.isArray(functionConfig) ? 'a list' : `a ${typeof functionConfig}`}, not an object: give the options as spec: {cloud: gke, ...} (any kind) or as a ConfigMap's data.`,
    );
  }
  const stray = Object.keys(functionConfig).filter((k) => !KRM_CONFIG_KEYS.includes(k));
  if (stray.length > 0) {
    throw new KrmError(
      `functionConfig.${stray[0]}: options go under spec (or a ConfigMap's data), not at the top of the functionConfig.`,
    );
  }
  if (functionConfig.spec !== undefined && functionConfig.data !== undefined) {
    throw new KrmError('functionConfig has both spec and data: give the options in one of them.');
  }
  const where = functionConfig.data !== undefined ? 'functionConfig.data' : 'functionConfig.spec';
  const raw = functionConfig.data ?? functionConfig.spec ?? {};
  if (!isRecord(raw)) {
    throw new KrmError(`${where} is not a mapping of options (cloud, tolerations, windowsRelease, ...).`);
  }
  const { settings, issues } = readSettings(raw, where, [
    'rules',
    'windowsRelease',
    'kubernetesVersion',
    'cloud',
    'tolerations',
    'runtimeClassName',
    'pinLinux',
    'suppressions',
    'resolveImages',
    'offline',
    'registryMirrors',
    'imageCache',
    'insecureRegistries',
    'mirrorFallback',
    'resolveTimeout',
  ]);
  if (issues.length > 0) {
    throw new KrmError(issues.map((i) => `${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`).join(' '));
  }
  return mergeSettings(base, settings);
}

/** One KRM result (functions spec severities: error, warning, info) about the field at `path` of a resource. */
function krmResult(
  message: string,
  severity: string,
  r: Diagnostic['resource'],
  path: string,
): Record<string, unknown> {
  return {
    message,
    severity,
    resourceRef: {
      ...(r.apiVersion !== undefined ? { apiVersion: r.apiVersion } : {}),
      ...(r.kind !== undefined ? { kind: r.kind } : {}),
      ...(r.name !== undefined ? { name: r.name } : {}),
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
    },
    ...(path !== '' ? { field: { path } } : {}),
  };
}

/**
 * The ResourceList as plain data, for its envelope (kind, items, functionConfig): read by js-yaml, several times
 * faster than the `yaml` library's node tree. A text js-yaml refuses is read by `yaml`, whose first error is the
 * message. Without merge keys (`<<`, which the envelope reads as keys) js-yaml reads it as the fix's loader does,
 * and `whole` says so: the fix then starts from this read rather than reading the list again.
 */
function readEnvelope(text: string): { readonly value: unknown; readonly whole: boolean } {
  try {
    if (!text.includes('<<')) return { value: readWhole(text), whole: true };
    return { value: loadYaml(text, { schema: CORE_SCHEMA }), whole: false };
  } catch {
    const list = parseDocument(text, { prettyErrors: false });
    if (list.errors.length > 0)
      throw new KrmError(`the ResourceList is not valid YAML: ${list.errors[0].message.split('\n')[0]}`);
    return { value: list.toJS({ maxAliasCount: 1000 }), whole: false };
  }
}

/**
 * What the run needs of the ResourceList's envelope, checked: its functionConfig, whether it holds results, and the
 * list as the fix's loader reads it (`take`, once: the fix starts from it and then lets it go, so every item is never
 * in memory twice, and the 5,000-item list is read once rather than twice).
 */
function envelopeOf(text: string): {
  readonly functionConfig: unknown;
  readonly hasResults: boolean;
  readonly take: () => { readonly value: unknown } | undefined;
} {
  const read = readEnvelope(text);
  const value = read.value;
  if (!isRecord(value) || value.kind !== RESOURCE_LIST_KIND || !Array.isArray(value.items)) {
    throw new KrmError(
      `standard input is not a KRM ${RESOURCE_LIST_KIND} (kind: ${RESOURCE_LIST_KIND}, items: [...]). Kustomize sends one to exec functions; run without --krm for plain manifests.`,
    );
  }
  let list: { readonly value: unknown } | undefined = read.whole ? { value } : undefined;
  const take = () => {
    const out = list;
    list = undefined;
    return out;
  };
  return { functionConfig: value.functionConfig, hasResults: 'results' in value, take };
}

/**
 * The fixed ResourceList with its `results`. A block ResourceList without results of its own (what Kustomize
 * sends) gets them appended as a last key, and every other byte stays as fix wrote it; else (flow or JSON, or
 * results from an earlier function to replace) the list is read and written again as a whole.
 */
function withResults(
  fixed: string,
  list: { readonly flow: boolean; readonly hasResults: boolean },
  results: readonly Record<string, unknown>[],
): string {
  if (results.length === 0) return fixed;
  const appendable = !list.flow && !list.hasResults && !/^\.\.\.[ \t]*$/m.test(fixed);
  if (appendable) {
    const eol = fixed.includes('\r\n') ? '\r\n' : '\n';
    const tail = stringify({ results }, { lineWidth: 0 });
    const body = fixed === '' || fixed.endsWith('\n') ? fixed : `${fixed}${eol}`;
    return body + (eol === '\n' ? tail : tail.replace(/\n/g, eol));
  }
  const out = parseDocument(fixed, { prettyErrors: false });
  out.set('results', out.createNode(results));
  return out.toString({ lineWidth: 0 });
}

async function runKrm(
  text: string | undefined,
  problems: readonly InputProblem[],
  base: EngineSettings,
  io: CliIO,
): Promise<number> {
  try {
    if (text === undefined || problems.length > 0) {
      throw new KrmError(problems.map(describeProblem).join('; ') || 'no ResourceList on standard input.');
    }
    const envelope = envelopeOf(text);
    const settings = krmSettings(envelope.functionConfig, base);
    const images = await imageLookups(
      () => loadManifestsWithErrors(text).objects,
      settings,
      (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
    );
    const result = fixManifestSet(
      [{ text, source: RESOURCE_LIST_KIND }],
      { ...optionsOf(settings), ...(images !== undefined ? { images } : {}) },
      { read: envelope.take },
    );
    const results = [
      ...result.changes.map((c) => krmResult(`fixed: ${c.message}`, 'info', c.resource, c.path)),
      // A fix not made changes nothing, but the user must make it: a warning, as Kustomize shows them.
      ...result.refused.map((r) => krmResult(r.message, 'warning', r.resource, r.path)),
      ...result.diagnostics.map((d) =>
        krmResult(`${d.message}${d.fix ? ` Fix: ${d.fix}` : ''} [${d.ruleId}]`, d.severity, d.resource, d.path),
      ),
    ];
    io.stdout.write(
      withResults(result.texts[0], { flow: /^\s*[{[]/.test(text), hasResults: envelope.hasResults }, results),
    );
    return result.diagnostics.some((d) => d.severity === 'error') ? EXIT_LINT_ERRORS : EXIT_OK;
  } catch (err) {
    if (!(err instanceof KrmError) && !(err instanceof Error && err.name === 'WindowsValidationError')) throw err;
    io.stderr.write(`${TOOL_NAME} fix --krm: ${err.message}\n`);
    return EXIT_USAGE;
  }
}
