/**
 * Image resolution for synchronous callers: cdk8s renders a construct's manifest synchronously (`toJson`), so a
 * construct that checks its images against their registries at synth runs the resolver in a child Node.js process
 * and waits for it (as cdk8s's own `Helm` construct waits for `helm template`). The child answers through the
 * same resolver, cache and Docker credentials as `lint --resolve-images`; answers are kept for the process.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageLookup, ImageLookups } from '../core/model/image-facts';
import { isPlaceholderReference } from '../registry/reference';
import type { ImageResolutionSettings } from '../registry/resolve-set';

/** What the child is given on stdin. */
export interface SyncRequest {
  readonly images: readonly string[];
  readonly settings: ImageResolutionSettings;
}

/** Long enough for a cold lookup of a few images with retries; a hung registry is cut off by the resolver first. */
const CHILD_TIMEOUT_MS = 120_000;

const answers = new Map<string, ImageLookup>();

/** The child script and how to run it: the compiled `.js` in the package, the `.ts` under tsx in this repository. */
function childCommand(): string[] {
  const js = join(__dirname, 'registry-sync-child.js');
  if (existsSync(js)) return [js];
  return ['--require', require.resolve('tsx/cjs'), join(__dirname, 'registry-sync-child.ts')];
}

/** What the registries say about `images`, asked in one child process for those not yet answered. */
export function resolveImageLookupsSync(
  images: readonly string[],
  settings: ImageResolutionSettings = {},
): ImageLookups {
  const key = (image: string) => `${JSON.stringify(settings)} ${image}`;
  // A placeholder is never looked up (lib/registry/resolve-set.ts): it gets no answer, and no finding.
  const missing = [...new Set(images)].filter((image) => !answers.has(key(image)) && !isPlaceholderReference(image));
  if (missing.length > 0) {
    const request: SyncRequest = { images: missing, settings };
    let got: Record<string, ImageLookup | undefined> = {};
    let failure: string | undefined;
    try {
      const stdout = execFileSync(process.execPath, childCommand(), {
        input: JSON.stringify(request),
        encoding: 'utf8',
        // The resolver's own deadline ends its lookups first; this only stops a child that hangs for another reason.
        timeout: Math.max(CHILD_TIMEOUT_MS, (settings.resolveTimeout ?? 30) * 1000 + 30_000),
        maxBuffer: 64 << 20,
        // The child's warnings (an unwritable cache, a malformed Docker config) reach the user's terminal.
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      got = JSON.parse(stdout) as Record<string, ImageLookup>;
    } catch (error) {
      // The child never fails for a registry (each answer is a result): this is the child itself failing.
      failure = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
    for (const image of missing) {
      const lookup = got[image];
      answers.set(
        key(image),
        lookup ?? { status: 'unreachable', message: `The image resolver did not answer: ${failure ?? 'no result'}` },
      );
    }
  }
  const out: Record<string, ImageLookup> = {};
  for (const image of images) {
    const lookup = answers.get(key(image));
    if (lookup !== undefined) out[image] = lookup;
  }
  return out;
}
