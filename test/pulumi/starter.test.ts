/**
 * examples/pulumi-starter, the project a user copies: its package.json asks for the versions this repository's
 * lockfile resolves (the versions the library is tested with, so the two cannot drift), and its own test runs here as
 * written, against lib/ (jest.config.js maps `k8s-windows/*` imports to lib/).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const STARTER = path.join(__dirname, '..', '..', 'examples', 'pulumi-starter');
const json = (file: string): Record<string, Record<string, string>> =>
  JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;

describe('examples/pulumi-starter', () => {
  const starter = json(path.join(STARTER, 'package.json'));
  const lock = json(path.join(__dirname, '..', '..', 'package-lock.json')).packages as unknown as Record<
    string,
    { version: string }
  >;
  const ranges = { ...starter.dependencies, ...starter.devDependencies };

  test('package.json asks for ^ the version the repository lockfile resolves, for every registry package', () => {
    const registry = Object.entries(ranges).filter(([name]) => name !== 'k8s-windows');
    expect(registry.map(([name]) => name).sort()).toEqual([
      '@pulumi/aws',
      '@pulumi/kubernetes',
      '@pulumi/policy',
      '@pulumi/pulumi',
      '@types/jest',
      '@types/node',
      'jest',
      'ts-jest',
      'typescript',
    ]);
    for (const [name, range] of registry)
      expect([name, range]).toEqual([name, `^${lock[`node_modules/${name}`].version}`]);
  });

  test('k8s-windows comes from git, at a release tag, as the README Install says', () => {
    expect(starter.dependencies['k8s-windows']).toMatch(/^github:<owner>\/k8s-windows#v\d+\.\d+\.\d+$/);
  });

  test('Pulumi.yaml names the project whose config index.test.ts sets', () => {
    const project = /^name: (\S+)$/m.exec(readFileSync(path.join(STARTER, 'Pulumi.yaml'), 'utf8'))?.[1];
    expect(project).toBe(starter.name as unknown as string);
    expect(readFileSync(path.join(STARTER, 'index.test.ts'), 'utf8')).toContain(`'${project}:subnetIds'`);
  });

  describe('index.test.ts, as written', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../../examples/pulumi-starter/index.test');
  });
});
