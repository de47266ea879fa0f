/**
 * The facts as data: every fact has a source with the date of the material read and the day it was read, the tables hold together, and support follows the
 * dates (a release past a cloud's retirement date is retired with no code change).
 */
import fc from 'fast-check';
import {
  AKS_WINDOWS_ANNUAL_CHANNEL,
  CLOUD_DEFAULT_RELEASES,
  CLOUD_RELEASES,
  CLOUDS,
  cloudReleaseState,
  evaluationDate,
  factCatalogue,
  factsDates,
  factsMaterialDates,
  factSources,
  HOST_COMPATIBILITY,
  hostRunsImage,
  isIsoDate,
  KARPENTER_WINDOWS_ALIASES,
  lifecyclePhase,
  releaseSupport,
  sourceProblems,
  today,
  WINDOWS_CPU_MEMORY_AFFINITY_FACT,
  WINDOWS_EXPORTER_IMAGE_FACT,
  WINDOWS_RELEASE_FACTS,
  WINDOWS_RELEASES,
} from '../../lib/core/facts';
import { checkCloudRelease } from '../../lib/core/cloud-gates';
import { releaseInfo } from '../../lib/core/releases';
import { WindowsValidationError } from '../../lib/core/errors';
import { validateManifests } from '../../lib/core/validate';

const catalogue = factCatalogue();

