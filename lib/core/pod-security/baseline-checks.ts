/**
 * The baseline-level checks of Pod Security Admission, one per upstream `check_*.go` with `Level: LevelBaseline`
 * (kubernetes/kubernetes `staging/src/k8s.io/pod-security-admission/policy/`, read at release-1.35/1.36, plus the
 * v1.37 sysctls of kubernetes/kubernetes#138389). Facts are upstream's; the per-field reporting is ours.
 */
import { containerLabel, shown, type CheckFinding, type PodSecurityCheck } from './check';
import { POD_SECURITY_ENFORCE_LABEL, POD_SECURITY_ENFORCE_VERSION_LABEL } from './labels';
import { POLICY_GATES } from './policy-version';
import { isSet, list, record, str, type JsonRecord, type PodView } from './pod-view';

const PRIVILEGED_NAMESPACE_HINT = `a pod that needs it must run in a namespace labelled ${POD_SECURITY_ENFORCE_LABEL}: privileged`;

/** check_hostNamespaces.go: `hostNetwork`, `hostPID`, `hostIPC` must be unset or false. */
export const HOST_NAMESPACE_FIELDS = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

/** check_capabilities_baseline.go `capabilities_allowed_1_0`: what baseline lets a container add. */
export const BASELINE_ALLOWED_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** check_appArmorProfile.go: the allowed `appArmorProfile.type` values (fields checked since the 1.30 binary). */
export const ALLOWED_APPARMOR_TYPES: readonly string[] = ['RuntimeDefault', 'Localhost'];
/** core/v1 `DeprecatedAppArmorBetaContainerAnnotationKeyPrefix`. */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** check_seLinuxOptions.go `selinuxAllowedTypes1_0` / `1_31` (`""` means unset). */
const SELINUX_TYPES_1_0: readonly string[] = ['', 'container_t', 'container_init_t', 'container_kvm_t'];
const SELINUX_TYPES_1_31: readonly string[] = [...SELINUX_TYPES_1_0, 'container_engine_t'];

/** The SELinux types baseline allows at a policy minor (`""` means unset). */
export function allowedSeLinuxTypes(minor: number): readonly string[] {
  return minor >= POLICY_GATES.seLinuxEngineType ? SELINUX_TYPES_1_31 : SELINUX_TYPES_1_0;
}

/** check_seccompProfile_baseline.go: the allowed `seccompProfile.type` values (1.19+). */
export const ALLOWED_SECCOMP_TYPES: readonly string[] = ['RuntimeDefault', 'Localhost'];
/** The seccomp alpha annotations checked before policy 1.19. */
export const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

function validSeccompAnnotation(v: string): boolean {
  return v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
}

