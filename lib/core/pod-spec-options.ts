/**
 * The options of `toWindowsPodSpec`, checked before any is used: a JavaScript caller (or one reading its options
 * from JSON) can pass `hostProcess: 'no'`, which is truthy, or a target with a misspelt release. A `null` option is
 * the same as leaving it out (JSON has no undefined); any other wrong value is a `WindowsValidationError` naming the
 * option, the value and the fix.
 */
import { IssueCollector, WindowsValidationError } from './errors';
import { isRecord } from './json';
import { WINDOWS_RELEASES } from './releases';
import { TAINT_EFFECTS } from './target';

/** Options given as null are dropped: null means "not given", as it does for a Kubernetes field. */
export function withoutNullOptions<T extends object>(options: T | null | undefined): T {
  if (options === undefined || options === null) return {} as T;
  if (!isRecord(options)) return options;
  let out: Record<string, unknown> | undefined; // copied only when a null is there: this runs for every pod at synth
  for (const key in options) {
    if (options[key] !== null) continue;
    out ??= { ...options };
    delete out[key];
  }
  return (out ?? options) as T;
}

function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  const text = typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const ISOLATIONS = ['process', 'hyperv'];
const SECURITY_PROFILES = ['baseline', 'restricted'];

/** What a wrong value of an option is told: what it must be, and what to write. */
const EXPECTED: Readonly<Record<string, readonly [expects: string, fix: string]>> = {
  hostProcess: ['true or false', 'Write hostProcess: true, or leave it out.'],
  containerDefaults: ['true or false', 'Write containerDefaults: false, or leave it out.'],
  securityProfile: ["'baseline' or 'restricted'", "Write securityProfile: 'restricted', or leave it out ('baseline')."],
  runAsUserName: ['a string', "Write e.g. runAsUserName: 'ContainerUser'."],
  gmsaCredentialSpecName: ['a string', 'Write the name of a GMSACredentialSpec.'],
  pathPrefix: ['a string', "Write e.g. pathPrefix: 'spec.template.spec'."],
  onWarning: ['a function', 'Pass (warning) => { ... }.'],
  images: ['a map of image lookups', 'Pass the result of a registry lookup, or leave it out.'],
  frameworkDefaults: ['an object { podSecurityContext?, containerSecurityContext? }', 'Pass objects, or leave it out.'],
};

/** Whether an option's value has the type it must (release and isolation are checked where they are parsed). */
function fits(key: string, v: unknown): boolean {
  switch (key) {
    case 'hostProcess':
    case 'containerDefaults':
      return typeof v === 'boolean';
    case 'securityProfile':
      return SECURITY_PROFILES.includes(v as string);
    case 'runAsUserName':
    case 'gmsaCredentialSpecName':
    case 'pathPrefix':
      return typeof v === 'string';
    case 'onWarning':
      return typeof v === 'function';
    case 'images':
      return isRecord(v);
    case 'frameworkDefaults':
      return (
        isRecord(v) &&
        (v.podSecurityContext === undefined || isRecord(v.podSecurityContext)) &&
        (v.containerSecurityContext === undefined || isRecord(v.containerSecurityContext))
      );
    default:
      return true;
  }
}

/** Targets already found well formed: a pool's target is shared by every pod rendered for it. */
const CHECKED_TARGETS = new WeakSet<object>();

/**
 * Throws one `WindowsValidationError` listing every option of the wrong type (nulls already dropped). Runs for
 * every pod a construct renders, so it looks only at the options given.
 */
export function checkPodSpecOptions(options: unknown, subject: string): void {
  if (!isRecord(options)) {
    throw new WindowsValidationError(
      [
        {
          path: 'options',
          message: `The options are ${show(options)}, not an object.`,
          fix: 'Pass { ... } or nothing.',
        },
      ],
      subject,
    );
  }
  let issues: IssueCollector | undefined;
  for (const key in options) {
    const v = options[key];
    if (v === undefined || fits(key, v)) continue;
    const [expects, fix] = EXPECTED[key];
    (issues ??= new IssueCollector()).add(key, `${key} must be ${expects}, got ${show(v)}.`, fix);
  }
  const target = options.target;
  if (target !== undefined && !(isRecord(target) && CHECKED_TARGETS.has(target))) {
    const found = new IssueCollector();
    checkTarget(target, found);
    if (found.issues.length === 0) CHECKED_TARGETS.add(target as object);
    for (const i of found.issues) (issues ??= new IssueCollector()).add(i.path, i.message, i.fix);
  }
  issues?.throwIfAny(subject);
}

/** A `WindowsNodeTarget` as `windowsNodeTarget()` builds it: every field the conversion reads. */
function checkTarget(target: unknown, issues: IssueCollector): void {
  const fix = "Pass a pool's nodeTarget, or build one with windowsNodeTarget({ ... }).";
  if (!isRecord(target)) {
    issues.add('target', `target must be a node target, got ${show(target)}.`, fix);
    return;
  }
  if (target.release !== undefined && !(WINDOWS_RELEASES as readonly unknown[]).includes(target.release)) {
    issues.add(
      'target.release',
      `target.release ${show(target.release)} is not a Windows release.`,
      `Use one of ${WINDOWS_RELEASES.map((r) => `'${r}'`).join(', ')}.`,
    );
  }
  if (!ISOLATIONS.includes(target.isolation as string)) {
    issues.add(
      'target.isolation',
      `target.isolation ${show(target.isolation)} is not known.`,
      "Use 'process' or 'hyperv'.",
    );
  }
  const labels = target.labels;
  if (!isRecord(labels) || Object.values(labels).some((v) => typeof v !== 'string')) {
    issues.add('target.labels', `target.labels must be a map of strings, got ${show(labels)}.`, fix);
  }
  const taints = target.taints;
  if (!Array.isArray(taints)) {
    issues.add('target.taints', `target.taints must be a list, got ${show(taints)}.`, fix);
  } else {
    taints.forEach((t: unknown, i) => {
      const ok =
        isRecord(t) &&
        typeof t.key === 'string' &&
        (t.value === undefined || typeof t.value === 'string') &&
        (TAINT_EFFECTS as readonly unknown[]).includes(t.effect);
      if (!ok) {
        issues.add(
          `target.taints[${i}]`,
          `target.taints[${i}] ${show(t)} is not a taint.`,
          "Write { key: 'os', value: 'windows', effect: 'NoSchedule' }.",
        );
      }
    });
  }
  if (target.runtimeClassName !== undefined && typeof target.runtimeClassName !== 'string') {
    issues.add(
      'target.runtimeClassName',
      `target.runtimeClassName must be a string, got ${show(target.runtimeClassName)}.`,
      'Name the RuntimeClass, or leave it out.',
    );
  }
}
