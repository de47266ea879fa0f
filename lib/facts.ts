/**
 * The `k8s-windows/facts` entry: the Windows and cloud facts every rule, construct and component acts on, as data
 * with their sources, the date of the material each was read in and the day it was read — the tables behind `k8s-windows facts` and docs/facts.md.
 * Read them to show or check what the library assumes; the rules read the same objects. Named exports only; the
 * facts' home is lib/core/facts.
 */
export {
  CLOUD_DEFAULT_RELEASES,
  CLOUD_RELEASES,
  cloudReleaseState,
  factCatalogue,
  factsDates,
  HOST_COMPATIBILITY,
  releaseSupport,
  WINDOWS_RELEASE_FACTS,
  type Cloud,
  type CloudReleaseFacts,
  type CloudReleaseState,
  type FactEntry,
  type FactSource,
  type HostCompatibility,
  type ReleaseSupport,
  type Sourced,
  type WindowsReleaseFacts,
} from './core/facts';
export { RETIRED_RELEASES, type RetiredRelease } from './core/releases';
