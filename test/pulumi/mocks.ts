/**
 * Shared Pulumi test harness (not a test file): mocked runtime, the resources it registered, a `pulumi.log.warn`
 * spy, a way to wait for an Output, and the InputPropertiesError a component throws. Call `mockPulumi()` at the
 * top of a test file, before the component module is imported (tests import it in `beforeAll`), so the providers
 * register against the mocked runtime.
 */
import * as pulumi from '@pulumi/pulumi';
import { cloudFindingSink, type CloudFinding } from '../../lib/core/rules/cloud-findings';

/** A resource the mocked engine was asked to create, with the inputs it got. */
export interface Registered {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
}

/** Outputs a provider computes (ARNs, versions): extra state merged over a resource's inputs. */
export type ComputedState = (type: string, name: string) => Record<string, unknown>;

export interface PulumiMocks {
  /** Every resource registered since the current test began. */
  readonly registered: Registered[];
  /** `pulumi.log.warn`, silenced; its calls are those of the current test. */
  readonly warn: jest.SpyInstance;
  /** The findings the components reported to `cloudFindingSink` in the current test. */
  readonly findings: readonly CloudFinding[];
}

/**
 * Installs the mocked runtime (each resource's state is its inputs plus `computed`), and per test empties
 * `registered` and clears the `pulumi.log.warn` spy.
 */
export function mockPulumi(
  computed: ComputedState = () => ({}),
  invoke: (token: string, inputs: Record<string, unknown>) => Record<string, unknown> = (_t, inputs) => inputs,
): PulumiMocks {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
        return { id: `${args.name}-id`, state: { ...args.inputs, ...computed(args.type, args.name) } };
      },
      call: (args) => invoke(args.token, args.inputs as Record<string, unknown>),
    },
    'project',
    'stack',
    false,
  );
  const warn = jest.spyOn(pulumi.log, 'warn').mockImplementation(() => Promise.resolve());
  const recording = cloudFindingSink.record();
  beforeEach(() => {
    registered.length = 0;
    warn.mockClear();
    recording.clear();
  });
  afterAll(() => {
    warn.mockRestore();
    recording.stop();
  });
  return { registered, warn, findings: recording.findings };
}

/** The `errors` of the InputPropertiesError `build` throws; no error, or another kind, fails the test. */
export function inputErrorsOf(build: () => unknown): { propertyPath: string; reason: string }[] {
  try {
    build();
  } catch (e) {
    expect(pulumi.InputPropertiesError.isInstance(e)).toBe(true);
    return (e as pulumi.InputPropertiesError).errors;
  }
  throw new Error('expected an InputPropertiesError');
}

/** The value of an Output, once the mocked engine resolves it. */
export function resolved<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply(resolve));
}
