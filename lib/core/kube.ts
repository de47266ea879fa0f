/**
 * The Kubernetes object types the core works on. Taken from `kubernetes-types` (generated from the OpenAPI
 * spec) so the core needs no framework; cdk8s and Pulumi layers convert to and from these shapes.
 */
export type {
  PodSpec,
  PodSecurityContext,
  SecurityContext,
  Container,
  EphemeralContainer,
  Toleration,
  WindowsSecurityContextOptions,
  Probe,
  ResourceRequirements,
  Volume,
} from 'kubernetes-types/core/v1';
export type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { NODE_LABEL_FACTS } from './facts/kubernetes';

/** The three places a pod spec lists containers, in the order the API server validates them. */
export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
export type ContainerList = (typeof CONTAINER_LISTS)[number];

/** The label every node carries with its operating system (lib/core/facts/kubernetes.ts `NODE_LABEL_FACTS`). */
export const OS_LABEL = NODE_LABEL_FACTS.os;
/**
 * The deprecated OS label. The kubelet still sets it on every node, so selectors on it keep working.
 * @see https://kubernetes.io/docs/reference/labels-annotations-taints/#beta-kubernetes-io-os-deprecated
 */
export const BETA_OS_LABEL = 'beta.kubernetes.io/os';
/** The label every node carries with its CPU architecture. */
export const ARCH_LABEL = 'kubernetes.io/arch';
/** The label Windows nodes carry with their OS build (`10.0.20348`). */
export const WINDOWS_BUILD_LABEL = NODE_LABEL_FACTS.windowsBuild;
/**
 * AKS labels every node with its OS SKU (`Ubuntu`, `AzureLinux`, `Windows2019`, `Windows2022`, ...), so a selector
 * on it picks the OS, and for Windows the release.
 * @see https://learn.microsoft.com/azure/aks/use-node-selectors
 */
export const AKS_OS_SKU_LABEL = NODE_LABEL_FACTS.aksOsSku;
