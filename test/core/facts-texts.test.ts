/**
 * The README, CONTRIBUTING.md and docs/, the rule catalogue, the rule pages and --help state no Windows fact the data does not hold: builds,
 * cloud gates (release ↔ Kubernetes minor), dates of support and retirement, and no claim we found stale.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { helpText } from '../../lib/cli/help';
import { COMMANDS } from '../../lib/cli/args';
import { CLOUD_RELEASES, factCatalogue, WINDOWS_RELEASE_FACTS, type Cloud } from '../../lib/core/facts';
import { RETIRED_RELEASES, type WindowsRelease } from '../../lib/core/releases';
import { RULES } from '../../lib/core/validate';
import { readDocPages } from '../../scripts/readme-examples';

const ROOT = path.join(__dirname, '..', '..');
const RULE_PAGES = path.join(ROOT, 'docs', 'rules');

const texts: readonly (readonly [where: string, text: string])[] = [
  // docs/facts.md is the data itself, written from it.
  ...readDocPages()
    .filter(({ page }) => page !== 'docs/facts.md')
    .map(({ page, text }) => [page, text] as const),
  ...readdirSync(RULE_PAGES).map((f) => [`docs/rules/${f}`, readFileSync(path.join(RULE_PAGES, f), 'utf8')] as const),
  ...RULES.map(
    (r) => [`rule ${r.id}`, [r.summary, r.rationale, r.severityReason, r.fixable ?? ''].join('\n')] as const,
  ),
  ...[undefined, ...COMMANDS].map((topic) => [`--help ${topic ?? ''}`, helpText(topic)] as const),
];

/** Every string value anywhere in the catalogue (its values and sources). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}
const factStrings = stringsOf(factCatalogue());
const factDates = new Set(factStrings.flatMap((s) => s.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []));

test('every Windows build a text names is one the data holds', () => {
  const known = new Set([
    ...Object.values(WINDOWS_RELEASE_FACTS).map((f) => f.build),
    ...RETIRED_RELEASES.map((r) => r.build),
  ]);
  for (const [where, text] of texts) {
    for (const m of text.matchAll(/\b10\.0\.(\d{5})\b/g)) {
      expect({ where, build: `10.0.${m[1]}`, known: known.has(`10.0.${m[1]}`) }).toEqual({
        where,
        build: `10.0.${m[1]}`,
        known: true,
      });
    }
  }
});

test("a cloud's release ↔ Kubernetes-version statement matches the gates", () => {
  // "EKS runs Windows Server 2025 from 1.35; AKS Windows2022 up to 1.36, Windows2025 from 1.32"
  const clause = /\b(EKS|AKS|GKE)\b((?:[^;()\n.]|\.(?=\d))*)/g;
  const claim = /Windows ?(?:Server )?(2019|2022|2025) (from|up to) (?:Kubernetes )?1\.(\d+)/g;
  let checked = 0;
  for (const [where, text] of texts) {
    for (const c of text.matchAll(clause)) {
      const cloud = c[1].toLowerCase() as Cloud;
      for (const m of c[2].matchAll(claim)) {
        const gate = CLOUD_RELEASES[cloud][m[1] as WindowsRelease];
        const bound = m[2] === 'from' ? gate?.firstMinor : gate?.lastMinor;
        expect({ where, statement: `${c[1]} ${m[0]}`, minor: Number(m[3]) }).toEqual({
          where,
          statement: `${c[1]} ${m[0]}`,
          minor: bound,
        });
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThanOrEqual(3);
});

test('every date a text gives for support, retirement or lifecycle is a date the data holds', () => {
  const sentence = /[^.\n]*\b(?:retire|retired|retires|support|mainstream|extended|lists?)\b[^.\n]*/gi;
  let checked = 0;
  for (const [where, text] of texts) {
    for (const s of text.matchAll(sentence)) {
      for (const d of s[0].match(/\b20\d\d-\d\d-\d\d\b/g) ?? []) {
        expect({ where, date: d, held: factDates.has(d) }).toEqual({ where, date: d, held: true });
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(0);
});

test('no text makes a claim the data contradicts', () => {
  const stale: readonly (readonly [RegExp, string])[] = [
    [/AWS is retiring/i, 'no AWS retirement of the 2019 EKS AMIs is known (facts: eks.release.2019)'],
    [
      /equal (?:image and host )?builds|needs? the image build to equal/i,
      'a 2025 host runs ltsc2022 images (facts: windows.compatibility)',
    ],
    [/default on every cloud|the default everywhere/i, 'AKS defaults to 2025 from 1.37 (facts: aks.default-release)'],
    [/WinDSR feature gate\)/i, 'WinDSR is GA since 1.34 (facts: kubernetes.windows-dsr)'],
    [/e\.g\. 'Windows2022'/, 'AKS refuses Windows2022 from 1.37 (facts: aks.release.2022)'],
    [/which GKE puts on Windows nodes/i, "GKE's own taint is unverified (facts: gke.windows-taint)"],
  ];
  for (const [where, text] of texts) {
    for (const [pattern, why] of stale) {
      expect({ where, why, found: pattern.exec(text)?.[0] }).toEqual({ where, why, found: undefined });
    }
  }
});
