/**
 * Renders what a program would create: each resource's type and name, and the inputs that decide whether Windows
 * works (node image and release, taints, labels, pod OS, nodeSelector, tolerations, RuntimeClass handler).
 *
 * The plan printer of `npm run plan`, not a program to copy: it reads resources as the policy pack does, through
 * modules no package entry exports.
 */
import type { PolicyViolation } from 'k8s-windows/pulumi/policy';
import type { MockedResource } from 'k8s-windows/pulumi/testing';
import { locatePodSpec } from '../../lib/core/workloads';
import { kubernetesTypeOf } from '../../lib/pulumi/policy/manifests';

/** One resource the program declared, as the mocked engine saw it. */
export type CapturedResource = Pick<MockedResource, 'type' | 'name' | 'urn' | 'custom' | 'inputs'>;

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function get(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of path.split('.')) node = isRecord(node) ? node[key] : undefined;
  return node;
}

function labels(value: unknown): string {
  return isRecord(value)
    ? Object.entries(value)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')
    : String(value);
}

function taints(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  return value
    .map((t) =>
      typeof t === 'string'
        ? t
        : isRecord(t)
          ? `${String(t.key)}${t.value !== undefined ? `=${String(t.value)}` : ''}:${String(t.effect)}`
          : String(t),
    )
    .join(', ');
}

function tolerations(value: unknown): string {
  if (!Array.isArray(value)) return String(value);
  return value
    .map((t: unknown) => {
      if (!isRecord(t)) return String(t);
      const what = t.operator === 'Exists' ? `${String(t.key ?? '*')} exists` : `${String(t.key)}=${String(t.value)}`;
      return `${what}:${String(t.effect ?? '*')}`;
    })
    .join(', ');
}

/** `[label, value]` pairs worth showing for a resource; empty for resources that say nothing about Windows. */
export function windowsFacts(r: CapturedResource): [string, string][] {
  const i = r.inputs;
  const facts: [string, string][] = [];
  const add = (label: string, value: unknown, show: (v: unknown) => string = String): void => {
    const empty = isRecord(value) ? Object.keys(value).length === 0 : Array.isArray(value) && value.length === 0;
    if (value !== undefined && value !== null && !empty) facts.push([label, show(value)]);
  };
  if (r.type === 'aws:eks/nodeGroup:NodeGroup') {
    add('amiType', i.amiType);
    add('instanceTypes', i.instanceTypes, (v) => (Array.isArray(v) ? v.join(', ') : String(v)));
    add('taints', i.taints, taints);
    add('labels', i.labels, labels);
  } else if (r.type === 'aws:eks/addon:Addon') {
    add('addonName', i.addonName);
    add('configurationValues', i.configurationValues);
  } else if (/^azure-native:containerservice(\/v\w+)?:AgentPool$/.test(r.type)) {
    add('osType', i.osType);
    add('osSKU', i.osSKU);
    add('mode', i.mode);
    add('vmSize', i.vmSize);
    add('nodeTaints', i.nodeTaints, taints);
    add('nodeLabels', i.nodeLabels, labels);
  } else if (/^azure-native:containerservice(\/v\w+)?:ManagedCluster$/.test(r.type)) {
    add('windowsProfile.adminUsername', get(i, 'windowsProfile.adminUsername'));
    add('networkProfile.networkPlugin', get(i, 'networkProfile.networkPlugin'));
    const pools = Array.isArray(i.agentPoolProfiles) ? i.agentPoolProfiles : [];
    pools.forEach((p: unknown) =>
      add(`agentPool ${String(get(p, 'name'))}`, `${String(get(p, 'osType'))} ${String(get(p, 'mode'))}`),
    );
  } else if (r.type === 'gcp:container/nodePool:NodePool') {
    add('imageType', get(i, 'nodeConfig.imageType'));
    add('osversion', get(i, 'nodeConfig.windowsNodeConfig.osversion'));
    add('machineType', get(i, 'nodeConfig.machineType'));
    add('taints', get(i, 'nodeConfig.taints'), taints);
    add('labels', get(i, 'nodeConfig.labels'), labels);
  } else if (r.type === 'gcp:container/cluster:Cluster') {
    add('networkingMode', i.networkingMode);
    add('enableAutopilot', i.enableAutopilot);
  } else if (r.type === 'kubernetes:core/v1:ConfigMapPatch') {
    add('metadata', `${String(get(i, 'metadata.namespace'))}/${String(get(i, 'metadata.name'))}`);
    add('data', i.data, labels);
  } else if (kubernetesTypeOf(r.type)) {
    const t = kubernetesTypeOf(r.type);
    const pod = locatePodSpec({ ...i, kind: t?.kind });
    if (pod) {
      const spec = pod.spec as unknown as Json;
      add('os.name', get(spec, 'os.name'));
      add('nodeSelector', spec.nodeSelector, labels);
      add('tolerations', spec.tolerations, tolerations);
      add('runtimeClassName', spec.runtimeClassName);
      add('windowsOptions', get(spec, 'securityContext.windowsOptions'), (v) => JSON.stringify(v));
      const containers = Array.isArray(spec.containers) ? spec.containers : [];
      containers.forEach((c: unknown) => add(`image ${String(get(c, 'name'))}`, get(c, 'image')));
    } else if (t?.kind === 'RuntimeClass') {
      add('handler', i.handler);
      add('scheduling.nodeSelector', get(i, 'scheduling.nodeSelector'), labels);
    } else if (t?.kind === 'Service') {
      add('type', get(i, 'spec.type'));
      add('selector', get(i, 'spec.selector'), labels);
    } else if (t?.kind === 'ConfigMap') {
      add('data', i.data, labels);
    }
  }
  return facts;
}

/** The plan of one program: every resource in registration order with its Windows facts, the components, then the policy verdict. */
export function renderPlan(
  cloud: string,
  resources: readonly CapturedResource[],
  violations: readonly PolicyViolation[],
): string {
  const lines: string[] = [];
  const custom = resources.filter((r) => r.custom);
  lines.push(`== ${cloud}: ${custom.length} resources in ${resources.length - custom.length} components`);
  // Mocks are not told a resource's parent, so components are listed apart rather than as (wrong) group headings.
  for (const r of custom) {
    lines.push(`  + ${r.type} ${r.name}`);
    for (const [label, value] of windowsFacts(r)) lines.push(`      ${label}: ${value}`);
  }
  lines.push(
    `  components: ${resources
      .filter((r) => !r.custom)
      .map((r) => `${r.type} ${r.name}`)
      .join(', ')}`,
  );
  const mandatory = violations.filter((v) => v.enforcementLevel === 'mandatory');
  lines.push(
    `  policy pack k8s-windows: ${mandatory.length} mandatory, ${violations.length - mandatory.length} advisory violation(s)`,
  );
  for (const v of violations) {
    const on = v.urn ? ` (${v.urn.split('::').slice(-1)[0]})` : '';
    lines.push(`    [${v.enforcementLevel}] ${v.policy}${on}: ${v.message}`);
  }
  lines.push(`  verdict: ${mandatory.length === 0 ? 'PASS' : 'FAIL'}`);
  return lines.join('\n');
}
