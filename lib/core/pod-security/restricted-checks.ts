/**
 * The restricted-level checks of Pod Security Admission, one per upstream `check_*.go` with
 * `Level: LevelRestricted` (kubernetes/kubernetes `staging/src/k8s.io/pod-security-admission/policy/`, read at
 * release-1.35/1.36). Restricted also includes every baseline check; see ./evaluate.ts for how the two combine.
 */
import { CONTAINER_USER } from '../windows-options';
import { containerLabel, shown, type CheckFinding, type PodSecurityCheck } from './check';
import { ALLOWED_SECCOMP_TYPES, procMountFindings } from './baseline-checks';
import { POLICY_GATES } from './policy-version';
import { isSet, list, record, str, type PodView } from './pod-view';

/**
 * check_restrictedVolumes.go: the only volume sources restricted allows. `image` was added to the 1.0 revision
 * (kubernetes/kubernetes#130394, Kubernetes 1.33), so it applies at every policy version on current clusters.
 */
export const RESTRICTED_ALLOWED_VOLUME_TYPES: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/** The volume sources restricted refuses, in upstream's switch order (used to name the offending field). */
const RESTRICTED_VOLUME_TYPES: readonly string[] = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

/** check_capabilities_restricted.go: the one capability restricted lets a container add. */
export const RESTRICTED_ALLOWED_CAPABILITY = 'NET_BIND_SERVICE';
/** check_capabilities_restricted.go: what every container must drop. */
export const CAPABILITY_ALL = 'ALL';

/** From 1.25 these checks skip pods with `spec.os.name: windows` (the API server forbids their fields there). */
function windowsExempt(pod: PodView, minor: number): boolean {
  return minor >= POLICY_GATES.windowsExemptions && pod.isWindowsByOs;
}

/** Points a Windows pod scheduled only by nodeSelector at `spec.os.name`, which is what earns the exemption. */
function windowsOsHint(pod: PodView, minor: number): string {
  return minor >= POLICY_GATES.windowsExemptions && pod.selectsWindowsNodes && !pod.isWindowsByOs
    ? ' This pod selects Windows nodes: set spec.os.name: windows instead, which exempts it from this check (the API server forbids the field on Windows pods).'
    : '';
}

/** Reminds Windows pods that runAsNonRoot needs a non-administrator user. */
function windowsUserHint(pod: PodView): string {
  return pod.isWindowsByOs || pod.selectsWindowsNodes
    ? ` On Windows, also set securityContext.windowsOptions.runAsUserName: ${CONTAINER_USER}.`
    : '';
}

const restrictedVolumes: PodSecurityCheck = {
  id: 'restrictedVolumes',
  level: 'restricted',
  since: 0,
  summary: `Volumes must be one of ${RESTRICTED_ALLOWED_VOLUME_TYPES.join(', ')}.`,
  evaluate: (pod) =>
    list(pod.spec.volumes).flatMap((v, i): CheckFinding[] => {
      const vol = record(v);
      if (!vol || RESTRICTED_ALLOWED_VOLUME_TYPES.some((t) => isSet(vol[t]))) return [];
      const type =
        RESTRICTED_VOLUME_TYPES.find((t) => isSet(vol[t])) ??
        Object.keys(vol).find((k) => k !== 'name' && isSet(vol[k]));
      const name = shown(str(vol.name) ?? '');
      return [
        {
          path: pod.at(type === undefined ? `volumes[${i}]` : `volumes[${i}].${type}`),
          message:
            type === undefined
              ? `volume ${name} has no volume source the restricted level allows.`
              : `volume ${name} uses volume type ${type}: the restricted level allows only ${RESTRICTED_ALLOWED_VOLUME_TYPES.join(', ')}.`,
          fix: 'Use a persistentVolumeClaim (a PersistentVolume can hold this source) or another allowed type.',
        },
      ];
    }),
};

const allowPrivilegeEscalation: PodSecurityCheck = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  since: POLICY_GATES.allowPrivilegeEscalation,
  summary: 'Containers must set allowPrivilegeEscalation=false (Windows pods exempt from 1.25).',
  evaluate: (pod, minor) =>
    windowsExempt(pod, minor)
      ? []
      : pod.containers
          .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
          .map((c) => ({
            path: pod.at(`${c.path}.securityContext.allowPrivilegeEscalation`),
            message:
              c.securityContext?.allowPrivilegeEscalation === true
                ? `${containerLabel(c.name)} sets allowPrivilegeEscalation: true: the restricted level requires false.`
                : `${containerLabel(c.name)} does not set allowPrivilegeEscalation: false, which the restricted level requires.`,
            fix: `Set securityContext.allowPrivilegeEscalation: false.${windowsOsHint(pod, minor)}`,
          })),
};

const runAsNonRoot: PodSecurityCheck = {
  id: 'runAsNonRoot',
  level: 'restricted',
  since: 0,
  summary: 'runAsNonRoot must be true on the pod or every container, and false nowhere (Windows pods too).',
  evaluate: (pod, minor) => {
    if (minor >= POLICY_GATES.userNamespaces && pod.inUserNamespace) return [];
    const out: CheckFinding[] = [];
    const podValue = pod.securityContext?.runAsNonRoot;
    if (podValue === false) {
      out.push({
        path: pod.at('securityContext.runAsNonRoot'),
        message: 'the pod sets runAsNonRoot: false: the restricted level requires true.',
        fix: `Set spec.securityContext.runAsNonRoot: true.${windowsUserHint(pod)}`,
      });
    }
    for (const c of pod.containers) {
      const value = c.securityContext?.runAsNonRoot;
      if (value === true || (value !== false && podValue === true)) continue;
      out.push({
        path: pod.at(`${c.path}.securityContext.runAsNonRoot`),
        message:
          value === false
            ? `${containerLabel(c.name)} sets runAsNonRoot: false: the restricted level requires true.`
            : `neither the pod nor ${containerLabel(c.name)} sets runAsNonRoot: true, which the restricted level requires.`,
        fix:
          value === false
            ? `Set runAsNonRoot: true on this container or remove it under a pod-level true.${windowsUserHint(pod)}`
            : `Set spec.securityContext.runAsNonRoot: true (covers every container) or set it on this container.${windowsUserHint(pod)}`,
      });
    }
    return out;
  },
};

