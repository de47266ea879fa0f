/**
 * `WindowsAdmissionPolicies`: the admission policies `k8s-windows policies` prints, as cdk8s objects — the rules as
 * ValidatingAdmissionPolicies the API server runs on every pod and workload, the MutatingAdmissionPolicies for the
 * sure fixes (opt-in), and the cluster facts (the WindowsClusterFacts CRD and object) from the node pools of the app.
 * @see https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
 * @see https://kubernetes.io/docs/reference/access-authn-authz/mutating-admission-policy/
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { IssueCollector, WindowsValidationError } from '../core/errors';
import type * as Policies from '../core/policies';
import type { ClusterFactsPoolSource } from '../core/policies/cluster-facts';
import type { ClusterFacts, PolicyOptions, PoolProvider } from '../core/policies/types';
import type { WindowsNodeTarget } from '../core/target';
import { markClusterScoped } from './gmsa';
import { WindowsKarpenterNodePool } from './karpenter';
import { refuseIfAny } from './refusal';

/** A node pool of the cluster, for the facts: its name, who runs it and the node target it exposes. */
export interface WindowsAdmissionPolicyPool {
  readonly name: string;
  /** @default 'other' */
  readonly provider?: PoolProvider;
  /** The pool's `nodeTarget` (its release, labels and taints). */
  readonly nodeTarget: WindowsNodeTarget;
}

/** Something that names a Windows RuntimeClass: a `WindowsRuntimeClass` (its `nodeTarget` carries the name). */
export interface WindowsAdmissionPolicyRuntimeClass {
  readonly nodeTarget: WindowsNodeTarget;
}

/** The policy options (`generatePolicies`'s), with the cluster facts taken from the app's pools. */
export interface WindowsAdmissionPoliciesProps extends Omit<PolicyOptions, 'clusterFacts'> {
  /**
   * The cluster facts as data (`pools`, `runtimeClasses`), when the app has no pool constructs to take them from.
   * @default - built from `pools` and `runtimeClasses`; none when neither is given
   */
  readonly clusterFacts?: ClusterFacts;
  /**
   * The cluster's Windows node pools: `WindowsKarpenterNodePool` constructs of the app, or any pool's node target
   * with its name. Written into the facts object the `-cluster` policies read.
   * @default []
   */
  readonly pools?: readonly (WindowsKarpenterNodePool | WindowsAdmissionPolicyPool)[];
  /**
   * The Windows RuntimeClasses the cluster serves (`WindowsRuntimeClass` constructs): written into the facts.
   * @default []
   */
  readonly runtimeClasses?: readonly WindowsAdmissionPolicyRuntimeClass[];
}

/** The facts' pool of a prop entry. */
function poolSource(pool: WindowsKarpenterNodePool | WindowsAdmissionPolicyPool): ClusterFactsPoolSource {
  if (pool instanceof WindowsKarpenterNodePool) {
    return { name: String(pool.nodePool.metadata.name), provider: 'karpenter', nodeTarget: pool.nodeTarget };
  }
  return pool;
}

/**
 * The generator, loaded by the first `WindowsAdmissionPolicies` rather than at import: it reads every rule module
 * (their CEL forms), which a cdk8s app that only builds workloads never needs.
 */
function generator(): typeof Policies {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../core/policies') as typeof Policies;
}

/**
 * The admission policies for a cluster with Windows nodes. Every object is cluster-scoped (the chart's namespace is
 * left off); the facts CRD is emitted before its object. Throws `WindowsValidationError` naming every bad prop.
 *
 * @example
 * const pool = new WindowsKarpenterNodePool(chart, 'win', { release: '2022', role: 'KarpenterNodeRole', subnetSelectorTerms, securityGroupSelectorTerms });
 * new WindowsAdmissionPolicies(chart, 'policies', { pools: [pool], mutating: true });
 */
export class WindowsAdmissionPolicies extends Construct {
  /** Every object, in apply order (CRD, facts, policies, bindings). */
  public readonly apiObjects: readonly ApiObject[];
  /** The cluster facts written, when there are any. */
  public readonly clusterFacts?: ClusterFacts;

  constructor(scope: Construct, id: string, props: WindowsAdmissionPoliciesProps = {}) {
    super(scope, id);
    const { checkPolicyOptions, clusterFactsFromTargets, generatePolicies, CLUSTER_FACTS_CRD_NAME } = generator();
    const issues = new IssueCollector();
    const { pools, runtimeClasses, clusterFacts: given, ...rest } = props;
    for (const i of checkPolicyOptions({ ...rest, ...(given !== undefined ? { clusterFacts: given } : {}) })) {
      issues.add(i.path, i.message, i.fix);
    }
    const fromPools = (pools?.length ?? 0) > 0 || (runtimeClasses?.length ?? 0) > 0;
    if (given !== undefined && fromPools) {
      issues.add(
        'clusterFacts',
        'clusterFacts and pools (or runtimeClasses) both give the cluster facts.',
        'Give the pools, or write the facts yourself, not both.',
      );
    }
    let facts = given;
    if (given === undefined && fromPools) {
      try {
        facts = clusterFactsFromTargets(
          (pools ?? []).map(poolSource),
          (runtimeClasses ?? []).map((r) => r.nodeTarget),
        );
      } catch (e) {
        if (!(e instanceof WindowsValidationError)) throw e;
        for (const i of e.issues) issues.add(i.path.replace(/^spec\./, ''), i.message, i.fix);
      }
    }
    refuseIfAny(this, issues);

    const options: PolicyOptions = { ...rest, ...(facts !== undefined ? { clusterFacts: facts } : {}) };
    const objects: ApiObject[] = [];
    for (const o of generatePolicies(options).objects) {
      const { apiVersion, kind, metadata, ...body } = o;
      const obj = new ApiObject(this, `${kind}-${metadata.name}`, {
        apiVersion,
        kind,
        metadata: { ...metadata },
        ...body,
      });
      markClusterScoped(obj);
      objects.push(obj);
    }
    const crd = objects.find((o) => o.kind === 'CustomResourceDefinition' && o.name === CLUSTER_FACTS_CRD_NAME);
    const factsObject = objects.find((o) => o.kind === 'WindowsClusterFacts');
    if (crd && factsObject) factsObject.addDependency(crd);
    this.apiObjects = objects;
    if (facts !== undefined) this.clusterFacts = facts;
  }
}
