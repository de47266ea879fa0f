/**
 * Lint throughput (DESIGN.md, Performance): `k8s-windows lint` on a 10,000-object manifest vs parsing the same file
 * with `yaml` alone. The candidate is the CLI's own `run()` in-process, text output to a sink, so the figure
 * covers reading, loading with positions, validating and formatting; the baseline is the floor any YAML linter pays.
 */
import { parseAllDocuments } from 'yaml';
import { defineBench } from './harness';
import { lintCase } from './lint-case';

/** Objects in the generated manifest (DESIGN.md: a 10,000-object manifest). */
const OBJECT_COUNT = 10_000;

export default defineBench({
  title: `k8s-windows lint (load + validate + text output) vs yaml parse + toJS, ${OBJECT_COUNT.toLocaleString('en-US')} objects`,
  aim: 1.5,
  warmup: 1,
  rounds: 5,
  setup: () =>
    lintCase(OBJECT_COUNT, { label: 'yaml parse', read: (text) => parseAllDocuments(text).map((d) => d.toJS()) }),
});
