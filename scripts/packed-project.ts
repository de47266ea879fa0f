/**
 * The package as a new user gets it: `npm pack`s this repo, scaffolds a project from cdk8s-cli's own
 * `typescript-app` template (its package.json, tsconfig and ts-node app command, rendered by cdk8s-cli's scaffolder),
 * installs the tarball with a cdk8s-plus major from the registry, and runs `cdk8s synth` with the validation plugin
 * configured as docs/cdk8s.md says. Then it type-checks the same app under node16 and bundler module resolution, and
 * checks that the installed typings of every entry declare exactly the names its api/ report records.
 *
 * The template's jest and cdk8s-cli dev dependencies are not installed (the synth runs this repo's cdk8s-cli, the
 * version the template comes from), to keep the install small. Only the npm registry is contacted, cache first.
 *
 * Then a Pulumi project as Pulumi's `typescript` template makes it (its package.json and tsconfig, nodenext module
 * resolution), with the Pulumi blocks of the README and docs/ as its program: it must compile as written, and run
 * under mocks through the package's own `k8s-windows/pulumi/testing` helper with zero policy-pack findings.
 *
 * Usage: tsx scripts/packed-project.ts [major...|pulumi]   (default: 33 28 pulumi). Exit code 0 when every check
 * passes.
 */
import { execFileSync, spawnSync } from 'child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { API_DIR, ENTRIES } from './api-report';
import { docBlocks, readmeBlocks } from './readme-examples';

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'node_modules/cdk8s-cli');
const TEMPLATE = join(CLI, 'templates/typescript-app');
const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
/** A tag that names no build from a publisher not known for multi-arch Windows lists: one warning, printed once. */
const FLOATING = 'contoso.azurecr.io/shop/api:4.8';
const EXPORTER = 'ghcr.io/prometheus-community/windows-exporter:0.29.2';

type Manifest = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const version = (pkg: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

function run(cmd: string, args: string[], cwd: string): { status: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } });
  return { status: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

function must(cmd: string, args: string[], cwd: string): string {
  const r = run(cmd, args, cwd);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}) in ${cwd}:\n${r.out}`);
  return r.out;
}

/** The app a new user writes: Windows and Linux workloads side by side, and a HostProcess agent. */
function mainTs(major: number): string {
  const entry = major === 28 ? 'k8s-windows/cdk8s' : `k8s-windows/cdk8s-plus-${major}`;
  return `import { Construct } from 'constructs';
import { App, Chart, ChartProps } from 'cdk8s';
import * as kplus from 'cdk8s-plus-${major}';
import { WindowsDeployment, WindowsHostProcessDaemonSet, pinLinuxWorkloads } from '${entry}';
import { windowsNodeTarget } from 'k8s-windows';
import { WINDOWS_RELEASE_FACTS } from 'k8s-windows/facts';
import type { WindowsValidationProperties } from 'k8s-windows/cdk8s/plugin';

export const validation: WindowsValidationProperties = { windowsRelease: '2022' };
/** The facts entry resolves from the tarball too (at synth, and under every module resolution below). */
export const LTSC2022_BUILD: string = WINDOWS_RELEASE_FACTS['2022'].build;

export class MyChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    const web = new WindowsDeployment(this, 'web', {
      replicas: 2,
      windows: { target: windowsNodeTarget({ release: '2022' }) },
      containers: [{ image: '${IIS}', portNumber: 80, readiness: kplus.Probe.fromHttpGet('/', { port: 80 }) }],
    });
    web.exposeViaService({ ports: [{ port: 80 }] });
    new WindowsDeployment(this, 'api', { containers: [{ image: '${FLOATING}', portNumber: 8080 }] });
    new kplus.Deployment(this, 'cache', { containers: [{ image: 'redis:7.2', portNumber: 6379 }] });
    new WindowsHostProcessDaemonSet(this, 'exporter', {
      containers: [{ image: '${EXPORTER}', ports: [{ number: 9182, hostPort: 9182 }] }],
    });
    pinLinuxWorkloads(this);
  }
}

