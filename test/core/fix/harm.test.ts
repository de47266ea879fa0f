/**
 * `fix` never harms: one regression test per class of harm the property test (harm.property.test.ts) found, each
 * shaped like its shrunk counterexample.
 */
import { parseAllDocuments } from 'yaml';
import { fixManifests, loadManifests, validateManifests } from 'k8s-windows';
import { isWindowsImage, windowsTagStrength } from '../../../lib/core/images';
import { cli } from '../../helpers/cli';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

function linuxDeployment(image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
spec:
  template:
    spec:
      securityContext:
        runAsNonRoot: true
        runAsUser: 1000
      containers:
      - name: worker
        image: ${image}
        securityContext:
          allowPrivilegeEscalation: false
          capabilities: {drop: [ALL]}
`;
}

describe('a Linux image whose version contains a Windows build name', () => {
  const images = [
    'ghcr.io/acme/worker:v2.1909.3',
    'registry.example.com/api:1.4.1809',
    'registry.example.com/api:2004',
    'acme/etl:20h2',
    'acme/etl:1809-alpine',
  ];

  it.each(images)('%s: fix leaves the Deployment byte-identical', (image) => {
    const text = linuxDeployment(image);
    const r = fixManifests(text);
    expect(r.changes).toEqual([]);
    expect(r.text).toBe(text);
  });

  it.each(images)('%s: lint reports it as nothing Windows', (image) => {
    const ids = validateManifests(loadManifests(linuxDeployment(image))).map((d) => d.ruleId);
    expect(ids).not.toContain('image-sac');
    expect(ids).not.toContain('windows-node-selector-missing');
    expect(ids).not.toContain('windows-forbidden-field');
  });

  it('tags read as Windows only in the forms Windows images use', () => {
    expect(windowsTagStrength('v2.1909.3')).toBe('none');
    expect(windowsTagStrength('1.4.1809')).toBe('none');
    expect(windowsTagStrength('2004')).toBe('weak');
    expect(windowsTagStrength('20h2')).toBe('weak');
    for (const tag of ['ltsc2022', 'windowsservercore-ltsc2019', 'nanoserver-1809', '3.9-windows-1809-amd64']) {
      expect(windowsTagStrength(tag)).toBe('strong');
    }
    expect(isWindowsImage('registry.example.com/api:2004')).toBeUndefined();
    // A known Windows repository needs no tag evidence: its bare build tags are builds.
    expect(isWindowsImage('mcr.microsoft.com/windows/servercore:1809')).toBe(true);
  });

  it('in a pod that is Windows on other evidence, a bare build tag still names the build', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: prepull}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  containers:
  - {name: curl, image: 'e2e.example.com/test-images/curl:1803'}
`;
    expect(validateManifests(loadManifests(pod)).map((d) => d.ruleId)).toContain('image-sac');
  });

  it('a build name buried in a version is not a build even in a Windows pod', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  nodeSelector: {kubernetes.io/os: windows}
  containers:
  - {name: app, image: 'registry.example.com/api:1.4.1809'}
`;
    const ids = validateManifests(loadManifests(pod)).map((d) => d.ruleId);
    expect(ids).not.toContain('image-sac');
    expect(ids).not.toContain('image-build-unpinned');
  });
});

/** Two Windows Deployments in one List whose pod securityContext is one anchored map. */
const SHARED_POD_SECURITY = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: a}
  spec:
    template:
      spec:
        os: {name: windows}
        securityContext: &sc
          runAsNonRoot: true
          runAsUser: 1000
        containers: [{name: a, image: '${IIS}'}]
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: b}
  spec:
    template:
      spec:
        os: {name: windows}
        securityContext: *sc
        containers: [{name: b, image: '${IIS}'}]
`;

describe('anchors, aliases and merge keys', () => {
  it('a field in an anchor other pods share is not removed: refused for every pod, with why', () => {
    const r = fixManifests(SHARED_POD_SECURITY);
    const objects = loadManifests(r.text) as { spec: { template: { spec: { securityContext: unknown } } } }[];
    for (const o of objects)
      expect(o.spec.template.spec.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000 });
    expect(r.changes.filter((c) => c.path.includes('securityContext'))).toEqual([]);
    expect(r.refused.map((x) => [x.resource.name, x.path])).toEqual([
      ['a', 'spec.template.spec.securityContext.runAsUser'],
      ['b', 'spec.template.spec.securityContext.runAsUser'],
    ]);
    expect(r.refused[0].reason).toContain('anchor &sc');
    // The rejection is left, and reported.
    expect(r.diagnostics.filter((d) => d.ruleId === 'windows-forbidden-field').map((d) => d.resource.name)).toEqual([
      'a',
      'b',
    ]);
  });

  it('removing an anchored node an alias uses later does not throw (was: ReferenceError: Unresolved alias)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  os: {name: windows}
  containers:
  - name: a
    image: ${IIS}
    securityContext: &sc {runAsUser: 1000}
  - name: b
    image: ${IIS}
    securityContext: *sc
`;
    const r = fixManifests(text);
    expect(() => loadManifests(r.text)).not.toThrow();
    expect(r.refused.map((x) => x.path)).toEqual([
      'spec.containers[0].securityContext.runAsUser',
      'spec.containers[1].securityContext.runAsUser',
    ]);
  });

  it('a field a merge key provides is refused, never shadowed or half-removed (was: Merge sources must be maps)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  os: {name: windows}
  containers:
  - name: a
    image: ${IIS}
    securityContext: &base {runAsUser: 1000}
  - name: b
    image: ${IIS}
    securityContext:
      <<: *base
      runAsUser: 2000
`;
    const r = fixManifests(text);
    expect(() => loadManifests(r.text)).not.toThrow();
    const spec = (loadManifests(r.text)[0] as { spec: { containers: { securityContext: unknown }[] } }).spec;
    // Removing b's own runAsUser would only reveal the merged 1000: nothing is removed, both are reported.
    expect(spec.containers[1].securityContext).toEqual({ runAsUser: 2000 });
    expect(r.refused.map((x) => [x.path, x.reason.includes('merge key') || x.reason.includes('anchor')])).toEqual([
      ['spec.containers[0].securityContext.runAsUser', true],
      ['spec.containers[1].securityContext.runAsUser', true],
    ]);
  });

  it('a nodeSelector that comes from a merge key is not replaced by a new one that drops its labels', () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: defaults}
  data: &defaults
    nodeSelector: {agentpool: win22}
- apiVersion: v1
  kind: Pod
  metadata: {name: p}
  spec:
    <<: *defaults
    containers: [{name: a, image: '${IIS}'}]
`;
    const r = fixManifests(text);
    const pod = loadManifests(r.text)[1] as { spec: { nodeSelector: Record<string, string> } };
    expect(pod.spec.nodeSelector).toEqual({ agentpool: 'win22' });
    expect(r.refused.map((x) => [x.path, x.reason])).toEqual([
      ['spec.nodeSelector[kubernetes.io/os]', 'it comes from a YAML merge key (<<), shared with other places'],
    ]);
  });
});

describe('fixes not made reach the user', () => {
  it('in the text report under their object, and in --report json as refused', async () => {
    const text = await cli(['fix', '-'], { stdin: SHARED_POD_SECURITY });
    expect(text.stderr).toMatch(
      /<stdin>: Deployment a\n(?: {2}set .*\n)* {2}not changed: spec\.template\.spec\.securityContext\.runAsUser: it sits in the YAML anchor &sc/,
    );
    expect(text.stderr).toContain('2 fixes not made.');
    const json = await cli(['fix', '--report', 'json', '-'], { stdin: SHARED_POD_SECURITY });
    const report = JSON.parse(json.stderr) as { refused: { path: string; resource: { name: string } }[] };
    expect(report.refused.map((r) => r.resource.name)).toEqual(['a', 'b']);
  });
});

describe('a pod is fixed as a whole', () => {
  it('spec.os.name is not set while a forbidden field it would make the API server reject stays', () => {
    const text = SHARED_POD_SECURITY.replace(/ {8}os: \{name: windows\}\n/g, '');
    const before = fixManifests(text);
    const specs = loadManifests(before.text).map(
      (o) => (o as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec,
    );
    // Without spec.os the API server admits the pods as before; with it, it would reject runAsUser.
    for (const s of specs) expect(s.os).toBeUndefined();
    const refusedOs = before.refused.filter((x) => x.ruleId === 'windows-os-unset');
    expect(refusedOs).toHaveLength(2);
    expect(refusedOs[0].reason).toContain('could not be removed');
    // The rest of the fix still happens: the pods are pinned to Windows nodes.
    for (const s of specs) expect(s.nodeSelector).toMatchObject({ 'kubernetes.io/os': 'windows' });
  });

  it('a second run changes nothing, and refuses the same fixes', () => {
    const first = fixManifests(SHARED_POD_SECURITY);
    const second = fixManifests(first.text);
    expect(second.changes).toEqual([]);
    expect(second.text).toBe(first.text);
    expect(second.refused.map((x) => x.path)).toEqual(first.refused.map((x) => x.path));
  });
});

describe('bytes', () => {
  const WEB = `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: iis, image: '${IIS}'}]\n`;
  const JSON_POD = `${JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'iis', image: IIS }] } }, null, 2)}\n`;

  it('a BOM is kept when a document is re-rendered, and a JSON document after a BOM stays JSON', () => {
    const plain = fixManifests(WEB);
    const marked = fixManifests(`\uFEFF${WEB}`);
    expect(marked.text).toBe(`\uFEFF${plain.text}`);
    const json = fixManifests(`\uFEFF${JSON_POD}`);
    expect(json.text.startsWith('\uFEFF{\n  "apiVersion"')).toBe(true);
    expect(json.text).toBe(`\uFEFF${fixManifests(JSON_POD).text}`);
  });

  it('CRLF documents stay CRLF', () => {
    const r = fixManifests(WEB.replace(/\n/g, '\r\n'));
    expect(r.changes.length).toBeGreaterThan(0);
    expect(/[^\r]\n/.test(r.text)).toBe(false);
  });

  it('fix - with nothing to fix gives back the BOM on stdout', async () => {
    const fixed = fixManifests(WEB).text;
    const r = await cli(['fix', '-'], { stdin: `\uFEFF${fixed}` });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`\uFEFF${fixed}`);
  });

  it('lint positions do not count the BOM', async () => {
    const bad = `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  os: {name: windows}\n  hostPID: true\n  containers: [{name: iis, image: '${IIS}'}]\n`;
    const plain = await cli(['lint', '--format', 'json', '-'], { stdin: bad });
    const marked = await cli(['lint', '--format', 'json', '-'], { stdin: `\uFEFF${bad}` });
    expect(marked.stdout).toBe(plain.stdout);
  });

  it('documents with nothing to fix keep their bytes beside one that is fixed', () => {
    const linux = `# untouched\napiVersion: v1\nkind: Pod\nmetadata:   {name: linux}\nspec:\n  containers:\n    - {name: a, image: 'acme/etl:20h2'}\n`;
    const r = fixManifests(`${linux}---\n${WEB}`);
    expect(r.text.startsWith(`${linux}---\n`)).toBe(true);
    expect(parseAllDocuments(r.text)).toHaveLength(2);
  });
});
