/**
 * The `k8s-windows/addons` entry: what every Windows node needs besides its pool, as cdk8s constructs on
 * cdk8s-plus-28 (the same components for Pulumi are in `k8s-windows/pulumi`). Each runs as HostProcess in a
 * `privileged` namespace, tolerates the Windows pools' taints, and pins its image from the facts
 * (`k8s-windows facts`); `perWindowsBuild` copies an agent that is not HostProcess once per Windows build. Named
 * exports only: the constructs, their props and `perWindowsBuild`.
 */
export { WindowsExporter, type WindowsExporterProps } from './windows-exporter';
export { CsiProxy, type CsiProxyProps } from './csi-proxy';
export { FluentBitWindows, type FluentBitWindowsProps } from './fluent-bit-windows';
export { SmbCsiNodeWindows, type SmbCsiNodeWindowsProps } from './smb-csi-node-windows';
export { perWindowsBuild } from './per-windows-build';
