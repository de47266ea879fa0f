/**
 * The classes of wrong and missed findings seen on public manifests (issue: real-world precision), each with a
 * fixture shaped like the real manifest it came from.
 */
import { validateManifests, type Diagnostic, type ValidateOptions } from 'k8s-windows';
import { loadManifestsWithErrors } from '../../../lib/core/yaml';
import { stringify } from 'yaml';
import { container, credspec, gmsaRbac, hostProcessSpec, linuxPod, pod, runtimeClass, windowsSpec } from './fixtures';

const rule = (ds: Diagnostic[], id: string): Diagnostic[] => ds.filter((d) => d.ruleId === id);
const loud = (ds: Diagnostic[]): string[] => ds.filter((d) => d.severity !== 'info').map((d) => d.ruleId);

/** Objects as a directory run loads them: each file under its own source name. */
function files(byName: Record<string, unknown[]>, options?: ValidateOptions): Diagnostic[] {
  const objects: unknown[] = [];
  for (const [name, docs] of Object.entries(byName)) {
    const text = docs.map((d) => stringify(d)).join('---\n');
    objects.push(...loadManifestsWithErrors(text, name).objects);
  }
  return validateManifests(objects, options);
}

/** Like csi-driver-smb's and the Kubernetes website's Windows examples: OS selector, no build pin. */
const unpinned = (image: string, extra: Record<string, unknown> = {}) =>
  pod(windowsSpec({ nodeSelector: { 'kubernetes.io/os': 'windows' }, containers: [container({ image })], ...extra }));

describe('multi-arch manifest lists are not floating tags', () => {
  test.each([
    'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0',
    'k8s.gcr.io/sig-storage/livenessprobe:v2.5.0',
    'mcr.microsoft.com/oss/kubernetes-csi/azurefile-csi:v1.31.2',
    'mcr.microsoft.com/dotnet/framework/samples:aspnetapp',
  ])('%s', (image) => {
    const ds = validateManifests([pod(windowsSpec({ containers: [container({ image })] }))]);
    expect(rule(ds, 'image-floating-tag')).toEqual([]);
  });

  test('an unknown build-less tag is info, and its message does not claim it floats', () => {
    const [d] = rule(
      validateManifests([pod(windowsSpec({ containers: [container({ image: 'contoso.io/app:2.1' })] }))]),
      'image-floating-tag',
    );
    expect(d.severity).toBe('info');
    expect(d.message).not.toMatch(/floats?\b/);
    expect(d.message).toContain('manifest list');
  });
});

describe('single-build images in pods that pin no build', () => {
  test.each([
    'mcr.microsoft.com/windows/servercore:ltsc2019',
    'registry.k8s.io/e2e-test-images/agnhost:2.47-windows-1809-amd64',
    'mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022',
    'fluent/fluent-bit:3.1.4-windows-2022',
  ])('%s is a warning without --windows-release', (image) => {
    const [d] = rule(validateManifests([unpinned(image)]), 'image-build-unpinned');
    expect(d).toMatchObject({ severity: 'warning', path: 'spec.nodeSelector' });
  });

  test('a build pin by nodeSelector, affinity, RuntimeClass or AKS os-sku settles it', () => {
    const image = 'mcr.microsoft.com/windows/servercore:ltsc2022';
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'node.kubernetes.io/windows-build', operator: 'In', values: ['10.0.20348'] }] },
          ],
        },
      },
    };
    const pinned = [
      unpinned(image, {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      }),
      unpinned(image, { affinity }),
      unpinned(image, { nodeSelector: { 'kubernetes.azure.com/os-sku': 'Windows2022' } }),
    ];
    for (const p of pinned) expect(loud(validateManifests([p]))).toEqual([]);
    const rc = runtimeClass('windows-2022', 'runhcs-wcow-process', '10.0.20348');
    expect(loud(validateManifests([rc, unpinned(image, { runtimeClassName: 'windows-2022' })]))).toEqual([]);
  });

  test('an AKS os-sku of another release is a build mismatch', () => {
    const p = unpinned('mcr.microsoft.com/windows/servercore:ltsc2022', {
      nodeSelector: { 'kubernetes.azure.com/os-sku': 'Windows2019' },
    });
    expect(rule(validateManifests([p]), 'image-build-mismatch')).toMatchObject([{ severity: 'error' }]);
  });

  test('a pool label (agentpool) may pin one release: not reported', () => {
    const p = unpinned('mcr.microsoft.com/windows/servercore:ltsc2019', {
      nodeSelector: { 'kubernetes.io/os': 'windows', agentpool: 'win19' },
    });
    expect(rule(validateManifests([p]), 'image-build-unpinned')).toEqual([]);
  });
});

