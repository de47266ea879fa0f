/**
 * Runs one example program under Pulumi mocks and prints its plan: `tsx examples/pulumi/plan-cloud.ts <eks|aks|gke>`.
 * One program per process: the Pulumi runtime's state (mocks, stack, resource registry) is global.
 * Exit codes: 0 the plan passes the policy pack, 1 a mandatory policy violation, 2 the program failed.
 */
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { describeError, PulumiProgramError, runProgram, type ProgramRun } from 'k8s-windows/pulumi/testing';
import { CLOUDS, isCloud, loadExample, type Cloud } from './index';
import { computedOutputs, invokeResult } from './plan-mocks';
import { renderPlan } from './plan-report';

const PROJECT = 'k8s-windows-examples';

/** Config the programs require, as `pulumi config set` would store it. */
const PLAN_CONFIG: Record<string, string> = {
  'k8s-windows:subnetIds': JSON.stringify(['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002']),
  'k8s-windows:windowsAdminPassword': 'Plan-only-P4ssw0rd!', // mocks only: never reaches Azure
  'gcp:project': 'k8s-windows-plan',
};

/** What a plan printed: the report (stdout), the program's warnings (stderr), and its exit code. */
export interface PlanOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Plans one program: runs it under mocks with `runProgram` and renders its resources and the policy pack's
 * verdict, or every error it raised (those raised inside an apply too) when it fails.
 */
export async function planProgram(cloud: Cloud, program: () => unknown): Promise<PlanOutcome> {
  let run: ProgramRun;
  try {
    run = await runProgram(program, {
      project: PROJECT,
      stack: cloud,
      config: { ...PLAN_CONFIG, 'k8s-windows:cloud': cloud },
      computed: computedOutputs,
      call: invokeResult,
    });
  } catch (e) {
    const errors = e instanceof PulumiProgramError ? e.errors : [e];
    const lines = errors.map((error) => `  ${describeError(error).split('\n').join('\n  ')}`);
    return { code: 2, stdout: `== ${cloud}: the program failed\n${lines.join('\n')}\n`, stderr: '' };
  }
  // The policies see each resource's state: its inputs plus what the provider fills in (a cluster's name).
  const violations = await runPolicies(
    run.resources.map((r) => ({ type: r.type, name: r.name, urn: r.urn, props: r.state })),
  );
  return {
    code: violations.some((v) => v.enforcementLevel === 'mandatory') ? 1 : 0,
    stdout: `${renderPlan(cloud, run.resources, violations)}\n`,
    // `plan.ts` collects the programs' warnings from stderr.
    stderr: run.warnings.map((w) => `warning: ${w}\n`).join(''),
  };
}

async function main(): Promise<number> {
  const cloud = process.argv[2];
  if (!isCloud(cloud)) {
    process.stderr.write(`usage: plan-cloud.ts <${CLOUDS.join('|')}>\n`);
    return 2;
  }
  // The program runs when loaded, as `pulumi up` runs it.
  const outcome = await planProgram(cloud, () => loadExample(cloud));
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  return outcome.code;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(2);
    },
  );
}
