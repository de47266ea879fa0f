/**
 * Writes the upstream Kubernetes API definitions scripts/api-schema.ts reads for the minors no cdk8s-plus package
 * has (data/kubernetes-api/v1.NN.json), and records where they came from in data/kubernetes-api/sources.json.
 * Run by hand on a spec copied from its source (it needs no network and is not run by tests):
 *
 *   tsx scripts/api-schema-import.ts <minor> <swagger.json> <from> <at> <retrieved> [source words]
 *
 * It keeps the `definitions` of a Kubernetes OpenAPI v2 spec (kubernetes/kubernetes api/openapi-spec/swagger.json
 * at a release tag) without their descriptions (schema annotations only: a property named `description` stays), one
 * definition a line.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
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

function main(argv: string[]): void {
  const [minor, spec, from, at, retrieved, source] = argv;
  if (!/^1\.\d+$/.test(minor ?? '') || !spec || !from || !at || !/^\d{4}-\d\d-\d\d$/.test(retrieved ?? '')) {
    throw new Error('usage: api-schema-import.ts <minor> <swagger.json> <from> <at> <retrieved YYYY-MM-DD> [source]');
  }
  const definitions = (JSON.parse(readFileSync(spec, 'utf8')) as { definitions: Json }).definitions;
  const file = writeDefinitions(minor, stripDescriptions(definitions) as Definitions);
  record({ minor, file, source: source ?? `Kubernetes OpenAPI definitions v${minor}.0`, from, at, retrieved });
}

main(process.argv.slice(2));
