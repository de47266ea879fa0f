/** What the cdk8s add-ons share: where they run, and how they refuse a namespace policy that would label yours. */
import type { ApiObject } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-28';
import type { ValidationIssue } from '../core/errors';
import type { HostProcessNamespacePolicy } from '../cdk8s/host-process';

/** The namespace policies an add-on takes: it never labels a namespace it is given. */
const ADDON_NAMESPACE_POLICIES: readonly HostProcessNamespacePolicy[] = [
  'require-privileged',
  'privileged-outside-app',
];

/** Where an add-on runs, and its resources. */
export interface AddonPlacementProps {
  /**
   * The namespace to run in: a `kplus.Namespace` or Namespace `ApiObject` of the app, or a name. It must admit
   * `privileged` pods (`pod-security.kubernetes.io/enforce: privileged`): the add-on checks a Namespace of the app at
   * synth and never labels one it is given.
   * @default - the Chart's `namespace` when it has one (checked the same way); otherwise `windows-system`, created at
   * the `privileged` level and shared with the app's other node agents
   */
  readonly namespace?: string | kplus.Namespace | ApiObject;
  /**
   * For a namespace given by name with no Namespace object in the app: `'privileged-outside-app'` says it is labelled
   * `privileged` in the cluster; `'require-privileged'` refuses it, as its level cannot be checked.
   * @default 'require-privileged'
   */
  readonly namespacePolicy?: 'require-privileged' | 'privileged-outside-app';
  /**
   * The containers' resources.
   * @default - a node agent's: 100m CPU request, 500m limit, 600Mi memory request and limit
   */
  readonly resources?: kplus.ContainerResources;
}

/** The namespace policy to use, and the problem with it when it would label a given namespace. */
export function addonNamespacePolicy(props: AddonPlacementProps): {
  readonly policy: HostProcessNamespacePolicy;
  readonly issues: readonly ValidationIssue[];
} {
  const policy = props.namespacePolicy ?? 'require-privileged';
  if (ADDON_NAMESPACE_POLICIES.includes(policy)) return { policy, issues: [] };
  return {
    policy,
    issues: [
      {
        path: 'namespacePolicy',
        message: `namespacePolicy ${JSON.stringify(policy)} is not one an add-on takes: it never labels a namespace it is given.`,
        fix: `Use ${ADDON_NAMESPACE_POLICIES.map((p) => `'${p}'`).join(' or ')}, and label your namespace pod-security.kubernetes.io/enforce: privileged yourself; or omit namespace.`,
      },
    ],
  };
}
