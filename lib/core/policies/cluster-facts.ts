/**
 * Cluster facts: what the admission policies know about the cluster's Windows nodes that no pod shows — which
 * builds its pools run, the taints and labels they carry, the Windows RuntimeClasses it serves. One cluster-scoped
 * `WindowsClusterFacts` object (`k8s-windows.io/v1alpha1`, default name `k8s-windows`) holds them; the `-cluster`
 * policies read it as `params` (paramKind + paramRef), and skip their checks while it does not exist.
 *
 * Written by the node-pool front doors from the targets the pools expose (`clusterFactsFromTargets`), or by hand
 * (`k8s-windows policies --cluster-facts`), and always checked here first (`checkClusterFacts`): a wrong build or
 * taint in the facts would make the cluster refuse or mutate pods by a fact that is not true.
 */
import { IssueCollector, WindowsValidationError, type ValidationIssue } from '../errors';
import { OS_LABEL, WINDOWS_BUILD_LABEL } from '../kube';
import {
  isWindowsRuntimeHandler,
  parseWindowsRelease,
  releaseForBuild,
  releaseInfo,
  retiredRelease,
  windowsRuntimeHandler,
  WINDOWS_RELEASES,
  WINDOWS_RUNTIME_HANDLER_PREFIX,
  type WindowsRelease,
} from '../releases';
import { TAINT_EFFECTS, type Taint, type WindowsNodeTarget } from '../target';
import { isDns1123Subdomain } from '../windows-options';
import { isLabelValue, isQualifiedName } from '../cloud/node-pools';
import { celString } from '../rules/cel';
import { DEFAULT_FACTS_NAME, FACTS_API_VERSION, FACTS_KIND, MANAGED_BY } from './validating';
import {
  POOL_PROVIDERS,
  type ClusterFacts,
  type ClusterRuntimeClass,
  type PolicyObject,
  type PoolProvider,
} from './types';

export const CLUSTER_FACTS_API_VERSION = FACTS_API_VERSION;
export const CLUSTER_FACTS_GROUP = FACTS_API_VERSION.split('/')[0]!;
export const CLUSTER_FACTS_VERSION = FACTS_API_VERSION.split('/')[1]!;
export const CLUSTER_FACTS_KIND = FACTS_KIND;
export const CLUSTER_FACTS_PLURAL = 'windowsclusterfacts';
/** The CustomResourceDefinition's name: `<plural>.<group>`. */
export const CLUSTER_FACTS_CRD_NAME = `${CLUSTER_FACTS_PLURAL}.${CLUSTER_FACTS_GROUP}`;
/** The one facts object the bindings' paramRef names. */
export const DEFAULT_CLUSTER_FACTS_NAME = DEFAULT_FACTS_NAME;

/** Who runs a pool: the cloud's node pools, Karpenter on EKS, or anything else (types.ts). */
export const CLUSTER_FACTS_PROVIDERS = POOL_PROVIDERS;
export type ClusterFactsProvider = PoolProvider;

/** What `checkClusterFacts` returns: every pool with its release, build, OS and build labels and taints filled in. */
export interface ResolvedClusterFacts {
  readonly pools: readonly ResolvedClusterFactsPool[];
  readonly runtimeClasses: readonly ClusterRuntimeClass[];
}

export interface ResolvedClusterFactsPool {
  readonly name: string;
  readonly provider: ClusterFactsProvider;
  readonly release?: WindowsRelease;
  readonly build?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
}

/** Bounds of the schema: they keep the policies' CEL cost estimates finite. */
const MAX_POOLS = 64;
const MAX_TAINTS = 32;
const MAX_LABELS = 64;
const MAX_RUNTIME_CLASSES = 64;
/** A qualified label key: an optional DNS subdomain prefix (253) and '/', then a name (63). */
const MAX_LABEL_KEY = 317;
const MAX_KEY_PREFIX = 253;
const MAX_KEY_NAME = 63;
const MAX_LABEL_VALUE = 63;
const MAX_NAME = 253;
/** The longest build the schema takes (`10.0.20348` is 10): a longer one is refused before it is parsed. */
const MAX_BUILD = 32;
/** The longest provider, release or taint effect read as one: a longer one is refused before it is parsed. */
const MAX_TOKEN = 64;
/** `node.kubernetes.io/windows-build` carries major.minor.build. */
const BUILD_PATTERN = '^10\\.0\\.[0-9]+$';
/**
 * A qualified name (label and taint keys, k8s.io/apimachinery `IsQualifiedName`) for the CRD's OpenAPI `pattern`:
 * an optional lowercase DNS-1123 subdomain prefix and '/', then a name of 1 to 63 characters. The prefix's 253
 * characters are a separate CEL rule (RE2 has no lookahead).
 */
