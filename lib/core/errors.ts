/** One problem with user input: the field, what is wrong with its value, and what to write instead. */
export interface ValidationIssue {
  /** Where the bad value sits, in API-server notation (`spec.containers[0].securityContext.runAsUser`) or a prop name. */
  readonly path: string;
  /** One sentence naming the bad value and why it is wrong. */
  readonly message: string;
  /** What to write instead. */
  readonly fix?: string;
  /**
   * The id of the `validateManifests` rule that reports the same problem in a manifest, where there is one: the
   * front doors look their own words for the fix up by it (the rule module's `frontDoorFixes`).
   */
  readonly ruleId?: string;
  /** Which of the rule's declared messages this is, for a rule that declares them (its `messages`). */
  readonly messageId?: string;
}

/** A soft problem under a rule id: a warning a construct or component prints, never a refusal. */
export interface WindowsWarning extends ValidationIssue {
  /** The rule's id in the catalogue (`RULES`). */
  readonly ruleId: string;
}

/** Where conversion warnings go. */
export type WarningSink = (warning: WindowsWarning) => void;

/**
 * Thrown when input cannot become a valid Windows object. Carries every problem found, not only the first,
 * so a user fixes them in one pass.
 */
export class WindowsValidationError extends Error {
  public readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], subject?: string) {
    super(WindowsValidationError.format(issues, subject));
    this.name = 'WindowsValidationError';
    this.issues = issues;
    // The message lists every issue already: kept off Node's printout of an uncaught error (util.inspect shows
    // enumerable own properties after the stack), so the list is not printed twice.
    Object.defineProperty(this, 'issues', { enumerable: false });
  }

  private static format(issues: readonly ValidationIssue[], subject?: string): string {
    const head = `${subject ? `${subject}: ` : ''}${issues.length} Windows validation problem${issues.length === 1 ? '' : 's'}:`;
    const lines = issues.map((i) => `  - ${i.path}: ${i.message}${i.fix ? ` Fix: ${i.fix}` : ''}`);
    return [head, ...lines].join('\n');
  }
}

/** Collects issues and throws them together; keeps validators free of early returns. */
export class IssueCollector {
  private readonly list: ValidationIssue[] = [];

  add(path: string, message: string, fix?: string, ruleId?: string, messageId?: string): void {
    this.list.push({
      path,
      message,
      ...(fix !== undefined ? { fix } : {}),
      ...(ruleId !== undefined ? { ruleId } : {}),
      ...(messageId !== undefined ? { messageId } : {}),
    });
  }

  get issues(): readonly ValidationIssue[] {
    return this.list;
  }

  throwIfAny(subject?: string): void {
    if (this.list.length > 0) throw new WindowsValidationError([...this.list], subject);
  }
}
