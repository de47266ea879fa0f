/**
 * Rendering is as safe and bounded as reading files (issue 36), each case shaped like its reproduction: the real
 * Helm and Kustomize for links and remote entries (a loopback HTTP server counts what reaches it), fake tools on
 * PATH for the hang, the stderr flood and the output flood.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cli } from '../helpers/cli';
import { HOW_TO_GET_TOOLS, TOOLS_DIRS, toolsPath } from '../helpers/tools';

/** What a CI runner holds and a render must never see. */
const SECRET = 'ghp_k8swindowsTestSecret0123456789';

let scratch: string;
let env: Record<string, string>;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'k8s-windows-render-safety-'));
  mkdirSync(path.join(scratch, 'home'));
  env = {
    PATH: toolsPath(),
    HOME: path.join(scratch, 'home'),
    GITHUB_TOKEN: SECRET,
  };
  for (const tool of ['helm', 'kustomize']) {
    const ran = spawnSync(tool, ['version'], { env, encoding: 'utf8' });
    if (ran.error !== undefined || ran.status !== 0) {
      throw new Error(`${tool} not found in ${TOOLS_DIRS.join(', ')} or on PATH: ${HOW_TO_GET_TOOLS}.`);
    }
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `files` under a fresh directory in the scratch space; returns it. */
function tree(name: string, files: Readonly<Record<string, string>>): string {
  const dir = path.join(scratch, name);
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return dir;
}

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

interface Report {
  readonly summary: { readonly inputs: number; readonly objects: number };
  readonly findings: readonly { readonly ruleId: string; readonly message: string }[];
  readonly inputProblems: readonly { readonly source?: string; readonly message: string }[];
}

async function lintJson(args: readonly string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const r = await cli(['lint', '--format', 'json', ...args], { cwd, env: { ...env, ...extraEnv } });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const CHART = 'apiVersion: v2\nname: web\nversion: 0.1.0\n';
/** A Windows Deployment whose image tag is whatever the chart's leak.txt holds. */
const LEAKING_TEMPLATE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeSelector:
        kubernetes.io/os: windows
      containers:
        - name: web
          image: "mcr.microsoft.com/windows/servercore/iis:{{ .Files.Get "leak.txt" | trim }}"
`;

describe("a chart's symbolic links", () => {
  let repo: string;

  beforeAll(() => {
    tree('outside', {
      'secret.txt': `${SECRET}\n`,
      'template.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  token: ${SECRET}\n`,
    });
    repo = tree('chart-repo', {
      'charts/web/Chart.yaml': CHART,
      'charts/web/templates/deployment.yaml': LEAKING_TEMPLATE,
      'shared/tag.txt': 'windowsservercore-ltsc2019\n',
    });
    const chart = path.join(repo, 'charts/web');
    link('../../../outside/secret.txt', path.join(chart, 'leak.txt'));
    link('/proc/self/environ', path.join(chart, 'environ.txt'));
    link('../../../../outside/template.yaml', path.join(chart, 'templates/leak.yaml'));
  });

  test('links out of the directory named are not read: no secret in a finding, SARIF, GitHub annotations or fix output; a note names each link', async () => {
    const outputs: string[] = [];
    for (const format of ['json', 'sarif', 'github', 'text']) {
      const r = await cli(['lint', '--format', format, 'charts'], { cwd: repo, env });
      outputs.push(r.stdout, r.stderr);
    }
    const fixed = await cli(['fix', 'charts'], { cwd: repo, env });
    outputs.push(fixed.stdout, fixed.stderr);
    for (const out of outputs) expect(out).not.toContain(SECRET);
    // The chart was still rendered, from a copy without the links.
    expect(fixed.stdout).toContain('kind: Deployment');
    expect(fixed.stdout).not.toContain('kind: ConfigMap');
    const { report, stderr } = await lintJson(['charts'], repo);
    expect(report.inputProblems).toEqual([]);
    expect(report.summary).toMatchObject({ inputs: 1, objects: 1 });
    expect(stderr).toContain(
      `charts/web/leak.txt is a symbolic link to ${path.join(scratch, 'outside/secret.txt')}, outside charts: not read (helm template renders a copy of the chart without it).`,
    );
    expect(stderr).toContain('charts/web/environ.txt is a symbolic link to /proc/');
    expect(stderr).toContain(
      `charts/web/templates/leak.yaml is a symbolic link to ${path.join(scratch, 'outside/template.yaml')}, outside charts: not read`,
    );
  });

  test('a link that stays inside the directory named is read, and the chart renders where it is', async () => {
    const inside = tree('chart-inside', {
      'charts/web/Chart.yaml': CHART,
      'charts/web/templates/deployment.yaml': LEAKING_TEMPLATE,
      'shared/tag.txt': 'windowsservercore-ltsc2019\n',
    });
    link('../../shared/tag.txt', path.join(inside, 'charts/web/leak.txt'));
    const fixed = await cli(['fix', '.'], { cwd: inside, env });
    expect(fixed.stderr).not.toContain('symbolic link');
    expect(fixed.stdout).toContain('image: "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019"');
    // Named alone, the chart is its own root: the same link now leads out of it.
    const alone = await cli(['fix', 'charts/web'], { cwd: inside, env });
    expect(alone.stderr).toContain('charts/web/leak.txt is a symbolic link to');
    expect(alone.stdout).toContain('image: "mcr.microsoft.com/windows/servercore/iis:"');
  });

  test('Helm gets a minimal environment: PATH, HOME and HELM_* reach it, the caller’s tokens do not', async () => {
    const bin = tree('env-bin', {
      helm: [
        '#!/bin/sh',
        'cat <<EOF',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: seen',
        'data:',
        "  env: \"$(env | sort | tr '\\n' ' ')\"",
        'EOF',
      ].join('\n'),
    });
    chmodSync(path.join(bin, 'helm'), 0o755);
    const chart = tree('env-chart', { 'Chart.yaml': CHART });
    const r = await cli(['fix', chart], {
      cwd: scratch,
      env: {
        ...env,
        PATH: `${bin}${path.delimiter}${env.PATH}`,
        HELM_CACHE_HOME: '/tmp/helm-cache',
        AWS_SECRET_ACCESS_KEY: SECRET,
      },
    });
    expect(r.stdout).toContain('HELM_CACHE_HOME=/tmp/helm-cache');
    expect(r.stdout).toContain(`HOME=${env.HOME}`);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain('GITHUB_TOKEN');
    expect(r.stdout).not.toContain('AWS_SECRET_ACCESS_KEY');
  });
});

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: remote
spec:
  selector:
    matchLabels: {app: remote}
  template:
    metadata:
      labels: {app: remote}
    spec:
      containers:
        - name: web
          image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
