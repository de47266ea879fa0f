/**
 * Field-by-field comparison of an add-on's output with the upstream manifest it follows (not a test file): every
 * upstream field is ours or its difference is listed; every listed difference still is one.
 */
import { parse } from 'yaml';
import type { AddonDifference } from '../../lib/core/addons/common';
import type { Manifest } from '../helpers/cdk8s';

/** Every leaf of an object, by its path in API-server notation. */
function leaves(value: unknown, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`).forEach((x, k) => out.set(k, x)));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const key = /^[A-Za-z0-9_-]+$/.test(k) ? `${path}${path ? '.' : ''}${k}` : `${path}["${k}"]`;
      leaves(v, key).forEach((x, p) => out.set(p, x));
    }
  } else out.set(path, value);
  return out;
}

const under = (path: string, prefix: string): boolean =>
  prefix === '' || path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);

/** An object's leaves; a ConfigMap's `config.yml` parsed, so settings are compared, not text. */
function fields(obj: Manifest | undefined): Map<string, unknown> {
  if (obj === undefined) return new Map();
  const { data, ...rest } = obj;
  const out = leaves(rest);
  for (const [key, text] of Object.entries((data ?? {}) as Record<string, string>)) {
    const parsed: unknown = key.endsWith('.yml') || key.endsWith('.yaml') ? parse(text) : text;
    leaves(parsed, `data["${key}"]`).forEach((v, k) => out.set(k, v));
  }
  return out;
}

const find = (list: readonly Manifest[], kind: string) => list.find((o) => o.kind === kind);

/** Upstream fields that ours lacks or changes with no listed difference, as `path: upstream …, ours …`. */
export function unexplainedDifferences(
  upstream: readonly Manifest[],
  ours: readonly Manifest[],
  differences: readonly AddonDifference[],
  kinds: readonly string[] = [...new Set(upstream.map((o) => o.kind))],
): string[] {
  const listed = (kind: string, path: string) =>
    differences.some((d) => d.kind === kind && (d.paths.length === 0 || d.paths.some((p) => under(path, p))));
  return kinds.flatMap((kind) => {
    const theirs = fields(find(upstream, kind));
    const mine = fields(find(ours, kind));
    return [...theirs]
      .filter(([path, value]) => mine.get(path) !== value && !listed(kind, path))
      .map(
        ([path, value]) => `${kind} ${path}: upstream ${JSON.stringify(value)}, ours ${JSON.stringify(mine.get(path))}`,
      );
  });
}

/** Listed differences under which no field differs any more. */
export function staleDifferences(
  upstream: readonly Manifest[],
  ours: readonly Manifest[],
  differences: readonly AddonDifference[],
): string[] {
  return differences.flatMap((d) => {
    const theirs = fields(find(upstream, d.kind));
    const mine = fields(find(ours, d.kind));
    return (d.paths.length === 0 ? [''] : d.paths)
      .filter((p) => {
        const keys = [...theirs.keys(), ...mine.keys()].filter((k) => under(k, p));
        return !keys.some((k) => theirs.get(k) !== mine.get(k));
      })
      .map((p) => `${d.kind} ${p || '(the object)'}`);
  });
}
