/**
 * Round trips over real public manifests (test/fixtures/fix, provenance in SOURCES.md): what is fixed, that the
 * output keeps every comment and untouched document, and that a second run changes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { fixManifests, fixManifestSet, type FixOptions } from 'k8s-windows';
import { FIXERS } from '../../../lib/core/fix/fixers';

const DIR = path.join(__dirname, '..', '..', 'fixtures', 'fix');
const FILES = readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const read = (f: string) => readFileSync(path.join(DIR, f), 'utf8');
const OPTIONS: FixOptions = { cloud: 'gke', windowsRelease: '2022' };

/** Comment texts of a YAML text, without the spaces around them. */
function comments(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /(?:^|\s)(#.*)$/.exec(l)?.[1]?.trim())
    .filter((c): c is string => c !== undefined);
}

/** The source text of each document, as parsed. */
function documentTexts(text: string): string[] {
  return parseAllDocuments(text).map((d) => text.slice(d.range[0], d.range[1]));
}

describe.each(FILES)('%s', (file) => {
  const text = read(file);
  const result = fixManifests(text, { ...OPTIONS, source: file });

  it('comes out as valid YAML that a second fix leaves unchanged', () => {
    expect(parseAllDocuments(result.text).every((d) => d.errors.length === 0)).toBe(true);
    const again = fixManifests(result.text, OPTIONS);
    expect(again.changes).toEqual([]);
    expect(again.text).toBe(result.text);
  });

  it('keeps every comment, and every document it did not change byte for byte', () => {
    expect(comments(result.text)).toEqual(expect.arrayContaining(comments(text)));
    const changed = new Set(result.changes.map((c) => c.resource.name));
    const names = parseAllDocuments(text).map(
      (d) => (d.toJS() as { metadata?: { name?: string } } | null)?.metadata?.name,
    );
    documentTexts(text).forEach((doc, i) => {
      if (!changed.has(names[i])) expect(result.text).toContain(doc);
    });
  });

  it('leaves no finding that a fixer would settle', () => {
    const again = fixManifests(result.text, OPTIONS);
    const fixable = again.diagnostics.filter((d) => FIXERS.has(d.ruleId) && d.severity !== 'info');
    // What stays is what the fixers decline (none in these files).
    expect(fixable).toEqual([]);
  });

  it('changes what it says', () => {
    expect(result.changes.map((c) => `${c.resource.kind}/${c.resource.name} ${c.action} ${c.path}`)).toMatchSnapshot();
    expect(result.text).toMatchSnapshot();
  });
});

describe('csi-driver-smb node plugins', () => {
  it('lose seccompProfile and capabilities (Linux-only, forbidden once spec.os is set) and gain spec.os', () => {
    const r = fixManifests(read('csi-driver-smb--csi-smb-node-windows.yaml'), OPTIONS);
    expect(r.changes.map((c) => [c.ruleId, c.action, c.path])).toEqual([
      ['windows-linux-only-field', 'removed', 'spec.template.spec.securityContext.seccompProfile'],
      ['windows-linux-only-field', 'removed', 'spec.template.spec.containers[0].securityContext.capabilities'],
      ['windows-linux-only-field', 'removed', 'spec.template.spec.containers[1].securityContext.capabilities'],
      ['windows-linux-only-field', 'removed', 'spec.template.spec.containers[2].securityContext.capabilities'],
      ['windows-os-unset', 'set', 'spec.template.spec.os.name'],
    ]);
  });

  it('the Linux DaemonSet is byte-identical, with --pin-linux too (it already selects Linux)', () => {
    const files = ['csi-driver-smb--csi-smb-node.yaml', 'csi-driver-smb--csi-smb-node-windows.yaml'];
    const r = fixManifestSet(
      files.map((f) => ({ text: read(f), source: f })),
      { ...OPTIONS, pinLinux: true },
    );
    expect(r.texts[0]).toBe(read(files[0]));
  });
});

describe('windows_exporter HostProcess DaemonSet', () => {
  it('gets spec.os and the GKE toleration, its ConfigMap stays byte-identical', () => {
    const text = read('windows_exporter--windows-exporter-daemonset.yaml');
    const r = fixManifests(text, OPTIONS);
    expect(r.changes.map((c) => [c.resource.kind, c.ruleId, c.path])).toEqual([
      ['DaemonSet', 'windows-os-unset', 'spec.template.spec.os.name'],
      ['DaemonSet', 'windows-toleration-missing', 'spec.template.spec.tolerations'],
    ]);
    const ds = parseAllDocuments(r.text)
      .map((d) => d.toJS())
      .find((o) => o.kind === 'DaemonSet');
    expect(ds.spec.template.spec.os).toEqual({ name: 'windows' });
    // HostProcess node agents are never pinned to one build.
    expect(ds.spec.template.spec.nodeSelector['node.kubernetes.io/windows-build']).toBeUndefined();
  });
});
