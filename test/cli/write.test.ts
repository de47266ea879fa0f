/**
 * `fix --write` never loses data: the new text goes to a temporary file that is renamed over the original, only
 * while the original is what was read; a full disk leaves the original whole and is reported as not written; a
 * walk does not follow symbolic links out of the tree, and nothing is written through one.
 */
import { promises as fsp, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { NODE_WRITE_FS, type WriteFs, type WriteHandle } from '../../lib/cli/write';
import { cli, tempTree } from '../helpers/cli';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** A Windows pod fix changes (spec.os, the OS selector); `i` names it. */
function pod(i: number): string {
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\nspec:\n  containers:\n  - name: iis\n    image: ${IIS}\n`;
}
const TWENTY_PODS = Array.from({ length: 20 }, (_, i) => pod(i)).join('---\n');

/** node's fs, with the temporary file's writes failing with ENOSPC after half the bytes are on disk. */
function fullDisk(): WriteFs {
  return {
    ...NODE_WRITE_FS,
    async open(file, flags, mode) {
      const handle = await NODE_WRITE_FS.open(file, flags, mode);
      if (!file.endsWith('.tmp')) return handle;
      const failing: WriteHandle = {
        writeFile: async (data) => {
          await handle.writeFile(data.subarray(0, Math.floor(data.length / 2)));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        chmod: (m) => handle.chmod(m),
        chown: (u, g) => handle.chown(u, g),
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
      return failing;
    },
  };
}

/** node's fs, with another program appending to `victim` while the fixed text is being written. */
function concurrentWriter(victim: string, appended: string): WriteFs {
  return {
    ...NODE_WRITE_FS,
    async open(file, flags, mode) {
      if (file.endsWith('.tmp')) await fsp.appendFile(victim, appended);
      return NODE_WRITE_FS.open(file, flags, mode);
    },
  };
}

describe('fix --write is atomic', () => {
  it('a full disk leaves the file of 20 Pods whole, reported as not written, exit 2', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    try {
      const r = await cli(['fix', '--write', 'pods.yaml'], { cwd: dir, fs: fullDisk() });
      expect(r.code).toBe(2);
      expect(readFileSync(path.join(dir, 'pods.yaml'), 'utf8')).toBe(TWENTY_PODS);
      expect(r.stderr).toContain(
        'k8s-windows: pods.yaml: not written: no space left on the device. The file is as it was.',
      );
      expect(r.stdout).toContain('; 0 files rewritten, 1 not written.');
      // No temporary file is left behind.
      expect(readdirSync(dir)).toEqual(['pods.yaml']);
    } finally {
      cleanup();
    }
  });

  it('--format json lists the file not written', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    try {
      const r = await cli(['fix', '--write', '--format', 'json', 'pods.yaml'], { cwd: dir, fs: fullDisk() });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout);
      expect(report.written).toBe(0);
      expect(report.notWritten).toEqual(['pods.yaml']);
      expect(report.inputProblems).toEqual([
        { source: 'pods.yaml', message: 'not written: no space left on the device. The file is as it was.' },
      ]);
    } finally {
      cleanup();
    }
  });

  it('a file another program appends to during the run keeps that change: refused, exit 2', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    const file = path.join(dir, 'pods.yaml');
    try {
      const extra = `---\n${pod(20)}`;
      const r = await cli(['fix', '--write', 'pods.yaml'], { cwd: dir, fs: concurrentWriter(file, extra) });
      expect(r.code).toBe(2);
      expect(readFileSync(file, 'utf8')).toBe(TWENTY_PODS + extra);
      expect(r.stderr).toContain('pods.yaml: not written: it changed since it was read');
      expect(readdirSync(dir)).toEqual(['pods.yaml']);
    } finally {
      cleanup();
    }
  });

  it('a file replaced by another (same size, new inode) is not overwritten', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    const file = path.join(dir, 'pods.yaml');
    const replacement = TWENTY_PODS.replace(/web-/g, 'app-');
    const fs: WriteFs = {
      ...NODE_WRITE_FS,
      async open(f, flags, mode) {
        if (f.endsWith('.tmp') && readFileSync(file, 'utf8') === TWENTY_PODS) {
          await fsp.writeFile(`${file}.new`, replacement);
          await fsp.rename(`${file}.new`, file);
        }
        return NODE_WRITE_FS.open(f, flags, mode);
      },
    };
    try {
      const r = await cli(['fix', '--write', 'pods.yaml'], { cwd: dir, fs });
      expect(r.code).toBe(2);
      expect(readFileSync(file, 'utf8')).toBe(replacement);
    } finally {
      cleanup();
    }
  });

  it('the rewritten file keeps its mode; the new text replaces it whole', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    const file = path.join(dir, 'pods.yaml');
    try {
      await fsp.chmod(file, 0o640);
      const printed = await cli(['fix', 'pods.yaml'], { cwd: dir });
      const r = await cli(['fix', '--write', 'pods.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('60 changes in 20 objects; 1 file rewritten.');
      expect(readFileSync(file, 'utf8')).toBe(printed.stdout);
      expect(statSync(file).mode & 0o777).toBe(0o640);
      expect(readdirSync(dir)).toEqual(['pods.yaml']);
    } finally {
      cleanup();
    }
  });
});

describe('symbolic links', () => {
  it('lint linkdir does not read passwd.yaml -> /etc/passwd, and says so', async () => {
    const { dir, cleanup } = tempTree({ 'linkdir/web.yaml': pod(1) });
    try {
      symlinkSync('/etc/passwd', path.join(dir, 'linkdir', 'passwd.yaml'));
      const r = await cli(['lint', '--format', 'json', 'linkdir'], { cwd: dir });
      expect(r.stderr).toBe(
        'k8s-windows: note: linkdir/passwd.yaml is a symbolic link to /etc/passwd, outside linkdir: not read (name it on the command line to check it).\n',
      );
      const report = JSON.parse(r.stdout);
      expect(report.summary.inputs).toBe(1);
      expect(report.inputProblems).toEqual([]);
      expect(r.stdout).not.toContain('root:');
    } finally {
      cleanup();
    }
  });

  it('fix --write leaves a file outside the tree alone, even one it could fix', async () => {
    const { dir, cleanup } = tempTree({ 'outside/victim.yaml': pod(2), 'tree/web.yaml': pod(1) });
    try {
      symlinkSync(path.join(dir, 'outside'), path.join(dir, 'tree', 'linked-dir'));
      symlinkSync(path.join(dir, 'outside', 'victim.yaml'), path.join(dir, 'tree', 'victim.yaml'));
      const r = await cli(['fix', '--write', 'tree'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('1 file rewritten');
      expect(readFileSync(path.join(dir, 'outside', 'victim.yaml'), 'utf8')).toBe(pod(2));
      expect(readFileSync(path.join(dir, 'tree', 'web.yaml'), 'utf8')).toContain('os:\n    name: windows');
      expect(r.stderr).toContain('note: tree/linked-dir is a symbolic link to');
      expect(r.stderr).toContain('note: tree/victim.yaml is a symbolic link to');
    } finally {
      cleanup();
    }
  });

  it('a link inside the tree is read once, and fix --write rewrites its target, keeping the link', async () => {
    const { dir, cleanup } = tempTree({ 'tree/shared/web.yaml': pod(1) });
    const link = path.join(dir, 'tree', 'app', 'web.yaml');
    try {
      await fsp.mkdir(path.dirname(link));
      symlinkSync('../shared/web.yaml', link);
      const r = await cli(['fix', '--write', 'tree'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('3 changes in 1 object; 1 file rewritten.');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readFileSync(path.join(dir, 'tree', 'shared', 'web.yaml'), 'utf8')).toContain('os:\n    name: windows');
    } finally {
      cleanup();
    }
  });

  it('a named file that links out of its directory is read, but not written through', async () => {
    const { dir, cleanup } = tempTree({ 'outside/victim.yaml': pod(2), 'tree/keep': '' });
    try {
      symlinkSync(path.join(dir, 'outside', 'victim.yaml'), path.join(dir, 'tree', 'victim.yaml'));
      const r = await cli(['fix', '--write', 'tree/victim.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `tree/victim.yaml: not written: it is a symbolic link to ${path.join(dir, 'outside', 'victim.yaml')}, outside ${path.join(dir, 'tree')}; name that file itself to fix it. The file is as it was.`,
      );
      expect(readFileSync(path.join(dir, 'outside', 'victim.yaml'), 'utf8')).toBe(pod(2));
      const direct = await cli(['fix', '--write', 'outside/victim.yaml'], { cwd: dir });
      expect(direct.code).toBe(0);
      expect(readFileSync(path.join(dir, 'outside', 'victim.yaml'), 'utf8')).toContain('os:\n    name: windows');
    } finally {
      cleanup();
    }
  });
});

describe('input size', () => {
  it('lint /dev/zero stops at the limit with an input problem, exit 2', async () => {
    const r = await cli(['lint', '--max-input-size', '1MiB', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'dev/zero: is larger than the input limit of 1 MiB (it was read no further; --max-input-size raises the limit).',
    );
  });

  it('a file over the limit is not read; standard input over it is cut off', async () => {
    const { dir, cleanup } = tempTree({ 'pods.yaml': TWENTY_PODS });
    try {
      const r = await cli(['lint', '--max-input-size', '1KiB', 'pods.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `pods.yaml: is ${(TWENTY_PODS.length / 1024).toFixed(1)} KiB, over the input limit of 1 KiB: split it, or raise the limit (--max-input-size 64MiB).`,
      );
      const stdin = await cli(['lint', '--max-input-size', '1024', '-'], { stdin: TWENTY_PODS });
      expect(stdin.code).toBe(2);
      expect(stdin.stderr).toContain('<stdin>: is 3.2 KiB, over the input limit of 1 KiB');
      expect((await cli(['lint', '--max-input-size', '64k', '-'], { stdin: TWENTY_PODS })).code).toBe(1);
    } finally {
      cleanup();
    }
  });

  it('--max-input-size must be a size', async () => {
    const r = await cli(['lint', '--max-input-size', 'lots', '-'], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-input-size 'lots' is not a size");
  });
});
