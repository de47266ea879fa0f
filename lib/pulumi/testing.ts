/**
 * `k8s-windows/pulumi/testing`: run a Pulumi program under mocks in a unit test (no cloud, no Pulumi CLI, no
 * network) and get back what it would register. Errors fail the run the way `pulumi up` fails: including those
 * raised once an Output resolves (a component checks Output-valued inputs inside `apply`), which under bare
 * `pulumi.runtime.setMocks` only reject a registration nobody awaits, so the test passes while the resource was
 * never registered. The mocked providers answer as the real ones do (`testing-mocks.ts`: auto-names, ARNs, a
 * cluster's security group, a node group's Auto Scaling group...), the project name comes from `Pulumi.yaml`, and
 * the resources go to `runPolicies` from `k8s-windows/pulumi/policy` as they are.
 *
 * ```ts
 * import { runProgram } from 'k8s-windows/pulumi/testing';
 * test('IIS registers on the pool', async () => {
 *   const { resources } = await runProgram(() => { new WindowsDeployment('iis', { ... }) });
 *   expect(resources.find((r) => r.type === 'kubernetes:apps/v1:Deployment')?.inputs).toMatchObject({ ... });
 * });
 * ```
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as pulumi from '@pulumi/pulumi';
import { parse } from 'yaml';
import { invokeResult, providerOutputs, type ProviderMockContext } from './testing-mocks';
import { cloudFindingSink, type CloudFinding } from '../core/rules/cloud-findings';

export { invokeResult, providerOutputs, type MockedRegistration, type ProviderMockContext } from './testing-mocks';

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
  /** The id the mocked provider gave it (`prod-1a2b3c4` for an IAM role, `sg-…`, an ARM id). */
  readonly id: string;
  /** Its inputs, fully resolved. */
  readonly inputs: Record<string, unknown>;
  /**
   * The state the mocked provider returned: the inputs with the provider's outputs merged over them (auto-names,
   * ARNs, a cluster's security group), then `computed`'s. What a policy sees of the resource, under the name
   * CrossGuard gives it, so `runPolicies(run.resources)` takes the resources as they are.
   */
  readonly props: Record<string, unknown>;
  /** @deprecated The same object as `props`. */
  readonly state: Record<string, unknown>;
}

