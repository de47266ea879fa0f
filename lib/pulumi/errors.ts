/** Turns the core's validation issues into Pulumi's error for bad component inputs. */
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../core/errors';
import { WindowsValidationError } from '../core/errors';

/**
 * Throws one `pulumi.InputPropertiesError` naming every bad property, so `pulumi preview` shows them all at once,
 * before any resource is registered.
 */
export function throwInputErrors(subject: string, issues: readonly ValidationIssue[]): void {
  if (issues.length === 0) return;
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
