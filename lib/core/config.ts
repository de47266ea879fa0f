/**
 * The config file, `.k8s-windows.yaml`: one place for rule settings, suppressions, ignored paths and what the
 * cluster is (cloud, Kubernetes version, Windows release), found from the working directory upward (as eslint and
 * Polaris find theirs) or named. The CLI, the cdk8s plugin, the KRM function and the policy pack all read it
 * through `readSettings`; what a front door is given itself (flags, cdk8s.yaml properties, a functionConfig, a
 * policy config) wins over it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { duplicateKeys } from './validate/loader';
import type { ValidationIssue } from './errors';
import { readSettings, type EngineSettings, type SettingName } from './validate/settings';
import type { RuleSetting } from './model/types';

/** The names looked for in each directory, in this order. */
export const CONFIG_FILE_NAMES = ['.k8s-windows.yaml', '.k8s-windows.yml'] as const;

/** The environment variable that names the config file where no flag can (the policy pack, a KRM function). */
export const CONFIG_ENV = 'K8S_WINDOWS_CONFIG';

/** What a config file may hold. */
export const CONFIG_SETTINGS: readonly SettingName[] = [
  'rules',
  'suppressions',
  'ignore',
  'cloud',
  'kubernetesVersion',
  'windowsRelease',
  'failOn',
  'maxWarnings',
  'tolerations',
  'runtimeClassName',
  'pinLinux',
  'resolveImages',
  'offline',
  'registryMirrors',
  'imageCache',
  // A repository's file may name plain-HTTP registries and mirrors: they are asked anonymously, never with credentials.
  'insecureRegistries',
  'mirrorFallback',
  'resolveTimeout',
  'podTemplates',
];

const ROOT = 'config';

export interface LoadedConfig {
  /** The file read. */
  readonly path: string;
  /** Its directory: `ignore` globs are relative to it. */
  readonly dir: string;
  readonly settings: EngineSettings;
  /** Every problem in it, each naming the file and the key. */
  readonly issues: readonly ValidationIssue[];
}

/** The config file for `cwd`: the first `.k8s-windows.yaml` in it or a directory above it; undefined if none. */
export function findConfigFile(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads and checks one config file. Never throws: an unreadable or malformed file is an issue. */
export function loadConfigFile(path: string): LoadedConfig {
  const full = resolve(path);
  const base = { path: full, dir: dirname(full) };
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ...base,
      settings: {},
      issues: [
        {
          path: basename(full),
          message:
            code === 'ENOENT'
              ? `no such config file (${full}).`
              : `cannot read the config file ${full} (${code ?? String(err)}).`,
          fix: `Name an existing file, or leave the option out to look for ${CONFIG_FILE_NAMES[0]} upward.`,
        },
      ],
    };
  }
  let raw: unknown;
  try {
    // Keys written twice are found in one pass (duplicateKeys), not by the parser's check, which is quadratic.
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false, lineCounter });
    const duplicate = duplicateKeys(doc)[0];
    if (doc.errors.length > 0) throw doc.errors[0];
    if (duplicate !== undefined) {
      const { line, col } = lineCounter.linePos(duplicate.offset);
      throw new Error(`Map keys must be unique: '${duplicate.key}' is written twice (line ${line}, column ${col})`);
    }
    raw = doc.toJS();
  } catch (err) {
    return {
      ...base,
      settings: {},
      issues: [{ path: basename(full), message: `is not valid YAML: ${(err as Error).message.split('\n')[0]}` }],
    };
  }
  // Paths inside the file are its keys (`suppressions[0].reason`); the file is named beside them.
  const { settings, issues } = readSettings(raw ?? {}, ROOT, CONFIG_SETTINGS);
  const name = basename(full);
  const inFile = (p: string) => (p === ROOT ? name : `${name}: ${p.slice(ROOT.length + 1)}`);
  return {
    ...base,
    settings: settings.suppressions
      ? {
          ...settings,
          suppressions: settings.suppressions.map((s) => ({ ...s, from: inFile(s.from ?? ROOT) })),
        }
      : settings,
    issues: issues.map((i) => ({ ...i, path: inFile(i.path) })),
  };
}

/**
 * The config for a front door: the file named (a flag, or `K8S_WINDOWS_CONFIG`), else the one found from `cwd`
 * upward; undefined when there is none.
 */
export function loadConfig(options: {
  readonly cwd: string;
  readonly path?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): LoadedConfig | undefined {
  const named = options.path ?? (options.env?.[CONFIG_ENV] || undefined);
  if (named !== undefined) return loadConfigFile(resolve(options.cwd, named));
  const found = findConfigFile(options.cwd);
  return found === undefined ? undefined : loadConfigFile(found);
}

/**
 * Settings overlaid by a front door's own (a config file under the command line, a functionConfig under both): the
 * front door wins per rule id and per setting; suppressions, ignored paths and taints add up (one taint does not
 * replace another).
 */
export function mergeSettings(base: EngineSettings | undefined, own: EngineSettings): EngineSettings {
  if (base === undefined) return own;
  const rules: Record<string, RuleSetting> = { ...(base.rules ?? {}), ...(own.rules ?? {}) };
  const suppressions = [...(base.suppressions ?? []), ...(own.suppressions ?? [])];
  const ignore = [...(base.ignore ?? []), ...(own.ignore ?? [])];
  const tolerations = [...(base.tolerations ?? []), ...(own.tolerations ?? [])];
  // A front door's entry for a kind replaces the file's for the same kind; the others add up.
  const ownKinds = new Set((own.podTemplates ?? []).map((k) => `${k.apiVersion} ${k.kind}`));
  const podTemplates = [
    ...(base.podTemplates ?? []).filter((k) => !ownKinds.has(`${k.apiVersion} ${k.kind}`)),
    ...(own.podTemplates ?? []),
  ];
  const registryMirrors = { ...(base.registryMirrors ?? {}), ...(own.registryMirrors ?? {}) };
  const insecureRegistries = [...new Set([...(base.insecureRegistries ?? []), ...(own.insecureRegistries ?? [])])];
  return {
    ...base,
    ...own,
    ...(Object.keys(rules).length > 0 ? { rules } : {}),
    ...(suppressions.length > 0 ? { suppressions } : {}),
    ...(ignore.length > 0 ? { ignore } : {}),
    ...(tolerations.length > 0 ? { tolerations } : {}),
    ...(podTemplates.length > 0 ? { podTemplates } : {}),
    ...(Object.keys(registryMirrors).length > 0 ? { registryMirrors } : {}),
    ...(insecureRegistries.length > 0 ? { insecureRegistries } : {}),
  };
}