/** check_sysctls.go: the safe sysctls, by the policy minor that added them. */
export const SAFE_SYSCTLS_BY_MINOR: ReadonlyArray<{ readonly since: number; readonly names: readonly string[] }> = [
  {
    since: 0,
    names: [
      'kernel.shm_rmid_forced',
      'net.ipv4.ip_local_port_range',
      'net.ipv4.ip_unprivileged_port_start',
      'net.ipv4.tcp_syncookies',
      'net.ipv4.ping_group_range',
    ],
  },
  { since: POLICY_GATES.sysctls127, names: ['net.ipv4.ip_local_reserved_ports'] },
  {
    since: POLICY_GATES.sysctls129,
    names: [
      'net.ipv4.tcp_keepalive_time',
      'net.ipv4.tcp_fin_timeout',
      'net.ipv4.tcp_keepalive_intvl',
      'net.ipv4.tcp_keepalive_probes',
    ],
  },
  { since: POLICY_GATES.sysctls132, names: ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'] },
  { since: POLICY_GATES.sysctls137, names: ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_notsent_lowat'] },
];

/** The sysctls baseline allows at a policy minor. */
export function safeSysctls(minor: number): readonly string[] {
  return SAFE_SYSCTLS_BY_MINOR.filter((s) => s.since <= minor).flatMap((s) => s.names);
}

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const LIFECYCLE_HANDLERS = ['postStart', 'preStop'] as const;
const HANDLER_ACTIONS = ['httpGet', 'tcpSocket'] as const;

/** The pod-level and per-container security contexts, each with its path prefix. */
function securityContexts(pod: PodView): Array<{ sc: JsonRecord; prefix: string; who: string }> {
  const out: Array<{ sc: JsonRecord; prefix: string; who: string }> = [];
  if (pod.securityContext) out.push({ sc: pod.securityContext, prefix: pod.at('securityContext'), who: 'the pod' });
  for (const c of pod.containers) {
    if (c.securityContext) {
      out.push({ sc: c.securityContext, prefix: pod.at(`${c.path}.securityContext`), who: containerLabel(c.name) });
    }
  }
  return out;
}

const hostNamespaces: PodSecurityCheck = {
  id: 'hostNamespaces',
  level: 'baseline',
  since: 0,
  summary: 'hostNetwork, hostPID and hostIPC must be unset or false.',
  evaluate: (pod) =>
    HOST_NAMESPACE_FIELDS.filter((f) => pod.spec[f] === true).map((f) => ({
      path: pod.at(f),
      message: `${f} is true: the baseline level forbids sharing the host's namespaces.`,
      fix:
        f === 'hostNetwork'
          ? `Remove hostNetwork; ${PRIVILEGED_NAMESPACE_HINT} (HostProcess pods do).`
          : `Remove ${f}.`,
    })),
};

const privileged: PodSecurityCheck = {
  id: 'privileged',
  level: 'baseline',
  since: 0,
  summary: 'Containers must not set securityContext.privileged=true.',
  evaluate: (pod) =>
    pod.containers
      .filter((c) => c.securityContext?.privileged === true)
      .map((c) => ({
        path: pod.at(`${c.path}.securityContext.privileged`),
        message: `${containerLabel(c.name)} is privileged: the baseline level forbids privileged containers.`,
        fix: 'Remove securityContext.privileged (Windows has no privileged containers: use a HostProcess container in a privileged namespace).',
      })),
};

const capabilitiesBaseline: PodSecurityCheck = {
  id: 'capabilities_baseline',
  level: 'baseline',
  since: 0,
  summary: `Containers may add only ${BASELINE_ALLOWED_CAPABILITIES.join(', ')}.`,
  evaluate: (pod) =>
    pod.containers.flatMap((c) =>
      list(record(c.securityContext?.capabilities)?.add).flatMap((cap, j): CheckFinding[] =>
        typeof cap === 'string' && !BASELINE_ALLOWED_CAPABILITIES.includes(cap)
          ? [
              {
                path: pod.at(`${c.path}.securityContext.capabilities.add[${j}]`),
                message: `${containerLabel(c.name)} adds capability ${shown(cap)}, beyond the default set the baseline level allows.`,
                fix: `Remove ${shown(cap)} from securityContext.capabilities.add (allowed: ${BASELINE_ALLOWED_CAPABILITIES.join(', ')}).`,
              },
            ]
          : [],
      ),
    ),
};

const hostPathVolumes: PodSecurityCheck = {
  id: 'hostPathVolumes',
  level: 'baseline',
  since: 0,
  summary: 'Volumes must not be hostPath volumes.',
  evaluate: (pod) =>
    list(pod.spec.volumes).flatMap((v, i): CheckFinding[] => {
      const vol = record(v);
      if (!vol || !isSet(vol.hostPath)) return [];
      return [
        {
          path: pod.at(`volumes[${i}].hostPath`),
          message: `volume ${shown(str(vol.name) ?? '')} is a hostPath volume: the baseline level forbids host paths.`,
          fix: `Use a configMap, secret, emptyDir, persistentVolumeClaim or csi volume; ${PRIVILEGED_NAMESPACE_HINT}.`,
        },
      ];
    }),
};

const hostPorts: PodSecurityCheck = {
  id: 'hostPorts',
  level: 'baseline',
  since: 0,
  summary: 'Container ports must not set a non-zero hostPort.',
  evaluate: (pod) =>
    pod.containers.flatMap((c) =>
      list(c.container.ports).flatMap((p, j): CheckFinding[] => {
        const hostPort = record(p)?.hostPort;
        if (typeof hostPort !== 'number' || hostPort === 0) return [];
        return [
          {
            path: pod.at(`${c.path}.ports[${j}].hostPort`),
            message: `${containerLabel(c.name)} uses hostPort ${hostPort}: the baseline level forbids host ports.`,
            fix: 'Remove hostPort and reach the container through a Service.',
          },
        ];
      }),
    ),
};

const appArmorProfile: PodSecurityCheck = {
  id: 'appArmorProfile',
  level: 'baseline',
  since: 0,
  summary: 'AppArmor profiles (field or annotation) must be RuntimeDefault or Localhost.',
  evaluate: (pod) => {
    const fields = securityContexts(pod).flatMap(({ sc, prefix, who }): CheckFinding[] => {
      const profile = record(sc.appArmorProfile);
      if (!profile) return [];
      const type = str(profile.type) ?? '';
      if (ALLOWED_APPARMOR_TYPES.includes(type)) return [];
      return [
        {
          path: `${prefix}.appArmorProfile.type`,
          message: `${who} sets appArmorProfile.type ${shown(type)}: the baseline level allows only RuntimeDefault or Localhost.`,
          fix: 'Set appArmorProfile.type to RuntimeDefault (or Localhost with a localhostProfile), or remove it.',
        },
      ];
    });
    const annotations = [...pod.annotations]
      .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !validAppArmorAnnotation(v))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => ({
        path: pod.annotationPath(k),
        message: `annotation ${k} is ${shown(v)}: the baseline level allows only runtime/default or localhost/<profile>.`,
        fix: 'Remove the annotation (deprecated) or set it to runtime/default; prefer securityContext.appArmorProfile.',
      }));
    return [...fields, ...annotations];
  },
};

