/**
 * Rendering of chart and kustomization directories without the tools: which directories render, what is run, how
 * Helm's `# Source:` comments name templates, what a walk leaves out, and the problem a missing tool is. The real
 * tools run in render-tools.e2e.test.ts.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseCommand, UsageError } from '../../lib/cli/args';
import { newestMinor } from '../../lib/core/api/schema';
import { collectInputs, type Input } from '../../lib/cli/files';
import {
  dropKustomizeBases,
  invocations,
  rendererOf,
  templateAt,
  templateOrigins,
  renderedSources,
} from '../../lib/cli/render';
import { matchLine } from '../../lib/cli/render-origins';
import type { Diagnostic } from '../../lib/core/model/types';
import { RULES } from '../../lib/core/validate';
import * as fc from 'fast-check';
import { cli, tempTree } from '../helpers/cli';

const IDS = RULES.map((r) => r.id);

/** A PATH with no tools on it: what a machine without helm, kustomize and kubectl has. */
let emptyBin: string;
beforeAll(() => {
  emptyBin = mkdtempSync(path.join(tmpdir(), 'k8s-windows-nobin-'));
});
afterAll(() => rmSync(emptyBin, { recursive: true, force: true }));

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      containers: [{name: web, image: "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022"}]
`;

const TEMPLATE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "web.fullname" . }}
  labels:
    {{- include "web.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
`;