const QUALIFIED_NAME_PATTERN =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';
/** A label value (k8s.io/apimachinery `IsValidLabelValue`), with maxLength 63, for the CRD's `pattern`. */
const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

const POOL_FIELDS = ['name', 'provider', 'release', 'build', 'labels', 'taints'] as const;
const RUNTIME_CLASS_FIELDS = ['name', 'handler', 'build'] as const;
const TAINT_FIELDS = ['key', 'value', 'effect'] as const;
const FACTS_FIELDS = ['pools', 'runtimeClasses'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** At most this many characters of a value are shown in a message; a longer one is cut and its length said. */
const SHOWN_CHARS = 64;
/** Characters a terminal does not show as themselves: DEL and C1 controls, bidi and zero-width marks, separators. */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

const escapeInvisible = (json: string): string =>
  json.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The first SHOWN_CHARS characters of `text`, not splitting a surrogate pair. */
function head(text: string): string {
  const end = /[\ud800-\udbff]/.test(text.charAt(SHOWN_CHARS - 1)) ? SHOWN_CHARS - 1 : SHOWN_CHARS;
  return text.slice(0, end);
}

/**
 * A value for a message: JSON, with control and invisible characters escaped (a key with a line break shows as
 * `"os\n"`), cut after SHOWN_CHARS characters with the length said, so a 60 MB value makes a short message.
 */
function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') {
    return v.length > SHOWN_CHARS
      ? `${escapeInvisible(JSON.stringify(head(v)))}… (${v.length} characters)`
      : escapeInvisible(JSON.stringify(v));
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(v);
  } catch {
    // A cycle or a BigInt: not JSON.
  }
  json ??= String(v);
  return escapeInvisible(json.length > SHOWN_CHARS ? `${head(json)}…` : json);
}

/** A string as messages quote it, `'os'`; through `show` when it is long or holds a quote or a character not shown. */
const quoted = (text: string): string =>
  text.length <= SHOWN_CHARS && /^[\x20-\x26\x28-\x7e]*$/.test(text) ? `'${text}'` : show(text);

/** A short printable string as it is (`v1`), anything else through `show`. */
const plain = (v: unknown): string =>
  typeof v === 'string' && v.length <= SHOWN_CHARS && /^[\x20-\x7e]*$/.test(v) ? v : show(v);

/** A map key in a field path: `labels["team"]`, escaped and cut like any value. */
const keyPath = (path: string, key: string): string => `${path}[${show(key)}]`;

/**
 * Why `key` is not a qualified name, as the API server checks label and taint keys (k8s.io/apimachinery
 * `IsQualifiedName`: an optional lowercase DNS-1123 subdomain prefix of at most 253 characters and '/', then a
 * name of 1 to 63 letters, digits, '-', '_' or '.' that starts and ends with a letter or digit); undefined when
 * it is one. The length is checked first, so a long key costs nothing more.
 */
function qualifiedNameProblem(key: string): string | undefined {
  if (key === '') return 'it is empty';
  if (key.length > MAX_LABEL_KEY) {
    return `it is ${key.length} characters long; a key has at most ${MAX_LABEL_KEY} (a ${MAX_KEY_PREFIX}-character prefix, '/', a ${MAX_KEY_NAME}-character name)`;
  }
  if (isQualifiedName(key)) return undefined;
  const parts = key.split('/');
  if (parts.length > 2) return "it has more than one '/'";
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') return "its prefix before '/' is empty";
    if (prefix.length > MAX_KEY_PREFIX)
      return `its prefix is ${prefix.length} characters long; at most ${MAX_KEY_PREFIX}`;
    if (!isDns1123Subdomain(prefix)) {
      return `its prefix ${quoted(prefix)} is not a lowercase DNS-1123 subdomain (a-z, 0-9, '-' and '.', at most ${MAX_KEY_PREFIX} characters)`;
    }
  }
  const subject = parts.length === 2 ? `its name ${quoted(name)}` : 'it';
  if (name === '') return "its name after '/' is empty";
  if (name.length > MAX_KEY_NAME) return `${subject} is ${name.length} characters long; at most ${MAX_KEY_NAME}`;
  return nameCharactersProblem(subject, name);
}

/** Why `name` (a key's name or a label value, of the right length) is not one: a character, or its ends. */
function nameCharactersProblem(subject: string, name: string): string {
  const bad = /[^-A-Za-z0-9_.]/u.exec(name)?.[0];
  return bad !== undefined
    ? `${subject} holds ${show(bad)}; only letters, digits, '-', '_' and '.' may be used`
    : `${subject} does not start and end with a letter or digit`;
}

