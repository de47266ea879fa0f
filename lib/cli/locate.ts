/**
 * Where a diagnostic points in the files: the engine's own location (the object's index in the input and the
 * field's position in the text it was loaded from), read, never re-derived.
 */
import type { Diagnostic } from '../core/model/types';

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

/** Locates the diagnostics of `validateManifests(objects.map((o) => o.object))`. */
export function createLocator(objects: readonly LoadedObject[]): Locator {
  return (diagnostic) => {
    const at = diagnostic.location;
    const source = at?.position?.source ?? (at !== undefined ? objects[at.object]?.source : undefined);
    const where = source ?? diagnostic.resource.source;
    const pos = at?.position;
    if (pos)
      return { diagnostic, ...(where !== undefined ? { source: where } : {}), line: pos.line, column: pos.column };
    return where === undefined ? { diagnostic } : { diagnostic, source: where };
  };
}