function validAppArmorAnnotation(v: string): boolean {
  return v === '' || v === 'runtime/default' || v.startsWith('localhost/');
}

const seLinuxOptions: PodSecurityCheck = {
  id: 'seLinuxOptions',
  level: 'baseline',
  since: 0,
  summary: 'seLinuxOptions.type must be a container type; user and role must be unset.',
  evaluate: (pod, minor) => {
    const allowed = allowedSeLinuxTypes(minor);
    return securityContexts(pod).flatMap(({ sc, prefix, who }): CheckFinding[] => {
      const opts = record(sc.seLinuxOptions);
      if (!opts) return [];
      const out: CheckFinding[] = [];
      const type = str(opts.type) ?? '';
      if (!allowed.includes(type)) {
        out.push({
          path: `${prefix}.seLinuxOptions.type`,
          message: `${who} sets seLinuxOptions.type ${shown(type)}: the baseline level allows only ${allowed.filter((t) => t !== '').join(', ')}.`,
          fix: `Remove seLinuxOptions.type or use one of ${allowed.filter((t) => t !== '').join(', ')}.`,
        });
      }
      for (const field of ['user', 'role'] as const) {
        const value = str(opts[field]) ?? '';
        if (value !== '') {
          out.push({
            path: `${prefix}.seLinuxOptions.${field}`,
            message: `${who} sets seLinuxOptions.${field} ${shown(value)}: the baseline level forbids a custom SELinux ${field}.`,
            fix: `Remove seLinuxOptions.${field}.`,
          });
        }
      }
      return out;
    });
  },
};

/** Containers whose procMount is set to anything but Default (check_procMount_*.go). */
export function procMountFindings(pod: PodView, levelName: string): CheckFinding[] {
  return pod.containers.flatMap((c): CheckFinding[] => {
    const procMount = str(c.securityContext?.procMount);
    if (procMount === undefined || procMount === 'Default') return [];
    return [
      {
        path: pod.at(`${c.path}.securityContext.procMount`),
        message: `${containerLabel(c.name)} sets procMount ${shown(procMount)}: the ${levelName} level requires the default /proc masks.`,
        fix: 'Remove securityContext.procMount (or set it to Default).',
      },
    ];
  });
}

const procMount: PodSecurityCheck = {
  id: 'procMount',
  level: 'baseline',
  since: 0,
  summary: 'procMount must be unset or Default (from 1.35, any value for pods with hostUsers: false).',
  evaluate: (pod, minor) =>
    minor >= POLICY_GATES.userNamespaces && pod.inUserNamespace ? [] : procMountFindings(pod, 'baseline'),
};

