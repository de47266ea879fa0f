/** "Did you mean" for names users type by hand: rule ids, commands, options. */

/**
 * Candidates within a small edit distance of `input`, or containing it, closest first (at most 3).
 * Rule ids are long and hyphenated, so a typo or a missing `windows-` prefix should still find the id.
 * Linear in the candidates: one whose length alone puts it beyond the budget is not compared, and a comparison
 * stops as soon as the budget is passed, so a config file of 80,000 unknown ids is answered in moments.
 */
export function closeMatches(input: string, candidates: readonly string[]): string[] {
  const needle = input.toLowerCase();
  const compactNeedle = compact(needle);
  const budget = Math.max(2, Math.floor(needle.length / 3));
  const found: { c: string; rank: number; distance: number }[] = [];
  for (const c of candidates) {
    const hay = c.toLowerCase();
    // `hostnetwork` or `floating-tag` name the rule well enough even though the distance is large.
    const contains = needle.length >= 3 && (compact(hay).includes(compactNeedle) || needle.includes(hay));
    if (!contains && Math.abs(hay.length - needle.length) > budget) continue;
    const distance = editDistance(needle, hay, contains ? Infinity : budget);
    const rank = contains ? 0.5 : distance;
    if (rank <= budget) found.push({ c, rank, distance });
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.c.localeCompare(b.c))
    .slice(0, 3)
    .map((x) => x.c);
}

function compact(s: string): string {
  return s.replace(/[-_]/g, '');
}

/** Levenshtein distance, two rows; any value above `max` once every entry of a row is above it. */
function editDistance(a: string, b: string, max = Infinity): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (cur[j] < least) least = cur[j];
    }
    if (least > max) return least;
    prev = cur;
  }
  return prev[b.length];
}

/** How many unknown rule ids of one list get a "did you mean": beyond them, the pointer to the catalogue. */
export const MAX_RULE_SUGGESTIONS = 20;

/**
 * What to write instead of an unknown rule id: the close ids, or where to find them all (always, with
 * `suggest: false`, for ids past the first MAX_RULE_SUGGESTIONS of a list).
 */
export function unknownRuleFix(id: string, ruleIds: readonly string[], suggest = true): string {
  const close = suggest ? closeMatches(id, ruleIds) : [];
  return close.length > 0
    ? `Did you mean ${close.map((c) => `'${c}'`).join(', ')}?`
    : "Run 'k8s-windows rules' to list the rule ids.";
}
