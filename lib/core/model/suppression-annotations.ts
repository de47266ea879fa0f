/**
 * The suppression annotations written on an object (`suppress.k8s-windows.io/<rule-id>: <reason>`, the older
 * `k8s-windows.io/waive` list), as read: the engine applies them (validate/suppressions.ts) and the
 * `suppression-invalid` rule checks them, so they sit below both.
 */
import type { PodSpecLocation } from '../workloads';
import { SUPPRESS_ANNOTATION_PREFIX, WAIVE_ANNOTATION } from './types';
import { isRecord, rec, str } from './util';

/** One suppression annotation on an object: where it is, the rule ids it names and the reason it gives. */
export interface SuppressionAnnotation {
  /** `metadata.annotations[suppress.k8s-windows.io/windows-startup-probe]`. */
  readonly path: string;
  readonly ruleIds: readonly string[];
  /** Absent for the older waive list. */
  readonly reason?: string;
  readonly legacy: boolean;
}

/** Every suppression annotation of an object: its own metadata and, for workloads, its pod template's. */
export function suppressionAnnotations(obj: unknown, loc?: PodSpecLocation): SuppressionAnnotation[] {
  const out: SuppressionAnnotation[] = [];
  const own = rec(obj, 'metadata');
  const places: { value: unknown; path: string }[] = [{ value: own, path: 'metadata' }];
  if (loc?.podMetadata !== undefined && loc.podMetadata !== own) {
    places.push({
      value: loc.podMetadata,
      path: loc.podMetadataPath ?? `${loc.path.replace(/\.?spec$/, '')}.metadata`,
    });
  }
  for (const { value, path } of places) {
    const annotations = rec(value, 'annotations');
    if (!isRecord(annotations)) continue;
    for (const key of Object.keys(annotations)) {
      const at = `${path}.annotations[${key}]`;
      if (key === WAIVE_ANNOTATION) {
        const list = str(annotations, key) ?? '';
        const ruleIds = list
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        out.push({ path: at, ruleIds, legacy: true });
      } else if (key.startsWith(SUPPRESS_ANNOTATION_PREFIX)) {
        const value = annotations[key];
        out.push({
          path: at,
          ruleIds: [key.slice(SUPPRESS_ANNOTATION_PREFIX.length)],
          ...(typeof value === 'string' ? { reason: value.trim() } : {}),
          legacy: false,
        });
      }
    }
  }
  return out;
}
