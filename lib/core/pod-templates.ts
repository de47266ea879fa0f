/**
 * Pods inside custom resources: the kinds of well-known projects whose controllers create pods from a pod template
 * of their own (Argo Rollouts, KEDA ScaledJob, OpenShift DeploymentConfig, Knative Serving, Argo Workflows), and the
 * kinds a config file names (`podTemplates`, as kube-linter reads any kind with a `spec.template` pod template).
 * A kind is found by its API group and name, never by its name alone: a Knative `Service` is not a core Service,
 * and other projects have kinds named `Rollout`.
 */
import { argoWorkflowPods, ARGO_WORKFLOW_FIX_LEFT, ARGO_WORKFLOW_KINDS } from './argo-workflows';
import type { ValidationIssue } from './errors';
import { isRecord } from './json';
import { isWorkloadKind, locatePodSpec, type PodSource, type PodSpecLocation } from './workloads';
import type { PodSpec } from './kube';

/** A custom resource kind whose objects hold a pod template or a pod spec, as the config file names it. */
export interface PodTemplateKind {
  /** `example.com/v1`; `example.com/*` for every version of the group. */
  readonly apiVersion: string;
  /** The kind as the CRD names it: `MyWorkload`. */
  readonly kind: string;
  /** Where the pod template (its `metadata` and `spec`) is: `spec.template`. Give this or `podSpec`. */
  readonly template?: string;
  /** Where a pod spec without metadata of its own is: `spec.runner` (the object's labels are the pods'). */
  readonly podSpec?: string;
}

/** A well-known custom resource that holds one pod template. */
interface WellKnownTemplate {
  /** Its API groups. */
  readonly groups: readonly string[];
  readonly kind: string;
  /** Path segments to the pod template (metadata and spec). */
  readonly template: readonly string[];
  readonly source: PodSource;
}

/**
 * Knative Serving takes a subset of the pod spec: `spec.os` is not in it, and nodeSelector, tolerations, affinity and
 * runtimeClassName only with the `kubernetes.podspec-*` feature flags on
 * (https://knative.dev/docs/serving/configuration/feature-flags/; serving's `PodSpecMask`).
 */
const KNATIVE: Omit<PodSource, 'what'> = {
  fixLeft:
    'fix does not edit Knative Serving pod templates: Knative takes a subset of the pod spec (no spec.os; nodeSelector, tolerations, affinity and runtimeClassName only with its kubernetes.podspec-* feature flags on)',
  omits: ['os'],
};

/** Custom resources of well-known projects whose controllers create pods from one pod template. */
export const WELL_KNOWN_POD_TEMPLATES: readonly WellKnownTemplate[] = [
  // https://argo-rollouts.readthedocs.io/en/stable/features/specification/ (a Rollout with workloadRef has none)
  { groups: ['argoproj.io'], kind: 'Rollout', template: ['spec', 'template'], source: { what: 'an Argo Rollout' } },
  // https://keda.sh/docs/latest/reference/scaledjob-spec/
  {
    groups: ['keda.sh'],
    kind: 'ScaledJob',
    template: ['spec', 'jobTargetRef', 'template'],
    source: { what: 'a KEDA ScaledJob' },
  },
  // https://docs.openshift.com/container-platform/4.17/applications/deployments/what-deployments-are.html
  {
    groups: ['apps.openshift.io'],
    kind: 'DeploymentConfig',
    template: ['spec', 'template'],
    source: { what: 'an OpenShift DeploymentConfig' },
  },
  // https://knative.dev/docs/serving/reference/serving-api/
  {
    groups: ['serving.knative.dev'],
    kind: 'Service',
    template: ['spec', 'template'],
    source: { what: 'a Knative Service', ...KNATIVE },
  },
  {
    groups: ['serving.knative.dev'],
    kind: 'Configuration',
    template: ['spec', 'template'],
    source: { what: 'a Knative Configuration', ...KNATIVE },
  },
];

/** The group of an apiVersion: `argoproj.io` of `argoproj.io/v1alpha1`, `''` of `v1`. */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The well-known template kind of an object, if it is one (by group and kind). */
function wellKnown(apiVersion: string, kind: string): WellKnownTemplate | undefined {
  const group = groupOf(apiVersion);
  return WELL_KNOWN_POD_TEMPLATES.find((t) => t.kind === kind && t.groups.includes(group));
}

