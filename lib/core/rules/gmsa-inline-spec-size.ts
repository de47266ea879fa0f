/**
 * gmsa-inline-spec-size: the API server rejects an empty inline `windowsOptions.gmsaCredentialSpec` and one over
 * 64 KiB (kube-apiserver validation.go `validateWindowsSecurityContextOptions`,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/).
 */
import { MAX_GMSA_CREDENTIAL_SPEC_BYTES } from '../windows-options';
import { podWindowsOptions } from '../model/pod-windows-options';
import { byteLength, join, own, show } from '../model/util';
import { GMSA } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerName, celPresent, SPEC } from './cel-parts';

const SPEC_PATH = ['securityContext', 'windowsOptions', 'gmsaCredentialSpec'] as const;

export default defineRule({
  meta: {
    id: 'gmsa-inline-spec-size',
    family: 'windows-options',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'windowsOptions.gmsaCredentialSpec is empty or longer than 65536 bytes.',
    rationale: 'The API server rejects an empty inline credential spec and one over 64 KiB.',
    docs: GMSA,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    empty: {
      description: 'An inline gmsaCredentialSpec that is empty or not a string.',
      message: '{path} {inline}: Invalid value: gmsaCredentialSpec cannot be an empty string.',
      fix: 'Remove it and name a GMSACredentialSpec in gmsaCredentialSpecName; the gMSA webhook fills it in.',
    },
    'too-large': {
      description: "An inline gmsaCredentialSpec over the API server's size limit.",
      message:
        '{path} is {inline} bytes: Invalid value: gmsaCredentialSpec size must be under {MAX_GMSA_CREDENTIAL_SPEC_BYTES} bytes.',
      fix: 'Shrink the credential spec (only one account is needed), or reference a GMSACredentialSpec by name.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const { options, path } of podWindowsOptions(p)) {
        const inline = own(options, 'gmsaCredentialSpec');
        if (inline === undefined || inline === null) continue;
        const specPath = join(path, 'gmsaCredentialSpec');
        if (typeof inline !== 'string' || inline.length === 0) {
          report({ path: specPath, messageId: 'empty', data: { inline: show(inline) } });
        } else if (byteLength(inline) > MAX_GMSA_CREDENTIAL_SPEC_BYTES) {
          report({
            path: specPath,
            messageId: 'too-large',
            data: { inline: byteLength(inline), MAX_GMSA_CREDENTIAL_SPEC_BYTES },
          });
        }
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each inline gmsaCredentialSpec, as [where, value].
        name: 'gis_specs',
        expression: `(${celPresent(SPEC, ...SPEC_PATH)} ? [['pod', string(${[SPEC, ...SPEC_PATH].join('.')})]] : []) + variables.containers.filter(c, ${celPresent('c', ...SPEC_PATH)}).map(c, [${celContainerName('c')}, string(${['c', ...SPEC_PATH].join('.')})])`,
      },
    ],
    validations: [
      {
        expression: `variables.gis_specs.all(s, s[1] != '')`,
        messageExpression: `'gmsa-inline-spec-size: ' + variables.gis_specs.filter(s, s[1] == '').map(s, s[0] + ' securityContext.windowsOptions.gmsaCredentialSpec').join(', ') + ": Invalid value: gmsaCredentialSpec cannot be an empty string. Remove it and name a GMSACredentialSpec in gmsaCredentialSpecName; the gMSA webhook fills it in."`,
      },
      {
        expression: `variables.gis_specs.all(s, bytes(s[1]).size() <= ${MAX_GMSA_CREDENTIAL_SPEC_BYTES})`,
        messageExpression: `'gmsa-inline-spec-size: ' + variables.gis_specs.filter(s, bytes(s[1]).size() > ${MAX_GMSA_CREDENTIAL_SPEC_BYTES}).map(s, s[0] + ' securityContext.windowsOptions.gmsaCredentialSpec is ' + string(bytes(s[1]).size()) + ' bytes').join(', ') + ': Invalid value: gmsaCredentialSpec size must be under ${MAX_GMSA_CREDENTIAL_SPEC_BYTES} bytes. Shrink the credential spec (only one account is needed), or reference a GMSACredentialSpec by name.'`,
      },
    ],
  }),
});
