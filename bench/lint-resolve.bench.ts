/**
 * Image resolution on a warm cache: `lint --resolve-images` against `lint` on the same 10,000-object manifest. The
 * bench's images live in a real registry (Debian's docker-registry on loopback, named as their registries' mirror);
 * one untimed run fills the cache, so the timed runs measure reading answers from disk, as a CI job with a kept
 * cache does. Aim: at most 1.2x.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { run } from '../lib/cli/run';
import { RegistryServer } from '../test/registry/registry-server';
import { defineBench } from './harness';
import { benchManifest } from './manifests';
import { CountingSink } from './sink';

const OBJECT_COUNT = 10_000;

export default defineBench({
  title: `k8s-windows lint --resolve-images (warm cache) vs lint, ${OBJECT_COUNT.toLocaleString('en-US')} objects`,
  aim: 1.2,
  warmup: 1,
  rounds: 5,
  async setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
    const file = path.join(dir, 'manifest.yaml');
    writeFileSync(file, benchManifest(OBJECT_COUNT));
    const server = await RegistryServer.start();
    const windows = { os: 'windows', architecture: 'amd64', osVersion: '10.0.20348.2340' };
    await server.pushImage('dotnet/framework/aspnet', windows, { tag: '4.8-windowsservercore-ltsc2022' });
    await server.pushImage('dotnet/framework/aspnet', windows, { tag: 'latest' });
    await server.pushImage('platform/worker', { os: 'linux', architecture: 'amd64' }, { tag: '1.24.3' });
    const sink = new CountingSink();
    const lint = async (...args: string[]) => {
      const code = await run(['lint', '--no-config', ...args, file], { stdout: sink, stderr: sink, cwd: dir, env: {} });
      if (code === 2) throw new Error('k8s-windows lint exited 2 on the bench manifest');
      return sink.chars;
    };
    const resolve = [
      '--resolve-images',
      '--image-cache',
      path.join(dir, 'cache'),
      '--registry-mirror',
      `mcr.microsoft.com=${server.url}`,
      '--registry-mirror',
      `registry.example.com=${server.url}`,
    ];
    await lint(...resolve); // fills the cache
    return {
      baseline: { label: 'lint', run: () => lint() },
      candidate: { label: 'lint --resolve-images (cached)', run: () => lint(...resolve) },
      teardown: async () => {
        await server.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});
