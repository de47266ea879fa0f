/** `k8s-windows fix`: output, --write, reports, exit codes, and the README's Helm and Kustomize examples as processes. */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { cli, tempTree } from '../helpers/cli';
import { readDocPages } from '../../scripts/readme-examples';

const ROOT = path.join(__dirname, '..', '..');
const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const WEB = `# the web tier
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: iis
        image: ${IIS}
        securityContext:
          capabilities: {drop: [ALL]}
`;
const CONFIG = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {a: "1"}\n`;
/** A Windows pod that selects Linux nodes: a contradiction fix leaves to the user (an error). */
const CONTRADICTION = `apiVersion: v1
kind: Pod
metadata: {name: odd}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: linux, node.kubernetes.io/windows-build: 10.0.20348}
  containers: [{name: a, image: '${IIS}'}]
`;

function podSpec(text: string, i = 0) {
  return (parseAllDocuments(text)[i].toJS() as { spec: { template: { spec: Record<string, unknown> } } }).spec.template
    .spec;
}

describe('k8s-windows fix', () => {
  it('prints the fixed manifests on stdout and the change report on stderr', async () => {
    const r = await cli(['fix', '--cloud', 'gke', '-'], { stdin: `${CONFIG}---\n${WEB}` });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${CONFIG}---\n# the web tier\n`)).toBe(true);
    expect(podSpec(r.stdout, 1)).toMatchObject({
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      tolerations: [{ key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
    });
    expect(r.stderr).toContain('<stdin>: Deployment web\n');
    expect(r.stderr).toContain(
      '  removed spec.template.spec.containers[0].securityContext.capabilities {"drop":["ALL"]}: Linux-only, the API server forbids it on Windows pods (windows-linux-only-field).\n',
    );
    expect(r.stderr).toContain('k8s-windows fix: 5 changes in 1 object.\n');
  });

  it('--report json: changes, the findings left and input problems as JSON on stderr', async () => {
    const r = await cli(['fix', '--report', 'json', '-'], { stdin: WEB });
    const report = JSON.parse(r.stderr) as {
      tool: { name: string };
      changes: { ruleId: string }[];
      findings: unknown[];
      inputProblems: unknown[];
    };
    expect(report.tool.name).toBe('k8s-windows');
    expect(report.changes.map((c) => c.ruleId)).toEqual([
      'windows-linux-only-field',
      'windows-os-unset',
      'windows-node-selector-missing',
      'image-build-unpinned',
    ]);
    expect(report.inputProblems).toEqual([]);
  });

  it('exits 1 when errors are left, and still prints the manifests', async () => {
    const r = await cli(['fix', '-'], { stdin: CONTRADICTION });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(CONTRADICTION);
    expect(r.stderr).toContain('Left to fix by hand:');
    expect(r.stderr).toContain('windows-node-selector-missing');
  });

  it('--write rewrites changed files only; several inputs print as one stream otherwise', async () => {
    const { dir, cleanup } = tempTree({ 'web.yaml': WEB, 'cfg.yaml': CONFIG, 'chart/values.yaml': 'replicas: 2\n' });
    try {
      const before = statSync(path.join(dir, 'cfg.yaml')).mtimeMs;
      const printed = await cli(['fix', '.'], { cwd: dir });
      expect(printed.code).toBe(0);
      // values.yaml is not a manifest: not printed; cfg.yaml comes first (sorted), then web.yaml after a separator.
      expect(printed.stdout.startsWith(`${CONFIG}---\n# the web tier\n`)).toBe(true);
      expect(printed.stdout).not.toContain('replicas');

      const r = await cli(['fix', '--write', '.'], { cwd: dir });
      expect(r.code).toBe(0);
      // With --write no manifests go to stdout: the report does.
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('1 file rewritten');
      expect(readFileSync(path.join(dir, 'web.yaml'), 'utf8')).toBe(printed.stdout.slice(`${CONFIG}---\n`.length));
      expect(readFileSync(path.join(dir, 'cfg.yaml'), 'utf8')).toBe(CONFIG);
      expect(statSync(path.join(dir, 'cfg.yaml')).mtimeMs).toBe(before);
      expect(readFileSync(path.join(dir, 'chart/values.yaml'), 'utf8')).toBe('replicas: 2\n');

      const again = await cli(['fix', '--write', '.'], { cwd: dir });
      expect(again.stdout).toContain('k8s-windows fix: 0 changes in 0 objects; 0 files rewritten.');
    } finally {
      cleanup();
    }
  });

  describe('bad input: a message and exit 2, as lint', () => {
    it.each([
      [['fix', '--write', '-'], "--write rewrites files in place; standard input ('-') has no file to write."],
      [['fix', '--toleration', 'os=windows', '-'], "--toleration: toleration 'os=windows' has no ':Effect'."],
      [['fix', '--toleration', 'os=windows:Never', '-'], "effect 'Never' is not a Kubernetes taint effect"],
      [['fix', '--cloud', 'openshift', '-'], "--cloud 'openshift' is not one of eks, aks, gke."],
      [['fix', '--runtime-class', 'windows-2022', '-'], '--runtime-class is set on unpinned Windows pods'],
      [['fix', '--windows-release', '1909', '-'], '--windows-release:'],
      [['fix'], 'no input: name files or directories to fix'],
      [['fix', '--krm', 'a.yaml'], '--krm reads one ResourceList from standard input'],
    ])('%j', async (argv, message) => {
      const r = await cli(argv, { stdin: WEB });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain("Run 'k8s-windows fix --help' for usage.");
    });

    it('malformed YAML: named with line and column, left as it was, exit 2', async () => {
      const r = await cli(['fix', '-'], { stdin: `${WEB}---\nkind: [\n` });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^k8s-windows: <stdin>:\d+:\d+: /m);
      expect(r.stdout.endsWith('---\nkind: [\n')).toBe(true);
    });

    it('--report json: stderr is one JSON document, input problems in it', async () => {
      const r = await cli(['fix', '--report', 'json', '-', 'missing.yaml'], { stdin: WEB });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stderr) as { inputProblems: { source: string; message: string }[] };
      expect(report.inputProblems).toEqual([{ source: 'missing.yaml', message: 'no such file or directory.' }]);
    });

    it('a missing file: exit 2', async () => {
      const r = await cli(['fix', 'missing.yaml']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('k8s-windows: missing.yaml: no such file or directory.');
    });
  });

  it('--help says what is fixed and lists every option', async () => {
    const r = await cli(['fix', '--help']);
    expect(r.code).toBe(0);
    for (const option of [
      '--write',
      '--report',
      '--toleration',
      '--cloud',
      '--windows-release',
      '--runtime-class',
      '--pin-linux',
      '--krm',
    ]) {
      expect(r.stdout).toContain(option);
    }
  });
});

