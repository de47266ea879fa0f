/**
 * The one reader of engine settings written by hand: the cdk8s plugin's `properties` in cdk8s.yaml, the policy
 * pack's config, a KRM functionConfig and the CLI's `--severity`/`--disable` flags all go through it, so each
 * source takes the same values, refuses the same mistakes with the same words, and lists every problem at once.
 */
import { CLOUDS, type Cloud } from '../cloud-gates';
import type { ValidationIssue } from '../errors';
import { parseKubernetesMinor, parseWindowsRelease, type WindowsRelease } from '../releases';
import { TAINT_EFFECTS, type Taint, type TaintEffect } from '../target';
import { checkEvaluationDate } from '../facts/support';
import { MAX_RULE_SUGGESTIONS, unknownRuleFix } from '../suggest';
import { readPodTemplateKinds, type PodTemplateKind } from '../pod-templates';
import { byRuleName, RULES_BY_ID } from './rules';
import {
  SEVERITIES,
  type ConfigSuppression,
  type RuleSetting,
  type Severity,
  type ValidateOptions,
} from '../model/types';

/** Every setting a source may take; each front door names the ones it accepts. */
export interface EngineSettings {
  /** Disable (`off`) or re-level rules by id. */
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly windowsRelease?: WindowsRelease;
  readonly kubernetesVersion?: string;
  readonly cloud?: Cloud;
  /** The day support and retirements are judged at (`YYYY-MM-DD`): `--date`. */
  readonly date?: string;
  /** Taints of the Windows nodes (`fix`). */
  readonly tolerations?: readonly Taint[];
  /** A RuntimeClass that pins the release (`fix`). */
  readonly runtimeClassName?: string;
  /** Pin Linux pods of a mixed set (`fix`). */
  readonly pinLinux?: boolean;
  /** Ask the registries about every image (platforms, builds, user): `--resolve-images`. */
  readonly resolveImages?: boolean;
  /** Answer image questions from the cache only: `--offline`. */
  readonly offline?: boolean;
  /** Mirrors by registry host (`docker.io`): `--registry-mirror HOST=URL`. */
  readonly registryMirrors?: Readonly<Record<string, string>>;
  /** Where image answers are cached: `--image-cache DIR`. */
  readonly imageCache?: string;
  /**
   * Registries spoken to over plain HTTP: `--insecure-registry HOST`. From a config file they are asked
   * anonymously; only the command line and the environment (`trustedRegistries`) let credentials go over HTTP.
   */
  readonly insecureRegistries?: readonly string[];
  /** Ask the registry itself when its mirror fails (`false`: `--no-mirror-fallback`, mirror only). @default true */
  readonly mirrorFallback?: boolean;
  /** Seconds all registry lookups of a run may take together: `--resolve-timeout`. @default 30 */
  readonly resolveTimeout?: number;
  /**
   * The mirrors and insecure registries the user named on the command line or in the environment
   * (`K8S_WINDOWS_REGISTRY_MIRRORS`, `K8S_WINDOWS_INSECURE_REGISTRIES`): the only ones given credentials (a mirror
   * its own host's). Set by the CLI; no file or functionConfig can set it.
   * @default - read from the environment where resolution starts
   */
  readonly trustedRegistries?: TrustedRegistries;
  /** Lowest severity that fails the run. */
  readonly failOn?: Severity;
  /** Fail when more warnings than this are left (eslint's `--max-warnings`). */
  readonly maxWarnings?: number;
  /** Paths (globs, relative to the config file) that `lint` and `fix` leave alone. */
  readonly ignore?: readonly string[];
  /** Rules accepted on the objects named, each with its reason. */
  readonly suppressions?: readonly ConfigSuppression[];
  /** Custom resource kinds that hold a pod template or pod spec, judged as workloads are. */
  readonly podTemplates?: readonly PodTemplateKind[];
}

export type SettingName = keyof EngineSettings;

/** Mirrors and plain-HTTP registries the user vouched for (the command line, the environment). */
export interface TrustedRegistries {
  readonly mirrors: Readonly<Record<string, string>>;
  readonly insecureRegistries: readonly string[];
}

/** The most seconds `resolveTimeout` may be: an hour. */
export const MAX_RESOLVE_TIMEOUT_SECONDS = 3600;

/** `30`, `30s`, `1.5s`, `500ms` (a number is seconds) as seconds; undefined when it is none of them or out of range. */
export function parseResolveTimeout(value: unknown): number | undefined {
  let seconds: number | undefined;
  if (typeof value === 'number') seconds = value;
  else if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)?\s*$/.exec(value);
    if (m) seconds = Number(m[1]) / (m[2] === 'ms' ? 1000 : 1);
  }
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_RESOLVE_TIMEOUT_SECONDS
    ? seconds
    : undefined;
}

