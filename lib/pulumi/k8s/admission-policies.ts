/**
 * `WindowsAdmissionPolicies`: the admission policies `k8s-windows policies` prints, as @pulumi/kubernetes resources —
 * the rules as ValidatingAdmissionPolicies the API server runs on every pod and workload, the
 * MutatingAdmissionPolicies for the sure fixes (opt-in), and the cluster facts (the WindowsClusterFacts CRD and
 * object) written from the node pools' targets, which may be Outputs.
 * @see https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
 * @see https://kubernetes.io/docs/reference/access-authn-authz/mutating-admission-policy/
 */
import * as pulumi from '@pulumi/pulumi';
import { CustomResource } from '@pulumi/kubernetes/apiextensions';
import { CustomResourceDefinition } from '@pulumi/kubernetes/apiextensions/v1';
import * as arv1 from '@pulumi/kubernetes/admissionregistration/v1';
import * as arv1beta1 from '@pulumi/kubernetes/admissionregistration/v1beta1';
import { WindowsValidationError, type ValidationIssue } from '../../core/errors';
import { generatePolicies } from '../../core/policies';
import {
  clusterFactsCrd,
  clusterFactsFromTargets,
  clusterFactsObject,
  CLUSTER_FACTS_KIND,
  type ClusterFactsPoolSource,
} from '../../core/policies/cluster-facts';
import { checkPolicyOptions } from '../../core/policies/options';
import type { ClusterFacts, PolicyObject, PolicyOptions, PoolProvider } from '../../core/policies/types';
import type { WindowsNodeTarget } from '../../core/target';
import { checkResolved, checkShapes, NODE_TARGET_SHAPE } from '../arg-shapes';
import { isEventual, plainArgs, requireArgs, throwInputErrors } from '../errors';

const TARGET_SPEC = { shape: NODE_TARGET_SHAPE, required: true } as const;

export const WINDOWS_ADMISSION_POLICIES_TYPE = 'k8s-windows:k8s:WindowsAdmissionPolicies';

/** A node pool for the facts: its name, who runs it and its `nodeTarget` (plain or an Output). */
export interface WindowsAdmissionPolicyPoolArgs {
  readonly name: pulumi.Input<string>;
  /** @default 'other' */
  readonly provider?: PoolProvider;
  readonly nodeTarget: pulumi.Input<WindowsNodeTarget>;
}

/**
 * A node-pool component of this package (`eks.WindowsNodePool`, `eks.WindowsKarpenterNodePool`,
 * `aks.WindowsNodePool`, `gke.WindowsNodePool`, …): its name and provider are read from its URN.
 */
export interface WindowsAdmissionPolicyPoolResource extends pulumi.Resource {
  readonly nodeTarget: pulumi.Input<WindowsNodeTarget>;
}

/** The policy options (`generatePolicies`'s, plain values), with the cluster facts taken from the pools. */
export interface WindowsAdmissionPoliciesArgs extends Omit<PolicyOptions, 'clusterFacts'> {
  /**
   * The cluster facts as data.
   * @default - built from `pools` and `runtimeClasses`; none when neither is given
   */
  readonly clusterFacts?: pulumi.Input<ClusterFacts>;
  /**
   * The cluster's Windows node pools: the pool components of this package, or `{ name, provider, nodeTarget }`.
   * @default []
   */
  readonly pools?: readonly (WindowsAdmissionPolicyPoolResource | WindowsAdmissionPolicyPoolArgs)[];
  /** The Windows RuntimeClasses the cluster serves (`WindowsRuntimeClass` components). @default [] */
  readonly runtimeClasses?: readonly { readonly nodeTarget: pulumi.Input<WindowsNodeTarget> }[];
}

/** The args checked before anything registers: they shape which objects exist. */
const PLAIN_ARGS = [
  'mode',
  'mutating',
  'mutatingVersion',
  'cloud',
  'settings',
  'systemNamespaces',
  'exclude',
  'namePrefix',
  'clusterFactsName',
  'kubernetesVersion',
] as const;

/** The provider of a pool component, from its type token (`k8s-windows:eks:WindowsKarpenterNodePool`). */
export function poolProviderOfType(type: string): PoolProvider {
  const [, module, kind] = type.split(':');
  if (module === 'eks' && kind === 'WindowsKarpenterNodePool') return 'karpenter';
  if (module === 'eks' || module === 'aks' || module === 'gke') return module;
  return 'other';
}

/** Name and type token of a URN: `urn:pulumi:stack::project::parent$type::name`. */
function urnParts(urn: string): { name: string; type: string } {
  const parts = urn.split('::');
  const name = parts[parts.length - 1] ?? '';
  const types = (parts[parts.length - 2] ?? '').split('$');
  return { name, type: types[types.length - 1] ?? '' };
}