const runAsUser: PodSecurityCheck = {
  id: 'runAsUser',
  level: 'restricted',
  since: POLICY_GATES.runAsUser,
  summary: 'runAsUser must not be 0.',
  evaluate: (pod, minor) => {
    if (minor >= POLICY_GATES.userNamespaces && pod.inUserNamespace) return [];
    const targets = [
      { sc: pod.securityContext, prefix: pod.at('securityContext'), who: 'the pod' },
      ...pod.containers.map((c) => ({
        sc: c.securityContext,
        prefix: pod.at(`${c.path}.securityContext`),
        who: containerLabel(c.name),
      })),
    ];
    return targets
      .filter(({ sc }) => sc?.runAsUser === 0)
      .map(({ prefix, who }) => ({
        path: `${prefix}.runAsUser`,
        message: `${who} sets runAsUser: 0 (root): the restricted level forbids it.`,
        fix: 'Set a non-zero runAsUser, or remove it (Windows pods: use windowsOptions.runAsUserName).',
      }));
  },
};

const seccompProfileRestricted: PodSecurityCheck = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  since: POLICY_GATES.seccompFields,
  summary:
    'seccompProfile.type must be RuntimeDefault or Localhost on the pod or every container (Windows pods exempt from 1.25).',
  evaluate: (pod, minor) => {
    if (windowsExempt(pod, minor)) return [];
    const out: CheckFinding[] = [];
    const fix = `Set spec.securityContext.seccompProfile.type: RuntimeDefault (covers every container), or Localhost.${windowsOsHint(pod, minor)}`;
    const badType = (profile: unknown): string | undefined => {
      const type = str(record(profile)?.type) ?? '';
      return ALLOWED_SECCOMP_TYPES.includes(type) ? undefined : type;
    };
    const podProfile = pod.securityContext?.seccompProfile;
    const podType = record(podProfile) ? badType(podProfile) : undefined;
    const podSet = record(podProfile) !== undefined && podType === undefined;
    if (podType !== undefined) {
      out.push({
        path: pod.at('securityContext.seccompProfile.type'),
        message: `the pod sets seccompProfile.type ${shown(podType)}: the restricted level requires RuntimeDefault or Localhost.`,
        fix,
      });
    }
    for (const c of pod.containers) {
      const profile = c.securityContext?.seccompProfile;
      const path = pod.at(`${c.path}.securityContext.seccompProfile.type`);
      if (record(profile)) {
        const type = badType(profile);
        if (type !== undefined) {
          out.push({
            path,
            message: `${containerLabel(c.name)} sets seccompProfile.type ${shown(type)}: the restricted level requires RuntimeDefault or Localhost.`,
            fix,
          });
        }
      } else if (!podSet) {
        out.push({
          path,
          message: `neither the pod nor ${containerLabel(c.name)} sets seccompProfile.type RuntimeDefault or Localhost, which the restricted level requires.`,
          fix,
        });
      }
    }
    return out;
  },
};

const capabilitiesRestricted: PodSecurityCheck = {
  id: 'capabilities_restricted',
  level: 'restricted',
  since: POLICY_GATES.capabilitiesRestricted,
  summary: 'Containers must drop ALL capabilities and may add only NET_BIND_SERVICE (Windows pods exempt from 1.25).',
  evaluate: (pod, minor) => {
    if (windowsExempt(pod, minor)) return [];
    const hint = windowsOsHint(pod, minor);
    return pod.containers.flatMap((c): CheckFinding[] => {
      const caps = record(c.securityContext?.capabilities);
      const out: CheckFinding[] = [];
      if (!list(caps?.drop).includes(CAPABILITY_ALL)) {
        out.push({
          path: pod.at(`${c.path}.securityContext.capabilities.drop`),
          message: `${containerLabel(c.name)} does not drop ALL capabilities, which the restricted level requires.`,
          fix: `Set securityContext.capabilities.drop: ["ALL"].${hint}`,
        });
      }
      list(caps?.add).forEach((cap, j) => {
        if (typeof cap !== 'string' || cap === RESTRICTED_ALLOWED_CAPABILITY) return;
        out.push({
          path: pod.at(`${c.path}.securityContext.capabilities.add[${j}]`),
          message: `${containerLabel(c.name)} adds capability ${shown(cap)}: the restricted level allows adding only NET_BIND_SERVICE.`,
          fix: `Remove ${shown(cap)} from securityContext.capabilities.add.${hint}`,
        });
      });
      return out;
    });
  },
};

const procMountRestricted: PodSecurityCheck = {
  id: 'procMount_restricted',
  level: 'restricted',
  since: POLICY_GATES.userNamespaces,
  summary: 'procMount must be unset or Default, even for pods with hostUsers: false.',
  evaluate: (pod) => procMountFindings(pod, 'restricted'),
};

/** Every restricted-only check, in upstream's evaluation order (sorted by id). */
export const RESTRICTED_CHECKS: readonly PodSecurityCheck[] = [
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  procMountRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
];
