/**
 * `fixManifestSet` reads a text with the loader's fast path and builds a `yaml` node tree only for a document it
 * edits (memory stays bounded on large inputs). Everything it returns is what reading every document with `yaml`
 * returns (`{ fast: false }`): the fixed texts byte for byte, the changes, the refusals, the findings with their
 * positions, the errors. Generated files: harm.property.test.ts holds the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fixManifestSet, type FixOptions } from '../../../lib/core/fix';

const FIXTURES = ['realworld', 'fix'].map((d) => path.join(__dirname, '..', '..', 'fixtures', d));
const OPTIONS: readonly FixOptions[] = [{}, { cloud: 'gke', windowsRelease: '2022', pinLinux: true }];

function bothWays(text: string, options: FixOptions, source?: string) {
  const inputs = [{ text, ...(source !== undefined ? { source } : {}) }];
  return { fast: fixManifestSet(inputs, options), slow: fixManifestSet(inputs, options, { fast: false }) };
}

const POD = (name: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  nodeSelector:\n    kubernetes.io/os: windows\n  containers:\n  - name: c\n    image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n`;

describe('fix reads only the documents it edits with yaml, with the same result', () => {
  const files = FIXTURES.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .map((f) => path.join(dir, f)),
  );

  test.each(files)('%s', (file) => {
    const text = readFileSync(file, 'utf8');
    for (const options of OPTIONS) {
      const { fast, slow } = bothWays(text, options, path.basename(file));
      expect(fast).toEqual(slow);
    }
  });

  const FORMS: Record<string, string> = {
    'comments and blank lines between documents': `# lead\n${POD('a')}# trailing\n\n---\n# c\n${POD('b')}`,
    'no newline at the end': `${POD('a')}---\n${POD('b')}`.replace(/\n$/, ''),
    'blank lines at the end': `${POD('a')}\n\n\n`,
    'an empty document at the end': `${POD('a')}---\n`,
    'empty documents between': `${POD('a')}---\n---\n# only a comment\n---\n${POD('b')}`,
    CRLF: `${POD('a')}---\n${POD('b')}`.replace(/\n/g, '\r\n'),
    'a byte-order mark': `\uFEFF${POD('a')}---\n${POD('b')}`,
    'a List': `apiVersion: v1\nkind: List\nitems:\n- ${POD('a').replace(/\n(?=.)/g, '\n  ')}- ${POD('b').replace(/\n(?=.)/g, '\n  ')}`,
    'JSON documents': `${JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'j' }, spec: { nodeSelector: { 'kubernetes.io/os': 'windows' }, containers: [{ name: 'c', image: 'x:1' }] } }, null, 2)}\n---\n${POD('b')}`,
    'an anchor in one document': `${POD('a')}---\n${POD('b').replace('containers:\n', 'containers: &c\n')}---\n${POD('c')}`,
    'a malformed document between': `${POD('a')}---\nkind: [unclosed\n---\n${POD('b')}`,
    'content on the marker line': `--- ${JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'm' }, spec: { nodeSelector: { 'kubernetes.io/os': 'windows' }, containers: [{ name: 'c', image: 'x:1' }] } })}\n---\n${POD('b')}`,
    'a directive (read whole by yaml)': `%YAML 1.2\n---\n${POD('a')}---\n${POD('b')}`,
  };

  test.each(Object.entries(FORMS))('%s', (_name, text) => {
    for (const options of OPTIONS) {
      const { fast, slow } = bothWays(text, options, 'forms.yaml');
      expect(fast).toEqual(slow);
      expect(fast.changes.length).toBeGreaterThan(0);
    }
  });
});
