/**
 * The cluster facts the `-cluster` policies read as their parameters (POLICIES.md "Cluster facts"): the
 * `WindowsClusterFacts` CRD (cluster-scoped, `k8s-windows.io/v1alpha1`), the one object of it, and the reading of a
 * user's facts (a file for `k8s-windows policies --cluster-facts`) with every problem named at once.
 */
import type { ValidationIssue } from '../errors';
import { isRecord } from '../model/util';
import { DEFAULT_FACTS_NAME, FACTS_API_VERSION, FACTS_KIND, MANAGED_BY } from './validating';
import { POOL_PROVIDERS, type ClusterFacts, type FactsTaint, type PolicyObject } from './types';

const GROUP = FACTS_API_VERSION.split('/')[0]!;
const VERSION = FACTS_API_VERSION.split('/')[1]!;
const PLURAL = 'windowsclusterfacts';
const TAINT_EFFECTS: readonly FactsTaint['effect'][] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const STRING = { type: 'string' } as const;
const STRING_MAP = { type: 'object', additionalProperties: STRING } as const;

/** The CustomResourceDefinition of `WindowsClusterFacts`: its schema is what `readClusterFacts` accepts. */
export function clusterFactsCrd(): PolicyObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}`, labels: { ...MANAGED_BY } },
    spec: {
      group: GROUP,
      scope: 'Cluster',
      names: { kind: FACTS_KIND, listKind: `${FACTS_KIND}List`, plural: PLURAL, singular: 'windowsclusterfacts' },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                "The cluster's Windows node pools and RuntimeClasses, read by the k8s-windows admission policies.",
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    pools: {
                      type: 'array',
                      description: 'Each Windows node pool of the cluster.',
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name: STRING,
                          provider: { type: 'string', enum: [...POOL_PROVIDERS] },
                          release: STRING,
                          build: { ...STRING, description: 'node.kubernetes.io/windows-build of its nodes.' },
                          labels: STRING_MAP,
                          taints: {
                            type: 'array',
                            items: {
                              type: 'object',
                              required: ['key', 'effect'],
                              properties: {
                                key: STRING,
                                value: STRING,
                                effect: { type: 'string', enum: [...TAINT_EFFECTS] },
                              },
                            },
                          },
                        },
                      },
                    },
                    runtimeClasses: {
                      type: 'array',
                      description: 'The Windows RuntimeClasses the cluster serves.',
                      items: {
                        type: 'object',
                        required: ['name', 'handler'],
                        properties: { name: STRING, handler: STRING, build: STRING },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** The facts object the `-cluster` bindings reference. */
export function clusterFactsObject(facts: ClusterFacts, name: string = DEFAULT_FACTS_NAME): PolicyObject {
  return {
    apiVersion: FACTS_API_VERSION,
    kind: FACTS_KIND,
    metadata: { name, labels: { ...MANAGED_BY } },
    spec: {
      pools: (facts.pools ?? []).map((p) => ({
        name: p.name,
        ...(p.provider !== undefined ? { provider: p.provider } : {}),
        ...(p.release !== undefined ? { release: p.release } : {}),
        ...(p.build !== undefined ? { build: p.build } : {}),
        ...(p.labels !== undefined ? { labels: { ...p.labels } } : {}),
        ...(p.taints !== undefined ? { taints: p.taints.map((t) => ({ ...t })) } : {}),
      })),
      runtimeClasses: (facts.runtimeClasses ?? []).map((r) => ({ ...r })),
    },
  };
}

/**
 * Reads cluster facts as a user writes them: a WindowsClusterFacts object, or its spec alone. Every problem is
 * returned at once, each with the field (`where.spec.pools[0].taints[1].effect`), the value and the fix.
 */
export function readClusterFacts(
  raw: unknown,
  where: string,
): { readonly facts?: ClusterFacts; readonly issues: readonly ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string, fix: string) => issues.push({ path, message, fix });
  if (!isRecord(raw)) {
    bad(where, 'The cluster facts are not a mapping.', `Write a ${FACTS_KIND} object, or its spec: { pools: [...] }.`);
    return { issues };
  }
  let spec: unknown = raw;
  let at = where;
  if ('kind' in raw || 'apiVersion' in raw) {
    if (raw.kind !== FACTS_KIND || raw.apiVersion !== FACTS_API_VERSION) {
      bad(
        where,
        `The object is ${String(raw.apiVersion)} ${String(raw.kind)}, not ${FACTS_API_VERSION} ${FACTS_KIND}.`,
        `Write apiVersion: ${FACTS_API_VERSION} and kind: ${FACTS_KIND}, or give the spec alone.`,
      );
      return { issues };
    }
    spec = raw.spec;
    at = `${where}.spec`;
  }
  if (!isRecord(spec)) {
    bad(at, 'spec is not a mapping.', 'Write spec: { pools: [...], runtimeClasses: [...] }.');
    return { issues };
  }
  for (const k of Object.keys(spec)) {
    if (k !== 'pools' && k !== 'runtimeClasses')
      bad(`${at}.${k}`, `'${k}' is not a field of the facts.`, 'Use pools and runtimeClasses.');
  }
  const text = (v: unknown, path: string, required: boolean): string | undefined => {
    if (v === undefined && !required) return undefined;
    if (typeof v === 'string' && v.trim() !== '') return v;
    bad(path, `${JSON.stringify(v) ?? 'nothing'} is not a name.`, 'Write a non-empty string.');
    return undefined;
  };
  const list = (v: unknown, path: string): unknown[] => {
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    bad(path, `${JSON.stringify(v)} is not a list.`, 'Write a YAML list (- name: ...).');
    return [];
  };
  const pools = list(spec.pools, `${at}.pools`).map((p, i) => {
    const path = `${at}.pools[${i}]`;
    if (!isRecord(p)) {
      bad(path, 'The pool is not a mapping.', 'Write { name, provider, release, build, labels, taints }.');
      return undefined;
    }
    for (const k of Object.keys(p)) {
      if (!['name', 'provider', 'release', 'build', 'labels', 'taints'].includes(k))
        bad(`${path}.${k}`, `'${k}' is not a field of a pool.`, 'Use name, provider, release, build, labels, taints.');
    }
    const name = text(p.name, `${path}.name`, true);
    const provider = p.provider;
    if (provider !== undefined && !(POOL_PROVIDERS as readonly unknown[]).includes(provider)) {
      bad(`${path}.provider`, `'${String(provider)}' is not a provider.`, `Use one of ${POOL_PROVIDERS.join(', ')}.`);
    }
    const release = p.release === undefined ? undefined : String(p.release);
    const build = text(p.build, `${path}.build`, false);
    if (build !== undefined && !/^\d+\.\d+\.\d+(?:\.\d+)?$/.test(build)) {
      bad(
        `${path}.build`,
        `'${build}' is not a Windows build.`,
        "Write the nodes' node.kubernetes.io/windows-build, e.g. '10.0.20348'.",
      );
    }
    let labels: Record<string, string> | undefined;
    if (p.labels !== undefined) {
      if (isRecord(p.labels) && Object.values(p.labels).every((v) => typeof v === 'string')) {
        labels = p.labels as Record<string, string>;
      } else {
        bad(
          `${path}.labels`,
          'labels is not a map of strings.',
          "Quote every value: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: '10.0.20348' }.",
        );
      }
    }
    const taints = list(p.taints, `${path}.taints`).map((t, j): FactsTaint | undefined => {
      const tp = `${path}.taints[${j}]`;
      if (!isRecord(t)) {
        bad(tp, 'The taint is not a mapping.', 'Write { key, value, effect }.');
        return undefined;
      }
      const key = text(t.key, `${tp}.key`, true);
      const value = t.value === undefined ? undefined : String(t.value);
      if (!(TAINT_EFFECTS as readonly unknown[]).includes(t.effect)) {
        bad(`${tp}.effect`, `'${String(t.effect)}' is not a taint effect.`, `Use ${TAINT_EFFECTS.join(', ')}.`);
        return undefined;
      }
      return key === undefined
        ? undefined
        : { key, ...(value !== undefined ? { value } : {}), effect: t.effect as FactsTaint['effect'] };
    });
    if (name === undefined) return undefined;
    return {
      name,
      ...(provider !== undefined ? { provider: provider as (typeof POOL_PROVIDERS)[number] } : {}),
      ...(release !== undefined ? { release } : {}),
      ...(build !== undefined ? { build } : {}),
      ...(labels !== undefined ? { labels } : {}),
      ...(p.taints !== undefined ? { taints: taints.filter((t): t is FactsTaint => t !== undefined) } : {}),
    };
  });
  const runtimeClasses = list(spec.runtimeClasses, `${at}.runtimeClasses`).map((r, i) => {
    const path = `${at}.runtimeClasses[${i}]`;
    if (!isRecord(r)) {
      bad(path, 'The RuntimeClass is not a mapping.', 'Write { name, handler, build }.');
      return undefined;
    }
    const name = text(r.name, `${path}.name`, true);
    const handler = text(r.handler, `${path}.handler`, true);
    const build = text(r.build, `${path}.build`, false);
    return name === undefined || handler === undefined
      ? undefined
      : { name, handler, ...(build !== undefined ? { build } : {}) };
  });
  const seen = new Set<string>();
  pools.forEach((p, i) => {
    if (p === undefined) return;
    if (seen.has(p.name))
      bad(`${at}.pools[${i}].name`, `Pool '${p.name}' is listed twice.`, 'Give each pool one entry.');
    seen.add(p.name);
  });
  if (issues.length > 0) return { issues };
  return {
    facts: {
      pools: pools.filter((p): p is NonNullable<typeof p> => p !== undefined),
      runtimeClasses: runtimeClasses.filter((r): r is NonNullable<typeof r> => r !== undefined),
    },
    issues,
  };
}