/** Why `value` is not a label value (k8s.io/apimachinery `IsValidLabelValue`), or undefined when it is one. */
function labelValueProblem(value: string): string | undefined {
  if (value.length > MAX_LABEL_VALUE) return `it is ${value.length} characters long; at most ${MAX_LABEL_VALUE}`;
  if (isLabelValue(value)) return undefined;
  return nameCharactersProblem('it', value);
}

/** `text` without the quotes and spaces around it, when that is what `ok` takes: the fix for `"os"` or `os\n`. */
function trimmed(text: string, ok: (t: string) => boolean): string | undefined {
  if (text.length > MAX_LABEL_KEY + 8) return undefined;
  const t = text
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim();
  return t !== text && t !== '' && ok(t) ? t : undefined;
}

const KEY_FORM =
  "[prefix/]name: the name 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit; the prefix a lowercase DNS subdomain";

/** Checks a label or taint key as the API server does; true when it is one. */
function checkKey(issues: IssueCollector, path: string, what: string, key: string, example: string): boolean {
  const problem = qualifiedNameProblem(key);
  if (problem === undefined) return true;
  const meant = trimmed(key, isQualifiedName);
  issues.add(
    path,
    `The ${what} ${show(key)} is not a qualified name: ${problem}.`,
    meant !== undefined ? `Write '${meant}'.` : `Write the key as the nodes carry it (${KEY_FORM}), e.g. ${example}.`,
  );
  return false;
}

/** Checks a label or taint value as the API server does; true when it is one. */
function checkLabelValue(issues: IssueCollector, path: string, what: string, value: string): boolean {
  const problem = labelValueProblem(value);
  if (problem === undefined) return true;
  const meant = trimmed(value, isLabelValue);
  issues.add(
    path,
    `The ${what} ${show(value)} is not a label value: ${problem}.`,
    meant !== undefined
      ? `Write '${meant}'.`
      : `Write the value as the nodes carry it: at most ${MAX_LABEL_VALUE} letters, digits, '-', '_' or '.', starting and ending with a letter or digit (or empty), e.g. 'windows'.`,
  );
  return false;
}

function unknownFields(
  issues: IssueCollector,
  path: string,
  value: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const k of Object.keys(value)) {
    if (known.includes(k)) continue;
    const simple = k.length <= SHOWN_CHARS && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k);
    const near = simple
      ? known.find((f) => f.toLowerCase() === k.toLowerCase() || `${f}s` === k || f === `${k}s`)
      : undefined;
    issues.add(
      simple ? `${path}.${k}` : keyPath(path, k),
      `${simple ? k : show(k)} is not a field of ${path === 'spec' ? 'the cluster facts' : path}.`,
      near !== undefined ? `Write ${near}.` : `Remove it; the fields are ${known.join(', ')}.`,
    );
  }
}

/** Checks a build value; returns the release it is the build of. */
function checkBuild(issues: IssueCollector, path: string, build: unknown): WindowsRelease | undefined {
  const builds = WINDOWS_RELEASES.map((r) => `'${releaseInfo(r).build}' (${r})`).join(', ');
  if (typeof build !== 'string') {
    issues.add(path, `The build ${show(build)} is not a string.`, `Write a build in quotes: one of ${builds}.`);
    return undefined;
  }
  if (build.length > MAX_BUILD || !/^[\x21-\x7e]*$/.test(build)) {
    issues.add(
      path,
      `The build ${show(build)} is not the build of a Windows Server release (node.kubernetes.io/windows-build).`,
      `Write one of ${builds}.`,
    );
    return undefined;
  }
  const release = releaseForBuild(build);
  const retired = retiredRelease(build);
  if (retired !== undefined && release === undefined && /^\d+\.\d+\.\d+/.test(build)) {
    issues.add(
      path,
      `The build '${build}' is ${retired.displayName}, which no supported Windows node runs.`,
      `Write the build the pool's nodes run: one of ${builds}.`,
    );
    return undefined;
  }
  if (release === undefined) {
    const byName = parseWindowsRelease(build);
    issues.add(
      path,
      `The build ${quoted(build)} is not the build of a Windows Server release (node.kubernetes.io/windows-build).`,
      byName.ok
        ? `Write '${releaseInfo(byName.release).build}' (or release: '${byName.release}').`
        : `Write one of ${builds}.`,
    );
    return undefined;
  }
  if (!new RegExp(BUILD_PATTERN).test(build)) {
    issues.add(
      path,
      `The build '${build}' carries a revision; node.kubernetes.io/windows-build is major.minor.build.`,
      `Write '${releaseInfo(release).build}'.`,
    );
    return undefined;
  }
  return release;
}

