/** The text report of `fix`: the changes made (or that would be), the fixes not made, and the findings left. */
import type { FixChange, FixRefusal } from '../core/fix';
import { formatText, printable, resourceLabel } from './format-text';
import type { LocatedDiagnostic } from './locate';
import { TOOL_NAME } from './package-info';

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