export interface RunProgramOptions {
  /**
   * Project name (part of every URN, `pulumi.getProject()`).
   * @default - the `name` of the nearest `Pulumi.yaml` (or `Pulumi.yml`) in `workDir` or a folder above it, as the
   * Pulumi CLI finds it; 'project' when there is none
   */
  readonly project?: string;
  /**
   * Where to look for `Pulumi.yaml` from.
   * @default process.cwd()
   */
  readonly workDir?: string;
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
   * How the mocked providers answer a registration. `'realistic'`: as the real providers do for the resources the
   * components and their usual neighbours register (auto-names with a random-looking suffix, ARNs, ids, an EKS
   * cluster's endpoint and security group, a node group's Auto Scaling group, AKS and GKE outputs; see
   * `providerOutputs`), each value fixed by the resource's URN so every run gets the same. `'echo'`: a resource's
   * state is its inputs, its id `<name>-id`.
   * @default 'realistic'
   */
  readonly providers?: 'realistic' | 'echo';
  /**
   * Account, region and project the realistic providers put in ARNs and ids.
   * @default - account 123456789012, the `aws:region` config else us-west-2, the `gcp:project` config else
   * mock-project
   */
  readonly cloud?: Pick<ProviderMockContext, 'awsAccountId' | 'awsRegion' | 'azureSubscriptionId' | 'gcpProject'>;
  /**
   * More outputs a provider would compute, merged over what `providers` gives (yours win).
   * @default - none
   */
  readonly computed?: (type: string, name: string, inputs: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Results of invokes (`aws.getCallerIdentity`, `listManagedClusterUserCredentials`...); return undefined to
   * leave a token to the realistic providers.
   * @default - the realistic providers' answer (`invokeResult`), else the invoke's inputs echoed back
   */
  readonly call?: (token: string, inputs: Record<string, unknown>) => Record<string, unknown> | undefined;
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
  /** The findings the components reported while the program ran (`cloudFindingSink`), as data. */
  readonly findings: readonly CloudFinding[];
}

/** Where a program error surfaced: a resource that could not be registered, and the property that failed. */
export interface ProgramFailure {
  /** The error as raised (Pulumi prefixes its message with each property it passed through). */
  readonly error: unknown;
  /**
   * The message without Pulumi's `error serializing property "x": ` prefixes, with each bad property of an
   * `InputPropertiesError` one per line.
   */
  readonly message: string;
  /** The input property the error surfaced in (the component arg is in `message`). */
  readonly property?: string;
  /** The resources left unregistered whose input `property` failed, by type and logical name. */
  readonly resources: readonly { readonly type: string; readonly name: string }[];
}

/**
 * The program failed, as `pulumi up` would: every distinct error it raised, synchronously or inside an `apply`.
 * The message lists each, naming the resource and input property it stopped, with the properties of a
 * `pulumi.InputPropertiesError` one per line.
 */
export class PulumiProgramError extends Error {
  /** Every distinct error, in the order they were raised. */
  public readonly errors: readonly unknown[];
  constructor(
    /** Each error with where it surfaced. */
    public readonly failures: readonly ProgramFailure[],
    /** The resources registered before the run stopped (a refused one is not among them). */
    public readonly resources: readonly MockedResource[] = [],
  ) {
    super(
      `The program failed with ${failures.length} error${failures.length === 1 ? '' : 's'}:\n${failures.map((f) => `- ${describeFailure(f).split('\n').join('\n  ')}`).join('\n')}`,
    );
    this.name = 'PulumiProgramError';
    this.errors = failures.map((f) => f.error);
  }
}

/** Pulumi's prefix on an error that stopped a property's serialization (one per resource it stopped). */
const SERIALIZING = /^error serializing property "([^"]*)": /;

/** The message without Pulumi's serialization prefixes, and the property they name (the innermost). */
function unprefixed(message: string): { message: string; property?: string } {
  let property: string | undefined;
  let rest = message;
  for (let m = SERIALIZING.exec(rest); m !== null; m = SERIALIZING.exec(rest)) {
    property = m[1];
    rest = rest.slice(m[0].length);
  }
  return { message: rest, ...(property !== undefined ? { property } : {}) };
}

/**
 * One error as `pulumi up` prints it: the message (without Pulumi's serialization prefixes), then each bad property
 * with its reason.
 */
export function describeError(error: unknown): string {
  const { message } = unprefixed(error instanceof Error ? error.message : String(error));
  if (!pulumi.InputPropertiesError.isInstance(error)) return message;
  return [message, ...error.errors.map((e) => `  ${e.propertyPath}: ${e.reason}`)].join('\n');
}

/**
 * One failure as `runProgram` reports it: the resource and input it stopped (when known), then the error as
 * `describeError` gives it.
 */
export function describeFailure(f: ProgramFailure): string {
  const [first, ...others] = f.resources;
  const where =
    first === undefined
      ? f.property !== undefined
        ? `input ${f.property}: `
        : ''
      : `${first.type} '${first.name}'${others.length > 0 ? ` (and ${others.length} more)` : ''}, input ${f.property}: `;
  return `${where}${f.message}`;
}

/** A resource the program constructed, seen by a stack transformation before it registers. */
interface Constructed {
  readonly type: string;
  readonly name: string;
  readonly props: Readonly<Record<string, unknown>>;
}

const PENDING = Symbol('pending');

