/** Each warning is reported once: by the validation plugin when `cdk8s synth` runs it, else as a process warning. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { WindowsAnnotations, WindowsDeployment } from 'k8s-windows/cdk8s';
import { WindowsValidation, type ValidationViolation } from 'k8s-windows/cdk8s/plugin';
import { resetValidationPluginDetection } from '../../lib/cdk8s/annotations';
import { IIS, silenceWarnings } from '../helpers/cdk8s';

const FLOATING = 'mcr.microsoft.com/windows/servercore/iis:latest';
const PLUGIN = `validations:
  - package: ./node_modules/k8s-windows/build/cdk8s/plugin.js
    version: 0.1.0
    class: WindowsValidation
`;

let dir: string;
let cwd: string;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  cwd = process.cwd();
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-warn-'));
  process.chdir(dir);
  emitWarning = silenceWarnings();
  resetValidationPluginDetection();
});
afterEach(() => {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
  emitWarning.mockRestore();
  delete process.env.CDK8S_RECORD_CONSTRUCT_METADATA;
  resetValidationPluginDetection();
});

function synthFloating(): string[] {
  const chart = Testing.chart();
  new WindowsDeployment(chart, 'web', { containers: [{ image: FLOATING }] });
  Testing.synth(chart);
  return WindowsAnnotations.warningsOf(chart).map((w) => w.ruleId);
}

test('without the plugin, a floating tag is printed once as a process warning', () => {
  expect(synthFloating()).toEqual(['image-floating-tag']);
  expect(emitWarning).toHaveBeenCalledTimes(1);
});

test('under cdk8s synth with the plugin configured, it is recorded but left to the plugin report', () => {
  writeFileSync('cdk8s.yaml', `language: typescript\napp: node main.js\n${PLUGIN}`);
  process.env.CDK8S_RECORD_CONSTRUCT_METADATA = 'true';
  expect(synthFloating()).toEqual(['image-floating-tag']);
  expect(emitWarning).not.toHaveBeenCalled();
});

test('with validations that are not this plugin, it is still printed', () => {
  writeFileSync('cdk8s.yaml', 'validations:\n  - package: other\n    version: 1.0.0\n    class: Other\n');
  process.env.CDK8S_RECORD_CONSTRUCT_METADATA = 'true';
  synthFloating();
  expect(emitWarning).toHaveBeenCalledTimes(1);
});

describe('what only the constructs can see reaches the plugin report', () => {
  /** `cdk8s synth` with the plugin: the app writes to CDK8S_OUTDIR, then cdk8s-cli runs the plugin on it. */
  async function synthAndValidate(build: (chart: Chart) => void) {
    writeFileSync('cdk8s.yaml', `language: typescript\napp: node main.js\n${PLUGIN}`);
    process.env.CDK8S_RECORD_CONSTRUCT_METADATA = 'true';
    process.env.CDK8S_OUTDIR = join(dir, 'dist');
    const app = new App();
    build(new Chart(app, 'shop'));
    app.synth();
    const paths = readdirSync(join(dir, 'dist'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join(dir, 'dist', f));
    const violations: ValidationViolation[] = [];
    const submitted: string[] = [];
    await new WindowsValidation({ rules: { 'windows-startup-probe': 'off' } }).validate({
      manifests: paths,
      report: { addViolation: (v) => void violations.push(v), submit: (status) => void submitted.push(status) },
      logger: { log: () => undefined },
    });
    return { violations, submitted, files: readdirSync(join(dir, 'dist')).sort() };
  }
  afterEach(() => delete process.env.CDK8S_OUTDIR);

  test('a privileged: false the construct left out of the manifest is a warning in the report, with its fix', async () => {
    const { violations, submitted, files } = await synthAndValidate((chart) => {
      new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, securityContext: { privileged: false } }] });
    });
    expect(violations).toEqual([
      {
        ruleName: 'windows-forbidden-field [warning]',
        recommendation: expect.stringMatching(
          /^Deployment shop-web-[0-9a-f]{8}: spec\.template\.spec\.containers\[0\]\.securityContext\.privileged: securityContext\.privileged: false is left out of the manifest: the API server refuses privileged on Windows pods whatever its value, .*anyway\.$/,
        ),
        fix: expect.stringMatching(/^Remove `privileged` from the container's `securityContext`.* See https:/),
        violatingResources: [
          {
            resourceName: expect.stringMatching(/^shop-web-/),
            locations: ['construct shop/web (not in the manifest)'],
            manifestPath: join(dir, 'dist', 'shop.k8s.yaml'),
          },
        ],
      },
    ]);
    expect(submitted).toEqual(['success']); // a warning does not fail the synth
    expect(emitWarning).not.toHaveBeenCalled(); // reported once: by the plugin
    // The hand-over file is gone: the output directory holds what cdk8s writes.
    expect(files).toEqual(['construct-metadata.json', 'shop.k8s.yaml']);
  });

  test('a warning the manifest shows is reported once, from the manifest (at its manifest severity)', async () => {
    const { violations } = await synthAndValidate((chart) => {
      new WindowsDeployment(chart, 'web', { containers: [{ image: FLOATING }] });
    });
    expect(violations.map((v) => [v.ruleName, v.violatingResources[0].locations])).toEqual([
      [
        'image-floating-tag [info]',
        [expect.stringMatching(/^spec\.template\.spec\.containers\[0\]\.image \(line \d+\)$/)],
      ],
    ]);
  });
});
