/**
 * Every fact an engine rule, a construct or a component acts on, each with its source and the date it was checked.
 * `factCatalogue()` lists them for `k8s-windows facts`, docs/facts.md and the test that requires a source and a
 * date on each.
 */
import { knownMinors, newestMinor, schemaSources } from '../api/schema';
import { ADDON_IMAGE_FACTS, type AddonName } from './addons';
import {
  AKS_WINDOWS_ANNUAL_CHANNEL,
  CLOUD_DEFAULT_RELEASES,
  CLOUD_NAMES,
  CLOUD_RELEASES,
  CLOUDS,
  EKS_NO_WINDOWS_FAMILIES,
  EKS_WINDOWS_SSM_PARAMETER,
  KARPENTER_WINDOWS_ALIASES,
} from './clouds';
import {
  GKE_WINDOWS_TAINT_FACT,
  GMSA_WEBHOOK_IMAGE_FACT,
  HOSTPROCESS_BASE_IMAGE_FACT,
  NODE_LABEL_FACTS,
  WINDOWS_CPU_MEMORY_AFFINITY_FACT,
  WINDOWS_DSR_FACT,
  WINDOWS_EXPORTER_IMAGE_FACT,
  WINDOWS_TAINT_FACT,
} from './kubernetes';
import { CONTAINERD_WINDOWS_HANDLER_FACT, DIRECTX_DEVICE_PLUGIN_FACT, HOSTPROCESS_RUNTIME_FACT } from './node-runtime';
import { githubFile, type FactSource, type IsoDate, type Sourced } from './types';
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
} from '../windows-fields';
import { HOST_COMPATIBILITY, RETIRED_RELEASE_FACTS, WINDOWS_RELEASE_FACTS, WINDOWS_RELEASES } from './windows';

export * from './types';
export * from './windows';
export * from './clouds';
export * from './kubernetes';
export * from './support';

/** One entry of the catalogue: a fact's id, what it holds, and its provenance. */
export interface FactEntry extends Sourced {
  /** Stable id (`windows.release.2022`, `aks.release.2019`). */
  readonly id: string;
  /** What the fact is about, in a few words. */
  readonly title: string;
  /** The value, as plain data. */
  readonly value: unknown;
}

function entry(id: string, title: string, value: unknown, fact: Sourced): FactEntry {
  return {
    id,
    title,
    value,
    sources: fact.sources,
    ...(fact.verified === false ? { verified: false } : {}),
    ...(fact.note !== undefined ? { note: fact.note } : {}),
  };
}

/** Strips the provenance fields off a fact, leaving its value. */
function valueOf<T extends Sourced>(fact: T): Omit<T, keyof Sourced> {
  const { sources: _sources, verified: _verified, note: _note, ...value } = fact;
  return value;
}

