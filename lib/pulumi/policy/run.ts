/**
 * Runs policies over resources without the Pulumi engine: for the offline plan (`npm run plan`) and for users who
 * want to check a stack's captured resources in a unit test. The engine's own argument objects are mimicked with
 * just what the k8s-windows policies read.
 */
import type {
  EnforcementLevel,
  Policies,
  PolicyResource,
  ResourceValidation,
  ResourceValidationArgs,
  StackValidationArgs,
} from '@pulumi/policy';
import type { StackResource } from './node-pools';
import { windowsPolicies } from './policies';

/** One violation a policy reported. */
export interface PolicyViolation {
  readonly policy: string;
  readonly enforcementLevel: EnforcementLevel;
  readonly message: string;
  /** The resource it is about, when the policy named one. */
  readonly urn?: string;
}

export interface RunPoliciesOptions {
  /**
   * The policies to run.
   * @default windowsPolicies
   */
  readonly policies?: Policies;
  /**
   * Configuration per policy name, as `getConfig()` returns it.
   * @default {}
   */
  readonly config?: Readonly<Record<string, object>>;
}

class NotApplicable extends Error {}

const NO_OPTIONS = {
  protect: false,
  ignoreChanges: [],
  aliases: [],
  customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
  additionalSecretOutputs: [],
};

/** Runs every policy over the resources (each resource policy on each resource, each stack policy once). */
export async function runPolicies(
  resources: readonly StackResource[],
  options: RunPoliciesOptions = {},
): Promise<PolicyViolation[]> {
  const policies = options.policies ?? windowsPolicies;
  const violations: PolicyViolation[] = [];
  const notApplicable = (reason?: string): never => {
    throw new NotApplicable(reason);
  };
  for (const policy of policies) {
    const enforcementLevel = policy.enforcementLevel ?? 'advisory';
    if (enforcementLevel === 'disabled') continue;
    const getConfig = <T extends object>(): T => (options.config?.[policy.name] ?? {}) as T;
    const report = (urn?: string) => (message: string, reportedUrn?: string) => {
      const at = reportedUrn ?? urn;
      violations.push({ policy: policy.name, enforcementLevel, message, ...(at !== undefined ? { urn: at } : {}) });
    };
    try {
      if ('validateStack' in policy) {
        const policyResources = resources.map((r) => ({
          ...r,
          opts: NO_OPTIONS,
          dependencies: [],
          propertyDependencies: {},
        }));
        const args = {
          resources: policyResources as unknown as PolicyResource[],
          stackTags: new Map(),
          getConfig,
          notApplicable,
        };
        await policy.validateStack(args as unknown as StackValidationArgs, report());
      } else if (policy.validateResource !== undefined) {
        const validations: ResourceValidation[] = Array.isArray(policy.validateResource)
          ? policy.validateResource
          : [policy.validateResource];
        for (const r of resources) {
          const args = {
            type: r.type,
            name: r.name,
            urn: r.urn,
            props: r.props as Record<string, unknown>,
            opts: NO_OPTIONS,
            stackTags: new Map(),
            getConfig,
            notApplicable,
          };
          for (const validate of validations) await validate(args as unknown as ResourceValidationArgs, report(r.urn));
        }
      }
    } catch (e) {
      if (!(e instanceof NotApplicable)) throw e;
    }
  }
  return violations;
}
