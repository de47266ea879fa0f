/**
 * aks-windows-release: AKS runs each Windows release on some Kubernetes versions until a retirement date
 * (https://learn.microsoft.com/azure/aks/upgrade-windows-os). Split out of aks-windows-agent-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import {
  checkAksFips,
  checkAksReleaseForKubernetes,
  isWindowsAgentPool,
  releaseForAksOsSku,
} from '../cloud/aks-agent-pool';
import { isKnown } from '../cloud/node-pools';
import { releaseInfo, WINDOWS_RELEASES } from '../releases';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-release',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'A Windows agent pool whose osSKU is not a Windows release AKS runs on its Kubernetes version, or a FIPS-only release with enableFIPS false.',
    rationale:
      'AKS offers each Windows release on a range of Kubernetes versions and retires releases on set dates; Windows Server 2025 pools need a FIPS image.',
    docs: 'https://learn.microsoft.com/azure/aks/upgrade-windows-os',
    severityReason: 'AKS refuses the pool.',
  },
  messages: {
    'os-sku': { description: 'An osSKU that is not a Windows Server osSKU.' },
    'release-version': {
      description: 'A Windows release the Kubernetes version does not offer, or that AKS has retired.',
    },
    fips: { description: 'A release that needs a FIPS-enabled image, with enableFIPS set to false.' },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, { date }, report) => {
        if (!isWindowsAgentPool(props) || !isKnown(props.osSKU)) return;
        const release = typeof props.osSKU === 'string' ? releaseForAksOsSku(props.osSKU) : undefined;
        if (release === undefined) {
          report(
            'osSKU',
            `osSKU ${JSON.stringify(props.osSKU)} is not a Windows Server osSKU.`,
            `Use one of ${WINDOWS_RELEASES.map((r) => `'${releaseInfo(r).aksOsSku}'`).join(', ')}.`,
            undefined,
            'os-sku',
          );
          return;
        }
        for (const i of checkAksReleaseForKubernetes(release, props.orchestratorVersion, 'orchestratorVersion', {
          releasePath: 'osSKU',
          date,
        })) {
          report(i.path, i.message, i.fix, undefined, 'release-version');
        }
        for (const i of checkAksFips(release, props.enableFIPS, 'enableFIPS')) {
          report(i.path, i.message, i.fix, undefined, 'fips');
        }
      },
      // The component's release against the version it runs; a retirement is said of its `release` arg.
      'aks-pool-component': ({ release, kubernetesVersion: version, enableFIPS }, { date }, report) => {
        if (release === undefined || version === undefined) return;
        const releasePath = version.releasePath;
        for (const i of checkAksReleaseForKubernetes(release, version.value, version.path, {
          date,
          ...(releasePath !== undefined ? { releasePath } : {}),
        })) {
          report(i.path, i.message, i.fix, undefined, 'release-version');
        }
        for (const i of checkAksFips(release, enableFIPS, 'agentPoolArgs.enableFIPS')) {
          report(i.path, i.message, i.fix, undefined, 'fips');
        }
      },
    },
  },
});
