/**
 * gMSA credspecs as the rules read them: where a GMSACredentialSpec holds its credspec, the problems of its
 * content (checked once per object by the checks the cdk8s and Pulumi builders share, in ./credspec-checks), and
 * the credspec names a pod uses (https://github.com/kubernetes-sigs/windows-gmsa).
 */
import { credentialSpecChecks, type CredspecCheckAt, type CredspecMessageId } from './credspec-checks';
import type { PodFacts } from './pod';
import { join, rec, str, type Rec } from './util';

/** Where a GMSACredentialSpec keeps its credspec: at the top level, or (wrongly) nested under spec. */
export function credspecLocation(obj: Rec): { readonly credspec: Rec; readonly path: string } | undefined {
  const top = rec(obj, 'credspec');
  if (top) return { credspec: top, path: 'credspec' };
  const nested = rec(rec(obj, 'spec'), 'credspec');
  return nested ? { credspec: nested, path: 'spec.credspec' } : undefined;
}

const problemsByObject = new WeakMap<Rec, readonly CredspecCheckAt[]>();

/**
 * The findings of a GMSACredentialSpec's credspec content that report `messageId` (the message of one rule),
 * wherever it is (a nested credspec is still checked, so its problems show beside its location's). The content is
 * checked once per object.
 */
export function credspecProblems(obj: Rec, messageId: CredspecMessageId): CredspecCheckAt[] {
  let problems = problemsByObject.get(obj);
  if (problems === undefined) {
    const at = credspecLocation(obj);
    problems = at ? credentialSpecChecks(at.credspec, at.path) : [];
    problemsByObject.set(obj, problems);
  }
  return problems.filter((p) => p.messageId === messageId);
}

/** The path of a container's (or the pod's) credspec name. */
const NAME_PATH = 'securityContext.windowsOptions.gmsaCredentialSpecName';

/** The credspec names a pod uses, with the first path naming each. */
export function credspecNames(p: PodFacts): Map<string, string> {
  const names = new Map<string, string>();
  const podName = str(rec(rec(p.spec, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
  if (podName) names.set(podName, join(p.path, NAME_PATH));
  for (const c of p.containers) {
    const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
    if (n && !names.has(n)) names.set(n, join(c.path, NAME_PATH));
  }
  return names;
}

/** The ServiceAccount a pod runs as. */
export function serviceAccountOf(p: PodFacts): string {
  return str(p.spec, 'serviceAccountName') || str(p.spec, 'serviceAccount') || 'default';
}
