/**
 * The `k8s-windows` entry: the pure core (the Windows model, the rules, the engine, fix) and, beside it, the
 * registry client that looks images up for `--resolve-images` (an adapter: network, disk cache, credentials).
 */
export * from './core';
export { ImageResolver, resolveImageLookups, defaultCacheDir, type ImageResolverOptions } from './registry';
