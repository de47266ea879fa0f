/**
 * The constructs' synth-time image checks against the registries (`windows.resolveImages`, or the app's context
 * `k8s-windows:resolveImages`): when a workload renders, its images are looked up (in a child process: rendering is
 * synchronous; see `resolveImageLookupsSync`) and what the registry facts add to the rule engine's verdict is
 * reported on the construct: errors refuse the synth, the rest are warnings. Off unless asked for.
 */
import type { IConstruct } from 'constructs';
import { IssueCollector, WindowsValidationError } from '../core/errors';
import type { WarningSink, WindowsWarning } from '../core/pod-spec';
import type * as Sync from './registry-sync';
import type { ImageResolutionSettings } from '../registry/resolve-set';
import type * as Engine from '../core/validate/engine';
import type * as Facts from '../core/model/image-facts';
import type * as Settings from '../core/validate/settings';
import type { ImageLookups } from '../core/model/image-facts';
import type { Diagnostic } from '../core/model/types';
import { inFrontDoorWords } from '../core/rules/front-door';

/** The context key an app sets to resolve the images of every workload: `true`, or `ImageResolutionSettings`. */
export const RESOLVE_IMAGES_CONTEXT = 'k8s-windows:resolveImages';

/**
 * Reads a `resolveImages` value (a prop or the context) through the engine's one settings reader: the settings to
 * resolve with, `false` when off, undefined when not given. Problems go to `issues` under `path`.
 */
export function readImageResolution(
  value: unknown,
  path: string,
  issues: IssueCollector,
): ImageResolutionSettings | false | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? {} : false;
  // Loaded only for a settings object: the reader brings the rule catalogue with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readSettings } = require('../core/validate/settings') as typeof Settings;
  const read = readSettings(value, path, ['offline', 'registryMirrors', 'imageCache']);
  for (const i of read.issues) issues.add(i.path, i.message, i.fix);
  const { offline, registryMirrors, imageCache } = read.settings;
  return {
    ...(offline !== undefined ? { offline } : {}),
    ...(registryMirrors !== undefined ? { registryMirrors } : {}),
    ...(imageCache !== undefined ? { imageCache } : {}),
  };
}

/**
 * The settings a workload resolves its images with: its own (read at construction), else the app's context;
 * undefined when off.
 */
export function imageResolutionOf(
  own: ImageResolutionSettings | false | undefined,
  scope: IConstruct,
): ImageResolutionSettings | undefined {
  if (own !== undefined) return own === false ? undefined : own;
  const issues = new IssueCollector();
  const fromContext = readImageResolution(
    scope.node.tryGetContext(RESOLVE_IMAGES_CONTEXT),
    `context '${RESOLVE_IMAGES_CONTEXT}'`,
    issues,
  );
  issues.throwIfAny(scope.node.path);
  return fromContext === false ? undefined : fromContext;
}

const key = (d: Diagnostic) => `${d.ruleId} ${d.path} ${d.message}`;

/** What the registries say about the images of one rendered object (a child process asks; see the module doc). */
export function lookUpImages(object: unknown, settings: ImageResolutionSettings): ImageLookups {
  // Loaded only when resolution is on: the bridge and the engine stay out of a plain synth.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { imageReferencesOf } = require('../core/model/image-facts') as typeof Facts;
  const { resolveImageLookupsSync } = require('./registry-sync') as typeof Sync;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const images = imageReferencesOf([object]);
  return images.length === 0 ? {} : resolveImageLookupsSync(images, settings);
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
    inFrontDoorWords(
      {
        path: d.path,
        message: d.message,
        ...(d.fix ? { fix: d.fix } : {}),
        ruleId: d.ruleId,
        ...(d.messageId !== undefined ? { messageId: d.messageId } : {}),
      },
      'cdk8s',
    );
  const errors = added.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new WindowsValidationError(errors.map(issue), scope.node.path);
  for (const d of added) warn(issue(d));
}
