/**
 * Three projects, chosen by file name so no list is kept by hand:
 * - `e2e` (`*.e2e.test.ts`): tests that start something outside the test process or listen on a port: child
 *   processes (the CLI binary, the example app's synth, the Pulumi plan, the packed-entry isolation, credential
 *   helpers), a registry or server (docker-registry, the hostile registry, token services), real tools (Helm,
 *   Kustomize, pre-commit) or the TypeScript compiler's type checker.
 * - `property` (`*.property.test.ts`): suites whose subject is fast-check properties; a few hundred runs each and a
 *   fresh seed every run (test/helpers/property.ts), `K8S_WINDOWS_PROPERTY_RUNS` for a long run.
 * - `unit`: everything else, in-process (the engine, the constructs under cdk8s Testing, Pulumi under mocks, the CLI
 *   through its run function): `npm run test:unit`, the fast loop.
 * `npm test` runs all three.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // Transpile only (tsconfig has isolatedModules): `npm run typecheck` type-checks the whole tree once.
  // ts-jest, not @swc/jest: @swc/core's per-platform binaries are not all on the registry this project installs
  // from, which leaves `npm ci` unable to trust the lockfile.
  transform: { '^.+\\.tsx?$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: {
    '^k8s-windows$': '<rootDir>/lib/index.ts',
    '^k8s-windows/facts$': '<rootDir>/lib/facts.ts',
    '^k8s-windows/cdk8s$': '<rootDir>/lib/cdk8s/index.ts',
    '^k8s-windows/cdk8s/plugin$': '<rootDir>/lib/cdk8s/plugin.ts',
    '^k8s-windows/addons$': '<rootDir>/lib/addons/index.ts',
    '^k8s-windows/pulumi$': '<rootDir>/lib/pulumi/index.ts',
    '^k8s-windows/pulumi/(eks|aks|gke|policy)$': '<rootDir>/lib/pulumi/$1/index.ts',
    '^k8s-windows/pulumi/testing$': '<rootDir>/lib/pulumi/testing.ts',
  },
  // Every fast-check property, in any project, gets the shared run count and seed unless it names its own.
  setupFiles: ['<rootDir>/test/helpers/property-setup.ts'],
};

module.exports = {
  testTimeout: 30000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$', '\\.property\\.test\\.ts$'],
    },
    { ...shared, displayName: 'property', testMatch: ['**/*.property.test.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['**/*.e2e.test.ts'] },
  ],
};
