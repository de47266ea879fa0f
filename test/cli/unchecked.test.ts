/**
 * Nothing is accepted without a word: a config that ignores every input, a List whose items are not objects, a
 * KRM functionConfig that is not a mapping of options; and a config file of 80,000 unknown rule ids is answered
 * (every id named, "did you mean" for the first few) instead of taking minutes.
 */
import { closeMatches, MAX_RULE_SUGGESTIONS } from '../../lib/core/suggest';
import { cli, tempTree } from '../helpers/cli';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const POD = `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  os: {name: windows}\n  containers: [{name: c, image: '${IIS}'}]\n`;

describe("ignore: ['**']", () => {
  test('says how many files were ignored and fails when nothing was checked', async () => {
    const tree = tempTree({ '.k8s-windows.yaml': "ignore: ['**']\n", 'a.yaml': POD, 'b/c.yaml': POD });
    try {
      for (const command of ['lint', 'fix']) {
        const r = await cli([command, '.'], { cwd: tree.dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(
          "k8s-windows: note: 2 inputs (files, charts or kustomizations) found in the directories named are ignored by the config file's ignore list.\n",
        );
        expect(r.stderr).toContain(
          "k8s-windows: nothing was checked: all 2 input files are ignored by the config file's ignore list. Narrow the list, or name other inputs.\n",
        );
      }
      const json = await cli(['lint', '--format', 'json', '.'], { cwd: tree.dir });
      expect(JSON.parse(json.stdout).inputProblems).toEqual([
        {
          message:
            "nothing was checked: all 2 input files are ignored by the config file's ignore list. Narrow the list, or name other inputs.",
        },
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test('some files ignored, some checked: a note, and the run goes on', async () => {
    const tree = tempTree({ '.k8s-windows.yaml': "ignore: ['vendor/**']\n", 'a.yaml': POD, 'vendor/c.yaml': POD });
    try {
      const r = await cli(['lint', '--format', 'json', '.'], { cwd: tree.dir });
      expect(r.code).not.toBe(2);
      expect(r.stderr).toBe(
        "k8s-windows: note: 1 input (files, charts or kustomizations) found in the directories named is ignored by the config file's ignore list.\n",
      );
      expect(JSON.parse(r.stdout).summary.inputs).toBe(1);
    } finally {
      tree.cleanup();
    }
  });
});

describe('Lists', () => {
  test.each([
    [
      'apiVersion: v1\nkind: PodList\nitems: "oops"\n',
      '<stdin>:3:8: items of a PodList must be a list of objects; here it is a string.',
    ],
    [
      'apiVersion: v1\nkind: List\nitems:\n- 3\n- {apiVersion: v1, kind: Pod, metadata: {name: web}}\n',
      '<stdin>:4:3: items[0] of a List must be an object (apiVersion, kind, metadata, ...); here it is a number.',
    ],
    ['{"apiVersion": "v1", "kind": "PodList", "items": {"a": 1}}\n', 'here it is a mapping'],
  ])('%j is an input problem, never "No problems in 1 object"', async (text, message) => {
    for (const command of ['lint', 'fix']) {
      const r = await cli([command, '-'], { stdin: text });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  test('a List with items: written empty holds no objects', async () => {
    const r = await cli(['lint', '--allow-empty', '-'], { stdin: 'apiVersion: v1\nkind: List\nitems:\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No Kubernetes objects in 1 input: nothing was checked.\n');
  });
});

describe('a config file of 80,000 unknown rule ids', () => {
  test('names every id; the first ones get a "did you mean", the rest the catalogue', async () => {
    const ids = Array.from({ length: 80_000 }, (_, i) => `windows-os-unse${i}`);
    const tree = tempTree({ '.k8s-windows.yaml': `rules:\n${ids.map((id) => `  ${id}: 'off'`).join('\n')}\n` });
    try {
      const r = await cli(['lint', '-'], { cwd: tree.dir, stdin: POD });
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(80_000);
      expect(lines[0]).toBe(
        "k8s-windows: .k8s-windows.yaml: rules.windows-os-unse0: 'windows-os-unse0' is not a rule id. Did you mean 'windows-os-unset', 'windows-os-name'?",
      );
      expect(lines.filter((l) => l.includes('Did you mean'))).toHaveLength(MAX_RULE_SUGGESTIONS);
      expect(lines[79_999]).toBe(
        "k8s-windows: .k8s-windows.yaml: rules.windows-os-unse79999: 'windows-os-unse79999' is not a rule id. Run 'k8s-windows rules' to list the rule ids.",
      );
    } finally {
      tree.cleanup();
    }
  });

  test('a key written twice is named with its line', async () => {
    const tree = tempTree({ '.k8s-windows.yaml': "rules:\n  image-sac: 'off'\n  image-sac: error\n" });
    try {
      const r = await cli(['lint', '-'], { cwd: tree.dir, stdin: POD });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "k8s-windows: .k8s-windows.yaml: is not valid YAML: Map keys must be unique: 'image-sac' is written twice (line 3, column 3)\n",
      );
    } finally {
      tree.cleanup();
    }
  });

  test('"did you mean" still finds typos, missing prefixes and parts', () => {
    const ids = ['windows-os-unset', 'image-floating-tag', 'hostprocess-host-network', 'image-sac'];
    expect(closeMatches('windows-os-unst', ids)).toEqual(['windows-os-unset']);
    expect(closeMatches('floating-tag', ids)).toEqual(['image-floating-tag']);
    expect(closeMatches('image-sax', ids)).toEqual(['image-sac']);
    expect(closeMatches('something-else-entirely', ids)).toEqual([]);
  });
});

describe('a KRM functionConfig', () => {
  const list = (functionConfig: string) =>
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig: ${functionConfig}\nitems:\n- ${POD.replace(/\n/g, '\n  ').trimEnd()}\n`;

  test.each([
    ['"cloud=gke"', 'functionConfig is a string, not an object: give the options as spec: {cloud: gke, ...}'],
    ['[cloud]', 'functionConfig is a list, not an object'],
    ['{kind: Config, cloud: gke}', 'functionConfig.cloud: options go under spec'],
    ['{kind: Config, spec: "cloud=gke"}', 'functionConfig.spec is not a mapping of options'],
    ['{kind: ConfigMap, data: {cloud: gke}, spec: {cloud: gke}}', 'functionConfig has both spec and data'],
    // A merge key is a key of the envelope, not merged into it.
    ['{<<: {kind: Config}, spec: {cloud: gke}}', 'functionConfig.<<: options go under spec'],
  ])('%s is refused, exit 2', async (config, message) => {
    const r = await cli(['fix', '--krm'], { stdin: list(config) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`k8s-windows fix --krm: ${message}`);
  });

  test("an item that is not valid YAML: the ResourceList is refused with the parser's message, exit 2", async () => {
    const r = await cli(['fix', '--krm'], {
      stdin: `${list('{spec: {cloud: gke}}')}- apiVersion: v1\n  kind: ConfigMap\n  kind: Secret\n`,
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('k8s-windows fix --krm: the ResourceList is not valid YAML: Map keys must be unique\n');
  });

  test("a ConfigMap's data is read as settings (kpt and Kustomize's convention), strings included", async () => {
    const r = await cli(['fix', '--krm'], {
      stdin: list('{apiVersion: v1, kind: ConfigMap, metadata: {name: fn}, data: {cloud: gke, pinLinux: "true"}}'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('key: node.kubernetes.io/os');
    const bad = await cli(['fix', '--krm'], {
      stdin: list('{apiVersion: v1, kind: ConfigMap, metadata: {name: fn}, data: {colud: gke}}'),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("functionConfig.data.colud: 'colud' is not a setting here.");
  });
});
