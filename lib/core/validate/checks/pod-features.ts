/**
 * Pod features Windows nodes do not have (https://kubernetes.io/docs/concepts/windows/intro/): host networking outside HostProcess
 * (host ports: lib/core/rules/windows-host-port*.ts),
 * memory-backed emptyDir, raw block devices, mount propagation, Linux paths and Linux-only volume types.
 */
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { arr, has, isRecord, join, rec, show } from '../util';

/** In-tree volume plugins with no Windows implementation. */
const LINUX_ONLY_VOLUMES = [
  'cephfs',
  'glusterfs',
  'rbd',
  'iscsi',
  'fc',
  'flocker',
  'quobyte',
  'storageos',
  'scaleIO',
  'portworxVolume',
  'photonPersistentDisk',
] as const;

/** Linux system directories a Windows container does not have (its paths are C:\...). */
const LINUX_PATH = /^\/(?:var|etc|proc|sys|dev|run)(?:\/|$)/;
/** Kubernetes itself mounts the service account token here, as C:\var\run\secrets (https://kubernetes.io/docs/concepts/windows/intro/). */
const TOKEN_PATH = /^\/var\/run\/secrets(?:\/|$)/;

export function checkPodFeatures(p: PodFacts, report: Report): void {
  if (!p.windows) return;
  if (p.spec.hostNetwork === true && !p.hostProcess) {
    const path = join(p.path, 'hostNetwork');
    report(
      'windows-host-network',
      path,
      `${path} true is ignored: Windows pods get the host network only as HostProcess pods, so this pod runs on the pod network.`,
      'Remove hostNetwork, or make the pod HostProcess (securityContext.windowsOptions.hostProcess: true).',
    );
  }
  if (p.spec.dnsPolicy === 'ClusterFirstWithHostNet' && !p.hostProcess) {
    const path = join(p.path, 'dnsPolicy');
    report(
      'windows-dns-host-net',
      path,
      `${path} 'ClusterFirstWithHostNet' means nothing on a Windows pod outside HostProcess: it has no host network, and the kubelet gives it cluster DNS as with ClusterFirst.`,
      "Use dnsPolicy 'ClusterFirst' (the default), or make the pod HostProcess if it needs the host network.",
    );
  }
  arr(p.spec, 'volumes').forEach((v, i) => {
    if (!isRecord(v)) return;
    const base = `${join(p.path, 'volumes')}[${i}]`;
    if (rec(v, 'emptyDir')?.medium === 'Memory') {
      const path = join(base, 'emptyDir.medium');
      report(
        'windows-emptydir-memory',
        path,
        `${path} 'Memory': Windows has no tmpfs, so memory-backed emptyDir volumes are not supported.`,
        'Remove medium (a disk-backed emptyDir).',
      );
    }
    for (const type of LINUX_ONLY_VOLUMES) {
      if (!has(v, type)) continue;
      const path = join(base, type);
      report(
        'windows-linux-volume-type',
        path,
        `${path}: the ${type} volume plugin has no Windows implementation.`,
        'Use a CSI driver with Windows support (smb.csi.k8s.io, disk CSI drivers) through a PersistentVolumeClaim.',
      );
    }
    if (has(v, 'nfs')) {
      const path = join(base, 'nfs');
      report(
        'windows-nfs-volume',
        path,
        `${path}: NFS support on Windows nodes is limited.`,
        'Prefer SMB through the smb.csi.k8s.io CSI driver.',
      );
    }
  });
  for (const c of p.containers) {
    if (c.hostProcess) continue;
    if (arr(c.c, 'volumeDevices').length > 0) {
      const path = join(c.path, 'volumeDevices');
      report(
        'windows-volume-devices',
        path,
        `${path}: raw block volumes are not supported on Windows.`,
        'Use a filesystem volume (volumeMounts) instead.',
      );
    }
    arr(c.c, 'volumeMounts').forEach((m, i) => {
      if (!isRecord(m)) return;
      const base = `${join(c.path, 'volumeMounts')}[${i}]`;
      if (has(m, 'mountPropagation') && m.mountPropagation !== 'None') {
        const path = join(base, 'mountPropagation');
        report(
          'windows-mount-propagation',
          path,
          `${path} ${show(m.mountPropagation)}: mount propagation is not supported on Windows.`,
          'Remove mountPropagation.',
        );
      }
      const mountPath = m.mountPath;
      if (typeof mountPath === 'string' && LINUX_PATH.test(mountPath) && !TOKEN_PATH.test(mountPath)) {
        const path = join(base, 'mountPath');
        report(
          'windows-linux-mount-path',
          path,
          `${path} '${mountPath}' is a Linux path: in a Windows container it is mounted at C:${mountPath.replace(/\//g, '\\')}; that is right only if the app reads that path.`,
          `If the app expects a Windows location, mount at a Windows path, e.g. 'C:\\data' or 'C:/data'.`,
        );
      }
    });
  }
}
