/**
 * Writes the upstream Kubernetes API definitions scripts/api-schema.ts reads for the minors no cdk8s-plus package
 * has (data/kubernetes-api/v1.NN.json), and records where they came from in data/kubernetes-api/sources.json.
 * Run by hand on files copied from the sources (it needs no network and is not run by tests):
 *
 *   tsx scripts/api-schema-import.ts openapi <minor> <swagger.json> <from> <at> <retrieved> [source words]
 *     The `definitions` of a Kubernetes OpenAPI v2 spec (kubernetes/kubernetes api/openapi-spec/swagger.json at a
 *     release tag), without their descriptions (schema annotations only: a property named `description` stays).
 *
 *   tsx scripts/api-schema-import.ts delta <minor> <base-minor> <from> <at> <retrieved> <old.go> <new.go> [...]
 *     The base minor's definitions changed as the structured-merge-diff schemas of client-go's
 *     applyconfigurations/internal/internal.go (generated from the same OpenAPI definitions) changed between two
 *     tags, for a minor whose OpenAPI spec is not at hand: fields added, removed or retyped; types removed; new
 *     kinds of served API groups added with their List. Each pair old.go new.go is one generated schema.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import YAML from 'yaml';
import { DATA_DIR, type UpstreamEntry } from './api-schema';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Definitions = Record<string, Record<string, Json>>;

/** A schema without `description` annotations; the keys of `properties` are field names and all stay. */
function stripDescriptions(value: Json, inProperties = false): Json {
  if (Array.isArray(value)) return value.map((v) => stripDescriptions(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'description' && !inProperties) continue;
    out[k] = stripDescriptions(v, k === 'properties' && !inProperties);
  }
  return out;
}

/** One definition a line: small to diff when a minor is added. */
function writeDefinitions(minor: string, definitions: Definitions): string {
  const file = `v${minor}.json`;
  const names = Object.keys(definitions).sort();
  const lines = names.map(
    (n, i) => `${JSON.stringify(n)}:${JSON.stringify(definitions[n])}${i < names.length - 1 ? ',' : ''}`,
  );
  writeFileSync(join(DATA_DIR, file), `{"definitions":{\n${lines.join('\n')}\n}}\n`);
  return file;
}

function record(entry: UpstreamEntry): void {
  const path = join(DATA_DIR, 'sources.json');
  const entries = (JSON.parse(readFileSync(path, 'utf8')) as UpstreamEntry[]).filter((e) => e.minor !== entry.minor);
  entries.push(entry);
  entries.sort((a, b) => Number(a.minor.split('.')[1]) - Number(b.minor.split('.')[1]));
  writeFileSync(path, `${JSON.stringify(entries, null, 2)}\n`);
}

function readBase(minor: string): Definitions {
  return (JSON.parse(readFileSync(join(DATA_DIR, `v${minor}.json`), 'utf8')) as { definitions: Definitions })
    .definitions;
}

interface SmdType {
  name: string;
  scalar?: string;
  namedType?: string;
  list?: { elementType: SmdType };
  map?: { fields?: { name: string; type: SmdType }[]; elementType?: SmdType };
}

function readSmd(file: string): Map<string, SmdType> {
  const text = readFileSync(file, 'utf8');
  const yaml = /schemaYAML = typed\.YAMLObject\(`([\s\S]*?)`\)/.exec(text)?.[1];
  if (yaml === undefined) throw new Error(`${file}: no schemaYAML`);
  const types = (YAML.parse(yaml) as { types: SmdType[] }).types;
  // Structs (fields, or none: an empty struct); scalars such as Quantity are not types with fields.
  return new Map(types.filter((t) => t.map).map((t) => [t.name, t]));
}

/** A field's type as an OpenAPI v2 property. */
function property(t: SmdType): Record<string, Json> {
  if (t.namedType) return { $ref: `#/definitions/${t.namedType}` };
  if (t.list) return { type: 'array', items: property(t.list.elementType) };
  if (t.map?.elementType) return { type: 'object', additionalProperties: property(t.map.elementType) };
  switch (t.scalar) {
    case 'string':
      return { type: 'string' };
    case 'numeric':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    default:
      return {};
  }
}

const encode = (t: SmdType): string => JSON.stringify(property(t));

function refs(p: Json, out: string[] = []): string[] {
  if (Array.isArray(p)) p.forEach((x) => refs(x, out));
  else if (p !== null && typeof p === 'object') {
    for (const [k, v] of Object.entries(p)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.replace('#/definitions/', ''));
      else refs(v, out);
    }
  }
  return out;
}

/** `io.k8s.api.certificates.v1.X` → `io.k8s.api.certificates`, its version and kind. */
function splitName(name: string): { pkg: string; version: string; kind: string } {
  const parts = name.split('.');
  return { pkg: parts.slice(0, -2).join('.'), version: parts[parts.length - 2], kind: parts[parts.length - 1] };
}

