/**
 * Property tests against a small model of what the API server and the scheduler do with Windows pods: the
 * findings that name a rejection or an unschedulable pod must agree with the model for every combination.
 */
import fc from 'fast-check';
import { validateManifests, type Diagnostic } from 'k8s-windows';
import { container, hostProcessSpec, pod, windowsSpec } from './fixtures';

const has = (ds: Diagnostic[], id: string, severity?: string): boolean =>
  ds.some((d) => d.ruleId === id && (severity === undefined || d.severity === severity));

const port = fc.integer({ min: 1, max: 65535 });

test('HostProcess ports: an error exactly when hostPort is set and differs from containerPort', () => {
  fc.assert(
    fc.property(port, fc.option(port, { nil: undefined }), (containerPort, hostPort) => {
      const p = pod(
        hostProcessSpec({
          containers: [container({ image: 'registry.k8s.io/pause:3.10', ports: [{ containerPort, hostPort }] })],
        }),
      );
      const rejected = hostPort !== undefined && hostPort !== containerPort;
      expect(has(validateManifests([p]), 'windows-host-port', 'error')).toBe(rejected);
    }),
  );
});

const OS = fc.constantFrom('linux', 'windows');
const OPERATOR = fc.constantFrom('In', 'NotIn');
const TERM = fc.record({ operator: OPERATOR, values: fc.subarray(['linux', 'windows'], { minLength: 1 }) });

/** The OS values one term allows, as the scheduler reads `In` and `NotIn`. */
function allows(term: { operator: string; values: string[] }, os: string): boolean {
  return term.operator === 'In' ? term.values.includes(os) : !term.values.includes(os);
}

test('required node affinity: a Windows pod is unschedulable exactly when no term admits a Windows node', () => {
  fc.assert(
    fc.property(fc.array(TERM, { minLength: 1, maxLength: 3 }), OS, (terms, selectorOs) => {
      const affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: terms.map((t) => ({ matchExpressions: [{ key: 'kubernetes.io/os', ...t }] })),
          },
        },
      };
      const p = pod(
        windowsSpec({
          affinity,
          nodeSelector: { 'kubernetes.io/os': selectorOs, 'node.kubernetes.io/windows-build': '10.0.20348' },
        }),
      );
      const schedulable = selectorOs === 'windows' && terms.some((t) => allows(t, 'windows'));
      expect(has(validateManifests([p]), 'windows-node-selector-missing', 'error')).toBe(!schedulable);
    }),
  );
});

const RELEASE = fc.constantFrom('2019', '2022', '2025');
const BUILD = { '2019': '10.0.17763', '2022': '10.0.20348', '2025': '10.0.26100' } as const;

test('image builds: process isolation runs the host build (and ltsc2022 on 2025 hosts); an unknown RuntimeClass is judged only by what fails under both', () => {
  fc.assert(
    fc.property(RELEASE, RELEASE, fc.constantFrom('process', 'hyperv', 'unknown'), (image, host, isolation) => {
      const handler = isolation === 'hyperv' ? 'runhcs-wcow-hypervisor' : 'runhcs-wcow-process';
      const rc = {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'windows' },
        handler,
        scheduling: {
          nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': BUILD[host] },
        },
      };
      const p = pod(
        windowsSpec({
          runtimeClassName: 'windows',
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          containers: [container({ image: `mcr.microsoft.com/windows/nanoserver:ltsc${image}` })],
        }),
      );
      const objects = isolation === 'unknown' ? [p] : [rc, p];
      const ds = validateManifests(objects, isolation === 'unknown' ? { windowsRelease: host } : {});
      const fails =
        isolation === 'process'
          ? // The stable-ABI rule (containerd's checkWindowsHostAndContainerCompat): from 2022 on, a host also runs
            // the previous LTSC's images; below 2022 only its own build.
            !(image === host || (host === '2025' && image === '2022'))
          : Number(BUILD[image].split('.')[2]) > Number(BUILD[host].split('.')[2]);
      expect(has(ds, 'image-build-mismatch', 'error')).toBe(fails);
    }),
  );
});
