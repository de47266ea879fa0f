/**
 * A document that writes apiVersion, kind, metadata or spec in another case (`Kind:`, `apiversion:`; issue 34):
 * kubectl refuses it, so it is an error naming the key as written and its line, and the object is judged as if it
 * were spelled right, so its Windows problems are found too. `fix` leaves such a document as it is.
 */
import { fixManifests } from '../../../lib/core/fix';
import { loadManifests, validateManifests } from '../../../lib/core/validate';
import { asMeant, looksLikeObject, miscasedKeys, writtenKey } from '../../../lib/core/model/key-case';
import type { Diagnostic } from '../../../lib/core/model/types';

const NANOSERVER = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';

/** A Windows pod that the API server rejects for a Linux-only field (runAsUser), its top-level keys as given. */
const pod = (keys: { apiVersion?: string; kind?: string; metadata?: string; spec?: string } = {}, name = 'web') =>
  [
    `${keys.apiVersion ?? 'apiVersion'}: v1`,
    `${keys.kind ?? 'kind'}: Pod`,
    `${keys.metadata ?? 'metadata'}: {name: ${name}}`,
    `${keys.spec ?? 'spec'}:`,
    '  os: {name: windows}',
    `  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.20348'}`,
    '  tolerations: [{key: os, operator: Equal, value: windows, effect: NoSchedule}]',
    '  securityContext:',
    '    runAsUser: 1000',
    '  containers:',
    '  - name: web',
    `    image: ${NANOSERVER}`,
    '',
  ].join('\n');

const wrongCase = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => d.ruleId === 'input-invalid-document' && d.messageId === 'wrong-case');
const at = (d: Diagnostic | undefined) => d?.location?.position;

describe('a key written in another case', () => {
  test('Kind: is an error saying "did you mean kind?", at its line; a good document beside it is not touched', () => {
    const text = `${pod({}, 'good')}---\n${pod({ kind: 'Kind' }, 'bad')}`;
    const found = validateManifests(loadManifests(text, 'pods.yaml'));
    expect(wrongCase(found)).toEqual([
      {
        ruleId: 'input-invalid-document',
        messageId: 'wrong-case',
        severity: 'error',
        message:
          "Document 2 writes 'Kind': did you mean kind? kubectl reads keys case-sensitively and refuses the document (Object 'Kind' is missing in '…'); it is checked here as if kind were written.",
        fix: 'Write kind, not Kind: Kubernetes field names are case-sensitive.',
        path: 'Kind',
        resource: { apiVersion: 'v1', kind: 'Pod', name: 'bad', source: 'pods.yaml' },
        location: { object: 1, segments: ['Kind'], position: { source: 'pods.yaml', line: 15, column: 1 } },
      },
    ]);
    // Nothing says the good pod has no kind, and nothing says the bad one has none either: it is read as meant.
    expect(found.filter((d) => d.ruleId === 'input-invalid-document')).toHaveLength(1);
  });

  test('the object is judged anyway: both pods have the same Windows finding, each at its own line', () => {
    const text = `${pod({}, 'good')}---\n${pod({ kind: 'Kind' }, 'bad')}`;
    const forbidden = validateManifests(loadManifests(text, 'pods.yaml')).filter(
      (d) => d.ruleId === 'windows-forbidden-field',
    );
    expect(forbidden.map((d) => [d.resource.name, d.path, at(d)?.line])).toEqual([
      ['good', 'spec.securityContext.runAsUser', 9],
      ['bad', 'spec.securityContext.runAsUser', 22],
    ]);
  });

  test('Kind: and apiversion: together: one error each, and the pod is still judged', () => {
    const text = pod({ apiVersion: 'apiversion', kind: 'Kind' });
    const found = validateManifests(loadManifests(text, 'pod.yaml'));
    expect(wrongCase(found).map((d) => [d.path, d.severity, at(d)?.line, at(d)?.column])).toEqual([
      ['apiversion', 'error', 1, 1],
      ['Kind', 'error', 2, 1],
    ]);
    expect(wrongCase(found)[0].message).toBe(
      "Document 1 writes 'apiversion': did you mean apiVersion? kubectl reads keys case-sensitively and refuses the document; it is checked here as if apiVersion were written.",
    );
    expect(found.map((d) => d.ruleId)).toContain('windows-forbidden-field');
    // What it is missing is not said as well: it has both, written in another case.
    expect(found.filter((d) => d.messageId === 'missing-fields')).toEqual([]);
  });

  test('Metadata: and SPEC: are read as meant, and a finding inside SPEC points into it', () => {
    const text = pod({ metadata: 'Metadata', spec: 'SPEC' });
    const found = validateManifests(loadManifests(text, 'pod.yaml'));
    expect(wrongCase(found).map((d) => [d.path, at(d)?.line])).toEqual([
      ['Metadata', 3],
      ['SPEC', 4],
    ]);
    const forbidden = found.find((d) => d.ruleId === 'windows-forbidden-field');
    expect([forbidden?.resource.name, forbidden?.path, at(forbidden)?.line]).toEqual([
      'web',
      'spec.securityContext.runAsUser',
      9,
    ]);
    // An unknown field it is not: the key is read as spec.
    expect(found.filter((d) => d.ruleId === 'api-unknown-field')).toEqual([]);
  });

  test('a key that is also written right is an unknown field, not a misspelt one', () => {
    const text = pod().replace('kind: Pod\n', 'kind: Pod\nKind: Pod\n');
    const found = validateManifests(loadManifests(text));
    expect(wrongCase(found)).toEqual([]);
    expect(found.filter((d) => d.ruleId === 'api-unknown-field').map((d) => d.path)).toEqual(['Kind']);
  });

  test('apiversion: without any kind: the misspelling is an error, the missing kind a warning as before', () => {
    const found = validateManifests(loadManifests('apiversion: v1\nmetadata: {name: settings}\n'));
    expect(
      found.filter((d) => d.ruleId === 'input-invalid-document').map((d) => [d.messageId, d.severity, d.path]),
    ).toEqual([
      ['wrong-case', 'error', 'apiversion'],
      ['missing-fields', 'warning', 'kind'],
    ]);
  });

  test('objects given in code (no loader) are read the same way, without positions', () => {
    const found = validateManifests([
      { apiversion: 'v1', KIND: 'Pod', metadata: { name: 'web' }, spec: { os: { name: 'windows' }, hostNetwork: 1 } },
    ]);
    expect(wrongCase(found).map((d) => [d.path, d.location?.position])).toEqual([
      ['apiversion', undefined],
      ['KIND', undefined],
    ]);
    expect(found.length).toBeGreaterThan(2);
  });

  test('the input is not changed: the engine judges a copy', () => {
    const given = { Kind: 'Pod', apiVersion: 'v1', metadata: { name: 'web' }, spec: { containers: [] } };
    const before = JSON.stringify(given);
    validateManifests([given]);
    expect(JSON.stringify(given)).toBe(before);
  });

  test('fix leaves the document as written (its paths are not in the text), says why, and fixes the one beside it', () => {
    const text = `${pod({}, 'good')}---\n${pod({ kind: 'Kind' }, 'bad')}`;
    const result = fixManifests(text);
    const [good, bad] = result.text.split('---\n');
    expect(bad).toBe(pod({ kind: 'Kind' }, 'bad'));
    expect(good).not.toContain('runAsUser');
    expect(result.changes.every((c) => c.resource.name === 'good')).toBe(true);
    expect(result.refused).toEqual([
      {
        ruleId: 'windows-forbidden-field',
        path: 'spec.securityContext.runAsUser',
        resource: { apiVersion: 'v1', kind: 'Pod', name: 'bad' },
        reason: "the document writes 'Kind' for kind (input-invalid-document)",
        message:
          "not changed: spec.securityContext.runAsUser: the document writes 'Kind' for kind (input-invalid-document); write kind, then run fix again (windows-forbidden-field).",
      },
    ]);
    expect(
      result.diagnostics
        .filter((d) => d.resource.name === 'bad')
        .map((d) => d.ruleId)
        .filter((id) => id === 'input-invalid-document' || id === 'windows-forbidden-field'),
    ).toEqual(['windows-forbidden-field', 'input-invalid-document']);
  });
});

