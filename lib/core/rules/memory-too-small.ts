/**
 * memory-too-small: a memory request or limit below a mebibyte, almost always a misread suffix: `800m` is 800
 * milli-bytes, 0.8 bytes, not 800 megabytes (`m` is milli; mega is `M`, mebi `Mi`:
 * https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/). No process runs in that: a
 * limit that small is refused or kills the container at start (Docker documents a floor of 6 MiB:
 * https://docs.docker.com/engine/containers/resource_constraints/#limit-a-containers-access-to-memory), and a
 * request that small reserves nothing on the node.
 */
import { parseQuantity } from '../model/quantity';
import { join, own, rec, show } from '../model/util';
import { QUANTITY } from './docs';
import { defineRule } from './rule';
import { celContainerName, celQuantity } from './cel-parts';
import { celString } from './cel';

/** The resource sections the check reads. */
const SECTIONS = ['requests', 'limits'] as const;
/** meant(), as the fix of the CEL form's message for the trimmed quantity `q`. */
const MEANT = (q: string): string =>
  `(${q}.matches('^[0-9]+(?:[.][0-9]+)?m$') ? 'Write ' + ${q}.substring(0, size(${q}) - 1) + 'Mi (mebibytes) if that is what was meant.' : ${q}.matches('^[0-9]+(?:[.][0-9]+)?k$') ? 'Write ' + ${q}.substring(0, size(${q}) - 1) + 'Ki (kibibytes) if that is what was meant.' : ${q}.matches('^[0-9]+(?:[.][0-9]+)?$') ? 'Write ' + ${q} + 'Mi (mebibytes) if that is what was meant.' : ${celString('Write the amount in Mi or Gi.')})`;

/** A mebibyte: below it a memory quantity cannot be meant. */
const MIN_MEMORY = 2 ** 20;

/** What the author most likely meant: `800m` → `800Mi`, a bare `512` → `512Mi`. */
function meant(value: unknown): string | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)(m|k|)\s*$/.exec(String(value));
  if (!m) return undefined;
  return `${m[1]}${m[2] === 'k' ? 'Ki' : 'Mi'}`;
}

export default defineRule({
  meta: {
    id: 'memory-too-small',
    family: 'resources',
    defaultSeverity: 'error',
    summary: 'A memory request or limit below 1Mi (memory: 800m is 0.8 bytes).',
    rationale:
      'm is milli, not mega: memory: 800m asks for 0.8 bytes. A limit that small cannot start a container; a request that small means the scheduler reserves nothing.',
    docs: QUANTITY,
    severityReason: 'The container cannot start under such a limit; such a request is never what was meant.',
  },
  messages: {
    'too-small': {
      description: "A memory request or limit below 1Mi (often an 'm', which is milli, meant as mega).",
      message: '{path} {value} is {value2} bytes{value3}: no container runs in less than a mebibyte.',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const c of p.containers) {
        const resources = rec(c.c, 'resources');
        for (const section of ['requests', 'limits'] as const) {
          const value = own(rec(resources, section), 'memory');
          const bytes = parseQuantity(value);
          if (bytes === undefined || bytes <= 0 || bytes >= MIN_MEMORY) continue;
          const path = join(c.path, 'resources', section, 'memory');
          const guess = meant(value);
          report({
            path,
            messageId: 'too-small',
            data: {
              value: show(value),
              value2: +bytes.toPrecision(6),
              value3: /m\s*$/.test(String(value)) ? " ('m' is milli, not mega)" : '',
              fix: guess ? `Write ${guess} (mebibytes) if that is what was meant.` : 'Write the amount in Mi or Gi.',
            },
          });
        }
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Per container, its memory requests and limits below a mebibyte, as findings.
        name: 'mts_found',
        expression: `variables.containers.filter(c, has(c.resources)).map(c, [${SECTIONS.map((s) => `has(c.resources.${s}) && 'memory' in c.resources.${s} ? [string(c.resources.${s}.memory).trim()].map(q, [${celQuantity('q')}].map(b, b > 0.0 && b < ${MIN_MEMORY}.0 ? ${celContainerName('c')} + " resources.${s}.memory '" + q + "' is " + string(b) + ' bytes' + (q.endsWith('m') ? " ('m' is milli, not mega)" : '') + ': no container runs in less than a mebibyte. ' + ${MEANT('q')} : '')[0])[0] : ''`).join(', ')}].filter(m, m != '')).filter(l, size(l) > 0).map(l, l.join(' '))`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.mts_found) == 0',
        messageExpression: `'memory-too-small: ' + variables.mts_found.join(' ')`,
      },
    ],
  }),
});
