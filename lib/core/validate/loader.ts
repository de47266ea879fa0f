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
  readWhole,
  releasePositions,
  rememberMeant,
  sourceOf,
  sourcePosition,
  sourcePositionAt,
  type LoadError,
  type LoadResult,
  type SourcePosition,
} from '../yaml';