`;

describe('a kustomization', () => {
  let server: Server;
  let requests: string[];
  let base: string;

  beforeAll(async () => {
    requests = [];
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/yaml' });
      res.end(DEPLOYMENT);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests.length = 0;
  });

  test.each([
    ['a remote file resource', (b: string) => `resources:\n- ${b}/deploy.yaml\n`, 'resources'],
    [
      'a git base over HTTPS',
      (b: string) => `resources:\n- ${b.replace('http:', 'https:')}/org/repo.git//deploy?ref=v1\n`,
      'resources',
    ],
    ['a go-getter git address', (b: string) => `resources:\n- git::${b}/org/repo.git\n`, 'resources'],
    ['a host-named base that is not on disk', () => 'resources:\n- github.com/org/repo//deploy?ref=v1\n', 'resources'],
    [
      'a remote patch',
      (b: string) => `resources:\n- deploy.yaml\npatches:\n- path: ${b}/patch.yaml\n`,
      'patches[].path',
    ],
    ['a remote component', (b: string) => `resources:\n- deploy.yaml\ncomponents:\n- ${b}/component\n`, 'components'],
  ])(
    '%s is refused before kustomize runs: no request reaches the host, the entry and the option are named',
    async (_, text, field) => {
      const dir = tree(`remote-${field.replace(/\W/g, '')}-${Math.random().toString(36).slice(2)}`, {
        'kustomization.yaml': text(base),
        'deploy.yaml': DEPLOYMENT,
      });
      const { code, report } = await lintJson([dir], scratch);
      expect(code).toBe(2);
      expect(requests).toEqual([]);
      expect(report.inputProblems).toHaveLength(1);
      expect(report.inputProblems[0].message).toMatch(
        new RegExp(
          `kustomization\\.yaml: ${field.replace(/[[\].]/g, '\\$&')} entry '.+' is fetched over the network, and lint and fix do not reach hosts a repository names: not rendered\\. --allow-remote-resources lets Kustomize fetch it`,
        ),
      );
    },
  );

  test('--allow-remote-resources lets kustomize fetch a remote resource, and lint judges it', async () => {
    const dir = tree('remote-allowed', { 'kustomization.yaml': `resources:\n- ${base}/deploy.yaml\n` });
    const { report } = await lintJson(['--allow-remote-resources', dir], scratch);
    expect(requests).toEqual(['/deploy.yaml']);
    expect(report.inputProblems).toEqual([]);
    expect(report.summary).toMatchObject({ inputs: 1, objects: 1 });
    expect(report.findings.map((f) => f.ruleId)).toContain('windows-node-selector-missing');
  });

  test('a base or a file reached through a link out of the directory named is refused before kustomize runs', async () => {
    tree('kbase-outside', {
      'kustomization.yaml': 'resources:\n- cm.yaml\n',
      'cm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  token: ${SECRET}\n`,
    });
    const repo = tree('k-repo', {
      'dir-link/kustomization.yaml': 'resources:\n- linked\n',
      'file-link/kustomization.yaml': 'resources:\n- leak.yaml\n',
    });
    link('../../kbase-outside', path.join(repo, 'dir-link/linked'));
    link('../../kbase-outside/cm.yaml', path.join(repo, 'file-link/leak.yaml'));
    const dirLink = await lintJson(['dir-link'], repo);
    expect(dirLink.code).toBe(2);
    expect(dirLink.report.inputProblems).toEqual([
      {
        source: 'dir-link',
        message: `dir-link/kustomization.yaml: resources entry 'linked' leads through a symbolic link to ${path.join(scratch, 'kbase-outside')}, outside dir-link: not rendered (name a directory that holds it to check it).`,
      },
    ]);
    const fileLink = await lintJson(['file-link'], repo);
    expect(fileLink.code).toBe(2);
    expect(fileLink.report.inputProblems[0].message).toBe(
      `file-link/kustomization.yaml: resources entry 'leak.yaml' leads through a symbolic link to ${path.join(scratch, 'kbase-outside/cm.yaml')}, outside file-link: not rendered (name a directory that holds it to check it).`,
    );
    for (const r of [dirLink, fileLink]) expect(JSON.stringify(r)).not.toContain(SECRET);
  });
});

