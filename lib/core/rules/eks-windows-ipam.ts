/**
 * eks-windows-ipam: Windows pods get IPs only with enable-windows-ipam set
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support). A cloud rule: its
 * check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { CONFIG_MAP, EKS_ADDON, EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { declaresEksWindowsNodes, isOn, patchesWindowsIpam, vpcCniAddonConfig } from '../cloud/eks-stack';

export default defineRule({
  meta: {
    id: 'eks-windows-ipam',
    family: 'eks',
    defaultSeverity: 'warning',
    summary:
      'A stack with EKS Windows nodes that does not switch on Windows IPAM (amazon-vpc-cni ConfigMap or VPC CNI add-on).',
    rationale: 'Without enable-windows-ipam Windows pods get no IP and stay ContainerCreating.',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support',
    severityReason: 'The setting may be made outside the stack.',
  },
  messages: {
    'ipam-off': {
      description: 'A stack with EKS Windows nodes where Windows IPAM is switched on nowhere.',
      message:
        "The stack runs Windows nodes on EKS, but Windows IPAM is switched on nowhere in it (amazon-vpc-cni enable-windows-ipam, or the vpc-cni add-on's enableWindowsIpam): Windows pods get no IP address.",
      fix: 'Use WindowsClusterPrerequisites (vpcCniAddon for the managed add-on), or set enableWindowsIpam: "true" in the add-on\'s configurationValues.',
    },
    'ipam-overwritten': {
      description: 'Windows IPAM switched on in the ConfigMap that the vpc-cni add-on resets (OVERWRITE).',
      message:
        "Windows IPAM is switched on in the amazon-vpc-cni ConfigMap, but the stack's vpc-cni add-on resolves update conflicts with OVERWRITE, which resets the ConfigMap.",
      fix: 'Set enableWindowsIpam: "true" in the add-on\'s configurationValues (vpcCniWindowsConfigurationValues()).',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_ADDON, CONFIG_MAP, EKS_NODE_GROUP],
    run: {
      // Values not known yet count as present; an add-on update that resolves conflicts with OVERWRITE resets a
      // patched ConfigMap.
      'eks-stack': ({ resources }, _context, report) => {
        if (!declaresEksWindowsNodes(resources)) return;
        const addons = resources.map(vpcCniAddonConfig).filter((c) => c !== undefined);
        const addonOn = addons.some((c) => c === 'unknown' || isOn(c.enableWindowsIpam));
        const patches = resources.map(patchesWindowsIpam);
        const patchOn = patches.includes('yes') || patches.includes('unknown');
        const overwriting = resources.some(
          (r) => vpcCniAddonConfig(r) !== undefined && r.props.resolveConflictsOnUpdate === 'OVERWRITE',
        );
        if (!addonOn && !patchOn) {
          report({ path: 'vpc-cni', messageId: 'ipam-off' });
        } else if (!addonOn && overwriting) {
          report({ path: 'vpc-cni', messageId: 'ipam-overwritten' });
        }
      },
    },
  },
});
