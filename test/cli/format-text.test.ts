/**
 * The text report at scale: every finding of one file is aligned to one position width, found without spreading
 * the findings into one call (a large input's findings passed the engine's argument limit: "Maximum call stack
 * size exceeded", exit 2, instead of a report).
 */
import { formatText } from '../../lib/cli/format-text';
import type { LocatedDiagnostic } from '../../lib/cli/locate';

describe('formatText', () => {
  test('reports 200,000 findings of one file, their positions padded to the widest', () => {
    const items: LocatedDiagnostic[] = Array.from({ length: 200_000 }, (_, i) => ({
      diagnostic: {
        ruleId: 'windows-os-unset',
        severity: 'info',
        message: 'spec.os.name is not set.',
        path: 'spec.os',
        resource: { kind: 'Pod', name: `p${i}` },
      },
      source: 'big.yaml',
      line: i + 1,
      column: 3,
    }));
    const text = formatText(items, {
      color: false,
      objectCount: 200_000,
      inputCount: 1,
      inputProblemCount: 0,
      markFixable: false,
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe('big.yaml');
    expect(lines[1]).toBe('  Pod p0');
    // `200000:3` is 8 wide: the first finding's position is padded to it.
    expect(lines[2]).toBe('    1:3       info     spec.os.name is not set.  windows-os-unset');
    expect(lines.at(-2)).toBe('⚠ 200000 problems (0 errors, 0 warnings, 200000 info) in 200000 objects from 1 input');
  });

  test("a finding placed on a template's first line says where it is in the rendered output; one on its own line does not", () => {
    const diagnostic = {
      ruleId: 'image-build-mismatch',
      severity: 'error' as const,
      message: 'Image is built for Windows Server 2019.',
      path: 'spec.template.spec.containers[0].image',
      resource: { kind: 'Deployment', name: 'web', source: 'charts/web (helm template)' },
    };
    const text = formatText(
      [
        {
          diagnostic,
          source: 'charts/web/templates/deployment.yaml',
          line: 1,
          rendered: { by: 'helm template charts/web', line: 40, column: 11, exact: false },
        },
        {
          diagnostic: { ...diagnostic, path: 'spec.template.spec.os', message: 'spec.os.name is not set.' },
          source: 'charts/web/templates/deployment.yaml',
          line: 12,
          column: 5,
          rendered: { by: 'helm template charts/web', line: 30, column: 5, exact: true },
        },
      ],
      { color: false, objectCount: 1, inputCount: 1, inputProblemCount: 0, markFixable: false },
    );
    expect(text.split('\n').slice(0, 6)).toEqual([
      'charts/web/templates/deployment.yaml',
      '  Deployment web',
      '    1:1   error    Image is built for Windows Server 2019.  image-build-mismatch',
      '                   at spec.template.spec.containers[0].image',
      '                   rendered: line 40, column 11 of helm template charts/web',
      '    12:5  error    spec.os.name is not set.  image-build-mismatch',
    ]);
    expect(text).not.toContain('line 30');
  });
});
