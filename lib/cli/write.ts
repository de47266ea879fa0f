/**
 * How `fix --write` changes a file: the new bytes go to a temporary file beside it, are flushed to disk, and the
 * temporary file is renamed over the original, so the file is at every moment either all old or all new (a full
 * disk or a crash leaves the original whole). The rename happens only while the file is still what was read
 * (same inode, size, modification time and bytes), and never through a symbolic link to a place outside the tree
 * the file was found in.
 *
 * A rename makes a new file, so it is used only when the new file can be all the old one was. A file the user
 * could not write in place (read-only, or another user's) is left as it is and reported: the rename would
 * otherwise replace it, since only the directory's permissions govern a rename. A file with other hard links, or
 * whose owner or group a new file could not be given, is rewritten in place instead (see `writeInPlace`).
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as nodeFs } from 'node:fs';
import * as path from 'node:path';
import { isWithin } from './files';
import { sha256, type FileSnapshot, type TextEncoding } from './read';

/** The handle operations a write uses. */
export interface WriteHandle {
  /** Writes from the handle's position: the start, for a handle just opened. */
  writeFile(data: Uint8Array): Promise<void>;
  truncate(length: number): Promise<void>;
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
  stat(file: string): Promise<WriteStat>;
  readFile(file: string): Promise<Buffer>;
  realpath(file: string): Promise<string>;
  /** Rejects when the file may not be accessed so (`W_OK`: written). */
  access(file: string, mode: number): Promise<void>;
}

/** What a write needs of a file's status. */
export interface WriteStat {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
}

export const NODE_WRITE_FS: WriteFs = nodeFs;

export type WriteOutcome =
  | { readonly written: true }
  | {
      readonly written: false;
      /** Why, and what to do, as a clause: `no space left on the device`. */
      readonly reason: string;
      /**
       * The file is as it was. False only when an in-place write failed and so did putting the old bytes back:
       * the reason then names the copy of them kept beside the file.
       */
      readonly intact: boolean;
    };

function notWritten(reason: string): WriteOutcome {
  return { written: false, reason, intact: true };
}

/**
 * Replaces `file` with `bytes`, if it is still as `snapshot` says, its real path lies within `root` and this user
 * may write it: atomically, or in place for a file with hard links or an owner a new file cannot have. Never
 * throws; leaves nothing beside the file, but the copy of its bytes an in-place write that could not be undone
 * keeps (its outcome says so).
 */
export async function writeAtomically(
  file: string,
  bytes: Uint8Array,
  options: {
    readonly snapshot: FileSnapshot;
    readonly root: string;
    /** The file as the user names it, in the commands a message suggests. @default file */
    readonly display?: string;
    readonly fs?: WriteFs;
  },
): Promise<WriteOutcome> {
  const fs = options.fs ?? NODE_WRITE_FS;
  const { snapshot } = options;
  let target: string;
  let root: string;
  try {
    target = await fs.realpath(file);
    root = await fs.realpath(options.root);
  } catch (err) {
    return notWritten(describeWriteError(err));
  }
  if (!isWithin(root, target)) {
    return notWritten(`it is a symbolic link to ${target}, outside ${root}; name that file itself to fix it`);
  }
  const current = await unchangedSince(fs, target, snapshot);
  if (typeof current === 'string') return notWritten(current);
  const { stat, bytes: original } = current;
  const unwritable = await whyNotWritable(fs, target, stat, options.display ?? file);
  if (unwritable !== undefined) return notWritten(unwritable);
  if (stat.nlink > 1) {
    return writeInPlace(fs, target, bytes, original, snapshot, `it has ${stat.nlink} hard links`);
  }

  const temp = tempBeside(target, 'tmp');
  let created = false;
  try {
    const handle = await fs.open(temp, 'wx', 0o600);
    created = true;
    let ownerKept = true;
    try {
      await handle.writeFile(bytes);
      // The owner and group first: a chown clears the set-user-ID and set-group-ID bits the chmod then restores.
      const made = await fs.stat(temp);
      if (made.uid !== stat.uid || made.gid !== stat.gid) {
        // Root may give the new file any owner; anyone else only their own groups: a group-writable file of
        // another user or group is rewritten in place instead.
        ownerKept = await handle.chown(stat.uid, stat.gid).then(
          () => true,
          () => false,
        );
      }
      if (ownerKept) {
        await handle.chmod(stat.mode & 0o7777);
        await handle.sync();
      }
    } finally {
      await handle.close();
    }
    if (!ownerKept) {
      await fs.unlink(temp).catch(() => undefined);
      created = false;
      const owner = `its owner and group (uid ${stat.uid}, gid ${stat.gid}) cannot be given to a new file`;
      return await writeInPlace(fs, target, bytes, original, snapshot, owner);
    }
    // Checked again as late as can be: a change made while the new text was written still wins.
    const changedNow = await unchangedSince(fs, target, snapshot);
    if (typeof changedNow === 'string') {
      await fs.unlink(temp).catch(() => undefined);
      return notWritten(changedNow);
    }
    await fs.rename(temp, target);
    created = false;
  } catch (err) {
    if (created) await fs.unlink(temp).catch(() => undefined);
    return notWritten(describeWriteError(err));
  }
  await syncDirectory(fs, path.dirname(target));
  return { written: true };
}