describe('every fact has a source, the date of the material read and the day it was read', () => {
  test.each(catalogue.map((e) => [e.id, e] as const))('%s', (_id, entry) => {
    expect(entry.sources.length).toBeGreaterThan(0);
    for (const source of entry.sources) expect(sourceProblems(source, today())).toEqual([]);
    if (entry.verified === false) expect(entry.note).toEqual(expect.any(String));
    // A fact no opened source stands on is unverified, and says why.
    if (entry.sources.every((s) => s.materialDate === 'unverified')) {
      expect({ id: entry.id, verified: entry.verified }).toEqual({ id: entry.id, verified: false });
    }
  });

  test('a source is cited as what was opened: a URL (a repository file at a commit or tag), or a file of this repository', () => {
    for (const { source } of factSources(catalogue)) {
      expect(source.ref).toMatch(/^(?:https:\/\/\S+|lib\/\S+)$/);
      if (/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\//.test(source.ref)) {
        // A repository file names the commit or tag it was read at, never a branch.
        expect(source.ref).toMatch(/\/blob\/(?:[0-9a-f]{40}|v\d[\w.-]*)\//);
      }
    }
  });

  test('ids are unique', () => {
    expect(new Set(catalogue.map((e) => e.id)).size).toBe(catalogue.length);
  });

  test("the catalogue's newest and oldest check, and the dates of its material", () => {
    const all = catalogue.flatMap((e) => e.sources.map((s) => s.checked)).sort();
    expect(factsDates(catalogue)).toEqual({ newest: all[all.length - 1], oldest: all[0] });
    const material = factSources(catalogue).map(({ source }) => source.materialDate);
    const dated = material.filter(isIsoDate).sort();
    expect(factsMaterialDates(catalogue)).toEqual({
      oldest: dated[0],
      newest: dated[dated.length - 1],
      undated: material.filter((d) => d === 'undated').length,
      unverified: material.filter((d) => d === 'unverified').length,
    });
  });

  test('a source without the date of the material read, or with a bad date, fails', () => {
    const day = '2026-12-07';
    const ok = { ref: 'https://example.org/page', materialDate: '2026-08-21', checked: day };
    expect(sourceProblems(ok, day)).toEqual([]);
    expect(sourceProblems({ ...ok, materialDate: 'undated' }, day)).toEqual([]);
    expect(sourceProblems({ ...ok, materialDate: 'unverified' }, day)).toEqual([]);
    const { materialDate: _m, ...noMaterial } = ok;
    expect(sourceProblems(noMaterial, day)).toEqual([
      'https://example.org/page: no materialDate (the date of the material read)',
    ]);
    expect(sourceProblems({ ...ok, materialDate: '2026-13-01' }, day)).toEqual([
      'https://example.org/page: materialDate "2026-13-01" is not a YYYY-MM-DD date',
    ]);
    expect(sourceProblems({ ...ok, materialDate: '2026-12-08' }, day)).toEqual([
      'https://example.org/page: materialDate 2026-12-08 is after the day it was checked (2026-12-07)',
    ]);
    expect(sourceProblems({ ...ok, checked: '2026-12-08' }, day)).toEqual([
      'https://example.org/page: checked 2026-12-08 is after today (2026-12-07)',
    ]);
    const { checked: _c, ...noChecked } = ok;
    expect(sourceProblems(noChecked, day)).toEqual([
      'https://example.org/page: checked undefined is not a YYYY-MM-DD date',
    ]);
    expect(sourceProblems({ ...ok, ref: 'owner/repo/path@abc' }, day)).toEqual([
      'ref "owner/repo/path@abc" is neither an https URL nor a lib/ file',
    ]);
  });
});

describe('releases and lifecycle', () => {
  test('the release table reads the facts', () => {
    for (const r of WINDOWS_RELEASES) {
      const f = WINDOWS_RELEASE_FACTS[r];
      expect(releaseInfo(r)).toMatchObject({ build: f.build, imageTags: f.imageTags, displayName: f.displayName });
      expect(f.lifecycle.released < f.lifecycle.mainstreamEnd).toBe(true);
      expect(f.lifecycle.mainstreamEnd < f.lifecycle.extendedEnd).toBe(true);
    }
    expect(releaseInfo('2019').eksAmiTypes).toEqual({
      core: 'WINDOWS_CORE_2019_x86_64',
      full: 'WINDOWS_FULL_2019_x86_64',
    });
    expect(releaseInfo('2025').aksOsSku).toBe('Windows2025');
    expect(releaseInfo('2025').gkeOsVersion).toBeUndefined();
  });

  test('Windows Server 2022 left mainstream support on 2026-10-13; 2019 is deprecated since upstream dropped it', () => {
    expect(lifecyclePhase('2022', '2026-10-13')).toBe('mainstream');
    expect(lifecyclePhase('2022', '2026-10-14')).toBe('extended');
    expect(releaseSupport('2022', '2026-11-27')).toEqual({ state: 'supported', lifecycle: 'extended', reasons: [] });
    expect(releaseSupport('2019', '2025-12-18').state).toBe('supported');
    expect(releaseSupport('2019', '2026-11-27')).toEqual({
      state: 'deprecated',
      lifecycle: 'extended',
      reasons: ['upstream Kubernetes no longer lists it as a node OS (since 2025-12-19)'],
    });
    expect(releaseSupport('2019', '2029-01-10').reasons).toContain("Microsoft's extended support ended on 2029-01-09");
  });

  test('support only worsens with time (fast-check over days)', () => {
    const day = fc.date({ min: new Date('2018-01-01'), max: new Date('2040-12-31'), noInvalidDate: true });
    fc.assert(
      fc.property(fc.constantFrom(...WINDOWS_RELEASES), day, day, (r, a, b) => {
        const [early, late] = [evaluationDate(a), evaluationDate(b)].sort();
        const rank = { supported: 0, deprecated: 1 } as const;
        return rank[releaseSupport(r, early).state] <= rank[releaseSupport(r, late).state];
      }),
    );
  });

  test('the evaluation date defaults to today and refuses what is not a date', () => {
    expect(evaluationDate()).toBe(new Date().toISOString().slice(0, 10));
    expect(evaluationDate('2026-02-28')).toBe('2026-02-28');
    expect(() => evaluationDate('2026-02-30')).toThrow("The evaluation date '2026-02-30' is not a YYYY-MM-DD date.");
  });
});

describe('image ↔ host compatibility table', () => {
  test('a Windows Server 2025 host runs ltsc2022 images process-isolated; 2022 runs neither 2019 nor 2025', () => {
    expect(hostRunsImage('2025', '2022', 'process')).toBe(true);
    expect(hostRunsImage('2022', '2025', 'process')).toBe(false);
    expect(hostRunsImage('2022', '2019', 'process')).toBe(false);
    expect(hostRunsImage('2025', '2019', 'process')).toBe(false);
    expect(hostRunsImage('2025', '2019', 'hyperv')).toBe(true);
  });

  test('every host runs its own build; Hyper-V runs exactly the same or older builds; process ⊆ Hyper-V', () => {
    const build = (r: (typeof WINDOWS_RELEASES)[number]): number =>
      Number(WINDOWS_RELEASE_FACTS[r].build.split('.')[2]);
    for (const host of WINDOWS_RELEASES) {
      expect(HOST_COMPATIBILITY[host].process).toContain(host);
      expect(HOST_COMPATIBILITY[host].hyperv).toEqual(WINDOWS_RELEASES.filter((r) => build(r) <= build(host)));
      for (const r of HOST_COMPATIBILITY[host].process) expect(HOST_COMPATIBILITY[host].hyperv).toContain(r);
    }
  });
});

describe('clouds', () => {
  test('a retirement is dated and takes effect by the date alone', () => {
    for (const cloud of CLOUDS) {
      for (const r of WINDOWS_RELEASES) {
        const retirement = CLOUD_RELEASES[cloud][r]?.retirement;
        if (retirement === undefined) continue;
        expect(isIsoDate(retirement.on)).toBe(true);
        expect(cloudReleaseState(cloud, r, retirement.on)).toBe('retired');
        const dayBefore = new Date(Date.parse(`${retirement.on}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
        expect(cloudReleaseState(cloud, r, dayBefore)).toBe('offered');
        if (retirement.imagesRemovedOn !== undefined) {
          expect(cloudReleaseState(cloud, r, retirement.imagesRemovedOn)).toBe('images-removed');
        }
      }
    }
    expect(cloudReleaseState('aks', '2019', '2026-11-27')).toBe('retired');
    expect(cloudReleaseState('gke', '2025', '2026-11-27')).toBe('not-offered');
  });

  test("every cloud's default release steps are ordered and each default is offered where it applies", () => {
    for (const cloud of CLOUDS) {
      const steps = CLOUD_DEFAULT_RELEASES[cloud].steps;
      expect(steps[0].fromMinor).toBe(0);
      for (let i = 1; i < steps.length; i++) expect(steps[i].fromMinor).toBeGreaterThan(steps[i - 1].fromMinor);
      for (const step of steps) {
        const minor = Math.max(step.fromMinor, 25);
        expect(checkCloudRelease(cloud, step.release, `1.${minor}`, '2026-11-27')).toBeUndefined();
      }
    }
  });
});

describe('facts new in issue 34', () => {
  test("AKS's Annual Channel: osSKU WindowsAnnual, build 10.0.25398, ltsc2022 images, retired 2026-05-15", () => {
    expect(AKS_WINDOWS_ANNUAL_CHANNEL).toMatchObject({
      osSku: 'WindowsAnnual',
      build: '10.0.25398',
      runsImagesOf: '2022',
      retirement: { on: '2026-05-15', imagesRemovedOn: '2027-05-15' },
    });
    expect(hostRunsImage('2025', AKS_WINDOWS_ANNUAL_CHANNEL.runsImagesOf, 'process')).toBe(true);
    expect(catalogue.map((e) => e.id)).toContain('aks.windows-annual-channel');
  });

  test('Karpenter takes the windows2025 alias from v1.9.0, the older ones from v1.0.0', () => {
    expect(KARPENTER_WINDOWS_ALIASES.sinceKarpenter).toEqual({ '2019': 'v1.0.0', '2022': 'v1.0.0', '2025': 'v1.9.0' });
    expect(KARPENTER_WINDOWS_ALIASES['2025']).toBe('windows2025@latest');
  });

  test('KEP-4885 (Windows CPU and memory affinity): alpha 1.32, beta 1.38 read from a pre-release', () => {
    expect(WINDOWS_CPU_MEMORY_AFFINITY_FACT).toMatchObject({
      featureGate: 'WindowsCPUAndMemoryAffinity',
      alphaMinor: 32,
      betaMinor: 38,
      betaFromPreRelease: true,
    });
    expect(WINDOWS_CPU_MEMORY_AFFINITY_FACT.sources[0].ref).toContain('/v1.38.0-beta.0/');
  });

  test('windows_exporter: examples pin 0.31.8 and know of 0.32.0, each from its own source', () => {
    expect(WINDOWS_EXPORTER_IMAGE_FACT.image).toMatch(/:0\.31\.8$/);
    expect(WINDOWS_EXPORTER_IMAGE_FACT.newer?.version).toBe('0.32.0');
    expect(WINDOWS_EXPORTER_IMAGE_FACT.sources.map((s) => s.ref)).toEqual(
      expect.arrayContaining([expect.stringContaining('/releases/tag/v0.32.0')]),
    );
  });
});

describe('ValidateOptions.date', () => {
  const pod2019 = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'old' },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' },
      containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2019' }],
    },
  };
  const support = (date: string): string[] =>
    validateManifests([pod2019], { cloud: 'aks', kubernetesVersion: '1.31', date })
      .filter((d) => d.ruleId === 'windows-release-support')
      .map((d) => d.message);

  test('decides whether AKS has retired Windows Server 2019, with no code change', () => {
    expect(support('2026-02-28')).toEqual([]);
    expect(support('2026-03-01')).toEqual([
      'This pod needs Windows Server 2019 nodes: AKS retired Windows Server 2019 on 2026-03-01: no new pools on any Kubernetes version; its node images are deleted from 2027-04-01, after which existing pools cannot scale.',
    ]);
  });

  test('a value that is not a date is refused with the field and the fix', () => {
    expect(() => validateManifests([pod2019], { date: 'tomorrow' })).toThrow(WindowsValidationError);
    try {
      validateManifests([pod2019], { date: 'tomorrow' });
    } catch (e) {
      expect((e as WindowsValidationError).issues).toEqual([
        {
          path: 'date',
          message: 'Date "tomorrow" is not a calendar date written YYYY-MM-DD.',
          fix: expect.stringMatching(/^Write e\.g\. '\d{4}-\d{2}-\d{2}'\.$/),
        },
      ]);
    }
  });
});
