/**
 * `runProgram` outside jest: a failed run is reported once, and the process exits as the caller decides, without
 * Pulumi's leak note ("N promises were still active", which also sets exit code 1) for the registrations the
 * failure left waiting.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

test('a failed run prints its errors, names the resources they stopped, and leaves a clean exit', () => {
  const program = path.join(__dirname, 'fixtures', 'run-program-exit.ts');
  const result = spawnSync(process.execPath, ['--import', 'tsx', program], {
    cwd: path.join(__dirname, '..', '..'),
    encoding: 'utf8',
    env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: '' },
  });
  expect(result.stderr).not.toContain('still active');
  expect(result.status).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines[0]).toBe('The program failed with 2 errors:');
  expect(lines).toContain(
    "- kubernetes:apps/v1:Deployment 'iis', input spec: WindowsDeployment 'iis': 1 invalid property",
  );
  expect(lines).toContain(
    "- aws:autoscaling/tag:Tag 'windows-asg-resources-vpc-amazonaws-com-PrivateIPv4Address' (and 3 more), input " +
      "autoscalingGroupName: EKS reported no Auto Scaling group for node group 'windows', so the Cluster Autoscaler " +
      'tags cannot be written to it. Set tagAutoscalingGroup: false to skip them.',
  );
  expect(result.stdout).not.toContain('error serializing property');
});
