/**
 * How a construct refuses its props: it leaves the construct tree before it throws. A caller that catches the error
 * then neither synthesizes the half-built construct (a cdk8s-plus workload would render with its Linux defaults, as
 * no Windows conversion was set up) nor collides with it when it tries again under the same id.
 */
import type { IConstruct } from 'constructs';
import { WindowsValidationError, type IssueCollector, type ValidationIssue } from '../core/errors';

/** Takes `construct` out of its scope and throws `issues` as one `WindowsValidationError` about `subject`. */
export function refuse(construct: IConstruct, issues: readonly ValidationIssue[], subject: string): never {
  construct.node.scope?.node.tryRemoveChild(construct.node.id);
  throw new WindowsValidationError([...issues], subject);
}

/** `refuse` when `issues` holds any; the subject defaults to the construct path. */
export function refuseIfAny(construct: IConstruct, issues: IssueCollector, subject = construct.node.path): void {
  if (issues.issues.length > 0) refuse(construct, issues.issues, subject);
}
