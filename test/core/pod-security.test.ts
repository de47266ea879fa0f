import type { Pod, PodSpec, SecurityContext } from 'kubernetes-types/core/v1';
import {
  LATEST_POD_SECURITY_POLICY_VERSION,
  POD_SECURITY_LEVELS,
  meetsPodSecurityLevel,
  podSecurityLevel,
  podSecurityViolations,
  podSpecSecurityViolations,
  type PodSecurityLevel,
  type PodSecurityViolation,
} from '../../lib/core/pod-security';
import { POD_SPEC_PATHS } from '../../lib/core/workloads';

/** A container security context that meets restricted on Linux. */
const RESTRICTED_CONTAINER: SecurityContext = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };

/** A fresh Linux pod that meets restricted at every policy version. */
function restrictedPod(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'app', image: 'nginx', securityContext: { ...RESTRICTED_CONTAINER } }],
    },
  };
}

/** `restrictedPod()` after `edit`. */
function podWith(edit: (spec: PodSpec, pod: Pod) => void): Pod {
  const pod = restrictedPod();
  edit(pod.spec!, pod);
  return pod;
}

/** The first container's security context of a pod built by `podWith`. */
function sc(spec: PodSpec): SecurityContext {
  return spec.containers[0].securityContext!;
}

/** A Windows pod that meets restricted: no Linux-only fields, runAsNonRoot with ContainerUser. */
function windowsPod(edit: (spec: PodSpec) => void = () => undefined): Pod {
  const spec: PodSpec = {
    os: { name: 'windows' },
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    securityContext: { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } },
    containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
  };
  edit(spec);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'w' }, spec };
}

type Row = [PodSecurityViolation['level'], PodSecurityViolation['check'], string];

/** Violations reduced to level, check and path. */
function rows(obj: unknown, kubernetesVersion?: string): Row[] {
  return podSecurityViolations(obj, kubernetesVersion === undefined ? {} : { kubernetesVersion }).map((v) => [
    v.level,
    v.check,
    v.path,
  ]);
}

function expectResult(obj: unknown, level: PodSecurityLevel, expected: Row[], kubernetesVersion?: string): void {
  expect(rows(obj, kubernetesVersion)).toEqual(expected);
  expect(podSecurityLevel(obj, kubernetesVersion === undefined ? {} : { kubernetesVersion })).toBe(level);
}

const C0 = 'spec.containers[0]';

describe('the restricted baseline fixtures', () => {
  test('the Linux fixture meets restricted at every policy version', () => {
    for (let minor = 0; minor <= 40; minor++) expectResult(restrictedPod(), 'restricted', [], `1.${minor}`);
  });

  test('the Windows fixture meets restricted from 1.25', () => {
    expectResult(windowsPod(), 'restricted', []);
    expectResult(windowsPod(), 'restricted', [], '1.25');
  });
});

