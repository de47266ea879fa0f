/**
 * How many runs each fast-check property gets, and with which seed: one place for every property test.
 *
 * - By default a few hundred runs ({@link DEFAULT_PROPERTY_RUNS}) and a fresh random seed every run, so CI explores
 *   new inputs each time; on failure fast-check prints the seed and the counterexample's path.
 * - `K8S_WINDOWS_PROPERTY_RUNS=5000 npm run test:property` for a long run: every property scales by the same factor.
 * - `K8S_WINDOWS_PROPERTY_SEED=<seed> K8S_WINDOWS_PROPERTY_PATH=<path> npx jest <file> -t '<test>'` replays a
 *   failure from the seed and path fast-check printed (`-t`: a path belongs to one property).
 *
 * Every property test passes `propertyParameters(n)`, n its runs in a default run (fewer when one run is costly); jest's
 * setup (property-setup.ts) makes the same settings the global default, at fast-check's 100 runs, for a property in
 * a unit suite that passes none.
 */
import type { Parameters } from 'fast-check';

/** Runs of a property at the default weight: a few hundred keeps `npm test` quick and still finds most faults. */
export const DEFAULT_PROPERTY_RUNS = 200;

const RUNS_VARIABLE = 'K8S_WINDOWS_PROPERTY_RUNS';
const SEED_VARIABLE = 'K8S_WINDOWS_PROPERTY_SEED';
const PATH_VARIABLE = 'K8S_WINDOWS_PROPERTY_PATH';

/** What the environment asks of the property runs. */
export interface PropertySettings {
  /** Runs of a property at the default weight. */
  readonly runs: number;
  /** Replays a failure: the seed fast-check printed. */
  readonly seed?: number;
  /** Replays a failure: the counterexample path fast-check printed (with its seed). */
  readonly path?: string;
}

/** The environment's settings, or an error naming each bad variable, its value and what it takes. */
export function readPropertySettings(env: NodeJS.ProcessEnv): PropertySettings {
  const problems: string[] = [];
  const integer = (name: string, min: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) {
      problems.push(`${name}='${raw}' is not ${min > 0 ? `a whole number of at least ${min}` : 'an integer'}`);
      return undefined;
    }
    return value;
  };
  const runs = integer(RUNS_VARIABLE, 1) ?? DEFAULT_PROPERTY_RUNS;
  const seed = integer(SEED_VARIABLE, Number.MIN_SAFE_INTEGER);
  const path = env[PATH_VARIABLE] === '' ? undefined : env[PATH_VARIABLE];
  if (path !== undefined && env[SEED_VARIABLE] === undefined) {
    problems.push(
      `${PATH_VARIABLE} is set without ${SEED_VARIABLE}: a path replays only with the seed printed beside it`,
    );
  }
  if (problems.length > 0) {
    throw new Error(`Property test settings: ${problems.join('; ')}. Fix or unset them (test/helpers/property.ts).`);
  }
  return { runs, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) };
}

/**
 * fast-check parameters for one property under `settings`: `runsAtDefault` scaled by `settings.runs` over
 * {@link DEFAULT_PROPERTY_RUNS} (at least one run), and the seed and path only when replaying a failure.
 */
export function parametersFor<T = unknown>(settings: PropertySettings, runsAtDefault: number): Parameters<T> {
  const numRuns = Math.max(1, Math.round((runsAtDefault * settings.runs) / DEFAULT_PROPERTY_RUNS));
  return {
    numRuns,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    ...(settings.path === undefined ? {} : { path: settings.path, endOnFailure: true }),
  };
}

const SETTINGS = readPropertySettings(process.env);

/** Runs of a property at the default weight in this run (`K8S_WINDOWS_PROPERTY_RUNS`, or the default). */
export const PROPERTY_RUNS = SETTINGS.runs;

/**
 * fast-check parameters for one property. `runsAtDefault` is how many runs it gets in a default run (a property
 * whose run is costly asks for fewer); `K8S_WINDOWS_PROPERTY_RUNS` scales it by the same factor as every other.
 * No seed unless one is given to replay a failure: a fixed seed would test the same inputs forever.
 * @default runsAtDefault - DEFAULT_PROPERTY_RUNS
 */
export function propertyParameters<T = unknown>(runsAtDefault: number = DEFAULT_PROPERTY_RUNS): Parameters<T> {
  return parametersFor<T>(SETTINGS, runsAtDefault);
}
