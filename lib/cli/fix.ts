/**
 * `k8s-windows fix`: reads manifests as `lint` does, calls `fixManifestSet`, and prints the fixed manifests (or
 * rewrites the files with `--write`). The change report and the findings left go to standard error, as text or
 * JSON. `--krm` makes it a Kustomize exec KRM function: a ResourceList in, the fixed ResourceList out, with the
 * changes and findings as `results`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parseDocument } from 'yaml';
import { fixManifestSet, type FixChange, type FixOptions, type FixRefusal, type FixSetResult } from '../core/fix';
import { loadManifestsWithErrors, RULES } from '../core/validate';
import { imageLookups } from './images';
import { mergeSettings } from '../core/config';
import { readSettings, validateOptionsOf, type EngineSettings } from '../core/validate/settings';
import type { Diagnostic, Severity } from '../core/model/types';
import { isRecord } from '../core/model/util';
import type { FixCommand } from './args';
import { STDIN_SOURCE, type Input, type InputProblem } from './files';
import { formatSarif } from './format-sarif';
import { checkedObjects, formatJunit, junitFailOn } from './format-junit';
import { formatGithub } from './format-github';
import { checkSummary, changesAsFindings, wouldChange } from './fix-check';
import type { LocatedDiagnostic } from './locate';
import { formatText, resourceLabel } from './format-text';
import { packageInfo, TOOL_NAME } from './package-info';
import {
  describeProblem,
  emptyStdinProblem,
  EXIT_LINT_ERRORS,
  EXIT_OK,
  EXIT_USAGE,
  githubWorkspace,
  jsonReport,
  loadProblems,
  readInputs,
  withVersion,
  type CliIO,
} from './run';
import type { Locator } from './locate';
import { withTemplates } from './render';
import { failsRun, resolveRunSettings } from './settings';

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
    problems.push(
      ...loadProblems(
        result.errors.filter((e) => (e.source ?? STDIN_SOURCE) === display),
        text,
        display,
      ),
    );
  }

  let written = 0;
  if (command.write) {
    for (const [i, { input, text }] of read.entries()) {
      const out = result.texts[i];
      if (input.kind !== 'file' || out === text) continue;
      try {
        await fs.writeFile(input.path, await encodeLike(input.path, out));
        written++;
      } catch (err) {
        problems.push({
          source: input.display,
          message: `cannot write: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
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
  const changed = wouldChange(
    read.map(({ text, display }, i) => ({ source: display, before: text, after: result.texts[i] })),
    result.changes,
  );
  const fixedReads = read.map((r, i) => ({ ...r, text: result.texts[i] }));
  const reportText = formatReport(
    command,
    result,
    problems,
    {
      written,
      inputs: read.length,
      cwd,
      started,
      failOn: junitFailOn(result.diagnostics, settings),
      changed,
      env: io.env ?? process.env,
      // The objects checked, as the fixed texts hold them (what the findings left are about).
      objects: () =>
        checkedObjects(
          read.flatMap(({ input, display }, i) =>
            loadManifestsWithErrors(result.texts[i], display)
              .objects.filter((o) => !(input.kind === 'file' && input.discovered) || hasKind(o))
              .map((object) => ({ object, source: display })),
          ),
        ),
    },
    (locate) => withTemplates(locate, fixedReads),
  );
  if (command.reportFile !== undefined) {
    try {
      await fs.writeFile(path.resolve(cwd, command.reportFile), reportText);
    } catch (err) {
      problems.push({
        source: command.reportFile,
        message: `cannot write the report: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  } else if (reportText !== '') {
    (carriesManifests ? io.stderr : io.stdout).write(reportText);
  }
  // Input problems are in a JSON or SARIF report; in text they lead it, on stderr whatever else is where.
  if (command.report === 'text' || command.reportFile !== undefined) {
    for (const p of problems) io.stderr.write(`${TOOL_NAME}: ${describeProblem(p)}\n`);
  }
  if (problems.length > 0) return EXIT_USAGE;
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
        : `print the fixed manifests (${TOOL_NAME} fix ${input.display} > fixed.yaml), run fix as a KRM function in the kustomization (--krm; see the README), or pass --no-render to fix its files as plain manifests`;
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

/** The report of a fix run in the chosen format; '' when `--quiet` leaves nothing to say. */
function formatReport(
  command: FixCommand,
  result: FixSetResult,
  problems: readonly InputProblem[],
  counts: {
    written: number;
    inputs: number;
    cwd: string;
    started: Date;
    failOn: Severity;
    changed: ReturnType<typeof wouldChange>;
    env: Readonly<Record<string, string | undefined>>;
    objects: () => ReturnType<typeof checkedObjects>;
  },
  /** Names the Helm template of findings in a rendered chart. */
  named: (locate: Locator) => Locator = (locate) => locate,
): string {
  const left = command.quiet ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  const locate = named((d: Diagnostic) => ({
    diagnostic: d,
    ...(d.location?.position?.source !== undefined || d.resource.source !== undefined
      ? { source: d.location?.position?.source ?? d.resource.source }
      : {}),
    ...(d.location?.position !== undefined
      ? { line: d.location.position.line, column: d.location.position.column }
      : {}),
  }));
  switch (command.report) {
    case 'json':
      return `${JSON.stringify(
        jsonReport({
          findings: left.map(locate),
          problems,
          objects: result.objectCount,
          inputs: counts.inputs,
          extra: {
            changes: command.quiet ? [] : result.changes,
            refused: result.refused,
            written: command.write ? counts.written : 0,
            dryRun: command.dryRun || command.diff || command.check,
            ...(command.check ? { check: { wouldFix: counts.changed } } : {}),
          },
        }),
        null,
        2,
      )}\n`;
    case 'sarif':
      return `${JSON.stringify(
        formatSarif(left.map(locate), { rules: RULES, tool: packageInfo(), cwd: counts.cwd, inputProblems: problems }),
        null,
        2,
      )}\n`;
    case 'junit':
      // --check: each object fails with the changes a fix would make; else with the findings left.
      return formatJunit(command.check ? changesAsFindings(result.changes) : left.map(locate), {
        objects: counts.objects(),
        match: 'identity',
        problems,
        failOn: command.check ? 'error' : counts.failOn,
        tool: packageInfo(),
        timestamp: counts.started,
      });
    case 'github': {
      const findings: LocatedDiagnostic[] = command.check ? changesAsFindings(result.changes) : left.map(locate);
      return formatGithub(findings, { cwd: counts.cwd, problems, ...githubWorkspace(counts.env) });
    }
    case 'text':
      if (command.check) return checkSummary(counts.changed, counts.inputs, command.quiet);
      if (command.quiet && left.length === 0) return '';
      return formatChanges(command.quiet ? [] : result.changes, result.refused, left, {
        objects: result.objectCount,
        written: counts.written,
        write: command.write,
        dryRun: command.dryRun || command.diff,
        inputs: counts.inputs,
        problems: problems.length,
      });
    default: {
      const unknownReport: never = command.report;
      throw new Error(`unhandled report format ${String(unknownReport)}`);
    }
  }
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
 * The fixed text in the encoding the file had: a UTF-8 byte-order mark is kept, and a UTF-16 file (what Windows
 * PowerShell 5.1's `>` writes; lint decodes it as kubectl does) stays UTF-16 with its mark.
 */
async function encodeLike(file: string, fixed: string): Promise<Buffer> {
  // The text keeps a UTF-8 mark it was read with; the file's own first bytes say which mark to write.
  const text = fixed.startsWith('\uFEFF') ? fixed.slice(1) : fixed;
  const head = Buffer.alloc(3);
  const handle = await fs.open(file, 'r');
  try {
    await handle.read(head, 0, 3, 0);
  } finally {
    await handle.close();
  }
  if (head[0] === 0xff && head[1] === 0xfe)
    return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  if (head[0] === 0xfe && head[1] === 0xff) {
    const le = Buffer.from(text, 'utf16le');
    for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
  }
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text, 'utf8')]);
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
  diagnostics: readonly Diagnostic[],
  counts: ReportCounts,
): string {
  const out: string[] = [];
  // One heading per object, in input order: its changes, then the fixes not made.
  const byObject = new Map<string, string[]>();
  for (const c of [...changes, ...refused]) {
    const head = `${c.resource.source ?? '(no file)'}: ${resourceLabel(c.resource)}`;
    const lines = byObject.get(head) ?? [];
    lines.push(`  ${c.message}`);
    byObject.set(head, lines);
  }
  for (const [head, lines] of byObject) out.push(head, ...lines);
  const objects = new Set(changes.map((c) => `${c.resource.source}\u0000${resourceLabel(c.resource)}`)).size;
  const where = counts.write ? `; ${counts.written} file${counts.written === 1 ? '' : 's'} rewritten` : '';
  const notMade = refused.length > 0 ? `; ${refused.length} fix${refused.length === 1 ? '' : 'es'} not made` : '';
  const would = counts.dryRun === true ? ' (dry run: nothing written)' : '';
  out.push(
    `${TOOL_NAME} fix: ${changes.length} change${changes.length === 1 ? '' : 's'} in ${objects} object${objects === 1 ? '' : 's'}${where}${notMade}${would}.`,
  );
  if (diagnostics.length > 0) {
    out.push('Left to fix by hand:');
    out.push(
      formatText(
        diagnostics.map((d) => ({
          diagnostic: d,
          ...(d.resource.source !== undefined ? { source: d.resource.source } : {}),
        })),
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

/**
 * The options a KRM functionConfig gives (`spec:` of any kind, or a ConfigMap's `data:`, whose values are strings),
 * over the command line's and the config file's, read by the engine's one settings reader: tolerations, cloud,
 * windowsRelease, kubernetesVersion, runtimeClassName, pinLinux, rules, suppressions.
 */
function krmSettings(functionConfig: unknown, base: EngineSettings): EngineSettings {
  if (!isRecord(functionConfig)) return base;
  const [where, raw] = isRecord(functionConfig.spec)
    ? ['functionConfig.spec', functionConfig.spec]
    : isRecord(functionConfig.data)
      ? ['functionConfig.data', functionConfig.data]
      : ['functionConfig.spec', {}];
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
    const list = parseDocument(text, { prettyErrors: false });
    if (list.errors.length > 0)
      throw new KrmError(`the ResourceList is not valid YAML: ${list.errors[0].message.split('\n')[0]}`);
    const value: unknown = list.toJS({ maxAliasCount: 1000 });
    if (!isRecord(value) || value.kind !== RESOURCE_LIST_KIND || !Array.isArray(value.items)) {
      throw new KrmError(
        `standard input is not a KRM ${RESOURCE_LIST_KIND} (kind: ${RESOURCE_LIST_KIND}, items: [...]). Kustomize sends one to exec functions; run without --krm for plain manifests.`,
      );
    }
    const settings = krmSettings(value.functionConfig, base);
    const images = await imageLookups(
      () => loadManifestsWithErrors(text).objects,
      settings,
      (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
    );
    const result = fixManifestSet([{ text, source: RESOURCE_LIST_KIND }], {
      ...optionsOf(settings),
      ...(images !== undefined ? { images } : {}),
    });
    const out = parseDocument(result.texts[0], { prettyErrors: false });
    const results = [
      ...result.changes.map((c) => krmResult(`fixed: ${c.message}`, 'info', c.resource, c.path)),
      // A fix not made changes nothing, but the user must make it: a warning, as Kustomize shows them.
      ...result.refused.map((r) => krmResult(r.message, 'warning', r.resource, r.path)),
      ...result.diagnostics.map((d) =>
        krmResult(`${d.message}${d.fix ? ` Fix: ${d.fix}` : ''} [${d.ruleId}]`, d.severity, d.resource, d.path),
      ),
    ];
    if (results.length > 0) out.set('results', out.createNode(results));
    io.stdout.write(out.toString({ lineWidth: 0 }));
    return result.diagnostics.some((d) => d.severity === 'error') ? EXIT_LINT_ERRORS : EXIT_OK;
  } catch (err) {
    if (!(err instanceof KrmError) && !(err instanceof Error && err.name === 'WindowsValidationError')) throw err;
    io.stderr.write(`${TOOL_NAME} fix --krm: ${err.message}\n`);
    return EXIT_USAGE;
  }
}
