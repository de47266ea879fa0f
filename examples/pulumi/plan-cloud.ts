/**
 * Runs one example program under Pulumi mocks and prints its plan: `tsx examples/pulumi/plan-cloud.ts <eks|aks|gke>`.
 * One program per process: the Pulumi runtime's state (mocks, stack, resource registry) is global.
 * Exit codes: 0 the plan passes the policy pack, 1 a mandatory policy violation, 2 the program failed.
 */
import { runPolicies } from 'k8s-windows/pulumi/policy';
import {
  describeError,
  describeFailure,
  PulumiProgramError,
  runProgram,
  type ProgramRun,
} from 'k8s-windows/pulumi/testing';
import { CLOUDS, isCloud, loadExample, type Cloud } from './index';
import { renderPlan } from './plan-report';

/** Config the programs require, as `pulumi config set` would store it. */
const PLAN_CONFIG: Record<string, string> = {
  'k8s-windows:subnetIds': JSON.stringify(['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002']),
  'k8s-windows:windowsAdminPassword': 'Plan-only-P4ssw0rd!', // mocks only: never reaches Azure
  'gcp:project': 'k8s-windows-plan',
  'aws:region': 'eu-west-1',
};

/** What a plan printed: the report (stdout), the program's warnings (stderr), and its exit code. */
export interface PlanOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Plans one program: runs it under `runProgram`'s realistic provider mocks and renders its resources and the policy pack's
 * verdict, or every error it raised (those raised inside an apply too) when it fails.
 */
export async function planProgram(cloud: Cloud, program: () => unknown): Promise<PlanOutcome> {
  let run: ProgramRun;
  try {
    // The project name is the repository's Pulumi.yaml (plan.ts runs this from the repository root).
    run = await runProgram(program, {
      stack: cloud,
      config: { ...PLAN_CONFIG, 'k8s-windows:cloud': cloud },
      // The providers answer through runProgram's realistic mocks (auto-names, ARNs, endpoints, kubeconfigs).
    });
  } catch (e) {
    const lines =
      e instanceof PulumiProgramError
        ? e.failures.map((f) => `  ${describeFailure(f).split('\n').join('\n  ')}`)
        : [`  ${describeError(e).split('\n').join('\n  ')}`];
    return { code: 2, stdout: `== ${cloud}: the program failed\n${lines.join('\n')}\n`, stderr: '' };
  }
  // The policies see each resource's props: its inputs plus what the provider fills in (a cluster's name).
  const violations = await runPolicies(run.resources);
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
