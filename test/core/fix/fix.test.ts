/** fixManifests: each fixable rule fixed (and left alone where the fix is not certain), faithful YAML output. */
import { parse, parseAllDocuments, stringify } from 'yaml';
import {
  fixManifests,
  loadManifests,
  RULES,
  validateManifests,
  WindowsValidationError,
  type FixOptions,
} from 'k8s-windows';
import { FIXERS, TARGET_FIXERS } from '../../../lib/core/fix/fixers';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** A Deployment whose pod spec is `podSpec` (YAML, indented for `spec.template.spec`). */
function deployment(name: string, podSpec: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  template:
    spec:
${podSpec.replace(/^/gm, '      ')}
`;
}

function podSpecOf(text: string, index = 0): Record<string, unknown> {
  const docs = parseAllDocuments(text).map(
    (d) => d.toJS() as { spec: { template: { spec: Record<string, unknown> } } },
  );
  return docs[index].spec.template.spec;
}

function fix(text: string, options: FixOptions = {}) {
  const first = fixManifests(text, options);
  // Every test also checks idempotence: fixing the output again changes nothing.
  const second = fixManifests(first.text, options);
  expect(second.changes).toEqual([]);
  expect(second.text).toBe(first.text);
  return first;
}

describe('RULES declares the fixable rules', () => {
  it('has a fixer for each rule marked fixable, and no fixer for any other', () => {
    const declared = RULES.filter((r) => r.fixable !== undefined)
      .map((r) => r.id)
      .sort();
    expect([...FIXERS.keys()].sort()).toEqual(declared);
    // A rule's fixes toward the target are its own: only fixable rules have them.
    for (const id of TARGET_FIXERS.keys()) expect(declared).toContain(id);
    expect(declared).toEqual(
      expect.arrayContaining(['windows-os-unset', 'windows-forbidden-field', 'hostprocess-host-network']),
    );
  });
});

describe('Windows pods', () => {
  const iis = deployment('iis', `containers:\n- name: iis\n  image: ${IIS}\n`);

  it('get spec.os.name, the kubernetes.io/os selector and the build their image needs, no toleration without a target', () => {
    const r = fix(iis);
    const spec = podSpecOf(r.text);
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(spec.tolerations).toBeUndefined();
    expect(r.changes.map((c) => [c.ruleId, c.action, c.path])).toEqual([
      ['windows-os-unset', 'set', 'spec.template.spec.os.name'],
      ['windows-node-selector-missing', 'set', 'spec.template.spec.nodeSelector[kubernetes.io/os]'],
      ['image-build-unpinned', 'set', 'spec.template.spec.nodeSelector[node.kubernetes.io/windows-build]'],
    ]);
    expect(r.changes[0].resource).toMatchObject({ kind: 'Deployment', name: 'iis' });
  });

  it('get the tolerations of --toleration and of the GKE preset, once each', () => {
    const r = fix(iis, { cloud: 'gke', tolerations: [{ key: 'pool', value: 'win', effect: 'NoExecute' }] });
    expect(podSpecOf(r.text).tolerations).toEqual([
      { key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'pool', operator: 'Equal', value: 'win', effect: 'NoExecute' },
    ]);
  });

  it('get no toleration from the EKS and AKS presets (those clouds do not taint Windows nodes)', () => {
    for (const cloud of ['eks', 'aks'] as const)
      expect(podSpecOf(fix(iis, { cloud }).text).tolerations).toBeUndefined();
  });

  it('keep a toleration they already have', () => {
    const text = deployment(
      'iis',
      `containers:\n- name: iis\n  image: ${IIS}\ntolerations:\n- {key: os, operator: Equal, value: windows, effect: NoSchedule}\n`,
    );
    const r = fix(text, { tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] });
    expect(r.changes.some((c) => c.ruleId === 'windows-toleration-missing')).toBe(false);
  });

  it('get the build selector with windowsRelease, or the RuntimeClass', () => {
    expect(podSpecOf(fix(iis, { windowsRelease: '2022' }).text).nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    const rc = podSpecOf(fix(iis, { windowsRelease: '2022', runtimeClassName: 'windows-2022' }).text);
    expect(rc.runtimeClassName).toBe('windows-2022');
    expect(rc.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
  });

  it('are not pinned when they already pin a build, nor when they are node agents', () => {
    const pinned = deployment(
      'p',
      `containers:\n- name: iis\n  image: ${IIS}\nnodeSelector:\n  kubernetes.io/os: windows\n  node.kubernetes.io/windows-build: 10.0.17763\nos: {name: windows}\n`,
    );
    expect(fix(pinned, { windowsRelease: '2022' }).changes).toEqual([]);
    const sku = deployment(
      'p',
      `containers:\n- name: iis\n  image: ${IIS}\nnodeSelector:\n  kubernetes.io/os: windows\n  kubernetes.azure.com/os-sku: Windows2022\nos: {name: windows}\n`,
    );
    expect(fix(sku, { windowsRelease: '2022' }).changes).toEqual([]);
    const pool = deployment(
      'p',
      `containers:\n- name: iis\n  image: ${IIS}\nnodeSelector:\n  kubernetes.io/os: windows\n  agentpool: npwin\nos: {name: windows}\n`,
    );
    expect(fix(pool, { windowsRelease: '2022' }).changes).toEqual([]);
    const agent = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: csi-node-win}
spec:
  template:
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows}
      containers:
      - name: plugin
        image: registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.15.0
`;
    expect(fix(agent, { windowsRelease: '2022' }).changes).toEqual([]);
  });

  it('lose the fields the API server forbids, each named with its value', () => {
    const text = deployment(
      'iis',
      `os:\n  name: windows\nnodeSelector:\n  kubernetes.io/os: windows\nsecurityContext:\n  runAsUser: 1000\n  seccompProfile: {type: RuntimeDefault}\ncontainers:\n- name: iis\n  image: ${IIS}\n  securityContext:\n    capabilities: {drop: [ALL]}\n    runAsNonRoot: true\n`,
    );
    const r = fix(text);
    const spec = podSpecOf(r.text);
    expect(spec.securityContext).toBeUndefined(); // no empty shell left behind
    expect((spec.containers as { securityContext: unknown }[])[0].securityContext).toEqual({ runAsNonRoot: true });
    const removed = r.changes.filter((c) => c.action === 'removed');
    expect(removed.map((c) => [c.ruleId, c.action, c.path, c.previous])).toEqual([
      [
        'windows-forbidden-field',
        'removed',
        'spec.template.spec.securityContext.seccompProfile',
        { type: 'RuntimeDefault' },
      ],
      ['windows-forbidden-field', 'removed', 'spec.template.spec.securityContext.runAsUser', 1000],
      [
        'windows-forbidden-field',
        'removed',
        'spec.template.spec.containers[0].securityContext.capabilities',
        { drop: ['ALL'] },
      ],
    ]);
    expect(removed[1].message).toContain('removed spec.template.spec.securityContext.runAsUser 1000');
    expect(r.diagnostics.filter((d) => d.ruleId === 'windows-forbidden-field')).toEqual([]);
  });

  it('lower-case a mis-cased os.name, and leave any other value', () => {
    const cased = deployment(
      'a',
      `os: {name: Windows}\nnodeSelector: {kubernetes.io/os: windows}\ncontainers: [{name: a, image: '${IIS}'}]\n`,
    );
    expect(podSpecOf(fix(cased).text).os).toEqual({ name: 'windows' });
    const other = deployment('a', `os: {name: macos}\ncontainers: [{name: a, image: '${IIS}'}]\n`);
    expect(fix(other).diagnostics.some((d) => d.ruleId === 'windows-os-name')).toBe(true);
  });

  it('that contradict themselves (spec.os windows, selector linux) are left to the user', () => {
    const text = deployment(
      'a',
      `os: {name: windows}\nnodeSelector: {kubernetes.io/os: linux}\ncontainers: [{name: a, image: '${IIS}'}]\n`,
    );
    const r = fix(text);
    expect(r.changes.filter((c) => c.ruleId !== 'image-build-unpinned')).toEqual([]);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('windows-node-selector-missing');
  });

  it('selecting Windows by affinity only get the nodeSelector too', () => {
    const text = deployment(
      'a',
      `os: {name: windows}\naffinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: kubernetes.io/os, operator: In, values: [windows]}]\ncontainers: [{name: a, image: '${IIS}'}]\n`,
    );
    const r = fix(text);
    expect(podSpecOf(r.text).nodeSelector).toMatchObject({ 'kubernetes.io/os': 'windows' });
    expect(r.changes.map((c) => c.ruleId)).toEqual(['windows-node-selector-affinity-only', 'image-build-unpinned']);
  });
});

