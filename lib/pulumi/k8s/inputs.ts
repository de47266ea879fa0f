/**
 * Helpers for telling plain Pulumi inputs from eventual ones. Plain inputs are validated synchronously in a
 * component's constructor (so `pulumi preview` fails before anything registers); anything that holds an Output
 * or a Promise can only be checked once it resolves, inside `apply`.
 */
import * as pulumi from '@pulumi/pulumi';

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Whether `value` holds no Output or Promise at any depth, so it can be read now. */
export function isPlain(value: unknown): boolean {
  if (pulumi.Output.isInstance(value) || isThenable(value)) return false;
  if (Array.isArray(value)) return value.every(isPlain);
  if (typeof value === 'object' && value !== null) return Object.values(value).every(isPlain);
  return true;
}

/** A JSON-like record, as resolved Pulumi inputs are. */
export type Json = Record<string, unknown>;

export { isRecord } from '../../core/json';

export { plainCopy } from '../../core/json';