describe('the Helm and Kustomize examples of the README and docs/fix.md, run as processes', () => {
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const main = path.join(ROOT, 'lib/cli/main.ts');
  const readme = readDocPages()
    .map((p) => p.text)
    .join('\n');
  let shim: { dir: string; cleanup: () => void };

  beforeAll(() => {
    // `k8s-windows` on PATH, as `npm install -g` would put it.
    shim = tempTree({ 'k8s-windows': `#!/bin/sh\nexec "${process.execPath}" "${tsx}" "${main}" "$@"\n` });
    chmodSync(path.join(shim.dir, 'k8s-windows'), 0o755);
  });
  afterAll(() => shim.cleanup());

  const runScript = (script: string, input: string) =>
    spawnSync('sh', [script], {
      cwd: ROOT,
      input,
      encoding: 'utf8',
      env: { PATH: `${shim.dir}${path.delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' },
      timeout: 60_000,
    });

  describe('Helm post-renderer', () => {
    const script = path.join(ROOT, 'examples/helm/k8s-windows-fix.sh');

    it('is the script the docs show, and the Helm 4 plugin runs it', () => {
      expect(readme).toContain(readFileSync(script, 'utf8').trimEnd());
      const plugin = parse(readFileSync(path.join(ROOT, 'examples/helm/plugin.yaml'), 'utf8')) as {
        type: string;
        runtimeConfig: { platformCommand: { command: string }[] };
      };
      expect(plugin.type).toBe('postrenderer/v1');
      expect(plugin.runtimeConfig.platformCommand[0].command).toBe('${HELM_PLUGIN_DIR}/k8s-windows-fix.sh');
      expect(statSync(script).mode & 0o111).not.toBe(0);
    });

    it('stdin to stdout, exit 0, when everything left is advice', () => {
      const r = runScript(
        script,
        readFileSync(path.join(ROOT, 'test/fixtures/fix/csi-driver-smb--example-windows-deployment.yaml'), 'utf8'),
      );
      expect(r.status).toBe(0);
      // The fixture's first document is a PersistentVolumeClaim, the second the Windows Deployment.
      expect(podSpec(r.stdout, 1)).toMatchObject({
        os: { name: 'windows' },
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      });
    });

    it('non-zero on errors fix cannot settle, so helm stops', () => {
      const r = runScript(script, CONTRADICTION);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('windows-node-selector-missing');
    });
  });

  describe('Kustomize exec KRM function', () => {
    const dir = path.join(ROOT, 'examples/kustomize');
    const functionConfig = parse(readFileSync(path.join(dir, 'windows-fix.yaml'), 'utf8')) as unknown;
    const items = parseAllDocuments(readFileSync(path.join(dir, 'app.yaml'), 'utf8')).map((d) => d.toJS() as unknown);

    it('is the configuration the docs show', () => {
      for (const file of ['windows-fix.yaml', 'kustomization.yaml', 'k8s-windows-krm.sh']) {
        expect(readme).toContain(readFileSync(path.join(dir, file), 'utf8').trimEnd());
      }
    });

    it('reads a ResourceList and writes it back fixed, options from functionConfig.spec, changes as results', () => {
      const list = stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig });
      const r = runScript(path.join(dir, 'k8s-windows-krm.sh'), list);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = parse(r.stdout) as {
        kind: string;
        items: { spec: { template: { spec: Record<string, unknown> } } }[];
        results: { severity: string; message: string }[];
        functionConfig: unknown;
      };
      expect(out.kind).toBe('ResourceList');
      expect(out.functionConfig).toEqual(functionConfig);
      expect(out.items[0].spec.template.spec).toMatchObject({
        os: { name: 'windows' },
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      });
      expect(out.items[0].spec.template.spec.securityContext).toEqual({ runAsNonRoot: true });
      // pinLinux: true in the function config.
      expect(out.items[1].spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
      expect(out.results.filter((x) => x.message.startsWith('fixed: ')).length).toBe(8);
      expect(out.results.every((x) => ['error', 'warning', 'info'].includes(x.severity))).toBe(true);
    });

    it('anything but a ResourceList: a message and exit 2', () => {
      const r = runScript(path.join(dir, 'k8s-windows-krm.sh'), WEB);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('standard input is not a KRM ResourceList');
    });

    it('a bad function config: a message naming the field, exit 2', () => {
      const bad = { ...(functionConfig as object), spec: { cloud: 'openshift', tolerations: ['os'] } };
      const list = stringify({
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items,
        functionConfig: bad,
      });
      const r = runScript(path.join(dir, 'k8s-windows-krm.sh'), list);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("functionConfig.spec.tolerations[0]: toleration 'os' has no ':Effect'.");
      expect(r.stderr).toContain('functionConfig.spec.cloud: "openshift" is not a cloud the rules know.');
    });
  });
});

describe('input handling shared with lint', () => {
  it('empty standard input (a failed helm template): exit 2, unless --allow-empty', async () => {
    const r = await cli(['fix', '-'], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('standard input has no Kubernetes objects');
    const ok = await cli(['fix', '--allow-empty', '-'], { stdin: '' });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('');
  });

  it('--write keeps the encoding of a file: UTF-16 with its mark, UTF-8 with a mark', async () => {
    const { dir, cleanup } = tempTree({});
    try {
      const utf16 = path.join(dir, 'ps.yaml');
      const bom8 = path.join(dir, 'bom.yaml');
      writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(WEB, 'utf16le')]));
      writeFileSync(bom8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(WEB, 'utf8')]));
      const r = await cli(['fix', '--write', 'ps.yaml', 'bom.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      const a = readFileSync(utf16);
      expect([...a.subarray(0, 2)]).toEqual([0xff, 0xfe]);
      expect(a.subarray(2).toString('utf16le')).toContain('os:\n        name: windows');
      const b = readFileSync(bom8);
      expect([...b.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(b.subarray(3).toString('utf8')).toBe(a.subarray(2).toString('utf16le'));
    } finally {
      cleanup();
    }
  });

  it('--stdin-filename names standard input in the report', async () => {
    const r = await cli(['fix', '--stdin-filename', 'chart.yaml', '-'], { stdin: WEB });
    expect(r.stderr).toContain('chart.yaml: Deployment web\n');
  });

  it('a too deeply nested document: named, left as it was, exit 2', async () => {
    const deep = `apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: ${'['.repeat(400)}${']'.repeat(400)}\n`;
    const r = await cli(['fix', '-'], { stdin: deep });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nested more than');
    expect(r.stdout).toBe(deep);
  });
});

describe('--krm on a real Kustomize base (aws-ebs-csi-driver deploy/kubernetes/base)', () => {
  const base = ['node-windows.yaml', 'node.yaml', 'controller.yaml'].map((f) =>
    readFileSync(path.join(ROOT, 'test/fixtures/fix', `aws-ebs-csi-driver--base-${f}`), 'utf8'),
  );
  // What kustomize sends an exec function: every resource of the build as an item, with its own annotations.
  const items = base.flatMap((text) => parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>));
  const list = stringify({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: {
      apiVersion: 'k8s-windows.io/v1alpha1',
      kind: 'WindowsFix',
      metadata: { name: 'f' },
      spec: { cloud: 'eks', pinLinux: true },
    },
  });

  it('fixes the Windows DaemonSet and leaves the Linux items as they were', async () => {
    const r = await cli(['fix', '--krm'], { stdin: list });
    expect(r.code).toBe(0);
    const out = parse(r.stdout) as {
      items: { kind: string; metadata: { name: string }; spec: { template: { spec: Record<string, unknown> } } }[];
    };
    const windows = out.items.find((i) => i.metadata.name === 'ebs-csi-node-windows');
    expect(windows?.spec.template.spec.os).toEqual({ name: 'windows' });
    for (const [i, item] of out.items.entries()) {
      if (item.metadata.name !== 'ebs-csi-node-windows') expect(item).toEqual(items[i]);
    }
  });
});
