/**
 * `GmsaCredentialSpec`: a `windows.k8s.io/v1` GMSACredentialSpec built from typed args with the core's credspec
 * model, plus the least-privilege RBAC grant the gMSA webhook checks (https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/).
 */
import * as pulumi from '@pulumi/pulumi';
import { CustomResource } from '@pulumi/kubernetes/apiextensions';
import { ClusterRole, RoleBinding } from '@pulumi/kubernetes/rbac/v1';
import type { ValidationIssue } from '../../core/errors';
import {
  GMSA_API_GROUP,
  GMSA_API_VERSION,
  GMSA_KIND,
  GMSA_RESOURCE,
  GMSA_USE_VERB,
  judgeEmittedCredentialSpec,
  renderCredentialSpec,
  type CredentialSpecDocument,
  type GmsaAccount,
  type GmsaDomain,
  type GmsaHostAccountConfig,
} from '../../core/gmsa-credspec';
import { isDns1123Subdomain } from '../../core/windows-options';
import { requireArgs, throwInputErrors } from '../errors';
import { logWarnings } from '../node-pool';
import { checkShapes, describeValue, list, object, record, str, type ArgShapes } from '../arg-shapes';

const requiredString = { shape: str(), required: true } as const;

/** The shape of every arg (see `../arg-shapes`), checked before anything else reads them. */
const GMSA_SHAPES: ArgShapes = {
  name: { shape: str(), example: "'webapp01'" },
  domain: {
    shape: object({
      dnsName: requiredString,
      netBiosName: requiredString,
      sid: requiredString,
      guid: requiredString,
      dnsTreeName: { shape: str() },
      machineAccountName: { shape: str() },
    }),
    required: true,
    example: "{ dnsName: 'contoso.com', netBiosName: 'CONTOSO', sid: 'S-1-5-21-…', guid: '…' } (Get-ADDomain)",
  },
  accounts: {
    shape: list(object({ name: requiredString, scope: { shape: str() } })),
    required: true,
    example: "[{ name: 'WebApp01' }]",
  },
  hostAccountConfig: {
    shape: object({ pluginGuid: requiredString, pluginInput: requiredString, portableCcgVersion: { shape: str() } }),
    example: 'azureKeyVaultHostAccount({ ... })',
  },
  labels: { shape: record(str()), example: "{ 'example.com/team': 'web' }" },
};
import type { GmsaCredentialSpecReference } from './windows-pod';

