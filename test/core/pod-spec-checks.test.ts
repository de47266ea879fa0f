/** `toWindowsPodSpec` refuses what the API server or a Windows node refuses, with every problem at once. */
import fc from 'fast-check';
import {
  WindowsValidationError,
  toWindowsPodSpec,
  validateManifests,
  windowsNodeTarget,
  type ToWindowsPodSpecOptions,
  type WindowsWarning,
} from 'k8s-windows';
import type { PodSpec } from '../../lib/core/kube';

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
const paths = (fn: () => unknown): string[] => issuesOf(fn).map((i) => i.path);

describe('windowsOptions formats', () => {
  test.each([
    ['*', 'runAsUserName'],
    ['Contain\u0007erUser', 'runAsUserName'],
  ])('a pod-level runAsUserName %j in the spec is refused', (user, field) => {
    const spec: PodSpec = {
      containers: [{ name: 'a', image: IIS }],
      securityContext: { windowsOptions: { runAsUserName: user } },
    };
    expect(paths(() => toWindowsPodSpec(spec))).toContain(`spec.securityContext.windowsOptions.${field}`);
  });

  test('an empty gmsaCredentialSpecName, pod or container level, is refused', () => {
    const spec: PodSpec = {
      containers: [{ name: 'a', image: IIS, securityContext: { windowsOptions: { gmsaCredentialSpecName: '' } } }],
      securityContext: { windowsOptions: { gmsaCredentialSpecName: '' } },
    };
    const issues = issuesOf(() => toWindowsPodSpec(spec));
    expect(issues.map((i) => i.path)).toEqual([
      'spec.securityContext.windowsOptions.gmsaCredentialSpecName',
      'spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName',
    ]);
    // gmsa-name-format's words, as lint gives them.
    expect(issues[0].message).toMatch(
      /Invalid value: gmsaCredentialSpecName '' must be a lowercase RFC 1123 subdomain/,
    );
  });

  test('an inline gmsaCredentialSpec must be non-empty and at most 64 KiB', () => {
    const withSpec = (s: string): PodSpec => ({
      containers: [{ name: 'a', image: IIS }],
      securityContext: { windowsOptions: { gmsaCredentialSpec: s } },
    });
    expect(paths(() => toWindowsPodSpec(withSpec('')))).toEqual([
      'spec.securityContext.windowsOptions.gmsaCredentialSpec',
    ]);
    expect(issuesOf(() => toWindowsPodSpec(withSpec('x'.repeat(64 * 1024 + 1))))[0].message).toMatch(/65537 bytes/);
    expect(
      toWindowsPodSpec(withSpec('x'.repeat(64 * 1024))).securityContext?.windowsOptions?.gmsaCredentialSpec,
    ).toHaveLength(65536);
  });

  test('a valid pod-level runAsUserName in the spec passes through', () => {
    const out = toWindowsPodSpec({
      containers: [{ name: 'a', image: IIS }],
      securityContext: { windowsOptions: { runAsUserName: 'CONTOSO\\svc-web' } },
    });
    expect(out.securityContext?.windowsOptions).toEqual({ runAsUserName: 'CONTOSO\\svc-web' });
  });

  test('an option that disagrees with the spec is refused instead of overwriting it silently', () => {
    const spec: PodSpec = {
      containers: [{ name: 'a', image: IIS }],
      securityContext: { windowsOptions: { runAsUserName: 'ContainerAdministrator' } },
    };
    expect(paths(() => toWindowsPodSpec(spec, { runAsUserName: 'ContainerUser' }))).toEqual([
      'spec.securityContext.windowsOptions.runAsUserName',
    ]);
  });

  test('a container-level runAsNonRoot on a HostProcess pod is refused', () => {
    const spec: PodSpec = { containers: [{ name: 'a', image: IIS, securityContext: { runAsNonRoot: true } }] };
    expect(paths(() => toWindowsPodSpec(spec, { hostProcess: true }))).toEqual([
      'spec.containers[0].securityContext.runAsNonRoot',
    ]);
    expect(toWindowsPodSpec(spec).containers[0].securityContext).toEqual({ runAsNonRoot: true });
  });
});

