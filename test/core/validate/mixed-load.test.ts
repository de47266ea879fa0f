/**
 * A stream whose documents need different readers: one with an anchor (or a false alarm such as `&&` in a
 * string), one js-yaml refuses, the rest plain. Each document goes to the reader it needs, and the objects,
 * errors, findings and positions are those of reading the whole stream with `yaml` (issue 24: one `&&` in a
 * string sent 40 MB of real manifests through the slow reader).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { validateManifests } from '../../../lib/core/validate';
import { loadManifestsWithErrors, sourcePosition } from '../../../lib/core/yaml';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const pod = (name: string, extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: c\n    image: ${IIS}\n${extra}`;

const STREAM = [
  pod('plain-1'),
  `${pod('false-alarm')}    args: ["a && b"]\n`,
  `${pod('anchored')}    resources: &r {limits: {memory: 1Gi}}\n  initContainers:\n  - name: i\n    image: ${IIS}\n    resources: *r\n`,
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\ndata: {}\n',
  pod('plain-2', '  securityContext:\n    runAsUser: 1000\n'),
].join('---\n');

describe('a stream of documents needing different readers', () => {
  test('reads as the yaml path reads it: objects, errors, findings, positions', () => {
    const mixed = loadManifestsWithErrors(STREAM, 'mixed.yaml');
    const slow = loadManifestsWithErrors(STREAM, 'mixed.yaml', { fast: false });
    expect(mixed.objects).toEqual(slow.objects);
    expect(mixed.errors).toEqual(slow.errors);
    expect(mixed.errors.length).toBeGreaterThan(0);
    expect(validateManifests(mixed.objects)).toEqual(validateManifests(slow.objects));
    for (const [i, o] of mixed.objects.entries()) {
      for (const p of ['metadata.name', 'spec.containers[0].image', 'spec.securityContext.runAsUser']) {
        expect(sourcePosition(o, p)).toEqual(sourcePosition(slow.objects[i], p));
      }
    }
  });

  test('the real-world corpus as one stream', () => {
    const dir = path.join(__dirname, '../../fixtures/realworld');
    const text = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) =>
        readFileSync(path.join(dir, f), 'utf8')
          .replace(/^\uFEFF/, '')
          .replace(/([^\n])$/, '$1\n'),
      )
      .join('---\n');
    const mixed = loadManifestsWithErrors(text, 'all.yaml');
    const slow = loadManifestsWithErrors(text, 'all.yaml', { fast: false });
    expect(mixed.errors).toEqual(slow.errors);
    expect(mixed.objects).toEqual(slow.objects);
    expect(validateManifests(mixed.objects)).toEqual(validateManifests(slow.objects));
  });
});