describe('baseline checks', () => {
  const cases: Array<[string, (spec: PodSpec, pod: Pod) => void, Row[], string?]> = [
    ['hostNetwork', (s) => (s.hostNetwork = true), [['baseline', 'hostNamespaces', 'spec.hostNetwork']]],
    ['hostPID', (s) => (s.hostPID = true), [['baseline', 'hostNamespaces', 'spec.hostPID']]],
    ['hostIPC', (s) => (s.hostIPC = true), [['baseline', 'hostNamespaces', 'spec.hostIPC']]],
    ['privileged', (s) => (sc(s).privileged = true), [['baseline', 'privileged', `${C0}.securityContext.privileged`]]],
    [
      'capability beyond the default set (restricted duplicate dropped)',
      (s) => (sc(s).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'SYS_ADMIN'] }),
      [['baseline', 'capabilities_baseline', `${C0}.securityContext.capabilities.add[1]`]],
    ],
    [
      'hostPath volume (restricted duplicate dropped)',
      (s) =>
        (s.volumes = [
          { name: 'logs', emptyDir: {} },
          { name: 'host', hostPath: { path: '/var/log' } },
        ]),
      [['baseline', 'hostPathVolumes', 'spec.volumes[1].hostPath']],
    ],
    [
      'hostPort',
      (s) => (s.containers[0].ports = [{ containerPort: 80 }, { containerPort: 443, hostPort: 8443 }]),
      [['baseline', 'hostPorts', `${C0}.ports[1].hostPort`]],
    ],
    [
      'AppArmor annotation unconfined',
      (_s, p) => (p.metadata!.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' }),
      [['baseline', 'appArmorProfile', 'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]']],
    ],
    [
      'AppArmor pod field Unconfined',
      (s) => (s.securityContext!.appArmorProfile = { type: 'Unconfined' }),
      [['baseline', 'appArmorProfile', 'spec.securityContext.appArmorProfile.type']],
    ],
    [
      'AppArmor container field without a type',
      (s) => (sc(s).appArmorProfile = {} as never),
      [['baseline', 'appArmorProfile', `${C0}.securityContext.appArmorProfile.type`]],
    ],
    [
      'SELinux type spc_t',
      (s) => (s.securityContext!.seLinuxOptions = { type: 'spc_t' }),
      [['baseline', 'seLinuxOptions', 'spec.securityContext.seLinuxOptions.type']],
    ],
    [
      'SELinux user and role',
      (s) => (sc(s).seLinuxOptions = { type: 'container_t', user: 'system_u', role: 'system_r' }),
      [
        ['baseline', 'seLinuxOptions', `${C0}.securityContext.seLinuxOptions.user`],
        ['baseline', 'seLinuxOptions', `${C0}.securityContext.seLinuxOptions.role`],
      ],
    ],
    [
      'SELinux container_engine_t before 1.31',
      (s) => (s.securityContext!.seLinuxOptions = { type: 'container_engine_t' }),
      [['baseline', 'seLinuxOptions', 'spec.securityContext.seLinuxOptions.type']],
      '1.30',
    ],
    [
      'procMount Unmasked (restricted duplicate dropped)',
      (s) => (sc(s).procMount = 'Unmasked'),
      [['baseline', 'procMount', `${C0}.securityContext.procMount`]],
    ],
    [
      'procMount Unmasked with hostUsers: false before 1.35',
      (s) => {
        s.hostUsers = false;
        sc(s).procMount = 'Unmasked';
      },
      [['baseline', 'procMount', `${C0}.securityContext.procMount`]],
      '1.34',
    ],
    [
      'seccompProfile Unconfined on the pod (restricted duplicate dropped)',
      (s) => (s.securityContext!.seccompProfile = { type: 'Unconfined' }),
      [
        ['baseline', 'seccompProfile_baseline', 'spec.securityContext.seccompProfile.type'],
        ['restricted', 'seccompProfile_restricted', `${C0}.securityContext.seccompProfile.type`],
      ],
    ],
    [
      'seccompProfile Unconfined on a container',
      (s) => (sc(s).seccompProfile = { type: 'Unconfined' }),
      [['baseline', 'seccompProfile_baseline', `${C0}.securityContext.seccompProfile.type`]],
    ],
    [
      'seccomp pod annotation unconfined before 1.19',
      (_s, p) => (p.metadata!.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }),
      [['baseline', 'seccompProfile_baseline', 'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]']],
      '1.18',
    ],
    [
      'seccomp container annotation unconfined before 1.19',
      (_s, p) => (p.metadata!.annotations = { 'container.seccomp.security.alpha.kubernetes.io/app': 'unconfined' }),
      [
        [
          'baseline',
          'seccompProfile_baseline',
          'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/app]',
        ],
      ],
      '1.18',
    ],
    [
      'unsafe sysctl',
      (s) =>
        (s.securityContext!.sysctls = [
          { name: 'net.ipv4.ip_local_port_range', value: '1024 65535' },
          { name: 'kernel.msgmax', value: '65536' },
        ]),
      [['baseline', 'sysctls', 'spec.securityContext.sysctls[1].name']],
    ],
    [
      'hostProcess on the pod',
      (s) => (s.securityContext!.windowsOptions = { hostProcess: true }),
      [['baseline', 'windowsHostProcess', 'spec.securityContext.windowsOptions.hostProcess']],
    ],
    [
      'hostProcess on a container',
      (s) => (sc(s).windowsOptions = { hostProcess: true }),
      [['baseline', 'windowsHostProcess', `${C0}.securityContext.windowsOptions.hostProcess`]],
    ],
    [
      'probe httpGet host',
      (s) => (s.containers[0].livenessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }),
      [['baseline', 'hostProbesAndHostLifecycle', `${C0}.livenessProbe.httpGet.host`]],
    ],
    [
      'probe tcpSocket host',
      (s) => (s.containers[0].startupProbe = { tcpSocket: { host: 'db', port: 5432 } }),
      [['baseline', 'hostProbesAndHostLifecycle', `${C0}.startupProbe.tcpSocket.host`]],
    ],
    [
      'lifecycle preStop host',
      (s) => (s.containers[0].lifecycle = { preStop: { httpGet: { host: 'node', port: 80 } } }),
      [['baseline', 'hostProbesAndHostLifecycle', `${C0}.lifecycle.preStop.httpGet.host`]],
    ],
  ];
  for (const [name, edit, expected, version] of cases) {
    test(`fails: ${name}`, () => expectResult(podWith(edit), 'privileged', expected, version));
  }

  const passing: Array<[string, (spec: PodSpec, pod: Pod) => void, string?]> = [
    ['host namespaces false', (s) => Object.assign(s, { hostNetwork: false, hostPID: false, hostIPC: false })],
    ['privileged false', (s) => (sc(s).privileged = false)],
    ['NET_BIND_SERVICE added', (s) => (sc(s).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] })],
    ['hostPort 0', (s) => (s.containers[0].ports = [{ containerPort: 80, hostPort: 0 }])],
    [
      'AppArmor annotations runtime/default, localhost/* and empty',
      (_s, p) =>
        (p.metadata!.annotations = {
          'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/side': 'localhost/k8s-nginx',
          'container.apparmor.security.beta.kubernetes.io/other': '',
        }),
    ],
    [
      'AppArmor fields RuntimeDefault and Localhost',
      (s) => {
        s.securityContext!.appArmorProfile = { type: 'RuntimeDefault' };
        sc(s).appArmorProfile = { type: 'Localhost', localhostProfile: 'k8s-nginx' };
      },
    ],
    ['SELinux container_t', (s) => (s.securityContext!.seLinuxOptions = { type: 'container_t', level: 's0:c1' })],
    [
      'SELinux container_engine_t from 1.31',
      (s) => (s.securityContext!.seLinuxOptions = { type: 'container_engine_t' }),
      '1.31',
    ],
    ['procMount Default', (s) => (sc(s).procMount = 'Default')],
    [
      'seccomp Localhost',
      (s) => (s.securityContext!.seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' }),
    ],
    [
      'seccomp annotation unconfined is ignored from 1.19',
      (_s, p) => (p.metadata!.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }),
    ],
    [
      'seccomp annotations runtime/default, docker/default, localhost/* before 1.19',
      (_s, p) =>
        (p.metadata!.annotations = {
          'seccomp.security.alpha.kubernetes.io/pod': 'docker/default',
          'container.seccomp.security.alpha.kubernetes.io/app': 'localhost/x.json',
        }),
      '1.18',
    ],
    ['hostProcess false', (s) => (s.securityContext!.windowsOptions = { hostProcess: false })],
    [
      'probe and lifecycle without host (empty host allowed)',
      (s) => {
        s.containers[0].readinessProbe = { httpGet: { host: '', port: 80 } };
        s.containers[0].lifecycle = { postStart: { exec: { command: ['x'] } } };
      },
    ],
    [
      'probe host before 1.34',
      (s) => (s.containers[0].livenessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }),
      '1.33',
    ],
  ];
  for (const [name, edit, version] of passing) {
    test(`passes: ${name}`, () => expectResult(podWith(edit), 'restricted', [], version));
  }

  describe('sysctls follow the policy version', () => {
    test.each([
      ['kernel.shm_rmid_forced', '1.0'],
      ['net.ipv4.ip_unprivileged_port_start', '1.0'],
      ['net.ipv4.ip_local_reserved_ports', '1.27'],
      ['net.ipv4.tcp_keepalive_time', '1.29'],
      ['net.ipv4.tcp_fin_timeout', '1.29'],
      ['net.ipv4.tcp_keepalive_intvl', '1.29'],
      ['net.ipv4.tcp_keepalive_probes', '1.29'],
      ['net.ipv4.tcp_rmem', '1.32'],
      ['net.ipv4.tcp_wmem', '1.32'],
      ['net.ipv4.tcp_slow_start_after_idle', '1.37'],
      ['net.ipv4.tcp_notsent_lowat', '1.37'],
    ])('%s is safe from %s', (name, since) => {
      const pod = podWith((s) => (s.securityContext!.sysctls = [{ name, value: '1' }]));
      expectResult(pod, 'restricted', [], since);
      expectResult(pod, 'restricted', []);
      const minor = Number(since.split('.')[1]);
      if (minor > 0) {
        expectResult(
          pod,
          'privileged',
          [['baseline', 'sysctls', 'spec.securityContext.sysctls[0].name']],
          `1.${minor - 1}`,
        );
        expect(podSecurityViolations(pod, { kubernetesVersion: `1.${minor - 1}` })[0].fix).toBe(
          `It is safe from Kubernetes ${since}: raise pod-security.kubernetes.io/enforce-version, or remove it.`,
        );
      }
    });
  });
});

