// Each cloud entry point loads only its own provider: an EKS user never loads Azure or GCP code (DESIGN.md,
// "Package entry points"); the framework-free entries (`k8s-windows`, `k8s-windows/facts`) load no framework at all.
// Checked in a fresh Node process, where require.cache lists every module really loaded.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const PROVIDERS = ['@pulumi/aws', '@pulumi/azure-native', '@pulumi/gcp'] as const;

interface CloudEntry {
  readonly cloud: string;
  /** The public name, resolved through tsconfig paths by tsx. */
  readonly specifier: string;
  readonly source: string;
  /** The one provider package the entry may load, and then only submodules of it, never its root index. */
  readonly provider: (typeof PROVIDERS)[number];
}

const ENTRIES: readonly CloudEntry[] = [
  { cloud: 'eks', specifier: 'k8s-windows/pulumi/eks', source: 'lib/pulumi/eks/index.ts', provider: '@pulumi/aws' },
  {
    cloud: 'aks',
    specifier: 'k8s-windows/pulumi/aks',
    source: 'lib/pulumi/aks/index.ts',
    provider: '@pulumi/azure-native',
  },
  { cloud: 'gke', specifier: 'k8s-windows/pulumi/gke', source: 'lib/pulumi/gke/index.ts', provider: '@pulumi/gcp' },
];

/** Every file `require(specifier)` loads, from a fresh process. */
function loadedModules(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

function inPackage(file: string, pkg: string): boolean {
  return file.split('\\').join('/').includes(`/node_modules/${pkg}/`);
}

describe.each(ENTRIES)('$specifier', (entry) => {
  // An entry another engineer has not written yet is skipped, not failed.
  const maybe = existsSync(join(ROOT, entry.source)) ? test : test.skip;

  maybe(`loads no other cloud's provider, and not the ${entry.provider} root index`, () => {
    const files = loadedModules(entry.specifier);
    expect(files.some((f) => f.endsWith(entry.source))).toBe(true);
    const otherProviders = PROVIDERS.filter((p) => p !== entry.provider);
    expect(files.filter((f) => otherProviders.some((p) => inPackage(f, p)))).toEqual([]);
    expect(files.filter((f) => f.split('\\').join('/').endsWith(`/node_modules/${entry.provider}/index.js`))).toEqual(
      [],
    );
  });
});

describe.each([
  { specifier: 'k8s-windows', source: 'lib/index.ts' },
  { specifier: 'k8s-windows/facts', source: 'lib/facts.ts' },
])('$specifier', (entry) => {
  test('loads no framework: no cdk8s, constructs or Pulumi package, and no front door of ours', () => {
    const files = loadedModules(entry.specifier).map((f) => f.split('\\').join('/'));
    expect(files.some((f) => f.endsWith(entry.source))).toBe(true);
    const frameworks = ['cdk8s', 'cdk8s-plus-28', 'constructs', '@pulumi/pulumi', ...PROVIDERS];
    expect(files.filter((f) => frameworks.some((p) => inPackage(f, p)))).toEqual([]);
    expect(files.filter((f) => /\/lib\/(cdk8s|pulumi|cli)\//.test(f))).toEqual([]);
  });
});