/** Whether process `pid` still runs (a zombie waiting for its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** A fake tool on PATH: `name` running `body` (sh). */
function fakeTool(dirName: string, name: string, body: string): string {
  const bin = tree(dirName, { [name]: `#!/bin/sh\n${body}\n` });
  chmodSync(path.join(bin, name), 0o755);
  return bin;
}

describe('bounds over every render', () => {
  test('one deadline for the run: a helm that ignores SIGTERM is stopped with the child it started, the next render is not started, each message names its render', async () => {
    const pids = path.join(scratch, 'pids');
    mkdirSync(pids);
    const bin = fakeTool(
      'hang-bin',
      'helm',
      [
        "trap '' TERM",
        `sh -c 'echo $$ > "$HELM_TEST_PIDS/child-$PPID"; exec sleep 300' &`,
        'echo $$ > "$HELM_TEST_PIDS/helm-$$"',
        'while :; do sleep 1; done',
      ].join('\n'),
    );
    const repo = tree('hang-repo', { 'a/Chart.yaml': CHART, 'b/Chart.yaml': CHART });
    const r = await lintJson(['--render-timeout', '1', '.'], repo, {
      PATH: `${bin}${path.delimiter}${env.PATH}`,
      HELM_TEST_PIDS: pids,
    });
    expect(r.code).toBe(2);
    expect(r.report.inputProblems).toEqual([
      {
        source: 'a',
        message:
          'helm template failed: it did not finish before the render deadline of 1 s for all renders of the run (--render-timeout) passed: it was stopped, with every process it started (remote bases or chart repositories that do not answer?).',
      },
      {
        source: 'b',
        message:
          'helm template failed: not started: the render deadline of 1 s for all renders of the run (--render-timeout) passed before its turn.',
      },
    ]);
    const started = readdirSync(pids);
    expect(started.filter((f) => f.startsWith('helm-'))).toHaveLength(1);
    expect(started.filter((f) => f.startsWith('child-'))).toHaveLength(1);
    for (const f of started) expect(alive(Number(readFileSync(path.join(pids, f), 'utf8')))).toBe(false);
  });

  test("a tool's stderr is kept as a bounded head and tail: 200 MB on one line is a short message", async () => {
    const bin = fakeTool(
      'stderr-bin',
      'helm',
      "head -c 200000000 /dev/zero | tr '\\0' x >&2\necho ' the real cause' >&2\nexit 1",
    );
    const chart = tree('stderr-chart', { 'Chart.yaml': CHART });
    const extra = { PATH: `${bin}${path.delimiter}${env.PATH}` };
    const { code, report } = await lintJson([chart], scratch, extra);
    expect(code).toBe(2);
    const message = report.inputProblems[0].message;
    expect(message.length).toBeLessThan(2_200);
    expect(message).toMatch(/^helm template failed: x{1000} … \(\d+ characters left out\) … x+ the real cause$/);
    const github = await cli(['lint', '--format', 'github', chart], { cwd: scratch, env: { ...env, ...extra } });
    expect(github.stdout.length + github.stderr.length).toBeLessThan(10_000);
  });

  test('rendered text is held to the input limit, as a file is', async () => {
    const bin = fakeTool(
      'flood-bin',
      'helm',
      "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: big}\\ndata:\\n  x: '\nhead -c 3000000 /dev/zero | tr '\\0' x",
    );
    const chart = tree('flood-chart', { 'Chart.yaml': CHART });
    const { code, report } = await lintJson(['--max-input-size', '1MiB', chart], scratch, {
      PATH: `${bin}${path.delimiter}${env.PATH}`,
    });
    expect(code).toBe(2);
    expect(report.inputProblems).toEqual([
      {
        source: path.relative(scratch, chart),
        message:
          'helm template failed: its output is larger than the input limit of 1 MiB: it was read no further (--max-input-size raises the limit).',
      },
    ]);
    expect(existsSync(chart)).toBe(true);
  });
});
