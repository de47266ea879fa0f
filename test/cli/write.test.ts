/**
 * `fix --write` never loses data: the new text goes to a temporary file that is renamed over the original, only
 * while the original is what was read; a full disk leaves the original whole and is reported as not written; a
 * walk does not follow symbolic links out of the tree, and nothing is written through one. A file the user could
 * not write is left alone; one a rename would part from its hard links or owner is rewritten in place.
 */
import {
  promises as fsp,
  chownSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
} from 'node:fs';
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
        truncate: (n) => handle.truncate(n),
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

/** A Windows Deployment fix changes: it gains spec.template.spec.os and the Windows build in its selector. */
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeSelector:
        kubernetes.io/os: windows
      containers:
      - name: iis
        image: ${IIS}
`;

const FIXED_DEPLOYMENT = DEPLOYMENT.replace(
  '        kubernetes.io/os: windows\n',
  '        kubernetes.io/os: windows\n        node.kubernetes.io/windows-build: 10.0.20348\n',
).concat('      os:\n        name: windows\n');

const AS_ROOT = process.geteuid?.() === 0;

/** node's fs, with each in-place write (a handle opened `r+`) failing with ENOSPC after half its bytes. */
function fullDiskInPlace(failures: number): WriteFs {
  let left = failures;
  return {
    ...NODE_WRITE_FS,
    async open(file, flags, mode) {
      const handle = await NODE_WRITE_FS.open(file, flags, mode);
      if (flags !== 'r+' || left === 0) return handle;
      left--;
      return {
        ...handle,
        writeFile: async (data) => {
          await handle.writeFile(data.subarray(0, Math.floor(data.length / 2)));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        truncate: (n) => handle.truncate(n),
        chmod: (m) => handle.chmod(m),
        chown: (u, g) => handle.chown(u, g),
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
  };
}

describe('fix --write keeps what a rename would lose', () => {
  it('the fixed Deployment is what fix prints', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    try {
      expect((await cli(['fix', 'web.yaml'], { cwd: dir })).stdout).toBe(FIXED_DEPLOYMENT);
    } finally {
      cleanup();
    }
  });

  // Run as root (as in the container these tests run in) access() allows any write: the mode bits must decide.
  it('a read-only file (mode 0444) in a writable directory is left as it is and reported; the others are written', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT, 'api.yaml': DEPLOYMENT.replace(/web/g, 'api') });
    const file = path.join(dir, 'web.yaml');
    try {
      await fsp.chmod(file, 0o444);
      const inode = statSync(file).ino;
      const r = await cli(['fix', '--write', 'web.yaml', 'api.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'k8s-windows: web.yaml: not written: it is read-only (mode 0444): make it writable (chmod u+w web.yaml) and run fix again, or run fix without --write to print the fixed text instead. The file is as it was.\n',
      );
      expect(r.stdout).toContain('; 1 file rewritten, 1 not written.');
      expect(readFileSync(file, 'utf8')).toBe(DEPLOYMENT);
      expect(statSync(file).mode & 0o7777).toBe(0o444);
      expect(statSync(file).ino).toBe(inode);
      expect(readFileSync(path.join(dir, 'api.yaml'), 'utf8')).toBe(FIXED_DEPLOYMENT.replace(/web/g, 'api'));
      expect(readdirSync(dir).sort()).toEqual(['api.yaml', 'web.yaml']);
    } finally {
      cleanup();
    }
  });

  it('a name with a space is quoted in the command to run; --format json lists the file as not written', async () => {
    const { dir, cleanup } = tempTree({ 'my web.yaml': DEPLOYMENT });
    try {
      await fsp.chmod(path.join(dir, 'my web.yaml'), 0o444);
      const r = await cli(['fix', '--write', '--format', 'json', 'my web.yaml'], { cwd: dir });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout);
      expect(report.notWritten).toEqual(['my web.yaml']);
      expect(report.inputProblems).toEqual([
        {
          source: 'my web.yaml',
          message:
            "not written: it is read-only (mode 0444): make it writable (chmod u+w 'my web.yaml') and run fix again, or run fix without --write to print the fixed text instead. The file is as it was.",
        },
      ]);
    } finally {
      cleanup();
    }
  });

  it("another user's file the user may not write is left as it is, with its owner named", async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    // As a user who is not root, uid 1234's file of mode 0644 would be refused so by access().
    const fs: WriteFs = {
      ...NODE_WRITE_FS,
      stat: async (f) => {
        const stat = await NODE_WRITE_FS.stat(f);
        return f === file ? { ...stat, mode: 0o100644, nlink: 1, uid: 1234, gid: 1234 } : stat;
      },
      access: async (f, mode) => {
        if (f === file) throw Object.assign(new Error(`EACCES: permission denied, access '${f}'`), { code: 'EACCES' });
        return NODE_WRITE_FS.access(f, mode);
      },
    };
    try {
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir, fs });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'k8s-windows: web.yaml: not written: it is not writable by you (mode 0644, owner uid 1234, group gid 1234): run fix as a user who may write it, or run fix without --write to print the fixed text instead. The file is as it was.\n',
      );
      expect(readFileSync(file, 'utf8')).toBe(DEPLOYMENT);
    } finally {
      cleanup();
    }
  });

  it('a hard-linked file is rewritten in place: both names show the fix, one inode, its mode kept', async () => {
    const { dir, cleanup } = tempTree({ 'base/web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'base', 'web.yaml');
    const other = path.join(dir, 'overlay', 'web.yaml');
    try {
      await fsp.mkdir(path.dirname(other));
      linkSync(file, other);
      await fsp.chmod(file, 0o640);
      const inode = statSync(file).ino;
      const r = await cli(['fix', '--write', 'base/web.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('2 changes in 1 object; 1 file rewritten.');
      expect(readFileSync(file, 'utf8')).toBe(FIXED_DEPLOYMENT);
      expect(readFileSync(other, 'utf8')).toBe(FIXED_DEPLOYMENT);
      for (const name of [file, other]) {
        expect(statSync(name).ino).toBe(inode);
        expect(statSync(name).nlink).toBe(2);
        expect(statSync(name).mode & 0o7777).toBe(0o640);
      }
      // The copy of the bytes as read is gone once they are replaced.
      expect(readdirSync(path.join(dir, 'base'))).toEqual(['web.yaml']);
    } finally {
      cleanup();
    }
  });

  it('a hard-linked file whose in-place write fails gets its bytes back: both names as they were', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    try {
      linkSync(file, path.join(dir, 'web-link.yml'));
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir, fs: fullDiskInPlace(1) });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'k8s-windows: web.yaml: not written: no space left on the device. The file is as it was.\n',
      );
      expect(readFileSync(file, 'utf8')).toBe(DEPLOYMENT);
      expect(readFileSync(path.join(dir, 'web-link.yml'), 'utf8')).toBe(DEPLOYMENT);
      expect(statSync(file).nlink).toBe(2);
      expect(readdirSync(dir).sort()).toEqual(['web-link.yml', 'web.yaml']);
    } finally {
      cleanup();
    }
  });

  it('when putting the bytes back fails too, the copy of them is kept and named, and the file is not said to be whole', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    try {
      linkSync(file, path.join(dir, 'web-link.yml'));
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir, fs: fullDiskInPlace(2) });
      expect(r.code).toBe(2);
      const copies = readdirSync(dir).filter((f) => f.endsWith('.orig'));
      expect(copies).toEqual([expect.stringMatching(/^\.web\.yaml\.k8s-windows-\d+-[0-9a-f]{8}\.orig$/)]);
      const copy = path.join(dir, copies[0]);
      expect(readFileSync(copy, 'utf8')).toBe(DEPLOYMENT);
      expect(r.stderr).toBe(
        `k8s-windows: web.yaml: not written: no space left on the device, and putting back what it held failed too: it may be incomplete. Its text as read is in ${copy}; copy it back (cp ${copy} ${file}) before anything else.\n`,
      );
    } finally {
      cleanup();
    }
  });

  it('a hard-linked file is left as it is when no copy of it can be made first', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    const fs: WriteFs = {
      ...NODE_WRITE_FS,
      async open(f, flags, mode) {
        if (f.endsWith('.orig')) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return NODE_WRITE_FS.open(f, flags, mode);
      },
    };
    try {
      linkSync(file, path.join(dir, 'web-link.yml'));
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir, fs });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'k8s-windows: web.yaml: not written: it has 2 hard links, so it is rewritten in place once a copy of it is made beside it, and making that copy failed: no space left on the device. The file is as it was.\n',
      );
      expect(readFileSync(file, 'utf8')).toBe(DEPLOYMENT);
      expect(readdirSync(dir).sort()).toEqual(['web-link.yml', 'web.yaml']);
    } finally {
      cleanup();
    }
  });

  (AS_ROOT ? it : it.skip)("root fixing another user's file keeps its owner and group", async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    try {
      chownSync(file, 1234, 1235);
      await fsp.chmod(file, 0o640);
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(FIXED_DEPLOYMENT);
      const stat = statSync(file);
      expect([stat.uid, stat.gid, stat.mode & 0o7777]).toEqual([1234, 1235, 0o640]);
      expect(readdirSync(dir)).toEqual(['web.yaml']);
    } finally {
      cleanup();
    }
  });

  (AS_ROOT ? it : it.skip)('a file whose owner a new file could not be given is rewritten in place', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': DEPLOYMENT });
    const file = path.join(dir, 'web.yaml');
    // What a member of the file's group meets: it may write the file, but not give a new one the owner's uid.
    const fs: WriteFs = {
      ...NODE_WRITE_FS,
      async open(f, flags, mode) {
        const handle = await NODE_WRITE_FS.open(f, flags, mode);
        if (!f.endsWith('.tmp')) return handle;
        return {
          writeFile: (data) => handle.writeFile(data),
          truncate: (n) => handle.truncate(n),
          chmod: (m) => handle.chmod(m),
          chown: async () => {
            throw Object.assign(new Error('EPERM: operation not permitted, fchown'), { code: 'EPERM' });
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        };
      },
    };
    try {
      chownSync(file, 1234, 1235);
      const inode = statSync(file).ino;
      const r = await cli(['fix', '--write', 'web.yaml'], { cwd: dir, fs });
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(FIXED_DEPLOYMENT);
      const stat = statSync(file);
      expect([stat.ino, stat.uid, stat.gid]).toEqual([inode, 1234, 1235]);
      expect(readdirSync(dir)).toEqual(['web.yaml']);
    } finally {
      cleanup();
    }
  });
});
