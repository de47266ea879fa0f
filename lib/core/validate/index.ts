/**
 * The rule engine: `validateManifests` over any Kubernetes objects, the loaders that read manifests with their
 * positions, and the rule catalogue.
 *
 * Behaviour worth knowing:
 * - The API server's Windows rules (`windows-forbidden-field`, error) apply to pods with `spec.os.name: windows`,
 *   exactly as admission does. Pods that are Windows only by their nodeSelector (`kubernetes.io/os` or the
 *   deprecated beta label), required node affinity, RuntimeClass, HostProcess containers or a Windows image pass
 *   admission with the same fields; those are reported under the distinct id `windows-linux-only-field` (info: the
 *   Windows kubelet ignores them), so users can re-level the two independently.
 * - Errors and warnings name a concrete failure; advice is info. Some advice becomes a warning with context: a
 *   namespace that enforces restricted, `options.cloud` (GKE taints Windows nodes; EKS reads the nodeSelector).
 * - HostProcess consistency and windowsOptions formats are checked for every pod, whatever its OS.
 * - A finding may carry another severity than its rule's default in a case its rule names (`RuleInfo.cases`: an
 *   RBAC grant the pod's own file says nothing about is `info`; a HostProcess user that may be a local group is
 *   `warning`); `options.rules` re-levels every finding of a rule regardless.
 * - The catalogue also holds the cloud rules (families `node-pools`, `eks`, `aks`, `gke`), checked on Pulumi
 *   resources by the policy pack and the node-pool components, never on manifests.
 * - Cross-object rules look only inside the given set, and by default only inside one loaded file for the rules
 *   that compare a pod with its neighbours (`options.crossObjectScope`); a RuntimeClass, Namespace or role that
 *   is not in the set is never assumed bad.
 * - `loadManifests` throws one `Error` listing every malformed document; `loadManifestsWithErrors` keeps the
 *   well-formed documents and returns the problems (the CLI uses it).
 */
export * from '../model/types';
export { RULES, RULES_BY_ID, type RuleId } from './rules';
export { validateManifests } from './engine';
export {
  imageReferencesOf,
  type ImageFacts,
  type ImageFactsRecord,
  type ImageLookup,
  type ImageLookupCause,
  type ImageLookups,
  type ImagePlatform,
} from '../model/image-facts';
export {
  loadManifests,
  loadManifestsWithErrors,
  sourcePosition,
  type LoadError,
  type LoadResult,
  type SourcePosition,
} from './loader';
