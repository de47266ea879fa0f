/**
 * `k8s-windows facts`: what this version believes — releases, builds, lifecycle and support status at the
 * evaluation date, image↔host compatibility, cloud gates and defaults, the newest Kubernetes known — with the days
 * the facts were read and the dates of the material they were read in, and every source as its URL. Text for people,
 * JSON for tools.
 */
import { knownMinors, newestMinor } from '../core/api/schema';
import {
  AKS_WINDOWS_ANNUAL_CHANNEL,
  CLOUD_DEFAULT_RELEASES,
  CLOUD_NAMES,
  CLOUD_RELEASES,
  CLOUDS,
  cloudReleaseState,
  factCatalogue,
  factsDates,
  factsMaterialDates,
  factSources,
  HOST_COMPATIBILITY,
  releaseSupport,
  WINDOWS_RELEASE_FACTS,
  WINDOWS_RELEASES,
  type IsoDate,
} from '../core/facts';

/** The facts at `date`, as plain data (the JSON output). */
export function factsReport(date: IsoDate, tool: { name: string; version: string }): Record<string, unknown> {
  const catalogue = factCatalogue();
  const checked = factsDates(catalogue);
  const material = factsMaterialDates(catalogue);
  const build = (r: (typeof WINDOWS_RELEASES)[number]): string => WINDOWS_RELEASE_FACTS[r].build;
  return {
    tool: { ...tool, factsChecked: checked, factsMaterial: material },
    date,
    kubernetes: { newest: `1.${newestMinor()}`, known: knownMinors().map((m) => `1.${m}`) },
    releases: WINDOWS_RELEASES.map((r) => {
      const f = WINDOWS_RELEASE_FACTS[r];
      const support = releaseSupport(r, date);
      return {
        release: r,
        displayName: f.displayName,
        build: f.build,
        imageTags: f.imageTags,
        firstKubernetesMinor: `1.${f.firstKubernetesMinor}`,
        lifecycle: f.lifecycle,
        ...(f.upstreamDroppedOn !== undefined ? { upstreamDroppedOn: f.upstreamDroppedOn } : {}),
        support: { state: support.state, lifecycle: support.lifecycle, reasons: support.reasons },
      };
    }),
    compatibility: WINDOWS_RELEASES.map((host) => ({
      host: build(host),
      release: host,
      process: HOST_COMPATIBILITY[host].process.map(build),
      hyperv: HOST_COMPATIBILITY[host].hyperv.map(build),
    })),
    clouds: Object.fromEntries(
      CLOUDS.map((cloud) => [
        cloud,
        {
          releases: WINDOWS_RELEASES.flatMap((r) => {
            const f = CLOUD_RELEASES[cloud][r];
            if (f === undefined) return [];
            return [
              {
                release: r,
                names: f.names,
                firstMinor: `1.${f.firstMinor}`,
                ...(f.lastMinor !== undefined ? { lastMinor: `1.${f.lastMinor}` } : {}),
                ...(f.retirement !== undefined ? { retirement: f.retirement } : {}),
                state: cloudReleaseState(cloud, r, date),
              },
            ];
          }),
          defaultRelease: CLOUD_DEFAULT_RELEASES[cloud].steps.map((s) => ({
            fromMinor: `1.${s.fromMinor}`,
            release: s.release,
          })),
        },
      ]),
    ),
    facts: catalogue,
  };
}

