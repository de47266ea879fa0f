/**
 * fixManifests on random manifest sets: the output has no fixable finding left, passes the API server's Windows
 * rules, is unchanged by a second fix, and leaves Linux-only objects byte-identical unless pinLinux is given.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { fixManifests, GKE_WINDOWS_TAINT, WINDOWS_TAINT, type FixOptions, type Taint } from 'k8s-windows';
import { FIXERS } from '../../../lib/core/fix/fixers';

const WINDOWS_IMAGES = [
  'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019',
  'mcr.microsoft.com/windows/nanoserver:ltsc2022',
];
const LINUX_IMAGES = ['nginx:1.27', 'redis:7', 'registry.k8s.io/pause:3.10'];

/** The API server's rules for Windows pods (what admission would reject). */
const API_SERVER_RULES = [
  'windows-forbidden-field',
  'windows-os-name',
  'windows-options-on-linux-pod',
  'hostprocess-mismatch',
  'hostprocess-all-or-none',
  'hostprocess-host-network',
];

const podSecurityFields = fc.subarray([
  ['runAsUser', 1000],
  ['runAsGroup', 3000],
  ['fsGroup', 2000],
  ['seccompProfile', { type: 'RuntimeDefault' }],
  ['supplementalGroups', [4000]],
] as const);
const containerSecurityFields = fc.subarray([
  ['privileged', false],
  ['allowPrivilegeEscalation', false],
  ['readOnlyRootFilesystem', true],
  ['capabilities', { drop: ['ALL'] }],
  ['runAsUser', 1000],
  ['seccompProfile', { type: 'RuntimeDefault' }],
] as const);

const windowsPod = fc.record({
  evidence: fc.constantFrom('os', 'selector', 'affinity', 'images'),
  hostProcess: fc.boolean(),
  hostNetwork: fc.boolean(),
  hostPort: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  podSecurity: podSecurityFields,
  containerSecurity: containerSecurityFields,
  hostPID: fc.boolean(),
  shareProcessNamespace: fc.boolean(),
  image: fc.constantFrom(...WINDOWS_IMAGES),
  tolerateOs: fc.boolean(),
});

const linuxPod = fc.record({
  pinned: fc.boolean(),
  image: fc.constantFrom(...LINUX_IMAGES),
  podSecurity: podSecurityFields,
  containerSecurity: containerSecurityFields,
});

type WindowsPod = typeof windowsPod extends fc.Arbitrary<infer T> ? T : never;
type LinuxPod = typeof linuxPod extends fc.Arbitrary<infer T> ? T : never;

function windowsSpec(p: WindowsPod): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (p.evidence === 'os') spec.os = { name: 'windows' };
  if (p.evidence === 'selector') spec.nodeSelector = { 'kubernetes.io/os': 'windows' };
  if (p.evidence === 'affinity') {
    spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
        },
      },
    };
  }
  const sc: Record<string, unknown> = Object.fromEntries(p.podSecurity);
  if (p.hostProcess) {
    sc.windowsOptions = { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' };
    if (p.hostNetwork) spec.hostNetwork = true;
  }
  if (Object.keys(sc).length > 0) spec.securityContext = sc;
  if (p.hostPID) spec.hostPID = true;
  if (p.shareProcessNamespace) spec.shareProcessNamespace = false;
  const container: Record<string, unknown> = { name: 'app', image: p.image };
  if (p.containerSecurity.length > 0) container.securityContext = Object.fromEntries(p.containerSecurity);
  // Host ports only where Windows has them: HostProcess pods.
  if (p.hostProcess && p.hostPort !== undefined) container.ports = [{ containerPort: 8080, hostPort: p.hostPort }];
  spec.containers = [container];
  if (p.tolerateOs) spec.tolerations = [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }];
  return spec;
}

function linuxSpec(p: LinuxPod): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (p.pinned) spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  if (p.podSecurity.length > 0) spec.securityContext = Object.fromEntries(p.podSecurity);
  const container: Record<string, unknown> = { name: 'app', image: p.image };
  if (p.containerSecurity.length > 0) container.securityContext = Object.fromEntries(p.containerSecurity);
  spec.containers = [container];
  return spec;
}

const object = fc.oneof(
  fc.record({ os: fc.constant('windows' as const), pod: windowsPod }),
  fc.record({ os: fc.constant('linux' as const), pod: linuxPod }),
  fc.record({ os: fc.constant('none' as const), pod: fc.constant(undefined) }),
);

const options = fc.record({
  cloud: fc.option(fc.constantFrom('eks' as const, 'aks' as const, 'gke' as const), { nil: undefined }),
  tolerations: fc.subarray([
    WINDOWS_TAINT,
    GKE_WINDOWS_TAINT,
    { key: 'pool', value: 'win', effect: 'NoExecute' } as Taint,
  ]),
  windowsRelease: fc.option(fc.constantFrom('2019' as const, '2022' as const), { nil: undefined }),
  pinLinux: fc.boolean(),
});

const set = fc.record({
  objects: fc.array(object, { minLength: 1, maxLength: 4 }),
  indentSeq: fc.boolean(),
  flow: fc.boolean(),
});

function render(s: { objects: { os: string; pod: unknown }[]; indentSeq: boolean; flow: boolean }) {
  return s.objects.map((o, i) => {
    const obj =
      o.os === 'none'
        ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { key: 'value' } }
        : {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: `${o.os}-${i}`, labels: { app: `app-${i}` } },
            spec: {
              template: {
                metadata: { labels: { app: `app-${i}` } },
                spec: o.os === 'windows' ? windowsSpec(o.pod as WindowsPod) : linuxSpec(o.pod as LinuxPod),
              },
            },
          };
    const text = `# object ${i}\n${stringify(obj, { indentSeq: s.indentSeq, ...(s.flow ? { collectionStyle: 'flow' as const } : {}) })}`;
    return { os: o.os, text };
  });
}

describe('fixManifests on random manifest sets', () => {
  it('fixes every fixable finding, passes the API server, is idempotent and leaves Linux objects alone', () => {
    fc.assert(
      fc.property(set, options, (s, opts: FixOptions) => {
        const docs = render(s);
        const text = docs.map((d) => d.text).join('---\n');
        const result = fixManifests(text, opts);

        // A second fix changes nothing.
        const again = fixManifests(result.text, opts);
        expect(again.changes).toEqual([]);
        expect(again.text).toBe(result.text);

        // The API server would admit every pod.
        expect(result.diagnostics.filter((d) => API_SERVER_RULES.includes(d.ruleId))).toEqual([]);
        expect(result.diagnostics.filter((d) => d.ruleId === 'windows-host-port')).toEqual([]);

        // No finding is left that a fixer settles with these options.
        const taints = [...(opts.cloud === 'gke' ? [GKE_WINDOWS_TAINT] : []), ...(opts.tolerations ?? [])];
        const osTolerated = taints.some((t) => t.key === WINDOWS_TAINT.key || t.key === GKE_WINDOWS_TAINT.key);
        const left = result.diagnostics.filter(
          (d) =>
            FIXERS.has(d.ruleId) &&
            !(d.ruleId === 'windows-toleration-missing' && !osTolerated) &&
            !(d.ruleId === 'linux-node-selector-missing' && opts.pinLinux !== true),
        );
        expect(left).toEqual([]);

        // Linux-only objects come out byte-identical unless pinLinux pins them.
        for (const d of docs) {
          if (d.os === 'none' || (d.os === 'linux' && opts.pinLinux !== true)) expect(result.text).toContain(d.text);
        }
      }),
      { numRuns: 150 },
    );
  });
});
