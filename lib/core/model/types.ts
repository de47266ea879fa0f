/** The public shapes of the rule engine: diagnostics, rule metadata and options. */
import type { Cloud } from '../cloud-gates';
import type { ValidationIssue } from '../errors';
import type { WindowsRelease } from '../releases';
import type { ImageLookups } from './image-lookup';
import type { PodTemplateKind } from '../pod-templates';

export type Severity = 'error' | 'warning' | 'info';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export interface ResourceRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
  /** File (or construct path) the object came from. */
  readonly source?: string;
}

/** Where a finding is: the object it is about and the field in it, read by every consumer instead of re-derived. */
export interface DiagnosticLocation {
  /** The object's index in the array given to `validateManifests`. */
  readonly object: number;
  /** The field as segments: `['spec', 'nodeSelector', 'kubernetes.io/os']` for `spec.nodeSelector[kubernetes.io/os]`. */
  readonly segments: readonly (string | number)[];
  /**
   * Where the field (or, when it is absent, its nearest present parent) stands in the text the object was loaded
   * from; absent for objects no loader read (built in code).
   */
  readonly position?: { readonly source?: string; readonly line: number; readonly column: number };
}

/**
 * One thing wrong, as every rule reports it: a `ValidationIssue` (the field, what is wrong with its value, what to
 * write instead) under a rule's id and severity. Diagnostics of manifests, cloud findings of the policy pack and
 * credspec problems are findings.
 */
export interface Finding extends ValidationIssue {
  /** Stable kebab-case id, e.g. `windows-forbidden-field`: the catalogue (`RULES`) lists them all. */
  readonly ruleId: string;
  readonly severity: Severity;
}

/** A finding on a Kubernetes object: the object it is about, and where in it. */
export interface Diagnostic extends Finding {
  /** API-server notation: `spec.template.spec.containers[0].securityContext.runAsUser`. */
  readonly path: string;
  readonly resource: ResourceRef;
  /** The object and field, structured; `validateManifests` always sets it. */
  readonly location?: DiagnosticLocation;
  /**
   * The suppression written for this finding (an annotation on the object, an entry of the config file). Findings
   * it hides are returned only with `includeSuppressed`; one it may not hide (`honoured: false`) is reported as usual.
   */
  readonly suppression?: SuppressionInfo;
}

/** A suppression that matched a finding: where it was written, why, and whether it hides the finding. */
export interface SuppressionInfo {
  /** Written on the object (an annotation) or in the config file. */
  readonly kind: 'annotation' | 'config';
  /** The reason the user wrote. */
  readonly reason: string;
  /** Where: `metadata.annotations[suppress.k8s-windows.io/windows-startup-probe]`, `.k8s-windows.yaml suppressions[0]`. */
  readonly from: string;
  /**
   * `false` when the finding stays reported whatever the suppression says: an error the API server rejects the
   * object for (a suppression hides a judgement, never a refusal that will happen anyway).
   */
  readonly honoured: boolean;
}

/** A suppression in the config file: the rules it hides on the objects it names, and why. */
export interface ConfigSuppression {
  /** Rule ids, or `*` for every rule. */
  readonly rules: readonly string[];
  /** Match objects of this kind (`Deployment`). @default - any kind */
  readonly kind?: string;
  /** Match objects in this namespace (a glob: `team-*`). @default - any namespace */
  readonly namespace?: string;
  /** Match objects with this name (a glob: `legacy-*`). @default - any name */
  readonly name?: string;
  /** Why the finding is accepted: shown beside every finding it hides. */
  readonly reason: string;
  /** Where it was written (`.k8s-windows.yaml suppressions[0]`), for the report. */
  readonly from?: string;
}

export type RuleFamily =
  | 'api-server'
  | 'host-process'
  | 'windows-options'
  | 'gmsa'
  | 'scheduling'
  | 'images'
  | 'pod-features'
  | 'resources'
  | 'probes'
  | 'services'
  | 'pod-security'
  | 'node-pools'
  | 'eks'
  | 'aks'
  | 'gke'
  | 'input';

export interface RuleInfo {
  readonly id: string;
  readonly family: RuleFamily;
  readonly defaultSeverity: Severity;
  /** One line. */
  readonly summary: string;
  /** Why it matters on Windows. */
  readonly rationale: string;
  /** Upstream documentation. */
  readonly docs: string;
  /** Why the rule sits at its default severity: what happens to the workload. */
  readonly severityReason: string;
  /**
   * The API server (or its Pod Security admission) refuses an object this rule reports as an error: a suppression
   * cannot make it run, so such a finding stays reported whatever the suppression says.
   */
  readonly rejectedByApiServer?: boolean;
  /**
   * The constructs (cdk8s workloads, Pulumi components, `toWindowsPodSpec`; `GmsaCredentialSpec` for the rules of
   * GMSACredentialSpec objects) run this rule on the pod or object they are about to emit: an error refuses it with
   * the rule's id, path and message, a lower severity is a construct warning.
   */
  readonly refusedByConstructs?: boolean;
  /**
   * How `fixManifests` (`k8s-windows fix`) fixes a finding of this rule, in one line; absent when it cannot. A
   * fixable rule's fixer may still leave a finding alone when the fix is not certain for it (then it stays reported).
   */
  readonly fixable?: string;
  /**
   * The setting without which the fixer changes nothing: `tolerations` (the taints to tolerate, from `--toleration`
   * or a cloud preset that taints) or `pinLinux` (`--pin-linux`). `lint` then names the option instead of calling the
   * finding fixable by plain `fix`.
   * @default - none: plain `fix` fixes what the rule reports
   */
  readonly fixNeeds?: 'tolerations' | 'pinLinux';
  /**
   * The rule reads what the files say of other objects where a live cluster's nodes answer better: `doctor` turns it
   * off and reports its own node-based finding instead.
   * @default false
   */
  readonly replacedInCluster?: boolean;
  /**
   * The cases in which the rule reports at another severity than its default, each with when and why; absent when
   * every finding has the default.
   */
  readonly cases?: readonly { readonly name: string; readonly severity: Severity; readonly when: string }[];
  /**
   * The rules this one was split into, when it was a broader rule: an alias. It reports nothing itself, and its id
   * still names every one of them in settings, suppressions and policy-pack settings (ids are never renamed).
   * @default - none: the rule reports its own findings
   */
  readonly covers?: readonly string[];
}

