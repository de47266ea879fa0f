/**
 * `lint` and `fix` on chart and kustomization directories, rendered by the real Helm and Kustomize (Go programs
 * that scripts/test-tools.sh builds into .tools/bin: test/helpers/tools.ts). Without them these tests fail, never skip.
 * The charts and overlays are real (test/fixtures/realworld/charts, kustomize; SOURCES.md) beside one overlay of
 * ours (test/fixtures/render) that changes an image tag only in its `images:`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { newestMinor } from '../../lib/core/api/schema';
import { cli, columnOf, lineOf, tempTree } from '../helpers/cli';
import { HOW_TO_GET_TOOLS, TOOLS_DIRS, toolsPath } from '../helpers/tools';

const ROOT = path.join(__dirname, '../..');
const REALWORLD = path.join(ROOT, 'test/fixtures/realworld');
const OVERLAY_FIXTURE = path.join(ROOT, 'test/fixtures/render/ltsc2019-overlay');
const SMB_CHART = path.join(REALWORLD, 'charts/csi-driver-smb');
/** The file the overlay's Deployment comes from, relative to the repository. */
const BASE_DEPLOYMENT = 'test/fixtures/render/ltsc2019-overlay/base/deployment.yaml';

let home: string;
/** The environment the CLI runs in: the tools' directory first on PATH, and a scratch HOME for Helm's caches. */
let env: Record<string, string>;

