/**
 * windows-memory-request-limit: Windows enforces memory limits with job objects and has no OOM killer, so memory
 * overcommitted through a request below the limit pages the whole node
 * (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/#resource-management-memory).
 */
import { parseQuantity } from '../model/quantity';
import { has, join, own, rec, show } from '../model/util';
import { RESOURCES } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-memory-request-limit',
    family: 'resources',
    refusedByConstructs: true,
    defaultSeverity: 'info',
    summary: 'A Windows container whose memory request differs from its limit.',
    rationale:
      'Windows has no OOM killer: job objects page instead, so overcommitted memory degrades the node; set request = limit or only the limit.',
    docs: RESOURCES,
    severityReason: 'The pod runs; overcommit degrades the node only under memory pressure.',
  },
  messages: {
    'no-limit': {
      description: 'A memory request with no memory limit.',
      message:
        '{path} {request} has no memory limit: Windows has no OOM killer, so the container pages the node instead of being stopped.',
      fix: 'Set resources.limits.memory to {request} (or set only the limit).',
    },
    differs: {
      description: 'A memory request that differs from the memory limit.',
      message:
        '{path} {request} differs from limits.memory {limit}: Windows overcommits by paging, which slows the whole node.',
      fix: 'Set requests.memory equal to limits.memory ({limit}), or set only the limit.',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Give the container equal memory request and limit: `resources: { memory: { request: Size.gibibytes(2), limit: Size.gibibytes(2) } }`, or only the limit.',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const c of p.containers) {
        const resources = rec(c.c, 'resources');
        const requests = rec(resources, 'requests');
        if (c.hostProcess || !has(requests, 'memory')) continue;
        const request = own(requests, 'memory');
        const limit = own(rec(resources, 'limits'), 'memory');
        const path = join(c.path, 'resources.requests.memory');
        if (limit === undefined || limit === null) {
          report({ path, messageId: 'no-limit', data: { request: show(request) } });
          continue;
        }
        if (request === limit) continue; // the common case, and what the constructs write: no parsing
        const r = parseQuantity(request);
        const l = parseQuantity(limit);
        if (r === undefined || l === undefined || Math.abs(r - l) <= 1e-9 * Math.max(Math.abs(r), Math.abs(l), 1)) {
          continue;
        }
        report({ path, messageId: 'differs', data: { request: show(request), limit: show(limit) } });
      }
    },
  },
});
