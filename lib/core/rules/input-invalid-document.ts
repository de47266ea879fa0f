/**
 * input-invalid-document: every document of a manifest is a Kubernetes object, a mapping with apiVersion and kind
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/#required-fields); kubectl refuses any other.
 * A document this rule reports is not checked further, except one that writes apiVersion, kind, metadata or spec in
 * another case (`Kind:`): kubectl reads keys case-sensitively and refuses it too, but what was meant is certain, so
 * it is an error, and the engine checks the object as if it were spelled right (model/key-case.ts).
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
    summary:
      'A document that is not a Kubernetes object (not a mapping, without apiVersion/kind, or with apiVersion, kind, metadata or spec written in another case).',
    rationale: 'kubectl would refuse it; it cannot be checked.',
    docs: OBJECTS,
    severityReason: 'kubectl refuses the document; the rest of the input is still checked.',
    cases: [
      {
        name: 'wrong-case',
        severity: 'error',
        when: 'A key written in another case than an object key (Kind for kind): kubectl refuses the document, which is plainly meant as an object (it is checked as if spelled right).',
      },
    ],
  },
  messages: {
    'not-a-mapping': {
      description: 'A document that is not a mapping (a list, a scalar, null).',
      message: 'Document {position} is {doc}, not a Kubernetes object.',
      fix: 'Each YAML document must be a mapping with apiVersion, kind and metadata.',
    },
    'missing-fields': {
      description: 'A mapping without apiVersion, kind or metadata.',
      message: 'Document {position} has no {value}, so it is not a Kubernetes object.',
      fix: 'Add {value2}.',
    },
    'wrong-case': {
      description: 'apiVersion, kind, metadata or spec written in another case (Kind, apiversion), with its line.',
      message:
        "Document {position} writes '{path}': did you mean {meant}? kubectl reads keys case-sensitively and refuses the document{refusal}; it is checked here as if {meant} were written.",
      fix: 'Write {meant}, not {path}: Kubernetes field names are case-sensitive.',
    },
  },
  check: {
    scope: 'document',
    run(doc, { position, miscased }, report) {
      for (const { written, meant } of miscased) {
        // What kubectl's decoder says of a document without `kind` (apimachinery's runtime.NewMissingKindErr).
        const refusal = meant === 'kind' ? ` (Object 'Kind' is missing in '…')` : '';
        report({
          path: written,
          messageId: 'wrong-case',
          data: { position: position + 1, meant, refusal },
          case: 'wrong-case',
        });
      }
      const missing = missingObjectFields(doc);
      if (missing === undefined) {
        report({ path: '', messageId: 'not-a-mapping', data: { position: position + 1, doc: describe(doc) } });
      } else if (missing.length > 0) {
        report({
          path: missing[0],
          messageId: 'missing-fields',
          data: { position: position + 1, value: missing.join(' or '), value2: missing.join(' and ') },
        });
      }
    },
  },
});
