/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Transpile only (tsconfig has isolatedModules): `npm run typecheck` type-checks the whole tree once.
  // ts-jest, not @swc/jest: @swc/core's per-platform binaries are not all on the registry this project installs
  // from, which leaves `npm ci` unable to trust the lockfile.
  transform: { '^.+\\.tsx?$': ['ts-jest', { diagnostics: false }] },
  moduleNameMapper: {
    '^k8s-windows$': '<rootDir>/lib/core/index.ts',
    '^k8s-windows/cdk8s$': '<rootDir>/lib/cdk8s/index.ts',
    '^k8s-windows/cdk8s/plugin$': '<rootDir>/lib/cdk8s/plugin.ts',
    '^k8s-windows/pulumi$': '<rootDir>/lib/pulumi/index.ts',
    '^k8s-windows/pulumi/(eks|aks|gke|policy)$': '<rootDir>/lib/pulumi/$1/index.ts',
  },
  testTimeout: 30000,
};
