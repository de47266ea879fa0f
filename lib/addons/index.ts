/**
 * The `k8s-windows/addons` entry: what every Windows node needs besides its pool, as cdk8s constructs on
 * cdk8s-plus-28 (the same components for Pulumi are in `k8s-windows/pulumi`). Each runs as HostProcess in a
 * `privileged` namespace, tolerates the Windows pools' taints, and pins its image from the facts
 * (`k8s-windows facts`). Named exports only: the constructs and their props.
 */
export { WindowsExporter, type WindowsExporterProps } from './windows-exporter';
export { CsiProxy, type CsiProxyProps } from './csi-proxy';