const RBAC_API_GROUP = 'rbac.authorization.k8s.io';
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface GmsaCredentialSpecArgs {
  /**
   * `metadata.name`, what pods name in `gmsaCredentialSpecName`: a lowercase DNS-1123 subdomain. Set explicitly
   * (never auto-named) so workloads can name it before it exists.
   * @default - the Pulumi resource name
   */
  readonly name?: string;
  /** The Active Directory domain (`Get-ADDomain`). */
  readonly domain: GmsaDomain;
  /** The gMSAs, the one containers run as first. An account without `scope` is listed for both domain names. */
  readonly accounts: readonly GmsaAccount[];
  /**
   * Portable CCG settings for nodes that are not domain-joined: `azureKeyVaultHostAccount()` on AKS,
   * `awsSecretsManagerHostAccount()` on EKS.
   * @default - none: the Windows nodes are domain-joined
   */
  readonly hostAccountConfig?: GmsaHostAccountConfig;
  /**
   * Labels of the object.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The RBAC objects `grantUse` creates. */
export interface GmsaUseGrant {
  /** The ClusterRole allowing `use` on this credspec only (shared by every grant of the credspec). */
  readonly clusterRole: ClusterRole;
  /** The RoleBinding of the service account, in its namespace. */
  readonly roleBinding: RoleBinding;
}

/**
 * A cluster-scoped `GMSACredentialSpec` (the credspec at the top level, as the CRD keeps it). Args are plain and
 * checked in the constructor by the gmsa-credspec-* rule modules on the object it emits: every error is thrown at
 * once as a `pulumi.InputPropertiesError` (the rule's id, the object's path and lint's message, the fix naming the
 * arg to set) before anything registers; unambiguous spellings (a domain GUID in braces) are normalised and
 * reported with `pulumi.log.warn`.
 *
 * Pass it as a workload's `windows.gmsa` and grant the workload's service account with `grantUse`.
 * @see https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/
 */
export class GmsaCredentialSpec extends pulumi.ComponentResource implements GmsaCredentialSpecReference {
  /** `metadata.name` of the GMSACredentialSpec. */
  public readonly credentialSpecName: string;
  /** The rendered credspec document. */
  public readonly credspec: CredentialSpecDocument;
  /** The `windows.k8s.io/v1` GMSACredentialSpec object. */
  public readonly resource: CustomResource;
  private readonly resourceName: string;
  private clusterRole?: ClusterRole;
  private readonly grants = new Map<string, GmsaUseGrant>();

  constructor(name: string, rawArgs: GmsaCredentialSpecArgs, opts?: pulumi.ComponentResourceOptions) {
    const subject = `GmsaCredentialSpec '${name}'`;
    const args = requireArgs(subject, rawArgs);
    // The credspec builder reads every field: wrong shapes are refused before it runs.
    throwInputErrors(subject, checkShapes(args, GMSA_SHAPES));
    const credentialSpecName = args.name ?? name; // pods must name it before it exists: never auto-named
    const rendered = renderCredentialSpec(args);
    const metadata = { name: credentialSpecName, ...(args.labels ? { labels: { ...args.labels } } : {}) };
    // The rule modules judge the object as it is emitted, as lint would, before anything registers.
    const { refusals, warnings } = judgeEmittedCredentialSpec(
      { apiVersion: GMSA_API_VERSION, kind: GMSA_KIND, metadata, credspec: rendered.credspec },
      'pulumi',
    );
    // Refusals go to the findings sink too, beside the warnings: programs and tests read both as data.
    throwInputErrors(subject, refusals, name);

    super('k8s-windows:kubernetes:GmsaCredentialSpec', name, {}, opts);
    logWarnings([...rendered.normalised, ...warnings], this, name);
    this.resourceName = name;
    this.credentialSpecName = credentialSpecName;
    this.credspec = rendered.credspec;
    this.resource = new CustomResource(
      name,
      {
        apiVersion: GMSA_API_VERSION,
        kind: GMSA_KIND,
        metadata,
        // The CRD keeps `credspec` at the top level (not under `spec`) and prunes unknown keys.
        credspec: rendered.credspec,
      },
      { parent: this },
    );
    this.registerOutputs({ credentialSpecName });
  }

  /**
   * Lets a service account run pods as this gMSA: a ClusterRole allowing `use` on this credspec only (created on
   * the first grant), bound by a RoleBinding in the service account's namespace. Repeat calls for the same account
   * return the same grant. Throws `pulumi.InputPropertiesError` for names Kubernetes would refuse.
   */
  public grantUse(serviceAccountName: string, namespace: string): GmsaUseGrant {
    const issues: ValidationIssue[] = [];
    if (typeof serviceAccountName !== 'string' || !isDns1123Subdomain(serviceAccountName)) {
      issues.push({
        path: 'serviceAccountName',
        message: `Service account name ${describeValue(serviceAccountName)} is not a lowercase DNS-1123 subdomain.`,
        fix: 'Use the ServiceAccount object name.',
      });
    }
    if (typeof namespace !== 'string' || !DNS1123_LABEL.test(namespace)) {
      issues.push({
        path: 'namespace',
        message: `Namespace ${describeValue(namespace)} is not a lowercase DNS-1123 label.`,
        fix: 'Use the Namespace object name.',
      });
    }
    throwInputErrors(`GmsaCredentialSpec '${this.resourceName}'.grantUse`, issues);

    const key = `${namespace}/${serviceAccountName}`;
    const existing = this.grants.get(key);
    if (existing) return existing;
    const clusterRole = this.useRole();
    const roleBinding = new RoleBinding(
      `${this.resourceName}-use-${namespace}-${serviceAccountName}`,
      {
        metadata: { name: `${this.credentialSpecName}-gmsa-use-${serviceAccountName}`, namespace },
        roleRef: { apiGroup: RBAC_API_GROUP, kind: 'ClusterRole', name: clusterRole.metadata.name },
        subjects: [{ kind: 'ServiceAccount', name: serviceAccountName, namespace }],
      },
      { parent: this },
    );
    const grant = { clusterRole, roleBinding };
    this.grants.set(key, grant);
    return grant;
  }

  private useRole(): ClusterRole {
    this.clusterRole ??= new ClusterRole(
      `${this.resourceName}-use`,
      {
        metadata: { name: `${this.credentialSpecName}-gmsa-use` },
        rules: [
          {
            apiGroups: [GMSA_API_GROUP],
            resources: [GMSA_RESOURCE],
            verbs: [GMSA_USE_VERB],
            resourceNames: [this.credentialSpecName],
          },
        ],
      },
      { parent: this },
    );
    return this.clusterRole;
  }
}
