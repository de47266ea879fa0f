// The k8s-windows CrossGuard policy pack program: `pulumi preview --policy-pack <this folder>`. `new PolicyPack`
// reads the version from this folder's package.json and starts the analyzer server, which the Pulumi engine stops.
// In this repository it runs the TypeScript source through tsx; copied into a project that installed k8s-windows
// (node_modules/k8s-windows/examples/pulumi/policy-pack), it runs the installed package. Settings (rules,
// suppressions, cloud, versions) come from .k8s-windows.yaml, found from the folder upward, or K8S_WINDOWS_CONFIG.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const source = join(__dirname, '../../../lib/pulumi/policy/pack.ts');
if (existsSync(source)) {
  require('tsx/cjs');
  require(source);
} else {
  const { PolicyPack } = require('@pulumi/policy');
  const { windowsPolicyPackArgs } = require('k8s-windows/pulumi/policy');
  new PolicyPack('k8s-windows', windowsPolicyPackArgs());
}
