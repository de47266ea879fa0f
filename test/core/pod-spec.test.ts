import fc from 'fast-check';
import { WindowsValidationError, toWindowsPodSpec, windowsNodeTarget, type WindowsWarning } from 'k8s-windows';
import type { PodSpec } from '../../lib/core/kube';
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
} from '../../lib/core/windows-fields';
import { propertyParameters } from '../helpers/property';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

function issuesOf(fn: () => unknown): { path: string; message: string; fix?: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof WindowsValidationError) return [...e.issues];
    throw e;
  }
  throw new Error('expected a WindowsValidationError');
}

describe('toWindowsPodSpec', () => {
  test('sets os, scheduling for the default 2022 target, and container defaults', () => {
    const out = toWindowsPodSpec({
      containers: [
        {
          name: 'web',
          image: IIS,
          resources: { limits: { memory: '2Gi', cpu: '1' } },
          livenessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 20, timeoutSeconds: 5 },
        },
      ],
    });
    expect(out.os).toEqual({ name: 'windows' });
    expect(out.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(out.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    const c = out.containers[0];
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.resources).toEqual({ limits: { memory: '2Gi', cpu: '1' }, requests: { memory: '2Gi' } });
    expect(c.startupProbe).toEqual({
      httpGet: { path: '/', port: 80 },
      timeoutSeconds: 5,
      periodSeconds: 10,
      failureThreshold: 30,
    });
    expect(out.securityContext).toBeUndefined();
  });

  test('never mutates its input', () => {
    const input: PodSpec = {
      containers: [{ name: 'a', image: IIS, securityContext: { privileged: false } }],
      hostPID: false,
    };
    const copy = structuredClone(input);
    toWindowsPodSpec(input);
    expect(input).toEqual(copy);
  });

  test('merges user scheduling and keeps existing tolerations once', () => {
    const out = toWindowsPodSpec(
      {
        containers: [{ name: 'a', image: IIS }],
        nodeSelector: { pool: 'web' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      },
      { target: windowsNodeTarget({ release: '2022', runtimeClassName: 'windows-2022' }) },
    );
    expect(out.nodeSelector).toEqual({
      pool: 'web',
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(out.tolerations).toHaveLength(1);
    expect(out.runtimeClassName).toBe('windows-2022');
  });

  test('drops inert and framework-default values of forbidden fields', () => {
    const out = toWindowsPodSpec(
      {
        hostPID: false,
        hostIPC: false,
        shareProcessNamespace: false,
        hostUsers: true,
        hostNetwork: false,
        securityContext: { fsGroupChangePolicy: 'Always', sysctls: [], runAsNonRoot: false },
        containers: [
          {
            name: 'a',
            image: IIS,
            securityContext: {
              privileged: false,
              readOnlyRootFilesystem: false,
              allowPrivilegeEscalation: false,
              runAsUser: 25000,
            },
          },
        ],
      },
      {
        frameworkDefaults: {
          podSecurityContext: { fsGroupChangePolicy: 'Always' },
          containerSecurityContext: { runAsUser: 25000 },
        },
      },
    );
    expect(out).not.toHaveProperty('hostPID');
    expect(out).not.toHaveProperty('hostIPC');
    expect(out).not.toHaveProperty('shareProcessNamespace');
    expect(out).not.toHaveProperty('hostUsers');
    expect(out).not.toHaveProperty('hostNetwork');
    expect(out.securityContext).toEqual({ runAsNonRoot: false });
    expect(out.containers[0]).not.toHaveProperty('securityContext');
  });

  test('throws every forbidden field set on purpose, with its path and fix', () => {
    const issues = issuesOf(() =>
      toWindowsPodSpec(
        {
          hostPID: true,
          shareProcessNamespace: true,
          resources: { limits: { cpu: '1' } },
          securityContext: { runAsUser: 1000, sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
          initContainers: [{ name: 'init', image: IIS, securityContext: { capabilities: { add: ['NET_ADMIN'] } } }],
          containers: [{ name: 'a', image: IIS, securityContext: { privileged: true, readOnlyRootFilesystem: true } }],
        } as PodSpec,
        { pathPrefix: 'spec.template.spec' },
      ),
    );
    expect(issues.map((i) => i.path)).toEqual([
      // windows-forbidden-field's order, as lint reports them; pod-level resources under its id too.
      'spec.template.spec.securityContext.runAsUser',
      'spec.template.spec.securityContext.sysctls',
      'spec.template.spec.hostPID',
      'spec.template.spec.shareProcessNamespace',
      'spec.template.spec.initContainers[0].securityContext.capabilities',
      'spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem',
      'spec.template.spec.containers[0].securityContext.privileged',
      'spec.template.spec.resources',
    ]);
    expect(new Set(issues.map((i) => (i as { ruleId?: string }).ruleId))).toEqual(new Set(['windows-forbidden-field']));
    expect(issues.find((i) => i.path.endsWith('securityContext.runAsUser'))?.fix).toContain('runAsUserName');
  });

  test('identity: runAsUserName, gMSA, restricted profile', () => {
    const out = toWindowsPodSpec(
      { containers: [{ name: 'a', image: IIS }] },
      { gmsaCredentialSpecName: 'webapp1', securityProfile: 'restricted' },
    );
    expect(out.securityContext).toEqual({
      runAsNonRoot: true,
      windowsOptions: { gmsaCredentialSpecName: 'webapp1', runAsUserName: 'ContainerUser' },
    });
    expect(out.initContainers).toBeUndefined();
    const issues = issuesOf(() =>
      toWindowsPodSpec(
        { containers: [{ name: 'a', image: IIS }] },
        { runAsUserName: 'a\\b\\c', gmsaCredentialSpecName: 'Bad_Name' },
      ),
    );
    expect(issues.map((i) => i.path)).toEqual(['runAsUserName', 'gmsa']);
  });

  test('HostProcess: hostNetwork, allowed user, no restricted profile', () => {
    const out = toWindowsPodSpec(
      { containers: [{ name: 'exporter', image: 'ghcr.io/prometheus-community/windows-exporter:0.29.2' }] },
      {
        hostProcess: true,
        runAsUserName: 'NT AUTHORITY\\SYSTEM',
      },
    );
    expect(out.hostNetwork).toBe(true);
    expect(out.securityContext?.windowsOptions).toEqual({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
    const issues = issuesOf(() =>
      toWindowsPodSpec(
        { containers: [{ name: 'a', image: IIS, securityContext: { windowsOptions: { hostProcess: false } } }] },
        {
          hostProcess: true,
          runAsUserName: 'ContainerUser',
          securityProfile: 'restricted',
        },
      ),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'runAsUserName',
      'securityProfile',
      'spec.containers[0].securityContext.windowsOptions.hostProcess',
    ]);
  });

  test('hostNetwork without HostProcess is kept and warned about (windows-host-network, a warning in lint)', () => {
    const warnings: WindowsWarning[] = [];
    const out = toWindowsPodSpec(
      { hostNetwork: true, containers: [{ name: 'a', image: IIS }] },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(out.hostNetwork).toBe(true);
    expect(warnings.map((w) => [w.ruleId, w.path])).toEqual([['windows-host-network', 'spec.hostNetwork']]);
  });

  test('contradicting scheduling and OS are refused', () => {
    const issues = issuesOf(() =>
      toWindowsPodSpec({
        os: { name: 'linux' },
        nodeSelector: { 'kubernetes.io/os': 'linux', 'node.kubernetes.io/windows-build': '10.0.17763' },
        containers: [{ name: 'a', image: IIS }],
      }),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'spec.os.name',
      'spec.nodeSelector["kubernetes.io/os"]',
      'spec.nodeSelector["node.kubernetes.io/windows-build"]',
    ]);
  });

  test('image build checked against the target; floating tags warn', () => {
    const issues = issuesOf(() =>
      toWindowsPodSpec({
        containers: [{ name: 'a', image: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019' }],
      }),
    );
    expect(issues[0]).toMatchObject({ path: 'spec.containers[0].image', fix: expect.stringContaining('ltsc2022') });
    expect(() =>
      toWindowsPodSpec(
        {
          containers: [
            { name: 'a', image: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019' },
          ],
        },
        {
          target: windowsNodeTarget({ release: '2022', isolation: 'hyperv', runtimeClassName: 'windows-2022-hyperv' }),
        },
      ),
    ).not.toThrow();
    const warnings: WindowsWarning[] = [];
    toWindowsPodSpec(
      { containers: [{ name: 'a', image: 'contoso.azurecr.io/shop/api:4.8' }] },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(warnings).toEqual([
      expect.objectContaining({ ruleId: 'image-floating-tag', path: 'spec.containers[0].image' }),
    ]);
    // Multi-arch manifest lists of known publishers resolve per node build: nothing to warn about.
    const quiet: WindowsWarning[] = [];
    toWindowsPodSpec(
      { containers: [{ name: 'a', image: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8' }] },
      { onWarning: (w) => quiet.push(w) },
    );
    expect(quiet).toEqual([]);
  });

  test('bad release and isolation are reported', () => {
    expect(
      issuesOf(() => toWindowsPodSpec({ containers: [] }, { release: '1909' as never })).map((i) => i.path),
    ).toEqual(['release']);
    expect(
      issuesOf(() => toWindowsPodSpec({ containers: [] }, { isolation: 'vm' as never })).map((i) => i.path),
    ).toEqual(['isolation']);
  });
});

describe('property: output never carries a forbidden field', () => {
  const inert = fc.constantFrom(false, undefined, [], {});
  const anyValue = fc.oneof(inert, fc.boolean(), fc.integer(), fc.string(), fc.constant({ type: 'RuntimeDefault' }));
  const securityContext = (fields: readonly string[]) =>
    fc.dictionary(fc.constantFrom(...fields, 'runAsNonRoot', 'windowsOptions'), anyValue, { maxKeys: 6 });
  const container = fc.record({
    name: fc.constantFrom('a', 'b'),
    image: fc.constantFrom(
      IIS,
      'mcr.microsoft.com/windows/nanoserver:ltsc2022',
      'mcr.microsoft.com/dotnet/framework/aspnet:4.8',
    ),
    securityContext: fc.option(securityContext(FORBIDDEN_CONTAINER_SECURITY_FIELDS), { nil: undefined }),
  });
  const podSpec = fc.record(
    {
      containers: fc.array(container, { maxLength: 3 }),
      initContainers: fc.array(container, { maxLength: 2 }),
      securityContext: securityContext([...FORBIDDEN_POD_SECURITY_FIELDS, 'sysctls']),
      hostPID: anyValue,
      hostIPC: anyValue,
      hostUsers: anyValue,
      shareProcessNamespace: anyValue,
    },
    { requiredKeys: ['containers'] },
  );

  test('either throws WindowsValidationError or returns a clean Windows pod', () => {
    fc.assert(
      fc.property(podSpec, fc.boolean(), (spec, hostProcess) => {
        let out: PodSpec;
        try {
          out = toWindowsPodSpec(spec as unknown as PodSpec, {
            hostProcess,
            runAsUserName: hostProcess ? 'NT AUTHORITY\\SYSTEM' : undefined,
          });
        } catch (e) {
          expect(e).toBeInstanceOf(WindowsValidationError);
          return;
        }
        expect(out.os?.name).toBe('windows');
        const pod = out as unknown as Record<string, unknown>;
        for (const [field, when] of Object.entries(FORBIDDEN_POD_FIELDS)) {
          if (when === 'any') expect(pod[field]).toBeUndefined();
          else expect(pod[field]).not.toBe(true);
        }
        expect(pod.resources).toBeUndefined();
        const psc = (out.securityContext ?? {}) as Record<string, unknown>;
        for (const f of FORBIDDEN_POD_SECURITY_FIELDS) expect(psc[f]).toBeUndefined();
        expect(psc.sysctls ?? []).toEqual([]);
        for (const c of [...out.containers, ...(out.initContainers ?? [])]) {
          const sc = (c.securityContext ?? {}) as Record<string, unknown>;
          for (const f of FORBIDDEN_CONTAINER_SECURITY_FIELDS) expect(sc[f]).toBeUndefined();
        }
      }),
      propertyParameters(300),
    );
  });
});
