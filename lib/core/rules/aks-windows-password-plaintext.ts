/**
 * aks-windows-password-plaintext: Pulumi encrypts a value only when it is a secret
 * (https://www.pulumi.com/docs/iac/concepts/secrets/). A cloud rule: its check reads a cloud resource's inputs;
 * `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-password-plaintext',
    family: 'aks',
    defaultSeverity: 'warning',
    summary: 'The Windows admin password is a plain string in the program.',
    rationale: 'A literal password ends up in source control; Pulumi keeps it secret only when it is one.',
    docs: 'https://www.pulumi.com/docs/iac/concepts/secrets/',
    severityReason: 'The cluster works; the password leaks.',
  },
  messages: {
    plaintext: {
      description: 'A Windows admin password written as a plain string in the program.',
      message: 'The Windows admin password is a plain string in the program: it ends up in source control.',
      fix: "Use config.requireSecret('windowsAdminPassword') or a generated password (it is kept as a Pulumi secret).",
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_POOL_COMPONENT],
    run: {
      'aks-admin-password': ({ adminPassword }, _context, report) => {
        if (typeof adminPassword !== 'string') return;
        report({ path: 'adminPassword', messageId: 'plaintext' });
      },
    },
  },
});
