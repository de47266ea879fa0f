/**
 * gMSA rules (https://github.com/kubernetes-sigs/windows-gmsa): the GMSACredentialSpec object's shape and credspec
 * formats, and for pods the webhook's view: the credspec exists, the ServiceAccount may `use` it, init containers.
 */
import { gmsaGrant, rbacConcerns, type SetIndex } from '../context';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { credentialSpecProblems } from '../../gmsa-credspec';
import { isDns1123Subdomain } from '../../windows-options';
import { has, join, own, rec, show, str, type Rec } from '../util';

/** How many credspec names a message lists before eliding the rest. */
const MAX_NAMES_SHOWN = 5;

/** The credspec's format checks, shared with the cdk8s and Pulumi builders; paths under `base`. */
function checkCredspecContent(cs: Rec, base: string, report: Report): void {
  for (const p of credentialSpecProblems(cs, base)) report(p.ruleId, p.path, p.message, p.fix);
}

/** A GMSACredentialSpec object: name, scope, credspec location and content. */
export function checkCredspecObject(obj: Rec, report: Report): void {
  const meta = rec(obj, 'metadata');
  const name = own(meta, 'name');
  if (typeof name === 'string' && !isDns1123Subdomain(name)) {
    report(
      'gmsa-credspec-name',
      'metadata.name',
      `metadata.name '${name}' is not a lowercase DNS-1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters): pods cannot name it in gmsaCredentialSpecName.`,
      `Rename it to '${name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-')}'.`,
    );
  }
  if (has(meta, 'namespace')) {
    report(
      'gmsa-credspec-name',
      'metadata.namespace',
      `metadata.namespace ${show(own(meta, 'namespace'))} is set on a cluster-scoped GMSACredentialSpec.`,
      'Remove metadata.namespace.',
      'warning',
    );
  }
  const top = rec(obj, 'credspec');
  const nested = rec(rec(obj, 'spec'), 'credspec');
  if (top) {
    checkCredspecContent(top, 'credspec', report);
  } else if (nested) {
    report(
      'gmsa-credspec-location',
      'spec.credspec',
      'spec.credspec is nested under spec: the CRD keeps credspec at the top level and prunes spec, so pods get no gMSA identity.',
      'Move credspec to the top level of the object, beside metadata.',
    );
    checkCredspecContent(nested, 'spec.credspec', report);
  } else {
    report(
      'gmsa-credspec-location',
      'credspec',
      'The GMSACredentialSpec has no top-level credspec.',
      'Add credspec: the JSON New-CredentialSpec generates, as YAML, at the top level.',
    );
  }
}

/** The credspec names a pod uses, with the first path naming each. */
function credspecNames(p: PodFacts): Map<string, string> {
  const names = new Map<string, string>();
  const podPath = join(p.path, 'securityContext.windowsOptions.gmsaCredentialSpecName');
  const podName = str(rec(rec(p.spec, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
  if (podName) names.set(podName, podPath);
  for (const c of p.containers) {
    const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
    if (n && !names.has(n)) names.set(n, join(c.path, 'securityContext.windowsOptions.gmsaCredentialSpecName'));
  }
  return names;
}

/**
 * Pod-side gMSA rules: init containers, credspec present, RBAC grant. `index` is the whole set (grants are looked
 * up by name wherever they are); `local` holds the pod's own file, which decides what counts as missing.
 */
export function checkPodGmsa(p: PodFacts, index: SetIndex, local: SetIndex, report: Report): void {
  for (const c of p.containers) {
    if (c.list !== 'initContainers') continue;
    const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
    if (n === undefined) continue;
    const path = join(c.path, 'securityContext.windowsOptions.gmsaCredentialSpecName');
    report(
      'gmsa-init-container',
      path,
      `${path} '${n}' is on an init container, which the gMSA webhook does not expand: it runs without the gMSA identity.`,
      'Move the Active Directory work into a regular container, or accept that the init container runs without gMSA.',
    );
  }
  const names = credspecNames(p);
  if (names.size === 0) return;
  const sa = str(p.spec, 'serviceAccountName') || str(p.spec, 'serviceAccount') || 'default';
  for (const [name, path] of names) {
    if (local.credspecs.size > 0 && !index.credspecs.has(name)) {
      report(
        'gmsa-credspec-not-found',
        path,
        `${path} '${name}' names no GMSACredentialSpec in its file (it has ${[...local.credspecs.keys()]
          .slice(0, MAX_NAMES_SHOWN)
          .map((k) => `'${k}'`)
          .join(', ')}${local.credspecs.size > MAX_NAMES_SHOWN ? ', ...' : ''}).`,
        'Create the GMSACredentialSpec or fix the name.',
      );
    }
    if (gmsaGrant(index, p.namespace, sa, name) !== 'missing') continue;
    const certain = rbacConcerns(local, p.namespace, sa, name);
    const message = certain
      ? `ServiceAccount '${p.namespace}/${sa}' has no Role or ClusterRole bound to it granting 'use' on GMSACredentialSpec '${name}', though its file holds RBAC for it: the gMSA webhook rejects the pod.`
      : `Nothing in the input grants ServiceAccount '${p.namespace}/${sa}' 'use' on GMSACredentialSpec '${name}'; unless the cluster has that grant, the gMSA webhook rejects the pod.`;
    const fix = `Add a ClusterRole with rules [{ apiGroups: [windows.k8s.io], resources: [gmsacredentialspecs], verbs: [use], resourceNames: [${name}] }] and a RoleBinding in '${p.namespace}' to ServiceAccount '${sa}'.`;
    report('gmsa-rbac-missing', path, message, fix, certain ? undefined : 'info');
  }
}
