/**
 * Outputs that turn out bad once known fail the deployment with one error: one distinct rejection, the
 * InputPropertiesError naming every bad property, its message prefixed once by the property that carried it.
 * Runs the program in a child process (jest reports unhandled rejections as its own failures).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

interface Report {
  readonly events: number;
  readonly distinct: number;
  readonly messages: string[];
  readonly errors: ({ propertyPath: string; reason: string }[] | undefined)[];
}

function run(scenario: string): Report {
  const program = path.join(__dirname, 'fixtures', 'refused-outputs.ts');
  // The exit status is Pulumi's (its leak detector fails the run); the report is on stdout.
  const { stdout } = spawnSync(process.execPath, ['--import', 'tsx', program, scenario], {
    cwd: path.join(__dirname, '..', '..'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(stdout.slice(0, stdout.lastIndexOf('}') + 1)) as Report;
}

test('a podSpec Output with forbidden fields: one error listing each of them', () => {
  const report = run('workload');
  expect(report.distinct).toBe(1);
  expect(report.messages[0]).toBe('error serializing property "spec": WindowsDeployment \'web\': 3 invalid properties');
  expect(report.errors[0]?.map((e) => e.propertyPath)).toEqual([
    'podSpec.hostPID',
    'podSpec.containers[0].securityContext.privileged',
    'podSpec.containers[0].securityContext.runAsUser',
  ]);
});

test('a CA Output that resolves empty: one error naming clusterCertificateAuthority', () => {
  const report = run('user-data');
  expect(report.distinct).toBe(1);
  expect(report.errors[0]).toEqual([
    { propertyPath: 'clusterCertificateAuthority', reason: expect.stringContaining('-Base64ClusterCA') },
  ]);
});

test('Karpenter selector terms that resolve empty: one error naming them', () => {
  const report = run('karpenter');
  expect(report.distinct).toBe(1);
  expect(report.errors[0]).toEqual([
    { propertyPath: 'securityGroupSelectorTerms[0]', reason: expect.stringContaining('needs tags or an id') },
  ]);
});

test('an AKS pool whose Kubernetes version is an Output is gated once it is known: 2022 on 1.37', () => {
  const report = run('aks-version');
  expect(report.distinct).toBe(1);
  expect(report.errors[0]).toEqual([
    {
      propertyPath: 'kubernetesVersion',
      reason: expect.stringContaining(
        "AKS runs Windows Server 2022 nodes on Kubernetes 1.36 at the newest; '1.37' is newer",
      ),
    },
  ]);
});

test("an EKS pool on a cluster whose version is an Output (the cluster's version) is gated the same: 2025 on 1.33", () => {
  const report = run('eks-cluster-version');
  expect(report.distinct).toBe(1);
  expect(report.errors[0]).toEqual([
    {
      propertyPath: 'clusterVersion',
      reason: expect.stringContaining(
        "EKS runs Windows Server 2025 nodes on Kubernetes 1.35 or newer; '1.33' is older",
      ),
    },
  ]);
});
