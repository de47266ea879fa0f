/**
 * Reading one input with a size limit, and what `fix --write` needs to know later about the file it read: its
 * identity (device, inode, size, modification time, mode), a digest of its bytes and its encoding. The limit
 * holds while reading, not after: `lint /dev/zero` stops at the limit instead of growing until the kernel kills it.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';

/** The default input limit: 64 MiB per file or standard input (a generated 40,000-object manifest set is 40 MB). */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** How the bytes were written; `fix --write` writes the fixed text back the same way. */
export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

/** A file as it was read: `fix --write` rewrites it only while it is still this. */
export interface FileSnapshot {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Permission bits, given to the rewritten file. */
  readonly mode: number;
  /** SHA-256 of the bytes read, hex. */
  readonly sha256: string;
  readonly encoding: TextEncoding;
}

/** More bytes than the limit: the input is not read further. */
export class InputTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly size?: number,
  ) {
    super(
      size !== undefined
        ? `is ${formatBytes(size)}, over the input limit of ${formatBytes(limit)}: split it, or raise the limit (--max-input-size ${formatBytes(nextLimit(size)).replace(' ', '')}).`
        : `is larger than the input limit of ${formatBytes(limit)} (it was read no further; --max-input-size raises the limit).`,
    );
    this.name = 'InputTooLargeError';
  }
}

/** A limit that would take `size`: the next power-of-two MiB above it. */
function nextLimit(size: number): number {
  let mib = 64;
  while (mib * 1024 * 1024 <= size) mib *= 2;
  return mib * 1024 * 1024;
}

/** `64 MiB`, `1.5 GiB`, `900 KiB`, `12 bytes`. */
export function formatBytes(n: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (n >= size) {
      const v = n / size;
      return `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
    }
  }
  return `${n} byte${n === 1 ? '' : 's'}`;
}

/**
 * `--max-input-size`: a byte count, or a number with a unit (`KiB`, `MiB`, `GiB`, or `K`, `M`, `G` meaning the
 * same powers of 1024); undefined when it is neither.
 */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(|b|bytes?|k|kb|kib|m|mb|mib|g|gb|gib)\s*$/i.exec(text);
  if (!m) return undefined;
  const scale: Readonly<Record<string, number>> = {
    '': 1,
    b: 1,
    byte: 1,
    bytes: 1,
    k: 1024,
    m: 1024 ** 2,
    g: 1024 ** 3,
  };
  const unit = m[2].toLowerCase();
  const factor = scale[unit] ?? scale[unit[0]];
  const n = Math.floor(Number(m[1]) * factor);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The encoding the first bytes announce (a byte-order mark); UTF-8 without one. */
export function encodingOf(bytes: Uint8Array): TextEncoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  return 'utf8';
}

/** SHA-256 of `bytes`, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const CHUNK = 1024 * 1024;

/**
 * Reads a file, at most `limit` bytes: a regular file whose size is over the limit is not read at all, anything
 * else (a device, a FIFO, a file growing while read) is read until the limit is passed, then refused.
 * Rejects with `InputTooLargeError`, or the file system's error.
 */
export async function readFileBounded(
  file: string,
  limit: number,
): Promise<{ readonly bytes: Buffer; readonly snapshot: FileSnapshot }> {
  const handle = await fs.open(file, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isFile() && stat.size > limit) throw new InputTooLargeError(limit, stat.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // One more byte than the limit allows tells "exactly at the limit" from "over it".
      const want = Math.min(CHUNK, limit + 1 - total);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(chunk, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === want ? chunk : chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw new InputTooLargeError(limit, stat.isFile() ? total : undefined);
    }
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
    return {
      bytes,
      snapshot: {
        dev: stat.dev,
        ino: stat.ino,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        mode: stat.mode & 0o7777,
        sha256: sha256(bytes),
        encoding: encodingOf(bytes),
      },
    };
  } finally {
    await handle.close();
  }
}

/** Reads a stream (standard input) or a given text, at most `limit` bytes; rejects with `InputTooLargeError`. */
export async function readStreamBounded(
  stream: AsyncIterable<string | Uint8Array> | string,
  limit: number,
): Promise<Buffer> {
  if (typeof stream === 'string') {
    const bytes = Buffer.from(stream, 'utf8');
    if (bytes.length > limit) throw new InputTooLargeError(limit, bytes.length);
    return bytes;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    total += bytes.length;
    // Leaving the loop ends the stream: nothing more is read.
    if (total > limit) throw new InputTooLargeError(limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}
