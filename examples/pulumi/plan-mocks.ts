/**
 * What the offline plan's mocked providers compute: the outputs the example programs read (ARNs, endpoints,
 * certificates, kubeconfigs), invented but well-formed, and invoke results. `runProgram` from
 * `k8s-windows/pulumi/testing` runs the programs with them. Nothing leaves the process: no account, no CLI, no network.
 */
import type { MockedResource } from 'k8s-windows/pulumi/testing';

/** One resource the program declared, as the mocked engine saw it. */
export type CapturedResource = Omit<MockedResource, 'state'>;

const ACCOUNT = '123456789012';
const FAKE_CA = Buffer.from('-----BEGIN CERTIFICATE-----\nplan\n-----END CERTIFICATE-----\n').toString('base64');

/** Outputs a provider would compute, for the types the examples read outputs of. */
export function computedOutputs(type: string, name: string, inputs: Record<string, unknown>): Record<string, unknown> {
  const physical = typeof inputs.name === 'string' ? inputs.name : `${name}-plan`;
  if (type.startsWith('aws:')) {
    const service = type.split(':')[1].split('/')[0];
    const extra: Record<string, unknown> = {
      name: physical,
      arn: `arn:aws:${service}::${ACCOUNT}:${type.split(':')[2].toLowerCase()}/${physical}`,
    };
    if (type === 'aws:eks/cluster:Cluster') {
      extra.endpoint = `https://${physical.toUpperCase()}.gr7.eu-west-1.eks.amazonaws.com`;
      extra.certificateAuthority = { data: FAKE_CA };
    }
    if (type === 'aws:eks/nodeGroup:NodeGroup') {
      extra.resources = [{ autoscalingGroups: [{ name: `eks-${name}-plan` }] }];
    }
    return extra;
  }
  if (type.startsWith('azure-native:')) {
    return {
      name: physical,
      id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/plan/providers/${type}/${physical}`,
    };
  }
  if (type.startsWith('gcp:')) {
    const extra: Record<string, unknown> = { name: physical };
    if (type === 'gcp:container/cluster:Cluster') {
      extra.endpoint = '203.0.113.10';
      extra.masterAuth = { clusterCaCertificate: FAKE_CA };
    }
    return extra;
  }
  if (
    type === 'kubernetes:core/v1:Service' &&
    (inputs.spec as Record<string, unknown> | undefined)?.type === 'LoadBalancer'
  ) {
    return { status: { loadBalancer: { ingress: [{ ip: '198.51.100.7', hostname: 'iis.plan.example' }] } } };
  }
  return {};
}

const KUBECONFIG = [
  'apiVersion: v1',
  'kind: Config',
  'clusters: [{name: plan, cluster: {server: "https://203.0.113.20"}}]',
  'contexts: [{name: plan, context: {cluster: plan, user: plan}}]',
  'current-context: plan',
  'users: [{name: plan, user: {token: plan}}]',
].join('\n');

/** Invokes the examples make. */
export function invokeResult(token: string, inputs: Record<string, unknown>): Record<string, unknown> {
  if (token.startsWith('azure-native:containerservice:listManagedCluster')) {
    return { kubeconfigs: [{ name: 'clusterUser', value: Buffer.from(KUBECONFIG).toString('base64') }] };
  }
  if (token === 'aws:index/getCallerIdentity:getCallerIdentity') {
    return { accountId: ACCOUNT, arn: `arn:aws:iam::${ACCOUNT}:user/plan`, userId: 'plan' };
  }
  if (token === 'aws:index/getPartition:getPartition') return { partition: 'aws', dnsSuffix: 'amazonaws.com' };
  if (token === 'aws:index/getRegion:getRegion') return { name: 'eu-west-1' };
  return inputs;
}
