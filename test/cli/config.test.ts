/**
 * The config file, suppressions, exit policies, fix's --diff/--dry-run/--report-file/--format/--quiet and the
 * Helm-template hint, each shaped like the case that showed it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli, tempTree } from '../helpers/cli';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** A HostProcess-free Windows Deployment with one info finding (the startup probe) and a warning (no toleration). */
const WEB = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
      containers:
      - name: iis
        image: ${IIS}
`;

/** The same, with a field the API server forbids on Windows pods (an error). */
const FORBIDDEN = WEB.replace(
  `        image: ${IIS}\n`,
  `        image: ${IIS}\n        securityContext: {runAsUser: 1000}\n`,
);

interface JsonReport {
  summary: Record<string, number>;
  findings: { ruleId: string; severity: string; suppression?: { reason: string; from: string; honoured: boolean } }[];
}

async function lintJson(dir: string, ...args: string[]) {
  const r = await cli(['lint', '--format', 'json', ...args], { cwd: dir });
  return { code: r.code, report: JSON.parse(r.stdout || '{}') as JsonReport, stderr: r.stderr };
}

describe('config file', () => {
  test('found from the working directory upward: rule settings, cloud and windowsRelease apply', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml': "rules:\n  windows-startup-probe: 'off'\ncloud: gke\n",
      'apps/web/web.yaml': WEB,
    });
    try {
      const { report } = await lintJson(path.join(tree.dir, 'apps/web'), 'web.yaml');
      const ids = report.findings.map((f) => f.ruleId);
      expect(ids).not.toContain('windows-startup-probe');
      // On GKE a missing Windows toleration is a warning (GKE taints Windows nodes).
      expect(report.findings.find((f) => f.ruleId === 'windows-toleration-missing')?.severity).toBe('warning');
      const without = await lintJson(path.join(tree.dir, 'apps/web'), '--no-config', 'web.yaml');
      expect(without.report.findings.map((f) => f.ruleId)).toContain('windows-startup-probe');
    } finally {
      tree.cleanup();
    }
  });

  test('the command line wins over the config file, rule by rule', async () => {
    const tree = tempTree({
      'cfg.yaml': "rules:\n  windows-startup-probe: 'off'\n  windows-toleration-missing: error\n",
      'web.yaml': WEB,
    });
    try {
      const { code, report } = await lintJson(
        tree.dir,
        '--config',
        'cfg.yaml',
        '--severity',
        'windows-toleration-missing=info',
        'web.yaml',
      );
      expect(report.findings.find((f) => f.ruleId === 'windows-toleration-missing')?.severity).toBe('info');
      expect(report.findings.map((f) => f.ruleId)).not.toContain('windows-startup-probe');
      expect(code).toBe(0);
    } finally {
      tree.cleanup();
    }
  });

  test('every problem in the config file is named at once, exit 2', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml':
        "rules:\n  windows-startup-prob: 'off'\nkubernetesVersion: 1.30\nsuppressions:\n  - rules: [image-floating-tag]\n",
      'web.yaml': WEB,
    });
    try {
      const r = await cli(['lint', 'web.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "k8s-windows: .k8s-windows.yaml: rules.windows-startup-prob: 'windows-startup-prob' is not a rule id. Did you mean 'windows-startup-probe'",
      );
      expect(r.stderr).toContain('.k8s-windows.yaml: kubernetesVersion: 1.3 is a number: YAML reads 1.30 as 1.3.');
      expect(r.stderr).toContain('.k8s-windows.yaml: suppressions[0].reason: gives no reason.');
      expect(r.stderr).not.toContain('--help');
      const missing = await cli(['lint', '--config', 'nope.yaml', 'web.yaml'], { cwd: tree.dir });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('nope.yaml: no such config file');
    } finally {
      tree.cleanup();
    }
  });

  test('ignore: paths relative to the config file are not read; a named one is said', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml': 'ignore: ["vendor/**"]\n',
      'vendor/up.yaml': FORBIDDEN,
      'web.yaml': WEB,
    });
    try {
      const walked = await lintJson(tree.dir, '.');
      expect(walked.report.summary.inputs).toBe(1);
      const named = await cli(['lint', 'vendor/up.yaml'], { cwd: tree.dir });
      expect(named.stderr).toContain('note: vendor/up.yaml is ignored by the config file');
    } finally {
      tree.cleanup();
    }
  });
});

describe('suppressions', () => {
  test('an annotation per rule with its reason hides the finding; the reason shows in text, JSON and SARIF', async () => {
    const reason = 'IIS starts in 5 s on our pre-pulled nodes';
    const text = WEB.replace(
      '  namespace: shop\n',
      `  namespace: shop\n  annotations:\n    suppress.k8s-windows.io/windows-startup-probe: "${reason}"\n`,
    );
    const tree = tempTree({ 'web.yaml': text });
    try {
      const { report } = await lintJson(tree.dir, 'web.yaml');
      expect(report.summary.suppressed).toBe(1);
      expect(report.findings.find((f) => f.ruleId === 'windows-startup-probe')?.suppression).toEqual({
        kind: 'annotation',
        reason,
        from: 'metadata.annotations[suppress.k8s-windows.io/windows-startup-probe]',
        honoured: true,
      });
      const plain = await cli(['lint', 'web.yaml'], { cwd: tree.dir });
      expect(plain.stdout).toContain(`Suppressed:\n  web.yaml:`);
      expect(plain.stdout).toContain(`windows-startup-probe: ${reason}`);
      expect(plain.stdout).toMatch(/; 1 suppressed\n/);
      const sarif = await cli(['lint', '--format', 'sarif', 'web.yaml'], { cwd: tree.dir });
      const results = JSON.parse(sarif.stdout).runs[0].results as {
        ruleId: string;
        suppressions?: unknown[];
      }[];
      expect(results.find((x) => x.ruleId === 'windows-startup-probe')?.suppressions).toEqual([
        { kind: 'inSource', status: 'accepted', justification: reason },
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test("a typo'd rule id in a suppression is an error and suppresses nothing", async () => {
    const text = WEB.replace(
      '  namespace: shop\n',
      '  namespace: shop\n  annotations:\n    suppress.k8s-windows.io/windows-startup-prob: "slow start is fine"\n',
    );
    const tree = tempTree({ 'web.yaml': text });
    try {
      const { code, report } = await lintJson(tree.dir, 'web.yaml');
      expect(code).toBe(1);
      expect(report.findings.map((f) => [f.ruleId, f.severity])).toEqual(
        expect.arrayContaining([
          ['suppression-invalid', 'error'],
          ['windows-startup-probe', 'info'],
        ]),
      );
    } finally {
      tree.cleanup();
    }
  });

  test('"*" does not hide an error the API server rejects the object for', async () => {
    const text = FORBIDDEN.replace(
      '  namespace: shop\n',
      '  namespace: shop\n  annotations:\n    k8s-windows.io/waive: "*"\n',
    );
    const tree = tempTree({ 'web.yaml': text });
    try {
      const { code, report } = await lintJson(tree.dir, 'web.yaml');
      expect(code).toBe(1);
      const forbidden = report.findings.find((f) => f.ruleId === 'windows-forbidden-field');
      expect(forbidden?.suppression).toMatchObject({ honoured: false });
      expect(report.summary.errors).toBeGreaterThanOrEqual(1);
      // The reasonless waive list is itself a warning.
      expect(report.findings.find((f) => f.ruleId === 'suppression-invalid')?.severity).toBe('warning');
      const text2 = await cli(['lint', 'web.yaml'], { cwd: tree.dir });
      expect(text2.stdout).toContain('not suppressed: the API server rejects this whatever');
    } finally {
      tree.cleanup();
    }
  });

  test('config suppressions by kind, namespace glob and name, with their reason', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml': `suppressions:
  - rules: [windows-startup-probe, windows-toleration-missing]
    kind: Deployment
    namespace: sho*
    name: web
    reason: Our Windows pools are untainted and pre-pull IIS.
