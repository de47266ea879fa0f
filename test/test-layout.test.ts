/**
 * The jest projects are chosen by file name (jest.config.js), so a name must say what a suite does: a suite outside
 * `*.e2e.test.ts` imports nothing that starts a process, a server or the type checker, and no property fixes its
 * seed or run count by hand (test/helpers/property.ts owns both).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const TEST = __dirname;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [path.relative(TEST, full)] : [];
  });
}

/** Imports that start something outside the test process, each with what it starts. */
const STARTS: readonly (readonly [RegExp, string])[] = [
  [/from 'node:child_process'|from 'child_process'/, 'child processes'],
  [/from '[./]*(?:helpers\/)?(?:registry-server|hostile-server|token-server)'/, 'a registry or token server'],
  [/from '[./]*(?:helpers\/)?kube-apiserver'/, 'a kube-apiserver with etcd'],
  [/from 'node:https?'|from 'node:net'/, 'a server on a port'],
  [/\b(?:createProgram|checkReadmeExamples)\(/, 'the type checker'],
  [/\bwithCorpusRegistry\(/, 'a registry'],
];

const SELF = path.basename(__filename);
const files = testFiles(TEST);

test('the projects see every suite', () => {
  expect(files.length).toBeGreaterThan(50);
});

test('a suite that starts a process, a server or the type checker is named *.e2e.test.ts', () => {
  const misnamed = files
    .filter((file) => !file.endsWith('.e2e.test.ts') && file !== SELF)
    .flatMap((file) => {
      const source = readFileSync(path.join(TEST, file), 'utf8');
      return STARTS.filter(([pattern]) => pattern.test(source)).map(
        ([, what]) =>
          `${file} starts ${what}: rename it to ${file.replace(/(\.property)?\.test\.ts$/, '.e2e.test.ts')}`,
      );
    });
  expect(misnamed).toEqual([]);
});

test('no property fixes its seed or run count: propertyParameters(runs) from test/helpers/property.ts', () => {
  const fixed = files.flatMap((file) => {
    const source = readFileSync(path.join(TEST, file), 'utf8');
    if (file === SELF || !source.includes('fast-check')) return [];
    return source
      .split('\n')
      .map((line, index) => [line, index + 1] as const)
      .filter(([line]) => /\b(?:seed|numRuns)\s*:\s*\d/.test(line))
      .map(([, line]) => `${file}:${line}`);
  });
  expect(fixed).toEqual([]);
});
