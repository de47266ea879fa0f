/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // @swc/jest strips types only; `npm run typecheck` type-checks once for the whole tree.
  transform: { '^.+\\.tsx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleNameMapper: {
    '^k8s-windows$': '<rootDir>/lib/core/index.ts',
    '^k8s-windows/cdk8s$': '<rootDir>/lib/cdk8s/index.ts',
    '^k8s-windows/cdk8s/plugin$': '<rootDir>/lib/cdk8s/plugin.ts',
    '^k8s-windows/pulumi$': '<rootDir>/lib/pulumi/index.ts',
    '^k8s-windows/pulumi/(eks|aks|gke|policy)$': '<rootDir>/lib/pulumi/$1/index.ts',
  },
  testTimeout: 30000,
};