/** Whether a config entry names the object's kind: the same kind, and the same apiVersion (`group/*`: any version). */
function matches(entry: PodTemplateKind, apiVersion: string, kind: string): boolean {
  if (entry.kind !== kind) return false;
  return entry.apiVersion.endsWith('/*')
    ? groupOf(apiVersion) === entry.apiVersion.slice(0, -2) && apiVersion.includes('/')
    : entry.apiVersion === apiVersion;
}

/** The object at `segments` and its parent. */
function walk(obj: unknown, segments: readonly string[]): { node: unknown; parent: unknown } {
  let node: unknown = obj;
  let parent: unknown = undefined;
  for (const s of segments) {
    parent = node;
    node = isRecord(node) ? node[s] : undefined;
  }
  return { node, parent };
}

/** The pod template at `segments` (its spec and metadata), or undefined when it holds no spec. */
function templateAt(obj: unknown, segments: readonly string[], source: PodSource): PodSpecLocation | undefined {
  const { node: template } = walk(obj, segments);
  const spec = isRecord(template) ? template.spec : undefined;
  if (!isRecord(spec)) return undefined;
  const meta = (template as Record<string, unknown>).metadata;
  return {
    spec: spec as unknown as PodSpec,
    path: [...segments, 'spec'].join('.'),
    ...(isRecord(meta) ? { podMetadata: meta as PodSpecLocation['podMetadata'] } : {}),
    source,
  };
}

/** What a config entry's objects are called in messages: `a MyWorkload (example.com)`. */
function customWhat(entry: PodTemplateKind): string {
  return `a ${entry.kind} (${groupOf(entry.apiVersion)})`;
}

/** The pod a config entry names in `obj`, or undefined when it is not there. */
function customPod(obj: Record<string, unknown>, entry: PodTemplateKind): PodSpecLocation | undefined {
  const source: PodSource = { what: customWhat(entry) };
  if (entry.template !== undefined) return templateAt(obj, entry.template.split('.'), source);
  if (entry.podSpec === undefined) return undefined;
  const segments = entry.podSpec.split('.');
  const { node: spec } = walk(obj, segments);
  if (!isRecord(spec)) return undefined;
  const meta = obj.metadata;
  return {
    spec: spec as unknown as PodSpec,
    path: entry.podSpec,
    // The pods carry no metadata of their own here: the object's labels and annotations stand for theirs.
    ...(isRecord(meta) ? { podMetadata: meta as PodSpecLocation['podMetadata'], podMetadataPath: 'metadata' } : {}),
    source,
  };
}

/**
 * Every pod (or pod template) an object holds: a Kubernetes workload's one, a well-known custom resource's, one per
 * container template of an Argo Workflow, or the one a `podTemplates` entry names (which wins over a well-known
 * kind's). Empty for objects that hold none.
 */
export function locatePods(obj: unknown, custom: readonly PodTemplateKind[] = []): PodSpecLocation[] {
  if (!isRecord(obj) || typeof obj.kind !== 'string') return [];
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const entry = custom.find((e) => matches(e, apiVersion, obj.kind as string));
  if (entry !== undefined) {
    const loc = customPod(obj, entry);
    return loc ? [loc] : [];
  }
  const known = wellKnown(apiVersion, obj.kind);
  if (known !== undefined) {
    const loc = templateAt(obj, known.template, known.source);
    return loc ? [loc] : [];
  }
  if (groupOf(apiVersion) === 'argoproj.io' && ARGO_WORKFLOW_KINDS.has(obj.kind)) return argoWorkflowPods(obj);
  // The core kinds last, and only in their own groups' apiVersions (no dot): another project's `Deployment` is not.
  if (!isWorkloadKind(obj.kind) || groupOf(apiVersion).includes('.')) return [];
  const loc = locatePodSpec(obj);
  return loc ? [loc] : [];
}

/**
 * Why `fix` leaves the pods of an object of this apiVersion and kind (Argo Workflows, Knative Serving), or undefined
 * when it edits them: reports read it to mark what fix can change.
 */
export function fixLeftReason(apiVersion: unknown, kind: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  if (groupOf(apiVersion) === 'argoproj.io' && ARGO_WORKFLOW_KINDS.has(kind)) return ARGO_WORKFLOW_FIX_LEFT;
  return wellKnown(apiVersion, kind)?.source.fixLeft;
}

