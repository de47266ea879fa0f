/**
 * `fix` touches only what it fixes: every line it changes belongs to a change it reports, every other line is
 * byte-identical, in block, flow and JSON documents alike (issue 16: an untouched initContainers list re-indented,
 * `name:  windows-exporter-config` collapsed, one-line JSON printed as 40 lines, a flow document laid out anew).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { fixManifests, loadManifests, type FixOptions } from 'k8s-windows';
import { applyEdit, parseText, renderText, styleOf } from '../../../lib/core/yaml/document';
import type { FixEdit } from '../../../lib/core/model/fixes';
import { spliceDocument } from '../../../lib/core/yaml/splice';
import { cli, tempTree } from '../../helpers/cli';
import { unexplainedLines } from '../fix/lines';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const GKE: FixOptions = { cloud: 'gke' };

/** Fixes `text` and asserts every changed line is explained by a reported change; returns the result. */
function fixOnly(text: string, options: FixOptions = {}) {
  const r = fixManifests(text, options);
  expect(r.changes.length).toBeGreaterThan(0);
  expect(unexplainedLines(text, r.text, r.changes)).toEqual([]);
  // What was written reads back as fixed: a second run changes nothing.
  expect(fixManifests(r.text, options).text).toBe(r.text);
  return r;
}

/** windows_exporter's DaemonSet as its README gives it: odd spacing, an initContainers list indented its own way. */
const EXPORTER = `# windows_exporter, as its README gives it
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: windows-exporter   # the node agent
spec:
  template:
    spec:
      securityContext:
        windowsOptions:
          hostProcess: true
          runAsUserName: "NT AUTHORITY\\\\system"
      hostNetwork: true
      initContainers:
        - name: configure-firewall
          image: mcr.microsoft.com/powershell:lts-nanoserver-1809
          args: ["New-NetFirewallRule", "-LocalPort", "9182"]
      containers:
      - name: windows-exporter
        image: ghcr.io/prometheus-community/windows-exporter:latest
        volumeMounts:
        - name:  windows-exporter-config
          mountPath: /config.yml
      nodeSelector:
        kubernetes.io/os: windows
`;
const EXPORTER_FIXED = `${EXPORTER}      os:
        name: windows
      tolerations:
      - key: node.kubernetes.io/os
        operator: Equal
        value: windows
        effect: NoSchedule
`;

