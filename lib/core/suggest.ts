/** "Did you mean" for names users type by hand: rule ids, commands, options. */

/**
 * Candidates within a small edit distance of `input`, or containing it, closest first (at most 3).
 * Rule ids are long and hyphenated, so a typo or a missing `windows-` prefix should still find the id.
 */
export function closeMatches(input: string, candidates: readonly string[]): string[] {
  const needle = input.toLowerCase();
  const compact = (s: string) => s.replace(/[-_]/g, '');
  const budget = Math.max(2, Math.floor(needle.length / 3));
  return candidates
    .map((c) => {
      const hay = c.toLowerCase();
      const distance = editDistance(needle, hay);
      // `hostnetwork` or `floating-tag` name the rule well enough even though the distance is large.
      const contains = needle.length >= 3 && (compact(hay).includes(compact(needle)) || needle.includes(hay));
      return { c, rank: contains ? 0.5 : distance, distance };
    })
    .filter((x) => x.rank <= budget)
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.c.localeCompare(b.c))
    .slice(0, 3)
    .map((x) => x.c);
}

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** What to write instead of an unknown rule id: the close ids, or where to find them all. */
export function unknownRuleFix(id: string, ruleIds: readonly string[]): string {
  const close = closeMatches(id, ruleIds);
  return close.length > 0
    ? `Did you mean ${close.map((c) => `'${c}'`).join(', ')}?`
    : "Run 'k8s-windows rules' to list the rule ids.";
}