function checkLabelMap(issues: IssueCollector, path: string, labels: unknown): Record<string, string> {
  if (labels === undefined) return {};
  if (!isRecord(labels)) {
    issues.add(
      path,
      `labels ${show(labels)} is not a map.`,
      `Write a map of strings, e.g. { '${OS_LABEL}': windows }.`,
    );
    return {};
  }
  const out: Record<string, string> = {};
  const entries = Object.entries(labels);
  if (entries.length > MAX_LABELS) {
    issues.add(path, `${entries.length} labels are more than the facts hold.`, `Keep at most ${MAX_LABELS}.`);
  }
  for (const [k, v] of entries) {
    const at = keyPath(path, k);
    const keyOk = checkKey(issues, at, 'label key', k, "'agentpool' or 'example.com/pool'");
    if (typeof v !== 'string') {
      const scalar = typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
      issues.add(
        at,
        `The label value ${show(v)} is not a string.`,
        scalar !== undefined && isLabelValue(scalar)
          ? `Quote it: '${scalar}'.`
          : "Write a string (a label value), or '' for an empty one.",
      );
      continue;
    }
    if (checkLabelValue(issues, at, 'label value', v) && keyOk) out[k] = v;
  }
  return out;
}

function checkTaints(issues: IssueCollector, path: string, taints: unknown): Taint[] {
  if (taints === undefined) return [];
  if (!Array.isArray(taints)) {
    issues.add(
      path,
      `taints ${show(taints)} is not a list.`,
      'Write a list, e.g. [{ key: os, value: windows, effect: NoSchedule }].',
    );
    return [];
  }
  if (taints.length > MAX_TAINTS) {
    issues.add(path, `${taints.length} taints are more than the facts hold.`, `Keep at most ${MAX_TAINTS}.`);
  }
  const out: Taint[] = [];
  taints.forEach((t: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(t)) {
      issues.add(at, `The taint ${show(t)} is not an object.`, 'Write { key, value, effect }.');
      return;
    }
    unknownFields(issues, at, t, TAINT_FIELDS);
    let ok = true;
    if (typeof t.key !== 'string') {
      issues.add(
        `${at}.key`,
        t.key === undefined ? 'The taint has no key.' : `The taint key ${show(t.key)} is not a string.`,
        "Write the taint's key, e.g. 'os'.",
      );
      ok = false;
    } else if (!checkKey(issues, `${at}.key`, 'taint key', t.key, "'os' or 'example.com/dedicated'")) {
      ok = false;
    }
    if (t.value !== undefined) {
      if (typeof t.value !== 'string') {
        issues.add(
          `${at}.value`,
          `The taint value ${show(t.value)} is not a string.`,
          "Write a string (a label value), e.g. 'windows', or leave value out.",
        );
        ok = false;
      } else if (!checkLabelValue(issues, `${at}.value`, 'taint value', t.value)) {
        ok = false;
      }
    }
    if (!TAINT_EFFECTS.includes(t.effect as Taint['effect'])) {
      const upper =
        typeof t.effect === 'string' && t.effect.length <= MAX_TOKEN ? t.effect.toUpperCase().replace(/_/g, '') : '';
      const meant = TAINT_EFFECTS.find((e) => e.toUpperCase() === upper);
      issues.add(
        `${at}.effect`,
        `The taint effect ${show(t.effect)} is not a Kubernetes effect.`,
        meant !== undefined ? `Write '${meant}' (the Kubernetes spelling).` : `Use one of ${TAINT_EFFECTS.join(', ')}.`,
      );
      ok = false;
    }
    if (ok) {
      out.push({
        key: t.key as string,
        ...(t.value !== undefined ? { value: t.value as string } : {}),
        effect: t.effect as Taint['effect'],
      });
    }
  });
  return out;
}

