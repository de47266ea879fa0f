/**
 * Runs one example program under Pulumi mocks and prints its plan: `tsx examples/pulumi/plan-cloud.ts <eks|aks|gke>`.
 * One program per process: the Pulumi runtime's state (mocks, stack, resource registry) is global.
 * Exit codes: 0 the plan passes the policy pack, 1 a mandatory policy violation, 2 the program failed.
 */
import * as pulumi from '@pulumi/pulumi';
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { CLOUDS, isCloud, loadExample } from './index';
import { recordingMocks, type CapturedResource } from './plan-mocks';
import { renderPlan } from './plan-report';

const PROJECT = 'k8s-windows-examples';

/** Config the programs require, as `pulumi config set` would store it. */
const PLAN_CONFIG: Record<string, string> = {
  'k8s-windows:subnetIds': JSON.stringify(['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002']),
  'k8s-windows:windowsAdminPassword': 'Plan-only-P4ssw0rd!', // mocks only: never reaches Azure
  'gcp:project': 'k8s-windows-plan',
};

async function main(): Promise<number> {
  const cloud = process.argv[2];
  if (!isCloud(cloud)) {
    process.stderr.write(`usage: plan-cloud.ts <${CLOUDS.join('|')}>\n`);
    return 2;
  }
  const failures: unknown[] = [];
  process.on('unhandledRejection', (e) => failures.push(e));
  const captured: CapturedResource[] = [];
  pulumi.runtime.setAllConfig({ ...PLAN_CONFIG, 'k8s-windows:cloud': cloud });
  await pulumi.runtime.setMocks(recordingMocks(PROJECT, cloud, captured), PROJECT, cloud, false);
  // The program runs when loaded; warnings it logs (pulumi.log.warn) go to stderr.
  try {
    // As `pulumi up` runs a program: under a root Stack resource, whose outputs are the program's exports.
    await pulumi.runtime.runInPulumiStack(async () => loadExample(cloud));
    await pulumi.runtime.disconnect(); // waits until every registration, including those made in apply, is done
  } catch (e) {
    failures.push(e);
  }
  if (failures.length > 0) {
    process.stdout.write(`== ${cloud}: the program failed\n`);
    for (const f of failures) process.stdout.write(`  ${f instanceof Error ? f.message : String(f)}\n`);
    return 2;
  }
  const violations = await runPolicies(
    captured.map((r) => ({ type: r.type, name: r.name, urn: r.urn, props: r.inputs })),
  );
  process.stdout.write(`${renderPlan(cloud, captured, violations)}\n`);
  return violations.some((v) => v.enforcementLevel === 'mandatory') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(2);
  },
);
