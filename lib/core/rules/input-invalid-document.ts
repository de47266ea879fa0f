/**
 * input-invalid-document: every document of a manifest is a Kubernetes object, a mapping with apiVersion and kind
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/#required-fields); kubectl refuses any other.
 * A document this rule reports is not checked further.
 */
import { missingObjectFields } from '../model/util';
import { OBJECTS } from './docs';
import { defineRule } from './rule';

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

export default defineRule({
  meta: {
    id: 'input-invalid-document',
    family: 'input',
    defaultSeverity: 'warning',
    summary: 'A document that is not a Kubernetes object (not a mapping, or without apiVersion/kind).',
    rationale: 'kubectl would refuse it; it cannot be checked.',
    docs: OBJECTS,
    severityReason: 'kubectl refuses the document; the rest of the input is still checked.',
  },
  messages: {
    'not-a-mapping': { description: 'A document that is not a mapping (a list, a scalar, null).' },
    'missing-fields': { description: 'A mapping without apiVersion, kind or metadata.' },
  },
  check: {
    scope: 'document',
    run(doc, { position }, report) {
      const missing = missingObjectFields(doc);
      if (missing === undefined) {
        report(
          '',
          `Document ${position + 1} is ${describe(doc)}, not a Kubernetes object.`,
          'Each YAML document must be a mapping with apiVersion, kind and metadata.',
          undefined,
          'not-a-mapping',
        );
      } else if (missing.length > 0) {
        report(
          missing[0],
          `Document ${position + 1} has no ${missing.join(' or ')}, so it is not a Kubernetes object.`,
          `Add ${missing.join(' and ')}.`,
          undefined,
          'missing-fields',
        );
      }
    },
  },
});