/** One pool, its name and provider resolved. */
function poolSource(
  subject: string,
  pool: WindowsAdmissionPolicyPoolResource | WindowsAdmissionPolicyPoolArgs,
  i: number,
): pulumi.Output<ClusterFactsPoolSource> {
  const target = (t: unknown) => checkResolved<WindowsNodeTarget>(subject, TARGET_SPEC, t, `pools[${i}].nodeTarget`);
  if (pulumi.Resource.isInstance(pool)) {
    const resource = pool as WindowsAdmissionPolicyPoolResource;
    return pulumi.all([resource.urn, pulumi.output(resource.nodeTarget)]).apply(([urn, nodeTarget]) => {
      const { name, type } = urnParts(urn);
      return { name, provider: poolProviderOfType(type), nodeTarget: target(nodeTarget) };
    });
  }
  const p = pool as WindowsAdmissionPolicyPoolArgs;
  return pulumi.all([p.name, pulumi.output(p.nodeTarget)]).apply(([name, nodeTarget]) => ({
    name,
    ...(p.provider !== undefined ? { provider: p.provider } : {}),
    nodeTarget: target(nodeTarget),
  }));
}

/** The @pulumi/kubernetes resource for one generated object. */
function resourceFor(name: string, o: PolicyObject, opts: pulumi.CustomResourceOptions): pulumi.CustomResource {
  // The generated objects are the resources' args as they are: plain data, already in the API's shape.
  const args = <T>(): T => o as unknown as T;
  switch (`${o.apiVersion}/${o.kind}`) {
    case 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy':
      return new arv1.ValidatingAdmissionPolicy(name, args<arv1.ValidatingAdmissionPolicyArgs>(), opts);
    case 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding':
      return new arv1.ValidatingAdmissionPolicyBinding(name, args<arv1.ValidatingAdmissionPolicyBindingArgs>(), opts);
    case 'admissionregistration.k8s.io/v1/MutatingAdmissionPolicy':
      return new arv1.MutatingAdmissionPolicy(name, args<arv1.MutatingAdmissionPolicyArgs>(), opts);
    case 'admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding':
      return new arv1.MutatingAdmissionPolicyBinding(name, args<arv1.MutatingAdmissionPolicyBindingArgs>(), opts);
    case 'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy':
      return new arv1beta1.MutatingAdmissionPolicy(name, args<arv1beta1.MutatingAdmissionPolicyArgs>(), opts);
    case 'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding':
      return new arv1beta1.MutatingAdmissionPolicyBinding(
        name,
        args<arv1beta1.MutatingAdmissionPolicyBindingArgs>(),
        opts,
      );
    default:
      throw new Error(
        `WindowsAdmissionPolicies cannot create ${o.apiVersion} ${o.kind}: the generator made an object it does not know`,
      );
  }
}

/** A short resource-name part per kind, so a policy and its binding (same metadata.name) stay apart. */
const KIND_PART: Readonly<Record<string, string>> = {
  ValidatingAdmissionPolicy: 'vap',
  ValidatingAdmissionPolicyBinding: 'vapb',
  MutatingAdmissionPolicy: 'map',
  MutatingAdmissionPolicyBinding: 'mapb',
};

/**
 * The admission policies for a cluster with Windows nodes, with the cluster facts from its pools. Bad args throw
 * one `pulumi.InputPropertiesError` naming every bad property, before anything registers; facts that are only known
 * later (pool targets as Outputs) are checked once they resolve.
 *
 * @example
 * const pool = new eks.WindowsNodePool('win', { ... });
 * new WindowsAdmissionPolicies('policies', { pools: [pool], mutating: true }, { provider: k8sProvider });
 */
export class WindowsAdmissionPolicies extends pulumi.ComponentResource {
  /** The policies and bindings, by `metadata.name` and kind (`ValidatingAdmissionPolicy/k8s-windows-pod-deny`). */
  public readonly policies: Readonly<Record<string, pulumi.CustomResource>>;
  /** The WindowsClusterFacts CRD, when facts are written or a policy reads them. */
  public readonly factsDefinition?: CustomResourceDefinition;
  /** The WindowsClusterFacts object, when facts are written. */
  public readonly facts?: CustomResource;

