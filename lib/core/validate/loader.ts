/**
 * The loader's functions where the engine and its callers have always imported them: the loader lives in
 * lib/core/yaml/ (its README), and this file passes its door through.
 */
export {
  duplicateKeys,
  formatPath,
  loadManifests,
  loadManifestsWithErrors,
  parsePath,
  sourceOf,
  sourcePosition,
  type LoadError,
  type LoadResult,
  type SourcePosition,
} from '../yaml';
/**
 * Internal to the engine and fix, left out of the published declarations (`stripInternal`).
 * @internal
 */
export { readWhole, releasePositions, rememberMeant, sourcePositionAt } from '../yaml';