beforeAll(() => {
  home = mkdtempSync(path.join(tmpdir(), 'k8s-windows-render-home-'));
  env = { PATH: toolsPath(), HOME: home };
  const missing = ['helm', 'kustomize'].filter((tool) => {
    const ran = spawnSync(tool, ['version'], { env, encoding: 'utf8' });
    return ran.error !== undefined || ran.status !== 0;
  });
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} not found in ${TOOLS_DIRS.join(', ')} or on PATH: ${HOW_TO_GET_TOOLS}.`);
  }
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** What a tool prints, for positions: the CLI must point into exactly this text. */
function render(program: string, args: readonly string[]): string {
  const ran = spawnSync(program, [...args], { env, encoding: 'utf8', cwd: ROOT });
  if (ran.status !== 0) throw new Error(`${program} ${args.join(' ')}: ${ran.stderr}`);
  return ran.stdout;
}

interface Finding {
  readonly ruleId: string;
  readonly severity: string;
  readonly source: string;
  readonly line: number;
  readonly column?: number;
  readonly rendered?: {
    readonly by: string;
    readonly line?: number;
    readonly column?: number;
    readonly exact: boolean;
  };
  readonly path: string;
  readonly resource: {
    readonly kind?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly source?: string;
  };
}
interface Report {
  readonly summary: { readonly inputs: number; readonly objects: number; readonly errors: number };
  readonly findings: readonly Finding[];
  readonly inputProblems: readonly { readonly source?: string; readonly message: string }[];
}

async function lintJson(args: readonly string[], extraEnv: Record<string, string> = {}) {
  const r = await cli(['lint', '--format', 'json', ...args], { cwd: ROOT, env: { ...env, ...extraEnv } });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

/** Every file under `dir` with its bytes, to show a run changed none of them. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('a Kustomize overlay', () => {
  const overlay = 'test/fixtures/render/ltsc2019-overlay/overlay';

  test('whose images: sets an ltsc2019 tag on a pod pinned to 2022 nodes is an error at the image, placed on the base file that supplied the Deployment', async () => {
    const rendered = render('kustomize', ['build', overlay]);
    const { code, report } = await lintJson([overlay]);
    expect(code).toBe(1);
    expect(report.inputProblems).toEqual([]);
    const mismatch = report.findings.filter((f) => f.ruleId === 'image-build-mismatch');
    // The base writes ltsc2022 (the overlay's images: changed it): the object's first line in the base, and where
    // the field is in what kustomize printed.
    expect(mismatch).toEqual([
      expect.objectContaining({
        severity: 'error',
        source: BASE_DEPLOYMENT,
        line: 1,
        rendered: {
          by: `kustomize build ${overlay}`,
          line: lineOf(rendered, 'image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019'),
          column: columnOf(rendered, 'image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019'),
          exact: false,
        },
        path: 'spec.template.spec.containers[0].image',
        resource: expect.objectContaining({
          kind: 'Deployment',
          namespace: 'web',
          name: 'iis',
          source: `${overlay} (kustomize build)`,
        }),
      }),
    ]);
    // A field the base writes as rendered is placed on its own line there: the pod spec at `    spec:`.
    const toleration = report.findings.find((f) => f.ruleId === 'windows-toleration-missing');
    const base = readFileSync(path.join(ROOT, BASE_DEPLOYMENT), 'utf8').split('\n');
    expect(toleration).toMatchObject({ source: BASE_DEPLOYMENT, line: 15, column: 5 });
    expect(base[14]).toBe('    spec:');
    expect(toleration?.rendered).toEqual({ by: `kustomize build ${overlay}`, line: 15, column: 5, exact: true });
  });

  test('the base alone is correct: the mismatch is in the overlay only, which --no-render does not see', async () => {
    const base = await lintJson(['test/fixtures/render/ltsc2019-overlay/base']);
    expect(base.code).toBe(0);
    expect(base.report.findings.filter((f) => f.ruleId === 'image-build-mismatch')).toEqual([]);
    const plain = await lintJson(['--no-render', 'test/fixtures/render/ltsc2019-overlay']);
    expect(plain.report.findings.filter((f) => f.ruleId === 'image-build-mismatch')).toEqual([]);
  });

  test('a walk renders the overlay and leaves out the base it builds on', async () => {
    const { code, report } = await lintJson(['test/fixtures/render/ltsc2019-overlay']);
    expect(code).toBe(1);
    expect(report.summary).toMatchObject({ inputs: 1, objects: 1, errors: 1 });
    expect(new Set(report.findings.map((f) => f.source))).toEqual(new Set([BASE_DEPLOYMENT]));
  });

  test('with only kubectl on PATH, kubectl kustomize renders it', async () => {
    // A kubectl that does what `kubectl kustomize DIR` does (the machine's kubectl embeds kustomize): CI need not
    // carry a kubectl build to hold the fallback to its arguments.
    const bin = mkdtempSync(path.join(tmpdir(), 'k8s-windows-kubectl-'));
    try {
      const kubectl = path.join(bin, 'kubectl');
      const kustomize = spawnSync('sh', ['-c', 'command -v kustomize'], { env, encoding: 'utf8' }).stdout.trim();
      writeFileSync(
        kubectl,
        `#!/bin/sh\n[ "$1" = kustomize ] || { echo "unexpected: $*" >&2; exit 3; }\nshift\nexec "${kustomize}" build "$@"\n`,
      );
      chmodSync(kubectl, 0o755);
      const { code, report } = await lintJson([overlay], { PATH: bin });
      expect(code).toBe(1);
      expect(report.findings.find((f) => f.ruleId === 'image-build-mismatch')).toMatchObject({
        source: BASE_DEPLOYMENT,
        rendered: { by: `kubectl kustomize ${overlay}` },
      });
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  test('fix prints the fixed rendered manifests and rewrites nothing', async () => {
    const before = snapshot(OVERLAY_FIXTURE);
    const r = await cli(['fix', '--cloud', 'gke', overlay], { cwd: ROOT, env });
    expect(r.code).toBe(1); // the image mismatch is left: fix cannot choose the tag
    const [deployment] = parseAllDocuments(r.stdout).map((d) => d.toJS() as Record<string, unknown>);
    expect(deployment).toMatchObject({
      kind: 'Deployment',
      spec: {
        template: {
          spec: {
            tolerations: [{ key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
            containers: [{ image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019' }],
          },
        },
      },
    });
    // The change report names the rendered input; the findings left are grouped under the file they come from.
    expect(r.stderr).toContain(`${overlay} (kustomize build): Deployment web/iis`);
    expect(r.stderr).toMatch(new RegExp(`^Left to fix by hand:\n${BASE_DEPLOYMENT}\n  Deployment web/iis\n`, 'm'));
    expect(snapshot(OVERLAY_FIXTURE)).toEqual(before);
  });

  test('a kustomize error is an input problem with what kustomize said', async () => {
    const { dir, cleanup } = tempTree({
      'kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - missing.yaml\n',
    });
    try {
      const r = await cli(['lint', '.'], { cwd: dir, env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^k8s-windows: \.: kustomize build failed: .*missing\.yaml/);
    } finally {
      cleanup();
    }
  });
});

test("a kustomization written on Windows (resources: ..\\base) says to write '/'", async () => {
  const { dir, cleanup } = tempTree({
    'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
    'overlay/kustomization.yaml': 'resources:\n- ..\\base\n',
  });
  try {
    const { code, report } = await lintJson([path.join(dir, 'overlay')]);
    expect(code).toBe(2);
    expect(report.inputProblems).toHaveLength(1);
    expect(report.inputProblems[0].message).toMatch(/^kustomize build failed: .*'\.\.\\base'/);
    expect(report.inputProblems[0].message).toMatch(
      / The kustomization names a path with Windows separators \('\\'\), which kustomize reads as part of a file name outside Windows: write it with '\/' \(\.\.\/base\), which kustomize reads on every system\.$/,
    );
  } finally {
    cleanup();
  }
});

test('one broken kustomization met in a walk does not sink the tree: a warning naming it, the rest linted; named, it is an error', async () => {
  const deployment = readFileSync(path.join(OVERLAY_FIXTURE, 'base/deployment.yaml'), 'utf8');
  const { dir, cleanup } = tempTree({
    'good/kustomization.yaml': 'resources:\n- deployment.yaml\n',
    'good/deployment.yaml': deployment,
    'samples/windows-only/kustomization.yaml': 'resources:\n- ..\\..\\good\n',
  });
  try {
    const walked = await cli(['lint', '--format', 'json', '.'], { cwd: dir, env });
    const report = JSON.parse(walked.stdout) as Report & {
      inputProblems: { severity: string; source: string; message: string }[];
    };
    expect(report.summary).toMatchObject({ inputs: 1, objects: 1 });
    expect(report.inputProblems).toEqual([
      expect.objectContaining({ severity: 'warning', source: 'samples/windows-only' }),
    ]);
    expect(report.inputProblems[0].message).toMatch(
      /^kustomize build failed: .* \(Found in the directory walk: the rest is linted\. Name it on the command line to make this an error, or list it in the config file's ignore\.\)$/,
    );
    // The exit code is the rest's: the good overlay's findings, not exit 2.
    expect(walked.code).toBe(report.summary.errors > 0 ? 1 : 0);
    const text = await cli(['lint', '.'], { cwd: dir, env });
    expect(text.stderr).toMatch(/^k8s-windows: samples\/windows-only: warning: kustomize build failed: /m);
    const github = await cli(['lint', '--format', 'github', '.'], { cwd: dir, env });
    expect(github.stdout).toMatch(
      /^::warning file=samples\/windows-only,title=k8s-windows input::kustomize build failed: /m,
    );
    const sarif = JSON.parse((await cli(['lint', '--format', 'sarif', '.'], { cwd: dir, env })).stdout) as {
      runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { level: string }[] }[] }[];
    };
    expect(sarif.runs[0].invocations[0]).toMatchObject({
      executionSuccessful: true,
      toolExecutionNotifications: [{ level: 'warning' }],
    });
    const named = await lintJson([path.join(dir, 'samples/windows-only')]);
    expect(named.code).toBe(2);
    expect(named.report.inputProblems).toEqual([
      { source: expect.any(String), message: expect.stringMatching(/^kustomize build failed: /) },
    ]);
  } finally {
    cleanup();
  }
});

test('a kustomization that inflates Helm charts says how to render it with --enable-helm (not passed unasked)', async () => {
  const { dir, cleanup } = tempTree({
    'k/kustomization.yaml':
      'helmCharts:\n  - name: web\n    repo: https://charts.example.invalid\n    version: 1.0.0\n',
  });
  try {
    const r = await cli(['lint', 'k'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^k8s-windows: k: kustomize build failed: .*must specify --enable-helm/);
    expect(r.stderr).toContain(
      'It inflates Helm charts (helmCharts), which kustomize does only when asked: render it yourself, kustomize build --enable-helm k | k8s-windows lint -',
    );
  } finally {
    cleanup();
  }
});

test("a kustomization with an exec KRM function (the README's fix transformer) says how to render it with plugins on", async () => {
  const r = await cli(['lint', 'examples/kustomize'], { cwd: ROOT, env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'It runs KRM functions or plugins, which kustomize does only when asked: render it yourself, kustomize build --enable-alpha-plugins --enable-exec examples/kustomize | k8s-windows lint -',
  );
});

describe('a real Kustomize tree (kubernetes-sigs/aws-ebs-csi-driver deploy/kubernetes)', () => {
  test('the overlays are rendered, the bases they build on are not linted alone', async () => {
    const { code, report } = await lintJson(['test/fixtures/realworld/kustomize/aws-ebs-csi-driver']);
    expect(report.inputProblems).toEqual([]);
    expect(code).toBe(0);
    // stable, stable/ecr and stable/gcr; base and ecr-public are what they build on.
    expect(report.summary.inputs).toBe(3);
    const stable = render('kustomize', [
      'build',
      'test/fixtures/realworld/kustomize/aws-ebs-csi-driver/overlays/stable',
    ]);
    const perOverlay = parseAllDocuments(stable).length;
    expect(report.summary.objects).toBe(3 * perOverlay);
    // node-windows.yaml is in base/ but not in its kustomization's resources: nothing deploys it, nothing lints it.
    expect(report.findings.filter((f) => f.resource.name === 'ebs-csi-node-windows')).toEqual([]);
    expect(stable).not.toContain('ebs-csi-node-windows');
  });

  test('--no-render reads every file as before, node-windows.yaml included', async () => {
    const { report } = await lintJson(['--no-render', 'test/fixtures/realworld/kustomize/aws-ebs-csi-driver']);
    expect(report.findings.some((f) => f.source.endsWith('base/node-windows.yaml'))).toBe(true);
  });
});

describe('a real chart with Windows workloads (kubernetes-csi/csi-driver-smb charts/latest)', () => {
  const chart = 'test/fixtures/realworld/charts/csi-driver-smb';

  test("rendered with its values.yaml: findings name the template Helm's # Source: comment names, positions in helm template's output", async () => {
    const rendered = render('helm', ['template', chart]);
    const { code, report } = await lintJson([chart]);
    expect(code).toBe(0);
    expect(report.inputProblems).toEqual([]);
    const windows = report.findings.filter((f) => f.resource.name === 'csi-smb-node-win');
    expect(windows.length).toBeGreaterThan(0);
    const template = `${chart}/templates/csi-smb-node-windows-hostprocess.yaml`;
    for (const f of windows) {
      expect(f.source).toBe(template);
      expect(f.rendered?.by).toBe(`helm template ${chart}`);
    }
    const osUnset = windows.find((f) => f.ruleId === 'windows-os-unset');
    // The finding points at the pod spec of the DaemonSet: in the rendered text, and on its own line in the template.
    const lines = rendered.split('\n');
    const daemonSet = lineOf(rendered, '# Source: csi-driver-smb/templates/csi-smb-node-windows-hostprocess.yaml');
    expect(osUnset?.rendered?.line).toBeGreaterThan(daemonSet);
    expect(lines[(osUnset?.rendered?.line ?? 0) - 1]).toBe('    spec:');
    expect(osUnset).toMatchObject({ line: 20, column: 5, rendered: { column: 5, exact: true } });
    expect(readFileSync(path.join(ROOT, template), 'utf8').split('\n')[19]).toBe('    spec:');
    // Every file named is there.
    for (const f of report.findings) expect(statSync(path.join(ROOT, f.source)).isFile()).toBe(true);
  });

  test('--set, --values, --release-name and --namespace reach helm template', async () => {
    const { dir, cleanup } = tempTree({ 'values.yaml': 'windows:\n  csiproxy:\n    enabled: true\n' });
    try {
      const { report } = await lintJson([
        chart,
        '--set',
        'windows.useHostProcessContainers=false',
        '--values',
        path.join(dir, 'values.yaml'),
        '--release-name',
        'smb',
        '--namespace',
        'storage',
      ]);
      expect(report.inputProblems).toEqual([]);
      const byName = new Map(report.findings.map((f) => [f.resource.name, f]));
      expect(byName.get('csi-smb-node-win')).toMatchObject({
        source: `${chart}/templates/csi-smb-node-windows.yaml`,
        resource: { namespace: 'storage' },
      });
      expect(byName.get('csi-proxy-win')).toMatchObject({
        source: `${chart}/templates/csi-proxy-windows.yaml`,
        resource: { namespace: 'storage' },
      });
    } finally {
      cleanup();
    }
  });

  test('fix prints the fixed rendered manifests (what a post-renderer takes) and leaves the chart as it was', async () => {
    const before = snapshot(SMB_CHART);
    const r = await cli(['fix', chart], { cwd: ROOT, env });
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map(
      (d) =>
        d.toJS() as { kind: string; metadata: { name: string }; spec?: { template?: { spec?: { os?: unknown } } } },
    );
    const win = docs.find((d) => d.kind === 'DaemonSet' && d.metadata.name === 'csi-smb-node-win');
    expect(win?.spec?.template?.spec?.os).toEqual({ name: 'windows' });
    expect(r.stdout).toContain('# Source: csi-driver-smb/templates/csi-smb-node-windows-hostprocess.yaml');
    expect(snapshot(SMB_CHART)).toEqual(before);
    const write = await cli(['fix', '--write', chart], { cwd: ROOT, env });
    expect(write.code).toBe(2);
    expect(write.stderr).toContain(`${chart}: is a Helm chart: fix --write never rewrites templates`);
    expect(snapshot(SMB_CHART)).toEqual(before);
  });

  test("Helm's .Capabilities.KubeVersion is the version the run checks against (command line, else config file, else the newest known)", async () => {
    const { dir, cleanup } = tempTree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'web/templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  minor: "{{ .Capabilities.KubeVersion.Minor }}"\n',
      '.k8s-windows.yaml': 'kubernetesVersion: "1.28"\n',
    });
    try {
      const fromConfig = await cli(['fix', 'web'], { cwd: dir, env });
      expect(fromConfig.stdout).toContain('minor: "28"');
      const fromFlag = await cli(['fix', '--kubernetes-version', '1.31', 'web'], { cwd: dir, env });
      expect(fromFlag.stdout).toContain('minor: "31"');
      // Without either, the newest minor the checks know, never Helm's own default (1.20).
      const unset = await cli(['fix', '--no-config', 'web'], { cwd: dir, env });
      expect(unset.stdout).toContain(`minor: "${newestMinor()}"`);
    } finally {
      cleanup();
    }
  });

  test('a chart that emits a PodSecurityPolicy only below 1.25 renders none: no false removed-API error', async () => {
    const { dir, cleanup } = tempTree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'web/templates/psp.yaml': [
        '{{- if semverCompare "<1.25-0" .Capabilities.KubeVersion.GitVersion }}',
        'apiVersion: policy/v1beta1',
        'kind: PodSecurityPolicy',
        'metadata:',
        '  name: web',
        'spec:',
        '  privileged: false',
        '{{- end }}',
        '',
      ].join('\n'),
      'web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
    });
    try {
      const { code, report } = await lintJson(['--no-config', path.join(dir, 'web')]);
      expect(report.inputProblems).toEqual([]);
      expect(report.summary).toMatchObject({ objects: 1, errors: 0 });
      expect(code).toBe(0);
      // For a cluster that old the chart does emit it.
      const old = await lintJson(['--no-config', '--kubernetes-version', '1.24', path.join(dir, 'web')]);
      expect(old.report.summary).toMatchObject({ objects: 2 });
    } finally {
      cleanup();
    }
  });

  test('a helm error is an input problem with what helm said, and the hint for missing dependencies', async () => {
    const { dir, cleanup } = tempTree({
      'web/Chart.yaml':
        'apiVersion: v2\nname: web\nversion: 0.1.0\ndependencies:\n  - name: redis\n    version: 1.0.0\n    repository: https://charts.example.invalid\n',
      'web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
    });
    try {
      const r = await cli(['lint', 'web'], { cwd: dir, env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^k8s-windows: web: helm template failed: .*missing in charts\/ directory/);
      expect(r.stderr).toContain("Fetch the chart's dependencies first: helm dependency build web");
    } finally {
      cleanup();
    }
  });
});

describe('findings on real files: SARIF and GitHub name the template or resource file, never a label', () => {
  const overlay = 'test/fixtures/render/ltsc2019-overlay/overlay';
  const chart = 'test/fixtures/realworld/charts/csi-driver-smb';
  const template = `${chart}/templates/csi-smb-node-windows-hostprocess.yaml`;

  interface SarifResult {
    readonly ruleId: string;
    readonly message: { readonly text: string };
    readonly locations: readonly {
      readonly physicalLocation: {
        readonly artifactLocation: { readonly uri: string; readonly uriBaseId: string };
        readonly region: { readonly startLine: number; readonly startColumn: number };
      };
    }[];
  }

  test('SARIF: artifactLocation.uri is the template or base file, the region its line; the rendered line is in the message when the file does not hold the field', async () => {
    const rendered = render('kustomize', ['build', overlay]);
    const image = 'image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
    const r = await cli(['lint', '--format', 'sarif', overlay, chart], { cwd: ROOT, env });
    expect(r.code).toBe(1);
    const results = (JSON.parse(r.stdout) as { runs: { results: SarifResult[] }[] }).runs[0].results;
    const where = (f: SarifResult) => f.locations[0].physicalLocation;
    const mismatch = results.find((f) => f.ruleId === 'image-build-mismatch');
    expect(mismatch && where(mismatch)).toEqual({
      artifactLocation: { uri: BASE_DEPLOYMENT, uriBaseId: '%SRCROOT%' },
      region: { startLine: 1, startColumn: 1 },
    });
    expect(mismatch?.message.text).toContain(
      ` (At line ${lineOf(rendered, image)}, column ${columnOf(rendered, image)} of kustomize build ${overlay}: this file does not hold the field as rendered.) Fix: `,
    );
    const osUnset = results.find((f) => f.ruleId === 'windows-os-unset');
    expect(osUnset && where(osUnset)).toEqual({
      artifactLocation: { uri: template, uriBaseId: '%SRCROOT%' },
      region: { startLine: 20, startColumn: 5 },
    });
    expect(osUnset?.message.text).not.toContain('(At line');
    // Every result names a file that is there, in the repository: none a label such as `chart (helm template)`.
    const uris = new Set(results.map((f) => where(f).artifactLocation.uri));
    expect(uris).toEqual(new Set([BASE_DEPLOYMENT, template]));
    for (const uri of uris) expect(statSync(path.join(ROOT, uri)).isFile()).toBe(true);
  });

  test('GitHub: file= and line= are the template or base file and its line, relative to the workspace', async () => {
    const r = await cli(['lint', '--format', 'github', overlay, chart], {
      cwd: ROOT,
      env: { ...env, GITHUB_WORKSPACE: ROOT },
    });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.includes('image-build-mismatch'))).toMatch(
      new RegExp(
        `^::error file=${BASE_DEPLOYMENT},line=1,title=k8s-windows image-build-mismatch::Deployment web/iis \\(spec\\.template\\.spec\\.containers\\[0\\]\\.image\\): Image .* \\(At line \\d+, column \\d+ of kustomize build ${overlay}: this file does not hold the field as rendered\\.\\) Fix: `,
      ),
    );
    expect(lines.find((l) => l.includes('windows-os-unset'))).toMatch(
      new RegExp(
        `^::notice file=${template},line=20,col=5,title=k8s-windows windows-os-unset::DaemonSet default/csi-smb-node-win \\(spec\\.template\\.spec\\.os\\): This pod`,
      ),
    );
    const files = new Set(lines.map((l) => /^::\w+ file=([^,]+),/.exec(l)?.[1]));
    expect(files).toEqual(new Set([BASE_DEPLOYMENT, template]));
    for (const file of files) expect(statSync(path.join(ROOT, file ?? '')).isFile()).toBe(true);
  });

  test("a subchart's template is found under charts/ by the subchart's name (its directory may be named otherwise); an overlay's namePrefix and namespace still find the base file", async () => {
    const deployment = (name: string) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        `  name: ${name}`,
        'spec:',
        '  selector:',
        '    matchLabels: {app: win}',
        '  template:',
        '    metadata:',
        '      labels: {app: win}',
        '    spec:',
        '      nodeSelector:',
        '        kubernetes.io/os: windows',
        '      containers:',
        '        - name: web',
        '          image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
        '',
      ].join('\n');
    const { dir, cleanup } = tempTree({
      'app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 0.1.0\n',
      'app/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
      'app/charts/windows-sub/Chart.yaml': 'apiVersion: v2\nname: win\nversion: 0.1.0\n',
      'app/charts/windows-sub/templates/deploy.yaml': deployment('{{ .Release.Name }}-win'),
      'base/kustomization.yaml': 'resources:\n  - cm.yaml\n  - deploy.yaml\n',
      'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
      'base/deploy.yaml': `# The web tier.\n${deployment('web')}`,
      'prod/kustomization.yaml':
        'namespace: shop\nnamePrefix: prod-\nresources:\n  - ../base\npatches:\n  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: web}\n      spec: {replicas: 3}\n',
    });
    try {
      const { report } = await lintJson(['--no-config', ...['app', 'prod'].map((p) => path.join(dir, p))]);
      expect(report.inputProblems).toEqual([]);
      const osUnset = report.findings.filter((f) => f.ruleId === 'windows-os-unset');
      const relative = path.relative(ROOT, dir).split(path.sep).join('/');
      expect(osUnset.map((f) => ({ name: f.resource.name, source: f.source, line: f.line, column: f.column }))).toEqual(
        [
          {
            name: 'release-name-win',
            source: `${relative}/app/charts/windows-sub/templates/deploy.yaml`,
            line: 11,
            column: 5,
          },
          // The base file, one comment line above the object: the pod spec is its line 12.
          { name: 'prod-web', source: `${relative}/base/deploy.yaml`, line: 12, column: 5 },
        ],
      );
    } finally {
      cleanup();
    }
  });
});

