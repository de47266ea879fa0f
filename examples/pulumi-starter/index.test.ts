/**
 * The stack in index.ts under Pulumi mocks: no AWS account, no cluster, no Pulumi CLI. `npm test`.
 */
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { runProgram } from 'k8s-windows/pulumi/testing';

const subnetIds = ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'];

test('the Windows pool is tainted and IIS lands on it, with no policy findings', async () => {
  // require, not import: the program runs inside runProgram, under the mocks, and its exports are the stack outputs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { resources, outputs, warnings, findings } = await runProgram(() => require('./index'), {
    workDir: __dirname, // the project name (config namespace, URNs) comes from this folder's Pulumi.yaml
    config: { 'windows-on-eks:subnetIds': JSON.stringify(subnetIds) },
  });

  // The managed node group: Windows Server 2022, tainted so only pods that tolerate Windows land there.
  const nodeGroup = resources.find((r) => r.type === 'aws:eks/nodeGroup:NodeGroup' && r.name !== 'linux');
  expect(nodeGroup?.inputs).toMatchObject({
    amiType: 'WINDOWS_CORE_2022_x86_64',
    taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
  });
  expect(outputs.windowsAmiType).toBe('WINDOWS_CORE_2022_x86_64');

  // IIS: selects Windows nodes of the pool's build and tolerates exactly the pool's taint.
  const deployment = resources.find((r) => r.type === 'kubernetes:apps/v1:Deployment');
  expect(deployment?.inputs.spec).toMatchObject({
    template: {
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      },
    },
  });

  expect(warnings).toEqual([]); // the components' warnings, each with its rule id
  expect(findings).toEqual([]);
  expect(await runPolicies(resources)).toEqual([]);
}, 60_000); // a whole stack under mocks can take longer than jest's default 5 s on a busy machine
