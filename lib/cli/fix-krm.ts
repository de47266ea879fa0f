/**
 * `k8s-windows fix --krm`: fix as a Kustomize exec KRM function. A ResourceList in (its functionConfig giving the
 * options), the fixed ResourceList out, with the changes, the fixes not made and the findings left as `results`.
 */
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { parseDocument, stringify } from 'yaml';
import { mergeSettings } from '../core/config';
import { fixManifestSet } from '../core/fix';
import type { Diagnostic } from '../core/model/types';
import { isRecord } from '../core/model/util';
import { loadManifestsWithErrors } from '../core/validate';
import { readWhole } from '../core/validate/loader';
import { readSettings, type EngineSettings } from '../core/validate/settings';
import type { InputProblem } from './files';
import { imageLookups } from './images';
import { EXIT_LINT_ERRORS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { TOOL_NAME } from './package-info';
import { describeProblem } from './report';
import { fixOptionsOf } from './settings';

/** The KRM ResourceList kind and API version (https://github.com/kubernetes-sigs/kustomize/blob/master/cmd/config/docs/api-conventions/functions-spec.md). */
export const RESOURCE_LIST_KIND = 'ResourceList';
export const RESOURCE_LIST_API_VERSION = 'config.kubernetes.io/v1';

/** A problem with the ResourceList or its functionConfig: reported, exit 2 (a Kustomize build then stops). */
class KrmError extends Error {}

/** What a functionConfig may hold at its top: the object's own fields and where the options go. */
const KRM_CONFIG_KEYS: readonly string[] = ['apiVersion', 'kind', 'metadata', 'spec', 'data'];

/**
 * The options a KRM functionConfig gives (`spec:` of any kind, or a ConfigMap's `data:`, whose values are strings:
 * the kpt and Kustomize convention for function config, read as the same settings), over the command line's and
 * the config file's, read by the engine's one settings reader: tolerations, cloud, windowsRelease,
 * kubernetesVersion, runtimeClassName, pinLinux, rules, suppressions. A functionConfig that is not a mapping, or
 * holds options anywhere else, is refused: options silently dropped would fix toward the wrong nodes.
 */
function krmSettings(functionConfig: unknown, base: EngineSettings): EngineSettings {
  if (functionConfig === undefined || functionConfig === null) return base;
  if (!isRecord(functionConfig)) {
    throw new KrmError(
      `functionConfig is ${typeof functionConfig === 'string' ? 'a string' : Array.isArray(functionConfig) ? 'a list' : `a ${typeof functionConfig}`}, not an object: give the options as spec: {cloud: gke, ...} (any kind) or as a ConfigMap's data.`,
    );
  }
  const stray = Object.keys(functionConfig).filter((k) => !KRM_CONFIG_KEYS.includes(k));
  if (stray.length > 0) {
    throw new KrmError(
      `functionConfig.${stray[0]}: options go under spec (or a ConfigMap's data), not at the top of the functionConfig.`,
    );
  }
  if (functionConfig.spec !== undefined && functionConfig.data !== undefined) {
    throw new KrmError('functionConfig has both spec and data: give the options in one of them.');
  }
  const where = functionConfig.data !== undefined ? 'functionConfig.data' : 'functionConfig.spec';
  const raw = functionConfig.data ?? functionConfig.spec ?? {};
  if (!isRecord(raw)) {
    throw new KrmError(`${where} is not a mapping of options (cloud, tolerations, windowsRelease, ...).`);
  }
  const { settings, issues } = readSettings(raw, where, [
    'rules',
    'windowsRelease',
    'kubernetesVersion',
    'cloud',
    'tolerations',
    'runtimeClassName',
    'pinLinux',
    'suppressions',
    'resolveImages',
    'offline',
    'registryMirrors',
    'imageCache',
    'insecureRegistries',
    'mirrorFallback',
    'resolveTimeout',
  ]);
  if (issues.length > 0) {
    throw new KrmError(issues.map((i) => `${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`).join(' '));
  }
  return mergeSettings(base, settings);
}

/** One KRM result (functions spec severities: error, warning, info) about the field at `path` of a resource. */
function krmResult(
  message: string,
  severity: string,
  r: Diagnostic['resource'],
  path: string,
): Record<string, unknown> {
  return {
    message,
    severity,
    resourceRef: {
      ...(r.apiVersion !== undefined ? { apiVersion: r.apiVersion } : {}),
      ...(r.kind !== undefined ? { kind: r.kind } : {}),
      ...(r.name !== undefined ? { name: r.name } : {}),
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
    },
    ...(path !== '' ? { field: { path } } : {}),
  };
}

/**
 * The ResourceList as plain data, for its envelope (kind, items, functionConfig): read by js-yaml, several times
 * faster than the `yaml` library's node tree. A text js-yaml refuses is read by `yaml`, whose first error is the
 * message. Without merge keys (`<<`, which the envelope reads as keys) js-yaml reads it as the fix's loader does,
 * and `whole` says so: the fix then starts from this read rather than reading the list again.
 */
function readEnvelope(text: string): { readonly value: unknown; readonly whole: boolean } {
  try {
    if (!text.includes('<<')) return { value: readWhole(text), whole: true };
    return { value: loadYaml(text, { schema: CORE_SCHEMA }), whole: false };
  } catch {
    const list = parseDocument(text, { prettyErrors: false });
    if (list.errors.length > 0)
      throw new KrmError(`the ResourceList is not valid YAML: ${list.errors[0].message.split('\n')[0]}`);
    return { value: list.toJS({ maxAliasCount: 1000 }), whole: false };
  }
}

/**
 * What the run needs of the ResourceList's envelope, checked: its functionConfig, whether it holds results, and the
 * list as the fix's loader reads it (`take`, once: the fix starts from it and then lets it go, so every item is never
 * in memory twice, and the 5,000-item list is read once rather than twice).
 */
function envelopeOf(text: string): {
  readonly functionConfig: unknown;
  readonly hasResults: boolean;
  readonly take: () => { readonly value: unknown } | undefined;
} {
  const read = readEnvelope(text);
  const value = read.value;
  if (!isRecord(value) || value.kind !== RESOURCE_LIST_KIND || !Array.isArray(value.items)) {
    throw new KrmError(
      `standard input is not a KRM ${RESOURCE_LIST_KIND} (kind: ${RESOURCE_LIST_KIND}, items: [...]). Kustomize sends one to exec functions; run without --krm for plain manifests.`,
    );
  }
  let list: { readonly value: unknown } | undefined = read.whole ? { value } : undefined;
  const take = () => {
    const out = list;
    list = undefined;
    return out;
  };
  return { functionConfig: value.functionConfig, hasResults: 'results' in value, take };
}

/**
 * The fixed ResourceList with its `results`. A block ResourceList without results of its own (what Kustomize
 * sends) gets them appended as a last key, and every other byte stays as fix wrote it; else (flow or JSON, or
 * results from an earlier function to replace) the list is read and written again as a whole.
 */
function withResults(
  fixed: string,
  list: { readonly flow: boolean; readonly hasResults: boolean },
  results: readonly Record<string, unknown>[],
): string {
  if (results.length === 0) return fixed;
  const appendable = !list.flow && !list.hasResults && !/^\.\.\.[ \t]*$/m.test(fixed);
  if (appendable) {
    const eol = fixed.includes('\r\n') ? '\r\n' : '\n';
    const tail = stringify({ results }, { lineWidth: 0 });
    const body = fixed === '' || fixed.endsWith('\n') ? fixed : `${fixed}${eol}`;
    return body + (eol === '\n' ? tail : tail.replace(/\n/g, eol));
  }
  const out = parseDocument(fixed, { prettyErrors: false });
  out.set('results', out.createNode(results));
  return out.toString({ lineWidth: 0 });
}

/** `fix --krm`: the ResourceList on standard input, fixed, with the changes and findings as its `results`. */
export async function runKrm(
  text: string | undefined,
  problems: readonly InputProblem[],
  base: EngineSettings,
  io: CliIO,
): Promise<number> {
  try {
    if (text === undefined || problems.length > 0) {
      throw new KrmError(problems.map(describeProblem).join('; ') || 'no ResourceList on standard input.');
    }
    const envelope = envelopeOf(text);
    const settings = krmSettings(envelope.functionConfig, base);
    const images = await imageLookups(
      () => loadManifestsWithErrors(text).objects,
      settings,
      (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
    );
    const result = fixManifestSet(
      [{ text, source: RESOURCE_LIST_KIND }],
      { ...fixOptionsOf(settings), ...(images !== undefined ? { images } : {}) },
      { read: envelope.take },
    );
    const results = [
      ...result.changes.map((c) => krmResult(`fixed: ${c.message}`, 'info', c.resource, c.path)),
      // A fix not made changes nothing, but the user must make it: a warning, as Kustomize shows them.
      ...result.refused.map((r) => krmResult(r.message, 'warning', r.resource, r.path)),
      ...result.diagnostics.map((d) =>
        krmResult(`${d.message}${d.fix ? ` Fix: ${d.fix}` : ''} [${d.ruleId}]`, d.severity, d.resource, d.path),
      ),
    ];
    io.stdout.write(
      withResults(result.texts[0], { flow: /^\s*[{[]/.test(text), hasResults: envelope.hasResults }, results),
    );
    return result.diagnostics.some((d) => d.severity === 'error') ? EXIT_LINT_ERRORS : EXIT_OK;
  } catch (err) {
    if (!(err instanceof KrmError) && !(err instanceof Error && err.name === 'WindowsValidationError')) throw err;
    io.stderr.write(`${TOOL_NAME} fix --krm: ${err.message}\n`);
    return EXIT_USAGE;
  }
}
