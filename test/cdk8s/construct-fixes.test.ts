/**
 * Issue 17: a construct user is told the prop that fixes a problem in cdk8s-plus/k8s-windows words, not the
 * manifest field; the plugin answers a plain cdk8s-plus workload on a Windows image with the construct to use.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { type Chart, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { RULES_BY_ID } from '../../lib/core/validate/rules';
import { WindowsDeployment } from 'k8s-windows/cdk8s';
import { WindowsValidation, type ValidationViolation } from 'k8s-windows/cdk8s/plugin';
import { RULE_MODULES } from '../../lib/core/rules';
import { captureError, IIS, silenceWarnings } from '../helpers/cdk8s';

const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';

let chart: Chart;
let emitWarning: jest.SpyInstance;
let dir: string;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-words-'));
});
afterEach(() => {
  emitWarning.mockRestore();
  rmSync(dir, { recursive: true, force: true });
});

test('every rule with a cdk8s fix is in the catalogue', () => {
  const withFix = RULE_MODULES.filter((r) => r.frontDoorFixes?.cdk8s !== undefined).map((r) => r.meta.id);
  expect(withFix.length).toBeGreaterThan(10);
  for (const id of withFix) expect(RULES_BY_ID.has(id)).toBe(true);
});

describe('refusals name the prop written and the prop that fixes it', () => {
  test("a container's securityContext: { user: 1000 }", () => {
    const err = captureError(
      () => new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, securityContext: { user: 1000 } }] }),
    );
    expect(err.issues).toEqual([
      {
        path: 'spec.template.spec.containers[0].securityContext.runAsUser',
        message:
          "spec.template.spec.containers[0].securityContext.runAsUser 1000: Forbidden: cannot be set for a windows pod (the container's `securityContext.user`).",
        fix: "Remove `user` from the container's `securityContext`; to run as a non-admin Windows user, set `windows: { runAsUserName: 'ContainerUser' }` or `windows: { securityProfile: 'restricted' }`.",
        ruleId: 'windows-forbidden-field',
      },
    ]);
    expect(err.message).not.toContain('windowsOptions');
  });

  test("the workload's securityContext: { user: 1000 }", () => {
    const err = captureError(
      () => new WindowsDeployment(chart, 'web', { securityContext: { user: 1000 }, containers: [{ image: IIS }] }),
    );
    expect(err.issues.map((i) => [i.message, i.fix])).toEqual([
      [
        "spec.template.spec.securityContext.runAsUser 1000: Forbidden: cannot be set for a windows pod (the workload's `securityContext.user`).",
        "Remove `user` from the workload's `securityContext`; to run as a non-admin Windows user, set `windows: { runAsUserName: 'ContainerUser' }` or `windows: { securityProfile: 'restricted' }`.",
      ],
    ]);
  });

  test('an ltsc2019 image on the default 2022 target', () => {
    const err = captureError(() => new WindowsDeployment(chart, 'web', { containers: [{ image: IIS_2019 }] }));
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0].ruleId).toBe('image-build-mismatch');
    expect(err.issues[0].fix).toBe(
      "Use the image's ltsc2022 tag, or run it on Windows Server 2019 nodes: `windows: { release: '2019' }`.",
    );
  });

  test('an ltsc2019 image on a container added after construction, refused at synth', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    web.addContainer({ name: 'old', image: IIS_2019 });
    const err = captureError(() => Testing.synth(chart));
    expect(err.issues.map((i) => i.fix)).toEqual([
      "Use the image's ltsc2022 tag, or run it on Windows Server 2019 nodes: `windows: { release: '2019' }`.",
    ]);
  });
});

/** Runs the plugin over the chart's manifests, from `cwd` (where `cdk8s synth` runs). */
async function plugin(c: Chart, cwd: string): Promise<ValidationViolation[]> {
  const path = join(dir, 'app.k8s.yaml');
  writeFileSync(path, Yaml.stringify(...Testing.synth(c)));
  const violations: ValidationViolation[] = [];
  const before = process.cwd();
  process.chdir(cwd);
  try {
    await new WindowsValidation({ rules: {} }).validate({
      manifests: [path],
      report: { addViolation: (v) => void violations.push(v), submit: () => undefined },
      logger: { log: () => undefined },
    });
  } finally {
    process.chdir(before);
  }
  return violations;
}

