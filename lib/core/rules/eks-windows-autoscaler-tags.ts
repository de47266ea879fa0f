/**
 * eks-windows-autoscaler-tags: Cluster Autoscaler reads node-template tags to model the nodes of an empty group
 * (https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup).
 * A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_NODE_GROUP, EKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup } from '../cloud/eks-node-group';
import { AUTOSCALER_WINDOWS_OS_TAG, AUTOSCALER_WINDOWS_POD_IP_TAG, windowsPodIpCapacity } from '../cloud/eks-tags';
import { isRecord } from '../json';

export default defineRule({
  meta: {
    id: 'eks-windows-autoscaler-tags',
    family: 'eks',
    defaultSeverity: 'info',
    summary: 'A Windows node group without the Cluster Autoscaler kubernetes.io/os node-template tag.',
    rationale:
      'Cluster Autoscaler builds a template node from the tags of an empty group; without the tag it models a Linux node.',
    docs: 'https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup',
    severityReason: 'Matters only for a group that scales from zero (warning then).',
    cases: [
      {
        name: 'scale-from-zero',
        severity: 'warning',
        when: 'The group has minSize 0: Cluster Autoscaler will not scale it up for Windows pods.',
      },
    ],
  },
  messages: {
    'os-tag': {
      description: 'A Windows node group without the Cluster Autoscaler OS tag.',
      message:
        'The Windows node group has no tag {AUTOSCALER_WINDOWS_OS_TAG}=windows, so Cluster Autoscaler treats an empty group as Linux{value}.',
      fix: "Tag the node group's Auto Scaling group with {AUTOSCALER_WINDOWS_OS_TAG}=windows (WindowsNodePool does this).",
    },
    'pod-ip-capacity': {
      description:
        'A component group that scales from zero on instance types whose Windows pod IP capacity is not known, so it gets no capacity tag.',
      message:
        'The Windows pod IP capacity of {value} is not known here, so the group gets no {AUTOSCALER_WINDOWS_POD_IP_TAG} tag and Cluster Autoscaler cannot scale it up from zero.',
      fix: "Tag the Auto Scaling group with that key and the type's IPv4 addresses per interface minus one, or keep minSize ≥ 1.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT],
    run: {
      'eks-node-group': ({ amiType, tags, scalingConfig }, _context, report) => {
        if (windowsNodeGroup({ amiType }) === undefined) return;
        if (tags !== undefined && !(isRecord(tags) && tags[AUTOSCALER_WINDOWS_OS_TAG] !== 'windows')) return;
        const fromZero = isRecord(scalingConfig) && scalingConfig.minSize === 0;
        report({
          path: `tags["${AUTOSCALER_WINDOWS_OS_TAG}"]`,
          messageId: 'os-tag',
          data: { AUTOSCALER_WINDOWS_OS_TAG, value: fromZero ? ' and will not scale it up from zero' : '' },
          case: fromZero ? 'scale-from-zero' : undefined,
        });
      },
      // The components tag the group themselves, with the pod IP capacity when they know it for every type.
      'eks-autoscaling-component': ({ instanceTypes, minSize }, _context, report) => {
        if (minSize !== 0) return;
        if (instanceTypes.length > 0 && instanceTypes.every((t) => windowsPodIpCapacity(t) !== undefined)) return;
        report({
          path: '',
          messageId: 'pod-ip-capacity',
          data: { value: instanceTypes.join(', '), AUTOSCALER_WINDOWS_POD_IP_TAG },
          case: 'scale-from-zero',
        });
      },
    },
  },
});
