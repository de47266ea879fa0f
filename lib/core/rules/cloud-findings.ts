/**
 * What the cloud rules report, and where: a finding about a cloud resource's inputs (a node group, an agent pool, a
 * cluster, or a k8s-windows component's args), and the one sink the Pulumi components and the policy pack report
 * through. Programs and tests read findings from the sink as data; the Pulumi side also prints them for users.
 * Framework-free: the Pulumi side subscribes its printer.
 */
import type { Severity } from '../model/types';

/** One problem with a cloud resource's inputs, at an input path (`amiType`, `nodeConfig.taints[0].effect`). */
export interface CloudFinding {
  readonly ruleId: string;
  /**
   * Which of the rule's declared messages this is (its module's `messages`, listed on its page and by
   * `k8s-windows rules --format json`): stable where the text carries values.
   * @default - none: a finding made outside a rule module
   */
  readonly messageId?: string;
  readonly severity: Severity;
  /** The input the finding is about; `''` for the resource as a whole. */
  readonly path: string;
  readonly message: string;
  readonly fix?: string;
  /**
   * The resource it is about: a component's or provider resource's name, or a policy's URN.
   * @default - not known to the reporter
   */
  readonly resource?: string;
  /**
   * The id this finding was reported under before its rule was split out of a broader one (a cluster's inline
   * pool, once under `gke-windows-cluster`): a setting or suppression naming that id still applies to it. The
   * catalogue's aliases (`meta.covers`) apply without it.
   * @default - none beyond the catalogue's aliases
   */
  readonly formerly?: string;
}

/** Receives each finding as it is reported. */
export type FindingListener = (finding: CloudFinding) => void;

/**
 * Where findings go: `report` hands a finding to every listener subscribed at that moment, in subscription order.
 * Nothing is kept without a listener, so a long-running program does not accumulate findings.
 */
export class FindingSink {
  private readonly listeners = new Set<FindingListener>();

  /** Hands the finding to every listener. */
  report(finding: CloudFinding): void {
    for (const listener of this.listeners) listener(finding);
  }

  /** Adds a listener; returns what removes it. */
  subscribe(listener: FindingListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Collects every finding reported from now on into a list, until `stop()`: what tests read.
   */
  record(): RecordedFindings {
    const findings: CloudFinding[] = [];
    const stop = this.subscribe((f) => findings.push(f));
    return {
      findings,
      clear: () => {
        findings.length = 0;
      },
      stop,
    };
  }
}

/** A recording of a sink: the findings so far, in report order. */
export interface RecordedFindings {
  readonly findings: readonly CloudFinding[];
  /** Empties the list (the recording goes on). */
  clear(): void;
  /** Ends the recording. */
  stop(): void;
}

/** The sink every k8s-windows component and the policy pack report through. */
export const cloudFindingSink = new FindingSink();