describe('the plugin on a plain cdk8s-plus workload running a Windows image', () => {
  test('one answer per workload: the construct, from the entry for the installed cdk8s-plus major', async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { 'cdk8s-plus-33': '^2.5.0' } }));
    new kplus.Deployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    const violations = await plugin(chart, dir);
    expect(violations).toHaveLength(1);
    const [v] = violations;
    expect(v.ruleName).toBe('use-windows-construct [error]');
    expect(v.recommendation).toMatch(
      /^Deployment test-web-c8[0-9a-f]+: a cdk8s-plus Deployment runs the Windows image 'mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022' without what Windows pods need \(\d+ findings: /,
    );
    expect(v.fix).toBe(
      "Use WindowsDeployment from 'k8s-windows/cdk8s-plus-33' instead of kplus.Deployment: the same props plus `windows: { release, ... }`, and it writes os, the Windows nodeSelector and tolerations and drops what Windows refuses. `import { WindowsDeployment } from 'k8s-windows/cdk8s-plus-33';`",
    );
    expect(v.fix).not.toContain('k8s-windows fix');
  });

  test('a kplus.Job on a Windows image gets WindowsJob; k8s-windows/cdk8s for cdk8s-plus-28', async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { 'cdk8s-plus-28': '^2.5.0' } }));
    new kplus.Job(chart, 'report', { containers: [{ image: IIS }] });
    const violations = await plugin(chart, dir);
    expect(violations.map((v) => v.fix.split(':')[0])).toEqual([
      "Use WindowsJob from 'k8s-windows/cdk8s' instead of kplus.Job",
    ]);
  });

  test('a Linux kplus.Deployment beside it keeps its own findings, not the construct answer', async () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    new kplus.Deployment(chart, 'cache', { containers: [{ image: 'redis:7.2', portNumber: 6379 }] });
    const violations = await plugin(chart, dir);
    expect(violations.map((v) => v.ruleName)).toContain('linux-node-selector-missing [warning]');
    expect(violations.map((v) => v.ruleName)).not.toContain('use-windows-construct [error]');
    // What a cdk8s-plus construct wrote is fixed in the app, not by rewriting dist/.
    for (const v of violations) expect(v.fix).not.toContain('k8s-windows fix');
  });
});

test("the plugin's fix on a k8s-windows construct's output is in construct words", async () => {
  writeFileSync(join(dir, 'package.json'), '{}');
  new WindowsDeployment(chart, 'web', {
    containers: [
      { image: 'mcr.microsoft.com/windows/servercore/iis:latest', startup: kplus.Probe.fromCommand(['cmd']) },
    ],
  });
  const violations = await plugin(chart, dir);
  expect(violations.map((v) => [v.ruleName, v.fix])).toEqual([
    [
      'image-floating-tag [info]',
      "Use an image tag that names the Windows build of the workload's `windows.release` (`ltsc2022` by default), or a multi-arch tag. See https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility",
    ],
  ]);
});

describe('issue 23: a Windows Server 2025 node runs ltsc2022 images with process isolation', () => {
  test("WindowsDeployment with windows: { release: '2025' } takes the ltsc2022 IIS image", () => {
    new WindowsDeployment(chart, 'iis', { windows: { release: '2025' }, containers: [{ image: IIS }] });
    const [deployment] = Testing.synth(chart) as {
      spec: { template: { spec: { nodeSelector: Record<string, string>; containers: { image: string }[] } } };
    }[];
    expect(deployment.spec.template.spec.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.26100',
    });
    expect(deployment.spec.template.spec.containers[0].image).toBe(IIS);
  });

  test('the reverse stays an error: an ltsc2025 image on Windows Server 2022 nodes', () => {
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'web', {
          windows: { release: '2022' },
          containers: [{ image: 'mcr.microsoft.com/windows/servercore:ltsc2025' }],
        }),
    );
    expect(err.issues.map((i) => [i.ruleId, i.fix])).toEqual([
      [
        'image-build-mismatch',
        "Use the image's ltsc2022 tag, or run it on Windows Server 2025 nodes: `windows: { release: '2025' }`.",
      ],
    ]);
  });

  test('and so does an ltsc2019 image on Windows Server 2022 nodes', () => {
    const err = captureError(
      () => new WindowsDeployment(chart, 'web', { windows: { release: '2022' }, containers: [{ image: IIS_2019 }] }),
    );
    expect(err.issues.map((i) => i.ruleId)).toEqual(['image-build-mismatch']);
  });
});
