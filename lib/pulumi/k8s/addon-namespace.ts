/**
 * Where a Pulumi node add-on runs: the namespace given by name (which must admit `privileged` pods; it is never
 * changed), or its own Namespace, named after the add-on and labelled `privileged`. Unlike cdk8s, where the add-ons of
 * an app share `windows-system` (one app, one construct tree), a Pulumi component keeps no state across components: a
 * Namespace shared through module state could leak into another program run in the same process (the plan, tests).
 */
import * as pulumi from '@pulumi/pulumi';
import { Namespace } from '@pulumi/kubernetes/core/v1';
import { POD_SECURITY_ENFORCE_LABEL } from '../../core/pod-security/labels';

/**
 * The namespace name an add-on runs in, and the Namespace it created for itself (named `name`) when none was given.
 */
export function addonNamespace(
  component: string,
  name: string,
  given: pulumi.Input<string> | undefined,
  parent: pulumi.Resource,
): { readonly name: pulumi.Output<string>; readonly created?: Namespace } {
  if (given !== undefined) return { name: pulumi.output(given) };
  const created = new Namespace(
    `${component}-namespace`,
    { metadata: { name, labels: { [POD_SECURITY_ENFORCE_LABEL]: 'privileged' } } },
    { parent },
  );
  return { name: created.metadata.name, created };
}
