/**
 * Runs one example program under Pulumi mocks and prints its plan: `tsx examples/pulumi/plan-cloud.ts <eks|aks|gke>`.
 * One program per process: the Pulumi runtime's state (mocks, stack, resource registry) is global.
 * Exit codes: 0 the plan passes the policy pack, 1 a mandatory policy violation, 2 the program failed.
 */
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { describeError, PulumiProgramError, runProgram, type ProgramRun } from 'k8s-windows/pulumi/testing';
import { CLOUDS, isCloud, loadExample } from './index';
import { computedOutputs, invokeResult } from './plan-mocks';
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
  let run: ProgramRun;
  try {
    // The program runs when loaded, as `pulumi up` runs it; errors raised inside an apply fail it too.
    run = await runProgram(() => loadExample(cloud), {
      project: PROJECT,
      stack: cloud,
      config: { ...PLAN_CONFIG, 'k8s-windows:cloud': cloud },
      computed: computedOutputs,
      call: invokeResult,
    });
  } catch (e) {
    const errors = e instanceof PulumiProgramError ? e.errors : [e];
    process.stdout.write(`== ${cloud}: the program failed\n`);
    for (const error of errors) process.stdout.write(`  ${describeError(error).split('\n').join('\n  ')}\n`);
    return 2;
  }
  // On stderr, where `plan.ts` collects the programs' warnings.
  for (const w of run.warnings) process.stderr.write(`warning: ${w}\n`);
  // The policies see each resource's state: its inputs plus what the provider fills in (a cluster's name).
  const violations = await runPolicies(
    run.resources.map((r) => ({ type: r.type, name: r.name, urn: r.urn, props: r.state })),
  );
  process.stdout.write(`${renderPlan(cloud, run.resources, violations)}\n`);
  return violations.some((v) => v.enforcementLevel === 'mandatory') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(2);
  },
);
