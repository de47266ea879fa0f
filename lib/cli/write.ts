/**
 * `fix --write`'s one way to change a file: the new bytes go to a temporary file beside it, are flushed to disk,
 * and the temporary file is renamed over the original, so the file is at every moment either all old or all new
 * (a full disk or a crash leaves the original whole). The rename happens only while the file is still what was
 * read (same inode, size, modification time and bytes), and never through a symbolic link to a place outside the
 * tree the file was found in.
 */
import { randomBytes } from 'node:crypto';
import { promises as nodeFs } from 'node:fs';
import * as path from 'node:path';
import { isWithin } from './files';
import { sha256, type FileSnapshot, type TextEncoding } from './read';

/** The handle operations a write uses. */
export interface WriteHandle {
  writeFile(data: Uint8Array): Promise<void>;
  chmod(mode: number): Promise<void>;
  chown(uid: number, gid: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The file system operations a write uses: node's, or a test's that fails on purpose. */
export interface WriteFs {
  open(file: string, flags: string, mode?: number): Promise<WriteHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  stat(file: string): Promise<{ dev: number; ino: number; size: number; mtimeMs: number; uid: number; gid: number }>;
  readFile(file: string): Promise<Buffer>;
  realpath(file: string): Promise<string>;
}

export const NODE_WRITE_FS: WriteFs = nodeFs;

export type WriteOutcome =
  | { readonly written: true }
  | {
      readonly written: false;
      /** Why, as a clause: `no space left on the device`. The file is as it was. */
      readonly reason: string;
    };

/**
 * Replaces `file` with `bytes` atomically, if it is still as `snapshot` says and its real path lies within
 * `root`. Never throws; never leaves the temporary file behind.
 */
export async function writeAtomically(
  file: string,
  bytes: Uint8Array,
  options: { readonly snapshot: FileSnapshot; readonly root: string; readonly fs?: WriteFs },
): Promise<WriteOutcome> {
  const fs = options.fs ?? NODE_WRITE_FS;
  const { snapshot } = options;
  let target: string;
  let root: string;
  try {
    target = await fs.realpath(file);
    root = await fs.realpath(options.root);
  } catch (err) {
    return { written: false, reason: describeWriteError(err) };
  }
  if (!isWithin(root, target)) {
    return {
      written: false,
      reason: `it is a symbolic link to ${target}, outside ${root}; name that file itself to fix it`,
    };
  }
  const changed = await changedSince(fs, target, snapshot);
  if (changed !== undefined) return { written: false, reason: changed };

  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.k8s-windows-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  let created = false;
  try {
    const handle = await fs.open(temp, 'wx', 0o600);
    created = true;
    try {
      await handle.writeFile(bytes);
      await handle.chmod(snapshot.mode);
      // Keep the owner when we may (root fixing another user's file); anyone else keeps their own.
      const stat = await fs.stat(target);
      await handle.chown(stat.uid, stat.gid).catch(() => undefined);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Checked again as late as can be: a change made while the new text was written still wins.
    const changedNow = await changedSince(fs, target, snapshot);
    if (changedNow !== undefined) {
      await fs.unlink(temp).catch(() => undefined);
      return { written: false, reason: changedNow };
    }
    await fs.rename(temp, target);
    created = false;
  } catch (err) {
    if (created) await fs.unlink(temp).catch(() => undefined);
    return { written: false, reason: describeWriteError(err) };
  }
  await syncDirectory(fs, path.dirname(target));
  return { written: true };
}

/** Why the file is no longer what was read, or undefined. */
async function changedSince(fs: WriteFs, file: string, snapshot: FileSnapshot): Promise<string | undefined> {
  const CHANGED = 'it changed since it was read (another program wrote to it); run fix again';
  try {
    const now = await fs.stat(file);
    if (
      now.dev !== snapshot.dev ||
      now.ino !== snapshot.ino ||
      now.size !== snapshot.size ||
      now.mtimeMs !== snapshot.mtimeMs
    ) {
      return CHANGED;
    }
    // The same size and time can hide a write within the clock's resolution: the bytes decide.
    if (sha256(await fs.readFile(file)) !== snapshot.sha256) return CHANGED;
    return undefined;
  } catch (err) {
    return describeWriteError(err);
  }
}

/** The rename is on disk only once its directory is: best effort (some file systems refuse to sync one). */
async function syncDirectory(fs: WriteFs, dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file is written either way; only its durability across a power cut is less certain.
  }
}

/** A write error as a clause. */
export function describeWriteError(err: unknown): string {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'the disk quota is exhausted';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied (the file or its directory is not writable)';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOENT':
      return 'it no longer exists';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/**
 * The fixed text in the encoding the file had: a UTF-8 byte-order mark is kept, and a UTF-16 file (what Windows
 * PowerShell 5.1's `>` writes; lint decodes it as kubectl does) stays UTF-16 with its mark.
 */
export function encodeAs(fixed: string, encoding: TextEncoding): Buffer {
  // The text keeps a UTF-8 mark it was read with; the encoding read says which mark to write.
  const text = fixed.startsWith('\uFEFF') ? fixed.slice(1) : fixed;
  switch (encoding) {
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
    }
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf8':
      return Buffer.from(text, 'utf8');
    default: {
      const unknownEncoding: never = encoding;
      throw new Error(`unhandled encoding ${String(unknownEncoding)}`);
    }
  }
}