const KUSTOMIZATION = (resources: string[]) =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map((r) => `  - ${r}\n`).join('')}`;

describe('rendererOf', () => {
  test.each([
    [['kustomization.yaml', 'a.yaml'], 'kustomize'],
    [['kustomization.yml'], 'kustomize'],
    [['Kustomization'], 'kustomize'],
    [['Chart.yaml', 'values.yaml', 'templates'], 'helm'],
    [['Chart.yaml', 'kustomization.yaml'], 'kustomize'],
    [['chart.yaml', 'KUSTOMIZATION.yaml', 'deploy.yaml'], undefined],
    [[], undefined],
  ])('%j renders with %s', (names, expected) => {
    expect(rendererOf(names)).toBe(expected);
  });
});

describe('invocations', () => {
  test('kustomize build first, then kubectl kustomize', () => {
    const none = { render: true, values: [], set: [] };
    expect(invocations('kustomize', '/r/overlay', none, '/r')).toEqual([
      { program: 'kustomize', args: ['build', '/r/overlay'] },
      { program: 'kubectl', args: ['kustomize', '/r/overlay'] },
    ]);
  });

  test('helm template with the chart alone takes Helm defaults (its values.yaml, release-name, default) but the Kubernetes version: the newest the checks know', () => {
    expect(invocations('helm', '/r/chart', { render: true, values: [], set: [] }, '/r')).toEqual([
      { program: 'helm', args: ['template', '/r/chart', '--kube-version', `1.${newestMinor()}`] },
    ]);
  });

  test('helm template passes release name, values (resolved against the working directory), --set, namespace, version', () => {
    const settings = {
      render: true,
      values: ['prod.yaml', '/abs/extra.yaml'],
      set: ['image.tag=ltsc2022', 'a.b=c,d=e'],
      releaseName: 'web',
      namespace: 'shop',
      kubernetesVersion: '1.33',
    };
    expect(invocations('helm', '/r/chart', settings, '/r/work')).toEqual([
      {
        program: 'helm',
        args: [
          'template',
          'web',
          '/r/chart',
          '--values',
          '/r/work/prod.yaml',
          '--values',
          '/abs/extra.yaml',
          '--set',
          'image.tag=ltsc2022',
          '--set',
          'a.b=c,d=e',
          '--namespace',
          'shop',
          '--kube-version',
          '1.33',
        ],
      },
    ]);
  });
});

describe('Helm # Source: comments', () => {
  const rendered = [
    '---',
    '# Source: web/templates/serviceaccount.yaml',
    'apiVersion: v1',
    'kind: ServiceAccount',
    'metadata: {name: web}',
    '---',
    '# Source: web/templates/deployment.yaml',
    'apiVersion: apps/v1',
    'kind: Deployment',
    '',
  ].join('\n');

  test('each document is named by the comment at its top, from its --- on', () => {
    expect(templateOrigins(rendered)).toEqual([
      { line: 1 },
      { line: 2, template: 'web/templates/serviceaccount.yaml' },
      { line: 7, template: 'web/templates/deployment.yaml' },
    ]);
  });

  test('a line is in the last document that starts at or before it', () => {
    const origins = templateOrigins(rendered);
    expect(templateAt(origins, 1)).toBeUndefined();
    expect(templateAt(origins, 4)).toBe('web/templates/serviceaccount.yaml');
    expect(templateAt(origins, 6)).toBe('web/templates/serviceaccount.yaml');
    expect(templateAt(origins, 9)).toBe('web/templates/deployment.yaml');
  });

  test('every line of any helm-shaped stream maps to the template of the document it is in', () => {
    const doc = fc.record({
      template: fc.stringMatching(/^[a-z]{1,8}\/templates\/[a-z-]{1,12}\.yaml$/),
      body: fc.array(fc.stringMatching(/^[a-z]{1,6}: [a-z0-9]{0,6}$/), { maxLength: 5 }),
      named: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 6 }), fc.boolean(), (docs, leadingSeparator) => {
        const lines: string[] = [];
        const expected: (string | undefined)[] = [];
        docs.forEach((d, i) => {
          if (i > 0 || leadingSeparator) {
            lines.push('---');
            expected.push(i > 0 ? expected[expected.length - 1] : undefined);
          }
          const start = lines.length;
          if (d.named) lines.push(`# Source: ${d.template}`);
          lines.push(...d.body, 'kind: ConfigMap');
          for (let k = start; k < lines.length; k++) expected.push(d.named ? d.template : undefined);
        });
        const origins = templateOrigins(lines.join('\n'));
        // A document's --- line still belongs to the one before it; every other line to its own document.
        expected.forEach((template, i) => {
          if (lines[i] === '---') return;
          expect(templateAt(origins, i + 1)).toBe(template);
        });
      }),
    );
  });

  test('a line is placed on the same occurrence of the same text in the file, and only when the counts agree', () => {
    const rendered = ['kind: Deployment', 'spec:', '  template:', '    spec:', '      - image: a'];
    const doc = { from: 1, to: 5 };
    const file = [
      'kind: Deployment',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: x',
      '          image: a',
    ];
    // `spec:` twice in both: the second is the second.
    expect(matchLine(rendered, doc, { line: 4, column: 5 }, file)).toEqual({ line: 4, column: 5 });
    // Kustomize writes a list item's keys in its own order: the dash is not part of the text compared.
    expect(matchLine(rendered, doc, { line: 5, column: 9 }, file)).toEqual({ line: 7, column: 11 });
    // Twice rendered, once written (a template's range): not known.
    expect(matchLine([...rendered, '    spec:'], { from: 1, to: 6 }, { line: 4 }, file)).toBeUndefined();
    // Not in the file as rendered (a value from values.yaml), or no text of its own.
    expect(matchLine(['image: b'], { from: 1, to: 1 }, { line: 1 }, file)).toBeUndefined();
    expect(matchLine(['-', ''], { from: 1, to: 2 }, { line: 1 }, ['-'])).toBeUndefined();
  });

  test("renderedSources places a chart finding on the template file, or the template's first line with the rendered position", async () => {
    const { dir, cleanup } = tempTree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'web/templates/serviceaccount.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: web}\n',
      'web/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: {{ .Values.kind }}\n',
    });
    try {
      const root = realpathSync(dir);
      const input: Extract<Input, { kind: 'render' }> = {
        kind: 'render',
        renderer: 'helm',
        path: path.join(root, 'web'),
        display: 'web',
        discovered: false,
        root: path.join(root, 'web'),
      };
      const display = 'web (helm template)';
      const finding = () => ({ ruleId: 'x', resource: { source: display } }) as unknown as Diagnostic;
      const [inAccount, inDeployment] = [finding(), finding()];
      const positions = new Map([
        [inAccount, { line: 4, column: 1 }],
        [inDeployment, { line: 9, column: 1 }],
      ]);
      const locate = await renderedSources(
        [{ input, text: rendered, display }],
        [inAccount, inDeployment],
        (d) => ({ diagnostic: d, source: display, ...positions.get(d) }),
        root,
      );
      expect(locate(inAccount)).toEqual({
        diagnostic: inAccount,
        source: 'web/templates/serviceaccount.yaml',
        line: 2,
        column: 1,
        rendered: { by: 'helm template web', line: 4, column: 1, exact: true },
      });
      // `kind: Deployment` is `kind: {{ .Values.kind }}` in the template: its first line, and where it was rendered.
      expect(locate(inDeployment)).toEqual({
        diagnostic: inDeployment,
        source: 'web/templates/deployment.yaml',
        line: 1,
        rendered: { by: 'helm template web', line: 9, column: 1, exact: false },
      });
    } finally {
      cleanup();
    }
  });
});

