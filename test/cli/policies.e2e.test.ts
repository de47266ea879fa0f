/**
 * `k8s-windows policies`: the policy set as YAML, read back with `yaml` and held to exact fields: the order, the
 * bindings' actions per mode, the cluster facts, the config file's settings, and every bad input named (exit 2).
 * One run goes through the real bin (a child process); the rest call the CLI in-process.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type * as Yaml from 'yaml';
import { cli, tempTree } from '../helpers/cli';

// The real parser, watched: a facts file over the limit must not reach it.
jest.mock('yaml', () => {
  const actual = jest.requireActual<typeof Yaml>('yaml');
  return { ...actual, parseAllDocuments: jest.fn(actual.parseAllDocuments) };
});

const ROOT = path.join(__dirname, '../..');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
}

function documents(stdout: string): K8sObject[] {
  const docs = parseAllDocuments(stdout);
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) expect(d.errors).toEqual([]);
  return list.map((d) => d.toJS() as K8sObject);
}

const binding = (objects: K8sObject[], name: string) =>
  objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding' && o.metadata.name === name)?.spec;

const FACTS_YAML = `apiVersion: k8s-windows.io/v1alpha1
kind: WindowsClusterFacts
metadata: {name: k8s-windows}
spec:
  pools:
  - name: win2022
    provider: aks
    release: '2022'
    build: '10.0.20348'
    labels: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.20348'}
    taints: [{key: os, value: windows, effect: NoSchedule}]
  runtimeClasses:
  - {name: windows-2022, handler: runhcs-wcow-process, build: '10.0.20348'}
`;

describe('k8s-windows policies', () => {
  test('prints the facts CRD, the validating policies, then their bindings, as YAML', async () => {
    const r = await cli(['policies', '--no-config']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^# k8s-windows \S+ policies --mode deny: apply in this order/);
    const objects = documents(r.stdout);
    const policies = [
      ...['pod', 'workload', 'cronjob'].flatMap((shape) =>
        ['deny', 'deny-cluster', 'warn', 'warn-cluster'].map((action) => `k8s-windows-${shape}-${action}`),
      ),
      'k8s-windows-runtimeclass-deny',
    ];
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      // The -cluster policies read the facts: the CRD comes with them, so a facts object can be applied later.
      'CustomResourceDefinition/windowsclusterfacts.k8s-windows.io',
      ...policies.map((n) => `ValidatingAdmissionPolicy/${n}`),
      ...policies.map((n) => `ValidatingAdmissionPolicyBinding/${n}`),
    ]);
    const pod = objects[1]!;
    expect(pod.apiVersion).toBe('admissionregistration.k8s.io/v1');
    expect(pod.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'k8s-windows' });
    expect(pod.spec.failurePolicy).toBe('Ignore');
    expect((pod.spec.variables as { name: string }[]).slice(0, 5).map((v) => v.name)).toEqual([
      'spec',
      'podMeta',
      'runtimeClassMerged',
      'annotations',
      'waived',
    ]);
    const osName = (pod.spec.validations as { expression: string; message: string }[]).find((v) =>
      v.message.startsWith('windows-os-name: '),
    );
    expect(osName?.expression).toBe(
      "!has(variables.spec.os) || (has(variables.spec.os.name) && variables.spec.os.name in ['linux', 'windows'])",
    );
    expect(binding(objects, 'k8s-windows-pod-deny')).toEqual({
      policyName: 'k8s-windows-pod-deny',
      validationActions: ['Deny'],
    });
  });

  test.each([
    ['warn', ['Warn', 'Audit'], ['Warn']],
    ['audit', ['Audit'], ['Audit']],
  ])('--mode %s sets the bindings’ actions', async (mode, deny, warn) => {
    const r = await cli(['policies', '--no-config', '--mode', mode, '--cloud', 'gke']);
    expect(r.code).toBe(0);
    const objects = documents(r.stdout);
    expect(binding(objects, 'k8s-windows-pod-deny')?.validationActions).toEqual(deny);
    expect(binding(objects, 'k8s-windows-pod-warn')?.validationActions).toEqual(warn);
  });

  test('--cluster-facts puts the CRD and the facts object first; a spec alone is read too', async () => {
    const { dir, cleanup } = tempTree({
      'facts.yaml': FACTS_YAML,
      'spec.json': JSON.stringify({ pools: [{ name: 'win2025', build: '10.0.26100' }] }),
    });
    try {
      const r = await cli(['policies', '--no-config', '--cluster-facts', 'facts.yaml'], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const objects = documents(r.stdout);
      expect(objects.slice(0, 2).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
        'CustomResourceDefinition/windowsclusterfacts.k8s-windows.io',
        'WindowsClusterFacts/k8s-windows',
      ]);
      expect(objects[0]!.spec.scope).toBe('Cluster');
      expect(objects[1]).toEqual({
        apiVersion: 'k8s-windows.io/v1alpha1',
        kind: 'WindowsClusterFacts',
        metadata: { name: 'k8s-windows', labels: { 'app.kubernetes.io/managed-by': 'k8s-windows' } },
        spec: {
          pools: [
            {
              name: 'win2022',
              provider: 'aks',
              release: '2022',
              build: '10.0.20348',
              labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
              taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
            },
          ],
          runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
        },
      });
      expect(binding(objects, 'k8s-windows-pod-deny-cluster')?.paramRef).toEqual({
        name: 'k8s-windows',
        parameterNotFoundAction: 'Allow',
      });
      const spec = await cli(['policies', '--no-config', '--cluster-facts', 'spec.json'], { cwd: dir });
      expect(spec.code).toBe(0);
      expect(documents(spec.stdout)[1]!.spec).toEqual({
        pools: [{ name: 'win2025', build: '10.0.26100' }],
        runtimeClasses: [],
      });
    } finally {
      cleanup();
    }
  });

  test("the config file's rule settings and cloud shape the set, as lint reads them", async () => {
    const { dir, cleanup } = tempTree({
      '.k8s-windows.yaml': 'cloud: gke\nrules:\n  windows-os-name: off\n  windows-node-selector-missing: warning\n',
    });
    try {
      const r = await cli(['policies'], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^# k8s-windows \S+ policies --mode deny --cloud gke:/);
      const objects = documents(r.stdout);
      const messages = (name: string) =>
        (
          (objects.find((o) => o.kind === 'ValidatingAdmissionPolicy' && o.metadata.name === name)?.spec.validations ??
            []) as { message: string }[]
        ).map((v) => v.message.split(':')[0]);
      expect(messages('k8s-windows-pod-deny')).not.toContain('windows-os-name');
      // A severity setting re-levels every finding of the rule, its info cases (pool-selector, image-name) too.
      const scheduling = ['windows-node-selector-missing', 'windows-toleration-missing'];
      expect(messages('k8s-windows-pod-warn').filter((id) => scheduling.includes(id))).toEqual([
        'windows-node-selector-missing',
        'windows-node-selector-missing',
        'windows-node-selector-missing',
        'windows-node-selector-missing',
        'windows-node-selector-missing',
        'windows-toleration-missing',
      ]);
      // The command line wins over the file.
      const aks = await cli(['policies', '--cloud', 'aks'], { cwd: dir });
      expect(aks.stdout).toMatch(/--cloud aks:/);
    } finally {
      cleanup();
    }
  });

  test('--mutating adds the mutating policies and their bindings after the validating ones', async () => {
    const r = await cli(['policies', '--no-config', '--mutating']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const kinds = documents(r.stdout).map((o) => o.kind);
    expect(kinds).toContain('MutatingAdmissionPolicy');
    expect(kinds.indexOf('MutatingAdmissionPolicy')).toBeLessThan(kinds.indexOf('ValidatingAdmissionPolicyBinding'));
    expect(kinds.filter((k) => k === 'MutatingAdmissionPolicyBinding')).toHaveLength(6);
  });

  test('--mutating with every sure-fix rule off prints the validating policies and says why there is no mutation', async () => {
    const off = [
      'windows-os-unset',
      'windows-node-selector-missing',
      'windows-node-selector-affinity-only',
      'windows-toleration-missing',
      'image-build-unpinned',
    ];
    const { dir, cleanup } = tempTree({ '.k8s-windows.yaml': `rules:\n${off.map((id) => `  ${id}: off\n`).join('')}` });
    try {
      const r = await cli(['policies', '--mutating'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        'k8s-windows: --mutating: every rule with a sure fix is off in the settings, so there is no MutatingAdmissionPolicy to print; only the validating policies are printed.\n',
      );
      const kinds = documents(r.stdout).map((o) => o.kind);
      expect(kinds).toContain('ValidatingAdmissionPolicy');
      expect(kinds).not.toContain('MutatingAdmissionPolicy');
    } finally {
      cleanup();
    }
  });

  test('bad options are named with the value and the fix (exit 2)', async () => {
    const r = await cli([
      'policies',
      '--mode',
      'block',
      '--cloud',
      'azure',
      '--kubernetes-version',
      'latest',
      'x.yaml',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      "k8s-windows: --mode 'block' is not one of deny, warn, audit.",
      "k8s-windows: --cloud 'azure' is not one of eks, aks, gke.",
      "k8s-windows: --kubernetes-version 'latest' is not a Kubernetes 1.x version; write it as 1.30.",
      "k8s-windows: policies takes no arguments; got 'x.yaml' (a facts file is --cluster-facts FILE).",
      "Run 'k8s-windows policies --help' for usage.",
      '',
    ]);
  });

  test('a cluster older than ValidatingAdmissionPolicy v1 is refused', async () => {
    const r = await cli(['policies', '--no-config', '--kubernetes-version', '1.29']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'k8s-windows: --kubernetes-version: Kubernetes 1.29 does not serve ValidatingAdmissionPolicy as admissionregistration.k8s.io/v1 (GA in 1.30). Upgrade the cluster to 1.30 or later, or keep using lint in CI.\n',
    );
  });

  test('a bad facts file names every field, its value and the fix (exit 2)', async () => {
    const { dir, cleanup } = tempTree({
      'bad.yaml': 'pools:\n- name: win\n  build: ltsc2022\n  taints: [{key: os, effect: Never}]\n- {provider: azure}\n',
      'two.yaml': 'pools: []\n---\npools: []\n',
      'broken.yaml': 'pools: [\n',
    });
    try {
      const bad = await cli(['policies', '--no-config', '--cluster-facts', 'bad.yaml'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr.split('\n')).toEqual([
        "k8s-windows: --cluster-facts bad.yaml.pools[0].build: The build 'ltsc2022' is not the build of a Windows Server release (node.kubernetes.io/windows-build). Write one of '10.0.17763' (2019), '10.0.20348' (2022), '10.0.26100' (2025).",
        'k8s-windows: --cluster-facts bad.yaml.pools[0].taints[0].effect: The taint effect "Never" is not a Kubernetes effect. Use one of NoSchedule, PreferNoSchedule, NoExecute.',
        "k8s-windows: --cluster-facts bad.yaml.pools[1].name: The pool has no name. Write the pool's name, e.g. 'win2022'.",
        'k8s-windows: --cluster-facts bad.yaml.pools[1].provider: The provider "azure" is not one the facts know. Use one of eks, aks, gke, karpenter, other (\'other\' when none fits).',
        '',
      ]);
      const two = await cli(['policies', '--no-config', '--cluster-facts', 'two.yaml'], { cwd: dir });
      expect(two.stderr).toBe(
        'k8s-windows: --cluster-facts two.yaml: holds 2 documents; write one WindowsClusterFacts object (or its spec).\n',
      );
      const broken = await cli(['policies', '--no-config', '--cluster-facts', 'broken.yaml'], { cwd: dir });
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(
        /^k8s-windows: --cluster-facts broken\.yaml: .+ Fix the YAML \(or JSON\) syntax\.\n/,
      );
      const missing = await cli(['policies', '--no-config', '--cluster-facts', 'none.yaml'], { cwd: dir });
      expect(missing.stderr).toBe('k8s-windows: --cluster-facts none.yaml: no such file or directory.\n');
    } finally {
      cleanup();
    }
  });

  test('a facts file over 1 MiB is refused before it is parsed, naming its size and the limit', async () => {
    const { dir, cleanup } = tempTree({
      'keys.yaml':
        'pools:\n- name: win\n  release: \'2022\'\n  labels: {"team\\n": web}\n  taints: [{key: "os\\"", value: windows, effect: NoSchedule}]\n',
    });
    const parse = jest.mocked(parseAllDocuments);
    try {
      // A 60 MiB label value.
      const head = 'pools:\n- name: win\n  labels:\n    team: ';
      writeFileSync(path.join(dir, 'big.yaml'), `${head}${'a'.repeat(60 * 1024 * 1024 - head.length - 1)}\n`);
      parse.mockClear();
      const big = await cli(['policies', '--no-config', '--cluster-facts', 'big.yaml'], { cwd: dir });
      expect(big.code).toBe(2);
      expect(big.stdout).toBe('');
      expect(big.stderr).toBe(
        "k8s-windows: --cluster-facts big.yaml: is 60 MiB, over the 1 MiB a facts file may hold (a cluster's facts are a few kilobytes); it was not parsed. Write one WindowsClusterFacts object (or its spec) with the Windows pools' builds, labels and taints.\n",
      );
      expect(parse).not.toHaveBeenCalled();
      const keys = await cli(['policies', '--no-config', '--cluster-facts', 'keys.yaml'], { cwd: dir });
      expect(parse).toHaveBeenCalledTimes(1);
      expect(keys.code).toBe(2);
      expect(keys.stderr.split('\n')).toEqual([
        "k8s-windows: --cluster-facts keys.yaml.pools[0].labels[\"team\\n\"]: The label key \"team\\n\" is not a qualified name: it holds \"\\n\"; only letters, digits, '-', '_' and '.' may be used. Write 'team'.",
        "k8s-windows: --cluster-facts keys.yaml.pools[0].taints[0].key: The taint key \"os\\\"\" is not a qualified name: it holds \"\\\"\"; only letters, digits, '-', '_' and '.' may be used. Write 'os'.",
        '',
      ]);
    } finally {
      cleanup();
    }
  });

  test('--help is the command’s help', async () => {
    const r = await cli(['policies', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: k8s-windows policies \[options\]/);
    for (const option of [
      '--mode <deny|warn|audit>',
      '--cloud <eks|aks|gke>',
      '--cluster-facts <file>',
      '--mutating',
      '--kubernetes-version',
      '--config',
      '--no-config',
    ]) {
      expect(r.stdout).toContain(option);
    }
    expect((await cli(['--help'])).stdout).toContain('  policies [options]');
  });

  test('the bin prints the same set', () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
        path.join(ROOT, 'lib/cli/main.ts'),
        'policies',
        '--no-config',
        '--mode',
        'audit',
      ],
      { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const objects = documents(r.stdout);
    expect(
      objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding').map((o) => o.spec.validationActions),
    ).toEqual(Array(13).fill(['Audit']));
  });
});