/** Every fact, in a stable order: releases, compatibility, clouds, AWS details, Kubernetes, images. */
export function factCatalogue(): FactEntry[] {
  const entries: FactEntry[] = [];
  // The API schema data is this repository's own material: its date is the day its upstream sources were taken.
  const schemaRetrieved = schemaSources()
    .map((x) => x.retrieved)
    .sort()
    .reverse()[0];
  for (const r of WINDOWS_RELEASES) {
    const f = WINDOWS_RELEASE_FACTS[r];
    entries.push(entry(`windows.release.${r}`, f.displayName, valueOf(f), f));
  }
  entries.push(
    entry(
      'windows.retired-releases',
      'Retired releases (2016, SAC)',
      valueOf(RETIRED_RELEASE_FACTS),
      RETIRED_RELEASE_FACTS,
    ),
  );
  entries.push(
    entry(
      'windows.compatibility',
      'Image releases each host release runs',
      valueOf(HOST_COMPATIBILITY),
      HOST_COMPATIBILITY,
    ),
  );
  for (const cloud of CLOUDS) {
    for (const r of WINDOWS_RELEASES) {
      const f = CLOUD_RELEASES[cloud][r];
      if (f !== undefined) {
        entries.push(
          entry(
            `${cloud}.release.${r}`,
            `${CLOUD_NAMES[cloud]} ${WINDOWS_RELEASE_FACTS[r].displayName}`,
            valueOf(f),
            f,
          ),
        );
      }
    }
    const d = CLOUD_DEFAULT_RELEASES[cloud];
    entries.push(entry(`${cloud}.default-release`, `${CLOUD_NAMES[cloud]} default release`, valueOf(d), d));
  }
  entries.push(
    entry(
      'aks.windows-annual-channel',
      'AKS Windows Server Annual Channel (WindowsAnnual)',
      valueOf(AKS_WINDOWS_ANNUAL_CHANNEL),
      AKS_WINDOWS_ANNUAL_CHANNEL,
    ),
  );
  entries.push(
    entry(
      'eks.karpenter-aliases',
      'Karpenter Windows AMI aliases',
      valueOf(KARPENTER_WINDOWS_ALIASES),
      KARPENTER_WINDOWS_ALIASES,
    ),
  );
  entries.push(
    entry(
      'eks.ssm-parameter',
      'EKS Windows AMI SSM parameter',
      valueOf(EKS_WINDOWS_SSM_PARAMETER),
      EKS_WINDOWS_SSM_PARAMETER,
    ),
  );
  entries.push(
    entry(
      'eks.no-windows-families',
      'EC2 families without Windows for EKS',
      valueOf(EKS_NO_WINDOWS_FAMILIES),
      EKS_NO_WINDOWS_FAMILIES,
    ),
  );
  entries.push(
    entry('kubernetes.windows-taint', 'Windows node taint', valueOf(WINDOWS_TAINT_FACT), WINDOWS_TAINT_FACT),
  );
  entries.push(
    entry('gke.windows-taint', "GKE's own Windows taint", valueOf(GKE_WINDOWS_TAINT_FACT), GKE_WINDOWS_TAINT_FACT),
  );
  entries.push(entry('kubernetes.node-labels', 'Windows node labels', valueOf(NODE_LABEL_FACTS), NODE_LABEL_FACTS));
  entries.push(
    entry('kubernetes.windows-dsr', 'Windows DSR in kube-proxy', valueOf(WINDOWS_DSR_FACT), WINDOWS_DSR_FACT),
  );
  entries.push(
    entry(
      'kubernetes.windows-cpu-memory-affinity',
      'Windows CPU and memory affinity (KEP-4885)',
      valueOf(WINDOWS_CPU_MEMORY_AFFINITY_FACT),
      WINDOWS_CPU_MEMORY_AFFINITY_FACT,
    ),
  );
  entries.push(
    entry(
      'containerd.windows-handlers',
      "containerd's Windows runtime handlers",
      valueOf(CONTAINERD_WINDOWS_HANDLER_FACT),
      CONTAINERD_WINDOWS_HANDLER_FACT,
    ),
  );
  entries.push(
    entry(
      'containerd.hostprocess',
      'the containerd HostProcess containers need',
      valueOf(HOSTPROCESS_RUNTIME_FACT),
      HOSTPROCESS_RUNTIME_FACT,
    ),
  );
  entries.push(
    entry(
      'device-plugin.directx',
      'DirectX device plugins: their resources and nodes',
      valueOf(DIRECTX_DEVICE_PLUGIN_FACT),
      DIRECTX_DEVICE_PLUGIN_FACT,
    ),
  );
  entries.push(
    entry('image.gmsa-webhook', 'gMSA webhook image', valueOf(GMSA_WEBHOOK_IMAGE_FACT), GMSA_WEBHOOK_IMAGE_FACT),
  );
  entries.push(
    entry(
      'image.windows-exporter',
      'windows_exporter image (examples)',
      valueOf(WINDOWS_EXPORTER_IMAGE_FACT),
      WINDOWS_EXPORTER_IMAGE_FACT,
    ),
  );
  entries.push(
    entry(
      'image.hostprocess-base',
      'HostProcess base image',
      valueOf(HOSTPROCESS_BASE_IMAGE_FACT),
      HOSTPROCESS_BASE_IMAGE_FACT,
    ),
  );
  for (const name of Object.keys(ADDON_IMAGE_FACTS) as AddonName[]) {
    const f = ADDON_IMAGE_FACTS[name];
    entries.push(entry(`addon.${name}.image`, `${name} add-on image`, valueOf(f), f));
  }
  entries.push(
    entry(
      'kubernetes.windows-forbidden-fields',
      'Pod and container fields the API server forbids for Windows pods',
      {
        podSecurityContext: [...FORBIDDEN_POD_SECURITY_FIELDS, FORBIDDEN_POD_SYSCTLS],
        pod: FORBIDDEN_POD_FIELDS,
        containerSecurityContext: FORBIDDEN_CONTAINER_SECURITY_FIELDS,
      },
      {
        sources: [
          validationSource('v1.35.0', '2025-12-17', 'validateWindows'),
          validationSource('v1.36.0', '2026-04-22', 'the lines naming Windows are those of v1.35.0'),
          validationSource(
            'v1.37.0',
            '2026-08-26',
            'hostUsers, hostPID, hostIPC and shareProcessNamespace are read from the pod spec outside the securityContext check; the same fields are refused',
          ),
          validationSource(
            'v1.38.0-beta.0',
            '2026-11-06',
            'a pre-release: the lines naming Windows are those of v1.37.0',
          ),
        ],
        note: 'Checked at v1.35.0, v1.36.0 and v1.37.0 (and the v1.38.0-beta.0 pre-release), as lib/core/windows-fields.ts says; "may not be set for a windows pod" (pod-level resources) is in each.',
      },
    ),
  );
  entries.push(
    entry(
      'kubernetes.newest-known',
      'Newest Kubernetes minor the API schema knows',
      { newest: `1.${newestMinor()}`, known: knownMinors().map((m) => `1.${m}`) },
      {
        sources: [
          {
            ref: 'lib/core/api/schema-data.ts',
            materialDate: schemaRetrieved,
            checked: schemaRetrieved,
            says: `generated by scripts/api-schema.ts; each minor's upstream definitions and the day they were taken are in schemaSources() (1.${newestMinor()}: ${schemaSources().find((x) => x.minor === `1.${newestMinor()}`)?.at ?? 'no source recorded'})`,
          },
        ],
      },
    ),
  );
  return entries;
}

