/**
 * Issue 23 from the command line: `k8s-windows facts`, `--date`, and the lint and fix outputs the facts changed
 * (an ltsc2022 image on Windows Server 2025 nodes is not an error; fix may still pin it to 2022 nodes).
 */
import { newestMinor } from '../../lib/core/api/schema';
import { factCatalogue, factsDates, factsMaterialDates, factSources } from '../../lib/core/facts';
import { cli, tempTree } from '../helpers/cli';

const IIS_ON_2025 = `apiVersion: v1
kind: Pod
metadata: {name: iis}
spec:
  os: {name: windows}
  nodeSelector:
    kubernetes.io/os: windows
    node.kubernetes.io/windows-build: 10.0.26100
  containers:
  - name: iis
    image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
`;

interface Finding {
  readonly ruleId: string;
  readonly severity: string;
  readonly path: string;
}

async function lintFindings(files: Record<string, string>, ...args: string[]): Promise<Finding[]> {
  const tree = tempTree(files);
  try {
    const r = await cli(['lint', '--format', 'json', ...args, ...Object.keys(files)], { cwd: tree.dir });
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  } finally {
    tree.cleanup();
  }
}

describe('lint: an ltsc2022 image on Windows Server 2025 nodes', () => {
  test('no image-build-mismatch (the issue reproduction)', async () => {
    const ids = (await lintFindings({ 'iis.yaml': IIS_ON_2025 })).map((f) => f.ruleId);
    expect(ids).not.toContain('image-build-mismatch');
    expect(ids).not.toContain('image-build-unpinned');
  });

  test('an ltsc2025 image on Windows Server 2022 nodes stays an error', async () => {
    const reverse = IIS_ON_2025.replace('10.0.26100', '10.0.20348').replace(
      'iis:windowsservercore-ltsc2022',
      'iis:windowsservercore-ltsc2025',
    );
    expect(await lintFindings({ 'iis.yaml': reverse })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ruleId: 'image-build-mismatch',
          severity: 'error',
          path: 'spec.containers[0].image',
        }),
      ]),
    );
  });
});

describe('fix: may pin a 2022 image to 2022 nodes, never calls it broken on 2025', () => {
  test('an unpinned ltsc2022 pod is pinned to the image build; a 2025-pinned one is left alone', async () => {
    const unpinned = IIS_ON_2025.replace('    node.kubernetes.io/windows-build: 10.0.26100\n', '');
    const tree = tempTree({ 'a.yaml': unpinned, 'b.yaml': IIS_ON_2025 });
    try {
      const a = await cli(['fix', 'a.yaml'], { cwd: tree.dir });
      expect(a.stdout).toContain('node.kubernetes.io/windows-build: 10.0.20348');
      const b = await cli(['fix', '--format', 'json', '--dry-run', 'b.yaml'], { cwd: tree.dir });
      const report = JSON.parse(b.stdout) as { findings: Finding[] };
      expect(report.findings.map((f) => f.ruleId)).not.toContain('image-build-mismatch');
    } finally {
      tree.cleanup();
    }
  });
});

describe('--date', () => {
  const POD_2019 = IIS_ON_2025.replace('10.0.26100', '10.0.17763').replace('ltsc2022', 'ltsc2019');

  test('AKS retired Windows Server 2019 on 2026-03-01: the day decides, not the code', async () => {
    const args = ['--cloud', 'aks', '--kubernetes-version', '1.31'];
    const before = await lintFindings({ 'p.yaml': POD_2019 }, ...args, '--date', '2026-02-28');
    expect(before.map((f) => f.ruleId)).not.toContain('windows-release-support');
    const after = await lintFindings({ 'p.yaml': POD_2019 }, ...args, '--date', '2026-03-01');
    expect(after).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ruleId: 'windows-release-support',
          path: 'spec.nodeSelector[node.kubernetes.io/windows-build]',
          message: expect.stringContaining('AKS retired Windows Server 2019 on 2026-03-01'),
        }),
      ]),
    );
  });

  test('a date that is not YYYY-MM-DD is a usage error naming the option and the fix', async () => {
    const r = await cli(['lint', '--date', '2026-2-30', '-']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^k8s-windows: --date: Date "2026-2-30" is not a calendar date written YYYY-MM-DD\. Fix|Write e\.g\./,
    );
  });
});

describe('k8s-windows facts', () => {
  test('text: the dates of the checks, releases, compatibility, gates and the newest Kubernetes', async () => {
    const r = await cli(['facts', '--date', '2026-11-27']);
    expect(r.code).toBe(0);
    const { newest, oldest } = factsDates();
    const material = factsMaterialDates();
    expect(r.stdout.split('\n')[0]).toMatch(
      new RegExp(
        `^k8s-windows \\S+: facts checked ${oldest} to ${newest}, from material dated ${material.oldest} to ${material.newest}; support judged at 2026-11-27\\.$`,
      ),
    );
    // Every source is printed as its URL (or file), with its material date.
    for (const { source } of factSources()) {
      const dates =
        source.materialDate === 'unverified'
          ? `not opened on ${source.checked} (unverified)`
          : `${source.materialDate}, read ${source.checked}`;
      expect(r.stdout).toContain(`  ${source.ref}\n        ${dates}: `);
    }
    expect(r.stdout).toContain('2025 host: ltsc2022, ltsc2025 | ltsc2019, ltsc2022, ltsc2025');
    expect(r.stdout).toContain(
      '2019  Windows2019  1.14-1.32  retired 2026-03-01, images removed from 2027-04-01  [retired]',
    );
    expect(r.stdout).toContain("default: '2022', '2025' from 1.37");
    expect(r.stdout).toMatch(/Newest Kubernetes known: 1\.\d+/);
  });

  test('json: every fact with its sources, and support at the date', async () => {
    const r = await cli(['facts', '--format', 'json', '--date', '2026-02-01']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      tool: { factsChecked: { newest: string; oldest: string }; factsMaterial: unknown };
      date: string;
      releases: { release: string; support: { state: string } }[];
      clouds: { aks: { releases: { release: string; state: string }[] } };
      facts: unknown[];
    };
    expect(report.date).toBe('2026-02-01');
    expect(report.tool.factsChecked).toEqual(factsDates());
    expect(report.tool.factsMaterial).toEqual(factsMaterialDates());
    expect(report.clouds.aks.releases.find((x) => x.release === '2019')?.state).toBe('offered');
    expect(report.releases.map((x) => x.support.state)).toEqual(['deprecated', 'supported', 'supported']);
    expect(report.facts).toHaveLength(factCatalogue().length);
  });

  test('bad options are named', async () => {
    const r = await cli(['facts', '--format', 'yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--format 'yaml' is not one of text, json.");
  });

  test('--help says what it prints', async () => {
    const r = await cli(['facts', '--help']);
    expect(r.stdout).toMatch(/^Usage: k8s-windows facts \[options\]/);
    expect(r.stdout).toContain('--date <YYYY-MM-DD>');
    expect(r.stdout).toContain(`(1.${newestMinor()})`);
    expect(r.stdout).not.toContain('${');
  });
});
