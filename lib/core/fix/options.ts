/**
 * The options of `fixManifests`: the node target Windows pods are fixed towards (taints, release, RuntimeClass),
 * the cloud presets, and `key=value:Effect` toleration parsing for the CLI and the KRM function config.
 */
import { IssueCollector } from '../errors';
import { parseWindowsRelease } from '../releases';
import { GKE_WINDOWS_TAINT, TAINT_EFFECTS, type Taint } from '../target';
import type { FixTarget } from '../model/fixes';
import { CLOUDS, type Cloud } from '../cloud-gates';
import type { ValidateOptions } from '../model/types';

/**
 * The taints each cloud puts on Windows nodes by itself, so Windows pods must tolerate them:
 * - EKS: none. Windows node groups carry the taints you give them; AWS's guide has you add `os=windows` yourself
 *   (https://aws.github.io/aws-eks-best-practices/windows/docs/scheduling/).
 * - AKS: none. Node pools carry the taints you set with `--node-taints`
 *   (https://learn.microsoft.com/azure/aks/use-node-taints); a Windows pool gets none by default.
 * - GKE: `node.kubernetes.io/os=windows:NoSchedule` on Windows Server nodes
 *   (https://cloud.google.com/kubernetes-engine/docs/how-to/deploying-windows-app; Google Distributed Cloud states
 *   "Windows Server nodes are tainted with this key-value pair: node.kubernetes.io/os=windows:NoSchedule",
 *   https://cloud.google.com/kubernetes-engine/distributed-cloud/vmware/docs/how-to/windows-server-node-pools).
 * Taints your own pools add are given with `tolerations` (`--toleration`).
 */
export const CLOUD_TAINTS: Readonly<Record<Cloud, readonly Taint[]>> = {
  eks: [],
  aks: [],
  gke: [GKE_WINDOWS_TAINT],
};

/**
 * `validateManifests`' options (its `cloud` also adds the taints that cloud puts on Windows nodes itself,
 * `CLOUD_TAINTS`), and the target Windows pods are fixed towards.
 */
export interface FixOptions extends ValidateOptions {
  /**
   * Taints your Windows nodes carry: Windows pods get a toleration for each one they do not tolerate yet.
   * @default [] (plus the cloud preset's)
   */
  readonly tolerations?: readonly Taint[];
  /**
   * A RuntimeClass that pins your Windows release (with `windowsRelease`): set as `runtimeClassName` on
   * unpinned Windows pods instead of the `node.kubernetes.io/windows-build` selector.
   * @default - the build selector
   */
  readonly runtimeClassName?: string;
  /**
   * Pin Linux pods of a set that has Windows pods to Linux nodes (`kubernetes.io/os: linux`).
   * @default false
   */
  readonly pinLinux?: boolean;
}

export { parseTaint } from '../validate/settings';

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.value === b.value && a.effect === b.effect;
}

/** Checks the options (every problem at once, as a `WindowsValidationError`) and resolves the target once. */
export function resolveFixTarget(options: FixOptions): FixTarget {
  const issues = new IssueCollector();
  if (options.cloud !== undefined && !(CLOUDS as readonly string[]).includes(options.cloud)) {
    issues.add(
      'cloud',
      `${JSON.stringify(options.cloud)} is not a cloud with a preset.`,
      `Use one of ${CLOUDS.join(', ')}.`,
    );
  }
  if (options.windowsRelease !== undefined) {
    const parsed = parseWindowsRelease(options.windowsRelease);
    if (!parsed.ok) issues.add('windowsRelease', parsed.message, parsed.fix);
  }
  const given = Array.isArray(options.tolerations) ? options.tolerations : [];
  given.forEach((t: Taint, i) => {
    if (typeof t?.key !== 'string' || t.key === '') {
      issues.add(
        `tolerations[${i}].key`,
        'A taint needs a non-empty key.',
        "Write e.g. { key: 'os', value: 'windows', effect: 'NoSchedule' }.",
      );
    }
    if (!TAINT_EFFECTS.includes(t?.effect)) {
      issues.add(
        `tolerations[${i}].effect`,
        `${JSON.stringify(t?.effect)} is not a taint effect.`,
        `Use one of ${TAINT_EFFECTS.join(', ')}.`,
      );
    }
  });
  const rc = options.runtimeClassName;
  if (rc !== undefined && (typeof rc !== 'string' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(rc))) {
    issues.add(
      'runtimeClassName',
      `${JSON.stringify(rc)} is not a RuntimeClass name (a DNS-1123 subdomain).`,
      "Write e.g. 'windows-2022'.",
    );
  }
  if (rc !== undefined && options.windowsRelease === undefined) {
    issues.add(
      'runtimeClassName',
      'A RuntimeClass is set on unpinned Windows pods only with windowsRelease.',
      'Give windowsRelease (--windows-release) too.',
    );
  }
  issues.throwIfAny('fixManifests options');

  const taints: Taint[] = [];
  const preset = options.cloud !== undefined ? CLOUD_TAINTS[options.cloud] : [];
  for (const t of [...preset, ...given]) if (!taints.some((x) => sameTaint(x, t))) taints.push({ ...t });
  return {
    taints,
    ...(options.windowsRelease !== undefined ? { release: options.windowsRelease } : {}),
    ...(rc !== undefined ? { runtimeClassName: rc } : {}),
    pinLinux: options.pinLinux === true,
  };
}
