/**
 * Pods inside custom resources from the command line (issue 34): the config file's `podTemplates` names custom
 * kinds for `lint` and `fix`, bad entries stop the run with every problem named, and `fix` says why it leaves an
 * Argo Workflow.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli, tempTree } from '../helpers/cli';

const WORKLOAD = `apiVersion: example.com/v1
kind: MyWorkload
metadata:
  name: agent
spec:
  template:
    spec:
      containers:
      - name: agent
        image: example.com/agent:1.0-ltsc2022
`;

const WORKFLOW = `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  name: build
spec:
  templates:
  - name: build
    nodeSelector:
      kubernetes.io/os: windows
    container:
      image: mcr.microsoft.com/windows/nanoserver:ltsc2022
`;

interface JsonReport {
  findings: { ruleId: string; path: string; line?: number; column?: number }[];
}

describe('podTemplates in the config file', () => {
  test('lint judges the named kind at its paths, with lines; without the entry it is not read', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml':
        'podTemplates:\n  - apiVersion: example.com/v1\n    kind: MyWorkload\n    template: spec.template\n',
      'agent.yaml': WORKLOAD,
    });
    try {
      const r = await cli(['lint', '--format', 'json', 'agent.yaml'], { cwd: tree.dir });
      const report = JSON.parse(r.stdout) as JsonReport;
      expect(report.findings.map((f) => `${f.ruleId} ${f.path}`)).toContain(
        'windows-node-selector-missing spec.template.spec.nodeSelector',
      );
      const text = await cli(['lint', 'agent.yaml'], { cwd: tree.dir });
      // The text report places it on the pod template's spec (line 7), where the selector belongs.
      expect(text.stdout).toMatch(/^ +7:5 +error +.*windows-node-selector-missing/m);
      const without = await cli(['lint', '--no-config', '--format', 'json', 'agent.yaml'], { cwd: tree.dir });
      expect((JSON.parse(without.stdout) as JsonReport).findings).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });

  test('fix --write edits the named kind at its paths', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml':
        'podTemplates:\n  - apiVersion: example.com/*\n    kind: MyWorkload\n    template: spec.template\n',
      'agent.yaml': WORKLOAD,
    });
    try {
      const r = await cli(['fix', '--write', 'agent.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(0);
      const fixed = readFileSync(path.join(tree.dir, 'agent.yaml'), 'utf8');
      expect(fixed).toContain('      nodeSelector:\n        kubernetes.io/os: windows\n');
      expect(fixed).toContain('      os:\n        name: windows\n');
    } finally {
      tree.cleanup();
    }
  });

  test('bad entries stop the run (exit 2), each named with its value', async () => {
    const tree = tempTree({
      '.k8s-windows.yaml':
        'podTemplates:\n  - apiVersion: v1\n    kind: MyWorkload\n    template: spec.template\n    podSpec: spec\n  - kind: Other\n    template: spec template\n',
      'agent.yaml': WORKLOAD,
    });
    try {
      const r = await cli(['lint', 'agent.yaml'], { cwd: tree.dir });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `k8s-windows: .k8s-windows.yaml: podTemplates[0].apiVersion: "v1" is not the apiVersion of a custom resource. Write the CRD's group and version, such as 'example.com/v1', or 'example.com/*' for every version (the built-in groups' kinds are read already).`,
        'k8s-windows: .k8s-windows.yaml: podTemplates[0]: names both template and podSpec. Keep template (a pod template: metadata and spec) or podSpec (a pod spec alone), not both.',
        "k8s-windows: .k8s-windows.yaml: podTemplates[1].apiVersion: is missing. Write the CRD's group and version, such as 'example.com/v1', or 'example.com/*' for every version (the built-in groups' kinds are read already).",
        `k8s-windows: .k8s-windows.yaml: podTemplates[1].template: "spec template" is not a field path. Write field names joined by dots, such as 'spec.template'.`,
      ]);
    } finally {
      tree.cleanup();
    }
  });
});

describe('fix on an Argo Workflow', () => {
  test('leaves the file as it is and says why, at the template paths; lint marks nothing fixable', async () => {
    const tree = tempTree({ 'wf.yaml': WORKFLOW });
    try {
      const r = await cli(['fix', '--no-config', '--write', 'wf.yaml'], { cwd: tree.dir });
      expect(readFileSync(path.join(tree.dir, 'wf.yaml'), 'utf8')).toBe(WORKFLOW);
      // lint does not call its findings fixable: fix leaves the kind.
      const lint = await cli(['lint', '--no-config', 'wf.yaml'], { cwd: tree.dir });
      expect(lint.stdout).toContain('windows-os-unset');
      expect(lint.stdout).not.toContain('(fixable)');
      expect(lint.stdout).not.toContain('potentially fixable');
      expect(`${r.stdout}${r.stderr}`).toContain(
        "not changed: spec.templates[0].podSpecPatch: fix does not edit Argo Workflow templates: the workflow controller builds each pod from its template and the workflow's defaults",
      );
    } finally {
      tree.cleanup();
    }
  });
});
