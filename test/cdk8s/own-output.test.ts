/**
 * Issue 17: no finding on the library's own output under default settings. Every cdk8s construct, with only the
 * props it requires, through the engine and the cdk8s validation plugin; and, in a namespaced Chart, no
 * cluster-scoped object carries a namespace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { type App, Chart, Cron, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { validateManifests } from 'k8s-windows';
import {
  GmsaCredentialSpec,
  GmsaWebhook,
  WindowsCronJob,
  WindowsDaemonSet,
  WindowsDeployment,
  WindowsHostProcessDaemonSet,
  WindowsJob,
  WindowsKarpenterNodePool,
  WindowsRuntimeClass,
  WindowsStatefulSet,
  pinLinuxWorkloads,
} from 'k8s-windows/cdk8s';
import { WindowsValidation, type ValidationViolation } from 'k8s-windows/cdk8s/plugin';
import type { Manifest } from '../helpers/cdk8s';
import { silenceWarnings } from '../helpers/cdk8s';

const NANOSERVER = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';
/** A batch image large enough for windows-startup-probe, which must not advise a probe on a Job's container. */
const SERVERCORE = 'mcr.microsoft.com/windows/servercore:ltsc2022';
const AGENT = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

/** Kinds the API server keeps outside namespaces, among those the constructs write. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'RuntimeClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'GMSACredentialSpec',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'NodePool',
  'EC2NodeClass',
]);

/** Every construct with only what it requires, in one chart. */
function everyConstruct(chart: Chart): void {
  new WindowsDeployment(chart, 'deployment', {
    containers: [{ image: NANOSERVER, portNumber: 80 }],
  }).exposeViaService();
  new WindowsStatefulSet(chart, 'statefulset', { containers: [{ image: NANOSERVER, portNumber: 1433 }] });
  new WindowsDaemonSet(chart, 'daemonset', { containers: [{ image: NANOSERVER }] });
  new WindowsJob(chart, 'job', { containers: [{ image: SERVERCORE }] });
  new WindowsCronJob(chart, 'cronjob', {
    schedule: Cron.daily(),
    containers: [{ image: SERVERCORE }],
  });
  new WindowsRuntimeClass(chart, 'runtimeclass');
  new WindowsHostProcessDaemonSet(chart, 'agent', {
    namespace: 'windows-system',
    namespacePolicy: 'label-privileged',
    containers: [{ image: AGENT }],
  });
  const credspec = new GmsaCredentialSpec(chart, 'credspec', {
    domain: {
      dnsName: 'contoso.com',
      netBiosName: 'CONTOSO',
      sid: 'S-1-5-21-2126449477-2524075714-3094792973',
      guid: '244818ae-87ac-4fcd-92ec-e79e5252348a',
    },
    accounts: [{ name: 'WebApp01' }],
  });
  new WindowsDeployment(chart, 'gmsa', { containers: [{ image: NANOSERVER }], windows: { gmsa: credspec } });
  new GmsaWebhook(chart, 'webhook');
  new WindowsKarpenterNodePool(chart, 'nodepool', {
    role: 'KarpenterNodeRole-windows',
    subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
    securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  });
  new kplus.Deployment(chart, 'linux', {
    containers: [{ image: 'redis:7.2', portNumber: 6379, securityContext: { user: 999 } }],
  });
  pinLinuxWorkloads(chart);
}

let emitWarning: jest.SpyInstance;
let dir: string;
beforeEach(() => {
  emitWarning = silenceWarnings();
  dir = mkdtempSync(join(tmpdir(), 'k8s-windows-own-'));
});
afterEach(() => {
  emitWarning.mockRestore();
  rmSync(dir, { recursive: true, force: true });
});

async function pluginViolations(manifests: readonly Manifest[]): Promise<ValidationViolation[]> {
  const path = join(dir, 'app.k8s.yaml');
  writeFileSync(path, Yaml.stringify(...manifests));
  const violations: ValidationViolation[] = [];
  await new WindowsValidation().validate({
    manifests: [path],
    report: { addViolation: (v) => void violations.push(v), submit: () => undefined },
    logger: { log: () => undefined },
  });
  return violations;
}

describe.each([
  ['a chart without a namespace', undefined],
  ["a chart with namespace 'apps'", 'apps'],
])('every construct with its defaults, in %s', (_title, namespace) => {
  let manifests: Manifest[];
  beforeEach(() => {
    const chart = new Chart(Testing.app() as App, 'own', namespace === undefined ? {} : { namespace });
    everyConstruct(chart);
    manifests = Testing.synth(chart);
  });

  test('the engine finds nothing, at any severity', () => {
    expect(validateManifests(manifests, { crossObjectScope: 'set' })).toEqual([]);
  });

  test('the validation plugin reports nothing', async () => {
    expect(await pluginViolations(manifests)).toEqual([]);
  });

  test("no cluster-scoped object carries a namespace; namespaced ones follow the Chart's unless named", () => {
    for (const m of manifests) {
      if (CLUSTER_SCOPED.has(m.kind)) expect([m.kind, m.metadata.namespace]).toEqual([m.kind, undefined]);
      else if (m.kind === 'DaemonSet' && m.spec.template.spec.securityContext?.windowsOptions?.hostProcess)
        expect(m.metadata.namespace).toBe('windows-system');
      else if (m.metadata.namespace !== 'gmsa-webhook')
        expect([m.kind, m.metadata.namespace]).toEqual([m.kind, namespace]);
    }
  });
});
