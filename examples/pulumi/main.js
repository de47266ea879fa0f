// Entry point of the repository's Pulumi.yaml. Pulumi's Node.js runtime compiles TypeScript with ts-node, which
// this repository does not use (Pulumi.yaml sets `typescript: false`); tsx compiles the examples instead and
// resolves their `k8s-windows/...` imports through tsconfig.json's paths. The stack outputs are the exports of
// the example the stack config `k8s-windows:cloud` selects.
require('tsx/cjs');
const { cloudFromConfig, loadExample } = require('./index.ts');

module.exports = loadExample(cloudFromConfig());
