/**
 * `fix --check`, the formatter convention of prettier, ruff and black: write nothing, list the files a fix would
 * change, and fail (exit 1) when there is one. The report says which files and how many changes each.
 */
import type { FixChange } from '../core/fix';
import type { LocatedDiagnostic } from './locate';
import { TOOL_NAME } from './package-info';

/** A file a fix would change, and how many changes it would get. */
export interface WouldFix {
  readonly source: string;
  readonly changes: number;
}

/** The inputs whose text a fix changes, in input order. */
export function wouldChange(
  inputs: readonly { readonly source: string; readonly before: string; readonly after: string }[],
  changes: readonly FixChange[],
): WouldFix[] {
  return inputs
    .filter((i) => i.before !== i.after)
    .map((i) => ({ source: i.source, changes: changes.filter((c) => c.resource.source === i.source).length }));
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `Would fix: web.yaml (3 changes)` per file, then one summary line (left out with `--quiet`). */
export function checkSummary(files: readonly WouldFix[], inputs: number, quiet: boolean): string {
  const lines = files.map((f) => `Would fix: ${f.source} (${plural(f.changes, 'change')})`);
  if (!quiet) {
    lines.push(
      files.length === 0
        ? `${TOOL_NAME} fix --check: nothing to fix in ${plural(inputs, 'input')}.`
        : `${TOOL_NAME} fix --check: ${plural(files.length, 'file')} would be fixed, ${inputs - files.length} left as ${inputs - files.length === 1 ? 'it is' : 'they are'}. Run '${TOOL_NAME} fix --write' to fix.`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** The changes a fix would make as error findings, so the JUnit and GitHub reports show each where it applies. */
export function changesAsFindings(changes: readonly FixChange[]): LocatedDiagnostic[] {
  return changes.map((c) => ({
    diagnostic: {
      ruleId: c.ruleId,
      severity: 'error',
      message: `${TOOL_NAME} fix would change this: ${c.message}`,
      fix: `run '${TOOL_NAME} fix --write'.`,
      path: c.path,
      resource: c.resource,
    },
    ...(c.resource.source !== undefined ? { source: c.resource.source } : {}),
  }));
}