/** The values an input holds that settle later (Outputs and promises), a few levels down. */
function eventualValues(value: unknown): Promise<unknown>[] {
  const out: Promise<unknown>[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || typeof v !== 'object' || v === null || out.length > 200) return;
    if (pulumi.Output.isInstance(v)) {
      // Output.promise is the SDK's own accessor (marked internal); without it the resource is not named.
      const promise = (v as unknown as { promise?: () => Promise<unknown> }).promise?.();
      if (promise !== undefined) out.push(promise);
    } else if (v instanceof Promise) {
      out.push(v);
    } else {
      for (const item of Array.isArray(v) ? v : Object.values(v)) visit(item, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

/** Whether `promise` has already rejected with `error` itself (a pending one is not waited for). */
async function rejectedWith(promise: Promise<unknown>, error: unknown): Promise<boolean> {
  const settled = promise.then(
    () => PENDING,
    (e: unknown) => e,
  );
  const now = new Promise<typeof PENDING>((resolve) => setImmediate(() => resolve(PENDING)));
  return (await Promise.race([settled, now])) === error;
}

/** The error, cleaned, with the unregistered resources whose input `property` failed with it. */
async function failureOf(
  error: unknown,
  constructed: readonly Constructed[],
  registered: ReadonlySet<string>,
): Promise<ProgramFailure> {
  const { property } = unprefixed(error instanceof Error ? error.message : String(error));
  const resources: { type: string; name: string }[] = [];
  if (property !== undefined) {
    for (const c of constructed) {
      if (registered.has(`${c.type}::${c.name}`) || !(property in c.props)) continue;
      const stopped = await Promise.all(eventualValues(c.props[property]).map((p) => rejectedWith(p, error)));
      if (stopped.some(Boolean)) resources.push({ type: c.type, name: c.name });
    }
  }
  return { error, message: describeError(error), ...(property !== undefined ? { property } : {}), resources };
}

/** Time given to a run's failures to arrive: Node reports unhandled rejections a turn after they happen. */
const SETTLE_MS = 20;

/**
 * The project name as the Pulumi CLI finds it: the `name` of the first `Pulumi.yaml` (or `Pulumi.yml`) in `dir` or
 * a folder above it; undefined when there is none. A project file without a name is an error naming the file.
 */
export function findPulumiProject(dir: string = process.cwd()): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    for (const file of ['Pulumi.yaml', 'Pulumi.yml']) {
      const candidate = path.join(at, file);
      if (!existsSync(candidate)) continue;
      let project: unknown;
      try {
        project = parse(readFileSync(candidate, 'utf8'));
      } catch (e) {
        throw new Error(
          `${candidate} is not valid YAML (${e instanceof Error ? e.message.split('\n')[0] : String(e)}). Fix it, or pass runProgram(program, { project: 'name' }).`,
        );
      }
      const name = typeof project === 'object' && project !== null ? (project as { name?: unknown }).name : undefined;
      if (typeof name !== 'string' || name === '') {
        throw new Error(
          `${candidate} has no project name (name: ${JSON.stringify(name) ?? 'missing'}). Fix: Write name: my-project in it, or pass runProgram(program, { project: 'name' }).`,
        );
      }
      return name;
    }
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Runs `program` under Pulumi mocks, as `pulumi up` runs a program (under a root Stack whose outputs are what
 * `program` returns), and resolves once every registration, including those made inside `apply`, is done. The
 * mocked providers answer as the real ones do (`providers`), so a program that reads a cluster's name, a role's ARN
 * or a node group's Auto Scaling group runs as it runs against the cloud.
 * Rejects with a `PulumiProgramError` listing every error the program raised, including errors raised inside an
 * `apply` that Pulumi only reports as an unhandled rejection, each with the resource and input it stopped. The
 * Pulumi runtime is global to the process, so run one program at a time (jest runs each test file in its own module
 * registry, tests in a file one after another).
 */
export async function runProgram(program: () => unknown, options: RunProgramOptions = {}): Promise<ProgramRun> {
  const project = options.project ?? findPulumiProject(options.workDir) ?? 'project';
  const stack = options.stack ?? 'stack';
  const realistic = (options.providers ?? 'realistic') === 'realistic';
  const context: ProviderMockContext = { ...options.cloud, project, stack, config: options.config ?? {} };
  const resources: MockedResource[] = [];
  const constructed: Constructed[] = [];
  const registered = new Set<string>();
  const warnings: string[] = [];
  const recording = cloudFindingSink.record();
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
          const urn = `urn:pulumi:${stack}::${project}::${args.type}::${args.name}`;
          const answer = realistic
            ? providerOutputs(args.type, args.name, urn, inputs, context)
            : { id: `${args.name}-id`, state: {} };
          const state = { ...inputs, ...answer.state, ...options.computed?.(args.type, args.name, inputs) };
          if (args.type !== 'pulumi:pulumi:Stack') {
            registered.add(`${args.type}::${args.name}`);
            const resource = {
              type: args.type,
              name: args.name,
              urn,
              custom: args.custom ?? true,
              id: answer.id,
              inputs,
              props: state,
            };
            // The old name of props, kept out of the enumerable fields so toEqual and logs show the object once.
            resources.push(
              Object.defineProperty(resource, 'state', { value: state, enumerable: false }) as MockedResource,
            );
          }
          return { id: answer.id, state };
        },
        call: (args) => {
          const inputs = (args.inputs ?? {}) as Record<string, unknown>;
          return (
            options.call?.(args.token, inputs) ??
            (realistic ? invokeResult(args.token, inputs, context) : undefined) ??
            inputs
          );
        },
      },
      project,
      stack,
      options.preview ?? false,
    );
    let outputs: Record<string, unknown> = {};
    const completed = (async () => {
      try {
        outputs =
          (await pulumi.runtime.runInPulumiStack(async () => {
            // Sees every resource as it is constructed, before it registers: a failure then names the resources
            // it stopped. (A stack transformation runs in the program's process, so it works under mocks.)
            pulumi.runtime.registerStackTransformation((t) => {
              constructed.push({ type: t.type, name: t.name, props: t.props ?? {} });
              return undefined;
            });
            return program();
          })) ?? {};
        await pulumi.runtime.disconnect(); // every registration, those made inside apply included, is done
      } catch (e) {
        errors.push(e);
      }
    })();
    await Promise.race([completed, failure]);
    // Node reports a rejection as unhandled only after the turn it happened in: give the run's errors time to
    // arrive even when every registration is done (a refused resource with nothing depending on it).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (errors.length > 0) {
      forgetPendingPromises();
      const failures = await Promise.all([...new Set(errors)].map((e) => failureOf(e, constructed, registered)));
      throw new PulumiProgramError(failures, resources);
    }
    return {
      resources,
      outputs: unwrapSecrets(outputs) as Record<string, unknown>,
      warnings,
      findings: recording.findings,
    };
  } finally {
    recording.stop();
    host.off('unhandledRejection', onRejection);
    for (const l of otherListeners) host.on('unhandledRejection', l as (reason: unknown) => void);
    log.warn = originalWarn;
  }
}

/**
 * After a failed run, the registrations that waited on the failed one never settle, and at exit Pulumi would
 * report them ("N promises were still active", exit code 1) although the failure was reported and handled. The
 * run is over: clear Pulumi's list of pending promises (its internal `leakedPromises`, which returns and empties
 * it; skipped when a Pulumi version lacks it).
 */
function forgetPendingPromises(): void {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const debuggable = require('@pulumi/pulumi/runtime/debuggable') as { leakedPromises?: () => unknown };
    debuggable.leakedPromises?.();
  } catch {
    // An SDK without the module: the note at exit is noise, not a failure of the run.
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
function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value !== 'object' || value === null) return value;
  const rec = value as Record<string, unknown>;
  if (rec[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig) return unwrapSecrets(rec.value);
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, unwrapSecrets(v)]));
}
