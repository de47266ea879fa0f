/**
 * Issue 34: Windows evidence in an image's repository name, and placeholders for an image, as lint reports them.
 * A pod with no OS selector whose image is `contoso/iis-windows-ltsc2019` or `fabrikam/sql-windows-1809` is
 * reported by windows-node-selector-missing at a severity that matches the evidence, saying where it came from; a
 * Windows pod's image whose repository name names another build than the pod's pin is reported by
 * image-build-mismatch at warning. A placeholder (`#registry#/…`, `<your-registry>`, `app:__TAG__`), as a plain
 * manifest or as Kustomize's `images:` renders it, is never asked of a registry; where it stands for the registry
 * alone, what the repository and tag after it say is read as for any reference, and nothing else is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixManifests, loadManifests, validateManifests, type Diagnostic } from 'k8s-windows';
import { resolveImageReferences } from '../../../lib/registry/resolve-set';
import type { ImageLookups } from '../../../lib/core/model/image-lookup';

const pod = (image: string, spec = '') => `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
${spec}  containers:
  - name: web
    image: ${JSON.stringify(image)}
`;

const lint = (text: string, options: Parameters<typeof validateManifests>[1] = {}) =>
  validateManifests(loadManifests(text), options);

const fields = (d: Diagnostic) => ({ ruleId: d.ruleId, severity: d.severity, path: d.path, messageId: d.messageId });

describe('a pod that says nothing of its OS, with an image named for Windows', () => {
  test('GIVEN contoso/iis-windows-ltsc2019 THEN a warning that names the repository, Windows and ltsc2019', () => {
    const found = lint(pod('contoso/iis-windows-ltsc2019'));
    expect(found.map(fields)).toEqual([
      {
        ruleId: 'windows-node-selector-missing',
        severity: 'warning',
        path: 'spec.nodeSelector',
        messageId: 'image-name',
      },
    ]);
    expect(found[0]?.message).toBe(
      "This pod selects no OS, and spec.containers[0].image is 'contoso/iis-windows-ltsc2019': the image repository name 'contoso/iis-windows-ltsc2019' names Windows ('windows', 'ltsc2019': Windows Server 2019). If it is a Windows image, the pod can land on a Linux node and never start.",
    );
    expect(found[0]?.fix).toBe(
      'If the image is a Windows one, add nodeSelector { kubernetes.io/os: windows } (and spec.os.name: windows); if it is a Linux one, add nodeSelector { kubernetes.io/os: linux }.',
    );
  });

  test('GIVEN fabrikam/sql-windows-1809 in a Deployment THEN a warning at the template that names windows-1809', () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: {name: sql}
spec:
  selector: {matchLabels: {app: sql}}
  template:
    metadata: {labels: {app: sql}}
    spec:
      initContainers:
      - name: init
        image: busybox:1.36
      containers:
      - name: sql
        image: fabrikam/sql-windows-1809:2019-cu27
`;
    const found = lint(text);
    expect(found.map(fields)).toEqual([
      {
        ruleId: 'windows-node-selector-missing',
        severity: 'warning',
        path: 'spec.template.spec.nodeSelector',
        messageId: 'image-name',
      },
    ]);
    expect(found[0]?.message).toContain(
      "spec.template.spec.containers[0].image is 'fabrikam/sql-windows-1809:2019-cu27': the image repository name 'fabrikam/sql-windows-1809' names Windows ('windows-1809': Windows Server 2019)",
    );
  });

  test('GIVEN a Windows word in the name and a build in the tag THEN a warning that names both', () => {
    const found = lint(pod('contoso/sql-windows:1809'));
    expect(found.map((d) => [d.ruleId, d.severity])).toEqual([['windows-node-selector-missing', 'warning']]);
    expect(found[0]?.message).toContain(
      "the image repository name 'contoso/sql-windows' names Windows ('windows') and its tag '1809' names Windows Server 2019",
    );
  });

  test('GIVEN only a Windows word in the name THEN info, not a warning', () => {
    const found = lint(pod('contoso.azurecr.io/ops/windows-agent:1.4'));
    expect(found.map(fields)).toEqual([
      { ruleId: 'windows-node-selector-missing', severity: 'info', path: 'spec.nodeSelector', messageId: 'image-name' },
    ]);
    expect(found[0]?.message).toContain("the image repository name 'ops/windows-agent' names Windows ('windows')");
  });

  test.each([
    ['an OS selector', 'nodeSelector: {kubernetes.io/os: linux}'],
    ['spec.os.name', 'os: {name: linux}'],
    ['a RuntimeClass (it may carry the selector)', 'runtimeClassName: windows-2019'],
    ['a node pool label', 'nodeSelector: {agentpool: npwin}'],
  ])('GIVEN %s THEN the name is not read', (_what, line) => {
    const found = lint(pod('contoso/iis-windows-ltsc2019', `  ${line}\n`));
    expect(found.filter((d) => d.ruleId === 'windows-node-selector-missing')).toEqual([]);
  });

  test('GIVEN the registry says the image has no Windows entry (--resolve-images) THEN the name is not read', () => {
    const images: ImageLookups = {
      'contoso/iis-windows-ltsc2019': {
        status: 'found',
        facts: { platforms: [{ os: 'linux', architecture: 'amd64' }] },
      },
    };
    const found = lint(pod('contoso/iis-windows-ltsc2019'), { images });
    expect(found.filter((d) => d.ruleId === 'windows-node-selector-missing')).toEqual([]);
  });

  test('fix leaves the pod as written: a name is not proof', () => {
    const text = pod('contoso/iis-windows-ltsc2019');
    const fixed = fixManifests(text);
    expect(fixed.text).toBe(text);
    expect(fixed.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([
      ['windows-node-selector-missing', 'warning'],
    ]);
  });

  test('beside Windows pods, such a pod is not told to pin itself to Linux', () => {
    const windowsPod = pod(
      'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
      '  os: {name: windows}\n  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}\n  tolerations: [{key: os, value: windows, effect: NoSchedule}]\n',
    ).replace('name: web}', 'name: iis}');
    const found = lint(`${windowsPod}---\n${pod('contoso/iis-windows-ltsc2019')}`);
    expect(found.filter((d) => d.ruleId === 'linux-node-selector-missing')).toEqual([]);
    // A Linux pod there still is.
    const linux = lint(`${windowsPod}---\n${pod('redis:7.4')}`);
    expect(linux.filter((d) => d.ruleId === 'linux-node-selector-missing').map((d) => d.resource.name)).toEqual([
      'web',
    ]);
  });
});

describe('a Windows pod whose image repository name names a build', () => {
  const windows = (pin?: string) =>
    `  os: {name: windows}\n  nodeSelector: {kubernetes.io/os: windows${pin ? `, node.kubernetes.io/windows-build: '${pin}'` : ''}}\n  tolerations: [{key: os, value: windows, effect: NoSchedule}]\n`;

  test('pinned to another release: image-build-mismatch at warning, saying the name is the evidence', () => {
    const found = lint(pod('fabrikam/sql-windows-1809:2019-cu27', windows('10.0.20348')));
    expect(found.filter((d) => d.ruleId === 'image-build-mismatch').map(fields)).toEqual([
      {
        ruleId: 'image-build-mismatch',
        severity: 'warning',
        path: 'spec.containers[0].image',
        messageId: 'pinned-by-name',
      },
    ]);
    expect(found.find((d) => d.ruleId === 'image-build-mismatch')?.message).toBe(
      "spec.containers[0].image 'fabrikam/sql-windows-1809:2019-cu27' looks built for Windows Server 2019 (10.0.17763): the image repository name 'fabrikam/sql-windows-1809' names Windows ('windows-1809': Windows Server 2019). The pod is pinned by nodeSelector node.kubernetes.io/windows-build=10.0.20348 to Windows Server 2022 (10.0.20348) nodes, which with process isolation run only ltsc2022 images.",
    );
  });

  test('pinned to its release, or a tag that names the build: no mismatch', () => {
    expect(
      lint(pod('fabrikam/sql-windows-1809:2019-cu27', windows('10.0.17763'))).filter(
        (d) => d.ruleId === 'image-build-mismatch',
      ),
    ).toEqual([]);
    // The tag is read first: this is an ltsc2022 image, whatever its repository was named for.
    expect(
      lint(pod('contoso/iis-windows-1809:ltsc2022', windows('10.0.20348'))).filter(
        (d) => d.ruleId === 'image-build-mismatch',
      ),
    ).toEqual([]);
  });

  test('unpinned: image-build-unpinned at info, and no floating-tag finding', () => {
    const found = lint(pod('fabrikam/sql-windows-1809:2019-cu27', windows()));
    expect(found.filter((d) => d.ruleId.startsWith('image-')).map(fields)).toEqual([
      { ruleId: 'image-build-unpinned', severity: 'info', path: 'spec.nodeSelector', messageId: 'unpinned' },
    ]);
    expect(found.find((d) => d.ruleId === 'image-build-unpinned')?.message).toContain(
      "'fabrikam/sql-windows-1809:2019-cu27' looks built for Windows Server 2019 (the image repository name 'fabrikam/sql-windows-1809' names Windows ('windows-1809': Windows Server 2019))",
    );
  });
});

describe('placeholders for an image', () => {
  /** What `kustomize build` writes for `images: [{name: web, newName: '#registry#/web', newTag: '__TAG__'}]`… */
  const kustomizeRendered = `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: web
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: '#registry#/iis-windows:ltsc2019'
        name: web
      - image: <your-registry>/agent:1.0
        name: agent
      - image: contoso.azurecr.io/shop/api:__TAG__
        name: api
      - image: '#{Registry}#/logs:#{Build.BuildId}#'
        name: logs
      nodeSelector:
        kubernetes.io/os: windows
      os:
        name: windows
      tolerations:
      - effect: NoSchedule
        key: os
        value: windows
`;

  test('in Kustomize output, only what a registry slot leaves readable is judged (repository and tag)', () => {
    const found = lint(kustomizeRendered);
    // '#registry#/iis-windows:ltsc2019' is ltsc2019 whatever registry replaces the slot; '<your-registry>/agent:1.0'
    // names no build (advice); a token in the tag ('__TAG__', '#{Build.BuildId}#') leaves nothing to read.
    expect(
      found
        .filter((d) => d.ruleId.startsWith('image-') || d.path.endsWith('.image'))
        .map((d) => [d.ruleId, d.severity, d.message.match(/image '([^']+)'/)?.[1]]),
    ).toEqual([
      ['image-build-unpinned', 'warning', '#registry#/iis-windows:ltsc2019'],
      ['image-floating-tag', 'info', '<your-registry>/agent:1.0'],
    ]);
  });

  test('the same images with real references are judged', () => {
    const real = kustomizeRendered
      .replace("'#registry#/iis-windows:ltsc2019'", 'contoso.azurecr.io/iis-windows:ltsc2019')
      .replace('contoso.azurecr.io/shop/api:__TAG__', 'contoso.azurecr.io/shop/api:1.4.2');
    const found = lint(real);
    expect(found.filter((d) => d.ruleId === 'image-floating-tag').map((d) => d.path)).toEqual([
      'spec.template.spec.containers[1].image',
      'spec.template.spec.containers[2].image',
    ]);
    expect(found.filter((d) => d.ruleId === 'image-build-unpinned').map((d) => d.severity)).toEqual(['warning']);
  });

  test('in a plain manifest of a pod that says nothing of its OS, a Windows image behind a registry slot is read', () => {
    // As the same image from a real registry: the repository name is weaker evidence than a Windows tag.
    for (const [image, severity] of [
      ['#registry#/iis-windows-ltsc2019:1.0', 'warning'],
      ['<acr>.azurecr.io/iis:windowsservercore-ltsc2019', 'error'],
    ]) {
      const found = lint(pod(image!)).filter((d) => d.ruleId === 'windows-node-selector-missing');
      expect([image, found.map((d) => d.severity)]).toEqual([image, [severity]]);
      const real = lint(pod(image!.replace(/^[^/]+/, 'contoso.azurecr.io'))).map((d) => [d.ruleId, d.severity]);
      expect(lint(pod(image!)).map((d) => [d.ruleId, d.severity])).toEqual(real);
    }
  });

  test('a placeholder beyond the registry is still not read', () => {
    for (const image of ['<acr>/iis-windows-ltsc2019:__TAG__', '{{ .Values.image }}', '<acr>/<iis-ltsc2019>:1.0']) {
      expect([image, lint(pod(image))]).toEqual([image, []]);
    }
  });

  test('with --resolve-images, no registry is asked about them', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'k8s-windows-placeholders-'));
    try {
      const lookups = await resolveImageReferences(
        ['#registry#/web:1.0', '<your-registry>/agent:1.0', 'contoso.azurecr.io/shop/api:__TAG__', 'nginx:1.25'],
        { offline: true, imageCache: cache },
      );
      // Offline, the real reference is answered from the (empty) cache; the placeholders are not looked up at all.
      expect(Object.keys(lookups)).toEqual(['nginx:1.25']);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
