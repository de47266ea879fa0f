/**
 * Pulumi mocks for the offline plan: every resource "creates" with its inputs as its state, plus the outputs the
 * example programs read (ARNs, endpoints, certificates, kubeconfigs), invented but well-formed. Nothing leaves the
 * process: no account, no CLI, no network.
 */
import * as pulumi from '@pulumi/pulumi';

/** One resource the program declared, as the mock monitor saw it. */
export interface CapturedResource {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  /** Whether a provider manages it (false for components). */
  readonly custom: boolean;
  readonly inputs: Record<string, unknown>;
}

const ACCOUNT = '123456789012';
const FAKE_CA = Buffer.from('-----BEGIN CERTIFICATE-----\nplan\n-----END CERTIFICATE-----\n').toString('base64');

/** Outputs a provider would compute, for the types the examples read outputs of. */
function computedOutputs(type: string, name: string, inputs: Record<string, unknown>): Record<string, unknown> {
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
function invokeResult(token: string, inputs: Record<string, unknown>): Record<string, unknown> {
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

/**
 * Inputs with Pulumi's secret wrappers replaced by their values, as CrossGuard shows them to policies (the mock
 * monitor receives secrets as `{ [specialSigKey]: specialSecretSig, value }`).
 */
export function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value !== 'object' || value === null) return value;
  const rec = value as Record<string, unknown>;
  if (rec[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig) return unwrapSecrets(rec.value);
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** Mocks that record every registration into `captured`, secrets unwrapped. */
export function recordingMocks(project: string, stack: string, captured: CapturedResource[]): pulumi.runtime.Mocks {
  return {
    newResource: (args) => {
      const inputs = unwrapSecrets(args.inputs ?? {}) as Record<string, unknown>;
      captured.push({
        type: args.type,
        name: args.name,
        urn: `urn:pulumi:${stack}::${project}::${args.type}::${args.name}`,
        custom: args.custom ?? true,
        inputs,
      });
      return { id: `${args.name}-id`, state: { ...inputs, ...computedOutputs(args.type, args.name, inputs) } };
    },
    call: (args) => invokeResult(args.token, (args.inputs ?? {}) as Record<string, unknown>),
  };
}
