/** windows-emptydir-memory: Windows has no tmpfs (https://kubernetes.io/docs/concepts/storage/windows-storage/). */
import { podVolumes } from '../model/pod-volumes';
import { join, rec } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';
import { celPresent, SPEC } from './cel-parts';

/** A memory-backed emptyDir volume `v`, in CEL. */
const MEMORY_EMPTY_DIR = `${celPresent('v', 'emptyDir', 'medium')} && v.emptyDir.medium == 'Memory'`;

export default defineRule({
  meta: {
    id: 'windows-emptydir-memory',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'emptyDir with medium: Memory on a Windows pod.',
    rationale: 'Windows has no tmpfs; memory-backed emptyDir volumes are not supported.',
    docs: STORAGE,
    severityReason: 'The volume cannot be created on Windows.',
  },
  messages: {
    'memory-medium': {
      description: 'An emptyDir with medium: Memory on a Windows pod.',
      message: "{path} 'Memory': Windows has no tmpfs, so memory-backed emptyDir volumes are not supported.",
      fix: 'Remove medium (a disk-backed emptyDir).',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Drop `medium: EmptyDirMedium.MEMORY` from `Volume.fromEmptyDir(...)` (a disk-backed emptyDir).',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { v, path: base } of podVolumes(p)) {
        if (rec(v, 'emptyDir')?.medium !== 'Memory') continue;
        const path = join(base, 'emptyDir.medium');
        report({ path, messageId: 'memory-medium' });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `!variables.windows || !has(${SPEC}.volumes) || !${SPEC}.volumes.exists(v, ${MEMORY_EMPTY_DIR})`,
        messageExpression: `'windows-emptydir-memory: ' + ${SPEC}.volumes.filter(v, ${MEMORY_EMPTY_DIR}).map(v, 'volume ' + v.name + ' emptyDir.medium Memory').join(', ') + ': Windows has no tmpfs, so memory-backed emptyDir volumes are not supported. Remove medium (a disk-backed emptyDir).'`,
      },
    ],
  }),
});
