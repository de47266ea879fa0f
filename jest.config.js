/**
 * Two projects: `unit` runs in-process (the engine, the constructs under cdk8s Testing, Pulumi under mocks, the CLI
 * through its run function); `e2e` runs whole programs as a user would (child processes: the CLI binary, the
 * example app's synth, the Pulumi plan, the packed-entry isolation). `npm test` runs both; `npm run test:unit`
 * gives the fast loop.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  // Transpile only (tsconfig has isolatedModules): `npm run typecheck` type-checks the whole tree once.
  // ts-jest, not @swc/jest: @swc/core's per-platform binaries are not all on the registry this project installs
  // from, which leaves `npm ci` unable to trust the lockfile.
  transform: { '^.+\\.tsx?$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: {
    '^k8s-windows$': '<rootDir>/lib/index.ts',
    '^k8s-windows/cdk8s$': '<rootDir>/lib/cdk8s/index.ts',
    '^k8s-windows/cdk8s/plugin$': '<rootDir>/lib/cdk8s/plugin.ts',
    '^k8s-windows/pulumi$': '<rootDir>/lib/pulumi/index.ts',
    '^k8s-windows/pulumi/(eks|aks|gke|policy)$': '<rootDir>/lib/pulumi/$1/index.ts',
    '^k8s-windows/pulumi/testing$': '<rootDir>/lib/pulumi/testing.ts',
  },
};

/** The test files that start child processes. */
const E2E = [
  '<rootDir>/test/cdk8s/example.test.ts',
  '<rootDir>/test/cli/action.e2e.test.ts',
  '<rootDir>/test/cli/commands.test.ts',
  '<rootDir>/test/cli/fix.test.ts',
  '<rootDir>/test/cli/pre-commit.e2e.test.ts',
  '<rootDir>/test/cli/render-tools.test.ts',
  '<rootDir>/test/cli/resolve-images.test.ts',
  '<rootDir>/test/cli/resolve-images-safety.test.ts',
  '<rootDir>/test/registry/auth.test.ts',
  '<rootDir>/test/registry/credentials.test.ts',
  '<rootDir>/test/registry/hostile-registry.test.ts',
  '<rootDir>/test/registry/resolver.test.ts',
  '<rootDir>/test/registry/token-auth.test.ts',
  '<rootDir>/test/pulumi/isolation.test.ts',
  '<rootDir>/test/pulumi/plan.test.ts',
  '<rootDir>/test/pulumi/refused-outputs.test.ts',
  '<rootDir>/test/pulumi/testing-exit.test.ts',
];

module.exports = {
  testTimeout: 30000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: E2E,
    },
    { ...shared, displayName: 'e2e', roots: ['<rootDir>/test'], testMatch: E2E },
  ],
};
