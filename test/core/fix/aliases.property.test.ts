/**
 * `fix` never changes an object through a YAML alias: on generated Lists whose Windows and Linux items share
 * tolerations, nodeSelectors and securityContexts by anchor and alias (the anchor on either side, the list or map
 * empty or not, flow or block), a Linux item reads the same after the fix, every alias still resolves, and each
 * edit a shared node blocked is reported as not made, its finding left.
 *
 * The reproduction (issue 24): `tolerations: &shared []` on a Windows Deployment and `*shared` on a Linux one in
 * the same List; appending the GKE toleration to the Windows one changed the Linux one too, unreported.
 */
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { fixManifests, loadManifests } from 'k8s-windows';
import { propertyParameters } from '../../helpers/property';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** The fields items share, and the values each can hold (flow text, block lines under the key, or none). */
const VALUES = {
  tolerations: [
    { flow: '[]' },
    { flow: '[{key: dedicated, operator: Exists}]', block: ['- key: dedicated', '  operator: Exists'] },
  ],
  nodeSelector: [{ flow: '{}' }, { flow: '{disktype: ssd}', block: ['disktype: ssd'] }],
  securityContext: [{ flow: '{runAsNonRoot: true}', block: ['runAsNonRoot: true'] }, { flow: '{runAsUser: 1000}' }],
} as const;
type Field = keyof typeof VALUES;
const FIELDS = Object.keys(VALUES) as Field[];

const item = fc.record({
  windows: fc.boolean(),
  kind: fc.constantFrom('Deployment', 'Pod'),
  fields: fc.record(
    Object.fromEntries(
      FIELDS.map((f) => [
        f,
        fc.record({
          /** absent, own value, own value with an anchor, or an alias of an earlier anchor of the field. */
          mode: fc.constantFrom('absent', 'own', 'anchor', 'anchor', 'alias', 'alias'),
          value: fc.nat({ max: VALUES[f].length - 1 }),
          block: fc.boolean(),
        }),
      ]),
    ) as Record<Field, fc.Arbitrary<{ mode: string; value: number; block: boolean }>>,
  ),
});
const list = fc.array(item, { minLength: 2, maxLength: 5 });
type Item = typeof item extends fc.Arbitrary<infer T> ? T : never;

/** The List's text; which items are Linux. */
function render(items: readonly Item[]): { text: string; linux: string[] } {
  const anchors: Record<Field, string[]> = { tolerations: [], nodeSelector: [], securityContext: [] };
  const lines = ['apiVersion: v1', 'kind: List', 'items:'];
  const linux: string[] = [];
  items.forEach((it, i) => {
    const name = `${it.windows ? 'win' : 'lin'}-${i}`;
    if (!it.windows) linux.push(name);
    const pad = it.kind === 'Pod' ? '    ' : '        ';
    lines.push(
      `- apiVersion: ${it.kind === 'Pod' ? 'v1' : 'apps/v1'}`,
      `  kind: ${it.kind}`,
      `  metadata: {name: ${name}}`,
    );
    if (it.kind === 'Pod') lines.push('  spec:');
    else lines.push('  spec:', '    template:', '      spec:');
    for (const f of FIELDS) {
      const { mode, value, block } = it.fields[f];
      const v = VALUES[f][value] as { flow: string; block?: readonly string[] };
      if (mode === 'absent') continue;
      if (mode === 'alias') {
        const pool = anchors[f];
        if (pool.length === 0) continue;
        lines.push(`${pad}${f}: *${pool[(i + value) % pool.length]}`);
        continue;
      }
      const anchor = mode === 'anchor' ? `&${f}${i} ` : '';
      if (mode === 'anchor') anchors[f].push(`${f}${i}`);
      if (block && v.block !== undefined) {
        lines.push(`${pad}${f}: ${anchor}`.trimEnd(), ...v.block.map((l) => `${pad}  ${l}`));
      } else lines.push(`${pad}${f}: ${anchor}${v.flow}`);
    }
    lines.push(`${pad}containers:`, `${pad}- name: c`, `${pad}  image: ${it.windows ? IIS : 'nginx:1.27'}`);
  });
  return { text: `${lines.join('\n')}\n`, linux };
}

const nameOf = (o: unknown) => String(((o as { metadata?: { name?: unknown } }).metadata ?? {}).name);

describe('fix and YAML aliases', () => {
  test('the reproduction: tolerations appended to an anchored list leave the Linux Deployment alone', () => {
    const text = render([
      {
        windows: true,
        kind: 'Deployment',
        fields: {
          tolerations: { mode: 'anchor', value: 0, block: false },
          nodeSelector: { mode: 'absent', value: 0, block: false },
          securityContext: { mode: 'absent', value: 0, block: false },
        },
      },
      {
        windows: false,
        kind: 'Deployment',
        fields: {
          tolerations: { mode: 'alias', value: 0, block: false },
          nodeSelector: { mode: 'absent', value: 0, block: false },
          securityContext: { mode: 'absent', value: 0, block: false },
        },
      },
    ]).text;
    expect(text).toContain('tolerations: &tolerations0 []');
    expect(text).toContain('tolerations: *tolerations0');
    const result = fixManifests(text, { cloud: 'gke' });
    const [, lin] = loadManifests(result.text);
    expect(lin).toEqual(loadManifests(text)[1]);
    expect(result.refused).toEqual([
      expect.objectContaining({
        ruleId: 'windows-toleration-missing',
        path: 'spec.template.spec.tolerations',
        resource: expect.objectContaining({ name: 'win-0' }),
        reason:
          'it sits in the YAML anchor &tolerations0, which other places share: changing it there would change them too',
      }),
    ]);
    expect(result.diagnostics.map((d) => `${d.resource.name} ${d.ruleId}`)).toContain(
      'win-0 windows-toleration-missing',
    );
  });

  test('on generated Lists, a Linux item never changes and every alias resolves', () => {
    let refusedRuns = 0;
    fc.assert(
      fc.property(list, fc.constantFrom('gke', undefined), (items, cloud) => {
        const { text, linux } = render(items);
        const result = fixManifests(text, {
          ...(cloud !== undefined ? { cloud } : {}),
          tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        });
        if (result.refused.length > 0) refusedRuns++;
        const docs = parseAllDocuments(result.text);
        for (const d of Array.isArray(docs) ? docs : [docs]) expect(d.errors).toEqual([]);
        const before = loadManifests(text);
        const after = loadManifests(result.text);
        expect(after.map(nameOf)).toEqual(before.map(nameOf));
        before.forEach((b, i) => {
          if (linux.includes(nameOf(b))) expect(after[i]).toEqual(b);
        });
        // A Linux item is never the subject of a change.
        expect(result.changes.filter((c) => linux.includes(String(c.resource.name)))).toEqual([]);
      }),
      propertyParameters(300),
    );
    // The generator does reach shared nodes fix must refuse.
    expect(refusedRuns).toBeGreaterThan(0);
  });
});
