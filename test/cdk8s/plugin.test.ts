import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { ValidationContext as CliValidationContext, Validation } from 'cdk8s-cli/lib/plugins';
import { WindowsValidationError } from 'k8s-windows';
import { WindowsValidation, type ValidationContext, type ValidationViolation } from 'k8s-windows/cdk8s/plugin';

// The plugin's own declaration of the context must accept what cdk8s-cli passes (checked by `npm run typecheck`).
const _contextFits = (c: CliValidationContext): ValidationContext => c;
const _pluginFits = (p: WindowsValidation): Validation => p;
void _contextFits;
void _pluginFits;

const WINDOWS_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  os:
    name: windows
  nodeSelector:
    kubernetes.io/os: windows
    node.kubernetes.io/windows-build: '10.0.20348'
  tolerations:
    - key: os
      operator: Equal
      value: windows
      effect: NoSchedule
  containers:
    - name: iis
      image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
`;

/** The same pod with a field the API server forbids on Windows pods. */
const FORBIDDEN = WINDOWS_POD.replace('  containers:', '  securityContext:\n    runAsUser: 1000\n  containers:');

/** A Linux Deployment that floats on `latest` and has no OS selector: warnings only. */
const LINUX_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: cache
spec:
  selector:
    matchLabels: { app: cache }
  template:
    metadata:
      labels: { app: cache }
    spec:
      containers:
        - name: redis
          image: redis:7
`;