describe('retired releases and legacy repositories', () => {
  test.each([
    ['microsoft/iis:windowsservercore-1709', 'image-sac'],
    ['microsoft/windowsservercore:1803', 'image-sac'],
    ['microsoft/iis:windowsservercore-ltsc2016', 'image-sac'],
    ['microsoft/windowsservercore', 'image-legacy-repository'],
    ['microsoft/aspnet:4.7.2', 'image-legacy-repository'],
  ])('%s is a Windows image (%s) even with no selector', (image, id) => {
    const ds = validateManifests([pod({ containers: [container({ image })] })]);
    expect(rule(ds, id)).toHaveLength(1);
    expect(rule(ds, 'windows-node-selector-missing')).toMatchObject([{ severity: 'error' }]);
  });

  test.each(['10.0.14393', '10.0.16299', '10.0.17134', '10.0.18362', '10.0.18363', '10.0.19041', '10.0.19042'])(
    'a RuntimeClass and a pod pinned to %s are errors: no node carries that build',
    (build) => {
      const rc = runtimeClass('windows-old', 'runhcs-wcow-process', build);
      expect(rule(validateManifests([rc]), 'windows-build-retired')).toMatchObject([{ severity: 'error' }]);
      const p = pod(
        windowsSpec({ nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': build } }),
      );
      expect(rule(validateManifests([p]), 'windows-build-retired')).toHaveLength(1);
    },
  );
});

describe('scheduling', () => {
  test('beta.kubernetes.io/os: windows schedules: no error, an info hint', () => {
    const p = pod(
      windowsSpec({
        nodeSelector: { 'beta.kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      }),
    );
    const ds = validateManifests([p]);
    expect(rule(ds, 'windows-node-selector-missing')).toEqual([]);
    expect(rule(ds, 'windows-beta-os-label')).toMatchObject([{ severity: 'info' }]);
  });

  test('the beta label counts as OS evidence too', () => {
    const p = pod({
      nodeSelector: { 'beta.kubernetes.io/os': 'windows' },
      containers: [container({ image: 'contoso.io/app:1' })],
    });
    expect(rule(validateManifests([p]), 'windows-os-unset')).toHaveLength(1);
  });

  test('affinity-only advice is info on kubeadm-style manifests, a warning with --cloud eks', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
        },
      },
    };
    const p = pod(hostProcessSpec({ nodeSelector: undefined, affinity }));
    expect(rule(validateManifests([p]), 'windows-node-selector-affinity-only')).toMatchObject([{ severity: 'info' }]);
    expect(rule(validateManifests([p], { cloud: 'eks' }), 'windows-node-selector-affinity-only')).toMatchObject([
      { severity: 'warning' },
    ]);
  });

  test('a Windows pod whose required affinity allows only Linux is an error', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }],
        },
      },
    };
    const p = pod(windowsSpec({ affinity }));
    expect(rule(validateManifests([p]), 'windows-node-selector-missing')).toMatchObject([
      { severity: 'error', path: 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution' },
    ]);
  });

  test('blanket advice is info: os unset, no toleration, memory request != limit, no startup probe', () => {
    const p = pod({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      containers: [
        container({
          image: 'mcr.microsoft.com/windows/servercore:ltsc2022',
          securityContext: { runAsUser: 1000 },
          resources: { requests: { memory: '1Gi' }, limits: { memory: '2Gi' } },
          volumeMounts: [{ name: 'logs', mountPath: '/var/log' }],
        }),
      ],
    });
    expect(loud(validateManifests([p]))).toEqual([]);
  });

  test('advice becomes a warning with a concrete consequence', () => {
    const p = pod(windowsSpec({ os: undefined, tolerations: undefined }), { namespace: 'apps' });
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'apps', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
    };
    expect(rule(validateManifests([ns, p]), 'windows-os-unset')).toMatchObject([{ severity: 'warning' }]);
    expect(rule(validateManifests([p], { cloud: 'gke' }), 'windows-toleration-missing')).toMatchObject([
      { severity: 'warning' },
    ]);
    const probe = pod(
      windowsSpec({
        containers: [
          container({
            image: 'mcr.microsoft.com/windows/servercore:ltsc2022',
            livenessProbe: { httpGet: { port: 80 } },
          }),
        ],
      }),
    );
    expect(rule(validateManifests([probe]), 'windows-startup-probe')).toMatchObject([{ severity: 'warning' }]);
  });

  test('the dockershim isolation annotation is a dead setting', () => {
    const p = pod(windowsSpec(), { annotations: { 'experimental.windows.kubernetes.io/isolation-type': 'hyperv' } });
    expect(rule(validateManifests([p]), 'windows-isolation-annotation')).toMatchObject([
      { severity: 'warning', path: 'metadata.annotations[experimental.windows.kubernetes.io/isolation-type]' },
    ]);
  });
});

