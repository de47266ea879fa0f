/**
 * Where a finding in rendered output comes from, as a file in the repository: code scanning (SARIF) and GitHub
 * annotations place findings on files, and a label such as `charts/web (helm template)` is none.
 *
 * - A chart: the template Helm's `# Source: <chart>/templates/x.yaml` comment names, under the chart directory
 *   (`<chart>/charts/<sub>/templates/x.yaml` under the subchart's directory); the chart's Chart.yaml when Helm names
 *   none, or a file that is not there (a packaged subchart).
 * - A kustomization: the resource file that holds the object with the same kind, namespace and name (the
 *   kustomizations' `namespace`, `namePrefix` and `nameSuffix` applied), found through `resources`, `bases` and
 *   `components`; patches change the object, the base file is where it comes from. The overlay's kustomization file
 *   when no file holds it (a generator's ConfigMap).
 *
 * The line is the file's own when the rendered line's text appears there as often as in the rendered document (the
 * same occurrence, so `spec:` twice maps to `spec:` twice); else the template's first line (the object's, for a
 * resource file), and the rendered position goes with the finding (`rendered`) for the message to say.
 * Only files the tools could read are read (render-confine.ts), each bounded, and only for inputs with findings.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import type { Diagnostic } from '../core/model/types';
import { displayPath, isWithin, type Input } from './files';
import type { LocatedDiagnostic, Locator } from './locate';
import { readFileBounded } from './read';
import { MAX_KUSTOMIZATIONS } from './render-confine';
import { CHART_FILE, KUSTOMIZATION_FILES } from './render-kinds';

/** The most bytes read of one template or resource file to place findings (a larger one is not searched). */
const MAX_ORIGIN_FILE_BYTES = 4 * 1024 * 1024;
/** The most resource files one kustomization's objects are looked for in. */
const MAX_RESOURCE_FILES = 5_000;
/** The most characters of resource files read for one kustomization (the input limit's default). */
const MAX_RESOURCE_CHARS = 64 * 1024 * 1024;

/** A rendered input as `readInputs` gives it: the directory, the rendered text and its display name. */
export interface RenderedRead {
  readonly input: Input;
  readonly text: string;
  readonly display: string;
}

/** Where each document of a rendered stream starts (1-based line) and, for Helm, the template it names. */
export interface TemplateOrigin {
  readonly line: number;
  readonly template?: string;
}

/** Helm writes `# Source: <chart>/templates/<file>` at the top of each document it renders. */
const SOURCE_COMMENT = /^# Source: (.+?)\s*$/;

/** Every document of a rendered stream, in order, with the template its first `# Source:` comment names. */
export function templateOrigins(text: string): TemplateOrigin[] {
  const docs: { line: number; template?: string }[] = [{ line: 1 }];
  text.split('\n').forEach((line, i) => {
    if (/^---(?:[ \t]|$)/.test(line)) docs.push({ line: i + 2 });
    const m = SOURCE_COMMENT.exec(line);
    const doc = docs[docs.length - 1];
    if (m && doc.template === undefined) doc.template = m[1];
  });
  return docs;
}

/** The index of the document holding `line`. */
function docIndexAt(origins: readonly TemplateOrigin[], line: number): number {
  let found = 0;
  for (let i = 0; i < origins.length && origins[i].line <= line; i++) found = i;
  return found;
}

/** The template that wrote the document holding `line`, if Helm said. */
export function templateAt(origins: readonly TemplateOrigin[], line: number): string | undefined {
  return origins[docIndexAt(origins, line)]?.template;
}

/**
 * The line (and column) in `file` of the rendered line `at` (1-based, in `rendered`, inside the document spanning
 * lines `from`–`to`): the same occurrence of the same text (leading and trailing blanks aside), when the file holds
 * that text as often as the document does. `fileFrom`–`fileTo` bound the search in the file (an object's document).
 */
