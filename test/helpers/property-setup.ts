/**
 * jest `setupFiles` entry (jest.config.js): every fast-check property in every project follows the shared run count
 * and seed settings (property.ts) unless it passes its own parameters, so `K8S_WINDOWS_PROPERTY_RUNS` reaches them
 * all. Such a property keeps fast-check's own default weight, 100 runs, so suites in `unit` cost what they did.
 */
import fc from 'fast-check';
import { propertyParameters } from './property';

const FAST_CHECK_DEFAULT_RUNS = 100;

fc.configureGlobal(propertyParameters(FAST_CHECK_DEFAULT_RUNS));
