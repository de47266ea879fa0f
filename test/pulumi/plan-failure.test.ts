/**
 * `npm run plan` when a program fails (issue 17): an image Output resolving to an ltsc2019 tag on a 2022 pool
 * used to print "FAIL (policy)" with no message, the Deployment never registered. The plan now prints the
 * component's error. Planned in-process with the function `plan-cloud.ts` runs for each cloud.
 */
import * as pulumi from '@pulumi/pulumi';
import { Provider } from '@pulumi/kubernetes/provider';
import { windowsNodeTarget } from 'k8s-windows';
import { iisWorkload, IIS_IMAGE } from '../../examples/pulumi/iis';
import { planProgram } from '../../examples/pulumi/plan-cloud';

const LTSC2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';

test('an image Output resolving to ltsc2019 on a 2022 pool: the plan prints the error and exits 2', async () => {
  const outcome = await planProgram('eks', () => {
    const provider = new Provider('eks', { kubeconfig: 'plan' });
    iisWorkload(windowsNodeTarget({ release: '2022' }), provider, [], pulumi.output(LTSC2019));
  });
  expect(outcome.code).toBe(2);
  expect(outcome.stdout).toBe(
    [
      '== eks: the program failed',
      `  kubernetes:apps/v1:Deployment 'iis', input spec: WindowsDeployment 'iis': 1 invalid property`,
      `    podSpec.containers[0].image: Image '${LTSC2019}' is built for Windows Server 2019 (10.0.17763) but the node runs Windows Server 2022 (10.0.20348); with process isolation a Windows Server 2022 host runs only ltsc2022 images ("the container operating system does not match the host operating system"). The pod is pinned by nodeSelector node.kubernetes.io/windows-build=10.0.20348. Fix: Use the image's ltsc2022 tag, or run it on Windows Server 2019 nodes: windows: { release: '2019' }, or windows.target set to a 2019 pool's nodeTarget.`,
      '',
    ].join('\n'),
  );
});

test('the same workload with the ltsc2022 image Output plans and passes', async () => {
  const outcome = await planProgram('eks', () => {
    const provider = new Provider('eks', { kubeconfig: 'plan' });
    iisWorkload(windowsNodeTarget({ release: '2022' }), provider, [], pulumi.output(IIS_IMAGE));
  });
  expect(outcome.stdout).toMatch(/\+ kubernetes:apps\/v1:Deployment iis\n\s+os\.name: windows\n/);
  expect(outcome.stdout).toContain('verdict: PASS');
  expect(outcome.code).toBe(0);
});