const ENTRY_KEYS = ['apiVersion', 'kind', 'template', 'podSpec'] as const;
/** `group/version` or `group/*`, the group a DNS subdomain with a dot (a custom resource's, never a built-in one). */
const CUSTOM_API_VERSION = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+\/([a-z0-9]+|\*)$/;
/** A kind as CRDs name them: `MyWorkload`. */
const KIND = /^[A-Z][A-Za-z0-9]*$/;
/** Field names joined by dots: `spec.template`. */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const EXAMPLE = "{ apiVersion: 'example.com/v1', kind: 'MyWorkload', template: 'spec.template' }";

/**
 * `podTemplates:` as written (a config file, `ValidateOptions.podTemplates`): each entry checked, every problem
 * named at its path (`config.podTemplates[0].apiVersion`) with the value and what to write.
 */
export function readPodTemplateKinds(value: unknown, path: string, issues: ValidationIssue[]): PodTemplateKind[] {
  if (!Array.isArray(value)) {
    issues.push({ path, message: `${JSON.stringify(value)} is not a list.`, fix: `Write podTemplates: [${EXAMPLE}].` });
    return [];
  }
  const out: PodTemplateKind[] = [];
  const seen = new Map<string, string>();
  value.forEach((entry, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(entry)) {
      issues.push({ path: at, message: `${JSON.stringify(entry)} is not a mapping.`, fix: `Write ${EXAMPLE}.` });
      return;
    }
    const before = issues.length;
    for (const key of Object.keys(entry)) {
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
        issues.push({
          path: `${at}.${key}`,
          message: `'${key}' is not a podTemplates key.`,
          fix: `Use ${ENTRY_KEYS.join(', ')}.`,
        });
      }
    }
    const { apiVersion, kind, template, podSpec } = entry;
    if (typeof apiVersion !== 'string' || !CUSTOM_API_VERSION.test(apiVersion)) {
      issues.push({
        path: `${at}.apiVersion`,
        message:
          apiVersion === undefined
            ? 'is missing.'
            : `${JSON.stringify(apiVersion)} is not the apiVersion of a custom resource.`,
        fix: "Write the CRD's group and version, such as 'example.com/v1', or 'example.com/*' for every version (the built-in groups' kinds are read already).",
      });
    }
    if (typeof kind !== 'string' || !KIND.test(kind)) {
      issues.push({
        path: `${at}.kind`,
        message: kind === undefined ? 'is missing.' : `${JSON.stringify(kind)} is not a kind.`,
        fix: "Write the kind as the CRD names it, such as 'MyWorkload'.",
      });
    }
    if (template !== undefined && podSpec !== undefined) {
      issues.push({
        path: at,
        message: 'names both template and podSpec.',
        fix: 'Keep template (a pod template: metadata and spec) or podSpec (a pod spec alone), not both.',
      });
    } else if (template === undefined && podSpec === undefined) {
      issues.push({
        path: at,
        message: 'names neither template nor podSpec.',
        fix: "Write template: 'spec.template' (where the pod template is) or podSpec: 'spec.podSpec' (a pod spec alone).",
      });
    }
    for (const [name, p] of [
      ['template', template],
      ['podSpec', podSpec],
    ] as const) {
      if (p !== undefined && (typeof p !== 'string' || !FIELD_PATH.test(p))) {
        issues.push({
          path: `${at}.${name}`,
          message: `${JSON.stringify(p)} is not a field path.`,
          fix: "Write field names joined by dots, such as 'spec.template'.",
        });
      }
    }
    if (issues.length > before) return;
    const id = `${String(apiVersion)} ${String(kind)}`;
    const first = seen.get(id);
    if (first !== undefined) {
      issues.push({
        path: at,
        message: `names ${String(apiVersion)} ${String(kind)} again (as ${first} does).`,
        fix: 'Keep one entry per kind.',
      });
      return;
    }
    seen.set(id, at);
    out.push({
      apiVersion: apiVersion as string,
      kind: kind as string,
      ...(typeof template === 'string' ? { template } : {}),
      ...(typeof podSpec === 'string' ? { podSpec } : {}),
    });
  });
  return out;
}
