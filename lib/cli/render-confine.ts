/**
 * What a render may read: the walk's rule ("a symbolic link out of the directory named is not read") holds for
 * what Helm and Kustomize read too, and a kustomization does not reach the network unless the user allows it.
 *
 * - A chart: Helm follows every symbolic link in it (`templates/x.yaml -> ../../elsewhere`, `.Files.Get` of
 *   `leak.txt -> /proc/self/environ`). A chart with a link out of the root is rendered from a copy that leaves
 *   those links out (a note names each); a chart without one is rendered where it is.
 * - A kustomization: Kustomize itself refuses a file whose real path is outside its kustomization's directory, but
 *   follows a base, resource or component directory wherever a link leads, and fetches remote entries (`https://`
 *   files, git URLs through `git fetch`). Both are refused before Kustomize runs, naming the entry, unless
 *   `--allow-remote-resources` allows the remote ones.
 *
 * Everything here is bounded: the files looked at, the bytes copied, the kustomizations followed.
 */
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { displayPath, isWithin, type Input } from './files';
import { KUSTOMIZATION_FILES } from './render-kinds';
import { formatBytes } from './read';

/** The most entries (files, directories, links) looked at in one chart or kustomization tree. */
export const MAX_RENDER_TREE_ENTRIES = 20_000;

/** The most kustomizations one render follows (an overlay, its bases, their bases, components). */
export const MAX_KUSTOMIZATIONS = 500;

type RenderInput = Extract<Input, { kind: 'render' }>;

/** The directory to render, and what to say and clean up. */
export interface Confined {
  /** Where the tool runs on: the input's directory, or a copy of it. */
  readonly dir: string;
  /** Links left out of the copy, as notes. */
  readonly notes: readonly string[];
  /** Removes the copy, if one was made. */
  readonly dispose: () => Promise<void>;
}

/** Why a directory is not rendered at all. */
export interface Refused {
  readonly refused: string;
}

/**
 * Prepares `input` for its tool: the directory as it is, a copy without the links that lead out of its root, or
 * why it is not rendered. `limit` bounds the bytes a copy holds (the input limit).
 */
export async function confine(
  input: RenderInput,
  cwd: string,
  options: { readonly allowRemote: boolean; readonly limit: number },
): Promise<Confined | Refused> {
  switch (input.renderer) {
    case 'helm':
      return confineChart(input, cwd, options.limit);
    case 'kustomize': {
      const refused = await checkKustomization(input, cwd, options.allowRemote);
      return refused ?? { dir: input.path, notes: [], dispose: async () => undefined };
    }
    default: {
      const unknownRenderer: never = input.renderer;
      throw new Error(`unhandled renderer ${String(unknownRenderer)}`);
    }
  }
}

/** A symbolic link found in a tree, and where it leads (undefined: nowhere that exists). */
interface Link {
  readonly path: string;
  readonly real?: string;
}

/** Every symbolic link under `dir` (dot entries included: Helm reads them), or the entry count was passed. */
async function linksUnder(dir: string): Promise<Link[] | Refused> {
  const links: Link[] = [];
  let entries = 0;
  const walk = async (d: string): Promise<Refused | undefined> => {
    const list = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const entry of list) {
      entries += 1;
      if (entries > MAX_RENDER_TREE_ENTRIES) {
        return { refused: `holds more than ${MAX_RENDER_TREE_ENTRIES} files and directories: not rendered.` };
      }
      const full = path.join(d, entry.name);
      if (entry.isSymbolicLink()) {
        const real = await fs.realpath(full).catch(() => undefined);
        links.push(real !== undefined ? { path: full, real } : { path: full });
      } else if (entry.isDirectory()) {
        const refused = await walk(full);
        if (refused !== undefined) return refused;
      }
    }
    return undefined;
  };
  const refused = await walk(dir);
  return refused ?? links;
}

function linkNote(link: Link, root: string, cwd: string, what: string): string {
  return `${displayPath(link.path, cwd)} is a symbolic link to ${link.real ?? 'an unreadable place'}, outside ${displayPath(root, cwd)}: ${what}`;
}

