/**
 * Checks `PolicyOptions` as a front door receives them (cdk8s props, Pulumi args, a CLI's flags): every bad option
 * with its value and the fix, at once, before any object is generated. The cluster facts are checked by
 * `checkClusterFacts`, their paths under `clusterFacts`.
 */
import { WindowsValidationError, type ValidationIssue } from '../errors';
import { CLOUDS } from '../facts/clouds';
import { checkRuleSetting } from '../validate/settings';
import { isDns1123Subdomain } from '../windows-options';
import { checkClusterFacts } from './cluster-facts';
import { MUTATING_VERSIONS } from './mutating';
import { POLICY_MODES, type PolicyOptions } from './types';

/** The longest suffix a generated name gets: `-<shape>-deny-cluster`, `-runtimeclass-warn-cluster`. */
const LONGEST_SUFFIX = '-runtimeclass-warn-cluster'.length;
const MAX_NAME = 253;

const show = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every problem with `options` (empty when they are good); `facts` false leaves `clusterFacts` unchecked. */
export function checkPolicyOptions(options: PolicyOptions, facts = true): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const add = (path: string, message: string, fix: string) => issues.push({ path, message, fix });
  const o = options as Record<string, unknown>;
  if (o.mode !== undefined && !(POLICY_MODES as readonly unknown[]).includes(o.mode)) {
    add('mode', `The mode ${show(o.mode)} is not one the policies know.`, `Use one of ${POLICY_MODES.join(', ')}.`);
  }
  if (o.mutating !== undefined && typeof o.mutating !== 'boolean') {
    add('mutating', `mutating ${show(o.mutating)} is not true or false.`, 'Write true to add the mutating policies.');
  }
  if (o.mutatingVersion !== undefined && !(MUTATING_VERSIONS as readonly unknown[]).includes(o.mutatingVersion)) {
    add(
      'mutatingVersion',
      `The MutatingAdmissionPolicy version ${show(o.mutatingVersion)} is not served by any Kubernetes release.`,
      "Use 'v1' (Kubernetes 1.36 on) or 'v1beta1' (1.34 and 1.35, with the MutatingAdmissionPolicy feature gate).",
    );
  }
  if (o.cloud !== undefined && !(CLOUDS as readonly unknown[]).includes(o.cloud)) {
    add(
      'cloud',
      `The cloud ${show(o.cloud)} is not one with a preset.`,
      `Use one of ${CLOUDS.join(', ')}, or leave it out.`,
    );
  }
  if (o.settings !== undefined) {
    if (!isRecord(o.settings)) {
      add('settings', `settings ${show(o.settings)} is not a map.`, "Write { 'rule-id': 'warning' | 'off' | … }.");
    } else {
      for (const [id, setting] of Object.entries(o.settings))
        issues.push(...checkRuleSetting(id, setting, `settings.${id}`));
    }
  }
  if (o.systemNamespaces !== undefined) {
    if (!Array.isArray(o.systemNamespaces)) {
      add(
        'systemNamespaces',
        `systemNamespaces ${show(o.systemNamespaces)} is not a list.`,
        "Write a list, e.g. ['kube-system'].",
      );
    } else {
      o.systemNamespaces.forEach((n: unknown, i) => {
        if (typeof n !== 'string' || !isDns1123Subdomain(n)) {
          add(`systemNamespaces[${i}]`, `${show(n)} is not a namespace name.`, 'Write a lowercase DNS-1123 name.');
        }
      });
    }
  }
  if (o.exclude !== undefined) {
    if (!Array.isArray(o.exclude)) {
      add(
        'exclude',
        `exclude ${show(o.exclude)} is not a list.`,
        "Write a list, e.g. [{ namespace: 'legacy', name: 'web' }].",
      );
    } else {
      o.exclude.forEach((e: unknown, i) => {
        const at = `exclude[${i}]`;
        if (!isRecord(e)) {
          add(at, `${show(e)} is not an object.`, 'Write { name, namespace?, kind? }.');
          return;
        }
        if (typeof e.name !== 'string' || e.name === '')
          add(`${at}.name`, `The name ${show(e.name)} is not a name.`, 'Name the object to leave alone.');
        for (const f of ['namespace', 'kind'] as const) {
          if (e[f] !== undefined && (typeof e[f] !== 'string' || e[f] === ''))
            add(`${at}.${f}`, `${f} ${show(e[f])} is not a string.`, `Write the ${f}, or leave it out.`);
        }
        for (const k of Object.keys(e)) {
          if (!['name', 'namespace', 'kind'].includes(k))
            add(`${at}.${k}`, `${k} is not a field of an exclusion.`, 'Use name, namespace and kind.');
        }
      });
    }
  }
  if (o.namePrefix !== undefined) {
    if (
      typeof o.namePrefix !== 'string' ||
      !isDns1123Subdomain(o.namePrefix) ||
      o.namePrefix.length + LONGEST_SUFFIX > MAX_NAME
    ) {
      add(
        'namePrefix',
        `The name prefix ${show(o.namePrefix)} does not make object names (lowercase DNS-1123, at most ${MAX_NAME - LONGEST_SUFFIX} characters).`,
        "Write e.g. 'k8s-windows'.",
      );
    }
  }
  if (
    o.clusterFactsName !== undefined &&
    (typeof o.clusterFactsName !== 'string' || !isDns1123Subdomain(o.clusterFactsName))
  ) {
    add(
      'clusterFactsName',
      `${show(o.clusterFactsName)} is not an object name.`,
      "Write a lowercase DNS-1123 name, e.g. 'k8s-windows'.",
    );
  }
  if (facts && o.clusterFacts !== undefined) {
    try {
      checkClusterFacts(o.clusterFacts);
    } catch (e) {
      if (!(e instanceof WindowsValidationError)) throw e;
      issues.push(...e.issues.map((i) => ({ ...i, path: i.path.replace(/^spec\b/, 'clusterFacts') })));
    }
  }
  return issues;
}