/** Per-rule settings: `'off'` disables, a severity re-levels. */
export type RuleSetting = Severity | 'off';

export interface ValidateOptions {
  /**
   * Disable or re-level rules by id.
   * @default {}
   */
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  /**
   * The Windows release the cluster's Windows nodes run, used for image checks when a pod does not pin one.
   * @default - unknown: image/host checks need a pinned release
   */
  readonly windowsRelease?: WindowsRelease;
  /**
   * The Kubernetes version of the cluster (`1.30`): objects are checked against its API (apiVersions it no longer
   * serves, fields its types do not have: lib/core/api), and version-dependent rules (Pod Security, releases)
   * follow it.
   * @default - the newest version the package knows (its API data, its rules)
   */
  readonly kubernetesVersion?: string;
  /**
   * The cloud the cluster runs on. Re-levels advice that depends on its defaults: `gke` taints Windows nodes (a
   * missing toleration is a warning), `eks` needs the kubernetes.io/os nodeSelector for pod IPs.
   * @default - unknown: such advice stays info
   */
  readonly cloud?: Cloud;
  /**
   * The day support and retirements are judged at (`YYYY-MM-DD`, `k8s-windows lint --date`): a release a cloud
   * retired before it is refused by that cloud's gate, with no code change. Fix it for reproducible runs.
   * @default - today (UTC)
   */
  readonly date?: string;
  /**
   * Which objects the cross-object rules let interact (Linux pods beside Windows pods, Services in front of them,
   * credspec names, RBAC that makes a missing grant certain): `'source'` keeps each loaded file (or stream) apart,
   * so a directory of unrelated manifests does not mix; `'set'` treats the input as one application, as the cdk8s
   * plugin does for the charts of one app. Pods look up what they name (namespace, RuntimeClass, credspec, grants)
   * in the whole set either way.
   * @default 'source'
   */
  readonly crossObjectScope?: 'source' | 'set';
  /**
   * Suppressions from a config file, by rule and object (kind, namespace, name). Annotations on the objects
   * themselves (`suppress.k8s-windows.io/<rule-id>: <reason>`) are read in any case.
   * @default []
   */
  readonly suppressions?: readonly ConfigSuppression[];
  /**
   * Also return the findings a suppression hides, each with its `suppression` (for reports that list them, such
   * as SARIF's `suppressions`).
   * @default false
   */
  readonly includeSuppressed?: boolean;
  /**
   * What registries say about the images, by reference as written (`k8s-windows lint --resolve-images`, or
   * `resolveImages` in code): the image rules then judge platforms, builds and users instead of tags. An answer
   * here, whatever it is, wins over the bundled records of well-known images (lib/core/facts/well-known-images.ts),
   * which answer for the images it leaves out.
   * @default - none: images are judged by their tags and the well-known records
   */
  readonly images?: ImageLookups;
  /**
   * Custom resource kinds whose objects hold a pod template (`template: 'spec.template'`) or a pod spec
   * (`podSpec: 'spec.runner'`), judged as workloads are: the config file's `podTemplates`. An entry wins over a
   * well-known kind's own (lib/core/pod-templates.ts: Argo Rollouts and Workflows, KEDA ScaledJob, OpenShift
   * DeploymentConfig, Knative Serving). A bad entry throws `WindowsValidationError` naming it.
   * @default []
   */
  readonly podTemplates?: readonly PodTemplateKind[];
}

/**
 * The prefix of the annotation that suppresses one rule on one object, its value the reason:
 * `suppress.k8s-windows.io/windows-startup-probe: "the app answers its liveness probe within 10 s"` (as
 * kube-linter's `ignore-check.kube-linter.io/<check>` does).
 */
export const SUPPRESS_ANNOTATION_PREFIX = 'suppress.k8s-windows.io/';

/**
 * The older annotation that waives rules on one resource without a reason: a comma-separated list of rule ids,
 * or `*`. Still read; `suppression-invalid` asks for the per-rule annotation with a reason instead.
 */
export const WAIVE_ANNOTATION = 'k8s-windows.io/waive';