describe('key-case helpers', () => {
  test('miscasedKeys: only the four object keys, only the top level, only where the right spelling is absent', () => {
    expect(miscasedKeys({ ApiVersion: 'v1', KIND: 'Pod', Metadata: {}, sPeC: {}, Status: {} })).toEqual([
      { written: 'ApiVersion', meant: 'apiVersion' },
      { written: 'KIND', meant: 'kind' },
      { written: 'Metadata', meant: 'metadata' },
      { written: 'sPeC', meant: 'spec' },
    ]);
    expect(miscasedKeys({ kind: 'Pod', Kind: 'Pod' })).toEqual([]);
    expect(miscasedKeys({ Kind: 'Pod', KIND: 'Job' })).toEqual([{ written: 'Kind', meant: 'kind' }]);
    expect(miscasedKeys([{ Kind: 'Pod' }])).toEqual([]);
    expect(miscasedKeys('Kind')).toEqual([]);
  });

  test('asMeant renames in place and keeps the values; writtenKey finds the key as written', () => {
    const doc = { apiversion: 'v1', Kind: 'Pod', spec: { a: 1 } };
    const meant = asMeant(doc, miscasedKeys(doc)) as Record<string, unknown>;
    expect(Object.keys(meant)).toEqual(['apiVersion', 'kind', 'spec']);
    expect(meant.spec).toBe(doc.spec);
    expect(asMeant(doc, [])).toBe(doc);
    expect([writtenKey(doc, 'kind'), writtenKey(doc, 'spec'), writtenKey(doc, 'status'), writtenKey(doc, 0)]).toEqual([
      'Kind',
      'spec',
      'status',
      0,
    ]);
  });

  test('a __proto__ key stays a plain key of the copy', () => {
    const doc = JSON.parse('{"Kind": "Pod", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const meant = asMeant(doc, miscasedKeys(doc)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(meant)).toBe(Object.prototype);
    expect(Object.keys(meant)).toEqual(['kind', '__proto__']);
  });

  test('looksLikeObject: kind, or kind and apiVersion both in some case', () => {
    expect(looksLikeObject({ kind: 'Pod' })).toBe(true);
    expect(looksLikeObject({ apiVersion: 'v1', Kind: 'Pod' })).toBe(true);
    expect(looksLikeObject({ APIVERSION: 'v1', KIND: 'Pod' })).toBe(true);
    expect(looksLikeObject({ Kind: 'Pod' })).toBe(false);
    expect(looksLikeObject({ replicaCount: 2 })).toBe(false);
    expect(looksLikeObject(null)).toBe(false);
  });
});
