/**
 * Lint at scale: `k8s-windows lint` on a 40 MB manifest set (40,000 objects, the size a user measured at 20.8 s)
 * against js-yaml reading the same file, the fastest well-kept YAML parser: the floor of any linter that must read
 * every document. Positions are built only for the documents a finding points into.
 */
import { loadAll } from 'js-yaml';
import { defineBench } from './harness';
import { lintCase } from './lint-case';

const OBJECT_COUNT = 40_000;

export default defineBench({
  title: `k8s-windows lint vs js-yaml loadAll, ${OBJECT_COUNT.toLocaleString('en-US')} objects (about 40 MB)`,
  aim: 4,
  warmup: 1,
  rounds: 3,
  setup: () => lintCase(OBJECT_COUNT, { label: 'js-yaml loadAll', read: (text) => loadAll(text) }),
});