const seccompProfileBaseline: PodSecurityCheck = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  since: 0,
  summary: 'Seccomp profiles must not be Unconfined (annotations before 1.19, fields from 1.19).',
  evaluate: (pod, minor) => {
    if (minor < POLICY_GATES.seccompFields) {
      const keys = [SECCOMP_POD_ANNOTATION, ...pod.containers.map((c) => SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name)];
      return [...new Set(keys)].flatMap((k): CheckFinding[] => {
        const v = pod.annotations.get(k);
        if (v === undefined || validSeccompAnnotation(v)) return [];
        return [
          {
            path: pod.annotationPath(k),
            message: `annotation ${k} is ${shown(v)}: the baseline level allows only runtime/default, docker/default or localhost/<profile>.`,
            fix: 'Set it to runtime/default, or use securityContext.seccompProfile.type: RuntimeDefault.',
          },
        ];
      });
    }
    return securityContexts(pod).flatMap(({ sc, prefix, who }): CheckFinding[] => {
      const profile = record(sc.seccompProfile);
      if (!profile) return [];
      const type = str(profile.type) ?? '';
      if (ALLOWED_SECCOMP_TYPES.includes(type)) return [];
      return [
        {
          path: `${prefix}.seccompProfile.type`,
          message: `${who} sets seccompProfile.type ${shown(type)}: the baseline level allows only RuntimeDefault or Localhost.`,
          fix: 'Set seccompProfile.type to RuntimeDefault (or Localhost with a localhostProfile).',
        },
      ];
    });
  },
};

const sysctls: PodSecurityCheck = {
  id: 'sysctls',
  level: 'baseline',
  since: 0,
  summary: 'Pod sysctls must be in the safe set of the policy version.',
  evaluate: (pod, minor) => {
    const allowed = safeSysctls(minor);
    return list(pod.securityContext?.sysctls).flatMap((s, i): CheckFinding[] => {
      const entry = record(s);
      if (!entry) return [];
      const name = str(entry.name) ?? '';
      if (allowed.includes(name)) return [];
      const later = SAFE_SYSCTLS_BY_MINOR.find((set) => set.names.includes(name));
      return [
        {
          path: pod.at(`securityContext.sysctls[${i}].name`),
          message: `sysctl ${shown(name)} is not one the baseline level allows at policy version 1.${minor}.`,
          fix: later
            ? `It is safe from Kubernetes 1.${later.since}: raise ${POD_SECURITY_ENFORCE_VERSION_LABEL}, or remove it.`
            : `Remove it; the safe sysctls are ${allowed.join(', ')}.`,
        },
      ];
    });
  },
};

const windowsHostProcess: PodSecurityCheck = {
  id: 'windowsHostProcess',
  level: 'baseline',
  since: 0,
  summary: 'windowsOptions.hostProcess must be unset or false.',
  evaluate: (pod) =>
    securityContexts(pod)
      .filter(({ sc }) => record(sc.windowsOptions)?.hostProcess === true)
      .map(({ prefix, who }) => ({
        path: `${prefix}.windowsOptions.hostProcess`,
        message: `${who} sets windowsOptions.hostProcess: true: the baseline level forbids HostProcess containers, which get privileged access to the Windows host.`,
        fix: `Remove hostProcess, or keep it and run the pod in a namespace labelled ${POD_SECURITY_ENFORCE_LABEL}: privileged.`,
      })),
};

const hostProbesAndHostLifecycle: PodSecurityCheck = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  since: POLICY_GATES.probeHost,
  summary: 'Probes and lifecycle handlers must not set httpGet.host or tcpSocket.host.',
  evaluate: (pod) =>
    pod.containers.flatMap((c) => {
      const handlers: Array<{ handler: unknown; at: string }> = [
        ...PROBES.map((p) => ({ handler: c.container[p], at: p })),
        ...LIFECYCLE_HANDLERS.map((h) => ({ handler: record(c.container.lifecycle)?.[h], at: `lifecycle.${h}` })),
      ];
      return handlers.flatMap(({ handler, at }) =>
        HANDLER_ACTIONS.flatMap((action): CheckFinding[] => {
          const host = str(record(record(handler)?.[action])?.host);
          if (host === undefined || host === '') return [];
          return [
            {
              path: pod.at(`${c.path}.${at}.${action}.host`),
              message: `${containerLabel(c.name)} sends ${at} to host ${shown(host)}: the baseline level forbids a host on probes and lifecycle handlers.`,
              fix: `Remove ${at}.${action}.host so it targets the pod's own IP.`,
            },
          ];
        }),
      );
    }),
};

/** Every baseline check, in upstream's evaluation order (sorted by id). */
export const BASELINE_CHECKS: readonly PodSecurityCheck[] = [
  appArmorProfile,
  capabilitiesBaseline,
  hostNamespaces,
  hostPathVolumes,
  hostPorts,
  hostProbesAndHostLifecycle,
  privileged,
  procMount,
  seLinuxOptions,
  seccompProfileBaseline,
  sysctls,
  windowsHostProcess,
];