/** A new name beside `target`, hidden, saying whose it is: `.web.yaml.k8s-windows-4242-1a2b3c4d.tmp`. */
function tempBeside(target: string, suffix: 'tmp' | 'orig'): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.k8s-windows-${process.pid}-${randomBytes(4).toString('hex')}.${suffix}`,
  );
}

/**
 * Why this user could not write `file` in place, with what to do, or undefined. A rename needs only the
 * directory to be writable, so without this check a read-only file, or another user's, would be replaced.
 */
async function whyNotWritable(
  fs: WriteFs,
  file: string,
  stat: WriteStat,
  display: string,
): Promise<string | undefined> {
  const mode = `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`;
  const instead = `or run fix without --write to print the fixed text instead`;
  const readOnly = `it is read-only (${mode}): make it writable (${makeWritable(display)}) and run fix again, ${instead}`;
  // Root may write any file, so access() says yes; but a file no one may write was made read-only on purpose
  // (a vendored or generated manifest, a tree kept pristine), and an editor refuses it too until forced. Root is
  // held to the write bits as everyone else.
  if ((stat.mode & 0o222) === 0) return readOnly;
  try {
    await fs.access(file, fsConstants.W_OK);
    return undefined;
  } catch (err) {
    const code = errorCode(err);
    if (code !== 'EACCES' && code !== 'EPERM') return describeWriteError(err);
    if (stat.uid === process.geteuid?.() && (stat.mode & 0o200) === 0) return readOnly;
    return `it is not writable by you (${mode}, owner uid ${stat.uid}, group gid ${stat.gid}): run fix as a user who may write it, ${instead}`;
  }
}

/** The command that makes `display` writable by its owner, as the user would type it. */
function makeWritable(display: string): string {
  return process.platform === 'win32' ? `attrib -r ${shellWord(display)}` : `chmod u+w ${shellWord(display)}`;
}

/** `file` as one shell word: as it is when it can be, else in single quotes. */
function shellWord(file: string): string {
  return /^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}

/**
 * Rewrites `target` in place, for a file a rename would break: one with other hard links (a file shared between
 * overlays, a way around Kustomize's load restrictor), which a rename would silently part from them, or
 * one whose owner or group a new file cannot be given. This is what vim does for such files and what a user
 * expects: every name shows the fix, and owner, group, mode and links stay. Atomicity is traded for it, so the
 * bytes as read are first copied (and flushed) beside the file: a failed write puts them back, and should that
 * fail too, or the process die midway, the copy is left, named in the message, for the user to copy back.
 */
async function writeInPlace(
  fs: WriteFs,
  target: string,
  bytes: Uint8Array,
  original: Buffer,
  snapshot: FileSnapshot,
  /** Why not by a rename, as a clause: `it has 2 hard links`. */
  why: string,
): Promise<WriteOutcome> {
  const backup = tempBeside(target, 'orig');
  try {
    const handle = await fs.open(backup, 'wx', 0o600);
    try {
      await handle.writeFile(original);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await fs.unlink(backup).catch(() => undefined);
    return notWritten(
      `${why}, so it is rewritten in place once a copy of it is made beside it, and making that copy failed: ${describeWriteError(err)}`,
    );
  }
  const changedNow = await unchangedSince(fs, target, snapshot);
  if (typeof changedNow === 'string') {
    await fs.unlink(backup).catch(() => undefined);
    return notWritten(changedNow);
  }
  try {
    await overwrite(fs, target, bytes);
  } catch (err) {
    const cause = describeWriteError(err);
    try {
      await overwrite(fs, target, original);
    } catch {
      return {
        written: false,
        intact: false,
        reason: `${cause}, and putting back what it held failed too: it may be incomplete. Its text as read is in ${backup}; copy it back (cp ${shellWord(backup)} ${shellWord(target)}) before anything else`,
      };
    }
    await fs.unlink(backup).catch(() => undefined);
    return notWritten(cause);
  }
  await fs.unlink(backup).catch(() => undefined);
  return { written: true };
}

/** Writes `bytes` over the file's own, on the same inode, and flushes them. */
async function overwrite(fs: WriteFs, file: string, bytes: Uint8Array): Promise<void> {
  // Opened without O_TRUNC: the file is cut to the new length only once the new bytes are written.
  const handle = await fs.open(file, 'r+');
  try {
    await handle.writeFile(bytes);
    await handle.truncate(bytes.length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The file's status and bytes while it is still what was read; else why not. */
async function unchangedSince(
  fs: WriteFs,
  file: string,
  snapshot: FileSnapshot,
): Promise<{ readonly stat: WriteStat; readonly bytes: Buffer } | string> {
  const CHANGED = 'it changed since it was read (another program wrote to it); run fix again';
  try {
    const stat = await fs.stat(file);
    if (
      stat.dev !== snapshot.dev ||
      stat.ino !== snapshot.ino ||
      stat.size !== snapshot.size ||
      stat.mtimeMs !== snapshot.mtimeMs
    ) {
      return CHANGED;
    }
    // The same size and time can hide a write within the clock's resolution: the bytes decide.
    const bytes = await fs.readFile(file);
    if (sha256(bytes) !== snapshot.sha256) return CHANGED;
    return { stat, bytes };
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
  switch (errorCode(err)) {
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

function errorCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
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
