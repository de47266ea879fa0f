/**
 * gmsa-credspec-location: the GMSACredentialSpec CRD keeps `credspec` at the top level of the object and prunes
 * unknown fields, so a credspec nested under `spec` is dropped and pods get no identity
 * (https://github.com/kubernetes-sigs/windows-gmsa/blob/master/admission-webhook/deploy/gmsa-crd.yml).
 */
import { credspecLocation } from '../model/credspecs';
import { GMSA } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gmsa-credspec-location',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: 'A GMSACredentialSpec whose credspec is missing or nested under spec.',
    rationale:
      'The CRD keeps credspec at the top level and prunes unknown keys, so a credspec under spec is dropped and pods get no identity.',
    docs: GMSA,
    severityReason: 'The pods get no gMSA identity.',
  },
  messages: {
    nested: {
      description: 'credspec written under spec, which the CRD prunes.',
      message:
        'spec.credspec is nested under spec: the CRD keeps credspec at the top level and prunes spec, so pods get no gMSA identity.',
      fix: 'Move credspec to the top level of the object, beside metadata.',
    },
    missing: {
      description: 'No top-level credspec at all.',
      message: 'The GMSACredentialSpec has no top-level credspec.',
      fix: 'Add credspec: the JSON New-CredentialSpec generates, as YAML, at the top level.',
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      const at = credspecLocation(obj);
      if (at?.path === 'credspec') return;
      if (at) {
        report({ path: at.path, messageId: 'nested' });
      } else {
        report({ path: 'credspec', messageId: 'missing' });
      }
    },
  },
});
