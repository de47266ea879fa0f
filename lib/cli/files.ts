/**
 * Turns the inputs named on the command line into the list of things to read: files as given, directories walked
 * recursively for manifest files, and `-` for standard input. Problems (missing paths, unreadable directories) are
 * collected, never thrown, so the rest still gets linted.
 *
 * Symbolic links met in a walk are followed only while they stay inside the directory named (a kustomization
 * that links `base/common.yaml -> ../shared/common.yaml` is read, once, and `fix --write` rewrites the file it
 * points to); one that leads out of it (`passwd.yaml -> /etc/passwd`) is not read, and a note says so. A path
 * named on the command line is read wherever it leads: the user named it. The same rule holds for what Helm and
 * Kustomize read when they render a chart or kustomization found here (render-confine.ts).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { STDIN_ARG } from './args';
import { rendererOf, type Renderer } from './render-kinds';

/** Extensions picked up when walking a directory (a file named explicitly is read whatever its extension). */
export const MANIFEST_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

/** Directory names never walked into: dependencies. Hidden (dot) entries are skipped too. */
export const SKIPPED_DIRECTORIES: readonly string[] = ['node_modules'];

/** How standard input is named in output. */
export const STDIN_SOURCE = '<stdin>';

export type Input =
  | { readonly kind: 'stdin'; readonly display: typeof STDIN_SOURCE }
  | {
      readonly kind: 'file';
      /** Absolute path. */
      readonly path: string;
      /** Path relative to the working directory, with forward slashes: what output shows. */
      readonly display: string;
      /** Found by walking a directory rather than named on the command line. */
      readonly discovered: boolean;
      /**
       * The directory the file belongs to: the directory walked (its real path), or the named file's own
       * directory. `fix --write` writes nothing whose real path lies outside it.
       */
      readonly root: string;
    }
  | {
      /** A Helm chart or Kustomize directory: read as the tool renders it (render.ts). */
      readonly kind: 'render';
      readonly renderer: Renderer;
      /** Absolute path of the directory. */
      readonly path: string;
      readonly display: string;
      readonly discovered: boolean;
      /**
       * The directory walked (its real path), or the named directory itself: what the tool may read through a
       * symbolic link (render-confine.ts).
       */
      readonly root: string;
    };

/** A problem with the input itself (unreadable, malformed): where, as far as known, and what. */
export interface InputProblem {
  /** Display path, or `<stdin>`. */
  readonly source?: string;
  /**
   * `warning`: said, but the run does not fail for it (exit 2): a chart or kustomization met in a directory walk
   * that its tool could not render, while the rest of the tree is linted. @default - an error
   */
  readonly severity?: 'warning';
  /** 1-based. */
  readonly line?: number;
  /** 1-based. */
  readonly column?: number;
  readonly message: string;
}

export interface CollectedInputs {
  readonly inputs: readonly Input[];
  readonly problems: readonly InputProblem[];
  /** What was left out on purpose and why (a symbolic link out of the tree): said, not an error. */
  readonly notes: readonly string[];
}

/**
 * Expands command-line inputs in the order given; directory contents sorted by name so output is stable.
 * A file reached twice (named and inside a named directory, or through a symlink) is read once.
 */
export async function collectInputs(
  args: readonly string[],
  cwd: string,
  options: { readonly render?: boolean } = {},
): Promise<CollectedInputs> {
  const inputs: Input[] = [];
  const problems: InputProblem[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let stdinSeen = false;

  /** The directory named on the command line that is being walked. */
  let named = '';

  const addFile = async (absolute: string, discovered: boolean, root: string): Promise<void> => {
    const real = await fs.realpath(absolute).catch(() => absolute);
    if (seen.has(real)) return;
    seen.add(real);
    inputs.push({ kind: 'file', path: absolute, display: displayPath(absolute, cwd), discovered, root });
  };

  /**
   * Walks `dir`, whose files belong to `root` (a real path): links leading out of it are not followed.
   * `manifests: false` inside a kustomization: only the kustomizations below it are looked for, not its files.
   */
  const walk = async (dir: string, root: string, visited: Set<string>, manifests = true): Promise<number> => {
    const real = await fs.realpath(dir).catch(() => dir);
    if (visited.has(real)) return 0; // a symlink cycle
    visited.add(real);
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      problems.push({ source: displayPath(dir, cwd), message: describeFsError(err) });
      return 0;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let found = 0;
    // A chart or kustomization is checked as its tool renders it; its templates and bases are not manifests.
    const renderer = options.render === false ? undefined : rendererOf(entries.map((e) => e.name));
    if (renderer !== undefined) {
      if (seen.has(real)) return 1; // the same directory named twice, or through a symlink
      seen.add(real);
      inputs.push({
        kind: 'render',
        renderer,
        path: dir,
        display: displayPath(dir, cwd),
        discovered: dir !== named,
        root,
      });
      if (renderer === 'helm') return 1;
      found++;
      manifests = false;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await fs.stat(full).catch(() => undefined);
        if (target === undefined) continue; // dangling link: nothing to lint
        isDir = target.isDirectory();
        isFile = target.isFile();
        if (!isDir && !(isFile && isManifestFile(entry.name))) continue;
        const real = await fs.realpath(full).catch(() => undefined);
        if (real === undefined || !isWithin(root, real)) {
          notes.push(
            `${displayPath(full, cwd)} is a symbolic link to ${real ?? 'an unreadable place'}, outside ${displayPath(root, cwd)}: not read (name it on the command line to check it).`,
          );
          continue;
        }
      }
      if (isDir) found += await walk(full, root, visited, manifests);
      else if (manifests && isFile && isManifestFile(entry.name)) {
        await addFile(full, true, root);
        found++;
      }
    }
    return found;
  };

  for (const arg of args) {
    if (arg === STDIN_ARG) {
      if (!stdinSeen) inputs.push({ kind: 'stdin', display: STDIN_SOURCE });
      stdinSeen = true;
      continue;
    }
    const absolute = path.resolve(cwd, arg);
    let stat;
    try {
      stat = await fs.stat(absolute);
    } catch (err) {
      problems.push({ source: arg, message: describeFsError(err) });
      continue;
    }
    if (stat.isDirectory()) {
      const problemsBefore = problems.length;
      named = absolute;
      const root = await fs.realpath(absolute).catch(() => absolute);
      const found = await walk(absolute, root, new Set());
      if (found === 0 && problems.length === problemsBefore) {
        problems.push({
          source: arg,
          message: `no manifest files (${MANIFEST_EXTENSIONS.join(', ')}) in this directory.`,
        });
      }
    } else {
      await addFile(absolute, false, path.dirname(absolute));
    }
  }
  return { inputs, problems, notes };
}

/** Whether the problems fail the run (exit 2): any that is not a warning. */
export function failsOnProblems(problems: readonly InputProblem[]): boolean {
  return problems.some((p) => p.severity !== 'warning');
}

/** Whether `inner` is `outer` or inside it (both real paths). */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

export function isManifestFile(name: string): boolean {
  const ext = path.extname(name).toLowerCase();
  return MANIFEST_EXTENSIONS.includes(ext);
}

/** Relative to `cwd` with forward slashes (SARIF URIs and Windows shells alike); absolute when on another drive. */
export function displayPath(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  const shown = relative === '' ? '.' : path.isAbsolute(relative) ? absolute : relative;
  return shown.split(path.sep).join('/');
}

/** `ENOENT` and friends in words; other errors by their message. */
export function describeFsError(err: unknown): string {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory.';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied.';
    case 'EISDIR':
      return 'is a directory.';
    case 'ENOTDIR':
      return 'not a directory.';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
