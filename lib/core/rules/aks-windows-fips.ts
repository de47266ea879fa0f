/**
 * aks-windows-fips: AKS documents FIPS-only images for some Windows releases
 * (https://learn.microsoft.com/azure/aks/enable-fips-nodes). A cloud rule: its check reads a cloud resource's
 * inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { AKS_FIPS_REQUIRED_RELEASES, isWindowsAgentPool, releaseForAksOsSku } from '../cloud/aks-agent-pool';
import { releaseInfo } from '../releases';

export default defineRule({
  meta: {
    id: 'aks-windows-fips',
    family: 'aks',
    defaultSeverity: 'warning',
    summary: 'A Windows Server 2025 AKS pool that does not set enableFIPS.',
    rationale: 'AKS requires a FIPS-enabled image for the Windows releases that only ship one.',
    docs: 'https://learn.microsoft.com/azure/aks/enable-fips-nodes',
    severityReason: 'The pool may be refused or get another image.',
  },
  messages: {
    'fips-unset': {
      description: 'A Windows pool of a release that needs a FIPS-enabled image, with enableFIPS not set.',
      message: '{displayName} node pools require a FIPS-enabled image, and enableFIPS is not set.',
      fix: 'Set enableFIPS: true (az aks nodepool add --enable-fips-image).',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': ({ osType, osSKU, enableFIPS }, _context, report) => {
        if (!isWindowsAgentPool({ osType }) || typeof osSKU !== 'string' || enableFIPS !== undefined) return;
        const release = releaseForAksOsSku(osSKU);
        if (release === undefined || !AKS_FIPS_REQUIRED_RELEASES.includes(release)) return;
        report({
          path: 'enableFIPS',
          messageId: 'fips-unset',
          data: { displayName: releaseInfo(release).displayName },
        });
      },
    },
  },
});
