/**
 * A rule's examples, `lib/core/rules/<id>.examples.yaml`: manifests that fail and pass the rule, read by the example
 * tests (test/core/rules/examples.test.ts) and the rule pages (`npm run docs`). A rule without a failing and a
 * passing example is an error here, so neither can run without them.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { FixOptions } from '../lib/core/fix/options';

export const RULES_DIR = path.join(__dirname, '..', 'lib', 'core', 'rules');

/** One example: manifests (YAML text) and what the rule says about them. */
export interface RuleExample {
  /** What it shows, one line: a heading on the rule's page. */
  readonly title: string;
  /**
   * One or more YAML documents: Kubernetes objects, or for a cloud rule the Pulumi resources of a stack, each
   * `{ type, name?, props }` (a provider resource, as the policy pack sees it) or `{ type, name?, args }` (a
   * k8s-windows component, built under Pulumi mocks).
   */
  readonly manifests: string;
  readonly options?: FixOptions;
}

export interface FailingExample extends RuleExample {
  /**
   * The findings of this rule, in order: their path, the id of the message each is (one its rule declares, or for
   * an alias one of the rules it covers) and, when not the default severity, their case.
   */
  readonly findings: readonly { readonly path: string; readonly messageId: string; readonly case?: string }[];
  /** For a fixable rule: the manifests after `fixManifests`, or `unchanged`. */
  readonly fixed?: string;
}

export interface RuleExamples {
  readonly failing: readonly FailingExample[];
  readonly passing: readonly RuleExample[];
}

export function examplesFile(id: string): string {
  return path.join(RULES_DIR, `${id}.examples.yaml`);
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Reads and checks a rule's examples; throws naming the file and every problem. */
export function readRuleExamples(id: string): RuleExamples {
  const file = examplesFile(id);
  if (!existsSync(file)) throw new Error(`${file}: missing: every rule has a failing and a passing example.`);
  const data = parse(readFileSync(file, 'utf8')) as Partial<RuleExamples> | null;
  const problems: string[] = [];
  const failing = Array.isArray(data?.failing) ? data.failing : [];
  const passing = Array.isArray(data?.passing) ? data.passing : [];
  if (failing.length === 0) problems.push('no failing example');
  if (passing.length === 0) problems.push('no passing example');
  [...failing, ...passing].forEach((e, i) => {
    if (!isText(e?.title) || !isText(e?.manifests)) problems.push(`example ${i + 1} needs a title and manifests`);
  });
  failing.forEach((e, i) => {
    if (
      !Array.isArray(e.findings) ||
      e.findings.length === 0 ||
      !e.findings.every(
        (f: { path?: unknown; messageId?: unknown } | null) => typeof f?.path === 'string' && isText(f.messageId),
      )
    ) {
      problems.push(`failing example ${i + 1} ('${e.title}') needs findings with a path and a messageId each`);
    }
  });
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}.`);
  return { failing, passing };
}