describe('every kind that holds a pod', () => {
  it.each([
    ['Pod', 'spec'],
    ['CronJob', 'spec.jobTemplate.spec.template.spec'],
    ['PodTemplate', 'template.spec'],
  ])('%s: fixed at %s', (kind, at) => {
    const segments = at.split('.');
    const podSpec = { containers: [{ name: 'a', image: IIS }] };
    const body = segments.reduceRight<unknown>((inner, seg) => ({ [seg]: inner }), podSpec) as object;
    const text = stringify({ apiVersion: 'v1', kind, metadata: { name: 'a' }, ...body });
    const r = fix(text);
    let value: unknown = parse(r.text);
    for (const seg of segments) value = (value as Record<string, unknown>)[seg];
    expect(value).toMatchObject({ os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' } });
    expect(r.changes[0].path).toBe(`${at}.os.name`);
  });
});

describe('pods selecting the beta OS label', () => {
  it('get kubernetes.io/os beside it; the beta label stays', () => {
    const text = deployment(
      'a',
      `os: {name: windows}\nnodeSelector:\n  beta.kubernetes.io/os: windows\n  node.kubernetes.io/windows-build: 10.0.20348\ncontainers: [{name: a, image: '${IIS}'}]`,
    );
    const r = fix(text);
    expect(podSpecOf(r.text).nodeSelector).toEqual({
      'beta.kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
      'kubernetes.io/os': 'windows',
    });
    expect(r.changes.map((c) => c.ruleId)).toEqual(['windows-beta-os-label']);
  });
});

describe('HostProcess pods', () => {
  it('get hostNetwork and hostPort = containerPort', () => {
    const text = deployment(
      'exporter',
      `os: {name: windows}\nnodeSelector: {kubernetes.io/os: windows}\nsecurityContext:\n  windowsOptions: {hostProcess: true, runAsUserName: 'NT AUTHORITY\\\\system'}\ncontainers:\n- name: exporter\n  image: ghcr.io/prometheus-community/windows-exporter:0.31.3\n  ports:\n  - containerPort: 9182\n    hostPort: 9100\n`,
    );
    const r = fix(text);
    const spec = podSpecOf(r.text);
    expect(spec.hostNetwork).toBe(true);
    expect((spec.containers as { ports: unknown[] }[])[0].ports).toEqual([{ containerPort: 9182, hostPort: 9182 }]);
    expect(r.changes.map((c) => [c.ruleId, c.path, c.previous])).toEqual([
      ['hostprocess-host-network', 'spec.template.spec.hostNetwork', undefined],
      ['windows-host-port', 'spec.template.spec.containers[0].ports[0].hostPort', 9100],
    ]);
  });
});

describe('Linux pods', () => {
  const set = `${deployment('iis', `os: {name: windows}\nnodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\ncontainers: [{name: iis, image: '${IIS}'}]`)}---\n${deployment('redis', 'containers:\n- name: redis\n  image: redis:7  # cache\n')}`;

  it('are byte-identical without pinLinux', () => {
    const r = fix(set);
    expect(r.text).toBe(set);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('linux-node-selector-missing');
  });

  it('get kubernetes.io/os: linux with pinLinux', () => {
    const r = fix(set, { pinLinux: true });
    expect(podSpecOf(r.text, 1).nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    // The comment is kept, with its spacing: only the new selector's lines are written.
    expect(r.text).toContain('image: redis:7  # cache');
  });

  it('are never pinned in a set without Windows pods', () => {
    const linux = deployment('redis', 'containers: [{name: redis, image: redis:7}]');
    expect(fix(linux, { pinLinux: true }).text).toBe(linux);
  });
});

describe('faithful output', () => {
  it('keeps untouched documents byte for byte and comments, quoting and flow style of edited ones', () => {
    const untouched = `# Source: chart/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:   {name: cfg}   # odd spacing\ndata:\n  k: "v"\n`;
    const edited = `---\n# Source: chart/templates/web.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # the web tier\n  labels: {app: web}\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: '${IIS}'\n        args: ["-a", 'b']\n`;
    const text = `${untouched}${edited}`;
    const r = fix(text);
    expect(r.text.startsWith(untouched)).toBe(true);
    for (const kept of [
      '# Source: chart/templates/web.yaml',
      'name: web # the web tier',
      'labels: {app: web}',
      `image: '${IIS}'`,
      `args: ["-a", 'b']`,
      '      - name: web',
    ]) {
      expect(r.text).toContain(kept);
    }
  });

  it('keeps CRLF line endings and a missing final newline', () => {
    const text = deployment('a', `containers: [{name: a, image: '${IIS}'}]`).replace(/\n$/, '').replace(/\n/g, '\r\n');
    const r = fix(text);
    expect(r.changes.length).toBeGreaterThan(0);
    expect(r.text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(r.text.endsWith('\n')).toBe(false);
  });

  it('keeps anchors, and does not edit through an alias', () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: a}
  spec:
    template:
      spec: &pod
        containers: [{name: a, image: '${IIS}'}]
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: b}
  spec:
    template:
      spec: *pod
`;
    const r = fix(text);
    expect(r.text).toContain('spec: &pod');
    expect(r.text).toContain('spec: *pod');
    expect(r.changes.every((c) => c.resource.name === 'a')).toBe(true);
    // b still shares a's (now fixed) pod spec through the alias, so nothing is left on it either.
    expect(parse(r.text).items[1].spec.template).toBeDefined();
  });

  it('fixes the items of a List in place', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- ${deployment('a', `containers: [{name: a, image: '${IIS}'}]`).trimEnd().replace(/\n/g, '\n  ')}\n`;
    const r = fix(text);
    expect(parse(r.text).items[0].spec.template.spec.os).toEqual({ name: 'windows' });
  });

  it('does not remove a field that comes from a merge key (the finding stays)', () => {
    const text = `base: &sc {runAsUser: 1000}
---
${deployment('a', `os: {name: windows}\nnodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\nsecurityContext:\n  <<: {runAsUser: 1000}\ncontainers: [{name: a, image: '${IIS}'}]`)}`;
    const r = fix(text);
    expect(r.changes).toEqual([]);
    expect(r.diagnostics.map((d) => d.ruleId)).toContain('windows-forbidden-field');
  });
});

describe('rule settings and waivers', () => {
  const iis = deployment('iis', `containers: [{name: iis, image: '${IIS}'}]`);

  it('a rule turned off is neither fixed nor reported', () => {
    const r = fix(iis, { rules: { 'windows-os-unset': 'off' } });
    expect(podSpecOf(r.text).os).toBeUndefined();
    expect(r.diagnostics.map((d) => d.ruleId)).not.toContain('windows-os-unset');
  });

  it('a waived resource is left alone, tolerations included', () => {
    const waived = iis.replace('  name: iis\n', '  name: iis\n  annotations: {k8s-windows.io/waive: "*"}\n');
    expect(fix(waived, { cloud: 'gke' }).text).toBe(waived);
  });

  it('fixes what lint reports: a suppression that does not hide an error the API server rejects does not stop fix', () => {
    const text = deployment(
      'iis',
      `os: {name: windows}\nhostPID: true\ncontainers: [{name: iis, image: '${IIS}'}]`,
    ).replace(
      '  name: iis\n',
      '  name: iis\n  annotations: {suppress.k8s-windows.io/windows-forbidden-field: "known"}\n',
    );
    const lint = validateManifests(loadManifests(text), { includeSuppressed: false });
    expect(lint.filter((d) => d.ruleId === 'windows-forbidden-field').map((d) => d.suppression?.honoured)).toEqual([
      false,
    ]);
    const r = fix(text);
    expect(podSpecOf(r.text).hostPID).toBeUndefined();
    expect(r.changes).toContainEqual(
      expect.objectContaining({ ruleId: 'windows-forbidden-field', path: 'spec.template.spec.hostPID' }),
    );
  });

  it('a suppression that hides a finding keeps fix away from it', () => {
    const text = iis.replace(
      '  name: iis\n',
      '  name: iis\n  annotations: {suppress.k8s-windows.io/windows-os-unset: "later"}\n',
    );
    const r = fix(text);
    expect(podSpecOf(r.text).os).toBeUndefined();
    expect(r.changes.map((c) => c.ruleId)).not.toContain('windows-os-unset');
  });
});

describe('bad input', () => {
  it('throws one error naming every malformed document', () => {
    expect(() => fixManifests('a: [\n---\nb: {\n', { source: 'x.yaml' })).toThrow(
      /2 malformed YAML document problems:\n {2}x\.yaml:2:1: /,
    );
  });

  it('throws a WindowsValidationError listing every bad option', () => {
    let error: unknown;
    try {
      fixManifests('', {
        cloud: 'openshift' as never,
        tolerations: [{ key: '', effect: 'Never' as never }],
        runtimeClassName: 'Bad_Name',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    expect((error as WindowsValidationError).issues.map((i) => i.path)).toEqual([
      'cloud',
      'tolerations[0].key',
      'tolerations[0].effect',
      'runtimeClassName',
      'runtimeClassName',
    ]);
  });

  it('returns empty text as it is', () => {
    expect(fixManifests('')).toEqual({ text: '', changes: [], refused: [], diagnostics: [] });
  });
});

describe('the remaining diagnostics', () => {
  it('are what validateManifests says about the output, at its lines', () => {
    const text = deployment('a', `containers: [{name: a, image: '${IIS}'}]`);
    const r = fixManifests(text, { cloud: 'gke' });
    expect(r.diagnostics).toEqual(validateManifests(loadManifests(r.text), { cloud: 'gke' }));
    // The fix added lines above the container: the startupProbe advice points at the container's line in the output.
    const probe = r.diagnostics.find((d) => d.ruleId === 'windows-startup-probe');
    const line = r.text.split('\n')[(probe?.location?.position?.line ?? 0) - 1];
    expect(line).toContain('containers:');
  });

  it('are those of every rule where nothing was changed (the first pass runs only the rules with fixers)', () => {
    // Already fixed, with findings no fixer acts on: 800m of memory (0.8 bytes), a startup probe to add.
    const pod = `containers: [{name: a, image: '${IIS}', resources: {limits: {memory: 800m}}}]`;
    const text = fixManifests(deployment('a', pod), { cloud: 'gke' }).text;
    const r = fixManifests(text, { cloud: 'gke' });
    expect(r.changes).toEqual([]);
    expect(r.text).toBe(text);
    const lint = validateManifests(loadManifests(text), { cloud: 'gke' });
    expect(r.diagnostics).toEqual(lint);
    expect(lint.map((d) => d.ruleId)).toEqual(expect.arrayContaining(['memory-too-small', 'windows-startup-probe']));
  });
});

describe('JSON and flow documents', () => {
  it('a JSON document comes back as JSON, indented as it was', () => {
    const json = `${JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'iis' },
        spec: { containers: [{ name: 'iis', image: IIS }], nodeSelector: { 'kubernetes.io/os': 'windows' } },
      },
      null,
      4,
    )}\n`;
    const r = fix(json);
    expect(JSON.parse(r.text).spec.os).toEqual({ name: 'windows' });
    expect(r.text).toBe(`${JSON.stringify(JSON.parse(r.text), null, 4)}\n`);
  });

  it('a document written as one flow mapping stays flow, on its one line, with the new key written into it', () => {
    const text = `{apiVersion: v1, kind: Pod, metadata: {name: iis}, spec: {containers: [{name: iis, image: "${IIS}"}], nodeSelector: {kubernetes.io/os: windows}}}\n`;
    const r = fix(text);
    expect(r.text).toBe(
      text.replace('windows}}}', 'windows, node.kubernetes.io/windows-build: 10.0.20348}, os: {name: windows}}}'),
    );
    expect(parse(r.text).spec.os).toEqual({ name: 'windows' });
  });
});