async function confineChart(input: RenderInput, cwd: string, limit: number): Promise<Confined | Refused> {
  const links = await linksUnder(input.path);
  if ('refused' in links) return links;
  const out = links.filter((l) => l.real !== undefined && !isWithin(input.root, l.real));
  if (out.length === 0) return { dir: input.path, notes: [], dispose: async () => undefined };
  const notes = out.map((l) =>
    linkNote(l, input.root, cwd, 'not read (helm template renders a copy of the chart without it).'),
  );
  const base = await fs.mkdtemp(path.join(tmpdir(), 'k8s-windows-chart-'));
  const dispose = () => fs.rm(base, { recursive: true, force: true });
  // The copy keeps the chart directory's name: Helm names the chart from Chart.yaml, messages from the path.
  const dir = path.join(base, path.basename(input.path));
  try {
    const copied = await copyWithin(input.path, dir, input.root, limit);
    if (copied !== undefined) {
      await dispose();
      return copied;
    }
  } catch (err) {
    await dispose();
    return { refused: `could not be copied to render it without its links out: ${(err as Error).message}` };
  }
  return { dir, notes, dispose };
}

/**
 * Copies `from` to `to` as plain files and directories: a link inside `root` is copied as what it points to, a
 * link out of it (or to nothing) is left out. Returns why it stopped, if it did.
 */
async function copyWithin(from: string, to: string, root: string, limit: number): Promise<Refused | undefined> {
  let bytes = 0;
  let entries = 0;
  const visited = new Set<string>();
  const copyDir = async (src: string, dst: string): Promise<Refused | undefined> => {
    const real = await fs.realpath(src);
    if (visited.has(real)) return undefined; // a link cycle: the directory is in the copy already
    visited.add(real);
    await fs.mkdir(dst, { recursive: true });
    for (const entry of await fs.readdir(src, { withFileTypes: true })) {
      entries += 1;
      if (entries > MAX_RENDER_TREE_ENTRIES) {
        return { refused: `holds more than ${MAX_RENDER_TREE_ENTRIES} files and directories: not rendered.` };
      }
      const s = path.join(src, entry.name);
      const d = path.join(dst, entry.name);
      let target = s;
      if (entry.isSymbolicLink()) {
        const resolved = await fs.realpath(s).catch(() => undefined);
        if (resolved === undefined || !isWithin(root, resolved)) continue;
        target = resolved;
      }
      const stat = await fs.stat(target);
      if (stat.isDirectory()) {
        const refused = await copyDir(target, d);
        if (refused !== undefined) return refused;
      } else if (stat.isFile()) {
        bytes += stat.size;
        if (bytes > limit) {
          return {
            refused: `holds more than the input limit of ${formatBytes(limit)} in files: not rendered (--max-input-size raises the limit).`,
          };
        }
        await fs.copyFile(target, d);
      }
    }
    return undefined;
  };
  return copyDir(from, to);
}

/** Kustomization fields whose entries Kustomize loads as files or directories, local or remote. */
const LIST_FIELDS: readonly string[] = [
  'resources',
  'bases',
  'components',
  'crds',
  'configurations',
  'generators',
  'transformers',
  'validators',
  'patchesStrategicMerge',
];
/** Entries of these are kustomizations (or remote ones) Kustomize builds on. */
const BUILD_FIELDS: readonly string[] = ['resources', 'bases', 'components'];
/** Lists of objects with a `path` Kustomize loads. */
const PATH_OBJECT_FIELDS: readonly string[] = ['patches', 'patchesJson6902', 'replacements'];
/** Generators whose `files`, `envs` and `env` Kustomize loads. */
const GENERATOR_FIELDS: readonly string[] = ['configMapGenerator', 'secretGenerator'];

/**
 * Whether Kustomize would fetch `entry` rather than read it from disk: a URL (`https://`, `ssh://`, `file://`
 * clones through git too), an scp-like or go-getter git address, or, for a base that is not on disk, a path whose
 * first segment is a host name (`github.com/org/repo//deploy?ref=v1`).
 */
export function isRemoteEntry(entry: string, onDisk: boolean): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^(git@|git::|gh:)/i.test(entry)) return true;
  if (onDisk) return false;
  const first = entry.split('/')[0];
  return entry.includes('/') && first !== '.' && first !== '..' && /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i.test(first);
}

