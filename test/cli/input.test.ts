/**
 * Input the CLI must not accept silently: encodings kubectl reads (UTF-16 with a BOM), binary and invalid UTF-8,
 * empty standard input, documents nested too deeply, control characters, and where JSON and SARIF point.
 */
import { readFileSync, writeFileSync } from 'fs';
import * as path from 'path';
import { cli, FIXTURES, tempTree } from '../helpers/cli';

const WEB_TEXT = readFileSync(path.join(FIXTURES, 'windows-web.yaml'), 'utf8');

function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

function utf16be(text: string): Buffer {
  const body = Buffer.from(text, 'utf16le');
  body.swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
}

async function* chunks(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes.subarray(0, 7);
  yield bytes.subarray(7);
}

describe('encodings', () => {
  test('UTF-16LE and UTF-16BE with a byte-order mark are decoded, as kubectl does', async () => {
    const plain = await cli(['lint', '--format', 'json', '-'], { stdin: WEB_TEXT });
    for (const bytes of [utf16le(WEB_TEXT), utf16be(WEB_TEXT)]) {
      const r = await cli(['lint', '--format', 'json', '-'], { stdin: chunks(bytes) });
      expect(r.code).toBe(plain.code);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(plain.stdout));
    }
  });

  test('a UTF-16 file from PowerShell 5.1 is linted', async () => {
    const tree = tempTree({});
    try {
      writeFileSync(path.join(tree.dir, 'ps.yaml'), utf16le(WEB_TEXT));
      const r = await cli(['lint', '--format', 'json', 'ps.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).findings.map((d: { ruleId: string }) => d.ruleId)).toContain(
        'windows-forbidden-field',
      );
    } finally {
      tree.cleanup();
    }
  });

  test('invalid UTF-8 and binary input exit 2 with a message, never "No problems"', async () => {
    const bad = await cli(['lint', '-'], { stdin: chunks(Buffer.from([0x61, 0x3a, 0x20, 0xc3, 0x28, 0x0a])) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<stdin>: is not valid UTF-8 (byte offset 3)');
    const binary = await cli(['lint', '-'], { stdin: chunks(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0])) });
    expect(binary.code).toBe(2);
    expect(binary.stderr).toContain('is binary, or UTF-16 without a byte-order mark');
  });
});

describe('empty standard input', () => {
  test('exits 2 with a clear message (a failed helm template before the pipe)', async () => {
    for (const stdin of ['', '\n\n', '# only a comment\n---\n']) {
      const r = await cli(['lint', '-'], { stdin });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('standard input has no Kubernetes objects');
      expect(r.stderr).toContain('--allow-empty');
    }
  });

  test('--allow-empty accepts it', async () => {
    const r = await cli(['lint', '--allow-empty', '-'], { stdin: '' });
    expect(r.code).toBe(0);
  });
});

describe('hostile documents', () => {
  test('a too deeply nested document gets a clear message and exit 2, not a stack overflow', async () => {
    const deep = `apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: ${'['.repeat(400)}${']'.repeat(400)}\n`;
    const r = await cli(['lint', '-'], { stdin: deep });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nested more than 200 levels deep');
    expect(r.stderr).not.toContain('call stack');
  });

  test('130,000 malformed documents are 130,000 input problems for lint and fix, not a stack overflow', async () => {
    // Each problem was spread into one push: past the engine's argument limit, "Maximum call stack size exceeded".
    const text = 'a: [\n---\n'.repeat(130_000);
    for (const command of ['lint', 'fix']) {
      const r = await cli([command, '-'], { stdin: text });
      expect([command, r.code]).toEqual([command, 2]);
      expect(r.stderr).not.toContain('call stack');
      expect(r.stderr.split('\n').filter((l) => l.startsWith('k8s-windows: <stdin>:')).length).toBe(130_000);
    }
  }, 60_000);

  test('control characters from manifests are escaped in text output', async () => {
    const text = WEB_TEXT.replace('name: web\n  namespace: shop', 'name: "web\\u001b[2J\\u0007"\n  namespace: shop');
    const r = await cli(['lint', '-'], { stdin: text });
    // eslint-disable-next-line no-control-regex
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('web\\u001b[2J\\u0007');
  });
});

describe('where findings point', () => {
  test('--format json carries source, line and column, and input problems too', async () => {
    const tree = tempTree({ 'web.yaml': WEB_TEXT, 'broken.yaml': 'kind: [unclosed\n' });
    try {
      const r = await cli(['lint', '--format', 'json', 'web.yaml', 'broken.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout) as {
        findings: Record<string, unknown>[];
        inputProblems: Record<string, unknown>[];
        summary: Record<string, number>;
      };
      const forbidden = out.findings.find((d) => d.ruleId === 'windows-forbidden-field')!;
      const lines = WEB_TEXT.split('\n');
      expect(forbidden).toMatchObject({
        source: 'web.yaml',
        line: lines.findIndex((l) => l.includes('runAsUser: 1000')) + 1,
        column: expect.any(Number),
      });
      expect(out.inputProblems).toEqual([
        expect.objectContaining({ source: 'broken.yaml', line: expect.any(Number), message: expect.any(String) }),
      ]);
      expect(out.summary.inputProblems).toBe(1);
    } finally {
      tree.cleanup();
    }
  });

  test('--stdin-filename names standard input in text, JSON and SARIF', async () => {
    const text = await cli(['lint', '--stdin-filename', 'k8s/web.yaml', '-'], { stdin: WEB_TEXT });
    expect(text.stdout.split('\n')[0]).toBe('k8s/web.yaml');
    const sarif = await cli(['lint', '--format', 'sarif', '--stdin-filename', 'k8s/web.yaml', '-'], {
      stdin: WEB_TEXT,
    });
    const result = JSON.parse(sarif.stdout).runs[0].results[0];
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('k8s/web.yaml');
    const json = await cli(['lint', '--format', 'json', '--stdin-filename', 'web.yaml', '-'], { stdin: WEB_TEXT });
    expect(JSON.parse(json.stdout).findings[0].source).toBe('web.yaml');
  });
});

describe('--cloud', () => {
  const UNTOLERATED = WEB_TEXT.replace(/ {6}tolerations:\n(?: {8}.*\n)+/, '');

  test('gke makes a missing Windows toleration a warning (GKE taints Windows nodes); elsewhere it is info', async () => {
    const level = async (args: string[]) => {
      const r = await cli(['lint', '--format', 'json', ...args, '-'], { stdin: UNTOLERATED });
      return (JSON.parse(r.stdout).findings as { ruleId: string; severity: string }[]).find(
        (d) => d.ruleId === 'windows-toleration-missing',
      )?.severity;
    };
    expect(await level([])).toBe('info');
    expect(await level(['--cloud', 'aks'])).toBe('info');
    expect(await level(['--cloud', 'gke'])).toBe('warning');
  });

  test('an unknown cloud is a usage error', async () => {
    const r = await cli(['lint', '--cloud', 'azure', '-'], { stdin: WEB_TEXT });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--cloud 'azure' is not one of eks, aks, gke.");
  });
});
