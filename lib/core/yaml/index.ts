/**
 * YAML text handling, behind one door (README.md beside this file): reading manifests with a way to place a path in
 * their text, and editing a read document so that only the edited fields change. validate/ and fix/ import this
 * index only (test/layers.test.ts holds them to it).
 */

// Reading: two readers (js-yaml's fast path, `yaml`'s node tree) with one result, and a finding's path placed.
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
} from './loader';
/**
 * The loader's internals the engine and fix use, tagged internal there: re-exported apart and tagged so too, so the
 * published declarations (tsconfig.build.json `stripInternal`) leave this out instead of naming what is gone.
 * @internal
 */
export { readWhole, releasePositions, rememberMeant, sourcePositionAt } from './loader';

// Editing: a text read for fixing, each object's edits made by one strategy (`editorOf`: its lines, else its node
// tree), the text rendered.
export {
  editorOf,
  nextReadings,
  parseText,
  readText,
  renderText,
  WholeListNeeded,
  type DirectEdits,
  type DocObject,
  type EditResult,
  type ObjectEditor,
  type ParsedDoc,
  type ParsedText,
  type Readings,
} from './document';
export type { EditOf, EditOp, Operation, Operations, StrategyTypes } from './operations';
