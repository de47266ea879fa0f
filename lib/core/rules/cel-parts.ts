/**
 * Pieces of CEL the rules' forms (./cel.ts) share, built from the same constants as their TypeScript checks so a
 * list or a pattern is never typed twice. Every piece is plain CEL that both the API server and @bufbuild/cel
 * accept: `has()` guards every optional field, and regular expressions are RE2 (`matches()`), checked here for the
 * JavaScript-only syntax RE2 refuses. A list or map literal holds items of one type in the API server (homogeneous
 * aggregate literals), and when it creates a policy it compiles `object` untyped, so a field read off it is `dyn`:
 * a literal that puts such a field beside a string literal wraps the field in `string()` (a no-op on the typed
 * schema, where the field is a string already; test/policies/apiserver-agreement.e2e.test.ts holds this).
 */
import { isRegistryHost, placeholderPattern, referencePattern, slotReferencePattern } from '../image-reference';
import { windowsBuildTagPatterns } from '../images';
import { QUANTITY_NUMBER, QUANTITY_SUFFIX } from '../model/quantity';
import { celString } from './cel';

/** JavaScript regular-expression syntax RE2 does not have: lookaround, backreferences, named groups. */
const NOT_RE2 = /\(\?[=!<]|\\[1-9]|\\k</;

/**
 * The RE2 source of a JavaScript regular expression (its `i` flag as `(?i)`); throws on syntax RE2 refuses, so a
 * pattern that cannot be carried over fails when the forms are built (every test of the policies builds them all),
 * not in a cluster.
 */
export function re2(re: RegExp): string {
  if (NOT_RE2.test(re.source)) throw new Error(`/${re.source}/ uses syntax RE2 does not have`);
  const unsupported = re.flags.replace(/[igu]/g, '');
  if (unsupported !== '') throw new Error(`/${re.source}/${re.flags}: flags '${unsupported}' have no RE2 form`);
  return (re.flags.includes('i') ? '(?i)' : '') + re.source;
}

/** The RE2 source of an anchored JavaScript regular expression without its `^…$`, as a group. */
export function re2Unanchored(re: RegExp): string {
  const source = re2(re);
  if (!source.startsWith('^') || !source.endsWith('$')) throw new Error(`/${re.source}/ is not anchored`);
  return `(?:${source.slice(1, -1)})`;
}

/** RE2 for dot-separated labels that each match the anchored `label` (`x.split('.').every(l => label.test(l))`). */
export function re2DottedLabels(label: RegExp): string {
  const one = re2Unanchored(label);
  return `^${one}(?:\\.${one})*$`;
}

/** `text.matches(<re>)` for a JavaScript regular expression. */
export function celMatches(text: string, re: RegExp | string): string {
  return `${text}.matches(${celString(typeof re === 'string' ? re : re2(re))})`;
}

/** An RE2 alternation of literal words: `(?:a|b\.c)`. */
export function re2Words(words: readonly string[]): string {
  return `(?:${words.map((w) => w.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|')})`;
}

/**
 * Whether every field of `path` is set below `base`: `has(c.securityContext) && has(c.securityContext.x)`. The API
 * server's typed objects and the evaluator's maps both fail on reading an absent field; `has()` never does.
 */
export function celPresent(base: string, ...path: readonly string[]): string {
  return path.map((_, i) => `has(${[base, ...path.slice(0, i + 1)].join('.')})`).join(' && ');
}

/** `base.a.b` when every field is set, else `fallback`. */
export function celOr(fallback: string, base: string, ...path: readonly string[]): string {
  return `(${celPresent(base, ...path)} ? ${[base, ...path].join('.')} : ${fallback})`;
}

/** The pod spec, as the shared prelude declares it (lib/core/policies/prelude.ts). */
export const SPEC = 'variables.spec';

/** The pod's own `windowsOptions.hostProcess`, `false` when unset. */
export const POD_HOST_PROCESS = celOr('false', SPEC, 'securityContext', 'windowsOptions', 'hostProcess');

/**
 * Whether container `c` runs as HostProcess: its own `windowsOptions.hostProcess`, else the pod's (as
 * lib/core/model/pod.ts `containerRefs`).
 */
export function celContainerHostProcess(c: string): string {
  return celOr(POD_HOST_PROCESS, c, 'securityContext', 'windowsOptions', 'hostProcess');
}

/**
 * The containers (regular, then init; as the prelude's `variables.containers`) that are not HostProcess: the ones
 * the image and mount rules judge (lib/core/model/pod-images.ts, pod-volumes.ts).
 */
export const NON_HOST_PROCESS_CONTAINERS = `variables.containers.filter(c, !${celContainerHostProcess('c')})`;

/** Whether some container runs as HostProcess (lib/core/model/pod.ts `PodFacts.hostProcess`). */
export const SOME_HOST_PROCESS = `variables.containers.exists(c, ${celContainerHostProcess('c')})`;

/** A name for a container in a message: `container 'web'` (init containers are named as such where it matters). */
export function celContainerName(c: string): string {
  return `"container '" + ${c}.name + "'"`;
}

/**
 * Whether the string `image` is an image reference `parseImageReference` accepts (as the prelude's `imageRefs`
 * reads it: the grammar's pattern, then a sha256 digest's exact length, which RE2 cannot say in the same pattern,
 * and not a placeholder such as `app:__TAG__`, which the grammar admits), or a placeholder for the registry alone
 * before a reference (`<registry>/app:ltsc2022`), which stands as the registry.
 */
export function celValidImage(image: string): string {
  const slot = `${image}.substring(0, ${image}.indexOf('/'))`;
  const rest = `${image}.substring(${image}.indexOf('/') + 1)`;
  return `((${celMatches(image, referencePattern())} && !${celMatches(image, placeholderPattern())}) || (${celMatches(image, slotReferencePattern())} && ${celMatches(slot, placeholderPattern())} && !${celMatches(rest, placeholderPattern())})) && !(${image}.contains('@sha256:') && !${celMatches(image, '@sha256:[a-f0-9]{64}$')})`;
}

/** Where each part of an image reference sits in the lists {@link celImageRefs} builds. */
export const IMAGE_REF = {
  name: 0,
  image: 1,
  /** Registry and repository, as written: `mcr.microsoft.com/windows/nanoserver`. */
  where: 2,
  /** The registry host, '' for Docker Hub shorthand. */
  registry: 3,
  repository: 4,
  /** The tag, lower-cased ('' for none). */
  tag: 5,
  /** The Windows build the tag names (`inferWindowsBuild`), '' for none. */
  build: 6,
  /** The first of the caller's own strings. */
  extra: 7,
} as const;

/** Whether the CEL string `h` is a registry host (`isRegistryHost`), checked against the TypeScript function. */
function celRegistryHost(h: string): string {
  if (!isRegistryHost('a.b') || !isRegistryHost('a:1') || !isRegistryHost('localhost') || isRegistryHost('a')) {
    throw new Error('isRegistryHost changed: update cel-parts.ts');
  }
  return `(${h}.contains('.') || ${h}.contains(':') || ${h} == 'localhost')`;
}

/** The Windows build the lower-cased tag `t` names, as `inferWindowsBuild` reads it ('' for none). */
export function celTagBuild(t: string): string {
  const chain = windowsBuildTagPatterns()
    .map(({ build, pattern }) => `${t}.matches(${celString(pattern)}) ? ${celString(build)} : `)
    .join('');
  return `(${t} == '' ? '' : ${chain}'')`;
}

/**
 * The image references of `containers` (a CEL list of containers) that `parseImageReference` reads, each as a list
 * of strings indexed by {@link IMAGE_REF}: name, image, where, registry, repository, tag, build, then `extra`
 * (CEL strings of the container `c`, for what a rule needs beside the image). Without `build`, the build is left ''
 * (the rules that do not read it spare the policy its patterns).
 */
export function celImageRefs(
  containers: string,
  extra: readonly string[] = [],
  { build = true }: { readonly build?: boolean } = {},
): string {
  const more = (from: number) => extra.map((_, i) => `, x[${from + i}]`).join('');
  const n = 'x[2]';
  const tagged = `${n}.lastIndexOf(':') > ${n}.lastIndexOf('/')`;
  const slash = `${n}.indexOf('/')`;
  const first = `${n}.substring(0, ${slash})`;
  // A placeholder for the registry stands as the registry (parseImageReference).
  const registry = `(${slash} > 0 && (${celRegistryHost(first)} || ${celMatches(first, placeholderPattern())}) ? ${first} : '')`;
  return [
    `${containers}.filter(c, has(c.image) && ${celValidImage('c.image')})`,
    // [name, image, name without its digest, ...extra]
    `.map(c, [string(c.name), string(c.image), c.image.split('@')[0]${extra.map((e) => `, string(${e})`).join('')}])`,
    // [name, image, where, tag, ...extra]
    `.map(x, [x[0], x[1], ${tagged} ? ${n}.substring(0, ${n}.lastIndexOf(':')) : ${n}, ${tagged} ? ${n}.substring(${n}.lastIndexOf(':') + 1).lowerAscii() : ''${more(3)}])`,
    // [name, image, where, registry, repository, tag, ...extra]
    `.map(x, [x[0], x[1], ${n}, ${registry}, ${registry} != '' ? ${n}.substring(${slash} + 1) : ${n}, x[3]${more(4)}])`,
    // [name, image, where, registry, repository, tag, build, ...extra]
    `.map(x, [x[0], x[1], x[2], x[3], x[4], x[5], ${build ? celTagBuild('x[5]') : "''"}${more(6)}])`,
  ].join('');
}

/** A CEL double literal of a finite number. */
function celDouble(n: number): string {
  return Number.isInteger(n) ? `${BigInt(n)}.0` : String(n);
}

/**
 * The quantity in the CEL string `q` (trimmed) in base units as a double, as `parseQuantity` reads it; -1.0 when it
 * is not a quantity (a rule reading it judges positive quantities only). A suffix is cut off by its length and the number read with double(), as Number() reads it.
 */
export function celQuantity(q: string): string {
  const suffixes = Object.entries(QUANTITY_SUFFIX).sort(([a], [b]) => b.length - a.length);
  const chain = suffixes
    .map(([suffix, factor]) => {
      const pattern = `^${QUANTITY_NUMBER.source}${suffix === '' ? '' : re2Words([suffix])}$`;
      const value = suffix === '' ? `double(${q})` : `double(${q}.substring(0, size(${q}) - ${suffix.length}))`;
      return `${q}.matches(${celString(pattern)}) ? ${value} * ${celDouble(factor)} : `;
    })
    .join('');
  return `(${chain}-1.0)`;
}
