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
    'os-sku': {
      description: 'An osSKU that is not a Windows Server osSKU.',
      message: 'osSKU {osSKU} is not a Windows Server osSKU.',
      fix: 'Use one of {value}.',
    },
    'release-version': {
      description: 'A Windows release the Kubernetes version does not offer, or that AKS has retired.',
      message: '{message}',
      fix: '{fix}',
    },
    fips: {
      description: 'A release that needs a FIPS-enabled image, with enableFIPS set to false.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, { date }, report) => {
        if (!isWindowsAgentPool(props) || !isKnown(props.osSKU)) return;
        const release = typeof props.osSKU === 'string' ? releaseForAksOsSku(props.osSKU) : undefined;
        if (release === undefined) {
          report({
            path: 'osSKU',
            messageId: 'os-sku',
            data: {
              osSKU: JSON.stringify(props.osSKU),
              value: WINDOWS_RELEASES.map((r) => `'${releaseInfo(r).aksOsSku}'`).join(', '),
            },
          });
          return;
        }
        for (const i of checkAksReleaseForKubernetes(release, props.orchestratorVersion, 'orchestratorVersion', {
          releasePath: 'osSKU',
          date,
        })) {
          report({ path: i.path, messageId: 'release-version', data: { message: i.message, fix: i.fix } });
        }
        for (const i of checkAksFips(release, props.enableFIPS, 'enableFIPS')) {
          report({ path: i.path, messageId: 'fips', data: { message: i.message, fix: i.fix } });
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
          report({ path: i.path, messageId: 'release-version', data: { message: i.message, fix: i.fix } });
        }
        for (const i of checkAksFips(release, enableFIPS, 'agentPoolArgs.enableFIPS')) {
          report({ path: i.path, messageId: 'fips', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
