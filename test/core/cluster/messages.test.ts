/**
 * The message catalogue holds together: every entry is cited with both dates, an entry said verified cites no
 * unverified source, every example matches its own pattern (and only entries of its rule), every entry has its
 * interpretation in explain.ts, and every example placed on a stuck Windows pod yields a finding of the entry's rule.
 */
import { explainPod, interpretedPatternIds } from '../../../lib/core/cluster/explain';
import { DOCTOR_RULE_IDS, MESSAGE_PATTERNS, MESSAGES_CHECKED, matchMessage } from '../../../lib/core/cluster/messages';
import { isIsoDate } from '../../../lib/core/facts/types';
import { podEvent, startError, windowsPod } from './fixtures';

describe('the catalogue', () => {
  test('ids are unique and kebab-case; every rule is reported by some entry', () => {
    const ids = MESSAGE_PATTERNS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [...ids, ...DOCTOR_RULE_IDS]) expect(id).toMatch(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/);
    const reported = new Set(MESSAGE_PATTERNS.flatMap((p) => [p.ruleId, ...(p.alsoReports ?? [])]));
    expect([...DOCTOR_RULE_IDS].filter((r) => !reported.has(r))).toEqual([]);
  });

  test('every source has a ref, both dates and its words; verified entries cite no unverified source', () => {
    const problems: string[] = [];
    for (const p of MESSAGE_PATTERNS) {
      if (p.sources.length === 0) problems.push(`${p.id}: no source`);
      for (const s of p.sources) {
        if (!/^https:\/\/github\.com\/\S+$/.test(s.ref)) problems.push(`${p.id}: ref ${s.ref}`);
        if (s.checked !== MESSAGES_CHECKED) problems.push(`${p.id}: checked ${s.checked}`);
        const date = s.materialDate;
        if (date !== 'undated' && date !== 'unverified' && !(isIsoDate(date) && date <= s.checked))
          problems.push(`${p.id}: materialDate ${date}`);
        if (s.says.trim() === '') problems.push(`${p.id}: ${s.ref} says nothing`);
        if (/\/blob\/[0-9a-f]{40}\//.test(s.ref) === false && !/\/(issues|pull)\/\d+$/.test(s.ref))
          problems.push(`${p.id}: ${s.ref} is neither a file at a commit nor an issue`);
      }
      const unverified = p.sources.some((s) => s.materialDate === 'unverified');
      if (p.verified === unverified)
        problems.push(`${p.id}: verified ${p.verified} but unverified sources ${unverified}`);
    }
    expect(problems).toEqual([]);
  });

  test('the only unverified text is the pod-level resources refusal', () => {
    expect(MESSAGE_PATTERNS.filter((p) => !p.verified).map((p) => p.id)).toEqual(['apiserver-windows-pod-resources']);
  });

  test('every example matches its own pattern, and no entry of another rule', () => {
    for (const p of MESSAGE_PATTERNS) {
      const matched = matchMessage(p.example);
      expect(matched.map((m) => m.pattern.id)).toContain(p.id);
      const rules = new Set([p.ruleId, ...(p.alsoReports ?? [])]);
      // The scheduler's example also names the nodes its selector fails (no cause when fewer than all).
      const foreign = matched.filter(
        (m) => !rules.has(m.pattern.ruleId) && !(p.within && m.pattern.id === 'scheduler-node-affinity'),
      );
      expect(foreign.map((m) => `${p.id} → ${m.pattern.id}`)).toEqual([]);
    }
  });

  test('patterns carry no g flag (matchMessage walks repeats itself)', () => {
    expect(MESSAGE_PATTERNS.filter((p) => p.pattern.flags.includes('g')).map((p) => p.id)).toEqual([]);
  });

  test('explain.ts interprets exactly the catalogue', () => {
    expect([...interpretedPatternIds()].sort()).toEqual(MESSAGE_PATTERNS.map((p) => p.id).sort());
  });

  test('each example on a stuck Windows pod yields a finding of its rule', () => {
    for (const p of MESSAGE_PATTERNS) {
      const pod = windowsPod(
        {
          hostNetwork: true,
          containers: [
            {
              name: 'web',
              image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
              command: ['C:\\app\\web.exe'],
              securityContext: { windowsOptions: { gmsaCredentialSpecName: 'gmsa-webapp1' } },
            },
          ],
        },
        startError('web', 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', 'back-off'),
      );
      const findings = explainPod(pod, [podEvent('Failed', p.example, { fieldPath: 'spec.containers{web}' })]);
      const rules = new Set([p.ruleId, ...(p.alsoReports ?? [])]);
      expect({ id: p.id, found: findings.some((f) => rules.has(f.ruleId) && f.patternId === p.id) }).toEqual({
        id: p.id,
        found: true,
      });
    }
  });

  test('matchMessage finds every occurrence of a repeated phrase, and nothing in non-text', () => {
    const text =
      'Error creating: Pod "web-1" is invalid: [spec.hostPID: Forbidden: cannot be set for a windows pod, spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod, spec.initContainers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod]';
    expect(matchMessage(text).map((m) => m.match[1])).toEqual([
      'spec.hostPID',
      'spec.securityContext.sysctls',
      'spec.initContainers[0].securityContext.privileged',
    ]);
    for (const x of [undefined, null, 7, {}, '']) expect(matchMessage(x)).toEqual([]);
  });
});
