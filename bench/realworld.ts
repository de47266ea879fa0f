/**
 * A corpus of real manifests for the benches at scale: every file of test/fixtures/realworld (public Windows
 * manifests from the projects named in test/fixtures/SOURCES.md: CSI drivers, CNI daemonsets, monitoring agents,
 * sample apps) joined as one YAML stream and repeated to the size asked for, so a bench reads what users' clusters
 * hold rather than one generated shape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const DIR = path.join(__dirname, '..', 'test', 'fixtures', 'realworld');

/** The corpus once: every fixture, in name order, as one stream. */
export function realworldStream(): string {
  return readdirSync(DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => {
      const text = readFileSync(path.join(DIR, f), 'utf8').replace(/^\uFEFF/, '');
      return text.endsWith('\n') ? text : `${text}\n`;
    })
    .join('---\n');
}

/** The corpus repeated to at least `bytes` characters. */
export function realworldCorpus(bytes: number): string {
  const once = realworldStream();
  return Array.from({ length: Math.ceil(bytes / once.length) }, () => once).join('---\n');
}