interface FakeContext extends ValidationContext {
  readonly violations: ValidationViolation[];
  readonly submitted: { status: 'success' | 'failure'; metadata?: Record<string, string> }[];
  readonly logs: string[];
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-plugin-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function manifests(files: Record<string, string>): string[] {
  return Object.entries(files).map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}

function context(paths: string[]): FakeContext {
  const violations: ValidationViolation[] = [];
  const submitted: FakeContext['submitted'] = [];
  const logs: string[] = [];
  return {
    manifests: paths,
    violations,
    submitted,
    logs,
    report: {
      addViolation: (v) => void violations.push(v),
      submit: (status, metadata) => void submitted.push({ status, ...(metadata ? { metadata: { ...metadata } } : {}) }),
    },
    logger: { log: (m) => void logs.push(m) },
  };
}

async function run(files: Record<string, string>, properties?: Record<string, unknown>): Promise<FakeContext> {
  const ctx = context(manifests(files));
  await new WindowsValidation(properties).validate(ctx);
  return ctx;
}

describe('WindowsValidation', () => {
  test('a valid Windows pod: success, no violations', async () => {
    const ctx = await run({ 'app.k8s.yaml': WINDOWS_POD }, { rules: { 'windows-startup-probe': 'off' } });
    expect(ctx.violations).toEqual([]);
    expect(ctx.submitted).toEqual([
      { status: 'success', metadata: { errors: '0', warnings: '0', info: '0', failOn: 'error' } },
    ]);
    expect(ctx.logs).toEqual(['k8s-windows: 1 objects in 1 manifests: 0 errors, 0 warnings, 0 notes.']);
  });

  test('an error fails the report and names the rule, resource, field, line, manifest and fix', async () => {
    const ctx = await run({ 'app.k8s.yaml': FORBIDDEN }, { rules: { 'windows-startup-probe': 'off' } });
    expect(ctx.submitted[0].status).toBe('failure');
    expect(ctx.violations).toEqual([
      {
        ruleName: 'windows-forbidden-field [error]',
        recommendation: expect.stringMatching(/^Pod shop\/web: spec\.securityContext\.runAsUser 1000: /),
        fix: expect.stringMatching(/runAsUserName.* Fixable: `k8s-windows fix` rewrites it\./),
        violatingResources: [
          {
            resourceName: 'web',
            locations: ['spec.securityContext.runAsUser (line 18)'],
            manifestPath: join(dir, 'app.k8s.yaml'),
          },
        ],
      },
    ]);
  });

  test('a finding about an absent field points at the nearest parent present, with its real line', async () => {
    const ctx = await run({ 'app.k8s.yaml': WINDOWS_POD });
    const probe = ctx.violations.find((v) => v.ruleName.startsWith('windows-startup-probe'));
    const [location] = probe?.violatingResources[0].locations ?? [];
    const m = /^spec\.containers\[0\] \(line (\d+): startupProbe is absent\)$/.exec(location ?? '');
    expect(m).not.toBeNull();
    expect(WINDOWS_POD.split('\n')[Number(m?.[1]) - 1]).toMatch(/^\s*- /);
  });

  test('a pod selecting only the beta OS label: the finding is placed on the line lint places it', async () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: a
    image: mcr.microsoft.com/windows/nanoserver:ltsc2022
  nodeSelector:
    beta.kubernetes.io/os: windows
`;
    const ctx = await run({ 'app.k8s.yaml': text });
    const beta = ctx.violations.find((v) => v.ruleName.startsWith('windows-beta-os-label'));
    expect(beta?.violatingResources[0].locations).toEqual(['spec.nodeSelector[beta.kubernetes.io/os] (line 10)']);
  });

  test('warnings are listed but do not fail; every manifest is checked', async () => {
    const ctx = await run({ 'a.k8s.yaml': WINDOWS_POD, 'b.k8s.yaml': LINUX_DEPLOYMENT });
    expect(ctx.submitted[0].status).toBe('success');
    // a Linux pod without an OS selector in a set with Windows pods (hybrid cluster)
    expect(ctx.violations).toContainEqual(
      expect.objectContaining({
        ruleName: 'linux-node-selector-missing [warning]',
        violatingResources: [expect.objectContaining({ resourceName: 'cache', manifestPath: join(dir, 'b.k8s.yaml') })],
      }),
    );
    expect(ctx.violations.filter((v) => v.ruleName.endsWith('[error]'))).toEqual([]);
    expect(ctx.submitted[0].metadata).toEqual(expect.objectContaining({ errors: '0', warnings: '1', info: '1' }));
  });

  test("failOn: 'warning' fails on warnings", async () => {
    const ctx = await run({ 'a.k8s.yaml': WINDOWS_POD, 'b.k8s.yaml': LINUX_DEPLOYMENT }, { failOn: 'warning' });
    expect(ctx.violations.some((v) => v.ruleName.endsWith('[warning]'))).toBe(true);
    expect(ctx.submitted[0]).toEqual(expect.objectContaining({ status: 'failure' }));
  });

  test('rules can be turned off from cdk8s.yaml', async () => {
    const ctx = await run(
      { 'app.k8s.yaml': FORBIDDEN },
      { rules: { 'windows-forbidden-field': 'off', 'windows-startup-probe': 'off' } },
    );
    expect(ctx.violations).toEqual([]);
    expect(ctx.submitted[0].status).toBe('success');
  });

  test('windowsRelease is passed to the engine and shown in the summary', async () => {
    const ctx = await run(
      { 'app.k8s.yaml': WINDOWS_POD },
      { windowsRelease: '2022', rules: { 'windows-startup-probe': 'off' } },
    );
    expect(ctx.submitted[0].metadata).toEqual(expect.objectContaining({ windowsRelease: '2022' }));
  });

  test('cloud re-levels cloud-dependent advice: GKE taints Windows nodes', async () => {
    const untolerated = WINDOWS_POD.replace(/ {2}tolerations:\n(?: {4,6}.*\n)+/, '');
    const level = async (properties: Record<string, unknown>) =>
      (await run({ 'app.k8s.yaml': untolerated }, properties)).violations.find((v) =>
        v.ruleName.startsWith('windows-toleration-missing'),
      )?.ruleName;
    expect(await level({})).toBe('windows-toleration-missing [info]');
    expect(await level({ cloud: 'gke' })).toBe('windows-toleration-missing [warning]');
  });

  test('the charts of one app are one set: a Linux pod in another chart is told to pin itself', async () => {
    const linux = `apiVersion: v1
kind: Pod
metadata:
  name: cache
spec:
  containers:
    - name: redis
      image: redis:7
`;
    const ctx = await run({ 'a.k8s.yaml': WINDOWS_POD, 'b.k8s.yaml': linux });
    expect(ctx.violations.map((v) => v.ruleName)).toContain('linux-node-selector-missing [warning]');
  });

  test('malformed YAML fails the report', async () => {
    const ctx = await run({ 'bad.k8s.yaml': 'kind: Pod\nmetadata: [unclosed\n' });
    expect(ctx.submitted[0].status).toBe('failure');
    expect(ctx.violations[0]).toEqual(
      expect.objectContaining({
        ruleName: 'input-invalid-yaml [error]',
        violatingResources: [expect.objectContaining({ manifestPath: join(dir, 'bad.k8s.yaml') })],
      }),
    );
  });

  test('bad properties throw every problem at once', () => {
    let error: unknown;
    try {
      new WindowsValidation({
        windowsRelease: 2022,
        kubernetesVersion: 1.3,
        failOn: 'info',
        cloud: 'azure',
        rules: { 'no-such-rule': 'off', 'windows-forbidden-field': false },
        colour: true,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    // In the order written; the engine's one settings reader, as the KRM function and the policy pack read theirs.
    expect((error as WindowsValidationError).issues.map((i) => i.path)).toEqual([
      'properties.kubernetesVersion',
      'properties.cloud',
      'properties.rules.no-such-rule',
      'properties.rules.windows-forbidden-field',
      'properties.colour',
    ]);
    expect((error as WindowsValidationError).message).toContain("quote 'off' in YAML");
    expect((error as WindowsValidationError).message).toContain('YAML reads 1.30 as 1.3');
  });

  test('an unquoted release (2022) and failOn: info are taken, as the KRM function and the CLI take them', () => {
    expect(() => new WindowsValidation({ windowsRelease: 2022, failOn: 'info' })).not.toThrow();
  });

  test('reads the k8s-windows config file (rules, suppressions); cdk8s.yaml properties win rule by rule', async () => {
    const config = join(dir, 'team.k8s-windows.yaml');
    writeFileSync(
      config,
      [
        'rules:',
        "  windows-startup-probe: 'off'",
        '  windows-forbidden-field: warning',
        'failOn: warning',
        'suppressions:',
        '  - rules: [windows-toleration-missing]',
        '    reason: our Windows pools carry no taint',
        '',
      ].join('\n'),
    );
    const ctx = await run({ 'app.k8s.yaml': FORBIDDEN }, { config, rules: { 'windows-forbidden-field': 'error' } });
    expect(ctx.violations.map((v) => v.ruleName)).toEqual(['windows-forbidden-field [error]']);
    expect(ctx.submitted[0].metadata?.failOn).toBe('warning');
    writeFileSync(config, "rules:\n  windows-startup-prob: 'off'\n");
    expect(() => new WindowsValidation({ config })).toThrow(/team.k8s-windows.yaml: rules.windows-startup-prob/);
  });

  test('no properties: defaults', () => {
    expect(() => new WindowsValidation()).not.toThrow();
    expect(() => new WindowsValidation({})).not.toThrow();
  });
});