describe('pod features Windows lacks', () => {
  const featureful: PodSpec = {
    dnsPolicy: 'ClusterFirstWithHostNet',
    containers: [
      {
        name: 'a',
        image: IIS,
        ports: [{ containerPort: 80, hostPort: 8080 }],
        volumeMounts: [{ name: 'cache', mountPath: 'C:\\cache', mountPropagation: 'HostToContainer' }],
      },
    ],
    volumes: [{ name: 'cache', emptyDir: { medium: 'Memory' } }],
  };

  test('on a regular Windows pod, the errors of lint are refused and its advice is a warning with its rule id', () => {
    expect(paths(() => toWindowsPodSpec(featureful))).toEqual([
      'spec.volumes[0].emptyDir.medium',
      'spec.containers[0].volumeMounts[0].mountPropagation',
    ]);
    const warnings: WindowsWarning[] = [];
    const advised: PodSpec = {
      ...featureful,
      volumes: [],
      containers: [{ ...featureful.containers[0], volumeMounts: [] }],
    };
    const out = toWindowsPodSpec(advised, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => [w.ruleId, w.path])).toEqual([
      ['windows-host-port-cni', 'spec.containers[0].ports[0].hostPort'],
      ['windows-dns-host-net', 'spec.dnsPolicy'],
    ]);
    // What the user wrote is kept.
    expect(out.dnsPolicy).toBe('ClusterFirstWithHostNet');
    expect(out.containers[0].ports).toEqual([{ containerPort: 80, hostPort: 8080 }]);
  });

  test('on a HostProcess pod only a hostPort other than containerPort and the memory emptyDir are refused', () => {
    const issues = issuesOf(() => toWindowsPodSpec(featureful, { hostProcess: true }));
    expect(issues.map((i) => i.path)).toEqual([
      'spec.containers[0].ports[0].hostPort',
      'spec.volumes[0].emptyDir.medium',
    ]);
    expect(issues[0].message).toMatch(/must match `containerPort` \(80\)/);
    const ok: PodSpec = {
      containers: [{ name: 'a', image: IIS, ports: [{ containerPort: 9182, hostPort: 9182 }, { containerPort: 81 }] }],
    };
    expect(toWindowsPodSpec(ok, { hostProcess: true }).containers[0].ports).toEqual(ok.containers[0].ports);
  });

  test('an ordinary pod with hostNetwork: true and hostPort ≠ containerPort is refused, as the API server does (issue 24)', () => {
    const spec: PodSpec = {
      hostNetwork: true,
      containers: [{ name: 'a', image: IIS, ports: [{ containerPort: 80, hostPort: 8080 }] }],
    };
    const issues = issuesOf(() => toWindowsPodSpec(spec));
    expect(issues).toEqual([
      {
        path: 'spec.containers[0].ports[0].hostPort',
        message:
          'spec.containers[0].ports[0].hostPort 8080: Invalid value: must match `containerPort` (80) when `hostNetwork` is true; the API server refuses the pod.',
        fix: 'Set hostPort to 80, or remove hostNetwork (Windows ignores it outside HostProcess pods).',
        ruleId: 'windows-host-port',
        messageId: 'host-network',
      },
    ]);
    const equal: PodSpec = {
      ...spec,
      containers: [{ name: 'a', image: IIS, ports: [{ containerPort: 80, hostPort: 80 }] }],
    };
    expect(toWindowsPodSpec(equal).containers[0].ports).toEqual([{ containerPort: 80, hostPort: 80 }]);
  });

  test('mountPropagation None and a disk emptyDir are fine', () => {
    const spec: PodSpec = {
      containers: [
        { name: 'a', image: IIS, volumeMounts: [{ name: 'v', mountPath: 'C:\\v', mountPropagation: 'None' }] },
      ],
      volumes: [{ name: 'v', emptyDir: {} }],
    };
    expect(() => toWindowsPodSpec(spec)).not.toThrow();
  });
});

describe('malformed input', () => {
  test('null list entries are reported with every other problem, never a TypeError', () => {
    const spec = {
      containers: [null, { name: 'a', image: IIS, ports: [null], securityContext: { runAsUser: 1 } }],
      volumes: [null],
      tolerations: [null],
    } as unknown as PodSpec;
    expect(paths(() => toWindowsPodSpec(spec))).toEqual([
      'spec.containers[0]',
      'spec.volumes[0]',
      'spec.tolerations[0]',
      'spec.containers[1].ports[0]',
      'spec.containers[1].securityContext.runAsUser',
    ]);
  });

  test('a pod spec that is not an object is refused', () => {
    expect(paths(() => toWindowsPodSpec(null as unknown as PodSpec))).toEqual(['spec']);
  });

  test('property: any mix of nulls, numbers and strings in the lists throws only WindowsValidationError', () => {
    const junk = fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.constant(undefined));
    const entry = fc.oneof(
      junk,
      fc.record({
        name: fc.constant('a'),
        image: fc.constant(IIS),
        ports: fc.array(
          fc.oneof(
            junk,
            fc.record({
              containerPort: fc.integer({ min: 1, max: 65535 }),
              hostPort: fc.integer({ min: 0, max: 65535 }),
            }),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 4 }),
        fc.array(junk, { maxLength: 3 }),
        fc.boolean(),
        (containers, volumes, hostProcess) => {
          try {
            toWindowsPodSpec({ containers, volumes } as unknown as PodSpec, { hostProcess });
          } catch (e) {
            if (!(e instanceof WindowsValidationError)) throw e;
          }
        },
      ),
    );
  });
});