function checkPool(issues: IssueCollector, at: string, pool: unknown): ResolvedClusterFactsPool | undefined {
  if (!isRecord(pool)) {
    issues.add(at, `The pool ${show(pool)} is not an object.`, 'Write { name, provider, release, taints }.');
    return undefined;
  }
  unknownFields(issues, at, pool, POOL_FIELDS);
  const name = pool.name;
  if (typeof name !== 'string' || name === '' || name.length > MAX_NAME) {
    issues.add(
      `${at}.name`,
      name === undefined ? 'The pool has no name.' : `The pool name ${show(name)} is not a name.`,
      "Write the pool's name, e.g. 'win2022'.",
    );
  }
  // Unsaid is 'other' (types.ts: @default 'other').
  const provider = pool.provider ?? 'other';
  if (!(CLUSTER_FACTS_PROVIDERS as readonly unknown[]).includes(provider)) {
    const lower = typeof provider === 'string' && provider.length <= MAX_TOKEN ? provider.toLowerCase() : undefined;
    issues.add(
      `${at}.provider`,
      `The provider ${show(provider)} is not one the facts know.`,
      lower !== undefined && (CLUSTER_FACTS_PROVIDERS as readonly string[]).includes(lower)
        ? `Write '${lower}'.`
        : `Use one of ${CLUSTER_FACTS_PROVIDERS.join(', ')} ('other' when none fits).`,
    );
  }
  let release: WindowsRelease | undefined;
  if (typeof pool.release === 'string' && pool.release.length > MAX_TOKEN) {
    issues.add(
      `${at}.release`,
      `Windows release ${show(pool.release)} is not supported.`,
      `Use one of ${WINDOWS_RELEASES.map((r) => `'${r}'`).join(', ')}.`,
    );
  } else if (pool.release !== undefined) {
    const parsed = parseWindowsRelease(pool.release);
    if (parsed.ok) release = parsed.release;
    else issues.add(`${at}.release`, parsed.message, parsed.fix);
  }
  let build: string | undefined;
  if (pool.build !== undefined) {
    const byBuild = checkBuild(issues, `${at}.build`, pool.build);
    if (byBuild !== undefined) {
      build = pool.build as string;
      if (release !== undefined && release !== byBuild) {
        issues.add(
          `${at}.build`,
          `The build '${build}' is Windows Server ${byBuild}, but release is '${release}'.`,
          `Write build '${releaseInfo(release).build}', or release '${byBuild}' (or only one of them).`,
        );
      }
      release ??= byBuild;
    }
  } else if (release !== undefined) {
    build = releaseInfo(release).build;
  }
  const labels = checkLabelMap(issues, `${at}.labels`, pool.labels);
  if (labels[OS_LABEL] !== undefined && labels[OS_LABEL] !== 'windows') {
    issues.add(
      `${at}.labels["${OS_LABEL}"]`,
      `The label ${OS_LABEL}=${labels[OS_LABEL]} says the pool is not Windows.`,
      'Remove it: the facts list Windows pools only, labelled kubernetes.io/os=windows.',
    );
  }
  const labelBuild = labels[WINDOWS_BUILD_LABEL];
  if (labelBuild !== undefined && build !== undefined && labelBuild !== build) {
    issues.add(
      `${at}.labels["${WINDOWS_BUILD_LABEL}"]`,
      `The label says build '${labelBuild}', but the pool's build is '${build}'.`,
      `Remove the label: it is written from build.`,
    );
  } else if (labelBuild !== undefined && build === undefined) {
    const byLabel = checkBuild(issues, `${at}.labels["${WINDOWS_BUILD_LABEL}"]`, labelBuild);
    if (byLabel !== undefined) {
      build = labelBuild;
      release = byLabel;
    }
  }
  const taints = checkTaints(issues, `${at}.taints`, pool.taints);
  if (typeof name !== 'string' || !(CLUSTER_FACTS_PROVIDERS as readonly unknown[]).includes(provider)) return undefined;
  return {
    name,
    provider: provider as ClusterFactsProvider,
    ...(release !== undefined ? { release } : {}),
    ...(build !== undefined ? { build } : {}),
    labels: {
      ...labels,
      [OS_LABEL]: 'windows',
      ...(build !== undefined ? { [WINDOWS_BUILD_LABEL]: build } : {}),
    },
    taints,
  };
}

function checkRuntimeClass(issues: IssueCollector, at: string, rc: unknown): ClusterRuntimeClass | undefined {
  if (!isRecord(rc)) {
    issues.add(at, `The RuntimeClass ${show(rc)} is not an object.`, 'Write { name, handler, build }.');
    return undefined;
  }
  unknownFields(issues, at, rc, RUNTIME_CLASS_FIELDS);
  const { name, handler } = rc;
  let ok = true;
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    issues.add(
      `${at}.name`,
      `The RuntimeClass name ${show(name)} is not a lowercase DNS-1123 subdomain.`,
      "Write e.g. 'windows-2022'.",
    );
    ok = false;
  }
  if (!isWindowsRuntimeHandler(handler)) {
    issues.add(
      `${at}.handler`,
      `The handler ${show(handler)} does not run Windows containers (the facts list Windows RuntimeClasses only).`,
      `Write '${windowsRuntimeHandler('process')}' (process isolation) or '${windowsRuntimeHandler('hyperv')}' (Hyper-V), or leave this RuntimeClass out.`,
    );
    ok = false;
  }
  let build: string | undefined;
  if (rc.build !== undefined) {
    if (checkBuild(issues, `${at}.build`, rc.build) !== undefined) build = rc.build as string;
    else ok = false;
  }
  if (!ok) return undefined;
  return { name: name as string, handler: handler as string, ...(build !== undefined ? { build } : {}) };
}

