/**
 * Human output of `lint`: diagnostics grouped by file, then by resource, each line `line:col  severity  message
 * rule-id` with the fix below, and a one-line summary. Colour is plain ANSI, used only when asked for.
 */
import type { Diagnostic, Severity } from '../core/model/types';
import { fixability, type FixSettings } from './fixable';
import { renderedWhere, type LocatedDiagnostic } from './locate';

export interface TextFormatOptions {
  /** Emit ANSI colour codes. */
  readonly color: boolean;
  /** Objects linted, for the summary line. */
  readonly objectCount: number;
  /** Inputs read, for the summary line. */
  readonly inputCount: number;
  /** Inputs that could not be read or parsed (reported on stderr), so the summary does not claim a clean run. */
  readonly inputProblemCount: number;
  /** Mark the findings `k8s-windows fix` can change, and count them (lint; not for what fix itself left). */
  readonly markFixable: boolean;
  /**
   * The run's settings `fix` would read too (the config file's tolerations, cloud, pinLinux): a finding whose fixer
   * needs more is marked with the option that gives it (`--toleration`, `--pin-linux`), not as plainly fixable.
   * @default {} (nothing beyond the command's own options)
   */
  readonly fixSettings?: FixSettings;
  /**
   * Findings a suppression hides: listed after the report, one line each with the reason.
   * @default []
   */
  readonly suppressed?: readonly LocatedDiagnostic[];
  /**
   * Documents of files found in a directory walk that are no Kubernetes objects (a values.yaml), left out: said when
   * no object was checked (`nothingChecked`).
   * @default 0
   */
  readonly skippedDocuments?: number;
  /**
   * Whether every input is a file: the summary of a run that checked nothing then counts files.
   * @default false
   */
  readonly inputsAreFiles?: boolean;
}

/** Heading for diagnostics whose object came from no known file. */
export const UNKNOWN_SOURCE = '(no file)';

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  underline: '\u001b[4m',
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
  green: '\u001b[32m',
} as const;
type Style = keyof typeof ANSI;

function severityStyle(severity: Severity): Style {
  switch (severity) {
    case 'error':
      return 'red';
    case 'warning':
      return 'yellow';
    case 'info':
      return 'cyan';
    default: {
      const unknownSeverity: never = severity;
      throw new Error(`unknown severity ${String(unknownSeverity)}`);
    }
  }
}

/** `Deployment shop/web`; placeholders where the object lacks a kind or name. */
export function resourceLabel(resource: Diagnostic['resource']): string {
  const kind = resource.kind ?? '(no kind)';
  const name = resource.name ?? '(no name)';
  return `${kind} ${resource.namespace !== undefined ? `${resource.namespace}/` : ''}${name}`;
}

/** Counts by severity and the summary phrase: `3 problems (2 errors, 1 warning, 0 info)`. */
export function summarize(diagnostics: readonly Diagnostic[]): { counts: Record<Severity, number>; text: string } {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  const n = diagnostics.length;
  const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const text = `${plural(n, 'problem')} (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info)`;
  return { counts, text };
}

/**
 * The summary of a run that read its inputs but checked no object (a directory of docker-compose files, workflows and
 * values files): what was read and that nothing was checked, never "No problems in 0 objects".
 */
export function nothingChecked(inputCount: number, skippedDocuments: number, inputsAreFiles: boolean): string {
  const noun = inputsAreFiles ? 'file' : 'input';
  const why =
    skippedDocuments === 0
      ? ''
      : inputCount === 1
        ? ' (it has no apiVersion and kind)'
        : ' (none has apiVersion and kind)';
  return `No Kubernetes objects in ${inputCount} ${noun}${inputCount === 1 ? '' : 's'}${why}: nothing was checked.`;
}

/** Whether `printable` would change `text`: the characters its expression matches. */
function hasUnprintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (
      c < 0x20 ||
      c <= 0x9f ||
      c === 0x61c ||
      c === 0x200e ||
      c === 0x200f ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    )
      return true;
  }
  return false;
}

