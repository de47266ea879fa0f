/**
 * windows-nfs-volume: the in-tree NFS plugin has limited Windows support; SMB through smb.csi.k8s.io is the
 * supported share (https://kubernetes.io/docs/concepts/storage/windows-storage/).
 */
import { podVolumes } from '../model/pod-volumes';
import { has, join } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';
import { SPEC } from './cel-parts';

export default defineRule({
  meta: {
    id: 'windows-nfs-volume',
    family: 'pod-features',
    defaultSeverity: 'warning',
    summary: 'An nfs volume on a Windows pod.',
    rationale: 'NFS support on Windows nodes is limited; SMB through smb.csi.k8s.io is the supported share.',
    docs: STORAGE,
    severityReason: 'The in-tree NFS plugin has no Windows support; some setups mount NFS through CSI.',
  },
  messages: {
    nfs: {
      description: 'An nfs volume on a Windows pod.',
      message: '{path}: NFS support on Windows nodes is limited.',
      fix: 'Prefer SMB through the smb.csi.k8s.io CSI driver.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { v, path: base } of podVolumes(p)) {
        if (!has(v, 'nfs')) continue;
        const path = join(base, 'nfs');
        report({ path, messageId: 'nfs' });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `!variables.windows || !has(${SPEC}.volumes) || !${SPEC}.volumes.exists(v, has(v.nfs))`,
        message: {
          messageId: 'nfs',
          data: { path: `${SPEC}.volumes.filter(v, has(v.nfs)).map(v, 'volume ' + v.name + ' nfs').join(', ')` },
        },
      },
    ],
  }),
});
