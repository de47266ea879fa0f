/** windows-volume-devices: raw block volumes are not supported on Windows (https://kubernetes.io/docs/concepts/storage/windows-storage/). */
import { arr, join } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';
import { celContainerName, NON_HOST_PROCESS_CONTAINERS } from './cel-parts';

export default defineRule({
  meta: {
    id: 'windows-volume-devices',
    family: 'pod-features',
    defaultSeverity: 'error',
    summary: 'volumeDevices (raw block) on a Windows container.',
    rationale: 'Raw block volumes are not supported on Windows.',
    docs: STORAGE,
    severityReason: 'The volume cannot be attached on Windows.',
  },
  messages: {
    'volume-devices': {
      description: 'volumeDevices on a Windows container.',
      message: '{path}: raw block volumes are not supported on Windows.',
      fix: 'Use a filesystem volume (volumeMounts) instead.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const c of p.containers) {
        if (c.hostProcess || arr(c.c, 'volumeDevices').length === 0) continue;
        const path = join(c.path, 'volumeDevices');
        report({ path, messageId: 'volume-devices' });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `!variables.windows || ${NON_HOST_PROCESS_CONTAINERS}.all(c, !has(c.volumeDevices) || size(c.volumeDevices) == 0)`,
        message: {
          messageId: 'volume-devices',
          data: {
            path: `${NON_HOST_PROCESS_CONTAINERS}.filter(c, has(c.volumeDevices) && size(c.volumeDevices) > 0).map(c, ${celContainerName('c')} + ' volumeDevices').join(', ')`,
          },
        },
      },
    ],
  }),
});
