/**
 * api-version-removed: an object whose apiVersion the target Kubernetes version does not serve (a removed beta such
 * as extensions/v1beta1 or apps/v1beta1 Deployments, node.k8s.io/v1beta1 RuntimeClass), which the API server
 * refuses: `no matches for kind "Deployment" in version "extensions/v1beta1"`
 * (https://kubernetes.io/docs/reference/using-api/deprecation-guide/). Only the built-in API groups are judged: any
 * other group is a custom resource, served by its CRD.
 */
import { apiSchema, groupOf, isBuiltinGroup, knownMinors, servedIn, targetMinor } from '../api/schema';
import { REMOVED_GROUPS, removedApi } from '../api/removed';
import type { Fixer } from '../model/fixes';
import { isRecord, missingObjectFields, rec, type Rec } from '../model/util';
import { DEPRECATION_GUIDE } from './docs';
import { defineRule } from './rule';

/**
 * Kinds of built-in groups the generated schema does not list: core/v1 Event (the generator keeps
 * events.k8s.io/v1 Event under that name), the discovery documents and kubectl's List.
 */
export const UNLISTED_KINDS: ReadonlySet<string> = new Set([
  'v1/Event',
  'v1/EventList',
  'v1/List',
  'v1/APIGroup',
  'v1/APIGroupList',
  'v1/APIResourceList',
  'v1/APIVersions',
]);

/** Kubernetes' version priority: GA before beta before alpha, higher numbers first (v1, v1beta3, v1beta2, v1alpha1). */
function versionRank(apiVersion: string): number {
  const m = /v(\d+)(?:(alpha|beta)(\d+))?$/.exec(apiVersion);
  if (!m) return 0;
  const level = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
  return level * 1e6 + Number(m[1]) * 1e3 + Number(m[3] ?? 0);
}

/** The apiVersions of `group` that serve `kind` in the target, the preferred first. */
function servedAlternatives(kind: string, group: string, minor: number): string[] {
  const schema = apiSchema(minor);
  const out: string[] = [];
  for (const gvk of schema.kinds.keys()) {
    const gv = gvk.slice(0, gvk.lastIndexOf('/'));
    if (gvk.slice(gv.length + 1) === kind && groupOf(gv) === group) out.push(gv);
  }
  return out.sort((a, b) => versionRank(b) - versionRank(a));
}

/**
 * Beta workload fields apps/v1 does not have (extensions/v1beta1 DeploymentSpec.rollbackTo, DaemonSetSpec
 * .templateGeneration): an object with one is not moved, since what replaces them is the user's call.
 */
const BETA_ONLY_SPEC_FIELDS = ['rollbackTo', 'templateGeneration'];

/**
 * Moves a workload of a removed beta (extensions/v1beta1, apps/v1beta1, apps/v1beta2) to apps/v1, as `kubectl
 * convert` did: apps/v1 requires spec.selector, which the betas defaulted from the template's labels
 * (https://kubernetes.io/docs/reference/using-api/deprecation-guide/#deployment-v116), so it is written out from
 * them. Anything else apps/v1 lacks is then an unknown field, reported as such.
 */
const toAppsV1: Fixer = ({ pod }) => {
  const object = pod.obj;
  const removal = removedApi(String(object.apiVersion), String(object.kind));
  if (removal?.replacement !== 'apps/v1') return [];
  const spec = rec(object, 'spec');
  if (!spec || BETA_ONLY_SPEC_FIELDS.some((f) => Object.hasOwn(spec, f))) return [];
  if (spec.selector !== undefined) return [{ op: 'set', path: 'apiVersion', value: 'apps/v1' }];
  const labels = rec(rec(rec(spec, 'template'), 'metadata'), 'labels');
  if (!isRecord(labels) || Object.keys(labels).length === 0) return [];
  return [
    { op: 'set', path: 'apiVersion', value: 'apps/v1' },
    { op: 'set', path: 'spec.selector', value: { matchLabels: { ...labels } } },
  ];
};

