/**
 * Warnings on constructs, with the rule id in the message so users can find, waive or escalate them. cdk8s has no
 * `Annotations` API of its own (aws-cdk's lives in aws-cdk-lib), so this one follows aws-cdk's shape: the warning is
 * stored as construct metadata (readable with `WindowsAnnotations.warningsOf`) and printed once as a Node.js
 * process warning, which `cdk8s synth` shows on stderr and `--no-warnings` silences.
 */
import type { IConstruct } from 'constructs';

/** Metadata type under which warnings are stored on a construct's node. */
export const WINDOWS_WARNING_METADATA = 'k8s-windows:warning';
/** `process.emitWarning` type of the printed warnings, for `process.on('warning')` filters. */
export const WINDOWS_WARNING_TYPE = 'K8sWindowsWarning';

/** One warning recorded on a construct. */
export interface WindowsConstructWarning {
  /** Stable rule id (`image-floating-tag`, `wildcard-toleration`...). */
  readonly ruleId: string;
  /** The full message: `[rule-id] path: what is wrong. Fix: what to write instead.` */
  readonly message: string;
  /** The construct path the warning is attached to. */
  readonly constructPath: string;
}

export class WindowsAnnotations {
  /** The annotations of a construct. */
  public static of(scope: IConstruct): WindowsAnnotations {
    return new WindowsAnnotations(scope);
  }

  /** Every warning recorded on `scope` and its descendants. */
  public static warningsOf(scope: IConstruct): WindowsConstructWarning[] {
    const out: WindowsConstructWarning[] = [];
    for (const c of scope.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type !== WINDOWS_WARNING_METADATA) continue;
        const data = entry.data as { ruleId: string; message: string };
        out.push({ ruleId: data.ruleId, message: data.message, constructPath: c.node.path });
      }
    }
    return out;
  }

  private constructor(private readonly scope: IConstruct) {}

  /**
   * Records a warning once per construct (rendering may run several times) and prints it.
   * @param ruleId stable rule id, put in brackets at the head of the message
   * @param message what is wrong and how to fix it
   */
  public addWarning(ruleId: string, message: string): void {
    const text = `[${ruleId}] ${message}`;
    const node = this.scope.node;
    const seen = node.metadata.some(
      (m) => m.type === WINDOWS_WARNING_METADATA && (m.data as { message: string }).message === text,
    );
    if (seen) return;
    node.addMetadata(WINDOWS_WARNING_METADATA, { ruleId, message: text }, { stackTrace: false });
    process.emitWarning(`${node.path}: ${text}`, { type: WINDOWS_WARNING_TYPE, code: ruleId });
  }
}
