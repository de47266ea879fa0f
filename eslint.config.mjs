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
/** Sibling folders of lib/core (`../rules`) and the core's entry, as written from a file one level inside the core. */
const above = (...names) => [...names.flatMap((name) => [`../${name}`, `../${name}/*`]), '../index'];

/** What every file of lib/core may not import. */
const CORE = [
  [[...CDK8S, '@pulumi/*'], 'lib/core is pure TypeScript: no cdk8s, no Pulumi.'],
  [[...layer('cdk8s'), ...layer('pulumi'), ...layer('cli')], 'lib/core imports no front door.'],
  [layer('registry'), 'lib/core does no I/O: the registry client (lib/registry) is an adapter beside it.'],
  [layer('cluster'), 'lib/core does no I/O: the cluster client (lib/cluster) is an adapter beside it.'],
];

/**
 * The architecture as lint (DESIGN.md, "Layers"): core imports no framework, no front door and not the registry
 * client; inside it facts ← model ← rules ← engine (validate/) ← fix; the registry client (lib/registry) imports
 * the core only; the CLI only core and the registry client; no front door imports another; each cloud's components
 * only their own cloud. test/layers.test.ts checks the same edges on the whole import graph (require() and import()
 * too) and that it has no cycle.
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
  boundary(['lib/core/**/*.ts'], CORE),
  boundary(
    ['lib/core/facts/**/*.ts'],
    [...CORE, [above('model', 'rules', 'validate', 'fix'), 'Facts import nothing above them.']],
  ),
  boundary(
    ['lib/core/model/**/*.ts'],
    [...CORE, [above('rules', 'validate', 'fix'), 'The model the rules read sits below them.']],
  ),
  boundary(
    ['lib/core/rules/**/*.ts'],
    [...CORE, [above('validate', 'fix'), 'Rules never import the engine (validate/) or fix.']],
  ),
  boundary(['lib/core/validate/**/*.ts'], [...CORE, [above('fix'), 'The engine sits below fix.']]),
  boundary(
    ['lib/registry/**/*.ts'],
    [
      [[...CDK8S, '@pulumi/*'], 'The registry client imports the core only.'],
      [
        [...layer('cdk8s'), ...layer('pulumi'), ...layer('cli'), '../index'],
        'The registry client imports the core only.',
      ],
    ],
  ),
  boundary(
    ['lib/cluster/**/*.ts'],
    [
      [[...CDK8S, '@pulumi/*'], 'The cluster client imports the core only.'],
      [
        [...layer('cdk8s'), ...layer('pulumi'), ...layer('cli'), ...layer('registry'), '../index'],
        'The cluster client imports the core only.',
      ],
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
