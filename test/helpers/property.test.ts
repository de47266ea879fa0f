/** The shared property settings (property.ts): defaults, scaling by K8S_WINDOWS_PROPERTY_RUNS, replay, bad values. */
import { DEFAULT_PROPERTY_RUNS, parametersFor, readPropertySettings } from './property';

test('by default: a few hundred runs and no seed, so every run draws new inputs', () => {
  const settings = readPropertySettings({});
  expect(settings).toEqual({ runs: DEFAULT_PROPERTY_RUNS });
  expect(DEFAULT_PROPERTY_RUNS).toBeGreaterThanOrEqual(100);
  expect(DEFAULT_PROPERTY_RUNS).toBeLessThanOrEqual(500);
  expect(parametersFor(settings, DEFAULT_PROPERTY_RUNS)).toEqual({ numRuns: DEFAULT_PROPERTY_RUNS });
  expect(parametersFor(settings, 20)).toEqual({ numRuns: 20 });
});

test('K8S_WINDOWS_PROPERTY_RUNS scales every property by the same factor, never below one run', () => {
  const settings = readPropertySettings({ K8S_WINDOWS_PROPERTY_RUNS: '5000' });
  expect(parametersFor(settings, DEFAULT_PROPERTY_RUNS)).toEqual({ numRuns: 5000 });
  expect(parametersFor(settings, DEFAULT_PROPERTY_RUNS / 10)).toEqual({ numRuns: 500 });
  expect(parametersFor(readPropertySettings({ K8S_WINDOWS_PROPERTY_RUNS: '1' }), 20)).toEqual({ numRuns: 1 });
});

test('a printed seed and path replay a failure', () => {
  const settings = readPropertySettings({
    K8S_WINDOWS_PROPERTY_SEED: '-1819918769',
    K8S_WINDOWS_PROPERTY_PATH: '3:1:0',
  });
  expect(parametersFor(settings, 400)).toEqual({
    numRuns: 400,
    seed: -1819918769,
    path: '3:1:0',
    endOnFailure: true,
  });
});

test('bad values are refused, each named with its value, all at once', () => {
  expect(() =>
    readPropertySettings({
      K8S_WINDOWS_PROPERTY_RUNS: 'lots',
      K8S_WINDOWS_PROPERTY_SEED: '1.5',
      K8S_WINDOWS_PROPERTY_PATH: '0:1',
    }),
  ).toThrow(
    "Property test settings: K8S_WINDOWS_PROPERTY_RUNS='lots' is not a whole number of at least 1; " +
      "K8S_WINDOWS_PROPERTY_SEED='1.5' is not an integer. Fix or unset them (test/helpers/property.ts).",
  );
  expect(() => readPropertySettings({ K8S_WINDOWS_PROPERTY_RUNS: '0' })).toThrow(
    "K8S_WINDOWS_PROPERTY_RUNS='0' is not a whole number of at least 1",
  );
  expect(() => readPropertySettings({ K8S_WINDOWS_PROPERTY_PATH: '0:1' })).toThrow(
    'K8S_WINDOWS_PROPERTY_PATH is set without K8S_WINDOWS_PROPERTY_SEED: a path replays only with the seed printed beside it',
  );
});