const app = new App();
new MyChart(app, 'windows-app');
app.synth();
`;
}

/** The template, rendered by cdk8s-cli's own scaffolder without its post-install hook (which needs GitHub). */
async function scaffold(dir: string, major: number): Promise<void> {
  const template = join(dir, '..', `template-${major}`);
  cpSync(TEMPLATE, template, { recursive: true, filter: (src) => !src.endsWith('.hooks.sscaff.js') });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { sscaff } = require(require.resolve('sscaff', { paths: [CLI] })) as {
    sscaff: (from: string, to: string, vars: Record<string, string>) => Promise<void>;
  };
  await sscaff(template, dir, {
    cdk8s_core_version: version('cdk8s'),
    cdk8s_plus_version: version('cdk8s-plus-33'),
    constructs_version: version('constructs'),
    cdk8s_cli_spec: `^${version('cdk8s-cli')}`,
  });
  const pkgPath = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  if (major !== 33) {
    delete pkg.dependencies['cdk8s-plus-33'];
    pkg.dependencies[`cdk8s-plus-${major}`] = `^${version(`cdk8s-plus-${major}`)}`;
  }
  for (const dev of ['cdk8s-cli', 'jest', 'ts-jest', '@types/jest']) delete pkg.devDependencies[dev];
  writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
  rmSync(join(dir, 'main.test.ts'));
  rmSync(join(dir, '__snapshots__'), { recursive: true, force: true });
  writeFileSync(join(dir, 'main.ts'), mainTs(major));
  // The plugin entry docs/cdk8s.md gives.
  writeFileSync(
    join(dir, 'cdk8s.yaml'),
    `${readFileSync(join(dir, 'cdk8s.yaml'), 'utf8').trimEnd()}
validations:
  - package: ./node_modules/k8s-windows/build/cdk8s/plugin.js
    version: 0.1.0
    class: WindowsValidation
`,
  );
}

function check(condition: unknown, what: string, failures: string[]): void {
  if (!condition) failures.push(what);
}

/**
 * The typings a user gets declare each entry's surface as api/ records it. The reports are read from the sources;
 * the build's `stripInternal` drops any declaration whose doc comment says `@internal`, even in passing, which the
 * sources do not show.
 */
export function publishedSurfaceProblems(pkgDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const typings = ENTRIES.map((entry) => {
    const key = entry.specifier === 'k8s-windows' ? '.' : `./${entry.specifier.slice('k8s-windows/'.length)}`;
    const target = pkg.exports[key];
    return { entry, file: typeof target === 'object' && target.types ? join(pkgDir, target.types) : undefined };
  });
  const program = ts.createProgram(
    typings.flatMap((t) => (t.file ? [t.file] : [])),
    { noEmit: true, skipLibCheck: true, types: [] },
  );
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  for (const { entry, file } of typings) {
    const source = file && program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) {
      problems.push(`${entry.specifier}: no typings at ${file ?? '(no types in package.json exports)'}`);
      continue;
    }
    const declared = new Set(checker.getExportsOfModule(module).map((s) => s.name));
    const recorded = readFileSync(join(API_DIR, entry.report), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('`')[1]);
    const missing = recorded.filter((name) => !declared.has(name));
    const extra = [...declared].filter((name) => !recorded.includes(name));
    if (missing.length > 0) problems.push(`${entry.specifier}: the typings lack ${missing.join(', ')}`);
    if (extra.length > 0) problems.push(`${entry.specifier}: the typings add ${extra.join(', ')}`);
  }
  return problems;
}

