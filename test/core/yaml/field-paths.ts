/**
 * Every path in a value, in API-server notation, plus one absent field under each mapping: what the fast-load tests
 * locate both ways (fast-load.test.ts, fast-load.property.test.ts).
 */
export function fieldPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const out: string[] = [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  if (!Array.isArray(value)) out.push(`${prefix}${prefix ? '.' : ''}absentField`);
  for (const [k, v] of entries) {
    const p =
      typeof k === 'number'
        ? `${prefix}[${k}]`
        : /^[A-Za-z0-9_-]+$/.test(k)
          ? `${prefix}${prefix ? '.' : ''}${k}`
          : `${prefix}[${k}]`;
    out.push(p, ...fieldPaths(v, p));
  }
  return out;
}