export default defineRule({
  meta: {
    id: 'api-version-removed',
    family: 'api-server',
    defaultSeverity: 'error',
    summary: 'An apiVersion/kind the target Kubernetes version does not serve (a removed beta API).',
    rationale:
      'The API server refuses objects of API versions it no longer serves (extensions/v1beta1 and apps/v1beta1 Deployments since 1.16, node.k8s.io/v1beta1 RuntimeClass since 1.25): the manifest does not apply.',
    docs: DEPRECATION_GUIDE,
    severityReason: 'kubectl apply fails: no matches for the kind in that version.',
    rejectedByApiServer: true,
    fixable:
      'Moves a Deployment, DaemonSet, ReplicaSet or StatefulSet of a removed beta to apps/v1, writing out spec.selector from the template labels as the beta defaulted it.',
  },
  messages: {
    removed: {
      description: 'An apiVersion/kind the deprecation guide lists as removed at or before the target version.',
      message:
        '{apiVersion} {kind} was removed in Kubernetes 1.{removedIn}: {target} refuses it (no matches for kind "{kind}" in version "{apiVersion}").',
      fix: '{fix}',
    },
    'not-served': {
      description:
        'An apiVersion/kind the target version does not serve by its API schema: not yet, no more, or never.',
      message: '{why}.',
      fix: '{fix}',
    },
  },
  fix: toAppsV1,
  check: {
    scope: 'document',
    run(doc, { options }, report) {
      if (missingObjectFields(doc)?.length !== 0) return;
      const { apiVersion, kind } = doc as Rec & { apiVersion: string; kind: string };
      const group = groupOf(apiVersion);
      if (!isBuiltinGroup(group, REMOVED_GROUPS)) return;
      const gvk = `${apiVersion}/${kind}`;
      if (UNLISTED_KINDS.has(gvk)) return;
      const minor = targetMinor(options.kubernetesVersion);
      const removal = removedApi(apiVersion, kind);
      const target = `Kubernetes 1.${minor}`;
      if (removal && minor >= removal.removedIn) {
        // The guide names today's replacement; a target that does not serve it yet (flowcontrol v1 before 1.29) is
        // told what it does serve.
        const minors = knownMinors();
        const inData = minor >= minors[0] && minor <= minors[minors.length - 1];
        const replacement =
          removal.replacement && inData && !apiSchema(minor).kinds.has(`${removal.replacement}/${kind}`)
            ? servedAlternatives(kind, groupOf(removal.replacement), minor).join(' or ') || removal.replacement
            : removal.replacement;
        const instead = replacement
          ? `Use apiVersion: ${replacement} (check the fields the new version changed: ${DEPRECATION_GUIDE}).`
          : `${removal.note ?? 'No replacement.'}.`;
        report({
          path: 'apiVersion',
          messageId: 'removed',
          data: { apiVersion, kind, removedIn: removal.removedIn, target, fix: instead },
        });
        return;
      }
      // Served-ness beyond the guide's table is known only for the minors the schema data covers.
      const minors = knownMinors();
      if (removal || minor < minors[0] || minor > minors[minors.length - 1]) return;
      if (apiSchema(minor).kinds.has(gvk)) return;
      const served = servedIn(gvk);
      const alternatives = servedAlternatives(kind, group, minor);
      const instead =
        alternatives.length > 0
          ? `Use apiVersion: ${alternatives.join(' or ')}.`
          : 'Check the apiVersion and kind (kubectl api-resources lists what the cluster serves).';
      const why =
        served.length === 0
          ? `Kubernetes serves no kind "${kind}" in ${apiVersion}`
          : served[0] > minor
            ? `${apiVersion} ${kind} is served from Kubernetes 1.${served[0]}, not by ${target}`
            : `${apiVersion} ${kind} was removed in Kubernetes 1.${served[served.length - 1] + 1}: ${target} does not serve it`;
      report({ path: 'apiVersion', messageId: 'not-served', data: { why, fix: instead } });
    },
  },
});