function duplicates(issues: IssueCollector, path: string, names: readonly (string | undefined)[], what: string): void {
  const seen = new Map<string, number>();
  names.forEach((n, i) => {
    if (n === undefined) return;
    const first = seen.get(n);
    if (first === undefined) seen.set(n, i);
    else
      issues.add(
        `${path}[${i}].name`,
        `The ${what} name ${quoted(n)} is used by the ${what} at index ${first} already.`,
        `Give each ${what} its own name.`,
      );
  });
}

/**
 * Checks cluster facts a user wrote (or a front door built) and fills in what follows from them: each pool's
 * release from its build or its build from its release, the `kubernetes.io/os` and build labels. Label and taint
 * keys and values are checked as the API server checks a node's (a toleration copied from a taint must pass the
 * pod's validation); every string is measured before it is parsed, and shown cut and escaped. Throws one
 * `WindowsValidationError` naming every bad field, its value and the fix.
 */
export function checkClusterFacts(facts: unknown, subject = 'cluster facts'): ResolvedClusterFacts {
  const issues = new IssueCollector();
  if (!isRecord(facts)) {
    issues.add(
      'spec',
      `The cluster facts ${show(facts)} are not an object.`,
      'Write { pools: [...], runtimeClasses: [...] }.',
    );
    issues.throwIfAny(subject);
  }
  const spec = facts as Record<string, unknown>;
  unknownFields(issues, 'spec', spec, FACTS_FIELDS);
  const pools: ResolvedClusterFactsPool[] = [];
  if (spec.pools !== undefined && !Array.isArray(spec.pools)) {
    issues.add(
      'spec.pools',
      `pools ${show(spec.pools)} is not a list of pools.`,
      "List each Windows node pool: [{ name: win2022, provider: eks, release: '2022', taints: [...] }].",
    );
  } else if (Array.isArray(spec.pools)) {
    if (spec.pools.length > MAX_POOLS) {
      issues.add(
        'spec.pools',
        `${spec.pools.length} pools are more than the facts hold.`,
        `Keep at most ${MAX_POOLS}.`,
      );
    }
    spec.pools.forEach((p: unknown, i) => {
      const pool = checkPool(issues, `spec.pools[${i}]`, p);
      if (pool) pools.push(pool);
    });
    duplicates(
      issues,
      'spec.pools',
      spec.pools.map((p: unknown) => (isRecord(p) && typeof p.name === 'string' ? p.name : undefined)),
      'pool',
    );
  }
  const runtimeClasses: ClusterRuntimeClass[] = [];
  if (spec.runtimeClasses !== undefined) {
    if (!Array.isArray(spec.runtimeClasses)) {
      issues.add(
        'spec.runtimeClasses',
        `runtimeClasses ${show(spec.runtimeClasses)} is not a list.`,
        "Write a list: [{ name: windows-2022, handler: runhcs-wcow-process, build: '10.0.20348' }].",
      );
    } else {
      if (spec.runtimeClasses.length > MAX_RUNTIME_CLASSES) {
        issues.add(
          'spec.runtimeClasses',
          `${spec.runtimeClasses.length} RuntimeClasses are more than the facts hold.`,
          `Keep at most ${MAX_RUNTIME_CLASSES}.`,
        );
      }
      spec.runtimeClasses.forEach((r: unknown, i) => {
        const rc = checkRuntimeClass(issues, `spec.runtimeClasses[${i}]`, r);
        if (rc) runtimeClasses.push(rc);
      });
      duplicates(
        issues,
        'spec.runtimeClasses',
        spec.runtimeClasses.map((r: unknown) => (isRecord(r) && typeof r.name === 'string' ? r.name : undefined)),
        'RuntimeClass',
      );
    }
  }
  issues.throwIfAny(subject);
  return { pools, runtimeClasses };
}

/**
 * The `WindowsClusterFacts` object for `facts`, checked first (`WindowsValidationError` naming every bad field):
 * the facts as written, with each pool's `build` filled in from its `release` where only the release is given (the
 * policies compare builds).
 */
