/**
 * The child process of `resolveImageLookupsSync`: reads a `SyncRequest` on stdin, resolves its images as
 * `lint --resolve-images` does, and writes the lookups, by reference, as JSON on stdout.
 */
import { resolveImageReferences } from '../registry/resolve-set';
import type { SyncRequest } from './registry-sync';

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const { images, settings } = JSON.parse(input) as SyncRequest;
  const onWarning = (message: string) => process.stderr.write(`k8s-windows: warning: ${message}\n`);
  process.stdout.write(JSON.stringify(await resolveImageReferences(images, settings, { onWarning })));
}

void main();