describe('restricted checks', () => {
  const cases: Array<[string, (spec: PodSpec, pod: Pod) => void, Row[], string?]> = [
    [
      'nfs volume',
      (s) => (s.volumes = [{ name: 'share', nfs: { server: 'nas', path: '/export' } }]),
      [['restricted', 'restrictedVolumes', 'spec.volumes[0].nfs']],
    ],
    [
      'volume without a source',
      (s) => (s.volumes = [{ name: 'empty' }]),
      [['restricted', 'restrictedVolumes', 'spec.volumes[0]']],
    ],
    [
      'allowPrivilegeEscalation unset',
      (s) => delete sc(s).allowPrivilegeEscalation,
      [['restricted', 'allowPrivilegeEscalation', `${C0}.securityContext.allowPrivilegeEscalation`]],
    ],
    [
      'allowPrivilegeEscalation true',
      (s) => (sc(s).allowPrivilegeEscalation = true),
      [['restricted', 'allowPrivilegeEscalation', `${C0}.securityContext.allowPrivilegeEscalation`]],
    ],
    [
      'runAsNonRoot unset everywhere',
      (s) => delete s.securityContext!.runAsNonRoot,
      [['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`]],
    ],
    [
      'runAsNonRoot false on the pod',
      (s) => (s.securityContext!.runAsNonRoot = false),
      [
        ['restricted', 'runAsNonRoot', 'spec.securityContext.runAsNonRoot'],
        ['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`],
      ],
    ],
    [
      'runAsNonRoot false on a container under a pod-level true',
      (s) => (sc(s).runAsNonRoot = false),
      [['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`]],
    ],
    [
      'runAsNonRoot with hostUsers: false before 1.35',
      (s) => {
        s.hostUsers = false;
        delete s.securityContext!.runAsNonRoot;
      },
      [['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`]],
      '1.34',
    ],
    [
      'runAsUser 0 on the pod',
      (s) => (s.securityContext!.runAsUser = 0),
      [['restricted', 'runAsUser', 'spec.securityContext.runAsUser']],
    ],
    [
      'runAsUser 0 on a container',
      (s) => (sc(s).runAsUser = 0),
      [['restricted', 'runAsUser', `${C0}.securityContext.runAsUser`]],
    ],
    [
      'seccompProfile unset everywhere',
      (s) => delete s.securityContext!.seccompProfile,
      [['restricted', 'seccompProfile_restricted', `${C0}.securityContext.seccompProfile.type`]],
    ],
    [
      'capabilities without drop ALL',
      (s) => (sc(s).capabilities = { drop: ['all', 'NET_RAW'] }),
      [['restricted', 'capabilities_restricted', `${C0}.securityContext.capabilities.drop`]],
    ],
    [
      'capabilities unset',
      (s) => delete sc(s).capabilities,
      [['restricted', 'capabilities_restricted', `${C0}.securityContext.capabilities.drop`]],
    ],
    [
      'default capability added',
      (s) => (sc(s).capabilities = { drop: ['ALL'], add: ['CHOWN'] }),
      [['restricted', 'capabilities_restricted', `${C0}.securityContext.capabilities.add[0]`]],
    ],
    [
      'procMount Unmasked with hostUsers: false from 1.35',
      (s) => {
        s.hostUsers = false;
        sc(s).procMount = 'Unmasked';
      },
      [['restricted', 'procMount_restricted', `${C0}.securityContext.procMount`]],
    ],
  ];
  for (const [name, edit, expected, version] of cases) {
    test(`fails: ${name}`, () => expectResult(podWith(edit), 'baseline', expected, version));
  }

  const passing: Array<[string, (spec: PodSpec) => void, string?]> = [
    [
      'every allowed volume type',
      (s) =>
        (s.volumes = [
          { name: 'a', configMap: { name: 'c' } },
          { name: 'b', csi: { driver: 'smb.csi.k8s.io' } },
          { name: 'c', downwardAPI: {} },
          { name: 'd', emptyDir: {} },
          { name: 'e', ephemeral: { volumeClaimTemplate: { spec: {} } } },
          { name: 'f', image: { reference: 'registry/data:1' } } as never,
          { name: 'g', persistentVolumeClaim: { claimName: 'pvc' } },
          { name: 'h', projected: { sources: [] } },
          { name: 'i', secret: { secretName: 's' } },
        ]),
    ],
    [
      'runAsNonRoot on every container instead of the pod',
      (s) => {
        delete s.securityContext!.runAsNonRoot;
        sc(s).runAsNonRoot = true;
      },
    ],
    [
      'runAsNonRoot and runAsUser skipped for hostUsers: false from 1.35',
      (s) => {
        s.hostUsers = false;
        s.securityContext!.runAsNonRoot = false;
        s.securityContext!.runAsUser = 0;
      },
    ],
    ['runAsUser non-zero', (s) => (s.securityContext!.runAsUser = 1000)],
    ['runAsUser 0 before 1.23', (s) => (s.securityContext!.runAsUser = 0), '1.22'],
    [
      'seccomp on every container instead of the pod',
      (s) => {
        delete s.securityContext!.seccompProfile;
        sc(s).seccompProfile = { type: 'RuntimeDefault' };
      },
    ],
    ['seccomp unset before 1.19', (s) => delete s.securityContext!.seccompProfile, '1.18'],
    ['drop ALL unset before 1.22', (s) => delete sc(s).capabilities, '1.21'],
    ['allowPrivilegeEscalation unset before 1.8', (s) => delete sc(s).allowPrivilegeEscalation, '1.7'],
  ];
  for (const [name, edit, version] of passing) {
    test(`passes: ${name}`, () => expectResult(podWith(edit), 'restricted', [], version));
  }

  test('checks init and ephemeral containers with their own paths', () => {
    const pod = podWith((s) => {
      s.initContainers = [{ name: 'init', image: 'busybox' }];
      s.ephemeralContainers = [{ name: 'debug', image: 'busybox', securityContext: { ...RESTRICTED_CONTAINER } }];
    });
    expectResult(pod, 'baseline', [
      ['restricted', 'allowPrivilegeEscalation', 'spec.initContainers[0].securityContext.allowPrivilegeEscalation'],
      ['restricted', 'capabilities_restricted', 'spec.initContainers[0].securityContext.capabilities.drop'],
    ]);
  });
});

describe('Windows exemptions (reference §4)', () => {
  const exempted: Row[] = [
    ['restricted', 'allowPrivilegeEscalation', `${C0}.securityContext.allowPrivilegeEscalation`],
    ['restricted', 'capabilities_restricted', `${C0}.securityContext.capabilities.drop`],
    ['restricted', 'seccompProfile_restricted', `${C0}.securityContext.seccompProfile.type`],
  ];

  test('spec.os.name windows skips allowPrivilegeEscalation, capabilities and seccomp from 1.25', () => {
    expectResult(windowsPod(), 'restricted', [], '1.25');
    expectResult(windowsPod(), 'baseline', exempted, '1.24');
  });

  test('a nodeSelector alone does not count, and the fix points at spec.os.name', () => {
    const pod = windowsPod((s) => delete s.os);
    expectResult(pod, 'baseline', exempted);
    for (const v of podSecurityViolations(pod)) {
      expect(v.fix).toContain('set spec.os.name: windows instead');
    }
  });

  test('os.name must be exactly windows', () => {
    expectResult(
      windowsPod((s) => (s.os = { name: 'Windows' })),
      'baseline',
      exempted,
    );
  });

  test('Windows pods still need runAsNonRoot, and the fix names ContainerUser', () => {
    const pod = windowsPod((s) => delete s.securityContext!.runAsNonRoot);
    expectResult(pod, 'baseline', [['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`]]);
    expect(podSecurityViolations(pod)[0].fix).toBe(
      'Set spec.securityContext.runAsNonRoot: true (covers every container) or set it on this container.' +
        ' On Windows, also set securityContext.windowsOptions.runAsUserName: ContainerUser.',
    );
  });

  test('HostProcess pods are privileged', () => {
    const pod = windowsPod((s) => {
      s.hostNetwork = true;
      s.securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
    });
    expectResult(pod, 'privileged', [
      ['baseline', 'hostNamespaces', 'spec.hostNetwork'],
      ['baseline', 'windowsHostProcess', 'spec.securityContext.windowsOptions.hostProcess'],
      ['restricted', 'runAsNonRoot', `${C0}.securityContext.runAsNonRoot`],
    ]);
  });

  test('a Windows pod failing a baseline check that restricted overrides is still privileged', () => {
    const pod = windowsPod((s) => (s.containers[0].securityContext = { capabilities: { add: ['SYS_ADMIN'] } }));
    expectResult(pod, 'privileged', [
      ['baseline', 'capabilities_baseline', `${C0}.securityContext.capabilities.add[0]`],
    ]);
  });
});

describe('workloads', () => {
  const template = () => ({ metadata: { labels: { app: 'x' } }, spec: restrictedPod().spec });

  test('a Deployment reports paths under spec.template', () => {
    const t = template();
    t.spec!.hostPID = true;
    t.metadata = {
      labels: { app: 'x' },
      annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' },
    } as never;
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: t } };
    expectResult(deployment, 'privileged', [
      [
        'baseline',
        'appArmorProfile',
        'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]',
      ],
      ['baseline', 'hostNamespaces', 'spec.template.spec.hostPID'],
    ]);
    expect(podSecurityViolations(deployment)[1]).toEqual({
      level: 'baseline',
      check: 'hostNamespaces',
      path: 'spec.template.spec.hostPID',
      message: "hostPID is true: the baseline level forbids sharing the host's namespaces.",
      fix: 'Remove hostPID.',
    });
  });

  test('a CronJob reports paths under spec.jobTemplate.spec.template', () => {
    const t = template();
    t.spec!.containers[0].securityContext!.privileged = true;
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: t } } },
    };
    expectResult(cronJob, 'privileged', [
      ['baseline', 'privileged', 'spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged'],
    ]);
  });

  test.each(Object.keys(POD_SPEC_PATHS))('%s holding a restricted pod is restricted', (kind) => {
    const segments = POD_SPEC_PATHS[kind];
    const obj: Record<string, unknown> = { kind };
    let node = obj;
    for (const s of segments.slice(0, -1)) node = (node[s] = {}) as Record<string, unknown>;
    node[segments[segments.length - 1]] = { ...restrictedPod().spec, hostIPC: true };
    expectResult(obj, 'privileged', [['baseline', 'hostNamespaces', `${segments.join('.')}.hostIPC`]]);
  });

  test.each([
    ['a Service', { apiVersion: 'v1', kind: 'Service', spec: { hostNetwork: true } }],
    ['a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', data: {} }],
    ['a Deployment without a template', { kind: 'Deployment', spec: {} }],
    ['null', null],
    ['a number', 42],
    ['a list', [restrictedPod()]],
  ])('%s holds no pod spec: restricted, no violations', (_name, obj) => {
    expectResult(obj, 'restricted', []);
  });
});

describe('policy versions', () => {
  const probeHostPod = podWith((s) => (s.containers[0].livenessProbe = { httpGet: { host: 'h', port: 1 } }));
  test.each([
    [undefined, 'privileged'],
    ['latest', 'privileged'],
    ['not a version', 'privileged'],
    ['1.99', 'privileged'],
    ['v1.34.2', 'privileged'],
    ['1.34.1-eks-1234', 'privileged'],
    ['v1.33', 'restricted'],
    ['1.33.0-gke.100', 'restricted'],
  ] as const)('kubernetesVersion %j', (kubernetesVersion, level) => {
    expect(podSecurityLevel(probeHostPod, kubernetesVersion === undefined ? {} : { kubernetesVersion })).toBe(level);
  });

  test('the newest policy version is 1.37', () => {
    expect(LATEST_POD_SECURITY_POLICY_VERSION).toBe('1.37');
  });
});

describe('levels', () => {
  test('POD_SECURITY_LEVELS runs from most to least strict', () => {
    expect(POD_SECURITY_LEVELS).toEqual(['restricted', 'baseline', 'privileged']);
  });

  test.each([
    ['restricted', 'restricted', true],
    ['restricted', 'baseline', true],
    ['restricted', 'privileged', true],
    ['baseline', 'restricted', false],
    ['baseline', 'baseline', true],
    ['baseline', 'privileged', true],
    ['privileged', 'restricted', false],
    ['privileged', 'baseline', false],
    ['privileged', 'privileged', true],
    ['unknown', 'privileged', false],
    ['restricted', 'unknown', false],
  ] as const)('%s meets %s: %s', (level, required, expected) => {
    expect(meetsPodSecurityLevel(level as PodSecurityLevel, required as PodSecurityLevel)).toBe(expected);
  });
});

describe('podSpecSecurityViolations', () => {
  test('evaluates a bare pod spec at the given paths', () => {
    const spec = { ...restrictedPod().spec, hostNetwork: true };
    expect(
      podSpecSecurityViolations(spec, {
        specPath: 'spec.template.spec',
        podMetadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' } },
      }).map((v) => v.path),
    ).toEqual([
      'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]',
      'spec.template.spec.hostNetwork',
    ]);
    expect(podSpecSecurityViolations(spec).map((v) => v.path)).toEqual(['spec.hostNetwork']);
    expect(podSpecSecurityViolations('not a spec')).toEqual([]);
  });
});

describe('malformed input', () => {
  test.each([
    ['containers is null', { containers: null }],
    ['containers is a string', { containers: 'app' }],
    ['entries of the wrong type', { containers: [null, 5, 'x', []], initContainers: {}, volumes: [null, 1, 'v'] }],
    ['securityContext is a number', { securityContext: 5, containers: [{ name: 'a', securityContext: 'x' }] }],
    [
      'fields of the wrong type',
      {
        hostNetwork: 'true',
        securityContext: { sysctls: 'kernel.msgmax', runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 7,
            ports: [{ hostPort: '80' }, null],
            securityContext: {
              privileged: 'yes',
              capabilities: { add: 'SYS_ADMIN', drop: ['ALL'] },
              allowPrivilegeEscalation: false,
              procMount: 3,
              livenessProbe: 1,
            },
            lifecycle: { preStop: 'x' },
          },
        ],
      },
    ],
  ])('%s: never throws, wrong-typed fields count as unset', (_name, spec) => {
    const pod = { kind: 'Pod', metadata: { annotations: 'x' }, spec };
    expect(() => podSecurityViolations(pod)).not.toThrow();
    expect(['restricted', 'baseline']).toContain(podSecurityLevel(pod));
  });

  test('a container without a name is still reported', () => {
    const pod = podWith((s) => delete (s.containers[0] as { name?: string }).name);
    pod.spec!.containers[0].securityContext!.privileged = true;
    const [v] = podSecurityViolations(pod);
    expect(v.message).toBe(
      'a container without a name is privileged: the baseline level forbids privileged containers.',
    );
  });
});
