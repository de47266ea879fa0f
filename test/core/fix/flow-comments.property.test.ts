/**
 * `fix` keeps every comment on a line it does not remove, in flow mappings written over several lines
 * (`securityContext: {` … `}`), whatever it removes or adds around them: comments on lines of their own, comments
 * after an item that stays, items two to a line, with or without a trailing comma, the closing brace on its own
 * line or after the last item.
 *
 * The reproduction (issue 24): removing `runAsUser: 1000,` took the comment line below it (`# keep this`) and the
 * comment after the item before it, as the item and its comma were cut up to the next item.
 */
import fc from 'fast-check';
import { fixManifests, loadManifests } from 'k8s-windows';
import { propertyParameters } from '../../helpers/property';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** Items of each flow map: `removed` when fix takes it off a Windows pod. */
const POOLS = {
  podSecurity: [
    { text: 'runAsUser: 1000', removed: true },
    { text: 'fsGroup: 2000', removed: true },
    { text: 'seccompProfile: {type: RuntimeDefault}', removed: true },
    { text: 'runAsNonRoot: true', removed: false },
    { text: 'windowsOptions: {runAsUserName: ContainerUser}', removed: false },
  ],
  containerSecurity: [
    { text: 'capabilities: {drop: [ALL]}', removed: true },
    { text: 'readOnlyRootFilesystem: true', removed: true },
    { text: 'privileged: false', removed: true },
    { text: 'runAsNonRoot: true', removed: false },
  ],
  nodeSelector: [
    { text: 'pool: win', removed: false },
    { text: 'disktype: ssd', removed: false },
  ],
} as const;
type MapName = keyof typeof POOLS;

const line = fc.record({
  /** One item, or two on the line. */
  two: fc.boolean(),
  trailing: fc.boolean(),
  ownComment: fc.boolean(),
});
const map = fc.record({
  present: fc.boolean(),
  order: fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 1 }),
  lines: fc.array(line, { minLength: 5, maxLength: 5 }),
  trailingComma: fc.boolean(),
  braceAfterLast: fc.boolean(),
  leadComment: fc.boolean(),
});
const file = fc.record({ podSecurity: map, containerSecurity: map, nodeSelector: map });
type File = typeof file extends fc.Arbitrary<infer T> ? T : never;

interface Rendered {
  readonly text: string;
  /** Each comment, and whether fix may take it (it sits after items all removed, or in a map removed whole). */
  readonly comments: { text: string; mayGo: boolean }[];
}

function render(f: File): Rendered {
  const comments: { text: string; mayGo: boolean }[] = [];
  let n = 0;
  const flowMap = (name: MapName, indent: string): string[] => {
    const m = f[name];
    const pool = POOLS[name];
    const items = m.order.filter((k) => k < pool.length).map((k) => pool[k]);
    if (items.length === 0) return [];
    const goesWhole = name !== 'nodeSelector' && items.every((i) => i.removed);
    const out = [`${name === 'nodeSelector' ? 'nodeSelector' : 'securityContext'}: {`];
    if (m.leadComment) {
      out.push(`  # c${n} lead`);
      comments.push({ text: `# c${n++} lead`, mayGo: goesWhole });
    }
    const rows: (typeof items)[] = [];
    for (let i = 0, l = 0; i < items.length; l++) {
      const take = m.lines[l % m.lines.length].two && i + 1 < items.length ? 2 : 1;
      rows.push(items.slice(i, i + take));
      i += take;
    }
    rows.forEach((row, r) => {
      const spec = m.lines[r % m.lines.length];
      const last = r === rows.length - 1;
      let text = `  ${row.map((i) => i.text).join(', ')}${!last || m.trailingComma ? ',' : ''}`;
      if (last && m.braceAfterLast && !spec.trailing) text += ' }';
      if (spec.trailing) {
        text += ` # c${n} after ${row.map((i) => i.text.split(':')[0]).join(' ')}`;
        comments.push({ text: `# c${n++}`, mayGo: goesWhole || row.every((i) => i.removed) });
      }
      out.push(text);
      if (spec.ownComment && !last) {
        out.push(`  # c${n} own line`);
        comments.push({ text: `# c${n++} own line`, mayGo: goesWhole });
      }
    });
    if (!(m.braceAfterLast && !m.lines[(rows.length - 1) % m.lines.length].trailing)) out.push('}');
    return out.map((l, i) => (i === 0 ? indent + l : indent + l));
  };
  const lines = ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', 'spec:'];
  if (f.podSecurity.present) lines.push(...flowMap('podSecurity', '  '));
  if (f.nodeSelector.present) lines.push(...flowMap('nodeSelector', '  '));
  lines.push('  containers:', '  - name: iis', `    image: ${IIS}`);
  if (f.containerSecurity.present) lines.push(...flowMap('containerSecurity', '    '));
  return { text: `${lines.join('\n')}\n`, comments };
}

describe('comments in flow mappings', () => {
  test('the reproduction: a comment line below a removed item, and after the item before it, stay', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  securityContext: {
    runAsNonRoot: true, # stays
    # keep this
    runAsUser: 1000 # who
  }
  containers: [{name: c, image: ${IIS}}]
`;
    const out = fixManifests(text).text;
    expect(out).toContain('  securityContext: {\n    runAsNonRoot: true # stays\n    # keep this\n  }\n');
    const first = fixManifests(
      text
        .replace('runAsNonRoot: true, # stays', 'runAsUser: 1000, # who')
        .replace('runAsUser: 1000 # who', 'runAsNonRoot: true # stays'),
    ).text;
    expect(first).toContain('  securityContext: {\n    # keep this\n    runAsNonRoot: true # stays\n  }\n');
  });

  test('on generated flow mappings, no comment on a line fix keeps is lost', () => {
    fc.assert(
      fc.property(file, (f) => {
        const { text, comments } = render(f);
        const result = fixManifests(text);
        expect(loadManifests(result.text)).toHaveLength(1);
        for (const c of comments) {
          if (!c.mayGo && !result.text.includes(c.text)) {
            throw new Error(`lost '${c.text}'\n--- input\n${text}--- output\n${result.text}`);
          }
        }
      }),
      propertyParameters(400),
    );
  });
});
