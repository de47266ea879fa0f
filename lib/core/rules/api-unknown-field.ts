/**
 * api-unknown-field: a field the object's type does not have (a capital-E `Effect` in a toleration), which kubectl
 * refuses under its default strict field validation (`--validate=strict`, the default since 1.27: `strict decoding
 * error: unknown field "spec.tolerations[0].Effect"`;
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation). Without strict validation the
 * server drops the field silently, which is worse: the toleration then has no effect. Fields are looked up in the
 * OpenAPI definitions of the target version (lib/core/api/schema.ts); only built-in API groups are checked, never
 * custom resources.
 */
import {
  apiSchema,
  closeFieldNames,
  fieldPath,
  groupOf,
  isBuiltinGroup,
  newestMinor,
  targetMinor,
  unknownFields,
} from '../api/schema';
import { REMOVED_GROUPS } from '../api/removed';
import type { Fixer } from '../model/fixes';
import { missingObjectFields, type Rec } from '../model/util';
import { FIELD_VALIDATION } from './docs';
import { defineRule } from './rule';

/**
 * Renames a field whose name differs from a known one only in case (`Effect` → `effect`), when the mapping does not
 * have the known name already: what was meant is then certain. Fixes run on pods (lib/core/fix), so this covers pod
 * fields; the newest API data names the field (a fixer does not see the target version; a case-only rename does
 * not differ between versions).
 */
const renameCase: Fixer = ({ diagnostic, pod }) => {
  const object = pod.obj;
  const type = apiSchema(newestMinor()).kinds.get(`${String(object.apiVersion)}/${String(object.kind)}`);
  const found = type && unknownFields(object, type).find((f) => f.path === diagnostic.path);
  if (!found) return [];
  const same = found.close.filter((c) => c.toLowerCase() === found.name.toLowerCase());
  const segments = diagnostic.location?.segments;
  if (same.length !== 1 || !segments) return [];
  let holder: unknown = object;
  for (const s of segments.slice(0, -1)) holder = (holder as Record<string | number, unknown> | undefined)?.[s];
  if (typeof holder !== 'object' || holder === null || Object.hasOwn(holder, same[0])) return [];
  const value = (holder as Record<string, unknown>)[found.name];
  return [
    { op: 'set', path: fieldPath(found.parent, same[0]), value },
    { op: 'remove', path: found.path },
  ];
};

export default defineRule({
  meta: {
    id: 'api-unknown-field',
    family: 'api-server',
    defaultSeverity: 'error',
    summary: 'A field the Kubernetes API does not have for that kind (a misspelling such as Effect for effect).',
    rationale:
      "kubectl's default strict field validation refuses an unknown field; with validation off the server drops it, so the setting (a toleration's effect, a resource limit) silently does nothing.",
    docs: FIELD_VALIDATION,
    severityReason: 'kubectl apply fails with a strict decoding error (or the field is silently dropped).',
    rejectedByApiServer: true,
    fixable: 'Renames a pod field that differs from a known one only in case (Effect to effect).',
    cases: [
      {
        name: 'newer-target',
        severity: 'warning',
        when: 'The target Kubernetes version is newer than the API data the package has: the field may be new in it.',
      },
    ],
  },
  messages: {
    'unknown-field': {
      description:
        'A field the API has no schema entry for in that kind and place (with the nearest known name, where one is close).',
      message:
        '{path}: unknown field "{name}" ({value} has no such field{caveat}): kubectl\'s strict field validation refuses it, and without validation the server drops it.',
      fix: '{fix}',
    },
  },
  fix: renameCase,
  fixMeaning: { removal: 'an unknown field, renamed to the known name it differs from only in case' },
  check: {
    scope: 'document',
    run(doc, { options }, report) {
      if (missingObjectFields(doc)?.length !== 0) return;
      const object = doc as Rec & { apiVersion: string; kind: string };
      if (!isBuiltinGroup(groupOf(object.apiVersion), REMOVED_GROUPS)) return;
      // An apiVersion/kind the version does not serve is api-version-removed's finding, not a field's.
      const minor = targetMinor(options.kubernetesVersion);
      const schema = apiSchema(minor);
      const type = schema.kinds.get(`${object.apiVersion}/${object.kind}`);
      if (!type) return;
      const newer = minor > schema.minor;
      const caveat = newer
        ? ` (by the API of Kubernetes 1.${schema.minor}, the newest this package knows: 1.${minor} may have added it)`
        : '';
      for (const f of unknownFields(object, type)) {
        const close = f.close.length > 0 ? f.close : closeFieldNames(f.type, f.name);
        report({
          path: f.path,
          messageId: 'unknown-field',
          data: {
            name: f.name,
            value: f.type.name.replace(/^Kube(\w+)Props$/, '$1'),
            caveat,
            fix:
              close.length > 0
                ? `Did you mean ${close.map((c) => `'${c}'`).join(' or ')}? Field names are case-sensitive.`
                : 'Remove the field, or move it to where it belongs.',
          },
          case: newer ? 'newer-target' : undefined,
        });
      }
    },
  },
});
