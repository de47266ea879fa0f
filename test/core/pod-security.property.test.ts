/**
 * Pod Security levels as properties: arbitrary JSON never throws and its level agrees with its violations; pod-like
 * input gives known checks at their levels on unique paths under the workload's prefix; every workload kind gives a
 * pod spec the same level. The checks one by one are in pod-security.test.ts.
 */
import fc from 'fast-check';
import {
  POD_SECURITY_CHECKS,
  POD_SECURITY_LEVELS,
  podSecurityLevel,
  podSecurityViolations,
  type PodSecurityLevel,
  type PodSecurityViolation,
} from '../../lib/core/pod-security';
import { POD_SPEC_PATHS } from '../../lib/core/workloads';
import { propertyParameters } from '../helpers/property';

describe('properties', () => {
  const levelOf = (vs: readonly PodSecurityViolation[]): PodSecurityLevel =>
    vs.some((v) => v.level === 'baseline')
      ? 'privileged'
      : vs.some((v) => v.level === 'restricted')
        ? 'baseline'
        : 'restricted';
  const checkLevels = new Map(POD_SECURITY_CHECKS.map((c) => [c.id, c.level]));

  /** Values that matter to the checks, mixed with arbitrary JSON. */
  const value = fc.oneof(
    fc.constantFrom(true, false, 0, 1000, '', 'ALL', 'SYS_ADMIN', 'NET_BIND_SERVICE', 'Unconfined', 'RuntimeDefault'),
    fc.constantFrom('Localhost', 'Unmasked', 'Default', 'windows', 'spc_t', 'kernel.msgmax', null),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const securityContext = fc.dictionary(
    fc.constantFrom(
      'privileged',
      'allowPrivilegeEscalation',
      'runAsNonRoot',
      'runAsUser',
      'procMount',
      'capabilities',
      'seccompProfile',
      'seLinuxOptions',
      'appArmorProfile',
      'windowsOptions',
      'sysctls',
    ),
    fc.oneof(
      value,
      fc.record({ add: fc.array(value, { maxLength: 3 }), drop: fc.array(value, { maxLength: 3 }) }),
      fc.record({ type: value, user: value, role: value, hostProcess: value }),
      fc.array(fc.record({ name: value }), { maxLength: 3 }),
    ),
  );
  const container = fc.record(
    {
      name: value,
      securityContext,
      ports: fc.array(fc.record({ hostPort: value }), { maxLength: 2 }),
      livenessProbe: fc.record({ httpGet: fc.record({ host: value }), tcpSocket: fc.record({ host: value }) }),
      lifecycle: fc.record({ preStop: fc.record({ httpGet: fc.record({ host: value }) }) }),
    },
    { requiredKeys: [] },
  );
  const podSpec = fc.record(
    {
      hostNetwork: value,
      hostPID: value,
      hostIPC: value,
      hostUsers: value,
      os: fc.record({ name: value }),
      nodeSelector: fc.constant({ 'kubernetes.io/os': 'windows' }),
      securityContext,
      containers: fc.array(fc.oneof(container, value), { maxLength: 3 }),
      initContainers: fc.array(container, { maxLength: 2 }),
      ephemeralContainers: fc.oneof(fc.array(container, { maxLength: 1 }), value),
      volumes: fc.array(
        fc.oneof(
          fc.dictionary(fc.constantFrom('name', 'hostPath', 'nfs', 'emptyDir', 'secret', 'image'), value),
          value,
        ),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: [] },
  );
  const annotations = fc.dictionary(
    fc.constantFrom(
      'container.apparmor.security.beta.kubernetes.io/app',
      'seccomp.security.alpha.kubernetes.io/pod',
      'container.seccomp.security.alpha.kubernetes.io/app',
    ),
    value,
  );
  const kind = fc.constantFrom(...Object.keys(POD_SPEC_PATHS));
  const version = fc.oneof(
    fc.integer({ min: 0, max: 40 }).map((m) => `1.${m}`),
    fc.string(),
    fc.constant(undefined),
  );

  function wrap(k: string, spec: unknown, metadata: unknown): Record<string, unknown> {
    const segments = POD_SPEC_PATHS[k];
    const obj: Record<string, unknown> = { kind: k, metadata };
    let node = obj;
    for (const s of segments.slice(0, -1)) node = (node[s] = { metadata }) as Record<string, unknown>;
    node[segments[segments.length - 1]] = spec;
    return obj;
  }

  test('arbitrary JSON never throws, and the level agrees with the violations', () => {
    fc.assert(
      fc.property(kind, fc.jsonValue(), fc.jsonValue(), version, (k, spec, metadata, v) => {
        const obj = wrap(k, spec, metadata);
        const opts = v === undefined ? {} : { kubernetesVersion: v };
        const vs = podSecurityViolations(obj, opts);
        expect(podSecurityLevel(obj, opts)).toBe(levelOf(vs));
      }),
    );
    fc.assert(
      fc.property(fc.anything(), (obj) => {
        expect(POD_SECURITY_LEVELS).toContain(podSecurityLevel(obj));
      }),
    );
  });

  test('pod-like input: consistent level, known checks, unique paths under the workload prefix', () => {
    fc.assert(
      fc.property(kind, podSpec, annotations, version, (k, spec, annos, v) => {
        const obj = wrap(k, spec, { annotations: annos });
        const opts = v === undefined ? {} : { kubernetesVersion: v };
        const vs = podSecurityViolations(obj, opts);
        expect(podSecurityLevel(obj, opts)).toBe(levelOf(vs));
        const prefix = POD_SPEC_PATHS[k].slice(0, -1).join('.');
        const paths = vs.map((x) => x.path);
        expect(new Set(paths).size).toBe(paths.length);
        for (const x of vs) {
          expect(checkLevels.get(x.check)).toBe(x.level);
          expect(prefix === '' || x.path.startsWith(`${prefix}.`)).toBe(true);
          expect(x.message.length).toBeGreaterThan(0);
          expect(x.fix.length).toBeGreaterThan(0);
        }
      }),
      propertyParameters(500),
    );
  });

  test('every workload kind gives a pod spec the same level', () => {
    fc.assert(
      fc.property(podSpec, (spec) => {
        const levels = new Set(Object.keys(POD_SPEC_PATHS).map((k) => podSecurityLevel(wrap(k, spec, {}))));
        expect(levels.size).toBe(1);
      }),
      propertyParameters(200),
    );
  });
});
