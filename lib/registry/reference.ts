/**
 * Image references as the registry sees them: the registry host, the repository name, and a tag or a digest,
 * with Docker Hub's shorthand expanded (`nginx` → `docker.io/library/nginx:latest`), as
 * github.com/distribution/reference normalises them.
 */
import { readImageReference } from '../core/image-reference';

/** The canonical name of Docker Hub in references and in the Docker config file's keys. */
export const DOCKER_HUB = 'docker.io';
/** The host that serves Docker Hub's Distribution API (`docker.io` itself redirects elsewhere). */
export const DOCKER_HUB_HOST = 'registry-1.docker.io';
/** The key Docker writes Docker Hub credentials under in `config.json`. */
export const DOCKER_HUB_CONFIG_KEY = 'https://index.docker.io/v1/';

export interface RegistryImageReference {
  /** The registry name as written, normalised: `docker.io` for Docker Hub, else the host with its port. */
  readonly registry: string;
  /** The host (with port) that serves the Distribution API: `registry-1.docker.io` for Docker Hub. */
  readonly host: string;
  /** The repository path (`library/nginx`, `windows/servercore`). */
  readonly repository: string;
  /** The tag, when the reference names one; `latest` when it names neither a tag nor a digest. */
  readonly tag?: string;
  readonly digest?: string;
  /** The normalised reference: `docker.io/library/nginx:latest`, `host:5000/app@sha256:…`. */
  readonly canonical: string;
}

/**
 * Parses and normalises an image reference (the core's grammar, image-reference.ts). Throws an Error naming the
 * reference and what is wrong with it: a reference is user input, and every caller wants the reason.
 */
export function parseReference(text: string): RegistryImageReference {
  const reading = readImageReference(text);
  if (!reading.ok) throw new Error(`Image reference ${JSON.stringify(text)} is not valid: ${reading.reason}.`);
  const { tag: written, digest } = reading.reference;
  let registry = reading.reference.registry?.toLowerCase() ?? DOCKER_HUB;
  if (registry === 'index.docker.io' || registry === DOCKER_HUB_HOST) registry = DOCKER_HUB;
  const repository =
    registry === DOCKER_HUB && !reading.reference.repository.includes('/')
      ? `library/${reading.reference.repository}`
      : reading.reference.repository;
  const tag = written === undefined && digest === undefined ? 'latest' : written;
  const canonical = `${registry}/${repository}${tag !== undefined ? `:${tag}` : ''}${digest !== undefined ? `@${digest}` : ''}`;
  return { registry, host: registry === DOCKER_HUB ? DOCKER_HUB_HOST : registry, repository, tag, digest, canonical };
}

/** The `docker.io` aliases a mirror, a credential or a cache entry may be keyed under. */
export function registryAliases(registry: string): readonly string[] {
  return registry === DOCKER_HUB ? [DOCKER_HUB, DOCKER_HUB_HOST, 'index.docker.io', DOCKER_HUB_CONFIG_KEY] : [registry];
}

/** Whether the registry is on the loopback interface, where Docker talks plain HTTP by default. */
export function isLoopback(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

// Whether an image "reference" is a slot for one rather than one (a template placeholder, a pipeline token, a
// `ko://` build reference): no registry is asked about one, and no rule reads it as an image. The core's test.
export { isPlaceholderReference } from '../core/image-reference';