export function clusterFactsObject(facts: ClusterFacts, name: string = DEFAULT_CLUSTER_FACTS_NAME): PolicyObject {
  const issues = new IssueCollector();
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    issues.add(
      'name',
      `The facts object name ${show(name)} is not a lowercase DNS-1123 subdomain.`,
      `Write e.g. '${DEFAULT_CLUSTER_FACTS_NAME}'.`,
    );
  }
  issues.throwIfAny('cluster facts');
  const resolved = checkClusterFacts(facts);
  return {
    apiVersion: CLUSTER_FACTS_API_VERSION,
    kind: CLUSTER_FACTS_KIND,
    metadata: { name, labels: { ...MANAGED_BY } },
    spec: {
      pools: (facts.pools ?? []).map((p, i) => {
        const build = resolved.pools[i]?.build;
        return {
          name: p.name,
          ...(p.provider !== undefined ? { provider: p.provider } : {}),
          ...(p.release !== undefined ? { release: p.release } : {}),
          ...(build !== undefined ? { build } : {}),
          ...(p.labels !== undefined ? { labels: { ...p.labels } } : {}),
          ...(p.taints !== undefined ? { taints: p.taints.map((t) => ({ ...t })) } : {}),
        };
      }),
      runtimeClasses: (facts.runtimeClasses ?? []).map((r) => ({ ...r })),
    },
  };
}

/**
 * Reads cluster facts as a user writes them (`k8s-windows policies --cluster-facts`): a WindowsClusterFacts object,
 * or its spec alone. Every problem is returned at once, each with the field (`where.spec.pools[0].build`), the value
 * and the fix; `facts` only when there is none.
 */
export function readClusterFacts(
  raw: unknown,
  where: string,
): { readonly facts?: ClusterFacts; readonly issues: readonly ValidationIssue[] } {
  let spec: unknown = raw;
  let at = where;
  if (isRecord(raw) && ('kind' in raw || 'apiVersion' in raw)) {
    if (raw.kind !== CLUSTER_FACTS_KIND || raw.apiVersion !== CLUSTER_FACTS_API_VERSION) {
      return {
        issues: [
          {
            path: where,
            message: `The object is ${plain(raw.apiVersion)} ${plain(raw.kind)}, not ${CLUSTER_FACTS_API_VERSION} ${CLUSTER_FACTS_KIND}.`,
            fix: `Write apiVersion: ${CLUSTER_FACTS_API_VERSION} and kind: ${CLUSTER_FACTS_KIND}, or give the spec alone.`,
          },
        ],
      };
    }
    spec = raw.spec;
    at = `${where}.spec`;
  }
  try {
    checkClusterFacts(spec);
  } catch (e) {
    if (!(e instanceof WindowsValidationError)) throw e;
    return { issues: e.issues.map((i) => ({ ...i, path: i.path.replace(/^spec\b/, at) })) };
  }
  return { facts: spec as ClusterFacts, issues: [] };
}

const string = (maxLength: number, extra: Record<string, unknown> = {}) => ({ type: 'string', maxLength, ...extra });

/** CEL: the qualified name `k`'s prefix, if it has one, is at most 253 characters (the pattern cannot say it). */
const prefixBound = (k: string) => `!${k}.contains('/') || ${k}.indexOf('/') <= ${MAX_KEY_PREFIX}`;

/** CEL: each release's build, `{'2019': '10.0.17763', …}`. */
const RELEASE_BUILDS = `{${WINDOWS_RELEASES.map((r) => `${celString(r)}: ${celString(releaseInfo(r).build)}`).join(', ')}}`;

/**
 * The `WindowsClusterFacts` CustomResourceDefinition: cluster-scoped, one served and stored version, a structural
 * schema of the spec above with bounds on every list and string (so the policies' CEL cost estimates are finite).
 */
