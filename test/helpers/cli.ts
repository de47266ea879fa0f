/** Runs the CLI in-process with captured output, and builds throwaway directory trees. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { run, type CliIO } from '../../lib/cli/run';

/** The CLI tests' fixtures (test/cli/fixtures), the working directory of `cli()`. */
export const FIXTURES = path.join(__dirname, '..', 'cli', 'fixtures');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `run(argv)` from the fixtures directory, no TTY, empty environment unless given. */
export async function cli(
  argv: readonly string[],
  io: Partial<Omit<CliIO, 'stdout' | 'stderr'>> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    cwd: FIXTURES,
    env: {},
    isTTY: false,
    ...io,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

/** Creates `files` (relative path → content) under a fresh temp directory; returns it and a cleanup. */
export function tempTree(files: Readonly<Record<string, string>>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-cli-'));
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** 1-based line of the first line of `text` containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`'${needle}' not in text`);
  return index + 1;
}

/** 1-based column where `needle` starts on its line. */
export function columnOf(text: string, needle: string): number {
  const line = text.split('\n').find((l) => l.includes(needle));
  if (line === undefined) throw new Error(`'${needle}' not in text`);
  return line.indexOf(needle) + 1;
}