function applyDelta(base: Definitions, pairs: [Map<string, SmdType>, Map<string, SmdType>][]): Definitions {
  const defs: Definitions = structuredClone(base);
  const groups = new Map<string, string>();
  for (const [name, d] of Object.entries(base)) {
    const gvk = (d['x-kubernetes-group-version-kind'] as { group: string }[] | undefined)?.[0];
    if (gvk && d.properties && (d.properties as Record<string, Json>).metadata)
      groups.set(splitName(name).pkg, gvk.group);
  }
  const wanted: string[] = [];
  const added: Map<string, SmdType> = new Map();
  for (const [old, now] of pairs) {
    for (const name of old.keys()) {
      if (!now.has(name) && defs[name]) delete defs[name];
    }
    for (const [name, t] of now) {
      const fields = new Map((t.map!.fields ?? []).map((f) => [f.name, f.type]));
      const before = old.get(name);
      if (before) {
        if (!defs[name]) continue;
        const was = new Map((before.map!.fields ?? []).map((f) => [f.name, f.type]));
        const gone = [...was.keys()].filter((f) => !fields.has(f));
        const changed = [...fields].filter(([f, ft]) => !was.has(f) || encode(was.get(f)!) !== encode(ft));
        if (gone.length === 0 && changed.length === 0) continue;
        const props = (defs[name].properties ??= {}) as Record<string, Json>;
        for (const f of gone) delete props[f];
        for (const [f, ft] of changed) {
          props[f] = property(ft);
          wanted.push(...refs(props[f]));
        }
        continue;
      }
      added.set(name, t);
      const { pkg, version, kind } = splitName(name);
      const group = groups.get(pkg);
      if (group === undefined || !fields.has('apiVersion') || !fields.has('kind') || !fields.has('metadata')) continue;
      // A new kind of a served API group: the kind, and its List (which the apply schemas do not hold).
      wanted.push(name);
      const gvk = (k: string): Json => [{ group, kind: k, version }];
      defs[`${pkg}.${version}.${kind}List`] = {
        properties: {
          apiVersion: { type: 'string' },
          items: { type: 'array', items: { $ref: `#/definitions/${name}` } },
          kind: { type: 'string' },
          metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
        },
        required: ['items'],
        type: 'object',
        'x-kubernetes-group-version-kind': gvk(`${kind}List`),
      };
      defs[name] = { 'x-kubernetes-group-version-kind': gvk(kind) };
    }
  }
  // New types referenced by what changed, and what they reference.
  for (let name = wanted.pop(); name !== undefined; name = wanted.pop()) {
    const t = added.get(name);
    if (!t || (defs[name] && defs[name].properties)) continue;
    const properties: Record<string, Json> = {};
    for (const f of t.map!.fields ?? []) {
      properties[f.name] = property(f.type);
      wanted.push(...refs(properties[f.name]));
    }
    // An empty struct has no properties at all in the OpenAPI definitions.
    defs[name] = { ...defs[name], ...(Object.keys(properties).length > 0 ? { properties } : {}), type: 'object' };
  }
  // Lists of removed kinds go with them; nothing may still point at a removed type.
  for (const [name, d] of Object.entries(defs)) {
    const items = ((d.properties as Record<string, Json> | undefined)?.items as Record<string, Json> | undefined)
      ?.items;
    if (name.endsWith('List') && items && refs(items).some((r) => !defs[r])) delete defs[name];
  }
  for (const [name, d] of Object.entries(defs)) {
    const dangling = refs(d).filter((r) => !defs[r]);
    if (dangling.length > 0) throw new Error(`${name} refers to ${dangling.join(', ')}, which the new schema lacks`);
  }
  return defs;
}

function main(argv: string[]): void {
  const [command, minor, ...rest] = argv;
  const usage = 'usage: api-schema-import.ts openapi|delta <minor> … (see the comment at the top)';
  if (!/^1\.\d+$/.test(minor ?? '')) throw new Error(usage);
  switch (command) {
    case 'openapi': {
      const [spec, from, at, retrieved, source] = rest;
      const definitions = (JSON.parse(readFileSync(spec, 'utf8')) as { definitions: Json }).definitions;
      const file = writeDefinitions(minor, stripDescriptions(definitions) as Definitions);
      record({ minor, file, source: source ?? `Kubernetes OpenAPI definitions v${minor}.0`, from, at, retrieved });
      return;
    }
    case 'delta': {
      const [baseMinor, from, at, retrieved, ...files] = rest;
      if (files.length === 0 || files.length % 2 !== 0) throw new Error(usage);
      const pairs: [Map<string, SmdType>, Map<string, SmdType>][] = [];
      for (let i = 0; i < files.length; i += 2) pairs.push([readSmd(files[i]), readSmd(files[i + 1])]);
      const file = writeDefinitions(minor, applyDelta(readBase(baseMinor), pairs));
      const source = `Kubernetes OpenAPI definitions v${baseMinor}.0 changed as client-go's apply schemas changed from v0.${baseMinor.split('.')[1]}.0 to ${at}`;
      record({ minor, file, source, from, at, retrieved });
      return;
    }
    default:
      throw new Error(usage);
  }
}

main(process.argv.slice(2));
