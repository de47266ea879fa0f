/**
 * `k8s-windows/pulumi/testing`: run a Pulumi program under mocks in a unit test (no cloud, no Pulumi CLI, no
 * network) and get back what it would register. Errors fail the run the way `pulumi up` fails: including those
 * raised once an Output resolves (a component checks Output-valued inputs inside `apply`), which under bare
 * `pulumi.runtime.setMocks` only reject a registration nobody awaits, so the test passes while the resource was
 * never registered.
 *
 * ```ts
 * import { runProgram } from 'k8s-windows/pulumi/testing';
 * test('IIS registers on the pool', async () => {
 *   const { resources } = await runProgram(() => { new WindowsDeployment('iis', { ... }) });
 *   expect(resources.find((r) => r.type === 'kubernetes:apps/v1:Deployment')?.inputs).toMatchObject({ ... });
 * });
 * ```
 */
import * as vm from 'node:vm';
import * as pulumi from '@pulumi/pulumi';

/** A resource the program registered, with the inputs the mocked engine received (secrets unwrapped). */
export interface MockedResource {
  /** Type token, e.g. `kubernetes:apps/v1:Deployment`, `k8s-windows:eks:WindowsNodePool`. */
  readonly type: string;
  /** Logical name, as passed to the resource's constructor. */
  readonly name: string;
  /** The URN the resource would have in the stack. */
  readonly urn: string;
  /** Whether a provider manages it (false for components and the stack). */
  readonly custom: boolean;
  /** Its inputs, fully resolved. */
  readonly inputs: Record<string, unknown>;
  /**
   * The state the mocked provider returned: the inputs with `computed` merged over them (what a policy pack sees
   * of a resource once the provider filled in names and other outputs).
   */
  readonly state: Record<string, unknown>;
}