  constructor(name: string, rawArgs: WindowsAdmissionPoliciesArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const subject = `WindowsAdmissionPolicies '${name}'`;
    const given = requireArgs(subject, rawArgs);
    const { args, issues } = plainArgs(given, [...PLAIN_ARGS]);
    const { pools = [], runtimeClasses = [], clusterFacts, ...options } = args;
    const factsPlain = clusterFacts !== undefined && !isEventual(clusterFacts);
    issues.push(
      ...checkPolicyOptions({
        ...options,
        ...(factsPlain ? { clusterFacts: clusterFacts as ClusterFacts } : {}),
      }),
    );
    if (!Array.isArray(pools)) {
      issues.push({ path: 'pools', message: 'pools is not a list.', fix: 'Pass a list of node pools: [pool].' });
    }
    if (!Array.isArray(runtimeClasses)) {
      issues.push({
        path: 'runtimeClasses',
        message: 'runtimeClasses is not a list.',
        fix: 'Pass a list: [runtimeClass].',
      });
    }
    const fromPools =
      (Array.isArray(pools) && pools.length > 0) || (Array.isArray(runtimeClasses) && runtimeClasses.length > 0);
    if (clusterFacts !== undefined && fromPools) {
      issues.push({
        path: 'clusterFacts',
        message: 'clusterFacts and pools (or runtimeClasses) both give the cluster facts.',
        fix: 'Give the pools, or write the facts yourself, not both.',
      });
    }
    (Array.isArray(pools) ? pools : []).forEach((p, i) => {
      if (typeof p !== 'object' || p === null || !('nodeTarget' in p)) {
        issues.push({
          path: `pools[${i}]`,
          message: 'This is not a node pool: it has no nodeTarget.',
          fix: 'Pass a pool component (eks.WindowsNodePool, …) or { name, provider, nodeTarget }.',
        });
      } else if (!pulumi.Resource.isInstance(p) && (p as WindowsAdmissionPolicyPoolArgs).name === undefined) {
        issues.push({ path: `pools[${i}].name`, message: 'The pool has no name.', fix: "Give it the pool's name." });
      }
    });
    // A node target's shape (plain now, an Output once it resolves), as every component checks it.
    const listed = (Array.isArray(pools) ? pools : []).map((p, i) => [p, `pools[${i}].`] as const);
    const classes = (Array.isArray(runtimeClasses) ? runtimeClasses : []).map(
      (r, i) => [r, `runtimeClasses[${i}].`] as const,
    );
    for (const [entry, prefix] of [...listed, ...classes]) {
      if (typeof entry === 'object' && entry !== null && 'nodeTarget' in entry) {
        issues.push(...checkShapes({ nodeTarget: entry.nodeTarget }, { nodeTarget: TARGET_SPEC }, prefix));
      }
    }
    throwInputErrors(subject, issues);
    super(WINDOWS_ADMISSION_POLICIES_TYPE, name, {}, opts);

    // The facts, as an Output when any pool target is one; checked (again) once known.
    const facts: pulumi.Output<ClusterFacts> | undefined =
      clusterFacts !== undefined
        ? pulumi
            .output(clusterFacts)
            .apply((f) =>
              checked(subject, 'clusterFacts', () => (clusterFactsObject(f as ClusterFacts), f as ClusterFacts)),
            )
        : fromPools
          ? pulumi
              .all([
                pulumi.all(pools.map((p, i) => poolSource(subject, p, i))),
                pulumi.all(
                  runtimeClasses.map((r, i) =>
                    pulumi
                      .output(r.nodeTarget)
                      .apply((t) =>
                        checkResolved<WindowsNodeTarget>(subject, TARGET_SPEC, t, `runtimeClasses[${i}].nodeTarget`),
                      ),
                  ),
                ),
              ])
              .apply(([sources, targets]) =>
                checked(subject, '', () => clusterFactsFromTargets(sources, targets as WindowsNodeTarget[])),
              )
          : undefined;

    const objects = generatePolicies(options).objects;
    // The CRD goes with the facts or with any policy that reads them (generatePolicies lists it then); created here
    // once, so the facts object can depend on it.
    if (facts !== undefined || objects.some((o) => o.kind === 'CustomResourceDefinition')) {
      const crd = clusterFactsCrd();
      this.factsDefinition = new CustomResourceDefinition(
        `${name}-crd`,
        crd as unknown as ConstructorParameters<typeof CustomResourceDefinition>[1],
        {
          parent: this,
        },
      );
    }
    if (facts !== undefined) {
      const factsName = options.clusterFactsName;
      this.facts = new CustomResource(
        `${name}-facts`,
        {
          apiVersion: 'k8s-windows.io/v1alpha1',
          kind: CLUSTER_FACTS_KIND,
          metadata: { name: facts.apply((f) => String(clusterFactsObject(f, factsName).metadata.name)) },
          spec: facts.apply((f) => clusterFactsObject(f, factsName).spec as Record<string, unknown>),
        },
        // The API server knows the kind only once the CRD is established.
        { parent: this, ...(this.factsDefinition ? { dependsOn: [this.factsDefinition] } : {}) },
      );
    }

    const policies: Record<string, pulumi.CustomResource> = {};
    for (const o of objects.filter((x) => KIND_PART[x.kind] !== undefined)) {
      const part = KIND_PART[o.kind];
      const policy = o.kind.endsWith('Binding')
        ? policies[`${o.kind.replace(/Binding$/, '')}/${o.metadata.name}`]
        : undefined;
      policies[`${o.kind}/${o.metadata.name}`] = resourceFor(`${name}-${part}-${o.metadata.name}`, o, {
        parent: this,
        // A binding to a policy not created yet is ignored by the API server until it is: create the policy first.
        ...(policy ? { dependsOn: [policy] } : {}),
      });
    }
    this.policies = policies;
    this.registerOutputs({});
  }
}

/** Runs a core builder on resolved values; its `WindowsValidationError` becomes an InputPropertiesError. */
function checked<T>(subject: string, prefix: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (!(e instanceof WindowsValidationError)) throw e;
    const issues: ValidationIssue[] = e.issues.map((i) => ({
      ...i,
      path: prefix === '' ? i.path.replace(/^spec\./, '') : i.path.replace(/^spec\b/, prefix),
    }));
    throwInputErrors(subject, issues);
    throw e;
  }
}
