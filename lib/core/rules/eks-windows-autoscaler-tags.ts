/**
 * eks-windows-autoscaler-tags: Cluster Autoscaler reads node-template tags to model the nodes of an empty group
 * (https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup).
 * A cloud rule: the policy pack and the components check it on the resources its check lists, in
 * lib/pulumi/eks/node-group-check.ts, lib/pulumi/eks/pool-args.ts; this module is its catalogue entry.
 */
import { EKS_NODE_GROUP, EKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

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
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT] },
});