/** The day the sources written here were opened and read. */
const CHECKED = '2026-12-07';

/** kube-apiserver's validation.go at a release tag, read from the k8s.io/kubernetes Go module of that tag. */
function validationSource(tag: string, date: IsoDate, says: string): FactSource {
  return {
    ref: githubFile('kubernetes/kubernetes', tag, 'pkg/apis/core/validation/validation.go'),
    materialDate: date,
    checked: CHECKED,
    says: `${says}: the fields refused when spec.os.name is windows, "cannot be set for a windows pod" (k8s.io/kubernetes@${tag} Go module, tagged ${date})`,
  };
}

/** The newest and oldest `checked` date over every fact's sources: the days the facts were read. */
export function factsDates(entries: readonly FactEntry[] = factCatalogue()): { newest: IsoDate; oldest: IsoDate } {
  const dates = entries.flatMap((e) => e.sources.map((s: FactSource) => s.checked)).sort();
  return { newest: dates[dates.length - 1], oldest: dates[0] };
}

/** How old the material behind the facts is: the oldest and newest dated source, and how many have no date. */
export interface MaterialDates {
  /** The oldest date of the material read, over every dated source. */
  readonly oldest: IsoDate;
  /** The newest date of the material read. */
  readonly newest: IsoDate;
  /** Distinct sources opened whose copy shows no date. */
  readonly undated: number;
  /** Distinct sources not opened on the day checked (cited, not vouched for). */
  readonly unverified: number;
}

/** The dates of the material the facts stand on (`materialDate`), over every source of every fact. */
export function factsMaterialDates(entries: readonly FactEntry[] = factCatalogue()): MaterialDates {
  const all = factSources(entries).map(({ source }) => source.materialDate);
  const dates = all.filter((d) => d !== 'undated' && d !== 'unverified').sort();
  return {
    oldest: dates[0],
    newest: dates[dates.length - 1],
    undated: all.filter((d) => d === 'undated').length,
    unverified: all.filter((d) => d === 'unverified').length,
  };
}

/** Every distinct source (its ref and dates), once, with the ids of the facts that cite it, in catalogue order. */
export function factSources(
  entries: readonly FactEntry[] = factCatalogue(),
): { source: FactSource; facts: string[] }[] {
  const byKey = new Map<string, { source: FactSource; facts: string[] }>();
  for (const e of entries) {
    for (const source of e.sources) {
      const key = `${source.ref}\u0000${source.materialDate}\u0000${source.checked}`;
      const hit = byKey.get(key);
      if (hit === undefined) byKey.set(key, { source, facts: [e.id] });
      else if (!hit.facts.includes(e.id)) hit.facts.push(e.id);
    }
  }
  return [...byKey.values()];
}