describe('null and wrong types in the input and the options (issue 24)', () => {
  test('tolerations: null and nodeSelector: null are "not given", as in the API: the target\'s are set', () => {
    const out = toWindowsPodSpec({
      tolerations: null,
      nodeSelector: null,
      containers: [{ name: 'a', image: IIS }],
    } as unknown as PodSpec);
    expect(out.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(out.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
  });

  test('a null option is the same as leaving it out', () => {
    const spec: PodSpec = { containers: [{ name: 'a', image: IIS }] };
    const nulls = Object.fromEntries(
      [
        'target',
        'release',
        'isolation',
        'runAsUserName',
        'hostProcess',
        'securityProfile',
        'containerDefaults',
        'pathPrefix',
        'onWarning',
        'images',
      ].map((k) => [k, null]),
    ) as unknown as ToWindowsPodSpecOptions;
    expect(toWindowsPodSpec(spec, nulls)).toEqual(toWindowsPodSpec(spec));
    expect(toWindowsPodSpec(spec, null as unknown as ToWindowsPodSpecOptions)).toEqual(toWindowsPodSpec(spec));
  });

  test('options of the wrong type are refused, every one at once, naming the option and the value', () => {
    const issues = issuesOf(() =>
      toWindowsPodSpec({ containers: [{ name: 'a', image: IIS }] }, {
        hostProcess: 'no',
        securityProfile: 'strict',
        containerDefaults: 1,
        onWarning: 'log',
        target: { release: '2023', isolation: 'vm', labels: [], taints: [{ key: 'os' }] },
      } as unknown as ToWindowsPodSpecOptions),
    );
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ['hostProcess', "hostProcess must be true or false, got 'no'."],
      ['securityProfile', "securityProfile must be 'baseline' or 'restricted', got 'strict'."],
      ['containerDefaults', 'containerDefaults must be true or false, got 1.'],
      ['onWarning', "onWarning must be a function, got 'log'."],
      ['target.release', "target.release '2023' is not a Windows release."],
      ['target.isolation', "target.isolation 'vm' is not known."],
      ['target.labels', 'target.labels must be a map of strings, got [].'],
      ['target.taints[0]', 'target.taints[0] {"key":"os"} is not a taint.'],
    ]);
  });

  test('property: any option of any JSON type ends in a result or a WindowsValidationError, never a TypeError', () => {
    const keys = fc.constantFrom(
      'target',
      'release',
      'isolation',
      'runAsUserName',
      'gmsaCredentialSpecName',
      'hostProcess',
      'securityProfile',
      'containerDefaults',
      'frameworkDefaults',
      'pathPrefix',
      'onWarning',
      'images',
    );
    fc.assert(
      fc.property(fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 })), (options) => {
        try {
          toWindowsPodSpec({ containers: [{ name: 'a', image: IIS }] }, options as ToWindowsPodSpecOptions);
        } catch (e) {
          if (!(e instanceof WindowsValidationError)) throw e;
        }
      }),
    );
  });
});

describe("isolation: 'hyperv' agrees with the engine (issue 24)", () => {
  const ASPNET_2019 = 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019';
  const spec: PodSpec = { containers: [{ name: 'a', image: ASPNET_2019 }] };

  test('without a RuntimeClass it is refused with the fix: the pod would run process-isolated', () => {
    // Process-isolated, the ltsc2019 image cannot run on the 2022 nodes either: lint says so of that pod, and so does
    // the construct (the rules judge the pod it would emit).
    expect(issuesOf(() => toWindowsPodSpec(spec, { release: '2022', isolation: 'hyperv' }))).toEqual([
      {
        path: 'isolation',
        message:
          'Hyper-V isolation is chosen by a RuntimeClass with the runhcs-wcow-hypervisor handler; without one the pod runs process-isolated.',
        fix: "Name a RuntimeClass whose handler is runhcs-wcow-hypervisor: use the nodeTarget of a WindowsRuntimeClass with isolation 'hyperv', or set spec.runtimeClassName.",
      },
      expect.objectContaining({ path: 'spec.containers[0].image', ruleId: 'image-build-mismatch' }),
    ]);
    expect(
      paths(() => toWindowsPodSpec(spec, { target: windowsNodeTarget({ release: '2022', isolation: 'hyperv' }) })),
    ).toEqual(['target.runtimeClassName', 'spec.containers[0].image']);
  });

  test('with its RuntimeClass the pod is accepted, and the engine, given that RuntimeClass, finds no build mismatch', () => {
    const target = windowsNodeTarget({ release: '2022', isolation: 'hyperv', runtimeClassName: 'windows-2022-hyperv' });
    const pod = toWindowsPodSpec(spec, { target });
    expect(pod.runtimeClassName).toBe('windows-2022-hyperv');
    const runtimeClass = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'windows-2022-hyperv' },
      handler: 'runhcs-wcow-hypervisor',
      scheduling: { nodeSelector: pod.nodeSelector, tolerations: pod.tolerations },
    };
    const found = validateManifests([
      runtimeClass,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: pod },
    ]);
    expect(found.filter((d) => d.severity === 'error')).toEqual([]);
    // Without the RuntimeClass's handler the engine judges process isolation, which is what the refusal prevents.
    const processPod = { ...pod, runtimeClassName: undefined };
    expect(
      validateManifests([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: processPod }]).map(
        (d) => d.ruleId,
      ),
    ).toContain('image-build-mismatch');
  });
});