describe('block documents', () => {
  it('new keys are new lines at their siblings’ indentation; nothing else moves', () => {
    const r = fixOnly(EXPORTER, GKE);
    expect(r.text).toBe(EXPORTER_FIXED);
    expect(r.changes.map((c) => c.path)).toEqual(['spec.template.spec.os.name', 'spec.template.spec.tolerations']);
  });

  it('removed keys take exactly their own lines (a comment on them too); a flow map loses the key and its comma', () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
      hostPID: true
      securityContext:
        runAsUser: 1000   # legacy
        runAsNonRoot: true
      containers:
      - name: web
        image: '${IIS}'
        securityContext: {privileged: false, runAsNonRoot: true}
      - securityContext:
          capabilities: {drop: [ALL]}
          readOnlyRootFilesystem: true
        name: sidecar
        image: "${IIS}"
`;
    const r = fixOnly(text);
    expect(r.text).toBe(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
      securityContext:
        runAsNonRoot: true
      containers:
      - name: web
        image: '${IIS}'
        securityContext: {runAsNonRoot: true}
      - name: sidecar
        image: "${IIS}"
`);
  });

  it('a replaced scalar keeps its quoting; a null value becomes a block under its key, its comment kept', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  os:
    name: 'Windows'
  nodeSelector: ~  # filled in by the chart
  containers:
    - name: web
      image: ${IIS}
`;
    const r = fixOnly(text, { windowsRelease: '2022' });
    expect(r.text).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  os:
    name: 'windows'
  nodeSelector:  # filled in by the chart
    kubernetes.io/os: windows
    node.kubernetes.io/windows-build: 10.0.20348
  containers:
    - name: web
      image: ${IIS}
`);
  });

  it('anchors, aliases and comments elsewhere in the document keep their bytes', () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: &labels {app: web}   # shared below
spec:
  selector:
    matchLabels: *labels
  template:
    metadata:
      labels: *labels
    spec:
      # the web tier
      containers:
      - name: web
        image: ${IIS}
`;
    // The image's ltsc2022 tag names the build: the selector pins it.
    expect(fixOnly(text).text).toBe(`${text}      os:
        name: windows
      nodeSelector:
        kubernetes.io/os: windows
        node.kubernetes.io/windows-build: 10.0.20348
`);
  });

  it('CRLF line endings and a byte-order mark are kept, new lines written with CRLF', () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    expect(fixOnly(crlf(EXPORTER), GKE).text).toBe(crlf(EXPORTER_FIXED));
    expect(fixOnly(`\uFEFF${crlf(EXPORTER)}`, GKE).text).toBe(`\uFEFF${crlf(EXPORTER_FIXED)}`);
  });

  it('keys added after a block scalar (a PowerShell script) go after its last line, not after the next key', () => {
    const text = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: job
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: job
            image: mcr.microsoft.com/windows/servercore:ltsc2022
            args:
            - |
              Write-Host hello
  schedule: "0 * * * *"
`;
    expect(fixOnly(text).text).toBe(
      text.replace(
        '  schedule',
        '          os:\n            name: windows\n          nodeSelector:\n            kubernetes.io/os: windows\n' +
          '            node.kubernetes.io/windows-build: 10.0.20348\n  schedule',
      ),
    );
  });

  it('a new list under a key follows its sibling lists’ dash indentation', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  os:
    name: windows
  nodeSelector:
    kubernetes.io/os: windows
  containers:
    - name: web
      image: ${IIS}
      volumeMounts:
      - name: data
        mountPath: /data
  volumes:
    - name: data
      emptyDir: {}
`;
    const pinned = text.replace(
      '    kubernetes.io/os: windows\n',
      '    kubernetes.io/os: windows\n    node.kubernetes.io/windows-build: 10.0.20348\n',
    );
    expect(fixOnly(text, GKE).text).toBe(`${pinned}  tolerations:
    - key: node.kubernetes.io/os
      operator: Equal
      value: windows
      effect: NoSchedule
`);
  });
});

describe('flow documents', () => {
  it('a document laid out as `yaml` prints flow keeps its layout: new keys join their collection', () => {
    const text = `{
  apiVersion: apps/v1,
  kind: Deployment,
  metadata: { name: web },
  spec:
    {
      template:
        {
          spec:
            {
              securityContext: { runAsUser: 1000 },
              containers: [ { name: web, image: "${IIS}" } ]
            }
        }
    }
}
`;
    const r = fixOnly(text, { ...GKE, windowsRelease: '2022' });
    expect(r.text).toBe(`{
  apiVersion: apps/v1,
  kind: Deployment,
  metadata: { name: web },
  spec:
    {
      template:
        {
          spec:
            {
              containers: [ { name: web, image: "${IIS}" } ],
              os: { name: windows },
              nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348 },
              tolerations: [ { key: node.kubernetes.io/os, operator: Equal, value: windows, effect: NoSchedule } ]
            }
        }
    }
}
`);
  });

  it('a flow map in a block document: `{a: 1}` becomes `{a: 1, b: 2}`, a flow list gains an item', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  os: {name: windows}
  nodeSelector: {kubernetes.io/os: windows}
  tolerations: [{key: os, operator: Equal, value: windows, effect: NoSchedule}]
  containers: [{name: web, image: '${IIS}'}]
`;
    const r = fixOnly(text, { ...GKE, windowsRelease: '2022' });
    expect(r.text).toBe(
      text
        .replace('windows}\n  tol', 'windows, node.kubernetes.io/windows-build: 10.0.20348}\n  tol')
        .replace(
          'NoSchedule}]',
          'NoSchedule}, {key: node.kubernetes.io/os, operator: Equal, value: windows, effect: NoSchedule}]',
        ),
    );
  });
});

