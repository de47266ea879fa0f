/**
 * windows-hugepages: huge pages do not exist on Windows nodes
 * (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 */
import { join, rec, show } from '../model/util';
import { RESOURCES } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-hugepages',
    family: 'resources',
    defaultSeverity: 'error',
    summary: 'hugepages-* resources on a Windows container.',
    rationale: 'Huge pages are not supported on Windows nodes.',
    docs: RESOURCES,
    severityReason: 'Not supported on Windows nodes.',
  },
  messages: {
    hugepages: { description: 'A hugepages-* request or limit on a Windows container.' },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const c of p.containers) {
        const resources = rec(c.c, 'resources');
        for (const section of ['requests', 'limits'] as const) {
          const values = rec(resources, section);
          for (const name of Object.keys(values ?? {})) {
            if (!name.startsWith('hugepages-')) continue;
            const path = join(c.path, 'resources', section, `[${name}]`);
            report(
              path,
              `${path} ${show(values?.[name])}: huge pages are not supported on Windows.`,
              `Remove ${name}.`,
              undefined,
              'hugepages',
            );
          }
        }
      }
    },
  },
});
