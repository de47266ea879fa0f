import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Cloud SDK package roots load every service of the cloud: import a submodule. */
const CLOUD_ROOTS = [
  { name: '@pulumi/aws', message: 'Import a submodule such as @pulumi/aws/eks.' },
  { name: '@pulumi/azure-native', message: 'Import @pulumi/azure-native/containerservice.' },
  { name: '@pulumi/gcp', message: 'Import @pulumi/gcp/container.' },
];

/** Import patterns of one layer of lib/, as written from anywhere below lib/ (`../cdk8s/x`, `../../cli/y`). */
const layer = (name) => [`../${name}`, `../${name}/*`, `../../${name}`, `../../${name}/*`, `../../../${name}/*`];
const CDK8S = ['cdk8s', 'cdk8s-plus-*', 'constructs'];

/**
 * The architecture as lint (DESIGN.md, "Layers"): core imports no framework and no front door; the CLI only core;
 * no front door imports another; each cloud's components only their own cloud.
 */
const boundary = (files, groups) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { paths: CLOUD_ROOTS, patterns: groups.map(([group, message]) => ({ group, message })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: CLOUD_ROOTS }],
    },
  },
  // Type-aware checks where a dropped promise loses an error or a resource: the library itself.
  {
    files: ['lib/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  boundary(
    ['lib/core/**/*.ts'],
    [
      [[...CDK8S, '@pulumi/*'], 'lib/core is pure TypeScript: no cdk8s, no Pulumi.'],
      [[...layer('cdk8s'), ...layer('pulumi'), ...layer('cli')], 'lib/core imports no front door.'],
    ],
  ),
  boundary(
    ['lib/cli/**/*.ts'],
    [
      [[...CDK8S, '@pulumi/*'], 'The CLI runs on lib/core only.'],
      [[...layer('cdk8s'), ...layer('pulumi')], 'The CLI runs on lib/core only.'],
    ],
  ),
  boundary(
    ['lib/cdk8s/**/*.ts'],
    [
      [['@pulumi/*'], 'The cdk8s front door loads no Pulumi.'],
      [[...layer('pulumi'), ...layer('cli')], 'No front door imports another: share through lib/core.'],
    ],
  ),
  boundary(
    ['lib/pulumi/**/*.ts'],
    [
      [CDK8S, 'The Pulumi front door loads no cdk8s.'],
      [[...layer('cdk8s'), ...layer('cli')], 'No front door imports another: share through lib/core.'],
    ],
  ),
  ...['eks', 'aks', 'gke'].map((cloud) =>
    boundary(
      [`lib/pulumi/${cloud}/**/*.ts`],
      [
        [CDK8S, 'The Pulumi front door loads no cdk8s.'],
        [[...layer('cdk8s'), ...layer('cli')], 'No front door imports another: share through lib/core.'],
        [
          ['eks', 'aks', 'gke'].filter((c) => c !== cloud).flatMap((c) => [`../${c}`, `../${c}/*`]),
          `lib/pulumi/${cloud} loads only its own cloud: share through lib/pulumi or lib/core.`,
        ],
      ],
    ),
  ),
);
