/**
 * Content digests (`algorithm:encoded`, https://github.com/opencontainers/image-spec/blob/main/descriptor.md#digests):
 * the resolver verifies every manifest and config it reads by digest, and caches nothing it could not verify. The
 * OCI image spec registers sha256 and sha512; anything else is refused rather than taken on trust, since a registry
 * could otherwise plant content under a digest another registry's image names.
 */
import { createHash } from 'node:crypto';

/** The algorithms verified, with the length of their hex encoding. */
export const DIGEST_ALGORITHMS: Readonly<Record<string, number>> = { sha256: 64, sha512: 128 };

export type DigestCheck = 'ok' | 'mismatch' | 'unsupported';

/** `sha256:<hex>` of bytes. */
export function digestOf(body: Buffer, algorithm: 'sha256' | 'sha512' = 'sha256'): string {
  return `${algorithm}:${createHash(algorithm).update(body).digest('hex')}`;
}

/** The algorithm of a digest (`sha512` of `sha512:…`), or the whole text when it has no colon. */
export function digestAlgorithm(digest: string): string {
  const colon = digest.indexOf(':');
  return colon < 0 ? digest : digest.slice(0, colon);
}

/** Whether `digest` is one the resolver can verify: a known algorithm with its exact lower-case hex length. */
export function verifiableDigest(digest: string): boolean {
  const length = DIGEST_ALGORITHMS[digestAlgorithm(digest)];
  return length !== undefined && new RegExp(`^[a-z0-9]+:[a-f0-9]{${length}}$`).test(digest);
}

/** Whether `body` is the content `digest` names. */
export function checkDigest(digest: string, body: Buffer): DigestCheck {
  if (!verifiableDigest(digest)) return 'unsupported';
  return digestOf(body, digestAlgorithm(digest) as 'sha256' | 'sha512') === digest ? 'ok' : 'mismatch';
}

/** For messages: why a digest cannot be verified. */
export function unsupportedDigestReason(digest: string): string {
  const algorithm = digestAlgorithm(digest);
  return DIGEST_ALGORITHMS[algorithm] === undefined
    ? `its algorithm ${JSON.stringify(algorithm)} is not one the resolver verifies (${Object.keys(DIGEST_ALGORITHMS).join(', ')})`
    : `a ${algorithm} digest has ${DIGEST_ALGORITHMS[algorithm]} lower-case hex digits`;
}
