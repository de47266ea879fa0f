/**
 * `perWindowsBuild` for cdk8s: an agent DaemonSet that is not HostProcess, copied once per Windows release the pools
 * run (lib/core/addons/per-windows-build.ts holds the copy, which the Pulumi function shares).
 */
import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { WindowsValidationError } from '../core/errors';
import {
  daemonSetForBuild,
  windowsBuildCopies,
  type PerWindowsBuildOptions,
  type WindowsBuildPool,
} from '../core/addons/per-windows-build';

/**
 * Replaces `daemonSet` (an `ApiObject`, or a construct holding one: `kplus.DaemonSet`, `WindowsDaemonSet`) with one
 * DaemonSet per Windows release `pools` run, named `<name>-<release>` (`agent-2022`): each selects that release's
 * build (`node.kubernetes.io/windows-build`), tolerates that release's pools' taints and runs `images[release]`.
 * Call it once the DaemonSet is complete: the copies are taken from it as it is then, and it leaves the app. Bad
 * input (a pool with no pinned release, a release with no image) throws one `WindowsValidationError` listing every
 * problem, and the DaemonSet stays.
 *
 * @example
 * perWindowsBuild(agent, [pool2019, pool2022], {
 *   images: { '2019': 'vendor/agent:1.2-ltsc2019', '2022': 'vendor/agent:1.2-ltsc2022' },
 * });
 */
export function perWindowsBuild(
  daemonSet: Construct,
  pools: readonly WindowsBuildPool[],
  options: PerWindowsBuildOptions,
): ApiObject[] {
  const api = daemonSet instanceof ApiObject ? daemonSet : ApiObject.of(daemonSet);
  const json = api.toJson() as Record<string, unknown>;
  const issues = [...windowsBuildCopies(pools, options).issues];
  if (json.kind !== 'DaemonSet') {
    issues.unshift({
      path: 'daemonSet',
      message: `daemonSet is a ${String(json.kind)}, not a DaemonSet.`,
      fix: 'Pass the agent DaemonSet (an ApiObject or a construct holding one).',
    });
  }
  if (issues.length > 0) throw new WindowsValidationError(issues, `perWindowsBuild(${daemonSet.node.path})`);
  const scope = daemonSet.node.scope;
  if (scope === undefined) throw new Error('perWindowsBuild: the DaemonSet has no scope.');
  const id = daemonSet.node.id;
  scope.node.tryRemoveChild(id);
  return windowsBuildCopies(pools, options).copies.map((copy) => {
    const built: unknown = daemonSetForBuild(json, copy, options.containers);
    const { apiVersion, kind, metadata, ...rest } = built as {
      apiVersion: string;
      kind: string;
      metadata: Record<string, unknown>;
    };
    return new ApiObject(scope, `${id}-${copy.release}`, { apiVersion, kind, metadata, ...rest });
  });
}
