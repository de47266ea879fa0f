/**
 * Writes lib/core/api/schema-data.ts: the known fields of every built-in Kubernetes type, per Kubernetes minor,
 * for the `api-*` rules (what kubectl's default strict field validation accepts, and which apiVersion/kind pairs a
 * version serves), and where each minor's data came from.
 *
 * Two sources, one reading:
 * - 1.28 to 1.34: each cdk8s-plus-NN package (devDependencies) ships `lib/imports/k8s.js`, which `cdk8s import
 *   k8s@1.NN.0` generated from the JSON-schema form of the Kubernetes OpenAPI definitions of that minor
 *   (https://github.com/cdk8s-team/cdk8s/tree/master/kubernetes-schemas, made from kubernetes/kubernetes
 *   `api/openapi-spec/swagger.json` at the release tag).
 * - 1.35 on (no cdk8s-plus-35 exists): the upstream definitions committed under data/kubernetes-api/ (see its
 *   README and sources.json; scripts/api-schema-import.ts writes them), turned into the same code by the same
 *   generator cdk8s uses (cdk8s-cli's Kubernetes import, a devDependency, with its json2jsii), offline.
 * In the code every API type has a `toJson_<Type>` function that lists each field by its JSON name and converts the
 * field's value with the `toJson_` of the field's type, and every top-level kind has a `GVK` (apiVersion, kind).
 * This script reads those: nothing is typed by hand. test/core/validate/api.test.ts holds the committed file to
 * this script, and the two sources to each other on 1.34, which both have.
 *
 * Usage: tsx scripts/api-schema.ts [check]   (check: fail when the committed file is not what this writes)
 */
import { readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'lib', 'core', 'api', 'schema-data.ts');
export const DATA_DIR = join(ROOT, 'data', 'kubernetes-api');
/** The minors read from cdk8s-plus-NN. */
const CDK8S_PLUS_MINORS = [28, 29, 30, 31, 32, 33, 34] as const;

/** A field: its JSON name, and its type's name with how it holds it (`T` one, `[T]` a list, `{T}` a map). */
type Field = string;

export interface VersionSchema {
  /** `apps/v1/Deployment` → its Props type name. */
  readonly kinds: Record<string, string>;
  /** Type name → its fields, encoded `name`, `name:T`, `name:[T]`, `name:{T}`. */
  readonly types: Record<string, Field[]>;
}

/** Where a minor's data came from: printed by `schemaSources()` (lib/core/api/schema.ts). */
export interface SchemaSource {
  /** `1.35`. */
  readonly minor: string;
  /** What the definitions are, in words. */
  readonly source: string;
  /** Repository and path (or package) the definitions were read from. */
  readonly from: string;
  /** Tag, version or commit of `from`. */
  readonly at: string;
  /** The day the data was taken and checked (YYYY-MM-DD). */
  readonly retrieved: string;
}

/** One committed upstream minor: data/kubernetes-api/sources.json lists them. */
export interface UpstreamEntry extends SchemaSource {
  /** The definitions file under data/kubernetes-api/. */
  readonly file: string;
}