export function matchLine(
  rendered: readonly string[],
  doc: { readonly from: number; readonly to: number },
  at: { readonly line: number; readonly column?: number },
  file: readonly string[],
  fileRange: { readonly from: number; readonly to: number } = { from: 1, to: file.length },
): { readonly line: number; readonly column?: number } | undefined {
  const wanted = rendered[at.line - 1];
  if (wanted === undefined) return undefined;
  const text = lineText(wanted);
  // A line with no text of its own says nothing of where it came from.
  if (text === '' || text === '-' || text.startsWith('#')) return undefined;
  let occurrence = 0;
  let count = 0;
  for (let l = doc.from; l <= doc.to && l <= rendered.length; l++) {
    if (lineText(rendered[l - 1]) !== text) continue;
    if (l < at.line) occurrence++;
    count++;
  }
  const found: number[] = [];
  for (let l = fileRange.from; l <= fileRange.to && l <= file.length; l++) {
    if (lineText(file[l - 1]) === text) found.push(l);
  }
  if (found.length !== count || found.length === 0) return undefined;
  const line = found[occurrence];
  if (at.column === undefined) return { line };
  const column = Math.max(1, textStart(file[line - 1]) + 1 + (at.column - 1 - textStart(wanted)));
  return { line, column };
}

/**
 * A line's text as compared: without its indentation, trailing blanks and list dashes (Kustomize writes a list
 * item's keys in its own order, so `- image: x` in its output is `image: x` under `- name: web` in the file).
 */
function lineText(line: string): string {
  return line.trim().replace(/^(?:-[ \t]+)+/, '');
}

/** Where `lineText` starts in the line (0-based). */
function textStart(line: string): number {
  return line.trimEnd().length - lineText(line).length;
}

/** A file read to place findings: its lines, or nothing when it could not be read. */
type Lines = readonly string[] | undefined;

/**
 * Reads a file, bounded, as the tools may read it (render-confine.ts): reached without a symbolic link, or through
 * one that stays inside `root` (a real path); undefined when it is not a readable file so reached.
 */
