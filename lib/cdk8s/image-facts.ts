/**
 * The constructs' synth-time image checks against the registries (`windows.resolveImages`, or the app's context
 * `k8s-windows:resolveImages`): when a workload renders, its images are looked up (in a child process: rendering is
 * synchronous; see `resolveImageLookupsSync`) and what the registry facts add to the rule engine's verdict is
 * reported on the construct: errors refuse the synth, the rest are warnings. Off unless asked for.
 */
import type { IConstruct } from 'constructs';
import { IssueCollector, WindowsValidationError } from '../core/errors';
import type { WarningSink, WindowsWarning } from '../core/pod-spec';
import type * as Sync from '../core/registry/sync';
import type { ImageResolutionSettings } from '../core/registry/sync';
import type * as Engine from '../core/validate/engine';
import type * as Facts from '../core/validate/image-facts';
import type { ImageLookups } from '../core/validate/image-facts';
import type { Diagnostic } from '../core/validate/types';
import { inConstructWords } from './construct-fixes';

/** The context key an app sets to resolve the images of every workload: `true`, or `ImageResolutionSettings`. */
export const RESOLVE_IMAGES_CONTEXT = 'k8s-windows:resolveImages';

/** `windows.resolveImages`: `true` for the defaults, or how to ask the registries. */
export type ImageResolutionProp = boolean | ImageResolutionSettings;

const SETTING_KEYS = new Set(['offline', 'registryMirrors', 'imageCache']);

/** Checks a `resolveImages` value (a prop or the context); problems go to `issues` under `path`. */
export function checkImageResolution(value: unknown, path: string, issues: IssueCollector): void {
  if (value === undefined || typeof value === 'boolean') return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.add(
      path,
      `${path} is ${JSON.stringify(value)}.`,
      'Pass true, false, or { offline, registryMirrors, imageCache }.',
    );
    return;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!SETTING_KEYS.has(key)) {
      issues.add(
        `${path}.${key}`,
        `${key} is not a resolveImages setting.`,
        'Use offline, registryMirrors or imageCache.',
      );
    }
  }
  if (v.offline !== undefined && typeof v.offline !== 'boolean') {
    issues.add(`${path}.offline`, `offline is ${JSON.stringify(v.offline)}, not a boolean.`, 'Pass true or false.');
  }
  if (v.imageCache !== undefined && (typeof v.imageCache !== 'string' || v.imageCache === '')) {
    issues.add(`${path}.imageCache`, `imageCache is ${JSON.stringify(v.imageCache)}.`, 'Pass a directory path.');
  }
  const mirrors = v.registryMirrors;
  if (
    mirrors !== undefined &&
    (typeof mirrors !== 'object' ||
      mirrors === null ||
      Array.isArray(mirrors) ||
      Object.values(mirrors).some((url) => typeof url !== 'string' || !/^https?:\/\//.test(url)))
  ) {
    issues.add(
      `${path}.registryMirrors`,
      `registryMirrors is ${JSON.stringify(mirrors)}.`,
      "Map each registry host to a mirror URL: { 'docker.io': 'https://mirror.internal:5000' }.",
    );
  }
}

/** The settings a workload resolves its images with: its prop, else the app's context; undefined when off. */
export function imageResolutionOf(
  prop: ImageResolutionProp | undefined,
  scope: IConstruct,
): ImageResolutionSettings | undefined {
  let value: unknown = prop;
  if (value === undefined) {
    value = scope.node.tryGetContext(RESOLVE_IMAGES_CONTEXT);
    if (value === undefined) return undefined;
    const issues = new IssueCollector();
    checkImageResolution(value, `context '${RESOLVE_IMAGES_CONTEXT}'`, issues);
    issues.throwIfAny(scope.node.path);
  }
  if (value === true) return {};
  if (value === false || value === undefined) return undefined;
  return value as ImageResolutionSettings;
}

const key = (d: Diagnostic) => `${d.ruleId} ${d.path} ${d.message}`;

/** What the registries say about the images of one rendered object (a child process asks; see the module doc). */
export function lookUpImages(object: unknown, settings: ImageResolutionSettings): ImageLookups {
  // Loaded only when resolution is on: the bridge and the engine stay out of a plain synth.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { imageReferencesOf } = require('../core/validate/image-facts') as typeof Facts;
  const { resolveImageLookupsSync } = require('../core/registry/sync') as typeof Sync;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const images = imageReferencesOf([object]);
  return images.length === 0 ? {} : resolveImageLookupsSync(images, settings);
}

/**
 * The conversion's warnings with `image-floating-tag` left out for images the registry answered: whether a tag
 * that names no build is a multi-arch list is then known, and the fact rules say what is wrong with it.
 */
export function factsAwareWarnings(
  warn: WarningSink,
  lookups: ImageLookups,
  imageAt: (path: string) => unknown,
): WarningSink {
  return (w) => {
    const image = imageAt(w.path);
    if (w.ruleId === 'image-floating-tag' && typeof image === 'string' && lookups[image]?.status === 'found') return;
    warn(w);
  };
}

/**
 * Checks one rendered object against what the registries said about its images: what the facts add to the
 * engine's findings on it (a Linux-only image, a build the nodes do not run, a tag that does not exist, a
 * HostProcess-only image, an image user runAsNonRoot refuses). Errors throw a `WindowsValidationError` on `scope`;
 * the rest go to `warn`.
 */
export function checkImageFacts(object: unknown, lookups: ImageLookups, scope: IConstruct, warn: WarningSink): void {
  if (Object.keys(lookups).length === 0) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { validateManifests } = require('../core/validate/engine') as typeof Engine;
  const without = new Set(validateManifests([object]).map(key));
  const added = validateManifests([object], { images: lookups }).filter((d) => !without.has(key(d)));
  const issue = (d: Diagnostic): WindowsWarning =>
    inConstructWords({ path: d.path, message: d.message, ...(d.fix ? { fix: d.fix } : {}), ruleId: d.ruleId });
  const errors = added.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new WindowsValidationError(errors.map(issue), scope.node.path);
  for (const d of added) warn(issue(d));
}
