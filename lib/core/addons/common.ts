/**
 * What every node add-on shares, for both front doors: its name, image and taints, their defaults and checks, and the
 * shape of the list of differences from the upstream manifest each add-on follows.
 */
import type { IssueCollector } from '../errors';
import { addonImage, type AddonName } from '../facts/addons';
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, windowsNodeTarget, type Taint } from '../target';
import type { ValidationIssue } from '../errors';

/** One way an add-on's output differs from the upstream manifest it follows, and why. */
export interface AddonDifference {
  /** The kind of the object. */
  readonly kind: string;
  /** The fields, in API-server notation; each covers everything below it. An empty list is the whole object. */
  readonly paths: readonly string[];
  readonly why: string;
}

/**
 * Node agents run on every Windows node: by default they tolerate the library's Windows taint (`os=windows`) and the
 * one GKE is said to apply (lib/cdk8s/host-process.ts `HOST_PROCESS_TAINTS`, the same pair).
 */
export const ADDON_TAINTS: readonly Taint[] = [WINDOWS_TAINT, GKE_WINDOWS_TAINT];

/**
 * A node agent's resources in the API's form, for the Pulumi components: the values cdk8s gives agents
 * (lib/cdk8s/windows-pod.ts `WINDOWS_AGENT_CONTAINER_RESOURCES`, sized there from the agents' own manifests), so both
 * front doors emit the same. Memory request equals the limit: Windows pages rather than kills over its request.
 */
export const ADDON_RESOURCES = {
  requests: { cpu: '100m', memory: '600Mi' },
  limits: { cpu: '500m', memory: '600Mi' },
} as const;

/** `ADDON_RESOURCES` as the shared agent description holds resources (lib/core/addons/agent.ts). */
export const ADDON_AGENT_RESOURCES = {
  cpuRequestMillis: 100,
  cpuLimitMillis: 500,
  memoryRequestMebibytes: 600,
  memoryLimitMebibytes: 600,
} as const;

/** A DNS label (RFC 1123): what a DaemonSet, Service and ConfigMap name may be, and safe inside a PowerShell quote. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The settings every add-on takes. */
export interface AddonOptions {
  /**
   * The name of the add-on's objects.
   * @default - the add-on's own name (`windows-exporter`, `csi-proxy`)
   */
  readonly name?: string;
  /**
   * The image. Keep it a HostProcess image, as the upstream images are.
   * @default - the upstream image at the version pinned in the facts (`k8s-windows facts`, `addon.<name>.image`)
   */
  readonly image?: string;
  /**
   * The taints of the Windows nodes to run on, to tolerate: give your pools' (`pool.nodeTarget.taints`).
   * @default - `os=windows:NoSchedule` and `node.kubernetes.io/os=windows:NoSchedule`
   */
  readonly taints?: readonly Taint[];
}

/** `name`, `image` and `taints` with their defaults, their problems added to `issues`. */
export function resolveAddonBase(
  addon: AddonName,
  options: AddonOptions,
  issues: IssueCollector,
): { readonly name: string; readonly image: string; readonly taints: readonly Taint[] } {
  const name = options.name ?? addon;
  if (typeof name !== 'string' || !DNS_LABEL.test(name)) {
    issues.add(
      'name',
      `name ${JSON.stringify(name)} is not a DNS label (lower-case letters, digits and '-', at most 63).`,
      `Write e.g. '${addon}'.`,
    );
  }
  const image = options.image ?? addonImage(addon);
  if (typeof image !== 'string' || image.trim() === '' || /\s/.test(image)) {
    issues.add(
      'image',
      `image ${JSON.stringify(image)} is not an image reference.`,
      `Omit it for ${addonImage(addon)}, or write 'registry/repository:tag'.`,
    );
  }
  const taints = options.taints ?? ADDON_TAINTS;
  try {
    windowsNodeTarget({ taints });
  } catch (err) {
    const found = (err as { issues?: readonly ValidationIssue[] }).issues;
    if (found === undefined) throw err;
    for (const i of found) issues.add(i.path, i.message, i.fix);
  }
  return { name, image, taints };
}