/** `host`, `host:5000`, `10.0.0.5:5000`, `[::1]:5000`: a registry as Docker's insecure-registries names one. */
const REGISTRY_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** A list of registry hosts (or a comma-separated string), each checked; problems at `path`. */
export function readRegistryHosts(value: unknown, path: string, issues: ValidationIssue[]): string[] | undefined {
  const list = items(value);
  if (list === undefined) {
    issues.push({
      path,
      message: `${JSON.stringify(value)} is not a list of registry hosts.`,
      fix: "Write e.g. ['registry.internal:5000'].",
    });
    return undefined;
  }
  const out: string[] = [];
  list.forEach((host, i) => {
    if (typeof host === 'string' && REGISTRY_HOST.test(host)) out.push(host.toLowerCase());
    else
      issues.push({
        path: `${path}[${i}]`,
        message: `${JSON.stringify(host)} is not a registry host.`,
        fix: "Write host or host:port, with no scheme or path: 'registry.internal:5000'.",
      });
  });
  return out;
}

/** Every rule id, for "did you mean" (made once, on first need: the rules module may still be loading here). */
let ruleIdList: readonly string[] | undefined;
function ruleIds(): readonly string[] {
  return (ruleIdList ??= [...RULES_BY_ID.keys()]);
}

/** The severities and `off`: what a rule can be set to. */
export const RULE_SETTINGS: readonly RuleSetting[] = [...SEVERITIES, 'off'];

/**
 * Problems with one rule id and its setting, named at `path` (`properties.rules.ID`, `--severity ID`); `suggest`
 * false leaves out the "did you mean" (a list of thousands of unknown ids gets it for its first few).
 */
export function checkRuleSetting(id: string, setting: unknown, path: string, suggest = true): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!RULES_BY_ID.has(id)) {
    issues.push({ path, message: `'${id}' is not a rule id.`, fix: unknownRuleFix(id, ruleIds(), suggest) });
  }
  if (typeof setting !== 'string' || !(RULE_SETTINGS as readonly string[]).includes(setting)) {
    issues.push({
      path,
      message: `${JSON.stringify(setting)} is not a rule setting.`,
      // YAML 1.1 readers turn a bare off into false.
      fix: `Use one of ${RULE_SETTINGS.join(', ')} (quote 'off' in YAML, or it may read as false).`,
    });
  }
  return issues;
}

/** A comma-separated string (a ConfigMap's data holds only strings) or a list. */
function items(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  }
  return undefined;
}

/** `key=value:Effect` or `key:Effect` (kubectl taint's spelling), as a taint. */
export function parseTaint(text: string): { ok: true; taint: Taint } | { ok: false; message: string; fix: string } {
  const fix =
    "Write it as kubectl taint does: 'key=value:Effect' or 'key:Effect', Effect one of NoSchedule, PreferNoSchedule, NoExecute.";
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return { ok: false, message: `toleration '${text}' has no ':Effect'.`, fix };
  const effect = text.slice(colon + 1);
  const head = text.slice(0, colon);
  const eq = head.indexOf('=');
  const key = eq < 0 ? head : head.slice(0, eq);
  const value = eq < 0 ? undefined : head.slice(eq + 1);
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) {
    return { ok: false, message: `toleration '${text}': effect '${effect}' is not a Kubernetes taint effect.`, fix };
  }
  if (key === '') return { ok: false, message: `toleration '${text}' has an empty key.`, fix };
  return { ok: true, taint: { key, ...(value !== undefined ? { value } : {}), effect: effect as TaintEffect } };
}

function readTolerations(value: unknown, path: string, issues: ValidationIssue[]): Taint[] | undefined {
  const list = items(value);
  if (list === undefined) {
    issues.push({ path, message: 'tolerations is not a list.', fix: "Write e.g. ['os=windows:NoSchedule']." });
    return undefined;
  }
  const out: Taint[] = [];
  list.forEach((t, i) => {
    const text =
      typeof t === 'string'
        ? t
        : typeof t === 'object' && t !== null && typeof (t as Taint).key === 'string'
          ? `${(t as Taint).key}${typeof (t as Taint).value === 'string' ? `=${(t as Taint).value}` : ''}:${String((t as Taint).effect)}`
          : undefined;
    const parsed = text === undefined ? undefined : parseTaint(text);
    if (parsed?.ok) out.push(parsed.taint);
    else
      issues.push({
        path: `${path}[${i}]`,
        message: parsed ? parsed.message : `${JSON.stringify(t)} is not 'key=value:Effect' or { key, value, effect }.`,
        fix: parsed ? parsed.fix : "Write e.g. 'os=windows:NoSchedule'.",
      });
  });
  return out;
}

