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
  /**
   * For a finding in a rendered chart or kustomization, placed on the template or resource file it comes from
   * (render-origins.ts): what rendered it and where the finding is in that output, and whether `line` is the
   * field's own line in the file (`exact`), or the file's (the object's) first line because the field's text is
   * not in the file as rendered.
   */
  readonly rendered?: RenderedPosition;
}

/** Where a finding is in rendered output (`helm template`, `kustomize build`), as the tool printed it. */
export interface RenderedPosition {
  /** The command and directory: `helm template charts/web`, `kustomize build overlays/prod`. */
  readonly by: string;
  /** 1-based, in the rendered text. */
  readonly line?: number;
  readonly column?: number;
  /** Whether the located line is the field's own line in the file. */
  readonly exact: boolean;
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

/** `line 42, column 7 of helm template charts/web`: where a placed finding is in the rendered output. */
export function renderedWhere(rendered: RenderedPosition): string {
  const at =
    rendered.line === undefined
      ? ''
      : `line ${rendered.line}${rendered.column !== undefined ? `, column ${rendered.column}` : ''} of `;
  return `${at}${rendered.by}`;
}

/**
 * What a message adds for a finding placed on a file's first line because the file does not hold the field as it
 * was rendered: where the finding is in the rendered output. '' for every other finding (and one without a rendered
 * position, such as a change fix would make).
 */
export function renderedNote(item: LocatedDiagnostic): string {
  const r = item.rendered;
  if (r === undefined || r.exact || r.line === undefined) return '';
  return ` (At ${renderedWhere(r)}: this file does not hold the field as rendered.)`;
}