test("an object no resource file holds (a generator's) is placed on the overlay's kustomization file; a document Helm names no template for, on Chart.yaml", async () => {
  const { dir, cleanup } = tempTree({
    'k/kustomization.yaml': 'configMapGenerator:\n  - name: settings\n    literals: [a=b]\n',
    'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
  });
  try {
    const root = realpathSync(dir);
    const render = (renderer: 'helm' | 'kustomize', name: string): Extract<Input, { kind: 'render' }> => ({
      kind: 'render',
      renderer,
      path: path.join(root, name),
      display: name,
      discovered: false,
      root: path.join(root, name),
    });
    const generated = {
      ruleId: 'x',
      resource: { kind: 'ConfigMap', name: 'settings-abc', source: 'k (kustomize build)' },
    } as unknown as Diagnostic;
    const unnamed = {
      ruleId: 'x',
      resource: { kind: 'Pod', name: 'p', source: 'c (helm template)' },
    } as unknown as Diagnostic;
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-abc\n';
    const locate = await renderedSources(
      [
        { input: render('kustomize', 'k'), text, display: 'k (kustomize build)' },
        { input: render('helm', 'c'), text, display: 'c (helm template)' },
      ],
      [generated, unnamed],
      (d) => ({ diagnostic: d, source: d.resource.source, line: 4, column: 3 }),
      root,
    );
    expect(locate(generated)).toEqual({
      diagnostic: generated,
      source: 'k/kustomization.yaml',
      line: 1,
      rendered: { by: 'kustomize build k', line: 4, column: 3, exact: false },
    });
    expect(locate(unnamed)).toEqual({
      diagnostic: unnamed,
      source: 'c/Chart.yaml',
      line: 1,
      rendered: { by: 'helm template c', line: 4, column: 3, exact: false },
    });
  } finally {
    cleanup();
  }
});

