// Loads the k8s-windows validation plugin from the TypeScript sources, so this repository's cdk8s.yaml works
// without a build and without installing anything at synth time. cdk8s-cli `require`s this file (a local
// `package:` path) and instantiates its `WindowsValidation` export. Apps that install k8s-windows point
// `package:` at ./node_modules/k8s-windows/build/cdk8s/plugin.js instead (see docs/cdk8s.md).
'use strict';
const { register } = require('tsx/cjs/api');

// A namespaced loader leaves the cdk8s CLI's own require alone; a fixed namespace (tsx/cjs/api's `require` picks a
// new one per process) lets tsx's disk cache serve the transpiled sources from one synth to the next.
const tsx = register({ namespace: 'k8s-windows-validation-plugin' });

module.exports = tsx.require('../../lib/cdk8s/plugin.ts', __filename);
