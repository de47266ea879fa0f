/**
 * Who vouches for a mirror or a plain-HTTP registry. Credentials go only where the user said they may: mirrors and
 * insecure registries named on the command line or in the user's own environment (these variables) are trusted; the
 * same settings read from a repository's config file (`.k8s-windows.yaml`, which a pull request can change) are
 * used anonymously, so no file in a repository can direct the runner's credentials anywhere.
 */
import type { ValidationIssue } from '../core/errors';
import { readMirrors, readRegistryHosts, type TrustedRegistries } from '../core/validate/settings';

/** `docker.io=https://mirror:5000,ghcr.io=https://other`: trusted mirrors from the environment. */
export const MIRRORS_ENV = 'K8S_WINDOWS_REGISTRY_MIRRORS';
/** `registry.internal:5000,10.0.0.5:5000`: trusted plain-HTTP registries from the environment. */
export const INSECURE_ENV = 'K8S_WINDOWS_INSECURE_REGISTRIES';

const split = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** The trusted mirrors and insecure registries of an environment, and every problem with its variables. */
export function registryEnvironment(env: Readonly<Record<string, string | undefined>>): {
  readonly trusted: TrustedRegistries;
  readonly issues: readonly ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  const mirrors = readMirrors(split(env[MIRRORS_ENV]), MIRRORS_ENV, issues) ?? {};
  const insecureRegistries = readRegistryHosts(split(env[INSECURE_ENV]), INSECURE_ENV, issues) ?? [];
  return { trusted: { mirrors, insecureRegistries }, issues };
}

/** Trusted settings over others: the union, a trusted mirror winning for its registry. */
export function withTrusted(
  trusted: TrustedRegistries,
  mirrors: Readonly<Record<string, string>> | undefined,
  insecureRegistries: readonly string[] | undefined,
): {
  readonly mirrors: Record<string, string>;
  readonly untrustedMirrors: Record<string, string>;
  readonly insecureRegistries: string[];
  readonly untrustedInsecureRegistries: string[];
} {
  const untrustedMirrors: Record<string, string> = {};
  for (const [registry, url] of Object.entries(mirrors ?? {})) {
    if (trusted.mirrors[registry] !== url) untrustedMirrors[registry] = url;
  }
  return {
    mirrors: { ...trusted.mirrors },
    untrustedMirrors,
    insecureRegistries: [...trusted.insecureRegistries],
    untrustedInsecureRegistries: (insecureRegistries ?? []).filter((h) => !trusted.insecureRegistries.includes(h)),
  };
}
