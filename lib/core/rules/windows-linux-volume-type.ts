/**
 * windows-linux-volume-type: in-tree volume plugins with no Windows implementation
 * (https://kubernetes.io/docs/concepts/storage/windows-storage/).
 */
import { podVolumes } from '../model/pod-volumes';
import { has, join } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';
import { SPEC } from './cel-parts';

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

export default defineRule({
  meta: {
    id: 'windows-linux-volume-type',
    family: 'pod-features',
    defaultSeverity: 'error',
    summary: 'A Linux-only volume type (cephfs, glusterfs, rbd, iscsi, fc, ...) on a Windows pod.',
    rationale: 'These in-tree volume plugins have no Windows implementation.',
    docs: STORAGE,
    severityReason: 'The volume plugin has no Windows implementation.',
  },
  messages: {
    'linux-volume': {
      description: 'A Linux-only volume type on a Windows pod.',
      message: '{path}: the {type} volume plugin has no Windows implementation.',
      fix: 'Use a CSI driver with Windows support (smb.csi.k8s.io, disk CSI drivers) through a PersistentVolumeClaim.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { v, path: base } of podVolumes(p)) {
        for (const type of LINUX_ONLY_VOLUMES) {
          if (!has(v, type)) continue;
          const path = join(base, type);
          report({ path, messageId: 'linux-volume', data: { type } });
        }
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each volume of a Linux-only type, as `volume <name> <type>`, for the message.
        name: 'wlvt_found',
        expression: `has(${SPEC}.volumes) ? ${SPEC}.volumes.map(v, ${LINUX_ONLY_VOLUMES.map((t) => `(has(v.${t}) ? ['volume ' + v.name + ' ${t}'] : [])`).join(' + ')}).filter(l, size(l) > 0).map(l, l.join(', ')) : []`,
      },
    ],
    validations: [
      {
        expression: `!variables.windows || size(variables.wlvt_found) == 0`,
        messageExpression: `'windows-linux-volume-type: ' + variables.wlvt_found.join(', ') + ': the volume plugin has no Windows implementation. Use a CSI driver with Windows support (smb.csi.k8s.io, disk CSI drivers) through a PersistentVolumeClaim.'`,
      },
    ],
  }),
});
