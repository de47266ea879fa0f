/**
 * `fixManifestSet` fixes the items of a List (a KRM ResourceList, a `v1 List`) one by one, as documents of their own
 * (lib/core/yaml/list-items.ts): on generated Lists, everything it returns is what fixing each List as one document
 * returns (`{ splitLists: false }`, the path it replaced) and what reading every document with `yaml` returns
 * (`{ fast: false }`): the text byte for byte, the changes, the refusals, the findings with their positions; so does
starting from a read of the whole text handed over, as `fix --krm` hands over its read of the envelope.
 *
 * The Lists vary in what a line-based split could trip over: items written block (sequence flush or indented),
 * flow or as JSON; comments and blank lines between and inside items; block scalars whose lines look like entries
 * or keys; functionConfig before or after `items`, earlier results, a `---` line, CRLF, a BOM, no final line break;
 * anchors and aliases across items (read whole). Items with and without edits, Windows and Linux pods.
 */
import fc from 'fast-check';
import { Document } from 'yaml';
import { fixManifestSet, type FixOptions } from '../../../lib/core/fix';
import { readText } from '../../../lib/core/yaml/document';
import { readWhole } from '../../../lib/core/yaml/loader';
import { propertyParameters } from '../../helpers/property';

type Rec = Record<string, unknown>;

const IMAGES = {
  windows: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  linux: 'nginx:1.27',
};

const item = fc.record({
  kind: fc.constantFrom('Deployment', 'Pod', 'ConfigMap', 'Service'),
  /**
   * `windows-block`: `os.name: |- Windows`, a block scalar the splicer does not replace, so the List is fixed
   * again as one document (WholeListNeeded) and re-rendered whole, as before.
   */
  os: fc.constantFrom('windows', 'windows-selector', 'windows-capital', 'windows-block', 'linux', 'none'),
  forbidden: fc.boolean(),
  tolerate: fc.boolean(),
  /** A ConfigMap value written as a block scalar whose lines look like List entries and keys. */
  script: fc.boolean(),
  style: fc.constantFrom('block', 'block', 'block-indented', 'flow', 'json', 'json-lines'),
  /** Comment lines: before the item, after its dash, inside it, after it. */
  comments: fc.subarray(['before', 'dash', 'inside', 'after', 'blank'] as const),
  annotate: fc.boolean(),
});
type Item = typeof item extends fc.Arbitrary<infer T> ? T : never;

const list = fc.record({
  items: fc.array(item, { minLength: 1, maxLength: 6 }),
  kind: fc.constantFrom('ResourceList', 'ResourceList', 'List'),
  /** The column of the dashes under `items:`. */
  flush: fc.boolean(),
  functionConfig: fc.constantFrom('none', 'before', 'after'),
  results: fc.boolean(),
  start: fc.constantFrom('', '---\n', '# a list\n---\n'),
  end: fc.constantFrom('\n', '', '\n\n', '\n# end\n'),
  /** An anchor in the first item that a later one aliases: the List is then read as one document. */
  alias: fc.boolean(),
  crlf: fc.boolean(),
  bom: fc.boolean(),
});
type List = typeof list extends fc.Arbitrary<infer T> ? T : never;

function objectOf(i: Item, k: number): Rec {
  const name = `item-${k}`;
  const metadata: Rec = { name, ...(i.annotate ? { annotations: { 'config.kubernetes.io/index': String(k) } } : {}) };
  if (i.kind === 'ConfigMap') {
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata,
      data: i.script ? { 'run.sh': '- not an item\nitems:\n  - nor this\n# nor a comment\n' } : { key: 'value' },
    };
  }
  if (i.kind === 'Service') {
    return { apiVersion: 'v1', kind: 'Service', metadata, spec: { selector: { app: name }, ports: [{ port: 80 }] } };
  }
  const spec: Rec = {};
  if (i.os === 'windows') spec.os = { name: 'windows' };
  if (i.os === 'windows-capital' || i.os === 'windows-block') spec.os = { name: 'Windows' };
  if (i.os === 'windows-selector') spec.nodeSelector = { 'kubernetes.io/os': 'windows' };
  if (i.os === 'linux') spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  const container: Rec = { name: 'app', image: i.os === 'linux' || i.os === 'none' ? IMAGES.linux : IMAGES.windows };
  if (i.forbidden) container.securityContext = { runAsUser: 1000, privileged: false };
  spec.containers = [container];
  if (i.tolerate) spec.tolerations = [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }];
  if (i.kind === 'Pod') return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  };
}

