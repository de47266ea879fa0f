/**
 * The items of a List placed from its lines (lib/core/yaml/list-items.ts), and what fixing them one by one keeps: the
 * List's own words in messages (`items.1`), and the whole-document path where an item cannot be fixed alone.
 * list-items.property.test.ts holds the output to the whole-document path on generated Lists.
 */
import { fixManifestSet } from '../../../lib/core/fix';
import { readText } from '../../../lib/core/yaml/document';
import { splitListItems } from '../../../lib/core/yaml/list-items';

const POD = `- apiVersion: v1
  kind: Pod
  metadata:
    name: web
  spec:
    nodeSelector:
      kubernetes.io/os: windows
    containers:
    - name: c
      image: mcr.microsoft.com/windows/nanoserver:ltsc2022
`;
const CONFIG_MAP = '- {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}}   # flow, with a comment\n';
const HEAD = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';

/** The items' texts as splitListItems places them. */
function split(text: string, count: number): string[] | undefined {
  const items = splitListItems(text, 0, text.length, count);
  return items?.starts.map((s, k) => text.slice(s, items.starts[k + 1] ?? items.end));
}

describe('splitListItems', () => {
  it('places each item from its dash line to the next, comments and blank lines with the item before', () => {
    const text = `${HEAD}items:\n# first\n${CONFIG_MAP}\n# second\n${POD}functionConfig: {}\n`;
    expect(split(text, 2)).toEqual([`${CONFIG_MAP}\n# second\n`, POD]);
    expect(splitListItems(text, 0, text.length, 2)?.prefix).toBe('items:\n');
  });

  it('reads entries indented under items:, a --- line, CRLF and no final line break', () => {
    const indented = POD.replace(/^(?=.)/gm, '  ');
    expect(split(`---\n${HEAD}items:\n${indented}${indented}`, 2)).toEqual([indented, indented]);
    const crlf = `${HEAD}items:\n${CONFIG_MAP}${POD}`.replace(/\n/g, '\r\n').replace(/\r\n$/, '');
    const crlfOf = (t: string) => t.replace(/\n/g, '\r\n');
    expect(split(crlf, 2)).toEqual([crlfOf(CONFIG_MAP), crlfOf(POD).replace(/\r\n$/, '')]);
  });

  it('keeps lines that look like entries inside a block scalar with their item', () => {
    const script = `- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: s}\n  data:\n    run.sh: |\n      - not an item\n      items:\n`;
    expect(split(`${HEAD}items:\n${script}${POD}`, 2)).toEqual([script, POD]);
  });

  it.each([
    ['flow items', `${HEAD}items: [{kind: Pod}, {kind: Pod}]\n`, 2],
    ['a tag on items', `${HEAD}items: !!seq\n${POD}`, 1],
    ['a quoted key', `${HEAD}"items":\n${POD}`, 1],
    ['a flow root', `{"kind": "List", "items": [{"kind": "Pod"}]}`, 1],
    ['tabs for indentation', `${HEAD}items:\n\t${POD}`, 1],
    ['content on the --- line', `--- !!map\n${HEAD}items:\n${POD}`, 1],
    ['a count that differs from what the loader read', `${HEAD}items:\n${POD}${POD}`, 3],
    ['a line less indented than the entries', `${HEAD}items:\n  - kind: Pod\n x: 1\n`, 1],
  ])('leaves %s to the whole-document path', (_name, text, count) => {
    expect(splitListItems(text, 0, text.length, count)).toBeUndefined();
  });
});

describe('fixing a List item by item', () => {
  it('reads a List without aliases as one document per item, and one with an alias as one document', () => {
    const list = `${HEAD}items:\n${CONFIG_MAP}${POD}`;
    expect(readText(list).docs).toHaveLength(2);
    const aliased = `${HEAD}items:\n- {apiVersion: v1, kind: ConfigMap, metadata: &m {name: a}}\n- {apiVersion: v1, kind: Secret, metadata: *m}\n${POD}`;
    expect(readText(aliased).docs).toHaveLength(1);
  });

  it('says where a refused edit is as the List does (items.1), not as the item parsed alone', () => {
    const text = `${HEAD}items:\n${CONFIG_MAP}${POD.replace('nodeSelector:\n      kubernetes.io/os: windows', 'os: {name: windows}\n    nodeSelector: windows')}`;
    const result = fixManifestSet([{ text }], {});
    expect(result.refused.map((r) => r.reason)).toContain('the value at items.1.spec.nodeSelector is not a mapping');
    expect(result).toEqual(fixManifestSet([{ text }], {}, { splitLists: false }));
  });

  it('fixes the List as one document where an item cannot be spliced (a block scalar replaced): re-rendered whole', () => {
    const text = `${HEAD}items:\n${CONFIG_MAP}${POD.replace('nodeSelector:\n      kubernetes.io/os: windows', 'os:\n      name: |-\n        Windows')}`;
    const result = fixManifestSet([{ text }], {});
    expect(result).toEqual(fixManifestSet([{ text }], {}, { splitLists: false }));
    expect(result.changes.map((c) => c.path)).toContain('spec.os.name');
    // The untouched item is written as the yaml library writes the whole List (its comment's spacing).
    expect(result.texts[0]).toContain(
      '- {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}} # flow, with a comment\n',
    );
  });

  it('keeps every byte of the items it does not edit, and writes the edits of the others in place', () => {
    const text = `${HEAD}items:\n${CONFIG_MAP}${POD}${CONFIG_MAP}`;
    const result = fixManifestSet([{ text }], { cloud: 'gke' });
    expect(result.changes.length).toBeGreaterThan(0);
    expect(result.texts[0].startsWith(`${HEAD}items:\n${CONFIG_MAP}- apiVersion: v1\n`)).toBe(true);
    expect(result.texts[0].endsWith(CONFIG_MAP)).toBe(true);
    expect(result).toEqual(fixManifestSet([{ text }], { cloud: 'gke' }, { fast: false }));
  });
});
