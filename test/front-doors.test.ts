/**
 * One verdict at every front door: for each case where the constructs and the linter once disagreed, the engine's
 * severity decides. An error is refused by `toWindowsPodSpec` (which the Pulumi components run) and by the cdk8s
 * constructs; a warning or advice never is: it reaches the construct user as a warning under the engine's rule id.
 * The cdk8s plugin and the policy pack report `validateManifests` itself, so they agree by construction.
 */
import { Testing } from 'cdk8s';
import {
  loadManifests,
  toWindowsPodSpec,
  validateManifests,
  WindowsValidationError,
  type WindowsWarning,
} from 'k8s-windows';
import type { PodSpec } from '../lib/core/kube';
import { WindowsDeployment } from 'k8s-windows/cdk8s';
import { WindowsAnnotations } from '../lib/cdk8s/annotations';
import { IIS, silenceWarnings } from './helpers/cdk8s';

interface Case {
  readonly name: string;
  readonly ruleId: string;
  /** The pod spec as a manifest writes it. */
  readonly spec: PodSpec;
  /** The same, as cdk8s-plus props. */
  readonly props: ConstructorParameters<typeof WindowsDeployment>[2];
}

const CASES: readonly Case[] = [
  {
    name: 'a hostPort on an ordinary Windows pod',
    ruleId: 'windows-host-port-cni',
    spec: { containers: [{ name: 'web', image: IIS, ports: [{ containerPort: 80, hostPort: 8080 }] }] },
    props: { containers: [{ image: IIS, ports: [{ number: 80, hostPort: 8080 }] }] },
  },
  {
    name: 'hostNetwork: true outside HostProcess',
    ruleId: 'windows-host-network',
    spec: { hostNetwork: true, containers: [{ name: 'web', image: IIS }] },
    props: { hostNetwork: true, containers: [{ image: IIS }] },
  },
  {
    name: "dnsPolicy 'ClusterFirstWithHostNet' outside HostProcess",
    ruleId: 'windows-dns-host-net',
    spec: { dnsPolicy: 'ClusterFirstWithHostNet', containers: [{ name: 'web', image: IIS }] },
    props: { dns: { policy: 'ClusterFirstWithHostNet' as never }, containers: [{ image: IIS }] },
  },
];

const manifest = (spec: PodSpec) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: { os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' }, ...spec },
});

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

describe.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
  const [finding] = validateManifests(loadManifests(JSON.stringify(manifest(c.spec)))).filter(
    (d) => d.ruleId === c.ruleId,
  );

  test('the engine reports it below error', () => {
    expect(finding).toBeDefined();
    expect(finding.severity).not.toBe('error');
  });

  test('the core conversion (the Pulumi components) warns under the same id and keeps the field', () => {
    const warnings: WindowsWarning[] = [];
    let out: PodSpec | undefined;
    expect(() => (out = toWindowsPodSpec(c.spec, { onWarning: (w) => warnings.push(w) }))).not.toThrow(
      WindowsValidationError,
    );
    expect(warnings.map((w) => w.ruleId)).toContain(c.ruleId);
    // The field the user wrote is still there.
    for (const key of Object.keys(c.spec) as (keyof PodSpec)[]) {
      if (key !== 'containers') expect(out?.[key]).toEqual(c.spec[key]);
    }
    expect(out?.containers[0].ports).toEqual(c.spec.containers[0].ports);
  });

  test('the cdk8s construct warns under the same id and does not refuse', () => {
    const chart = Testing.chart();
    const web = new WindowsDeployment(chart, 'web', c.props);
    expect(() => Testing.synth(chart)).not.toThrow();
    expect(WindowsAnnotations.warningsOf(web).map((w) => w.ruleId)).toContain(c.ruleId);
  });
});

test('privileged: false written on purpose is left out with a warning, never silently', () => {
  const chart = Testing.chart();
  const web = new WindowsDeployment(chart, 'web', {
    containers: [{ image: IIS, securityContext: { privileged: false } }],
  });
  const [deployment] = Testing.synth(chart);
  expect(deployment.spec.template.spec.containers[0].securityContext).toBeUndefined();
  expect(WindowsAnnotations.warningsOf(web)).toEqual([
    expect.objectContaining({
      ruleId: 'windows-forbidden-field',
      message: expect.stringContaining('securityContext.privileged: false is left out of the manifest'),
    }),
  ]);
});