export interface RunProgramOptions {
  /**
   * Project name (part of every URN).
   * @default 'project'
   */
  readonly project?: string;
  /**
   * Stack name (part of every URN).
   * @default 'stack'
   */
  readonly stack?: string;
  /**
   * Stack config as `pulumi config set` stores it: `{ 'k8s-windows:subnetIds': '["subnet-1"]' }`.
   * @default {}
   */
  readonly config?: Readonly<Record<string, string>>;
  /**
   * Outputs a provider would compute (ARNs, endpoints), merged over a resource's inputs to make its state.
   * @default - none: a resource's state is its inputs
   */
  readonly computed?: (type: string, name: string, inputs: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Results of invokes (`aws.getCallerIdentity`, `listManagedClusterUserCredentials`...).
   * @default - the invoke's inputs echoed back
   */
  readonly call?: (token: string, inputs: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Run as `pulumi preview` (`pulumi.runtime.isDryRun()` is true) rather than `pulumi up`.
   * @default false
   */
  readonly preview?: boolean;
}

export interface ProgramRun {
  /** Every resource registered, in registration order, the root stack excluded. */
  readonly resources: readonly MockedResource[];
  /** The stack outputs: what the program function returned, resolved. */
  readonly outputs: Record<string, unknown>;
  /** Messages the program logged with `pulumi.log.warn` (the components' warnings carry their rule id). */
  readonly warnings: readonly string[];
}

/**
 * The program failed, as `pulumi up` would: every distinct error it raised, synchronously or inside an `apply`.
 * The message lists each, with the properties of a `pulumi.InputPropertiesError` one per line.
 */
export class PulumiProgramError extends Error {
  constructor(
    /** Every distinct error, in the order they were raised. */
    public readonly errors: readonly unknown[],
    /** The resources registered before the run stopped (a refused one is not among them). */
    public readonly resources: readonly MockedResource[] = [],
  ) {
    super(
      `The program failed with ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.map(describe).join('\n')}`,
    );
    this.name = 'PulumiProgramError';
  }
}

/** One error as `pulumi up` prints it: the message, then each bad property with its reason. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!pulumi.InputPropertiesError.isInstance(error)) return message;
  return [message, ...error.errors.map((e) => `  ${e.propertyPath}: ${e.reason}`)].join('\n');
}

function describe(error: unknown): string {
  return `- ${describeError(error).split('\n').join('\n  ')}`;
}

/** Time given to a run's failures to arrive: Node reports unhandled rejections a turn after they happen. */
const SETTLE_MS = 20;

/**
 * Runs `program` under Pulumi mocks, as `pulumi up` runs a program (under a root Stack whose outputs are what
 * `program` returns), and resolves once every registration, including those made inside `apply`, is done.
 * Rejects with a `PulumiProgramError` listing every error the program raised, including errors raised inside an
 * `apply` that Pulumi only reports as an unhandled rejection. The Pulumi runtime is global to the process, so run
 * one program at a time (jest runs each test file in its own module registry, tests in a file one after another).
 */
export async function runProgram(program: () => unknown, options: RunProgramOptions = {}): Promise<ProgramRun> {
  const project = options.project ?? 'project';
  const stack = options.stack ?? 'stack';
  const resources: MockedResource[] = [];
  const warnings: string[] = [];
  const errors: unknown[] = [];
  let failed = (): void => undefined;
  const failure = new Promise<void>((resolve) => (failed = resolve));
  // What the Pulumi language host does: an unhandled rejection is the program's error (an Output whose apply
  // threw rejects nowhere else). A failed registration also never settles the resources that depend on it, so
  // the run stops waiting at the first error instead of waiting for the engine forever. The listeners already
  // there (jest's, which would fail the test with the bare error) are set aside for the run.
  const host = hostProcess();
  const otherListeners = host.listeners('unhandledRejection');
  const onRejection = (reason: unknown): void => {
    errors.push(reason);
    failed();
  };
  // pulumi.log is a plain CommonJS module object: swap warn for the run (as jest.spyOn would).
  const log = pulumi.log as { warn: typeof pulumi.log.warn };
  const originalWarn = log.warn;
  host.removeAllListeners('unhandledRejection');
  host.on('unhandledRejection', onRejection);
  log.warn = (msg: string) => {
    warnings.push(msg);
    return Promise.resolve();
  };
  try {
    pulumi.runtime.setAllConfig({ ...options.config });
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          const inputs = unwrapSecrets(args.inputs ?? {}) as Record<string, unknown>;
          const state = { ...inputs, ...options.computed?.(args.type, args.name, inputs) };
          if (args.type !== 'pulumi:pulumi:Stack') {
            resources.push({
              type: args.type,
              name: args.name,
              urn: `urn:pulumi:${stack}::${project}::${args.type}::${args.name}`,
              custom: args.custom ?? true,
              inputs,
              state,
            });
          }
          return { id: `${args.name}-id`, state };
        },
        call: (args) => {
          const inputs = (args.inputs ?? {}) as Record<string, unknown>;
          return options.call ? options.call(args.token, inputs) : inputs;
        },
      },
      project,
      stack,
      options.preview ?? false,
    );
    let outputs: Record<string, unknown> = {};
    const completed = (async () => {
      try {
        outputs = (await pulumi.runtime.runInPulumiStack(async () => program())) ?? {};
        await pulumi.runtime.disconnect(); // every registration, those made inside apply included, is done
      } catch (e) {
        errors.push(e);
      }
    })();
    await Promise.race([completed, failure]);
    // Node reports a rejection as unhandled only after the turn it happened in: give the run's errors time to
    // arrive even when every registration is done (a refused resource with nothing depending on it).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (errors.length > 0) throw new PulumiProgramError([...new Set(errors)], resources);
    return { resources, outputs: unwrapSecrets(outputs) as Record<string, unknown>, warnings };
  } finally {
    host.off('unhandledRejection', onRejection);
    for (const l of otherListeners) host.on('unhandledRejection', l as (reason: unknown) => void);
    log.warn = originalWarn;
  }
}

/**
 * The process Node reports unhandled rejections on. Under jest, `process` is a copy whose listeners Node never
 * calls; code compiled with `vm.runInThisContext` runs in Node's own context and sees the real one.
 */
function hostProcess(): NodeJS.Process {
  return vm.runInThisContext('process') as NodeJS.Process;
}

/**
 * Inputs with Pulumi's secret wrappers replaced by their values, as CrossGuard shows them to policies (the mocked
 * engine receives secrets as `{ [specialSigKey]: specialSecretSig, value }`).
 */
export function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value !== 'object' || value === null) return value;
  const rec = value as Record<string, unknown>;
  if (rec[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig) return unwrapSecrets(rec.value);
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, unwrapSecrets(v)]));
}