async function readInside(file: string, root: string): Promise<Lines> {
  try {
    const real = await fs.realpath(file);
    if (real !== path.resolve(file) && !isWithin(root, real)) return undefined;
    const stat = await fs.stat(real);
    if (!stat.isFile() || stat.size > MAX_ORIGIN_FILE_BYTES) return undefined;
    const { bytes } = await readFileBounded(real, MAX_ORIGIN_FILE_BYTES);
    return bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/);
  } catch {
    return undefined;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  return fs.stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The `name:` of a chart's Chart.yaml, read by line (it is plain YAML without templates). */
async function chartName(dir: string, root: string): Promise<string | undefined> {
  const lines = await readInside(path.join(dir, CHART_FILE), root);
  const line = lines?.find((l) => /^name:/.test(l));
  return line
    ?.slice('name:'.length)
    .replace(/#.*$/, '')
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2');
}

/**
 * The file a `# Source:` path names under `chartDir`: `<chart>/templates/x.yaml`, or through subcharts
 * `<chart>/charts/<sub>/templates/x.yaml`, where `<sub>` is a subchart's name (its directory under charts/ is
 * usually named so; else the one whose Chart.yaml says so). Undefined when no such file is there.
 */
async function templateFile(chartDir: string, source: string, root: string): Promise<string | undefined> {
  const parts = source.split('/').slice(1);
  let dir = chartDir;
  while (parts.length > 2 && parts[0] === 'charts') {
    const sub = parts[1];
    let next: string | undefined = path.join(dir, 'charts', sub);
    if (!(await isDirectory(next))) {
      next = undefined;
      const entries = await fs.readdir(path.join(dir, 'charts'), { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const candidate = path.join(dir, 'charts', e.name);
        if (e.isDirectory() && (await chartName(candidate, root)) === sub) {
          next = candidate;
          break;
        }
      }
    }
    if (next === undefined) return undefined;
    dir = next;
    parts.splice(0, 2);
  }
  if (parts.length === 0 || parts.includes('..')) return undefined;
  const file = path.join(dir, ...parts);
  return (await readInside(file, root)) !== undefined ? file : undefined;
}

/** An object of a kustomization's resource files, named as the build names it. */
interface SourceObject {
  readonly kind: string;
  /** The name after the kustomizations' prefixes and suffixes. */
  readonly name: string;
  /** The namespace after the kustomizations' `namespace`, if any. */
  readonly namespace?: string;
  readonly file: string;
  /** The lines of the object's document in the file (1-based, inclusive), from its first line of content. */
  readonly from: number;
  readonly to: number;
}

/** The names a kustomization gives what it builds on. */
interface Naming {
  readonly prefix: string;
  readonly suffix: string;
  readonly namespace?: string;
}

/** The kustomization file of `dir` and what it holds, if it has one that parses. */
async function readKustomization(
  dir: string,
  root: string,
): Promise<{ readonly file: string; readonly doc: Record<string, unknown> } | undefined> {
  for (const name of KUSTOMIZATION_FILES) {
    const file = path.join(dir, name);
    const lines = await readInside(file, root);
    if (lines === undefined) continue;
    try {
      const [doc] = parseAllDocuments(lines.join('\n'));
      const value: unknown = doc?.toJS();
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { file, doc: value as Record<string, unknown> }
        : { file, doc: {} };
    } catch {
      return { file, doc: {} };
    }
  }
  return undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Every object the kustomization at `dir` builds from files, with the names the build gives it. */
async function kustomizationObjects(dir: string, root: string): Promise<SourceObject[]> {
  const objects: SourceObject[] = [];
  let kustomizations = 0;
  let files = 0;
  let chars = 0;
  const seenFiles = new Set<string>();
  const visit = async (at: string, outer: Naming, depth: number): Promise<void> => {
    if (++kustomizations > MAX_KUSTOMIZATIONS || depth > 50) return;
    const k = await readKustomization(at, root);
    if (k === undefined) return;
    const naming: Naming = {
      prefix: outer.prefix + (text(k.doc.namePrefix) ?? ''),
      suffix: (text(k.doc.nameSuffix) ?? '') + outer.suffix,
      ...((outer.namespace ?? text(k.doc.namespace)) !== undefined
        ? { namespace: outer.namespace ?? text(k.doc.namespace) }
        : {}),
    };
    for (const key of ['resources', 'bases', 'components']) {
      const list = k.doc[key];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        if (typeof entry !== 'string' || /^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\//i.test(entry)) continue;
        const target = path.resolve(at, entry);
        if (await isDirectory(target)) {
          await visit(target, naming, depth + 1);
          continue;
        }
        if (seenFiles.has(target) || ++files > MAX_RESOURCE_FILES) continue;
        seenFiles.add(target);
        if (chars > MAX_RESOURCE_CHARS) continue;
        const lines = await readInside(target, root);
        if (lines === undefined) continue;
        for (const line of lines) chars += line.length + 1;
        for (const o of objectsOf(target, lines, naming)) objects.push(o);
      }
    }
  };
  await visit(dir, { prefix: '', suffix: '' }, 0);
  return objects;
}

/** The objects of one resource file, named as the build names them, with the lines of their documents. */
function objectsOf(file: string, lines: readonly string[], naming: Naming): SourceObject[] {
  const counter = new LineCounter();
  const out: SourceObject[] = [];
  let docs;
  try {
    docs = parseAllDocuments(lines.join('\n'), { lineCounter: counter });
  } catch {
    return [];
  }
  if (!Array.isArray(docs)) return [];
  for (const doc of docs) {
    let value: unknown;
    try {
      value = doc.contents === null ? undefined : doc.toJS({ maxAliasCount: 100 });
    } catch {
      continue; // kustomize reports what it could not read
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const record = value as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
    const kind = text(record.kind);
    const name = text(record.metadata?.name);
    const contents = doc.contents;
    if (kind === undefined || name === undefined || contents === null || contents.range === undefined) continue;
    const namespace = naming.namespace ?? text(record.metadata?.namespace);
    out.push({
      kind,
      name: naming.prefix + name + naming.suffix,
      ...(namespace !== undefined ? { namespace } : {}),
      file,
      from: counter.linePos(contents.range[0]).line,
      to: counter.linePos(Math.max(contents.range[0], contents.range[2] - 1)).line,
    });
  }
  return out;
}

/** The object a rendered resource came from: same kind and name, the same namespace if several. */
function sourceOf(objects: readonly SourceObject[], resource: Diagnostic['resource']): SourceObject | undefined {
  const candidates = objects.filter((o) => o.kind === resource.kind && o.name === resource.name);
  if (candidates.length <= 1) return candidates[0];
  const same = candidates.filter((o) => o.namespace === resource.namespace);
  return same.length === 1 ? same[0] : undefined;
}

/** What rendered an input: `helm template charts/web`, from its display name `charts/web (helm template)`. */
function renderedBy(read: RenderedRead): string {
  const suffix = read.display.slice(read.input.display.length).trim();
  const command = /^\((.+)\)$/.exec(suffix)?.[1] ?? 'rendered';
  return `${command} ${read.input.display}`;
}

/** A chart's findings placed on its templates (the templates its output names, read once). */
async function helmPlacer(read: RenderedRead & { input: Extract<Input, { kind: 'render' }> }, cwd: string) {
  const rendered = read.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const origins = templateOrigins(read.text);
  const by = renderedBy(read);
  const chartFile = path.join(read.input.path, CHART_FILE);
  const files = new Map<string, { file: string; lines: readonly string[] } | undefined>();
  for (const template of new Set(origins.map((o) => o.template))) {
    if (template === undefined) continue;
    const file = await templateFile(read.input.path, template, read.input.root);
    const lines = file !== undefined ? await readInside(file, read.input.root) : undefined;
    files.set(template, file !== undefined && lines !== undefined ? { file, lines } : undefined);
  }
  let starts: readonly ObjectStart[] | undefined;
  return {
    place: (located: LocatedDiagnostic): LocatedDiagnostic => {
      // Without a position (a change fix would make), the document is found by the object's kind and name.
      starts ??= located.line === undefined ? objectStarts(read.text) : undefined;
      const at = located.line ?? objectLine(starts ?? [], located.diagnostic.resource);
      const i = at !== undefined ? docIndexAt(origins, at) : -1;
      const template = i >= 0 ? origins[i].template : undefined;
      const known = template !== undefined ? files.get(template) : undefined;
      const rest = { diagnostic: located.diagnostic, rendered: renderedAt(by, located) };
      if (known === undefined) {
        return { ...rest, source: displayPath(chartFile, cwd), line: 1, rendered: { ...rest.rendered, exact: false } };
      }
      const doc = { from: origins[i].line, to: (origins[i + 1]?.line ?? rendered.length + 2) - 2 };
      const match =
        located.line !== undefined
          ? matchLine(rendered, doc, { line: located.line, ...columnOf(located) }, known.lines)
          : undefined;
      return {
        ...rest,
        source: displayPath(known.file, cwd),
        line: match?.line ?? 1,
        ...(match?.column !== undefined ? { column: match.column } : {}),
        rendered: { ...rest.rendered, exact: match !== undefined },
      };
    },
  };
}

/** A kustomization's findings placed on its resource files (read when a finding needs one). */
async function kustomizePlacer(read: RenderedRead & { input: Extract<Input, { kind: 'render' }> }, cwd: string) {
  const rendered = read.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const origins = templateOrigins(read.text);
  const by = renderedBy(read);
  const objects = await kustomizationObjects(read.input.path, read.input.root);
  const own = await readKustomization(read.input.path, read.input.root);
  const fallback = own?.file ?? path.join(read.input.path, KUSTOMIZATION_FILES[0]);
  /** The resource files read so far (undefined: not readable). */
  const files = new Map<string, Lines>();
  return {
    place: async (located: LocatedDiagnostic): Promise<LocatedDiagnostic> => {
      const rest = { diagnostic: located.diagnostic, rendered: renderedAt(by, located) };
      const object = sourceOf(objects, located.diagnostic.resource);
      if (object === undefined) {
        return { ...rest, source: displayPath(fallback, cwd), line: 1, rendered: { ...rest.rendered, exact: false } };
      }
      if (!files.has(object.file)) files.set(object.file, await readInside(object.file, read.input.root));
      const lines = files.get(object.file);
      let match: { line: number; column?: number } | undefined;
      if (located.line !== undefined && lines !== undefined) {
        const i = docIndexAt(origins, located.line);
        const doc = { from: origins[i].line, to: (origins[i + 1]?.line ?? rendered.length + 2) - 2 };
        match = matchLine(rendered, doc, { line: located.line, ...columnOf(located) }, lines, object);
      }
      return {
        ...rest,
        source: displayPath(object.file, cwd),
        line: match?.line ?? object.from,
        ...(match?.column !== undefined ? { column: match.column } : {}),
        rendered: { ...rest.rendered, exact: match !== undefined },
      };
    },
  };
}

/** Where an object of a rendered stream starts, and which it is. */
interface ObjectStart {
  readonly line: number;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** The objects of a rendered stream, each with the line its content starts on. */
function objectStarts(rendered: string): ObjectStart[] {
  const counter = new LineCounter();
  const out: ObjectStart[] = [];
  try {
    for (const doc of parseAllDocuments(rendered, { lineCounter: counter })) {
      const contents = doc.contents;
      if (contents === null || contents.range === undefined) continue;
      const value: unknown = doc.toJS({ maxAliasCount: 100 });
      if (typeof value !== 'object' || value === null) continue;
      const record = value as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
      const kind = text(record.kind);
      const name = text(record.metadata?.name);
      const namespace = text(record.metadata?.namespace);
      out.push({
        line: counter.linePos(contents.range[0]).line,
        ...(kind !== undefined ? { kind } : {}),
        ...(name !== undefined ? { name } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
      });
    }
  } catch {
    return out;
  }
  return out;
}

/** The line the object `resource` names starts on, if one object of the stream is it. */
function objectLine(starts: readonly ObjectStart[], resource: Diagnostic['resource']): number | undefined {
  const found = starts.filter(
    (o) => o.kind === resource.kind && o.name === resource.name && o.namespace === resource.namespace,
  );
  return found.length === 1 ? found[0].line : undefined;
}

function columnOf(located: LocatedDiagnostic): { column?: number } {
  return located.column !== undefined ? { column: located.column } : {};
}

function renderedAt(by: string, located: LocatedDiagnostic): NonNullable<LocatedDiagnostic['rendered']> {
  return {
    by,
    ...(located.line !== undefined ? { line: located.line } : {}),
    ...(located.column !== undefined ? { column: located.column } : {}),
    exact: false,
  };
}

/**
 * Places the findings of rendered inputs on the files they come from. Reads, for each rendered input with a finding
 * among `diagnostics`, the templates or resource files it needs; resolves to a locator wrapper that places each
 * finding of those inputs (located by `locate` in the rendered text) on its file, and leaves every other as it is.
 */
export async function renderedSources(
  reads: readonly RenderedRead[],
  diagnostics: readonly Diagnostic[],
  locate: Locator,
  cwd: string,
): Promise<Locator> {
  const withFindings = new Set(diagnostics.map((d) => d.resource.source));
  const placed = new Map<Diagnostic, LocatedDiagnostic>();
  for (const read of reads) {
    const input = read.input;
    if (input.kind !== 'render' || !withFindings.has(read.display)) continue;
    const mine = diagnostics.filter((d) => d.resource.source === read.display);
    if (input.renderer === 'helm') {
      const placer = await helmPlacer({ ...read, input }, cwd);
      for (const d of mine) placed.set(d, placer.place(locate(d)));
    } else {
      const placer = await kustomizePlacer({ ...read, input }, cwd);
      for (const d of mine) placed.set(d, await placer.place(locate(d)));
    }
  }
  if (placed.size === 0) return locate;
  return (diagnostic) => placed.get(diagnostic) ?? locate(diagnostic);
}
