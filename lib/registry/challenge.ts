/**
 * `WWW-Authenticate` challenges of a registry (RFC 7235; the Distribution token flow,
 * https://distribution.github.io/distribution/spec/auth/token/): `Bearer realm="…",service="…",scope="…"` or
 * `Basic realm="…"`.
 */

export interface AuthChallenge {
  /** The scheme, lower-case: `bearer`, `basic`. */
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses the challenges of one `WWW-Authenticate` header value; unknown text gives an empty list. */
export function parseChallenges(header: string | null | undefined): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  if (!header) return challenges;
  const token = /\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)/y;
  const param = /\s*,?\s*([\w!#$%&'*+.^`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/y;
  let index = 0;
  while (index < header.length) {
    token.lastIndex = index;
    const scheme = token.exec(header);
    if (!scheme) break;
    index = token.lastIndex;
    const params: Record<string, string> = {};
    for (;;) {
      param.lastIndex = index;
      const match = param.exec(header);
      if (!match) break;
      params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
      index = param.lastIndex;
    }
    challenges.push({ scheme: scheme[1]!.toLowerCase(), params });
    const comma = /\s*,\s*/y;
    comma.lastIndex = index;
    if (comma.exec(header)) index = comma.lastIndex;
    else if (index < header.length && !/\s/.test(header[index]!)) break;
  }
  return challenges;
}
