/** windows-mount-propagation: mount propagation is not supported on Windows (https://kubernetes.io/docs/concepts/storage/windows-storage/). */
import { podMounts } from '../model/pod-volumes';
import { has, join, show } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-mount-propagation',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'mountPropagation on a Windows volume mount.',
    rationale: 'Mount propagation is not supported on Windows.',
    docs: STORAGE,
    severityReason: 'Not supported on Windows.',
  },
  messages: {
    'mount-propagation': { description: 'mountPropagation on a Windows volume mount.' },
  },
  frontDoorFixes: {
    cdk8s: () => ({ fix: 'Remove `propagation` from the volume mount.' }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { m, path: base } of podMounts(p)) {
        if (!has(m, 'mountPropagation') || m.mountPropagation === 'None') continue;
        const path = join(base, 'mountPropagation');
        report(
          path,
          `${path} ${show(m.mountPropagation)}: mount propagation is not supported on Windows.`,
          'Remove mountPropagation.',
          undefined,
          'mount-propagation',
        );
      }
    },
  },
});
