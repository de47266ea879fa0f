/** Turns the core's validation issues into Pulumi's error for bad component inputs. */
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../core/errors';
import { WindowsValidationError } from '../core/errors';
import { cloudFindingSink } from '../core/rules/cloud-findings';

/**
 * Throws one `pulumi.InputPropertiesError` naming every bad property, so `pulumi preview` shows them all at once,
 * before any resource is registered. With `resource` (the component's name), the refusals a rule module owns (an
 * issue with its `ruleId`) are first reported to `cloudFindingSink` as errors about it, so programs and tests read
 * them as data, as they read the component's warnings.
 */
export function throwInputErrors(subject: string, issues: readonly ValidationIssue[], resource?: string): void {
  if (issues.length === 0) return;
  if (resource !== undefined) {
    for (const { ruleId, messageId, path, message, fix } of issues) {
      if (ruleId === undefined) continue;
      cloudFindingSink.report({
        ruleId,
        severity: 'error',
        path,
        message,
        ...(fix !== undefined ? { fix } : {}),
        ...(messageId !== undefined ? { messageId } : {}),
        resource,
      });
    }
  }
  throw new pulumi.InputPropertiesError({
    message: `${subject}: ${issues.length} invalid propert${issues.length === 1 ? 'y' : 'ies'}`,
    errors: issues.map((i) => ({ propertyPath: i.path, reason: i.fix ? `${i.message} Fix: ${i.fix}` : i.message })),
  });
}

/** Runs a core builder and rethrows its `WindowsValidationError` as `InputPropertiesError` under a property prefix. */
export function asInputErrors<T>(subject: string, prefix: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof WindowsValidationError) {
      throwInputErrors(
        subject,
        e.issues.map((i) => ({ ...i, path: prefix ? `${prefix}.${i.path}` : i.path })),
      );
    }
    throw e;
  }
}

/** Whether a value is only known later: an Output or a Promise (a `pulumi.Input` that is not plain). */
export function isEventual(value: unknown): boolean {
  return pulumi.Output.isInstance(value) || value instanceof Promise;
}

/**
 * The args of a component as an object: `undefined`, `null` or a non-object raise one `InputPropertiesError`
 * (instead of a TypeError from deep inside), before anything is registered.
 */
export function requireArgs<T extends object>(subject: string, args: T | undefined | null): T {
  if (typeof args === 'object' && args !== null && !Array.isArray(args) && !isEventual(args)) return args;
  throw new pulumi.InputPropertiesError({
    message: `${subject}: no args`,
    errors: [
      {
        propertyPath: 'args',
        reason: `The component needs an args object, got ${args === null ? 'null' : Array.isArray(args) ? 'a list' : isEventual(args) ? 'an Output' : typeof args}. Fix: pass { ... } with the required properties.`,
      },
    ],
  });
}

/**
 * Fields that are checked before anything is registered must be plain values. Returns an issue for every Output
 * or Promise found in them (at any depth, with its path) and a copy of `args` without those fields, so the other
 * checks never stringify an Output (`Calling [toJSON] on an [Output<T>]`).
 */
export function plainArgs<T extends object>(
  args: T,
  fields: readonly (keyof T & string)[],
): { args: T; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const clean: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const field of fields) {
    const found = eventualPaths(clean[field], field);
    if (found.length === 0) continue;
    for (const path of found) {
      issues.push({
        path,
        message: `${path} is an Output or a Promise, but it is checked before anything is created, so it must be a plain value.`,
        fix: 'Pass the value itself (e.g. config.require(...), a literal), not a resource output.',
      });
    }
    delete clean[field];
  }
  return { args: clean as T, issues };
}

function eventualPaths(value: unknown, path: string, depth = 0): string[] {
  if (isEventual(value)) return [path];
  if (depth > 4 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v: unknown, i) => eventualPaths(v, `${path}[${i}]`, depth + 1));
  return Object.entries(value).flatMap(([k, v]) => eventualPaths(v, `${path}.${k}`, depth + 1));
}

/** Checks a required input that may be an Output: missing, null or empty when plain is an issue. */
export function requiredInput(value: unknown, path: string, fix: string): ValidationIssue[] {
  if (value === undefined || value === null || value === '') {
    return [{ path, message: `${path} is required${value === '' ? ' (it is empty)' : ''}.`, fix }];
  }
  return [];
}