describe('directory runs: unrelated files do not interact', () => {
  test('a legacy IIS pod in one file is Windows, never told to pin itself to Linux', () => {
    const iis = pod({ containers: [container({ image: 'microsoft/iis' })] });
    const ds = files({ 'iis.yaml': [iis], 'agent.yaml': [pod(hostProcessSpec())] });
    expect(rule(ds, 'linux-node-selector-missing')).toEqual([]);
  });

  test('a Linux pod with a Windows sign is never told to pin to Linux', () => {
    const hinted = linuxPod({
      nodeSelector: undefined,
      securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } },
    });
    expect(rule(validateManifests([pod(windowsSpec()), hinted]), 'linux-node-selector-missing')).toEqual([]);
  });

  test('Linux pods are pinned only beside Windows pods of the same file', () => {
    const linux = linuxPod({ nodeSelector: undefined });
    expect(rule(files({ 'a.yaml': [pod(windowsSpec())], 'b.yaml': [linux] }), 'linux-node-selector-missing')).toEqual(
      [],
    );
    expect(rule(files({ 'a.yaml': [pod(windowsSpec()), linux] }), 'linux-node-selector-missing')).toHaveLength(1);
    expect(
      rule(validateManifests([pod(windowsSpec()), linux], { crossObjectScope: 'set' }), 'linux-node-selector-missing'),
    ).toHaveLength(1);
  });

  test('credspecs and RBAC of other files neither raise not-found nor make a missing grant an error', () => {
    const gmsaPod = pod(windowsSpec({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'app-gmsa' } } }));
    const ds = files({
      'app.yaml': [gmsaPod],
      'other.yaml': [credspec('other-gmsa'), ...gmsaRbac('other-gmsa', 'other', 'sa')],
    });
    expect(rule(ds, 'gmsa-credspec-not-found')).toEqual([]);
    expect(rule(ds, 'gmsa-rbac-missing')).toMatchObject([{ severity: 'info' }]);
  });

  test("RBAC in the pod's own file that misses the grant is an error", () => {
    const gmsaPod = pod(windowsSpec({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'app-gmsa' } } }));
    const ds = files({ 'app.yaml': [gmsaPod, credspec('app-gmsa'), ...gmsaRbac('app-gmsa', 'default', 'other-sa')] });
    expect(rule(ds, 'gmsa-rbac-missing')).toMatchObject([{ severity: 'error' }]);
  });

  test('a grant in another file is found by name', () => {
    const gmsaPod = pod(windowsSpec({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'app-gmsa' } } }));
    const ds = files({ 'app.yaml': [gmsaPod], 'rbac.yaml': gmsaRbac('app-gmsa') });
    expect(rule(ds, 'gmsa-rbac-missing')).toEqual([]);
  });
});

describe('HostProcess host ports', () => {
  test('hostPort must equal containerPort (hostNetwork), as the API server requires', () => {
    const spec = (hostPort: number) =>
      hostProcessSpec({
        containers: [container({ image: 'registry.k8s.io/pause:3.10', ports: [{ containerPort: 9182, hostPort }] })],
      });
    expect(rule(validateManifests([pod(spec(9100))]), 'windows-host-port')).toMatchObject([{ severity: 'error' }]);
    expect(rule(validateManifests([pod(spec(9182))]), 'windows-host-port')).toEqual([]);
  });

  test('an ordinary Windows pod with hostNetwork: true is held to the same rule (issue 24)', () => {
    const p = (hostPort: number) =>
      pod(windowsSpec({ hostNetwork: true, containers: [container({ ports: [{ containerPort: 80, hostPort }] })] }));
    expect(rule(validateManifests([p(8080)]), 'windows-host-port')).toMatchObject([
      { severity: 'error', path: 'spec.containers[0].ports[0].hostPort' },
    ]);
    expect(rule(validateManifests([p(80)]), 'windows-host-port')).toEqual([]);
  });

  test('outside HostProcess a hostPort depends on the CNI: info, under its own id', () => {
    const p = pod(windowsSpec({ containers: [container({ ports: [{ containerPort: 80, hostPort: 4444 }] })] }));
    expect(rule(validateManifests([p]), 'windows-host-port-cni')).toMatchObject([{ severity: 'info' }]);
    expect(rule(validateManifests([p]), 'windows-host-port')).toEqual([]);
  });
});

describe('release support by cloud', () => {
  const p = pod(windowsSpec({ containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' })] }));
  const unpinned2025 = pod(
    windowsSpec({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
      containers: [container({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2025' })],
    }),
  );

  test("with --cloud the cloud's gates apply: AKS ends Windows Server 2022 after 1.36, EKS starts 2025 at 1.35", () => {
    expect(
      rule(validateManifests([p], { kubernetesVersion: '1.37', cloud: 'aks' }), 'windows-release-support'),
    ).toHaveLength(1);
    expect(
      rule(validateManifests([p], { kubernetesVersion: '1.36', cloud: 'aks' }), 'windows-release-support'),
    ).toEqual([]);
    const eks = rule(
      validateManifests([unpinned2025], { kubernetesVersion: '1.34', cloud: 'eks' }),
      'windows-release-support',
    );
    expect(eks).toMatchObject([{ severity: 'warning' }]);
    expect(eks[0].message).toContain('EKS');
    expect(
      rule(validateManifests([unpinned2025], { kubernetesVersion: '1.35', cloud: 'eks' }), 'windows-release-support'),
    ).toEqual([]);
    expect(
      rule(validateManifests([unpinned2025], { kubernetesVersion: '1.35', cloud: 'gke' }), 'windows-release-support'),
    ).toHaveLength(1);
  });
});