/** `name: Windows` as `name: |-` and `Windows` on the next line, a step deeper. */
function blockScalar(line: string): string[] {
  const indent = /^ */.exec(line)?.[0] ?? '';
  return [line.replace('Windows', '|-'), `${indent}  Windows`];
}

/** The item's lines, unindented: the first after its dash, the others under it. */
function itemLines(i: Item, obj: Rec): string[] {
  switch (i.style) {
    case 'json':
      return [JSON.stringify(obj)];
    case 'json-lines':
      return JSON.stringify(obj, null, 2).split('\n');
    case 'flow':
      return new Document(obj).toString({ collectionStyle: 'flow', lineWidth: 0 }).trimEnd().split('\n');
    default: {
      const lines = new Document(obj)
        .toString({ indentSeq: i.style === 'block-indented' })
        .trimEnd()
        .split('\n')
        .flatMap((x) => (i.os === 'windows-block' && /^ *name: Windows$/.test(x) ? blockScalar(x) : [x]));
      if (i.comments.includes('inside')) lines.splice(2, 0, '# inside the item');
      return lines;
    }
  }
}

/** Whether the List holds an alias across items (the first item is written block, so it can carry the anchor). */
function aliased(l: List): boolean {
  return l.alias && l.items[0].style.startsWith('block');
}

function render(l: List): string {
  const col = l.flush ? '' : '  ';
  const objects = l.items.map(objectOf);
  const body = l.items.flatMap((i, k) => {
    const lines = itemLines(i, objects[k]);
    const dash = i.comments.includes('dash') && i.style !== 'json' ? `- # item ${k}` : undefined;
    const out = [
      ...(i.comments.includes('before') ? [`${col}# before item ${k}`] : []),
      ...(dash !== undefined ? [`${col}${dash}`, ...lines.map((x) => `${col}  ${x}`)] : []),
      ...(dash === undefined ? [`${col}- ${lines[0]}`, ...lines.slice(1).map((x) => `${col}  ${x}`)] : []),
      ...(i.comments.includes('after') ? ['# after it, at the margin'] : []),
      ...(i.comments.includes('blank') ? [''] : []),
    ];
    return out;
  });
  let items = body.join('\n');
  if (aliased(l)) {
    // The first item's metadata anchored (block style: `metadata:` ends its line), a last item aliasing it.
    items = `${items.replace(/metadata:\n/, 'metadata: &first\n')}\n${col}- {apiVersion: v1, kind: ConfigMap, metadata: *first}`;
  }
  const functionConfig =
    'functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: {cloud: gke}\n';
  const text =
    `${l.start}apiVersion: ${l.kind === 'List' ? 'v1' : 'config.kubernetes.io/v1'}\nkind: ${l.kind}\n` +
    (l.functionConfig === 'before' ? functionConfig : '') +
    `items:\n${items}\n` +
    (l.functionConfig === 'after' ? functionConfig : '') +
    (l.results ? 'results:\n- message: an earlier function\n  severity: info\n' : '');
  const ended = text.replace(/\n$/, '') + l.end;
  return (l.bom ? '\uFEFF' : '') + (l.crlf ? ended.replace(/\n/g, '\r\n') : ended);
}

const OPTIONS: readonly FixOptions[] = [
  { cloud: 'gke', windowsRelease: '2022' },
  { cloud: 'eks', pinLinux: true, tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] },
  {},
];

describe('a List fixed item by item', () => {
  it('gives what fixing it as one document gives, and what yaml reading it whole gives', () => {
    fc.assert(
      fc.property(list, fc.constantFrom(...OPTIONS), (l, options) => {
        const text = render(l);
        const inputs = [{ text, source: 'list.yaml' }];
        const split = fixManifestSet(inputs, options);
        expect(split).toEqual(fixManifestSet(inputs, options, { splitLists: false }));
        expect(split).toEqual(fixManifestSet(inputs, options, { fast: false }));
        // Started from a read of the whole text handed over (fix --krm's envelope): the same.
        if (!text.includes('<<')) {
          let whole: { value: unknown } | undefined = { value: readWhole(text) };
          const take = () => {
            const out = whole;
            whole = undefined;
            return out;
          };
          expect(fixManifestSet(inputs, options, { read: take })).toEqual(split);
        }
        // The per-item path is the one taken (unless an alias makes the List one document).
        const docs = readText(text).docs.length;
        expect(docs).toBe(aliased(l) ? 1 : l.items.length);
      }),
      propertyParameters(100),
    );
  });
});
