/**
 * Image references as the registry sees them: the registry host, the repository name, and a tag or a digest,
 * with Docker Hub's shorthand expanded (`nginx` → `docker.io/library/nginx:latest`), as
 * github.com/distribution/reference normalises them.
 */

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

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;
const SHA256 = /^sha256:[a-f0-9]{64}$/;

/** Whether the first path component names a registry host (has a dot or a port, or is `localhost`). */
function isHost(component: string): boolean {
  return component.includes('.') || component.includes(':') || component === 'localhost';
}

/**
 * Parses and normalises an image reference. Throws an Error naming the reference and what is wrong with it: a
 * reference is user input, and every caller wants the reason.
 */
export function parseReference(text: string): RegistryImageReference {
  const input = typeof text === 'string' ? text.trim() : '';
  const bad = (why: string): Error => new Error(`Image reference ${JSON.stringify(text)} is not valid: ${why}.`);
  if (input === '') throw bad('it is empty');
  if (/\s/.test(input)) throw bad('it contains white space');
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw bad(`the digest ${JSON.stringify(digest)} is not algorithm:hex`);
    if (digest.startsWith('sha256:') && !SHA256.test(digest)) throw bad('a sha256 digest has 64 lower-case hex digits');
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw bad(`the tag ${JSON.stringify(tag)} is not valid`);
  }
  const parts = rest.split('/');
  let registry = DOCKER_HUB;
  if (parts.length > 1 && isHost(parts[0]!)) registry = parts.shift()!.toLowerCase();
  if (registry === 'index.docker.io' || registry === DOCKER_HUB_HOST) registry = DOCKER_HUB;
  if (registry === DOCKER_HUB && parts.length === 1) parts.unshift('library');
  for (const part of parts) {
    if (!COMPONENT.test(part)) throw bad(`the path component ${JSON.stringify(part)} is not lower-case [a-z0-9._-]`);
  }
  const repository = parts.join('/');
  if (tag === undefined && digest === undefined) tag = 'latest';
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

/**
 * Whether an image "reference" is a slot for one rather than one: a template placeholder (`< Registry Name
 * >.azurecr.io/app`, `<Your Image Name>`, anything with white space or angle brackets), a template left unrendered
 * (`${VAR}`, `$(VAR)`, `{{ .Values.image }}`), or a build reference a tool replaces before deploying (`ko://…`, or
 * any `scheme://`). No registry is asked about one, and no finding is made of it.
 */
export function isPlaceholderReference(text: string): boolean {
  return /[\s<>]|\$\{|\$\(|\{\{|\}\}|^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}
