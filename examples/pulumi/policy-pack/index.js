// The policy pack program Pulumi runs for `--policy-pack examples/pulumi/policy-pack`. The pack is TypeScript in
// lib/pulumi/policy/pack.ts; tsx compiles it (this repository has no ts-node). `new PolicyPack` reads the version
// from this folder's package.json and starts the analyzer server, which the Pulumi engine stops.
require('tsx/cjs');
require('../../../lib/pulumi/policy/pack.ts');
