/**
 * Secrets never in messages. An input given as a secret (`pulumi.secret(...)`, a secret config value, or anything
 * holding one) can still be refused once known, inside `apply`; the refusal then names the fields, never their
 * values: every value of the secret inputs is replaced by `<secret>` in the reasons — each string where a message
 * quotes it (`'v'`, `"v"`, cut short as `'v…`) and, when long enough not to be a common word, wherever it appears;
 * each number standing alone.
 */
import * as pulumi from '@pulumi/pulumi';

/** What a secret value is shown as. */
export const SECRET_PLACEHOLDER = '<secret>';

/** Shortest prefix of a secret string that is still hidden when a message cut it short with '…'. */
const MIN_TRUNCATED_PREFIX = 4;

/** Leaf values of a resolved input: its strings (not its keys) and numbers. */
function leaves(value: unknown, out: { strings: Set<string>; numbers: Set<string> }, depth = 0): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (value !== '') out.strings.add(value);
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    out.numbers.add(String(value));
  } else if (Array.isArray(value)) {
    for (const v of value) leaves(v, out, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) leaves(v, out, depth + 1);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Strings at least this long are hidden wherever they appear; shorter ones only where a message quotes them. */
const MIN_BARE_LENGTH = 6;

/** `text` with every value of `secrets` replaced by `<secret>`. */
export function redact(text: string, secrets: readonly unknown[]): string {
  const found = { strings: new Set<string>(), numbers: new Set<string>() };
  for (const s of secrets) leaves(s, found);
  let out = text;
  // Longest first, so a value containing another is replaced whole.
  const strings = [...found.strings].sort((a, b) => b.length - a.length);
  for (const s of strings) {
    const json = JSON.stringify(s).slice(1, -1);
    // Quoted as messages quote values ('value', "value"), or cut short ('valu…).
    for (const q of ["'", '"']) {
      const body = q === '"' ? json : s;
      out = out.split(`${q}${body}${q}`).join(`${q}${SECRET_PLACEHOLDER}${q}`);
      for (let n = body.length - 1; n >= MIN_TRUNCATED_PREFIX; n--) {
        out = out.split(`${q}${body.slice(0, n)}…`).join(`${q}${SECRET_PLACEHOLDER}…`);
      }
    }
    if (s.length >= MIN_BARE_LENGTH) {
      out = out.replace(new RegExp(`(?<![\\w])${escapeRegExp(s)}(?![\\w])`, 'g'), SECRET_PLACEHOLDER);
    }
  }
  for (const n of found.numbers) {
    out = out.replace(new RegExp(`(?<![\\w.\\[<])${escapeRegExp(n)}(?![\\w\\]>]|\\.\\d)`, 'g'), SECRET_PLACEHOLDER);
  }
  return out;
}

/**
 * The error with the values of `secrets` hidden: an `InputPropertiesError` gets each reason (and its message)
 * redacted; any other error its message.
 */
export function redactError(error: unknown, secrets: readonly unknown[]): unknown {
  if (secrets.length === 0) return error;
  if (pulumi.InputPropertiesError.isInstance(error)) {
    return new pulumi.InputPropertiesError({
      message: error.message, // the subject and a count: no value
      errors: error.errors.map((e) => ({ propertyPath: e.propertyPath, reason: redact(e.reason, secrets) })),
    });
  }
  if (error instanceof Error) {
    const copy = new Error(redact(error.message, secrets));
    copy.name = error.name;
    return copy;
  }
  return redact(String(error), secrets);
}

/**
 * The resolved values of those `inputs` that are secret (an Output marked secret, or a value holding one), for
 * `redactError`. Call it inside `apply` with the values the callback received, in the same order.
 */
export async function secretValues(inputs: readonly unknown[], values: readonly unknown[]): Promise<unknown[]> {
  const flags = await Promise.all(inputs.map((i) => (i === undefined ? false : pulumi.isSecret(pulumi.output(i)))));
  return values.filter((_v, i) => flags[i]);
}
