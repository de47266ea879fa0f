// Runs the type checker over every entry (scripts/api-report.ts), hence the e2e project.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ENTRIES, renderAll, staleReports } from '../scripts/api-report';

// The committed reports in api/ are the reviewed public surface: a change to any entry's exports must come with a
// regenerated report, so the change is seen in review.
describe('api report', () => {
  const files = renderAll();

  it('covers every package entry but the cdk8s-plus-NN copies of k8s-windows/cdk8s', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const specifiers = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json' && !/^\.\/cdk8s-plus-\d+$/.test(k))
      .map((k) => (k === '.' ? 'k8s-windows' : `k8s-windows/${k.slice(2)}`));
    expect(ENTRIES.map((e) => e.specifier).sort()).toEqual(specifiers.sort());
  });

  it('matches what `npm run api-report` writes', () => {
    const stale = staleReports(files);
    if (stale.length > 0) {
      throw new Error(`The public surface changed; run \`npm run api-report\` and commit: ${stale.join(', ')}`);
    }
  });
});
