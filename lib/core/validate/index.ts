/**
 * The rule engine: `validateManifests` over any Kubernetes objects, the loaders that read manifests with their
 * positions, and the rule catalogue.
 *
 * Behaviour worth knowing:
 * - The API server's Windows rules (`windows-forbidden-field`, error) apply to pods with `spec.os.name: windows`,
 *   exactly as admission does. Pods that are Windows only by their nodeSelector, required node affinity,
 *   RuntimeClass or images pass admission with the same fields; those are reported under the distinct id
 *   `windows-linux-only-field` (warning), so users can re-level the two independently.
 * - HostProcess consistency and windowsOptions formats are checked for every pod, whatever its OS.
 * - A finding may carry a lower severity than its rule's default when the input cannot settle it (an RBAC grant
 *   with no RBAC objects in the set is `info`; a HostProcess user that may be a local group is `warning`);
 *   `options.rules` re-levels every finding of a rule regardless.
 * - Cross-object rules look only inside the given set; a RuntimeClass, Namespace or role that is not in it is
 *   never assumed bad.
 * - `loadManifests` throws one `Error` listing every malformed document; `loadManifestsWithErrors` keeps the
 *   well-formed documents and returns the problems (the CLI uses it).
 */
export * from './types';
export { RULES, RULES_BY_ID, type RuleId } from './rules';
export { validateManifests } from './engine';
export {
  loadManifests,
  loadManifestsWithErrors,
  sourcePosition,
  type LoadError,
  type LoadResult,
  type SourcePosition,
} from './loader';