export function clusterFactsCrd(): PolicyObject {
  // Keys and values as the API server checks a node's (a toleration the mutating policy copies from a taint
  // here must pass the pod's validation).
  const labelValue = string(MAX_LABEL_VALUE, { pattern: LABEL_VALUE_PATTERN });
  const taint = {
    type: 'object',
    required: ['key', 'effect'],
    properties: {
      key: string(MAX_LABEL_KEY, { minLength: 1, pattern: QUALIFIED_NAME_PATTERN }),
      value: labelValue,
      effect: { type: 'string', enum: [...TAINT_EFFECTS] },
    },
    'x-kubernetes-validations': [
      {
        rule: prefixBound('self.key'),
        message: `a taint key's prefix (before '/') is a DNS subdomain of at most ${MAX_KEY_PREFIX} characters`,
        fieldPath: '.key',
      },
    ],
  };
  const build = string(MAX_BUILD, { pattern: BUILD_PATTERN });
  const pool = {
    type: 'object',
    required: ['name'],
    properties: {
      name: string(MAX_NAME, { minLength: 1 }),
      provider: { type: 'string', enum: [...CLUSTER_FACTS_PROVIDERS], default: 'other' },
      release: { type: 'string', enum: [...WINDOWS_RELEASES] },
      build,
      labels: {
        type: 'object',
        maxProperties: MAX_LABELS,
        additionalProperties: labelValue,
        'x-kubernetes-validations': [
          {
            rule: `self.all(k, k.size() <= ${MAX_LABEL_KEY} && k.matches(${celString(QUALIFIED_NAME_PATTERN)}) && (${prefixBound('k')}))`,
            message: `every label key is a qualified name (${KEY_FORM} of at most ${MAX_KEY_PREFIX} characters)`,
          },
        ],
      },
      taints: { type: 'array', maxItems: MAX_TAINTS, items: taint },
    },
    // The policies compare builds: a release without its build would leave the RuntimeClass mutation and the build
    // checks silently off (checkClusterFacts fills the build in; a facts object applied by hand must say it).
    'x-kubernetes-validations': [
      {
        rule: `!has(self.release) || (has(self.build) && self.build == ${RELEASE_BUILDS}[self.release])`,
        messageExpression: `"pool " + self.name + " has release '" + self.release + "' " + (has(self.build) ? "but build '" + self.build + "', which is not its build" : 'but no build') + ": write build: '" + ${RELEASE_BUILDS}[self.release] + "' (the policies compare builds)"`,
        message: `a pool's release needs its build: ${WINDOWS_RELEASES.map((r) => `release '${r}' is build '${releaseInfo(r).build}'`).join(', ')}`,
        fieldPath: '.build',
      },
    ],
  };
  const runtimeClass = {
    type: 'object',
    required: ['name', 'handler'],
    properties: {
      name: string(MAX_NAME, { minLength: 1 }),
      handler: string(64, { pattern: `^${WINDOWS_RUNTIME_HANDLER_PREFIX}` }),
      build,
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CLUSTER_FACTS_CRD_NAME, labels: { ...MANAGED_BY } },
    spec: {
      group: CLUSTER_FACTS_GROUP,
      scope: 'Cluster',
      names: {
        kind: CLUSTER_FACTS_KIND,
        listKind: `${CLUSTER_FACTS_KIND}List`,
        plural: CLUSTER_FACTS_PLURAL,
        singular: 'windowsclusterfacts',
      },
      versions: [
        {
          name: CLUSTER_FACTS_VERSION,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                "The cluster's Windows node pools and RuntimeClasses, read by the k8s-windows admission policies as params.",
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  properties: {
                    pools: {
                      type: 'array',
                      maxItems: MAX_POOLS,
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: pool,
                    },
                    runtimeClasses: {
                      type: 'array',
                      maxItems: MAX_RUNTIME_CLASSES,
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: runtimeClass,
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** A pool as a front door knows it: its name, who runs it and the node target it exposes (`pool.nodeTarget`). */
export interface ClusterFactsPoolSource {
  readonly name: string;
  /** @default 'other' */
  readonly provider?: ClusterFactsProvider;
  readonly nodeTarget: WindowsNodeTarget;
}

/**
 * Cluster facts from the node targets the pools expose: each pool's release (and build), its labels and taints as
 * its `nodeTarget` carries them; `runtimeClasses` are targets that name a RuntimeClass (`WindowsRuntimeClass`'s
 * `nodeTarget`): its name, the handler of its isolation and its release's build. Checked like user facts.
 */
export function clusterFactsFromTargets(
  pools: readonly ClusterFactsPoolSource[],
  runtimeClasses: readonly WindowsNodeTarget[] = [],
): ClusterFacts {
  const issues = new IssueCollector();
  const rcs: ClusterRuntimeClass[] = [];
  runtimeClasses.forEach((t, i) => {
    if (t?.runtimeClassName === undefined) {
      issues.add(
        `runtimeClasses[${i}]`,
        'This node target names no RuntimeClass.',
        "Pass a WindowsRuntimeClass's nodeTarget (it carries runtimeClassName).",
      );
      return;
    }
    rcs.push({
      name: t.runtimeClassName,
      handler: windowsRuntimeHandler(t.isolation),
      ...(t.release !== undefined ? { build: releaseInfo(t.release).build } : {}),
    });
  });
  issues.throwIfAny('cluster facts');
  const facts: ClusterFacts = {
    pools: pools.map((p) => ({
      name: p.name,
      provider: p.provider ?? 'other',
      ...(p.nodeTarget?.release !== undefined
        ? { release: p.nodeTarget.release, build: releaseInfo(p.nodeTarget.release).build }
        : {}),
      labels: { ...p.nodeTarget?.labels },
      taints: (p.nodeTarget?.taints ?? []).map((t) => ({ ...t })),
    })),
    ...(rcs.length > 0 ? { runtimeClasses: rcs } : {}),
  };
  checkClusterFacts(facts);
  return facts;
}
