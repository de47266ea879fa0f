/**
 * Nothing from a manifest or a file name reaches the terminal raw: an object named `p\e[2K\e[1A` (erase the line,
 * move up) or a file named with an escape prints as visible escapes in every report of lint and fix; JSON keeps
 * its meaning with the C1 controls and bidirectional overrides written as `\u` escapes. The JSON writer that
 * writes reports in pieces gives JSON.stringify's text.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { printable } from '../../lib/cli/format-text';
import { jsonText } from '../../lib/cli/json-out';
import { cli, tempTree } from '../helpers/cli';
import { propertyParameters } from '../helpers/property';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
/** A Windows pod fix changes, named with terminal escapes (YAML's `\e` is ESC), a C1 CSI and a bidi override. */
const HOSTILE = `apiVersion: v1
kind: Pod
metadata:
  name: "p\\e[2K\\e[1A"
  namespace: "ns\\u009b2J\\u202e"
spec:
  containers:
  - name: "c\\a"
    image: ${IIS}
    securityContext: {runAsUser: 1000}
`;

/** Whether `text` holds a character a terminal acts on (other than line breaks) or a bidi override. */
function raw(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);
}

describe('printed names are escaped', () => {
  it('the fix change report shows the name with visible escapes', async () => {
    const r = await cli(['fix', '-'], { stdin: HOSTILE });
    expect(raw(r.stderr)).toBe(false);
    expect(r.stderr).toContain('<stdin>: Pod ns\\u009b2J\\u202e/p\\u001b[2K\\u001b[1A\n');
    expect(r.stderr).toContain('  removed spec.containers[0].securityContext.runAsUser 1000');
    // The manifests themselves are data: given back as they were read.
    expect(r.stdout).toContain('name: "p\\e[2K\\e[1A"');
  });

  it.each([['text'], ['json'], ['sarif']])('fix --write --format %s, and lint, print nothing raw', async (format) => {
    const { dir, cleanup } = tempTree({});
    try {
      const name = 'evil\u001b[2K\u009b.yaml';
      writeFileSync(path.join(dir, name), HOSTILE);
      const fix = await cli(['fix', '--write', '--format', format, '.'], { cwd: dir });
      expect(raw(fix.stdout + fix.stderr)).toBe(false);
      if (format !== 'text') expect(JSON.parse(fix.stdout)).toBeDefined();
      const lint = await cli(['lint', '--format', format, name], { cwd: dir });
      expect(raw(lint.stdout + lint.stderr)).toBe(false);
      if (format === 'json') {
        const report = JSON.parse(lint.stdout) as { findings: { resource: { namespace: string } }[] };
        // Escaped in the text, the same string once parsed.
        expect(report.findings[0].resource.namespace).toBe('ns\u009b2J\u202e');
      }
      // An input problem names the file escaped too.
      writeFileSync(path.join(dir, name), 'kind: [\n');
      const bad = await cli(['lint', name], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(raw(bad.stderr)).toBe(false);
      expect(bad.stderr).toContain('evil\\u001b[2K\\u009b.yaml:');
    } finally {
      cleanup();
    }
  });
});

describe('the JSON writer', () => {
  it('writes what JSON.stringify(value, null, 2) writes, with raw terminal characters escaped', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = `${JSON.stringify(value, null, 2)}\n`;
        const out = jsonText(value);
        expect(JSON.parse(out)).toEqual(JSON.parse(expected));
        expect(out).toBe(
          expected.replace(
            /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
          ),
        );
      }),
      propertyParameters(300),
    );
    expect(jsonText({ a: [1, { b: [] }], c: undefined, d: {} })).toBe(
      `${JSON.stringify({ a: [1, { b: [] }], d: {} }, null, 2)}\n`,
    );
  });
});

describe('printable', () => {
  // eslint-disable-next-line no-control-regex
  const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  test('returns text without a character to escape as it is, and escapes every one (its scan agrees with its expression)', () => {
    const char = fc.oneof(
      fc.constantFrom('\u0000', '\n', '\u001f', '\u007f', '\u0085', '\u009f', '\u00a0', '\u061c', '\u200d', '\u200e'),
      fc.constantFrom('\u200f', '\u2029', '\u202a', '\u202e', '\u202f', '\u2065', '\u2066', '\u2069', '\u206a', 'a'),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(char, fc.string({ maxLength: 3, unit: 'binary' }))), (parts) => {
        const text = parts.join('');
        const out = printable(text);
        if (!UNPRINTABLE.test(text)) expect(out).toBe(text);
        UNPRINTABLE.lastIndex = 0;
        expect(UNPRINTABLE.test(out)).toBe(false);
        UNPRINTABLE.lastIndex = 0;
      }),
      propertyParameters(300),
    );
  });
});