/** `value` when it is one of `allowed`; otherwise an issue naming the value and the choices. */
function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  path: string,
  what: string,
  issues: ValidationIssue[],
): T | undefined {
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  issues.push({ path, message: `${JSON.stringify(value)} is not ${what}.`, fix: `Use one of ${allowed.join(', ')}.` });
  return undefined;
}

/**
 * Reads hand-written settings (untyped: parsed YAML or JSON) at `where` (`properties`, `functionConfig.spec`,
 * `config`), taking only the `accepted` names. Numbers where YAML turned a release into one (`2022`) are taken;
 * a version YAML turned into a number is refused, since `1.30` reads as 1.3.
 */
export function readSettings(
  raw: unknown,
  where: string,
  accepted: readonly SettingName[],
): { readonly settings: EngineSettings; readonly issues: readonly ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const out: { -readonly [K in SettingName]?: EngineSettings[K] } = {};
  if (raw === undefined || raw === null) return { settings: out, issues };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push({ path: where, message: `${where} is not a mapping.`, fix: `Write ${accepted.join(', ')} as keys.` });
    return { settings: out, issues };
  }
  const at = (name: string) => `${where}.${name}`;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(accepted as readonly string[]).includes(name)) {
      issues.push({ path: at(name), message: `'${name}' is not a setting here.`, fix: `Use ${accepted.join(', ')}.` });
      continue;
    }
    if (value === undefined || value === null) continue;
    const setting = name as SettingName;
    switch (setting) {
      case 'rules': {
        if (typeof value !== 'object' || Array.isArray(value)) {
          issues.push({
            path: at(name),
            message: 'rules is not a map of rule id to setting.',
            fix: "Write rules: { <rule-id>: 'off' }.",
          });
          break;
        }
        const rules: Record<string, RuleSetting> = {};
        let unknown = 0;
        for (const [id, level] of Object.entries(value as Record<string, unknown>)) {
          if (!RULES_BY_ID.has(id)) unknown++;
          const problems = checkRuleSetting(id, level, `${at(name)}.${id}`, unknown <= MAX_RULE_SUGGESTIONS);
          for (const p of problems) issues.push(p);
          if (problems.length === 0) rules[id] = level as RuleSetting;
        }
        out.rules = rules;
        break;
      }
      case 'windowsRelease': {
        const parsed =
          typeof value === 'string' || typeof value === 'number' ? parseWindowsRelease(String(value)) : undefined;
        if (parsed?.ok) out.windowsRelease = parsed.release;
        else
          issues.push({
            path: at(name),
            message: parsed ? parsed.message : `${JSON.stringify(value)} is not a Windows Server release.`,
            ...(parsed ? { fix: parsed.fix } : { fix: "Write e.g. '2022'." }),
          });
        break;
      }
      case 'date': {
        const problem = checkEvaluationDate(value);
        if (problem === undefined && typeof value === 'string') out.date = value;
        else
          issues.push({
            path: at(name),
            ...(problem ?? { message: 'date must be a string.', fix: 'Write e.g. 2026-11-27.' }),
          });
        break;
      }
      case 'kubernetesVersion':
        if (typeof value === 'string' && parseKubernetesMinor(value) !== undefined) out.kubernetesVersion = value;
        else
          issues.push({
            path: at(name),
            message:
              typeof value === 'number'
                ? `${value} is a number: YAML reads 1.30 as 1.3.`
                : `${JSON.stringify(value)} is not a Kubernetes 1.x version.`,
            fix: "Write it as a quoted string such as '1.30'.",
          });
        break;
      case 'cloud':
        out.cloud = oneOf(value, CLOUDS, at(name), 'a cloud the rules know', issues);
        break;
      case 'tolerations': {
        const taints = readTolerations(value, at(name), issues);
        if (taints !== undefined) out.tolerations = taints;
        break;
      }
      case 'runtimeClassName':
        if (typeof value === 'string' && value !== '') out.runtimeClassName = value;
        else issues.push({ path: at(name), message: `${JSON.stringify(value)} is not a RuntimeClass name.` });
        break;
      case 'resolveImages':
      case 'offline': {
        const flag =
          value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
        if (flag === undefined)
          issues.push({ path: at(name), message: `${JSON.stringify(value)} is not true or false.` });
        else out[setting] = flag;
        break;
      }
      case 'registryMirrors': {
        const mirrors = readMirrors(value, at(name), issues);
        if (mirrors !== undefined) out.registryMirrors = mirrors;
        break;
      }
      case 'imageCache':
        if (typeof value === 'string' && value !== '') out.imageCache = value;
        else issues.push({ path: at(name), message: `${JSON.stringify(value)} is not a directory.` });
        break;
      case 'insecureRegistries': {
        const hosts = readRegistryHosts(value, at(name), issues);
        if (hosts !== undefined) out.insecureRegistries = hosts;
        break;
      }
      case 'mirrorFallback':
        if (value === true || value === 'true') out.mirrorFallback = true;
        else if (value === false || value === 'false') out.mirrorFallback = false;
        else issues.push({ path: at(name), message: `${JSON.stringify(value)} is not true or false.` });
        break;
      case 'resolveTimeout': {
        const seconds = parseResolveTimeout(value);
        if (seconds !== undefined) out.resolveTimeout = seconds;
        else
          issues.push({
            path: at(name),
            message: `${JSON.stringify(value)} is not a time to resolve images in.`,
            fix: `Write seconds, more than 0 and at most ${MAX_RESOLVE_TIMEOUT_SECONDS}: 30, '30s' or '1500ms'.`,
          });
        break;
      }
      case 'trustedRegistries':
        // Unreachable while no source accepts it; a source that did would let a file direct credentials.
        issues.push({
          path: at(name),
          message: 'is taken from the command line and the environment only.',
          fix: 'Use --registry-mirror / --insecure-registry, or K8S_WINDOWS_REGISTRY_MIRRORS / K8S_WINDOWS_INSECURE_REGISTRIES.',
        });
        break;
      case 'pinLinux':
        if (value === true || value === 'true') out.pinLinux = true;
        else if (value === false || value === 'false') out.pinLinux = false;
        else issues.push({ path: at(name), message: `${JSON.stringify(value)} is not true or false.` });
        break;
      case 'failOn':
        out.failOn = oneOf(value, SEVERITIES, at(name), 'a severity', issues);
        break;
      case 'maxWarnings':
        if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out.maxWarnings = value;
        else
          issues.push({
            path: at(name),
            message: `${JSON.stringify(value)} is not a count of warnings.`,
            fix: 'Write a whole number, 0 or more.',
          });
        break;
      case 'ignore': {
        const list = Array.isArray(value) ? value : [value];
        const globs = list.filter((g): g is string => typeof g === 'string' && g.trim() !== '');
        if (globs.length !== list.length) {
          issues.push({
            path: at(name),
            message: `${JSON.stringify(value)} is not a list of paths.`,
            fix: "Write paths or globs relative to the config file: ignore: ['charts/*/templates/**'].",
          });
        }
        out.ignore = globs;
        break;
      }
      case 'suppressions':
        out.suppressions = readSuppressions(value, at(name), issues);
        break;
      case 'podTemplates':
        out.podTemplates = readPodTemplateKinds(value, at(name), issues);
        break;
      default: {
        const unknownSetting: never = setting;
        throw new Error(`unhandled setting ${String(unknownSetting)}`);
      }
    }
  }
  return { settings: out, issues };
}