`,
      'web.yaml': WEB,
    });
    try {
      const { code, report } = await lintJson(tree.dir, 'web.yaml');
      expect(code).toBe(0);
      expect(report.summary).toMatchObject({ errors: 0, warnings: 0, info: 0, suppressed: 2 });
      expect(report.findings[0].suppression).toEqual({
        kind: 'config',
        reason: 'Our Windows pools are untainted and pre-pull IIS.',
        from: '.k8s-windows.yaml: suppressions[0]',
        honoured: true,
      });
      const other = await lintJson(tree.dir, '--no-config', 'web.yaml');
      expect(other.report.summary.suppressed).toBe(0);
    } finally {
      tree.cleanup();
    }
  });
});

describe('exit policies', () => {
  test('--fail-on and --max-warnings (and failOn/maxWarnings in the config)', async () => {
    const tree = tempTree({ 'web.yaml': WEB, 'strict.yaml': 'failOn: info\n' });
    try {
      expect((await cli(['lint', 'web.yaml'], { cwd: tree.dir })).code).toBe(0);
      expect((await cli(['lint', '--fail-on', 'info', 'web.yaml'], { cwd: tree.dir })).code).toBe(1);
      expect((await cli(['lint', '--fail-on', 'warning', 'web.yaml'], { cwd: tree.dir })).code).toBe(0);
      expect((await cli(['lint', '--config', 'strict.yaml', 'web.yaml'], { cwd: tree.dir })).code).toBe(1);
      const cloud = ['--cloud', 'gke', 'web.yaml'];
      expect((await cli(['lint', '--max-warnings', '0', ...cloud], { cwd: tree.dir })).code).toBe(1);
      expect((await cli(['lint', '--max-warnings', '1', ...cloud], { cwd: tree.dir })).code).toBe(0);
      const bad = await cli(['lint', '--fail-on', 'warn', '--max-warnings=few', 'web.yaml'], { cwd: tree.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--fail-on 'warn' is not one of error, warning, info.");
      expect(bad.stderr).toContain("--max-warnings 'few' is not a count");
    } finally {
      tree.cleanup();
    }
  });
});

describe('fix: --diff, --dry-run, --report-file, --format, --quiet', () => {
  const UNFIXED = WEB.replace('      os: {name: windows}\n', '').replace(
    '      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\n',
    '',
  );

  test('--diff prints a unified diff and writes nothing', async () => {
    const tree = tempTree({ 'web.yaml': UNFIXED });
    try {
      const r = await cli(['fix', '--diff', 'web.yaml'], { cwd: tree.dir });
      expect(r.stdout.startsWith('--- a/web.yaml\n+++ b/web.yaml\n@@ ')).toBe(true);
      expect(r.stdout).toContain('+      os:');
      expect(r.stderr).toContain('(dry run: nothing written)');
      expect(readFileSync(path.join(tree.dir, 'web.yaml'), 'utf8')).toBe(UNFIXED);
    } finally {
      tree.cleanup();
    }
  });

  test('--dry-run reports on stdout and writes nothing, even with --write', async () => {
    const tree = tempTree({ 'web.yaml': UNFIXED });
    try {
      const r = await cli(['fix', '--write', '--dry-run', 'web.yaml'], { cwd: tree.dir });
      expect(r.stdout).toContain("set spec.template.spec.os.name to 'windows'");
      expect(r.stdout).toContain('(dry run: nothing written)');
      expect(readFileSync(path.join(tree.dir, 'web.yaml'), 'utf8')).toBe(UNFIXED);
    } finally {
      tree.cleanup();
    }
  });

  test('--format json --report-file writes the JSON envelope to the file, the manifests to stdout', async () => {
    const tree = tempTree({ 'web.yaml': UNFIXED });
    try {
      const r = await cli(['fix', '--format', 'json', '--report-file', 'report.json', 'web.yaml'], { cwd: tree.dir });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('kind: Deployment');
      const report = JSON.parse(readFileSync(path.join(tree.dir, 'report.json'), 'utf8')) as {
        tool: { name: string };
        summary: Record<string, number>;
        changes: { ruleId: string }[];
        findings: { fixable: boolean }[];
      };
      expect(report.tool.name).toBe('k8s-windows');
      expect(report.changes.map((c) => c.ruleId)).toContain('windows-os-unset');
      expect(report.summary.objects).toBe(1);
    } finally {
      tree.cleanup();
    }
  });

  test('--quiet says nothing when no error is left', async () => {
    const tree = tempTree({ 'web.yaml': UNFIXED });
    try {
      const r = await cli(['fix', '--quiet', '--write', 'web.yaml'], { cwd: tree.dir });
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      writeFileSync(path.join(tree.dir, 'web.yaml'), UNFIXED);
      const sarif = await cli(['fix', '--format', 'sarif', '--dry-run', 'web.yaml'], { cwd: tree.dir });
      expect(JSON.parse(sarif.stdout).version).toBe('2.1.0');
    } finally {
      tree.cleanup();
    }
  });
});

describe('unrendered Helm templates', () => {
  test('a hint to render the chart first, and no "No problems" headline', async () => {
    const tree = tempTree({
      'deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "web.fullname" . }}
  labels:
    {{- include "web.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
`,
    });
    try {
      const r = await cli(['lint', 'deployment.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('deployment.yaml: looks like an unrendered Helm template');
      expect(r.stderr).toContain('helm template my-release ./chart | k8s-windows lint');
      expect(r.stdout).not.toContain('No problems');
    } finally {
      tree.cleanup();
    }
  });
});

describe('fix --krm reads the config file too', () => {
  test('rules and suppressions from .k8s-windows.yaml, under the functionConfig', async () => {
    const list = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- ${WEB.trimEnd().split('\n').join('\n  ')}
functionConfig:
  apiVersion: k8s-windows.io/v1
  kind: WindowsFix
  spec:
    cloud: gke
`;
    const tree = tempTree({
      '.k8s-windows.yaml':
        "rules:\n  windows-startup-probe: 'off'\nsuppressions:\n  - rules: [windows-toleration-missing]\n    reason: tolerated by the overlay\n",
    });
    try {
      const r = await cli(['fix', '--krm'], { cwd: tree.dir, stdin: list });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('windows-startup-probe');
      expect(r.stdout).not.toContain('[windows-toleration-missing]');
      // The suppressed rule is not fixed either: no toleration for GKE's taint (the functionConfig's cloud).
      expect(r.stdout).not.toContain('tolerations');
    } finally {
      tree.cleanup();
    }
  });
});
