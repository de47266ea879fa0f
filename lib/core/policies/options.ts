/**
 * `PolicyOptions` as a front door receives them (cdk8s props, Pulumi args from JavaScript or YAML programs): any
 * value of any type. The shapes are checked here — wrong types, a cloud without a preset, unknown exclusion fields
 * — and what has the right shape has its values checked, so every problem is named at once and none is a
 * TypeError from deep inside.
 */
import type { ValidationIssue } from '../errors';
import { CLOUDS } from '../facts/clouds';
import { parseKubernetesMinor } from '../releases';
import { RULES_BY_ID } from '../validate/rules';
import { RULE_SETTINGS } from '../validate/settings';
import { ADMISSION_POLICY_VERSIONS } from './api-versions';
import { readClusterFacts } from './cluster-facts';
import { POLICY_MODES, type PolicyOptions } from './types';

const show = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const STRING_OPTIONS = ['mode', 'mutatingVersion', 'kubernetesVersion', 'namePrefix', 'clusterFactsName'] as const;
const EXCLUSION_FIELDS = ['name', 'namespace', 'kind'];

/**
 * Every problem with `options`, each naming the option, the value and the fix: their shapes (any value of any type
 * may come from JavaScript or a YAML program), then the values of the options of the right shape.
 */
export function checkPolicyOptions(options: PolicyOptions): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const add = (path: string, message: string, fix: string) => issues.push({ path, message, fix });
  const o = { ...(options as Record<string, unknown>) };
  const drop = (k: string) => delete o[k];
  for (const k of STRING_OPTIONS) {
    if (o[k] !== undefined && typeof o[k] !== 'string') {
      add(k, `${k} ${show(o[k])} is not a string.`, 'Write it in quotes.');
      drop(k);
    }
  }
  if (o.mutating !== undefined && typeof o.mutating !== 'boolean') {
    add('mutating', `mutating ${show(o.mutating)} is not true or false.`, 'Write true to add the mutating policies.');
  }
  if (o.cloud !== undefined && !(CLOUDS as readonly unknown[]).includes(o.cloud)) {
    add('cloud', `The cloud ${show(o.cloud)} has no preset.`, `Use one of ${CLOUDS.join(', ')}, or leave it out.`);
  }
  if (o.settings !== undefined && !isRecord(o.settings)) {
    add('settings', `settings ${show(o.settings)} is not a map.`, "Write { 'rule-id': 'warning' | 'off' | … }.");
    drop('settings');
  }
  if (o.systemNamespaces !== undefined) {
    if (!Array.isArray(o.systemNamespaces)) {
      add('systemNamespaces', `systemNamespaces ${show(o.systemNamespaces)} is not a list.`, "Write ['kube-system'].");
      drop('systemNamespaces');
    } else if (o.systemNamespaces.some((n) => typeof n !== 'string')) {
      o.systemNamespaces.forEach((n: unknown, i) => {
        if (typeof n !== 'string') add(`systemNamespaces[${i}]`, `${show(n)} is not a string.`, 'Write the name.');
      });
      drop('systemNamespaces');
    }
  }
  if (o.exclude !== undefined) {
    if (!Array.isArray(o.exclude)) {
      add('exclude', `exclude ${show(o.exclude)} is not a list.`, "Write [{ namespace: 'legacy', name: 'web' }].");
      drop('exclude');
    } else {
      let bad = false;
      o.exclude.forEach((e: unknown, i) => {
        if (!isRecord(e)) {
          add(`exclude[${i}]`, `${show(e)} is not an object.`, 'Write { name, namespace?, kind? }.');
          bad = true;
          return;
        }
        for (const [k, v] of Object.entries(e)) {
          if (!EXCLUSION_FIELDS.includes(k)) {
            add(`exclude[${i}].${k}`, `${k} is not a field of an exclusion.`, 'Use name, namespace and kind.');
          } else if (v !== undefined && (typeof v !== 'string' || v === '')) {
            add(`exclude[${i}].${k}`, `${k} ${show(v)} is not a name.`, `Write the object's ${k}.`);
            bad = true;
          }
        }
      });
      if (bad) drop('exclude');
    }
  }
  if (o.clusterFacts !== undefined && !isRecord(o.clusterFacts)) {
    add(
      'clusterFacts',
      `clusterFacts ${show(o.clusterFacts)} is not an object.`,
      'Write { pools: [...], runtimeClasses: [...] }.',
    );
    drop('clusterFacts');
  }
  const named = new Set(issues.map((i) => i.path));
  return [...issues, ...checkValues(o as PolicyOptions).filter((i) => !named.has(i.path))];
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Every problem of the values of well-shaped `options`, each naming the option, the value and the fix. */
function checkValues(options: PolicyOptions): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const bad = (path: string, message: string, fix: string) => issues.push({ path, message, fix });
  if (options.mode !== undefined && !POLICY_MODES.includes(options.mode)) {
    bad('mode', `'${String(options.mode)}' is not a mode.`, `Use ${POLICY_MODES.join(', ')}.`);
  }
  if (options.mutatingVersion !== undefined && !['v1', 'v1beta1'].includes(options.mutatingVersion)) {
    bad(
      'mutatingVersion',
      `'${String(options.mutatingVersion)}' is not a MutatingAdmissionPolicy version.`,
      'Use v1 or v1beta1.',
    );
  }
  if (options.kubernetesVersion !== undefined) {
    const minor = parseKubernetesMinor(options.kubernetesVersion);
    const { validatingV1, mutatingV1beta1 } = ADMISSION_POLICY_VERSIONS;
    if (minor === undefined) {
      bad('kubernetesVersion', `'${options.kubernetesVersion}' is not a Kubernetes 1.x version.`, 'Write it as 1.30.');
    } else if (minor < validatingV1) {
      bad(
        'kubernetesVersion',
        `Kubernetes 1.${minor} does not serve ValidatingAdmissionPolicy as admissionregistration.k8s.io/v1 (GA in 1.${validatingV1}).`,
        `Upgrade the cluster to 1.${validatingV1} or later, or keep using lint in CI.`,
      );
    } else if (options.mutating === true && minor < mutatingV1beta1) {
      bad(
        'mutating',
        `Kubernetes 1.${minor} has no MutatingAdmissionPolicy (beta from 1.${mutatingV1beta1}, GA in 1.${ADMISSION_POLICY_VERSIONS.mutatingV1}).`,
        `Leave the mutating policies out, or upgrade the cluster to 1.${mutatingV1beta1} or later.`,
      );
    }
  }
  for (const [id, setting] of Object.entries(options.settings ?? {})) {
    if (!RULES_BY_ID.has(id)) bad(`settings.${id}`, `'${id}' is not a rule id.`, 'Name a rule of `k8s-windows rules`.');
    else if (!RULE_SETTINGS.includes(setting)) {
      bad(`settings.${id}`, `'${String(setting)}' is not a rule setting.`, `Use ${RULE_SETTINGS.join(', ')}.`);
    }
  }
  for (const [i, ns] of (options.systemNamespaces ?? []).entries()) {
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns)) {
      bad(`systemNamespaces[${i}]`, `'${ns}' is not a namespace name.`, "Lower-case letters, digits and '-'.");
    }
  }
  for (const [i, e] of (options.exclude ?? []).entries()) {
    if (typeof e.name !== 'string' || e.name === '')
      bad(`exclude[${i}].name`, "An exclusion needs the object's name.", 'Write { name, namespace?, kind? }.');
  }
  for (const [field, value] of [
    ['namePrefix', options.namePrefix],
    ['clusterFactsName', options.clusterFactsName],
  ] as const) {
    // A policy name is `<prefix>-runtimeclass-warn-cluster`: the prefix leaves room for the longest suffix.
    if (value !== undefined && (!DNS_SUBDOMAIN.test(value) || value.length > 200)) {
      bad(
        field,
        `'${value}' is not a DNS subdomain name.`,
        "Lower-case letters, digits, '-' and '.', at most 200 characters.",
      );
    }
  }
  if (options.clusterFacts !== undefined) issues.push(...readClusterFacts(options.clusterFacts, 'clusterFacts').issues);
  return issues;
}