describe('fix --check on a chart or kustomization', () => {
  const chart = 'test/fixtures/realworld/charts/csi-driver-smb';
  const template = `${chart}/templates/csi-smb-node-windows-hostprocess.yaml`;
  const postRenderer = `fix the chart's manifests as Helm installs them: helm install NAME ${chart} --post-renderer ./k8s-windows-fix.sh (see 'k8s-windows fix --help')`;

  test('says to fix it as Helm installs it (a post-renderer), not with the --write it refuses', async () => {
    const r = await cli(['fix', '--check', chart], { cwd: ROOT, env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `Would fix: ${chart} (helm template) (5 changes)`,
        `k8s-windows fix --check: 1 file would be fixed, 0 left as they are. For ${chart}, ${postRenderer}.`,
        '',
      ].join('\n'),
    );
    // Beside a file, --write is named for the file only.
    const both = await cli(['fix', '--check', chart, 'test/cli/fixtures/windows-web.yaml'], { cwd: ROOT, env });
    expect(both.stdout.trimEnd().split('\n').at(-1)).toBe(
      `k8s-windows fix --check: 2 files would be fixed, 0 left as they are. Run 'k8s-windows fix --write' to fix the files. For ${chart}, ${postRenderer}.`,
    );
  });

  test('--format github: each change on the template that writes the object, its fix the post-renderer', async () => {
    const r = await cli(['fix', '--check', '--format', 'github', chart], { cwd: ROOT, env });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(line).toMatch(
        new RegExp(`^::error file=${template},line=1,title=k8s-windows [a-z-]+::DaemonSet default/csi-smb-node-win: `),
      );
      expect(line.endsWith(` Fix: ${postRenderer}.`)).toBe(true);
    }
    expect(statSync(path.join(ROOT, template)).isFile()).toBe(true);
  });

  test('on an overlay: says to run fix as a KRM function, and annotates the base file that supplied the object', async () => {
    const overlay = 'test/fixtures/render/ltsc2019-overlay/overlay';
    const args = ['fix', '--check', '--toleration', 'os=windows:NoSchedule', overlay];
    const krm = `fix the kustomization's manifests as Kustomize builds them, with k8s-windows fix --krm as a KRM function in ${overlay} (see 'k8s-windows fix --help'), or pass --no-render to fix its files as plain manifests`;
    const text = await cli(args, { cwd: ROOT, env });
    expect(text.code).toBe(1);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      `k8s-windows fix --check: 1 file would be fixed, 0 left as they are. For ${overlay}, ${krm}.`,
    );
    const github = await cli([...args, '--format', 'github'], { cwd: ROOT, env });
    expect(github.stdout).toBe(
      `::error file=${BASE_DEPLOYMENT},line=1,title=k8s-windows windows-toleration-missing::Deployment web/iis: k8s-windows fix would change this: added a toleration for os=windows:NoSchedule to spec.template.spec.tolerations (windows-toleration-missing). Fix: ${krm}.\n`,
    );
  });
});
