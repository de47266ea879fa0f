/**
 * `perWindowsBuild` on `@pulumi/kubernetes`: an agent DaemonSet that is not HostProcess, registered once per Windows
 * release the pools run (lib/core/addons/per-windows-build.ts holds the copy, which the cdk8s function shares).
 */
import * as pulumi from '@pulumi/pulumi';
import { DaemonSet } from '@pulumi/kubernetes/apps/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import {
  daemonSetForBuild,
  windowsBuildCopies,
  type PerWindowsBuildOptions,
  type WindowsBuildPool,
} from '../../core/addons/per-windows-build';
import { throwInputErrors } from '../errors';

/**
 * Registers `daemonSet` (a DaemonSet's args, which may hold Outputs) once per Windows release `pools` run, as
 * `<name>-<release>` with `metadata.name` `<its name>-<release>`: each selects that release's build
 * (`node.kubernetes.io/windows-build`), tolerates that release's pools' taints and runs `images[release]`. Bad input
 * (a pool with no pinned release, a release with no image) is refused in one `pulumi.InputPropertiesError` before
 * anything registers.
 *
 * @example
 * perWindowsBuild('agent', agentArgs, [pool2019, pool2022], {
 *   images: { '2019': 'vendor/agent:1.2-ltsc2019', '2022': 'vendor/agent:1.2-ltsc2022' },
 * });
 */
export function perWindowsBuild(
  name: string,
  daemonSet: pulumi.Input<k8sInput.apps.v1.DaemonSet>,
  pools: readonly WindowsBuildPool[],
  options: PerWindowsBuildOptions,
  opts?: pulumi.CustomResourceOptions,
): DaemonSet[] {
  const { copies, issues } = windowsBuildCopies(pools, options);
  throwInputErrors(`perWindowsBuild '${name}'`, issues);
  return copies.map((copy) => {
    const built = pulumi
      .output(daemonSet)
      .apply((ds) => daemonSetForBuild(ds as Record<string, unknown>, copy, options.containers));
    return new DaemonSet(
      `${name}-${copy.release}`,
      {
        metadata: built.apply((d) => d.metadata as k8sInput.meta.v1.ObjectMeta),
        spec: built.apply((d) => d.spec as k8sInput.apps.v1.DaemonSetSpec),
      },
      opts,
    );
  });
}
