import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@pulumi/aws', message: 'Import a submodule such as @pulumi/aws/eks.' },
            { name: '@pulumi/azure-native', message: 'Import @pulumi/azure-native/containerservice.' },
            { name: '@pulumi/gcp', message: 'Import @pulumi/gcp/container.' },
          ],
        },
      ],
    },
  },
);
