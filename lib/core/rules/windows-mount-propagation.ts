/** windows-mount-propagation: mount propagation is not supported on Windows (https://kubernetes.io/docs/concepts/storage/windows-storage/). */
import { podMounts } from '../model/pod-volumes';
import { has, join, show } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';
import { celContainerName, NON_HOST_PROCESS_CONTAINERS } from './cel-parts';

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
    'mount-propagation': {
      description: 'mountPropagation on a Windows volume mount.',
      message: '{path} {mountPropagation}: mount propagation is not supported on Windows.',
      fix: 'Remove mountPropagation.',
    },
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
        report({ path, messageId: 'mount-propagation', data: { mountPropagation: show(m.mountPropagation) } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The mounts of non-HostProcess containers that ask for propagation, for the message.
        name: 'wmp_mounts',
        expression: `${NON_HOST_PROCESS_CONTAINERS}.filter(c, has(c.volumeMounts)).map(c, c.volumeMounts.filter(m, has(m.mountPropagation) && m.mountPropagation != 'None').map(m, ${celContainerName('c')} + ' volumeMounts ' + m.name + ' mountPropagation ' + m.mountPropagation)).filter(l, size(l) > 0).map(l, l.join(', '))`,
      },
    ],
    validations: [
      {
        expression: `!variables.windows || size(variables.wmp_mounts) == 0`,
        messageExpression: `'windows-mount-propagation: ' + variables.wmp_mounts.join(', ') + ': mount propagation is not supported on Windows. Remove mountPropagation.'`,
      },
    ],
  }),
});
