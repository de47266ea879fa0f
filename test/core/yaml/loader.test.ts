/** loadManifests / loadManifestsWithErrors / sourcePosition. */
import { loadManifests, validateManifests } from 'k8s-windows';
import { loadManifestsWithErrors, sourcePosition } from '../../../lib/core/yaml/loader';

const MULTI = `# a comment before the first document
apiVersion: v1
kind: Pod
metadata:
  name: one
spec:
  os:
    name: windows
  containers:
    - name: app
      image: mcr.microsoft.com/windows/nanoserver:ltsc2022
      securityContext:
        runAsUser: 1000
---
---
# an empty document above is skipped
apiVersion: v1
kind: Service
metadata: { name: two }
`;

describe('loadManifests', () => {
  test('multi-document YAML with comments and empty documents', () => {
    const objs = loadManifests(MULTI, 'app.yaml') as { metadata: { name: string } }[];
    expect(objs.map((o) => o.metadata.name)).toEqual(['one', 'two']);
  });

  test('JSON', () => {
    expect(loadManifests('{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}}')).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
    ]);
  });

  test('List kinds are unwrapped', () => {
    const text = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } },
      ],
    });
    expect(loadManifests(text).map((o) => (o as { metadata: { name: string } }).metadata.name)).toEqual(['a', 'b']);
    const podList = 'apiVersion: v1\nkind: PodList\nitems:\n  - {apiVersion: v1, kind: Pod, metadata: {name: p}}\n';
    expect(loadManifests(podList)).toEqual([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }]);
  });

  test('anchors, aliases and merge keys', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: a
  labels: &sel
    kubernetes.io/os: windows
spec:
  nodeSelector: *sel
  tolerations:
    - &tol {key: os, operator: Equal, value: windows, effect: NoSchedule}
  containers:
    - <<: {image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022'}
      name: app
`;
    const [p] = loadManifests(text) as { spec: Record<string, unknown> }[];
    expect(p.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(p.spec.containers).toEqual([{ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', name: 'app' }]);
  });

  test('throws one Error naming every malformed document with line and column', () => {
    expect(() => loadManifests('a: 1\n---\nkey: [unclosed\n', 'bad.yaml')).toThrow(/bad\.yaml:4:1: /);
  });
});

describe('loadManifestsWithErrors', () => {
  test('a malformed document is reported and the others still load', () => {
    const text =
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\nspec:\n  a: 1\n b: 2\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: c}\n';
    const { objects, errors } = loadManifestsWithErrors(text, 'mixed.yaml');
    expect(objects.map((o) => (o as { metadata: { name: string } }).metadata.name)).toEqual(['a', 'c']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ source: 'mixed.yaml', line: 7, column: 1 });
    expect(errors[0].message).toEqual(expect.any(String));
  });

  test('an alias bomb is an error, not a hang', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const { objects, errors } = loadManifestsWithErrors(lines.join('\n'));
    expect(objects).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});

describe('sourcePosition and resource.source', () => {
  const [pod, svc] = loadManifests(MULTI, 'app.yaml');

  test('gives the 1-based line and column of the node at an API-server path', () => {
    expect(sourcePosition(pod, 'spec.containers[0].securityContext.runAsUser')).toEqual({
      source: 'app.yaml',
      line: 13,
      column: 9,
    });
    expect(sourcePosition(pod, 'spec.containers[0]')).toEqual({ source: 'app.yaml', line: 10, column: 7 });
    expect(sourcePosition(svc, 'metadata.name')).toEqual({ source: 'app.yaml', line: 19, column: 13 });
  });

  test('falls back to the nearest existing ancestor, then the document start', () => {
    expect(sourcePosition(pod, 'spec.containers[0].securityContext.windowsOptions.runAsUserName')).toEqual({
      source: 'app.yaml',
      line: 12,
      column: 7,
    });
    expect(sourcePosition(pod, 'status.phase')).toEqual({ source: 'app.yaml', line: 2, column: 1 });
  });

  test('positions of List items are inside the List', () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata:\n      name: p\n';
    const [item] = loadManifests(text);
    expect(sourcePosition(item, 'metadata.name')).toEqual({ line: 7, column: 7 });
  });

  test('map keys with dots are addressed in brackets', () => {
    const [obj] = loadManifests('kind: Pod\nspec:\n  nodeSelector:\n    kubernetes.io/os: windows\n');
    expect(sourcePosition(obj, 'spec.nodeSelector[kubernetes.io/os]')).toEqual({ line: 4, column: 5 });
  });

  test('objects the loaders did not return have no position', () => {
    expect(sourcePosition({ kind: 'Pod' }, 'spec')).toBeUndefined();
    expect(sourcePosition(null, 'spec')).toBeUndefined();
  });

  test('diagnostics carry the loader source without visible fields on the objects', () => {
    const [d] = validateManifests([pod], {
      rules: { 'windows-node-selector-missing': 'off', 'windows-toleration-missing': 'off' },
    });
    expect(d).toMatchObject({
      ruleId: 'windows-forbidden-field',
      resource: { kind: 'Pod', name: 'one', source: 'app.yaml' },
    });
    expect(Object.keys(pod as object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });
});
