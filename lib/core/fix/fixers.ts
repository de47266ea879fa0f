/**
 * Every rule's fixers, gathered from the check modules where they live beside their checks: the fixers of findings
 * (`FIXERS`), and the fixers that bring every Windows pod to the user's target (`TARGET_FIXERS`). `RULES[].fixable`
 * declares the same set (a test keeps them in step).
 */
import { RULE_MODULES } from '../rules';
import type { Fixer, FixMeaning, TargetFixer } from '../model/fixes';

function gather<F>(tables: readonly Readonly<Partial<Record<string, F>>>[]): ReadonlyMap<string, F> {
  return new Map(tables.flatMap((table) => Object.entries(table).filter((e): e is [string, F] => e[1] !== undefined)));
}

/** A rule module's fixer of one kind, as a table entry. */
function fromModules<K extends 'fix' | 'targetFix' | 'fixMeaning'>(kind: K) {
  const table: Record<string, NonNullable<(typeof RULE_MODULES)[number][K]>> = {};
  for (const rule of RULE_MODULES) {
    const fixer = rule[kind];
    if (fixer !== undefined) table[rule.meta.id] = fixer;
  }
  return table;
}

export const FIXERS: ReadonlyMap<string, Fixer> = gather<Fixer>([fromModules('fix')]);

export const TARGET_FIXERS: ReadonlyMap<string, TargetFixer> = gather<TargetFixer>([fromModules('targetFix')]);

/** What each rule's fixer means to `fix` (why it removes, what its edits depend on), by rule id. */
export const FIX_MEANINGS: ReadonlyMap<string, FixMeaning> = gather<FixMeaning>([fromModules('fixMeaning')]);
