/**
 * `PolicyOptions` as a front door receives them (cdk8s props, Pulumi args from JavaScript or YAML programs): any
 * value of any type. The shapes are checked here — wrong types, a cloud without a preset, unknown exclusion fields
 * — and what has the right shape goes on to `checkPolicyOptions`, so every problem is named at once and none is a
 * TypeError from deep inside.
 */
import type { ValidationIssue } from '../errors';
import { CLOUDS } from '../facts/clouds';
import { checkPolicyOptions } from './index';
import type { PolicyOptions } from './types';

const show = (v: unknown): string => (v === undefined ? 'undefined' : JSON.stringify(v));

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const STRING_OPTIONS = ['mode', 'mutatingVersion', 'kubernetesVersion', 'namePrefix', 'clusterFactsName'] as const;
const EXCLUSION_FIELDS = ['name', 'namespace', 'kind'];

/** Every problem with `options`: their shapes, then (for the options of the right shape) `checkPolicyOptions`. */
export function checkPolicyArgs(options: PolicyOptions): ValidationIssue[] {
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
  return [...issues, ...checkPolicyOptions(o as PolicyOptions).filter((i) => !named.has(i.path))];
}
