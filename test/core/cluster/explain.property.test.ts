/**
 * The doctor's matcher as properties: a text no catalogue pattern matches yields no finding wherever it stands
 * (events, conditions, container states); arbitrary JSON as pod, events, nodes or owner never throws; and a
 * scheduler message with any counts and any Windows taint names that taint in the fix.
 */
import fc from 'fast-check';
import { explainOwner, explainPod } from '../../../lib/core/cluster/explain';
import { matchMessage, MESSAGE_PATTERNS } from '../../../lib/core/cluster/messages';
import { propertyParameters } from '../../helpers/property';
import { MIXED_NODES, podEvent, startError, unschedulable, windowsPod } from './fixtures';

/** Words of the real messages, cut and mixed, so the texts come near the patterns without being them. */
const fragment = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '0/5 nodes are available: ',
    '3 node(s) had untolerated taint ',
    "node(s) didn't match Pod's node affinity/selector",
    'no match for platform',
    'in manifest',
    'hcs::System::CreateProcess 5444: ',
    'The system cannot find the file specified.',
    'The container operating system does not match',
    'failed to create user process token',
    'failed to find executable',
    'spec.securityContext.runAsUser: Forbidden: ',
    'cannot be set for a linux pod',
    'GMSA cred spec',
    '{os: windows}',
    ', ',
    '. ',
  ),
);
const nearText = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));
const unmatched = fc.oneof(fc.string({ unit: 'binary' }), nearText).filter((t) => matchMessage(t).length === 0);

describe('properties', () => {
  test('a text no pattern matches yields no finding, in any place of a stuck Windows pod', () => {
    fc.assert(
      fc.property(unmatched, (text) => {
        const pod = windowsPod(
          {
            containers: [
              { name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['powershell'] },
            ],
          },
          { ...startError('web', 'x', text), ...unschedulable(text) },
        );
        const events = [
          podEvent('Failed', text, { fieldPath: 'spec.containers{web}' }),
          podEvent('FailedScheduling', text),
        ];
        expect(explainPod(pod, events, { nodes: MIXED_NODES })).toEqual([]);
      }),
      propertyParameters(),
    );
  });

  test('arbitrary JSON never throws, and findings are always well formed', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const eventLike = fc.record(
      {
        involvedObject: fc.oneof(json, fc.constant({ kind: 'Pod', name: 'web-7d4b9c8f6-x2x9k', namespace: 'shop' })),
        reason: fc.oneof(json, fc.constantFrom('Failed', 'FailedScheduling', 'FailedCreate')),
        message: fc.oneof(json, unmatched, fc.constantFrom(...MESSAGE_PATTERNS.map((p) => p.example))),
        lastTimestamp: fc.oneof(json, fc.constant('2026-12-07T10:02:00Z')),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.oneof(json, fc.constant(windowsPod())),
        fc.array(fc.oneof(json, eventLike), { maxLength: 4 }),
        fc.oneof(json, fc.record({ nodes: fc.oneof(json, fc.constant(MIXED_NODES)) })),
        (pod, events, options) => {
          const findings = [
            ...explainPod(pod, events, options as object),
            ...explainOwner(pod, events, options as object),
          ];
          for (const f of findings) {
            expect(typeof f.message).toBe('string');
            expect(typeof f.fix).toBe('string');
            expect(typeof f.path).toBe('string');
            expect(typeof f.evidence.text).toBe('string');
          }
        },
      ),
      propertyParameters(),
    );
  });

  test('any counts and any Windows taint: the fix tolerates that taint', () => {
    const token = fc.stringMatching(/^[a-z0-9][a-z0-9./_-]{0,20}$/);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 5000 }),
        token,
        fc.oneof(
          fc.constant('windows'),
          token.map((t) => `${t}-windows`),
        ),
        (tainted, other, key, value) => {
          const total = tainted + other;
          const reasons = [`${tainted} node(s) had untolerated taint {${key}: ${value}}`];
          if (other > 0) reasons.push(`${other} node(s) didn't match Pod's node affinity/selector`);
          const text = `0/${total} nodes are available: ${reasons.sort().join(', ')}. preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`;
          const findings = explainPod(windowsPod({}, unschedulable(text)));
          expect(findings.map((f) => [f.ruleId, f.path])).toEqual([['doctor-untolerated-taint', 'spec.tolerations']]);
          expect(findings[0].fix).toContain(`{key: "${key}", operator: "Equal", value: "${value}"}`);
        },
      ),
      propertyParameters(),
    );
  });
});