describe('JSON documents', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'iis' },
    spec: {
      hostPID: true,
      securityContext: { runAsNonRoot: true, runAsUser: 1000 },
      containers: [{ name: 'iis', image: IIS }],
    },
  };
  const fixed = {
    ...pod,
    spec: {
      securityContext: { runAsNonRoot: true },
      containers: pod.spec.containers,
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      tolerations: [{ key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
    },
  };
  const options: FixOptions = { ...GKE, windowsRelease: '2022' };

  it('one-line JSON stays one line, compact as it was; removed keys take their comma, never leaving `,}`', () => {
    const r = fixOnly(`${JSON.stringify(pod)}\n`, options);
    expect(r.text).toBe(`${JSON.stringify(fixed)}\n`);
  });

  it('one-line JSON written with spaces after `:` and `,` gets its new keys written so', () => {
    const spaced = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(spaced).join(', ')}]`
        : typeof v === 'object' && v !== null
          ? `{${Object.entries(v)
              .map(([k, x]) => `${JSON.stringify(k)}: ${spaced(x)}`)
              .join(', ')}}`
          : JSON.stringify(v);
    const r = fixOnly(spaced(pod), options);
    expect(r.text).toBe(spaced(fixed));
  });

  it.each([2, 4])('multi-line JSON indented by %i keeps its indentation; new keys are written as JSON', (indent) => {
    const r = fixOnly(`${JSON.stringify(pod, null, indent)}\n`, options);
    expect(r.text).toBe(`${JSON.stringify(fixed, null, indent)}\n`);
  });
});

describe('edges', () => {
  const pod = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'a' },
    spec: { ...spec, containers: [{ name: 'a', image: IIS }] },
  });
  const toleration = { key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };
  const filled = {
    ...pod({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      tolerations: [toleration],
    }),
  };
  const fixedJSON = { ...filled, spec: { ...filled.spec, os: { name: 'windows' } } };

  it('empty `{}` and `[]` are filled in place: flow YAML, one-line JSON, multi-line JSON', () => {
    const yaml = `apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  nodeSelector: {}\n  tolerations: []\n  containers: [{name: a, image: '${IIS}'}]\n`;
    expect(fixOnly(yaml, GKE).text).toBe(
      yaml
        .replace('{}', '{kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}')
        .replace('[]', '[{key: node.kubernetes.io/os, operator: Equal, value: windows, effect: NoSchedule}]')
        .concat('  os:\n    name: windows\n'),
    );
    const empty = pod({ nodeSelector: {}, tolerations: [] });
    expect(fixOnly(JSON.stringify(empty), GKE).text).toBe(JSON.stringify(fixedJSON));
    expect(fixOnly(`${JSON.stringify(empty, null, 2)}\n`, GKE).text).toBe(`${JSON.stringify(fixedJSON, null, 2)}\n`);
  });

  it('a text without a final line break keeps it so; a removed last key takes the line break before it', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  os: {name: windows}\n  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\n  containers:\n  - name: a\n    image: ${IIS}\n  hostPID: true`;
    expect(fixOnly(text).text).toBe(text.replace('\n  hostPID: true', ''));
    const open = text.replace('\n  hostPID: true', '').replace('  os: {name: windows}\n', '');
    expect(fixOnly(open).text).toBe(`${open}\n  os:\n    name: windows`);
  });

  it('new keys go before a document end marker and the next document', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\n  containers:\n  - name: a\n    image: ${IIS}\n...\n---\nkind: ConfigMap\n`;
    expect(fixOnly(text).text).toBe(text.replace('...', '  os:\n    name: windows\n...'));
  });
});

describe('comments and anchors next to the edit', () => {
  it('a comment after the last item of a multi-line flow map stays on its line, behind the new comma', () => {
    const text = `{\n  apiVersion: v1,\n  kind: Pod,\n  metadata: {name: a},\n  spec: {\n    nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348},\n    containers: [{name: a, image: '${IIS}'}]  # the app\n  }\n}\n`;
    expect(fixOnly(text).text).toBe(text.replace('}]  # the app\n', '}],  # the app\n    os: {name: windows}\n'));
  });

  it('a list item whose first key carries an anchor: new keys align with the keys on lines of their own', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  os: {name: windows}\n  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\n  hostNetwork: true\n  securityContext:\n    windowsOptions: {hostProcess: true}\n  containers:\n  - &c name: a\n    image: ${IIS}\n    ports:\n    - containerPort: 80\n      hostPort: 8080\n`;
    expect(fixOnly(text).text).toBe(text.replace('hostPort: 8080', 'hostPort: 80'));
    // A key added to that item (no fixer adds one today: the edit is made directly).
    const parsed = parseText(text);
    const edit = { op: 'set', path: 'spec.containers[0].imagePullPolicy', value: 'Always' } as const;
    expect(applyEdit(parsed.docs[0].doc, [], edit)).toMatchObject({ ok: true });
    parsed.docs[0].changed = true;
    expect(renderText(parsed)).toBe(`${text}    imagePullPolicy: Always\n`);
  });
});

describe('the real manifests under test/fixtures', () => {
  // A CRLF file without a final line break (microsoft-sdn's EnableWinFlags) among them.
  const root = path.join(__dirname, '..', '..', 'fixtures');
  const files = ['realworld', 'fix']
    .flatMap((d) => readdirSync(path.join(root, d)).map((f) => path.join(d, f)))
    .filter((f) => /\.(ya?ml|json)$/.test(f));

  it.each(files)('%s: only the fixed lines change', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const options of [{}, { ...GKE, windowsRelease: '2022', pinLinux: true } as const]) {
      const r = fixManifests(text, options);
      expect(unexplainedLines(text, r.text, r.changes)).toEqual([]);
    }
  });
});

const text0 = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: a, image: x}\n  - b\n`;

/** The text after making `edits` directly (shapes no fixer makes today), and whether it was spliced. */
function edited(text: string, edits: readonly FixEdit[]): { text: string; spliced: boolean } {
  const parsed = parseText(text);
  const doc = parsed.docs[0];
  for (const e of edits) expect(applyEdit(doc.doc, [], e)).toMatchObject({ ok: true });
  doc.changed = true;
  const style = styleOf(parsed.text.slice(doc.start, doc.end));
  const out = renderText(parsed);
  return { text: out, spliced: spliceDocument(parsed.text, doc.start, doc.end, doc.doc, style) === out };
}

describe('edit shapes beyond today’s fixers', () => {
  const text = `spec:\n  args:\n  - a  # first\n  - b\n  flow: [a, b, c]\n  ports:\n  - containerPort: 80\n    hostPort: 8080\n  sc:\n    runAsUser: 1000\n  keep: 1\n`;

  it('a list item removed takes its lines (block) or itself and a comma (flow)', () => {
    const r = edited(text, [
      { op: 'remove', path: 'spec.args[0]' },
      { op: 'remove', path: 'spec.flow[1]' },
    ]);
    expect(r).toEqual({ text: text.replace('  - a  # first\n', '').replace('[a, b, c]', '[a, c]'), spliced: true });
  });

  it('a list item set anew is written where it stood', () => {
    const r = edited(text, [
      { op: 'set', path: 'spec.args[1]', value: 'z' },
      { op: 'set', path: 'spec.ports[0]', value: { containerPort: 80, hostPort: 80 } },
    ]);
    expect(r).toEqual({
      text: text.replace('  - b\n', '  - z\n').replace('hostPort: 8080', 'hostPort: 80'),
      spliced: true,
    });
  });

  it('a block collection replaced by a scalar or another block; an emptied one is written {}', () => {
    expect(edited(text, [{ op: 'set', path: 'spec.sc', value: 'none' }])).toEqual({
      text: text.replace('sc:\n    runAsUser: 1000', 'sc: none'),
      spliced: true,
    });
    expect(edited(text, [{ op: 'set', path: 'spec.sc', value: { runAsNonRoot: true } }])).toEqual({
      text: text.replace('runAsUser: 1000', 'runAsNonRoot: true'),
      spliced: true,
    });
    expect(edited(text, [{ op: 'remove', path: 'spec.sc.runAsUser' }])).toEqual({
      text: text.replace('sc:\n    runAsUser: 1000', 'sc: {}'),
      spliced: true,
    });
  });
});

describe('the fallback', () => {
  it('an edit the splicer cannot write (a block map for a one-line list item) re-renders that document', () => {
    const r = edited(text0, [{ op: 'set', path: 'spec.containers[1]', value: { name: 'c', image: 'z' } }]);
    expect(r.spliced).toBe(false);
    expect(loadManifests(r.text)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: {
          containers: [
            { name: 'a', image: 'x' },
            { name: 'c', image: 'z' },
          ],
        },
      },
    ]);
  });
});

describe('the line check itself', () => {
  it('flags a re-rendered document (what fix printed before issue 16)', () => {
    const r = fixManifests(EXPORTER, GKE);
    const rerendered = parseDocument(r.text).toString();
    expect(unexplainedLines(EXPORTER, rerendered, r.changes)).toEqual(
      expect.arrayContaining([
        '- 5:   name: windows-exporter   # the node agent',
        '- 22:         - name:  windows-exporter-config',
        '+ 22:             - name: windows-exporter-config',
      ]),
    );
  });
});

describe('k8s-windows fix --write', () => {
  it('rewrites the file with only the fixed lines changed', async () => {
    const { dir, cleanup } = tempTree({ 'exporter.yaml': EXPORTER });
    try {
      const r = await cli(['fix', '--write', '--cloud', 'gke', 'exporter.yaml'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(readFileSync(path.join(dir, 'exporter.yaml'), 'utf8')).toBe(EXPORTER_FIXED);
    } finally {
      cleanup();
    }
  });
});
