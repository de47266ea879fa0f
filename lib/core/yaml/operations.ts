/**
 * The edit operations (`FixEdit['op']`) and what every edit strategy must do for each one. A strategy is a table of
 * `Operations`, one entry per operation: a new operation in `FixEdit` (model/fixes.ts) fails to compile until the
 * node tree's (document.ts) and the lines' (direct.ts) tables both make it. splice.ts writes whatever the node tree
 * holds, so it has no entry of its own.
 */
import type { FixEdit } from '../model/fixes';

export type EditOp = FixEdit['op'];

/** The edit of one operation: `EditOf<'set'>` has a `value`, `EditOf<'remove'>` none. */
export type EditOf<K extends EditOp> = Extract<FixEdit, { readonly op: K }>;

/** The types one strategy works with: where an edit lands (`At`), and what checking and making it give. */
export interface StrategyTypes {
  readonly checkAt: unknown;
  readonly applyAt: unknown;
  readonly checked: unknown;
  readonly applied: unknown;
}

/** One operation of a strategy: whether the edit can be made where it lands, and making it (checked first). */
export interface Operation<S extends StrategyTypes, E extends FixEdit> {
  check(at: S['checkAt'], edit: E): S['checked'];
  apply(at: S['applyAt'], edit: E): S['applied'];
}

/** A strategy: every operation's check and apply. */
export type Operations<S extends StrategyTypes> = { readonly [K in EditOp]: Operation<S, EditOf<K>> };

/**
 * The operation `edit` names, or undefined for an op no strategy knows (a fixer's bug: each caller says it as it
 * always has). The one place the edit's op picks the method.
 */
export function operationOf<S extends StrategyTypes>(
  operations: Operations<S>,
  edit: FixEdit,
): Operation<S, FixEdit> | undefined {
  // Each entry takes its own op's edit, which `edit.op` selects: the compiler cannot correlate the two.
  return Object.hasOwn(operations, edit.op) ? (operations[edit.op] as Operation<S, FixEdit>) : undefined;
}
