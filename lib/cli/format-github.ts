/**
 * GitHub Actions workflow commands (`--format github`): one `::error|warning|notice file=…,line=…,col=…,title=…::…`
 * line per finding, which the runner turns into an annotation on the file and line in the pull request.
 * Escaping follows @actions/core (actions/toolkit `packages/core/src/command.ts` @ ed3ea3b5, checked 2026-11-27): in the message
 * `%`, CR and LF; in property values also `:` and `,`, which separate properties.
 * Manifest text reaches messages and file names verbatim, and the runner shows messages in the job's log (whose viewer
 * acts on ANSI colour sequences) as well as in the annotation: every other control character (C0, DEL, C1) and the
 * bidirectional controls are written as `printable` writes them in the text report (`\u001b`, `\t`), never raw.
 * @see https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions
 */
import * as path from 'node:path';
import type { Severity } from '../core/model/types';
import { STDIN_SOURCE, type InputProblem } from './files';
import { printable } from './format-text';
import { renderedNote, type LocatedDiagnostic } from './locate';

export type GithubCommand = 'error' | 'warning' | 'notice';

export interface GithubFormatOptions {
  /** The directory sources are relative to (the run's working directory). */
  readonly cwd: string;
  /**
   * The checkout's root (`GITHUB_WORKSPACE`): annotations name files relative to it, as GitHub places them.
   * @default - sources as shown (relative to the working directory)
   */
  readonly workspace?: string;
  readonly problems: readonly InputProblem[];
  /**
   * What the run says besides its findings and problems (that it checked nothing): one notice each.
   * @default []
   */
  readonly notes?: readonly string[];
}

export function githubCommand(severity: Severity): GithubCommand {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'notice';
    default: {
      const unknownSeverity: never = severity;
      throw new Error(`unknown severity ${String(unknownSeverity)}`);
    }
  }
}

/**
 * A message: `%`, CR and LF escaped; the other control characters as `printable` writes them. Not as `%XX`: the
 * runner undoes only `%25`, `%0D` and `%0A` (and `%3A`, `%2C` in properties), so `%1B` would be shown as it is, but
 * as the same characters a manifest's own `%1B` is shown as; `\u001b` is what the text report shows for it.
 */
export function escapeData(value: string): string {
  return value
    .replace(/[^\r\n]+/g, (run) => printable(run))
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A');
}

/** A property value: as a message, and `:` and `,` too. */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line; properties without a value are left out, as @actions/core does. */
export function workflowCommand(
  command: GithubCommand,
  properties: Readonly<Record<string, string | number | undefined>>,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${props !== '' ? ` ${props}` : ''}::${escapeData(message)}\n`;
}

/** The file as GitHub names it: relative to the workspace when it lies inside, `/` separated; none for stdin. */
function fileOf(source: string | undefined, options: GithubFormatOptions): string | undefined {
  if (source === undefined || source === STDIN_SOURCE) return undefined;
  if (options.workspace === undefined) return source.split(path.sep).join('/');
  const relative = path.relative(options.workspace, path.resolve(options.cwd, source));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return source.split(path.sep).join('/');
  return relative.split(path.sep).join('/');
}

/** Every finding (suppressed ones are left out), input problem and note as workflow commands. */
export function formatGithub(findings: readonly LocatedDiagnostic[], options: GithubFormatOptions): string {
  const lines: string[] = [];
  for (const item of findings) {
    const d = item.diagnostic;
    if (d.suppression?.honoured === true) continue;
    const r = d.resource;
    const object = `${r.kind ?? '(no kind)'} ${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name ?? '(no name)'}`;
    // The field, unless the message names it already (most do).
    const field = d.path !== '' && !d.message.includes(d.path) ? ` (${d.path})` : '';
    lines.push(
      workflowCommand(
        githubCommand(d.severity),
        {
          file: fileOf(item.source, options),
          line: item.line,
          col: item.column,
          title: `k8s-windows ${d.ruleId}`,
        },
        `${object}${field}: ${d.message}${renderedNote(item)}${d.fix !== undefined ? ` Fix: ${d.fix}` : ''}`,
      ),
    );
  }
  for (const p of options.problems) {
    const file = fileOf(p.source, options);
    const where = file === undefined && p.source !== undefined ? `${p.source}: ` : '';
    lines.push(
      workflowCommand(
        p.severity ?? 'error',
        { file, line: p.line, col: p.line !== undefined ? (p.column ?? 1) : undefined, title: 'k8s-windows input' },
        `${where}${p.message}`,
      ),
    );
  }
  for (const note of options.notes ?? []) lines.push(workflowCommand('notice', { title: 'k8s-windows' }, note));
  return lines.join('');
}