/** The toJson_ functions and GVKs of cdk8s-generated code, JavaScript (compiled) or TypeScript (as generated). */
export function readGenerated(text: string, file: string): VersionSchema {
  const types: Record<string, Field[]> = {};
  const fn = /^(?:export )?function toJson_(\w+)\(obj[^)]*\)[^{]*\{\n([\s\S]*?)^\}/gm;
  for (let m = fn.exec(text); m; m = fn.exec(text)) {
    const [, name, body] = m;
    const result = /const result = \{\n([\s\S]*?)\n\s*\};/.exec(body);
    if (!result) throw new Error(`${file}: toJson_${name} has no result object`);
    const fields: Field[] = [];
    for (const line of result[1].split('\n')) {
      const f = /^\s*'([^']+)': (.*),$/.exec(line);
      if (!f) throw new Error(`${file}: toJson_${name}: cannot read ${JSON.stringify(line)}`);
      const [, key, expr] = f;
      const child = /toJson_(\w+)\(/.exec(expr)?.[1];
      if (child === undefined) fields.push(key);
      else if (expr.includes('Object.entries(')) fields.push(`${key}:{${child}}`);
      else if (expr.includes('.map(')) fields.push(`${key}:[${child}]`);
      else fields.push(`${key}:${child}`);
    }
    types[name] = fields.sort();
  }
  const kinds: Record<string, string> = {};
  // `KubeX.GVK = {…}` (older jsii output), `class KubeX extends … { static GVK = {…}` (newer) or
  // `export class KubeX extends … { public static readonly GVK: GroupVersionKind = {…}` (TypeScript).
  const gvk = /GVK(?:: GroupVersionKind)? = \{\s*apiVersion: '([^']+)',\s*kind: '([^']+)',?\s*\}/g;
  for (let m = gvk.exec(text); m; m = gvk.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 4000), m.index);
    const assigned = /(\w+)\.$/.exec(before)?.[1];
    const classes = [...before.matchAll(/class (\w+) extends/g)];
    const cls = assigned ?? classes[classes.length - 1]?.[1];
    if (!cls || !types[`${cls}Props`]) throw new Error(`${file}: no Props type for ${m[1]} ${m[2]}`);
    kinds[`${m[1]}/${m[2]}`] = `${cls}Props`;
  }
  return { kinds, types };
}

export function readCdk8sPlus(minor: number): VersionSchema {
  const file = require.resolve(`cdk8s-plus-${minor}/lib/imports/k8s.js`, { paths: [ROOT] });
  return readGenerated(readFileSync(file, 'utf8'), file);
}

/** The part of json2jsii's TypeGenerator the import uses. */
interface TypeGenerator {
  addDefinition(name: string, def: unknown): void;
  render(): string;
}

/**
 * cdk8s-cli's Kubernetes import, which its package exports do not name: loaded from its files, with the json2jsii
 * cdk8s-cli itself depends on (the generator its functions expect).
 */
interface Cdk8sImport {
  TypeGenerator: new (options: {
    definitions: Record<string, unknown>;
    renderTypeName: (def: string) => string;
  }) => TypeGenerator;
  findApiObjectDefinitions(schema: unknown, prefix: string): { fqn: string }[];
  generateConstruct(typegen: TypeGenerator, def: { fqn: string }): void;
  getPropsTypeName(def: { fqn: string }): string;
  getTypeName(custom: boolean, kind: string, version: string): string;
  parseApiTypeName(name: string): { basename: string; version?: { raw: string } };
}