/**
 * Manifest values and file names reach messages verbatim: control characters (C0, DEL, C1 — an ESC could drive the
 * terminal) and the bidirectional controls (which reorder what is shown) are shown as escapes instead of raw.
 */
export function printable(text: string): string {
  // Most text has nothing to escape: a scan by character code is cheaper than the replace's regular expression.
  if (!hasUnprintable(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    switch (c) {
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
}

export function formatText(items: readonly LocatedDiagnostic[], options: TextFormatOptions): string {
  const paint = (style: Style, s: string) => (options.color ? `${ANSI[style]}${s}${ANSI.reset}` : s);
  const n = options.inputProblemCount;
  const scope =
    `${options.objectCount} object${options.objectCount === 1 ? '' : 's'} from ${options.inputCount} input${options.inputCount === 1 ? '' : 's'}` +
    (n > 0 ? `; ${n} input problem${n === 1 ? '' : 's'} reported on stderr` : '');
  const suppressed = options.suppressed ?? [];
  const suppressedLines = formatSuppressed(suppressed, paint);
  if (items.length === 0) {
    if (n > 0 && options.objectCount === 0) {
      return `${paint('red', '✖')} Nothing checked: ${n} input problem${n === 1 ? '' : 's'} reported on stderr.\n`;
    }
    if (options.objectCount === 0) {
      return `${nothingChecked(options.inputCount, options.skippedDocuments ?? 0, options.inputsAreFiles === true)}\n`;
    }
    return `${suppressedLines}${n > 0 ? paint('red', '✖') : paint('green', '✔')} No problems in ${scope}${suppressedCount(suppressed)}.\n`;
  }

  // Group by file (first-seen order), then by resource (order of first line), then by position.
  const files = new Map<string, Map<string, LocatedDiagnostic[]>>();
  for (const item of items) {
    const file = item.source ?? UNKNOWN_SOURCE;
    const resources = files.get(file) ?? new Map<string, LocatedDiagnostic[]>();
    files.set(file, resources);
    const key = resourceLabel(item.diagnostic.resource);
    const list = resources.get(key) ?? [];
    resources.set(key, list);
    list.push(item);
  }

  const out: string[] = [];
  for (const [file, resources] of files) {
    out.push(paint('underline', printable(file)));
    const groups = [...resources].map(([label, list]) => ({ label, list: [...list].sort(byPosition) }));
    groups.sort((a, b) => byPosition(a.list[0], b.list[0]));
    // One position width per file, so messages line up down the whole file (a loop: a spread of every finding's
    // width into Math.max passes the engine's argument limit on a large input).
    let width = 0;
    for (const g of groups) for (const i of g.list) width = Math.max(width, position(i).length);
    for (const { label, list } of groups) {
      out.push(`  ${paint('bold', printable(label))}`);
      for (const item of list) {
        const d = item.diagnostic;
        const pos = position(item).padEnd(width);
        const sev = paint(severityStyle(d.severity), d.severity.padEnd(7));
        const rule = `${d.ruleId}${fixableMark(options.markFixable ? fixability(d, options.fixSettings ?? {}) : undefined)}`;
        out.push(`    ${paint('dim', printable(pos))}  ${sev}  ${printable(d.message)}  ${paint('dim', rule)}`);
        const indent = ' '.repeat(4 + width + 2 + 7 + 2);
        // The field path, unless the message already names it (the API-server rules do).
        if (item.line !== undefined && d.path !== '' && !d.message.includes(d.path)) {
          out.push(`${indent}${paint('dim', `at ${printable(d.path)}`)}`);
        }
        // Placed on a template's (an object's) first line: where it is in what the tool printed.
        if (item.rendered !== undefined && !item.rendered.exact) {
          out.push(`${indent}${paint('dim', `rendered: ${printable(renderedWhere(item.rendered))}`)}`);
        }
        if (d.fix !== undefined) out.push(`${indent}fix: ${printable(d.fix)}`);
        if (d.suppression !== undefined && !d.suppression.honoured) {
          out.push(
            `${indent}${paint('dim', `not suppressed: the API server rejects this whatever ${printable(d.suppression.from)} says (${printable(d.suppression.reason)})`)}`,
          );
        }
      }
    }
    out.push('');
  }
  if (suppressedLines !== '') out.push(suppressedLines.trimEnd(), '');
  const { counts, text } = summarize(items.map((i) => i.diagnostic));
  const mark = counts.error > 0 || n > 0 ? paint('red', '✖') : paint('yellow', '⚠');
  out.push(`${mark} ${paint('bold', text)} in ${scope}${suppressedCount(suppressed)}`);
  if (options.markFixable) out.push(...fixableSummary(items, options.fixSettings ?? {}));
  return `${out.join('\n')}\n`;
}

/** ` (fixable)`, ` (fixable with --pin-linux)` or '' after a rule id. */
function fixableMark(how: ReturnType<typeof fixability>): string {
  if (how === undefined) return '';
  return how === 'fix' ? ' (fixable)' : ` (fixable with ${how.option.split(' ')[0]})`;
}

/**
 * How many findings `k8s-windows fix` changes as it is, then how many more each option makes it change. "Potentially":
 * a fixer leaves a finding alone when the edit is not certain for it (k8s-windows fix --help).
 */
function fixableSummary(items: readonly LocatedDiagnostic[], settings: FixSettings): string[] {
  let plain = 0;
  const byOption = new Map<string, number>();
  for (const { diagnostic } of items) {
    const how = fixability(diagnostic, settings);
    if (how === 'fix') plain++;
    else if (how !== undefined) byOption.set(how.option, (byOption.get(how.option) ?? 0) + 1);
  }
  const lines = plain > 0 ? [`  ${plain} of them potentially fixable with \`k8s-windows fix\`.`] : [];
  for (const [option, n] of byOption) {
    lines.push(
      plain > 0 || lines.length > 0
        ? `  ${n} more with \`k8s-windows fix ${option}\`.`
        : `  ${n} of them potentially fixable with \`k8s-windows fix ${option}\`.`,
    );
  }
  return lines;
}

/** `; 2 suppressed` for the summary line, or ''. */
function suppressedCount(suppressed: readonly LocatedDiagnostic[]): string {
  return suppressed.length > 0 ? `; ${suppressed.length} suppressed` : '';
}

/** The suppressed findings, one line each: where, the rule, the reason and where it was written. */
function formatSuppressed(items: readonly LocatedDiagnostic[], paint: (style: Style, s: string) => string): string {
  if (items.length === 0) return '';
  const lines = [paint('bold', 'Suppressed:')];
  for (const item of items) {
    const d = item.diagnostic;
    const where = `${item.source ?? UNKNOWN_SOURCE}${item.line !== undefined ? `:${item.line}:${item.column ?? 1}` : ''}`;
    lines.push(
      `  ${paint('dim', printable(where))}  ${printable(resourceLabel(d.resource))}  ${d.ruleId}: ${printable(d.suppression?.reason ?? '')} ${paint('dim', `(${printable(d.suppression?.from ?? '')})`)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `12:7` when the line is known, else the field path. */
function position(item: LocatedDiagnostic): string {
  if (item.line === undefined) return item.diagnostic.path || '-';
  return `${item.line}:${item.column ?? 1}`;
}

function byPosition(a: LocatedDiagnostic, b: LocatedDiagnostic): number {
  const la = a.line ?? Number.MAX_SAFE_INTEGER;
  const lb = b.line ?? Number.MAX_SAFE_INTEGER;
  return la - lb || (a.column ?? 0) - (b.column ?? 0);
}
