/**
 * `GmsaCredentialSpec`: a `windows.k8s.io/v1` GMSACredentialSpec built from typed props and checked before
 * synthesis, plus the least-privilege RBAC the gMSA webhook asks for (https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/, https://github.com/kubernetes-sigs/windows-gmsa).
 */
import { ApiObject, Chart, JsonPatch, type ApiObjectMetadata } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { WindowsValidationError } from '../core/errors';
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
} from '../core/gmsa-credspec';
import { gmsaCredentialSpecNameProblems } from '../core/windows-options';
import { WindowsAnnotations } from './annotations';
import type { IGmsaCredentialSpec } from './windows-props';
import { refuse } from './refusal';

/** Drops `metadata.namespace` a namespaced chart puts on every object: these objects are cluster-scoped. */
export function markClusterScoped(obj: ApiObject): void {
  if (Chart.of(obj).namespace !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
}

/**
 * A gMSA credential spec that service accounts can be granted. Both the constructed and the imported
 * (`GmsaCredentialSpec.fromName`) spec implement it; `grantUse` is the same for both.
 */
export interface IGmsaCredentialSpecRef extends IGmsaCredentialSpec, kplus.IApiResource, kplus.IApiEndpoint {
  /** `metadata.name`: what pods put in `windowsOptions.gmsaCredentialSpecName`. */
  readonly name: string;
  /**
   * Lets a service account run pods as this gMSA: a ClusterRole allowing `use` on this credspec only (created
   * once), bound by a RoleBinding in the service account's namespace (one per service account; repeat calls
   * return the same binding).
   */
  grantUse(serviceAccount: kplus.IServiceAccount): kplus.RoleBinding;
}

abstract class GmsaCredentialSpecBase extends Construct implements IGmsaCredentialSpecRef {
  public abstract readonly name: string;
  public readonly apiGroup = GMSA_API_GROUP;
  public readonly resourceType = GMSA_RESOURCE;
  private role?: kplus.ClusterRole;

  public get resourceName(): string {
    return this.name;
  }

  public asApiResource(): kplus.IApiResource {
    return this;
  }

  public asNonApiResource(): undefined {
    return undefined;
  }

  /** The ClusterRole allowing `use` on this credspec only; created on first access. */
  public get useRole(): kplus.IClusterRole {
    if (this.role === undefined) {
      this.role = new kplus.ClusterRole(this, 'UseRole', { rules: [{ verbs: [GMSA_USE_VERB], endpoints: [this] }] });
      markClusterScoped(ApiObject.of(this.role));
    }
    return this.role;
  }

  public grantUse(serviceAccount: kplus.IServiceAccount): kplus.RoleBinding {
    // One binding per service account and credspec name, found again by its construct id: repeat calls, and
    // calls from an imported spec of the same name, return it.
    const id = `gmsa-use-${this.name}`;
    const existing = serviceAccount.node.tryFindChild(id);
    if (existing instanceof kplus.RoleBinding) return existing;
    const namespace = serviceAccount.toSubjectConfiguration().namespace;
    // The binding lives beside the service account so a namespaceless account and its binding land in the same
    // namespace (its chart's, or kubectl's); a RoleBinding's subject without a namespace means the binding's own.
    const binding = new kplus.RoleBinding(serviceAccount, id, {
      metadata: namespace === undefined ? undefined : { namespace },
      role: this.useRole,
    });
    binding.addSubjects(serviceAccount);
    return binding;
  }
}

/** Props of `GmsaCredentialSpec`. */
export interface GmsaCredentialSpecProps {
  /**
   * `metadata.name`, what pods name in `gmsaCredentialSpecName`: a lowercase DNS-1123 subdomain.
   * @default - generated from the construct path
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
   * Other metadata (labels, annotations such as `suppress.k8s-windows.io/<rule-id>: <reason>`). No namespace: the object is cluster-scoped.
   * @default - none
   */
  readonly metadata?: Omit<ApiObjectMetadata, 'name' | 'namespace'>;
}

/**
 * A `GMSACredentialSpec` (cluster-scoped; the credspec at the top level, as the CRD keeps it), checked at
 * construction by the gmsa-credspec-* rule modules on the object it emits: every error is thrown at once as a
 * `WindowsValidationError` with the rule's id, the object's path and lint's message, the fix naming the prop to set;
 * spellings that are unambiguous (a domain GUID in braces) are normalised and recorded as warnings.
 *
 * @see https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/
 */
export class GmsaCredentialSpec extends GmsaCredentialSpecBase {
  /** A credspec created elsewhere (by hand, by Helm, by another app): `grantUse` works the same. */
  public static fromName(scope: Construct, id: string, name: string): IGmsaCredentialSpecRef {
    const problems = gmsaCredentialSpecNameProblems(name);
    if (problems.length > 0) {
      throw new WindowsValidationError(
        problems.map((message) => ({ path: 'name', message, fix: 'Use the GMSACredentialSpec object name.' })),
        `GmsaCredentialSpec.fromName ${scope.node.path}/${id}`,
      );
    }
    return new ImportedGmsaCredentialSpec(scope, id, name);
  }

  public readonly name: string;
  /** The rendered credspec document. */
  public readonly credspec: CredentialSpecDocument;
  /** The GMSACredentialSpec object. */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: GmsaCredentialSpecProps) {
    super(scope, id);
    const rendered = renderCredentialSpec(props);
    this.credspec = rendered.credspec;
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: GMSA_API_VERSION,
      kind: GMSA_KIND,
      // cdk8s spreads metadata over the generated name: never pass `name: undefined`
      metadata: { ...props.metadata, ...(props.name !== undefined ? { name: props.name } : {}) },
      // The CRD keeps `credspec` at the top level (not under `spec`) and prunes unknown keys.
      credspec: rendered.credspec,
    });
    markClusterScoped(this.apiObject);
    this.name = this.apiObject.name;

    // The rule modules judge the object as it is emitted (cluster-scoped: no namespace), as lint would; a refusal
    // takes the construct, and the object with it, out of the tree.
    const { namespace: _namespace, ...metadata } = { ...props.metadata, name: this.name } as Record<string, unknown>;
    const { refusals, warnings } = judgeEmittedCredentialSpec(
      { apiVersion: GMSA_API_VERSION, kind: GMSA_KIND, metadata, credspec: rendered.credspec },
      'cdk8s',
    );
    if (refusals.length > 0) refuse(this, refusals, `GmsaCredentialSpec ${this.node.path}`);
    for (const w of [...rendered.normalised, ...warnings]) {
      WindowsAnnotations.of(this).addWarning(w.ruleId, `${w.path}: ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`);
    }
  }
}

class ImportedGmsaCredentialSpec extends GmsaCredentialSpecBase {
  constructor(
    scope: Construct,
    id: string,
    public readonly name: string,
  ) {
    super(scope, id);
  }
}
