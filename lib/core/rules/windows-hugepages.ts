/**
 * windows-hugepages: huge pages do not exist on Windows nodes
 * (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 */
import { join, rec, show } from '../model/util';
import { RESOURCES } from './docs';
import { defineRule } from './rule';
import { celContainerName } from './cel-parts';
import { celString } from './cel';

/** What the CEL form reads, as the check does: the resource sections and the huge-page resource names. */
const SECTIONS = ['requests', 'limits'] as const;
const HUGEPAGES_PREFIX = 'hugepages-';

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
    hugepages: {
      description: 'A hugepages-* request or limit on a Windows container.',
      message: '{path} {value}: huge pages are not supported on Windows.',
      fix: 'Remove {name}.',
    },
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
            report({ path, messageId: 'hugepages', data: { value: show(values?.[name]), name } });
          }
        }
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each hugepages-* resource a container asks for, for the message.
        name: 'whug_found',
        expression: `variables.containers.filter(c, has(c.resources)).map(c, ${SECTIONS.map((s) => `(has(c.resources.${s}) ? c.resources.${s}.filter(k, k.startsWith(${celString(HUGEPAGES_PREFIX)})).map(k, ${celContainerName('c')} + ' resources.${s}[' + k + ']') : [])`).join(' + ')}).filter(l, size(l) > 0).map(l, l.join(', '))`,
      },
    ],
    validations: [
      {
        expression: `!variables.windows || size(variables.whug_found) == 0`,
        messageExpression: `'windows-hugepages: ' + variables.whug_found.join(', ') + ': huge pages are not supported on Windows. Remove them.'`,
      },
    ],
  }),
});