function cdk8sImport(): Cdk8sImport {
  const dir = join(require.resolve('cdk8s-cli/package.json', { paths: [ROOT] }), '..', 'lib', 'import');
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require(require.resolve('json2jsii', { paths: [dir] })) as Pick<Cdk8sImport, 'TypeGenerator'>),
    ...(require(join(dir, 'k8s.js')) as Pick<Cdk8sImport, 'findApiObjectDefinitions'>),
    ...(require(join(dir, 'codegen.js')) as Pick<
      Cdk8sImport,
      'generateConstruct' | 'getPropsTypeName' | 'getTypeName'
    >),
    ...(require(join(dir, 'k8s-util.js')) as Pick<Cdk8sImport, 'parseApiTypeName'>),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * The code `cdk8s import k8s` writes for these definitions: what cdk8s-cli's ImportKubernetesApi does after it
 * downloads them (kinds become `KubeXProps`, every other type is named by cdk8s's rule), without the download.
 */
export function importDefinitions(definitions: Record<string, unknown>): string {
  const cdk8s = cdk8sImport();
  const schema = { definitions };
  const top = cdk8s.findApiObjectDefinitions(schema, 'Kube');
  const typegen = new cdk8s.TypeGenerator({
    definitions,
    renderTypeName: (def: string) => {
      const parsed = cdk8s.parseApiTypeName(def);
      return parsed.version ? cdk8s.getTypeName(false, parsed.basename, parsed.version.raw) : parsed.basename;
    },
  });
  for (const o of top) typegen.addDefinition(o.fqn, { $ref: `#/definitions/${cdk8s.getPropsTypeName(o)}` });
  for (const o of top) cdk8s.generateConstruct(typegen, o);
  return typegen.render();
}

export function upstreamEntries(): UpstreamEntry[] {
  return JSON.parse(readFileSync(join(DATA_DIR, 'sources.json'), 'utf8')) as UpstreamEntry[];
}

export function readUpstream(entry: UpstreamEntry): VersionSchema {
  const file = join(DATA_DIR, entry.file);
  const { definitions } = JSON.parse(readFileSync(file, 'utf8')) as { definitions: Record<string, unknown> };
  return readGenerated(importDefinitions(definitions), file);
}

function cdk8sPlusSource(minor: number): SchemaSource {
  const pkg = JSON.parse(
    readFileSync(require.resolve(`cdk8s-plus-${minor}/package.json`, { paths: [ROOT] }), 'utf8'),
  ) as { version: string };
  return {
    minor: `1.${minor}`,
    source: `Kubernetes OpenAPI definitions v1.${minor}.0 as cdk8s imports them (cdk8s-team/cdk8s kubernetes-schemas, from kubernetes/kubernetes api/openapi-spec/swagger.json)`,
    from: `npm cdk8s-plus-${minor} lib/imports/k8s.js`,
    at: pkg.version,
    retrieved: '2026-11-27',
  };
}

/** The generated module: every type's distinct field sets once, and per minor which set each name has. */
export function generate(): string {
  const upstream = upstreamEntries();
  const versions = [
    ...CDK8S_PLUS_MINORS.map((minor) => ({ source: cdk8sPlusSource(minor), schema: readCdk8sPlus(minor) })),
    ...upstream
      .filter((e) => Number(e.minor.split('.')[1]) > CDK8S_PLUS_MINORS[CDK8S_PLUS_MINORS.length - 1])
      .map((e) => ({
        source: { minor: e.minor, source: e.source, from: e.from, at: e.at, retrieved: e.retrieved },
        schema: readUpstream(e),
      })),
  ];
  /** Type name → its distinct field sets, in order of first appearance. */
  const variants: Record<string, string[]> = {};
  const perVersion: Record<string, { kinds: Record<string, string>; variant: Record<string, number> }> = {};
  for (const { source, schema } of versions) {
    const variant: Record<string, number> = {};
    for (const name of Object.keys(schema.types).sort()) {
      const encoded = schema.types[name].join(',');
      const list = (variants[name] ??= []);
      let i = list.indexOf(encoded);
      if (i < 0) i = list.push(encoded) - 1;
      variant[name] = i;
    }
    perVersion[source.minor] = { kinds: schema.kinds, variant };
  }
  const data = {
    versions: Object.keys(perVersion),
    sources: versions.map((v) => v.source),
    types: Object.fromEntries(
      Object.keys(variants)
        .sort()
        .map((k) => [k, variants[k]]),
    ),
    schemas: perVersion,
  };
  const first = versions[0].source.minor;
  const last = versions[versions.length - 1].source.minor;
  return `// Generated by scripts/api-schema.ts: Kubernetes ${first} to ${last} from cdk8s-plus-${CDK8S_PLUS_MINORS[0]}..${CDK8S_PLUS_MINORS[CDK8S_PLUS_MINORS.length - 1]}
// lib/imports/k8s.js and the upstream OpenAPI definitions in data/kubernetes-api/ (each minor's source is in
// \`sources\`). Do not edit: run \`npm run api-schema\`.
// prettier-ignore
export const API_SCHEMA_JSON = ${JSON.stringify(JSON.stringify(data))};
`;
}

if (require.main === module) {
  const text = generate();
  if (process.argv[2] === 'check') {
    if (readFileSync(OUT, 'utf8') !== text) {
      process.stderr.write(`${OUT} is not current: run npm run api-schema\n`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(OUT, text);
    process.stdout.write(`wrote ${OUT} (${text.length} bytes)\n`);
  }
}
