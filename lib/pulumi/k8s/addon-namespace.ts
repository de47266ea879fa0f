/**
 * Where the Pulumi node add-ons run: the namespace given by name (which must admit `privileged` pods; it is never
 * changed), or `windows-system`, created at the `privileged` level by the first add-on of the program on a provider
 * and shared by the others, as `WindowsHostProcessDaemonSet` shares it in cdk8s.
 */
import * as pulumi from '@pulumi/pulumi';
import { Namespace } from '@pulumi/kubernetes/core/v1';
import { POD_SECURITY_ENFORCE_LABEL } from '../../core/pod-security/labels';

/** The namespace created when none is given: the one `WindowsHostProcessDaemonSet` creates in cdk8s. */
export const ADDON_NAMESPACE = 'windows-system';

/** The Namespace each provider's add-ons share (the default provider under `undefined`). */
const SHARED = new Map<pulumi.ProviderResource | undefined, Namespace>();

/**
 * The namespace name an add-on runs in, and the Namespace it created (undefined when it was given one or another
 * add-on created it first).
 */
export function addonNamespace(
  component: string,
  given: pulumi.Input<string> | undefined,
  opts: pulumi.ComponentResourceOptions | undefined,
  parent: pulumi.Resource,
): { readonly name: pulumi.Output<string>; readonly created?: Namespace } {
  if (given !== undefined) return { name: pulumi.output(given) };
  const provider = opts?.provider;
  const shared = SHARED.get(provider);
  if (shared) return { name: shared.metadata.name };
  const created = new Namespace(
    `${component}-${ADDON_NAMESPACE}`,
    { metadata: { name: ADDON_NAMESPACE, labels: { [POD_SECURITY_ENFORCE_LABEL]: 'privileged' } } },
    { parent },
  );
  SHARED.set(provider, created);
  return { name: created.metadata.name, created };
}
