/**
 * The checks of a raw `gcp:container/nodePool:NodePool`, for the policy pack and pools built by hand: the GKE and
 * node-pool rule modules, through the one runner. The field checks the `WindowsNodePool` component shares with
 * them are in the core (lib/core/cloud/gke-node-pool.ts), re-exported here.
 */
import type { WindowsWarning } from '../../core/pod-spec';
import type { CloudFinding } from '../../core/rules/cloud-findings';
import { runCloudRules } from '../../core/rules/cloud-runner';
import { findingWarnings } from '../finding-warnings';

export * from '../../core/cloud/gke-node-pool';

/**
 * The refusals of a raw Windows node pool (a `WINDOWS…` `nodeConfig.imageType`; others yield nothing; values not
 * known yet are skipped): the image type is `WINDOWS_LTSC_CONTAINERD` (gke-windows-image-type); the osversion is
 * one GKE offers and fits `version` (gke-windows-release); taint effects in the GKE spelling
 * (gke-windows-taint-effect); an x86_64 machine type (gke-windows-machine-type).
 */
export function checkGkeNodePoolInputs(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): CloudFinding[] {
  return runCloudRules({ kind: 'gke-node-pool', props }, options).filter((f) => f.severity === 'error');
}

/**
 * Soft problems of a raw Windows node pool: osversion left unset (GKE picks the release), a deprecated release, no
 * NoSchedule taint of its own, a machine type with less than 8 GB.
 */
export function gkeNodePoolWarnings(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): WindowsWarning[] {
  return findingWarnings(runCloudRules({ kind: 'gke-node-pool', props }, options));
}