/** Builds, synthesizes and checks one project; returns what failed (empty when everything passed). */
export async function checkProject(tarball: string, major: number, work: string): Promise<string[]> {
  const dir = join(work, `app-${major}`);
  await scaffold(dir, major);
  must('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);

  const failures: string[] = [];
  if (major === 33) failures.push(...publishedSurfaceProblems(join(dir, 'node_modules/k8s-windows')));
  const synth = run(process.execPath, [join(CLI, 'bin/cdk8s'), 'synth', '--no-check-upgrade'], dir);
  check(synth.status === 0, `cdk8s synth exits 0 (got ${synth.status}):\n${synth.out}`, failures);
  check(/k8s-windows: \d+ objects in 1 manifests: 0 errors/.test(synth.out), 'the plugin reports 0 errors', failures);
  const floating = synth.out.split('image-floating-tag').length - 1;
  check(floating === 1, `the floating tag is reported once (got ${floating}):\n${synth.out}`, failures);
  if (synth.status !== 0) return failures;

  const manifests: Manifest[] = parseAllDocuments(readFileSync(join(dir, 'dist/windows-app.k8s.yaml'), 'utf8')).map(
    (d) => d.toJS(),
  );
  const byName = (kind: string, name: string): Manifest | undefined =>
    manifests.find((m) => m.kind === kind && String(m.metadata?.name).includes(name));
  const web = byName('Deployment', 'web')?.spec.template.spec;
  check(web?.os?.name === 'windows', 'web: os.name windows', failures);
  check(web?.nodeSelector?.['kubernetes.io/os'] === 'windows', 'web: windows nodeSelector', failures);
  check(web?.shareProcessNamespace === undefined, 'web: no shareProcessNamespace', failures);
  check(web?.securityContext === undefined, 'web: no Linux pod securityContext', failures);
  check(web?.containers?.[0]?.securityContext === undefined, 'web: no Linux container securityContext', failures);
  const cache = byName('Deployment', 'cache')?.spec.template.spec;
  check(cache?.nodeSelector?.['kubernetes.io/os'] === 'linux', 'cache: pinned to Linux', failures);
  const ns = byName('Namespace', 'windows-system');
  check(
    ns?.metadata?.labels?.['pod-security.kubernetes.io/enforce'] === 'privileged',
    'owned privileged Namespace',
    failures,
  );
  const agent = byName('DaemonSet', 'exporter')?.spec.template.spec;
  check(agent?.securityContext?.windowsOptions?.hostProcess === true, 'exporter: HostProcess', failures);

  // The README's cdk8s quick start, as written, in the project `cdk8s init` makes today: zero findings.
  if (major === 33) {
    const block = readmeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).find((b) =>
      b.code.includes("from 'k8s-windows/cdk8s-plus-33'"),
    );
    check(block !== undefined, 'the README has a cdk8s-plus-33 quick start', failures);
    if (block !== undefined) {
      writeFileSync(join(dir, 'readme.ts'), block.code);
      const readme = run(
        process.execPath,
        [join(CLI, 'bin/cdk8s'), 'synth', '--no-check-upgrade', '--app', 'npx ts-node readme.ts', '--output', 'readme'],
        dir,
      );
      check(
        readme.status === 0 &&
          /k8s-windows: \d+ objects in \d+ manifests: 0 errors, 0 warnings, 0 notes/.test(readme.out),
        `the README's cdk8s quick start synthesizes with zero findings:\n${readme.out}`,
        failures,
      );
    }
  }

  // windows.resolveImages in the packed package: the constructs' lookups run the compiled child script. Offline with
  // an empty cache, the image is unresolved: a synth warning, not a failure, and nothing leaves the machine.
  if (major === 33) {
    writeFileSync(
      join(dir, 'resolve.ts'),
      `import { App, Chart } from 'cdk8s';
import { WindowsDeployment } from 'k8s-windows/cdk8s-plus-33';
const app = new App();
const chart = new Chart(app, 'resolve');
new WindowsDeployment(chart, 'api', {
  containers: [{ image: 'registry.example.com/shop/api:v2', portNumber: 80 }],
  windows: { resolveImages: { offline: true, imageCache: 'image-cache' } },
});
app.synth();
`,
    );
    const resolved = run(
      process.execPath,
      [join(CLI, 'bin/cdk8s'), 'synth', '--no-check-upgrade', '--app', 'npx ts-node resolve.ts', '--output', 'resolve'],
      dir,
    );
    check(
      resolved.status === 0 && resolved.out.includes('[image-unresolved]'),
      `windows.resolveImages runs the packaged resolver (offline: image-unresolved warning):\n${resolved.out}`,
      failures,
    );
  }

  // The same app under the other module resolutions users and templates use.
  for (const flags of [
    [],
    ['--module', 'node16', '--moduleResolution', 'node16'],
    ['--module', 'esnext', '--moduleResolution', 'bundler'],
  ]) {
    const tsc = run(
      process.execPath,
      [join(dir, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json', ...flags],
      dir,
    );
    check(tsc.status === 0, `tsc ${flags.join(' ') || '(template tsconfig: node10)'} passes:\n${tsc.out}`, failures);
  }
  return failures;
}

/**
 * Pulumi's `typescript` template (https://github.com/pulumi/templates/tree/master/typescript, tsconfig.json and
 * package.json at 65db26b): strict, es2020, nodenext modules, `index.ts` the program.
 */
const PULUMI_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: 'bin',
    target: 'es2020',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ['index.ts'],
};

/** What the docs' Pulumi snippets take from the program around them, made as a user would make it. */
const PULUMI_CONTEXT = `import * as pulumi from '@pulumi/pulumi';
import * as eks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import * as k8s from '@pulumi/kubernetes';

const subnetIds = ['subnet-0a1b2c3d', 'subnet-4e5f6a7b'];
const clusterRole = new iam.Role('cluster', {
  assumeRolePolicy: JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: 'eks.amazonaws.com' }, Action: 'sts:AssumeRole' }],
  }),
});
const cluster = new eks.Cluster('shop', {
  roleArn: clusterRole.arn,
  version: '1.33',
  vpcConfig: { subnetIds },
});
const linuxNodes = new eks.NodeGroup('linux', {
  clusterName: cluster.name,
  nodeRoleArn: clusterRole.arn,
  subnetIds,
  scalingConfig: { desiredSize: 2, minSize: 1, maxSize: 3 },
});
const provider = new k8s.Provider('shop', {
  kubeconfig: pulumi.interpolate\`apiVersion: v1
kind: Config
clusters: [{name: shop, cluster: {server: \${cluster.endpoint}}}]
contexts: [{name: shop, context: {cluster: shop}}]
current-context: shop
\`,
});
`;

/**
 * The Pulumi blocks of the README and docs/ (the ones importing `k8s-windows/pulumi`), their imports first, as one
 * program: the README's first, then docs/pulumi.md's (which declare what the others use), a block the README repeats
 * from docs/pulumi.md once.
 */
function pulumiProgram(): string {
  const first = ['README.md', 'docs/pulumi.md'];
  const rank = (page: string): number => (first.includes(page) ? first.indexOf(page) : first.length);
  const seen = new Set<string>();
  const blocks = docBlocks()
    .filter((b) => /from 'k8s-windows\/pulumi(\/eks)?'/.test(b.code) && !b.code.includes('k8s-windows/pulumi/testing'))
    .sort((a, b) => rank(a.page) - rank(b.page))
    .filter((b) => {
      if (seen.has(b.code)) return false;
      seen.add(b.code);
      return true;
    });
  const imports: string[] = [];
  const body: string[] = [];
  for (const b of blocks) {
    for (const line of b.code.split('\n')) (/^import /.test(line) ? imports : body).push(line);
  }
  return `${PULUMI_CONTEXT.replace(/^(import .*\n)+/, (head) => head + imports.join('\n') + '\n')}\n${body.join('\n')}\n`;
}

/** Runs the program under the package's helper and its shipped mocks, then the policy pack over what it registered. */
const PULUMI_PLAN = `import { runProgram } from 'k8s-windows/pulumi/testing';
import { runPolicies } from 'k8s-windows/pulumi/policy';

async function main(): Promise<void> {
  // The package's realistic provider mocks fill in what AWS would (names, ARNs, the cluster's security group, the
  // node group's Auto Scaling group); the resources go to the policy pack as they are.
  const { resources, warnings } = await runProgram(() => require('./index'));
  const violations = await runPolicies(resources);
  console.log(JSON.stringify({ resources: resources.map((r) => r.type), warnings, violations }));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
`;

/** Builds, runs and checks the Pulumi project; returns what failed (empty when everything passed). */
export function checkPulumiProject(tarball: string, work: string): string[] {
  const dir = join(work, 'app-pulumi');
  mkdirSync(dir, { recursive: true });
  const deps = ['@pulumi/pulumi', '@pulumi/aws', '@pulumi/kubernetes', '@pulumi/policy'];
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'windows-shop',
        main: 'index.ts',
        devDependencies: {
          '@types/node': `^${version('@types/node').split('.')[0]}`,
          typescript: `^${version('typescript')}`,
        },
        dependencies: Object.fromEntries(deps.map((d) => [d, `^${version(d)}`])),
      },
      null,
      2,
    ),
  );
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(PULUMI_TSCONFIG, null, 2));
  writeFileSync(join(dir, 'index.ts'), pulumiProgram());
  writeFileSync(join(dir, 'plan.ts'), PULUMI_PLAN);
  // The test harness only: @pulumi/policy's own typings do not check under nodenext without skipLibCheck.
  writeFileSync(
    join(dir, 'tsconfig.plan.json'),
    JSON.stringify({ extends: './tsconfig.json', compilerOptions: { skipLibCheck: true }, files: ['plan.ts'] }),
  );
  must('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], dir);

  const failures: string[] = [];
  const tsc = run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
  check(
    tsc.status === 0,
    `tsc (the template's nodenext tsconfig) compiles the docs' Pulumi program:\n${tsc.out}`,
    failures,
  );
  if (tsc.status !== 0) return failures;
  const planTsc = run(
    process.execPath,
    [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.plan.json'],
    dir,
  );
  check(planTsc.status === 0, `the plan harness compiles:\n${planTsc.out}`, failures);
  if (planTsc.status !== 0) return failures;
  const plan = run(process.execPath, [join(dir, 'bin/plan.js')], dir);
  check(plan.status === 0, `the program runs under mocks (k8s-windows/pulumi/testing):\n${plan.out}`, failures);
  if (plan.status !== 0) return failures;
  const result = JSON.parse(plan.out.trim().split('\n').pop() as string) as {
    resources: string[];
    warnings: string[];
    violations: { policy: string; message: string }[];
  };
  for (const type of [
    'aws:eks/nodeGroup:NodeGroup',
    'kubernetes:apps/v1:Deployment',
    'kubernetes:karpenter.sh/v1:NodePool',
  ]) {
    check(result.resources.includes(type), `registers a ${type}`, failures);
  }
  check(
    result.violations.length === 0,
    `zero policy-pack findings:\n${result.violations.map((v) => `${v.policy}: ${v.message}`).join('\n')}`,
    failures,
  );
  return failures;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pulumi = args.length === 0 || args.includes('pulumi');
  const majors = args.filter((a) => a !== 'pulumi').map(Number);
  const work = mkdtempSync(join(tmpdir(), 'k8s-windows-packed-'));
  const started = Date.now();
  try {
    const packed = execFileSync('npm', ['pack', '--pack-destination', work, '--loglevel=error'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const tarball = join(work, packed.trim().split('\n').pop() as string);
    let failed = false;
    for (const major of majors.length > 0 || args.length > 0 ? majors : [33, 28]) {
      const t = Date.now();
      const failures = await checkProject(tarball, major, work);
      const took = ((Date.now() - t) / 1000).toFixed(0);
      if (failures.length === 0) process.stdout.write(`ok   cdk8s-plus-${major} template-app project (${took} s)\n`);
      else {
        failed = true;
        process.stdout.write(
          `FAIL cdk8s-plus-${major} template-app project (${took} s):\n${failures.map((f) => `  - ${f}`).join('\n')}\n`,
        );
      }
    }
    if (pulumi) {
      const t = Date.now();
      const failures = checkPulumiProject(tarball, work);
      const took = ((Date.now() - t) / 1000).toFixed(0);
      if (failures.length === 0) process.stdout.write(`ok   Pulumi typescript-template project (${took} s)\n`);
      else {
        failed = true;
        process.stdout.write(
          `FAIL Pulumi typescript-template project (${took} s):\n${failures.map((f) => `  - ${f}`).join('\n')}\n`,
        );
      }
    }
    process.stdout.write(
      `packed-project: ${((Date.now() - started) / 1000).toFixed(0)} s in all (${readdirSync(work).length} entries in ${work})\n`,
    );
    if (failed) process.exitCode = 1;
  } finally {
    if (!process.env.KEEP_PACKED_PROJECT) rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
