/** Each warning is reported once: by the validation plugin when `cdk8s synth` runs it, else as a process warning. */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { WindowsAnnotations, WindowsDeployment } from 'k8s-windows/cdk8s';
import { resetValidationPluginDetection } from '../../lib/cdk8s/annotations';
import { silenceWarnings } from './helpers';

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