/** The facts at `date`, for people. */
export function formatFactsText(date: IsoDate, tool: { name: string; version: string }): string {
  const catalogue = factCatalogue();
  const { newest, oldest } = factsDates(catalogue);
  const material = factsMaterialDates(catalogue);
  const lines: string[] = [];
  lines.push(
    `${tool.name} ${tool.version}: facts checked ${oldest} to ${newest}, from material dated ${material.oldest} to ${material.newest}; support judged at ${date}.`,
  );
  const undated = [
    material.undated > 0 ? `${material.undated} source${material.undated === 1 ? '' : 's'} show no date` : '',
    material.unverified > 0 ? `${material.unverified} could not be opened (unverified)` : '',
  ].filter((x) => x !== '');
  if (undated.length > 0) lines.push(`${undated.join('; ')}.`);
  lines.push(
    `Newest Kubernetes known: 1.${newestMinor()} (API schema of ${knownMinors()
      .map((m) => `1.${m}`)
      .join(', ')}).`,
  );
  lines.push('', 'Windows Server releases:');
  for (const r of WINDOWS_RELEASES) {
    const f = WINDOWS_RELEASE_FACTS[r];
    const s = releaseSupport(r, date);
    lines.push(
      `  ${r}  build ${f.build}  tags ${f.imageTags.join(', ')}  from Kubernetes 1.${f.firstKubernetesMinor}`,
      `        mainstream to ${f.lifecycle.mainstreamEnd}, extended to ${f.lifecycle.extendedEnd}: ${s.lifecycle}; ${s.state}${s.reasons.length > 0 ? `: ${s.reasons.join('; ')}` : ''}`,
    );
  }
  lines.push('', 'Image builds each host runs (process | Hyper-V):');
  for (const host of WINDOWS_RELEASES) {
    const c = HOST_COMPATIBILITY[host];
    lines.push(
      `  ${host} host: ${c.process.map((r) => `ltsc${r}`).join(', ')} | ${c.hyperv.map((r) => `ltsc${r}`).join(', ')}`,
    );
  }
  lines.push('', 'Clouds (Kubernetes minors per release, retirement, state; default release by version):');
  for (const cloud of CLOUDS) {
    lines.push(`  ${CLOUD_NAMES[cloud]}`);
    for (const r of WINDOWS_RELEASES) {
      const f = CLOUD_RELEASES[cloud][r];
      if (f === undefined) {
        lines.push(`    ${r}  not offered`);
        continue;
      }
      const range = `1.${f.firstMinor}${f.lastMinor !== undefined ? `-1.${f.lastMinor}` : '+'}`;
      const retire =
        f.retirement !== undefined
          ? `  ${date >= f.retirement.on ? 'retired' : 'retires'} ${f.retirement.on}${f.retirement.imagesRemovedOn !== undefined ? `, images removed ${date >= f.retirement.imagesRemovedOn ? '' : 'from '}${f.retirement.imagesRemovedOn}` : ''}`
          : '';
      lines.push(`    ${r}  ${f.names.join(', ')}  ${range}${retire}  [${cloudReleaseState(cloud, r, date)}]`);
    }
    if (cloud === 'aks') {
      const a = AKS_WINDOWS_ANNUAL_CHANNEL;
      const r = a.retirement;
      lines.push(
        `    Annual Channel  ${a.osSku}  build ${a.build}, runs ltsc${a.runsImagesOf} images  ${date >= r.on ? 'retired' : 'retires'} ${r.on}${r.imagesRemovedOn !== undefined ? `, images removed ${date >= r.imagesRemovedOn ? '' : 'from '}${r.imagesRemovedOn}` : ''}`,
      );
    }
    const steps = CLOUD_DEFAULT_RELEASES[cloud].steps;
    lines.push(
      `    default: ${steps.map((s, i) => (i === 0 ? `'${s.release}'` : `'${s.release}' from 1.${s.fromMinor}`)).join(', ')}`,
    );
  }
  const unverified = catalogue.filter((e) => e.verified === false);
  if (unverified.length > 0) {
    lines.push('', 'Unverified (used leniently):');
    for (const e of unverified) lines.push(`  ${e.id}: ${e.note ?? e.title}`);
  }
  lines.push('', 'Sources (material date, day read; the facts citing them):');
  for (const { source, facts } of factSources(catalogue)) {
    lines.push(
      `  ${source.ref}`,
      `        ${source.materialDate === 'unverified' ? `not opened on ${source.checked} (unverified)` : `${source.materialDate}, read ${source.checked}`}: ${facts.join(', ')}`,
    );
  }
  lines.push('', `Every fact with what each source says: ${tool.name} facts --format json, or docs/facts.md.`, '');
  return lines.join('\n');
}