describe('a directory walk', () => {
  test('a chart is one render input: its templates, values.yaml and subcharts are not read as manifests', async () => {
    const { dir, cleanup } = tempTree({
      'plain/deploy.yaml': DEPLOYMENT,
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'charts/web/values.yaml': 'replicaCount: 1\n',
      'charts/web/templates/deployment.yaml': TEMPLATE,
      'charts/web/charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
    });
    try {
      const { inputs, problems } = await collectInputs(['.'], dir);
      expect(problems).toEqual([]);
      expect(inputs.map((i) => [i.kind, i.display, 'discovered' in i ? i.discovered : undefined])).toEqual([
        ['render', 'charts/web', true],
        ['file', 'plain/deploy.yaml', true],
      ]);
      const named = await collectInputs(['charts/web'], dir);
      expect(named.inputs).toEqual([
        {
          kind: 'render',
          renderer: 'helm',
          path: path.join(dir, 'charts/web'),
          display: 'charts/web',
          discovered: false,
          root: realpathSync(path.join(dir, 'charts/web')),
        },
      ]);
    } finally {
      cleanup();
    }
  });

  test('inside a kustomization only other kustomizations are looked for; the bases they build on are dropped', async () => {
    const { dir, cleanup } = tempTree({
      'k/base/kustomization.yaml': KUSTOMIZATION(['deployment.yaml']),
      'k/base/deployment.yaml': DEPLOYMENT,
      'k/overlays/prod/kustomization.yaml': KUSTOMIZATION(['../../base', 'https://github.com/x/y//z?ref=v1']),
      'k/overlays/prod/patches/replicas.yaml': DEPLOYMENT,
      'k/overlays/prod/eu/kustomization.yml': KUSTOMIZATION(['..']),
      'k/components/win/Kustomization': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n',
      'k/overlays/dev/kustomization.yaml': `${KUSTOMIZATION(['../../base'])}components:\n  - ../../components/win\n`,
    });
    try {
      const { inputs } = await collectInputs(['k'], dir);
      expect(inputs.map((i) => i.display)).toEqual([
        'k/base',
        'k/components/win',
        'k/overlays/dev',
        'k/overlays/prod',
        'k/overlays/prod/eu',
      ]);
      const kept = await dropKustomizeBases(inputs);
      // prod is eu's base, base and the component are dev's and prod's: the leaves are what is deployed.
      expect(kept.map((i) => i.display)).toEqual(['k/overlays/dev', 'k/overlays/prod/eu']);
      // Named on the command line, a base is rendered all the same.
      const named = await collectInputs(['k/base', 'k/overlays/dev'], dir);
      expect((await dropKustomizeBases(named.inputs)).map((i) => i.display)).toEqual(['k/base', 'k/overlays/dev']);
    } finally {
      cleanup();
    }
  });

  test('render: false walks every file as before', async () => {
    const { dir, cleanup } = tempTree({
      'k/kustomization.yaml': KUSTOMIZATION(['deployment.yaml']),
      'k/deployment.yaml': DEPLOYMENT,
      'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    });
    try {
      const { inputs } = await collectInputs(['.'], dir, { render: false });
      expect(inputs.map((i) => [i.kind, i.display])).toEqual([
        ['file', 'c/Chart.yaml'],
        ['file', 'k/deployment.yaml'],
        ['file', 'k/kustomization.yaml'],
      ]);
    } finally {
      cleanup();
    }
  });
});

describe('options', () => {
  test('lint and fix take --values, --set, --release-name, -n/--namespace and --no-render', () => {
    for (const command of ['lint', 'fix'] as const) {
      const parsed = parseCommand(
        [
          command,
          'chart',
          '--values',
          'a.yaml',
          '--values=b.yaml',
          '--set',
          'image.tag=ltsc2022',
          '--release-name',
          'web',
          '-n',
          'shop',
        ],
        IDS,
      );
      expect(parsed).toMatchObject({
        kind: command,
        rendering: {
          render: true,
          values: ['a.yaml', 'b.yaml'],
          set: ['image.tag=ltsc2022'],
          releaseName: 'web',
          namespace: 'shop',
        },
      });
      expect(parseCommand([command, 'x', '--no-render'], IDS)).toMatchObject({
        rendering: { render: false, values: [], set: [] },
      });
    }
  });

  test('every bad rendering option is named at once', () => {
    const attempt = () =>
      parseCommand(
        ['lint', 'x', '--no-render', '--values', 'v.yaml', '--set', 'novalue', '--release-name', 'Web_1', '-n', 'A'],
        IDS,
      );
    expect(attempt).toThrow(UsageError);
    expect(() => attempt()).toThrow(
      [
        '--values, --set, --release-name, --namespace apply to rendering charts and kustomizations, which --no-render turns off: give one or the other.',
        "--set 'novalue' must be KEY=VALUE (as helm's --set, e.g. image.tag=ltsc2022).",
        "--release-name 'Web_1' is not a Helm release name: lower-case letters, digits and '-', at most 53 characters, starting and ending with a letter or digit.",
        "--namespace 'A' is not a namespace name: lower-case letters, digits and '-', at most 63 characters.",
      ].join('\n'),
    );
  });
});

describe('without the tools', () => {
  test('a chart is one input problem naming what to install and the pipe; its templates are not parsed', async () => {
    const { dir, cleanup } = tempTree({
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'web/templates/deployment.yaml': TEMPLATE,
    });
    try {
      const r = await cli(['lint', 'web'], { cwd: dir, env: { PATH: emptyBin } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'k8s-windows: web: is a Helm chart (Chart.yaml) and helm is not on PATH to render it: install Helm 3 (https://helm.sh/docs/intro/install/), or render it yourself: helm template my-release web | k8s-windows lint -. (--no-render reads the files as they are; templates are not YAML until rendered.)\n',
      );
      // --no-render: the old behaviour, templates read as files (and the hint to render them).
      const plain = await cli(['lint', '--no-render', 'web'], { cwd: dir, env: { PATH: emptyBin } });
      expect(plain.code).toBe(2);
      expect(plain.stderr).toContain('web/templates/deployment.yaml: looks like an unrendered Helm template');
    } finally {
      cleanup();
    }
  });

  test('a kustomization without kustomize or kubectl is one input problem; the rest of the walk is linted', async () => {
    const { dir, cleanup } = tempTree({
      'overlay/kustomization.yaml': KUSTOMIZATION(['deployment.yaml']),
      'overlay/deployment.yaml': DEPLOYMENT,
      'plain/deploy.yaml': DEPLOYMENT,
    });
    try {
      const r = await cli(['lint', '--format', 'json', '.'], { cwd: dir, env: { PATH: emptyBin } });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout) as {
        summary: { inputs: number; objects: number };
        findings: { source: string }[];
        inputProblems: { source: string; message: string }[];
      };
      expect(report.summary).toMatchObject({ inputs: 1, objects: 1 });
      expect(new Set(report.findings.map((f) => f.source))).toEqual(new Set(['plain/deploy.yaml']));
      expect(report.inputProblems).toEqual([
        {
          source: 'overlay',
          message:
            "is a Kustomize directory (kustomization.yaml, kustomization.yml, Kustomization) and neither kustomize nor kubectl is on PATH to render it: install kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/) or kubectl, or render it yourself: kustomize build overlay | k8s-windows lint -. (--no-render lints the files as they are, without the overlay's patches and images.)",
        },
      ]);
    } finally {
      cleanup();
    }
  });

  test('fix --write on a chart or kustomization is refused before anything renders, and writes nothing', async () => {
    const { dir, cleanup } = tempTree({
      'overlay/kustomization.yaml': KUSTOMIZATION(['deployment.yaml']),
      'overlay/deployment.yaml': DEPLOYMENT,
      'web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'plain/deploy.yaml': DEPLOYMENT,
    });
    try {
      const r = await cli(['fix', '--write', '.'], { cwd: dir, env: { PATH: emptyBin } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'k8s-windows: overlay: is a Kustomize directory: fix --write never rewrites templates or bases, and the rendered output it fixes is in no file. Nothing was written.',
      );
      expect(r.stderr).toContain(
        'k8s-windows: web: is a Helm chart: fix --write never rewrites templates or bases, and the rendered output it fixes is in no file. Nothing was written. Instead, print the fixed manifests (k8s-windows fix web > fixed.yaml), or fix at install time as a post-renderer',
      );
      expect(r.stderr).not.toContain('not on PATH');
      // Not even the plain file beside them is rewritten: the run stops before anything is read.
      expect(readFileSync(path.join(dir, 'plain/deploy.yaml'), 'utf8')).toBe(DEPLOYMENT);
      expect(readFileSync(path.join(dir, 'overlay/deployment.yaml'), 'utf8')).toBe(DEPLOYMENT);
    } finally {
      cleanup();
    }
  });

  test("the config file's ignore list leaves out a chart by its directory or its Chart.yaml, and an ignored overlay's base stays out", async () => {
    const { dir, cleanup } = tempTree({
      '.k8s-windows.yaml': 'ignore: ["charts/**", "other/Chart.yaml", "k/overlays/dev"]\n',
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'other/Chart.yaml': 'apiVersion: v2\nname: other\nversion: 0.1.0\n',
      'k/base/kustomization.yaml': KUSTOMIZATION(['deployment.yaml']),
      'k/base/deployment.yaml': DEPLOYMENT,
      'k/overlays/dev/kustomization.yaml': KUSTOMIZATION(['../../base']),
      'plain/deploy.yaml': DEPLOYMENT,
    });
    try {
      // Nothing left to render: no tool is asked for, so none is missing.
      const r = await cli(['lint', '--format', 'json', '.'], { cwd: dir, env: { PATH: emptyBin } });
      expect(r.stderr).toBe(
        "k8s-windows: note: 3 inputs (files, charts or kustomizations) found in the directories named are ignored by the config file's ignore list.\n",
      );
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { summary: { inputs: number } }).summary.inputs).toBe(1);
      const named = await cli(['lint', 'other'], { cwd: dir, env: { PATH: emptyBin } });
      expect(named.stderr).toContain("k8s-windows: note: other is ignored by the config file's ignore list.\n");
    } finally {
      cleanup();
    }
  });

  test('--values with no chart among the inputs is said', async () => {
    const { dir, cleanup } = tempTree({ 'deploy.yaml': DEPLOYMENT });
    try {
      const r = await cli(['lint', '--values', 'v.yaml', 'deploy.yaml'], { cwd: dir, env: { PATH: emptyBin } });
      expect(r.stderr).toBe(
        'k8s-windows: note: --values and --set apply to Helm charts, and no input is a chart directory.\n',
      );
    } finally {
      cleanup();
    }
  });
});