/** Every string Kustomize loads from `doc`, with the field it came from and whether it is a base to build. */
function loadedEntries(doc: Record<string, unknown>): { field: string; entry: string; build: boolean }[] {
  const out: { field: string; entry: string; build: boolean }[] = [];
  for (const field of LIST_FIELDS) {
    const list = doc[field];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      // An inline patch or generator (a map, or YAML text with a newline) is not a path.
      if (typeof entry === 'string' && !entry.includes('\n')) {
        out.push({ field, entry, build: BUILD_FIELDS.includes(field) });
      }
    }
  }
  for (const field of PATH_OBJECT_FIELDS) {
    const list = doc[field];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const p = (item as { path?: unknown } | null)?.path;
      if (typeof p === 'string') out.push({ field: `${field}[].path`, entry: p, build: false });
    }
  }
  for (const field of GENERATOR_FIELDS) {
    const list = doc[field];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue;
      for (const key of ['files', 'envs', 'env']) {
        const value = (item as Record<string, unknown>)[key];
        const entries = Array.isArray(value) ? value : [value];
        for (const e of entries) {
          // `files` entries may be `key=path`.
          if (typeof e === 'string')
            out.push({ field: `${field}[].${key}`, entry: e.replace(/^[^=]*=/, ''), build: false });
        }
      }
    }
  }
  const openapi = (doc.openapi as { path?: unknown } | undefined)?.path;
  if (typeof openapi === 'string') out.push({ field: 'openapi.path', entry: openapi, build: false });
  return out;
}

/**
 * Follows a kustomization and every local kustomization it builds on. Refuses, naming the file and entry, an
 * entry Kustomize would fetch (unless `allowRemote`) and a base reached through a symbolic link that leads out of
 * the input's root. Unreadable or malformed kustomization files are left to Kustomize, which says what is wrong.
 */
async function checkKustomization(input: RenderInput, cwd: string, allowRemote: boolean): Promise<Refused | undefined> {
  const seen = new Set<string>();
  const queue: string[] = [await fs.realpath(input.path).catch(() => path.resolve(input.path))];
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (seen.size > MAX_KUSTOMIZATIONS) {
      return { refused: `builds on more than ${MAX_KUSTOMIZATIONS} kustomizations: not rendered.` };
    }
    const found = await readKustomization(dir);
    if (found === undefined) continue;
    const file = displayPath(found.file, cwd);
    for (const { field, entry, build } of loadedEntries(found.doc)) {
      const lexical = path.resolve(dir, entry);
      const stat = await fs.lstat(lexical).catch(() => undefined);
      if (isRemoteEntry(entry, stat !== undefined)) {
        if (allowRemote) continue;
        return {
          refused:
            `${file}: ${field} entry '${entry}' is fetched over the network, and lint and fix do not reach hosts a ` +
            `repository names: not rendered. --allow-remote-resources lets Kustomize fetch it, or render it yourself: ` +
            `kustomize build ${input.display} | k8s-windows lint -`,
        };
      }
      if (stat === undefined) continue; // Kustomize says it is missing
      const real = await fs.realpath(lexical).catch(() => undefined);
      if (real === undefined) continue;
      // `dir` is a real path, so a difference is a symbolic link on the way: it must stay inside the root.
      if (real !== lexical && !isWithin(input.root, real)) {
        return {
          refused:
            `${file}: ${field} entry '${entry}' leads through a symbolic link to ${real}, outside ` +
            `${displayPath(input.root, cwd)}: not rendered (name a directory that holds it to check it).`,
        };
      }
      if (build && (await fs.stat(real).catch(() => undefined))?.isDirectory()) queue.push(real);
    }
  }
  return undefined;
}

async function readKustomization(dir: string): Promise<{ file: string; doc: Record<string, unknown> } | undefined> {
  for (const name of KUSTOMIZATION_FILES) {
    const file = path.join(dir, name);
    let text: string;
    try {
      const stat = await fs.stat(file);
      // A kustomization file is a few KiB; a huge one is Kustomize's to refuse, not ours to parse.
      if (!stat.isFile() || stat.size > 4 * 1024 * 1024) return undefined;
      text = await fs.readFile(file, 'utf8');
    } catch {
      continue;
    }
    try {
      const doc: unknown = parse(text);
      return typeof doc === 'object' && doc !== null ? { file, doc: doc as Record<string, unknown> } : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