/** `registryMirrors: { docker.io: http://mirror:5000 }`, or `HOST=URL` strings (a ConfigMap's data, the CLI). */
export function readMirrors(
  value: unknown,
  path: string,
  issues: ValidationIssue[],
): Record<string, string> | undefined {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v): [string, unknown] => {
        const text = String(v);
        const eq = text.indexOf('=');
        return eq > 0 ? [text.slice(0, eq), text.slice(eq + 1)] : [text, undefined];
      })
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  if (entries.length === 0 && !(typeof value === 'object' && value !== null)) {
    issues.push({
      path,
      message: `${JSON.stringify(value)} is not a map of registry to mirror URL.`,
      fix: "Write e.g. { docker.io: 'https://mirror.example:5000' }.",
    });
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [host, url] of entries) {
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/.test(url)) {
      issues.push({
        path: `${path}.${host}`,
        message: `${JSON.stringify(url)} is not an http or https URL.`,
        fix: "Write e.g. 'https://mirror.example:5000'.",
      });
      continue;
    }
    out[host] = url;
  }
  return out;
}

const SUPPRESSION_KEYS = ['rules', 'kind', 'namespace', 'name', 'reason'] as const;

/** `suppressions:` of a config: each entry names its rules and why, and optionally the objects (kind, namespace, name). */
function readSuppressions(value: unknown, path: string, issues: ValidationIssue[]): ConfigSuppression[] {
  if (!Array.isArray(value)) {
    issues.push({
      path,
      message: 'suppressions is not a list.',
      fix: "Write suppressions: [{ rules: [<rule-id>], name: <object name>, reason: '<why>' }].",
    });
    return [];
  }
  const out: ConfigSuppression[] = [];
  value.forEach((entry, i) => {
    const at = `${path}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      issues.push({
        path: at,
        message: `${JSON.stringify(entry)} is not a mapping.`,
        fix: `Use the keys ${SUPPRESSION_KEYS.join(', ')}.`,
      });
      return;
    }
    const e = entry as Record<string, unknown>;
    let ok = true;
    for (const key of Object.keys(e)) {
      if (!(SUPPRESSION_KEYS as readonly string[]).includes(key)) {
        issues.push({
          path: `${at}.${key}`,
          message: `'${key}' is not a suppression key.`,
          fix: `Use ${SUPPRESSION_KEYS.join(', ')}.`,
        });
        ok = false;
      }
    }
    const rules = items(e.rules);
    if (rules === undefined || rules.length === 0) {
      issues.push({
        path: `${at}.rules`,
        message: 'names no rule.',
        fix: "Write rules: [<rule-id>] ('*' for every rule).",
      });
      ok = false;
    } else {
      for (const id of rules) {
        if (id === '*' || (typeof id === 'string' && RULES_BY_ID.has(id))) continue;
        issues.push({
          path: `${at}.rules`,
          message: `${JSON.stringify(id)} is not a rule id.`,
          fix: unknownRuleFix(String(id), ruleIds()),
        });
        ok = false;
      }
    }
    if (typeof e.reason !== 'string' || e.reason.trim() === '') {
      issues.push({
        path: `${at}.reason`,
        message: 'gives no reason.',
        fix: 'Say why the findings are accepted: it is shown beside every finding the entry suppresses.',
      });
      ok = false;
    }
    for (const key of ['kind', 'namespace', 'name'] as const) {
      if (e[key] !== undefined && (typeof e[key] !== 'string' || e[key] === '')) {
        issues.push({ path: `${at}.${key}`, message: `${JSON.stringify(e[key])} is not a ${key}.` });
        ok = false;
      }
    }
    if (!ok) return;
    out.push({
      rules: rules as string[],
      ...(typeof e.kind === 'string' ? { kind: e.kind } : {}),
      ...(typeof e.namespace === 'string' ? { namespace: e.namespace } : {}),
      ...(typeof e.name === 'string' ? { name: e.name } : {}),
      reason: (e.reason as string).trim(),
      from: at,
    });
  });
  return out;
}

/**
 * A finding under the user's rule settings: dropped when its rule is `off`, re-levelled when it is given a
 * severity, as `validateManifests` applies `options.rules` (the cloud checks of the policy pack use this).
 */
export function applyRuleSetting<
  T extends { readonly ruleId: string; readonly severity: Severity; readonly formerly?: string },
>(finding: T, rules: Readonly<Record<string, RuleSetting>> | undefined): T | undefined {
  // The rule's own id first, then the ids it was split from (a setting of `aks-windows-agent-pool` still applies).
  const setting =
    rules === undefined
      ? undefined
      : byRuleName((id) => (Object.hasOwn(rules, id) ? rules[id] : undefined), finding.ruleId, finding.formerly);
  if (setting === 'off') return undefined;
  return setting === undefined || setting === finding.severity ? finding : { ...finding, severity: setting };
}

/** The engine's options among settings (the rest are `fix`'s target and the run's exit policy). */
export function validateOptionsOf(settings: EngineSettings): ValidateOptions {
  return {
    ...(settings.rules !== undefined ? { rules: settings.rules } : {}),
    ...(settings.windowsRelease !== undefined ? { windowsRelease: settings.windowsRelease } : {}),
    ...(settings.kubernetesVersion !== undefined ? { kubernetesVersion: settings.kubernetesVersion } : {}),
    ...(settings.cloud !== undefined ? { cloud: settings.cloud } : {}),
    ...(settings.date !== undefined ? { date: settings.date } : {}),
    ...(settings.suppressions !== undefined ? { suppressions: settings.suppressions } : {}),
    ...(settings.podTemplates !== undefined && settings.podTemplates.length > 0
      ? { podTemplates: settings.podTemplates }
      : {}),
  };
}
