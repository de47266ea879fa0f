/**
 * What a Pulumi user reads (issue 17): errors name the arg written and the arg that fixes it in the components'
 * words (no cdk8s-plus hints, no "the hostProcess option"), and policy messages say a path once.
 */
import * as pulumi from '@pulumi/pulumi';
import { WindowsDeployment } from 'k8s-windows/pulumi';
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { formatDiagnostic, formatFinding, locatedMessage } from '../../lib/pulumi/policy/policies';
import { PulumiProgramError, runProgram } from 'k8s-windows/pulumi/testing';

const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
const CORE_2022 = 'mcr.microsoft.com/windows/servercore:ltsc2022';

/** The `errors` of the InputPropertiesError the program fails with. */
async function inputErrorsOf(program: () => unknown): Promise<{ propertyPath: string; reason: string }[]> {
  const e = await runProgram(program).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(PulumiProgramError);
  const first = (e as PulumiProgramError).errors[0];
  expect(pulumi.InputPropertiesError.isInstance(first)).toBe(true);
  return (first as pulumi.InputPropertiesError).errors;
}

describe('component errors in Pulumi words', () => {
  test('a memory emptyDir and a mount propagation: the podSpec field, no cdk8s-plus hint', async () => {
    const errors = await inputErrorsOf(() => {
      new WindowsDeployment('w', {
        podSpec: {
          volumes: [{ name: 'scratch', emptyDir: { medium: 'Memory' } }],
          containers: [
            {
              name: 'c',
              image: CORE_2022,
              volumeMounts: [{ name: 'scratch', mountPath: 'C:\\scratch', mountPropagation: 'HostToContainer' }],
            },
          ],
        },
      });
    });
    expect(errors).toEqual([
      {
        propertyPath: 'podSpec.volumes[0].emptyDir.medium',
        reason:
          "podSpec.volumes[0].emptyDir.medium 'Memory': Windows has no tmpfs, so memory-backed emptyDir volumes are not supported. Fix: Remove medium (a disk-backed emptyDir).",
      },
      {
        propertyPath: 'podSpec.containers[0].volumeMounts[0].mountPropagation',
        reason:
          "podSpec.containers[0].volumeMounts[0].mountPropagation 'HostToContainer': mount propagation is not supported on Windows. Fix: Remove mountPropagation.",
      },
    ]);
  });

  test("an ltsc2019 image Output on a 2022 pool: the fix names windows.release and a pool's nodeTarget", async () => {
    const errors = await inputErrorsOf(() => {
      new WindowsDeployment('iis', { podSpec: { containers: [{ name: 'iis', image: pulumi.output(IIS_2019) }] } });
    });
    expect(errors).toHaveLength(1);
    expect(errors[0].propertyPath).toBe('podSpec.containers[0].image');
    expect(errors[0].reason).toMatch(
      / Fix: Use the image's ltsc2022 tag, or run it on Windows Server 2019 nodes: windows: \{ release: '2019' \}, or windows\.target set to a 2019 pool's nodeTarget\.$/,
    );
  });

  test('HostProcess: runAsNonRoot and gMSA name the windows args', async () => {
    const errors = await inputErrorsOf(() => {
      new WindowsDeployment('agent', {
        podSpec: { containers: [{ name: 'a', image: CORE_2022, securityContext: { runAsNonRoot: true } }] },
        windows: { hostProcess: true, gmsa: 'webapp01' },
      });
    });
    expect(errors).toEqual([
      {
        propertyPath: 'windows.gmsa',
        reason:
          'HostProcess containers run as a node account and cannot use gMSA. Fix: Remove windows.gmsa or windows.hostProcess.',
      },
      {
        propertyPath: 'podSpec.containers[0].securityContext.runAsNonRoot',
        reason:
          'podSpec.containers[0].securityContext.runAsNonRoot true on a HostProcess pod: the kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to start them. Fix: Remove runAsNonRoot; choose the account with windows.runAsUserName.',
      },
    ]);
  });

  test('warnings too: hostNetwork without HostProcess names windows.hostProcess', async () => {
    const run = await runProgram(() => {
      new WindowsDeployment('w', { podSpec: { hostNetwork: true, containers: [{ name: 'c', image: CORE_2022 }] } });
    });
    expect(run.findings.map((f) => [f.ruleId, f.severity, f.path, f.resource])).toEqual([
      ['windows-host-network', 'warning', 'podSpec.hostNetwork', 'w'],
    ]);
    // The line users see.
    expect(run.warnings).toEqual([
      '[windows-host-network] podSpec.hostNetwork: podSpec.hostNetwork true is ignored: Windows pods get the host network only as HostProcess pods, so this pod runs on the pod network. Fix: Remove hostNetwork, or make the workload HostProcess (windows.hostProcess: true).',
    ]);
  });
});

describe('policy messages say the path once', () => {
  test('an emptyDir Memory Deployment: the path opens the message once', async () => {
    const violations = await runPolicies([
      {
        type: 'kubernetes:apps/v1:Deployment',
        name: 'web',
        urn: 'urn:pulumi:dev::p::kubernetes:apps/v1:Deployment::web',
        props: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'apps' },
          spec: {
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: {
                os: { name: 'windows' },
                volumes: [{ name: 'v', emptyDir: { medium: 'Memory' } }],
                containers: [{ name: 'c', image: CORE_2022 }],
              },
            },
          },
        },
      },
    ]);
    const emptyDir = violations.find((v) => v.message.startsWith('[windows-emptydir-memory]'));
    expect(emptyDir?.message).toBe(
      "[windows-emptydir-memory] Deployment apps/web: spec.template.spec.volumes[0].emptyDir.medium 'Memory': Windows has no tmpfs, so memory-backed emptyDir volumes are not supported. Fix: Remove medium (a disk-backed emptyDir).",
    );
  });

  test('formatDiagnostic and formatFinding keep the path when the message does not start with it', () => {
    expect(locatedMessage('spec.os', 'This pod is Windows.')).toBe('spec.os: This pod is Windows.');
    expect(locatedMessage('diskSize', 'diskSize 20 GiB is too small.')).toBe('diskSize 20 GiB is too small.');
    expect(locatedMessage('spec.containers[0]', 'spec.containers[0].image x')).toBe(
      'spec.containers[0]: spec.containers[0].image x',
    );
    expect(
      formatFinding({ ruleId: 'r', severity: 'error', path: 'taints', message: 'No taint.', fix: 'Add one.' }),
    ).toBe('[r] taints: No taint. Fix: Add one.');
    expect(
      formatDiagnostic({
        ruleId: 'r',
        severity: 'error',
        path: 'spec.hostPID',
        message: 'spec.hostPID true: Forbidden.',
        resource: { kind: 'Pod', name: 'p' },
      }),
    ).toBe('[r] Pod p: spec.hostPID true: Forbidden.');
  });
});
