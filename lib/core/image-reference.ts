/**
 * The image-reference grammar, shared by the rules (images.ts) and the registry client (lib/registry/reference.ts):
 * github.com/distribution/reference's `name [":" tag] ["@" digest]`, with a digest as the OCI image spec writes one
 * (`algorithm:encoded`, https://github.com/opencontainers/image-spec/blob/main/descriptor.md#digests) and a sha256
 * digest held to its exact 64 lower-case hex digits, as go-digest validates it. Pure: no normalisation to a
 * registry (Docker Hub's `library/` and host are the registry client's).
 */

export interface ImageReference {
  /** Registry host (`mcr.microsoft.com`), or undefined for Docker Hub shorthand. */
  readonly registry?: string;
  /** Repository path (`windows/servercore`). */
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** A reference as read, or why it is not one (`the tag "-bad" is not valid`), for messages. */
export type ImageReferenceReading =
  { readonly ok: true; readonly reference: ImageReference } | { readonly ok: false; readonly reason: string };

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;
const SHA256 = /^sha256:[a-f0-9]{64}$/;

/** Whether the first path component names a registry host (has a dot or a port, or is `localhost`). */
export function isRegistryHost(component: string): boolean {
  return component.includes('.') || component.includes(':') || component === 'localhost';
}

/**
 * Readings of the references read lately: the rules read each container's image several times, and a set of
 * manifests names few distinct images. Emptied when full, so it stays small whatever the input.
 */
const READINGS = new Map<string, ImageReferenceReading>();
const READINGS_KEPT = 4096;

/**
 * The forms of a slot for an image rather than an image: angle brackets (`<your-registry>/app`,
 * `< Registry Name >.azurecr.io/app`; white space alone is a broken reference the kubelet refuses, not a slot), a template or variable left unrendered (`${VAR}`, `$VAR`, `$(VAR)`,
 * `{{ .Values.image }}`, `%VAR%`), a token a release pipeline replaces (`#registry#/app`, `#{Build.Id}#`,
 * `app:__TAG__`, `@@TAG@@`), or a build reference a tool replaces before deploying (`ko://…`, any `scheme://`).
 * Only `__TAG__` is also valid grammar (a tag may hold underscores), so it alone needs saying: the others are not
 * references either way. RE2-compatible, for the policies' CEL (lib/core/policies/prelude.ts).
 */
const PLACEHOLDER =
  /[<>#%$]|\{\{|\}\}|@@|^[a-z][a-z0-9+.-]*:\/\/|(?:^|[/:._-])__[a-z0-9]+(?:_[a-z0-9]+)*__(?:$|[/:@._-])/i;

/**
 * Whether an image "reference" is a slot for one rather than one ({@link PLACEHOLDER}'s forms): no rule reads it
 * as an image, and no registry is asked about it.
 */
export function isPlaceholderReference(text: string): boolean {
  return typeof text === 'string' && PLACEHOLDER.test(text);
}

/**
 * {@link isPlaceholderReference} as an RE2 pattern (unanchored, case-insensitive), for the policies' CEL.
 * @internal
 */
export function placeholderPattern(): string {
  return `(?i)${PLACEHOLDER.source}`;
}

/** Reads `registry/repo:tag@digest`, saying what is wrong when it is not an image reference. */
export function readImageReference(text: string): ImageReferenceReading {
  if (typeof text !== 'string') return readReference(text);
  let reading = READINGS.get(text);
  if (reading === undefined) {
    if (READINGS.size >= READINGS_KEPT) READINGS.clear();
    reading = readReference(text);
    READINGS.set(text, reading);
  }
  return reading;
}

function readReference(text: string, hostAllowed = true): ImageReferenceReading {
  const input = typeof text === 'string' ? text.trim() : '';
  const bad = (reason: string): ImageReferenceReading => ({ ok: false, reason });
  if (input === '') return bad('it is empty');
  if (PLACEHOLDER.test(input)) return bad('it is a placeholder for an image, not an image');
  if (/\s/.test(input)) return bad('it contains white space');
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return bad(`the digest ${JSON.stringify(digest)} is not algorithm:hex`);
    if (digest.startsWith('sha256:') && !SHA256.test(digest))
      return bad('a sha256 digest has 64 lower-case hex digits');
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return bad(`the tag ${JSON.stringify(tag)} is not valid`);
  }
  const parts = rest.split('/');
  const registry = hostAllowed && parts.length > 1 && isRegistryHost(parts[0]!) ? parts.shift() : undefined;
  for (const part of parts) {
    if (!COMPONENT.test(part)) return bad(`the path component ${JSON.stringify(part)} is not lower-case [a-z0-9._-]`);
  }
  return {
    ok: true,
    reference: {
      ...(registry !== undefined ? { registry } : {}),
      repository: parts.join('/'),
      ...(tag !== undefined ? { tag } : {}),
      ...(digest !== undefined ? { digest } : {}),
    },
  };
}

/**
 * Parses `registry/repo:tag@digest` as the rules read images. Returns undefined when the text is not an image
 * reference. A reference whose registry alone is a slot (`< Registry Name >.azurecr.io/windows/servercore/iis:ltsc2019`,
 * `#registry#/app:1809`, `${REGISTRY}/app`) is read too, the slot standing as its registry: its repository and tag say
 * as much about the image's OS and build as anyone's mirror of it does, and no registry is asked about it
 * ({@link readImageReference}, which the registry client reads with, still refuses it).
 */
export function parseImageReference(image: string): ImageReference | undefined {
  const reading = readImageReference(image);
  if (reading.ok) return reading.reference;
  return typeof image === 'string' ? readBehindRegistrySlot(image.trim()) : undefined;
}

/** `<slot>/repo:tag`: a slot as the first path component, and a reference without a host or a slot after it. */
function readBehindRegistrySlot(input: string): ImageReference | undefined {
  const slash = input.indexOf('/');
  if (slash <= 0) return undefined;
  const slot = input.slice(0, slash);
  if (slot.includes('@')) return undefined;
  const rest = input.slice(slash + 1);
  if (!PLACEHOLDER.test(slot) || PLACEHOLDER.test(rest) || /\s/.test(rest)) return undefined;
  const reading = readReference(rest, false);
  return reading.ok ? { ...reading.reference, registry: slot } : undefined;
}

/**
 * readBehindRegistrySlot's grammar as an RE2 pattern over the whole text (the slot is checked apart, with
 * {@link placeholderPattern}), for the policies' CEL.
 * @internal
 */
export function slotReferencePattern(): string {
  const component = `(?:${unanchored(COMPONENT)})`;
  return `^[^/@]+/${component}(?:/${component})*(?::${unanchored(TAG)})?(?:@${unanchored(DIGEST)})?$`;
}

/** A pattern's source without its anchors. */
function unanchored(re: RegExp): string {
  return re.source.replace(/^\^/, '').replace(/\$$/, '');
}

/**
 * `readImageReference`'s grammar as one anchored, RE2-compatible regular expression over the whole reference (the
 * admission policies' CEL reads images with it): an optional registry host, path components, a tag, a digest. A
 * sha256 digest's exact length is the policies' separate test. Input is not trimmed here.
 * @internal
 */
export function referencePattern(): string {
  const host = '(?:[^/@\\s]*[.:][^/@\\s]*|localhost)';
  const component = `(?:${unanchored(COMPONENT)})`;
  return `^(?:${host}/)?${component}(?:/${component})*(?::${unanchored(TAG)})?(?:@${unanchored(DIGEST)})?$`;
}
