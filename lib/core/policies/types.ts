/**
 * The admission policies' options and outputs (POLICIES.md): what `generatePolicies` takes, the cluster facts the
 * `-cluster` policies read as their parameters, and the objects it returns.
 */
import type { Cloud } from '../facts/clouds';
import type { RuleSetting } from '../model/types';

/** How the bindings act on a failed validation (POLICIES.md "Modes"). */
export type PolicyMode = 'deny' | 'warn' | 'audit';

export const POLICY_MODES: readonly PolicyMode[] = ['deny', 'warn', 'audit'];

/** The providers a pool of the cluster facts may name. */
export type PoolProvider = 'eks' | 'aks' | 'gke' | 'karpenter' | 'other';

export const POOL_PROVIDERS: readonly PoolProvider[] = ['eks', 'aks', 'gke', 'karpenter', 'other'];

/** A node taint, as a Node's spec.taints writes it. */
export interface FactsTaint {
  readonly key: string;
  /** @default - none */
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** One Windows node pool of the cluster. */
export interface ClusterPool {
  readonly name: string;
  /** @default 'other' */
  readonly provider?: PoolProvider;
  /** The Windows Server release (`'2022'`). @default - unknown */
  readonly release?: string;
  /** The `node.kubernetes.io/windows-build` of its nodes (`10.0.20348`). @default - unknown */
  readonly build?: string;
  /** @default {} */
  readonly labels?: Readonly<Record<string, string>>;
  /** @default [] */
  readonly taints?: readonly FactsTaint[];
}

/** A Windows RuntimeClass the cluster serves. */
export interface ClusterRuntimeClass {
  readonly name: string;
  readonly handler: string;
  /** @default - unknown */
  readonly build?: string;
}

/** The spec of the `WindowsClusterFacts` object: the cluster's Windows pools and RuntimeClasses. */
export interface ClusterFacts {
  /** @default [] */
  readonly pools?: readonly ClusterPool[];
  /** @default [] */
  readonly runtimeClasses?: readonly ClusterRuntimeClass[];
}

/** An object the policies leave alone, by name (and namespace, kind). */
export interface PolicyExclusion {
  /** @default - any namespace */
  readonly namespace?: string;
  readonly name: string;
  /** @default - any kind */
  readonly kind?: string;
}

/** The options every front door takes (`k8s-windows policies`, the cdk8s construct, the Pulumi component). */
export interface PolicyOptions {
  /**
   * What the validating bindings do: `deny` (errors denied, warnings shown), `warn` (errors shown and audited,
   * while a team rolls out), `audit` (only audited).
   * @default 'deny'
   */
  readonly mode?: PolicyMode;
  /**
   * Add the MutatingAdmissionPolicies that make the fixes `fix` is sure of (spec.os, the OS selector, the pools'
   * tolerations, the one build's RuntimeClass).
   * @default false
   */
  readonly mutating?: boolean;
  /**
   * The MutatingAdmissionPolicy API version: `v1` (Kubernetes 1.36 on) or `v1beta1` (1.34, 1.35 with the feature gate).
   * @default - 'v1', or 'v1beta1' for a kubernetesVersion before 1.36
   */
  readonly mutatingVersion?: 'v1' | 'v1beta1';
  /**
   * The cluster's Kubernetes version (`1.33`): refused before 1.30 (no ValidatingAdmissionPolicy v1); picks the
   * MutatingAdmissionPolicy version.
   * @default - the newest: every API the generator emits is served
   */
  readonly kubernetesVersion?: string;
  /**
   * The cloud the cluster runs on: re-levels advice as lint's `--cloud` does (gke's taint makes a missing
   * toleration a warning).
   * @default - none: the taints and labels of every cloud are accepted, as lint does
   */
  readonly cloud?: Cloud;
  /**
   * The cluster's Windows pools and RuntimeClasses: emits the WindowsClusterFacts CRD and its object.
   * @default - none: the `-cluster` policies skip their checks until a facts object exists
   */
  readonly clusterFacts?: ClusterFacts;
  /**
   * The config file's rule settings (as lint reads them): a severity re-levels a rule, `off` leaves it out (and its
   * mutation).
   * @default {}
   */
  readonly settings?: Readonly<Record<string, RuleSetting>>;
  /** Namespaces the policies never look at. @default ['kube-system', 'kube-public', 'kube-node-lease'] */
  readonly systemNamespaces?: readonly string[];
  /** Objects the policies never look at. @default [] */
  readonly exclude?: readonly PolicyExclusion[];
  /** The prefix of every generated object's name. @default 'k8s-windows' */
  readonly namePrefix?: string;
  /**
   * The name of the WindowsClusterFacts object the `-cluster` bindings reference.
   * @default 'k8s-windows'
   */
  readonly clusterFactsName?: string;
}

/** A Kubernetes object as generated (plain data, ready for YAML). */
export interface PolicyObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Readonly<Record<string, string>> };
  readonly [field: string]: unknown;
}

/** The generated objects, in apply order: CRD, facts object, policies, bindings. */
export interface PolicySet {
  readonly objects: readonly PolicyObject[];
}
