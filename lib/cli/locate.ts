/**
 * Finds where a diagnostic points in the files: the object it names (by kind, namespace, name and source) and the
 * line of the offending field via `sourcePosition`. Diagnostics carry no object reference (they are plain data,
 * also produced for objects that never came from a file), so the CLI matches them back to what it loaded.
 */
import { sourcePosition } from '../core/validate';
import type { Diagnostic } from '../core/validate/types';

/** A loaded object and the input it came from. */
export interface LoadedObject {
  readonly object: unknown;
  /** The input's display name: relative path or `<stdin>`. */
  readonly source: string;
}

/** A diagnostic with the file and 1-based position of the offending field, when known. */
export interface LocatedDiagnostic {
  readonly diagnostic: Diagnostic;
  readonly source?: string;
  readonly line?: number;
  readonly column?: number;
}

export type Locator = (diagnostic: Diagnostic) => LocatedDiagnostic;

function identity(kind: unknown, name: unknown): string {
  return `${typeof kind === 'string' ? kind : ''}\u0000${typeof name === 'string' ? name : ''}`;
}

function metadataOf(obj: unknown): { kind?: unknown; name?: unknown; namespace?: unknown } {
  if (typeof obj !== 'object' || obj === null) return {};
  const o = obj as { kind?: unknown; metadata?: unknown };
  const meta = typeof o.metadata === 'object' && o.metadata !== null ? (o.metadata as Record<string, unknown>) : {};
  return { kind: o.kind, name: meta.name, namespace: meta.namespace };
}

/**
 * Builds the lookup once for all objects. For each diagnostic: the objects with the same kind and name, narrowed by
 * source and namespace when those are known; the first one left gives the position.
 */
export function createLocator(objects: readonly LoadedObject[]): Locator {
  const index = new Map<string, LoadedObject[]>();
  for (const entry of objects) {
    const m = metadataOf(entry.object);
    const key = identity(m.kind, m.name);
    const list = index.get(key);
    if (list) list.push(entry);
    else index.set(key, [entry]);
  }

  return (diagnostic) => {
    const r = diagnostic.resource;
    let candidates = index.get(identity(r.kind, r.name)) ?? [];
    if (r.source !== undefined) candidates = narrow(candidates, (c) => c.source === r.source);
    if (r.namespace !== undefined) {
      candidates = narrow(candidates, (c) => {
        const ns = metadataOf(c.object).namespace;
        return ns === r.namespace || ns === undefined;
      });
    }
    const found = candidates[0];
    if (found === undefined) return r.source === undefined ? { diagnostic } : { diagnostic, source: r.source };
    // sourcePosition falls back to the nearest existing ancestor when the field itself is absent.
    const pos = sourcePosition(found.object, diagnostic.path);
    const source = pos?.source ?? r.source ?? found.source;
    return pos ? { diagnostic, source, line: pos.line, column: pos.column } : { diagnostic, source };
  };
}

/** Keeps the candidates that pass, unless none do (then the test was too strict to help). */
function narrow<T>(list: readonly T[], keep: (item: T) => boolean): T[] {
  const kept = list.filter(keep);
  return kept.length > 0 ? kept : [...list];
}
