/** Shared helpers for the cdk8s tests: find objects in `Testing.synth` output and read their pod specs. */
import { WindowsValidationError } from 'k8s-windows';
import type { PodSpec } from '../../lib/core/kube';
import { locatePodSpec } from '../../lib/core/workloads';

export type Manifest = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The one object of `kind` (and `name`, when given) in the synthesized manifests. */
export function objectOf(manifests: readonly Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata?.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` '${name}'` : ''}, found ${found.length}`);
  return found[0];
}

/** The pod spec of the one object of `kind`. */
export function podSpecOf(manifests: readonly Manifest[], kind: string, name?: string): PodSpec {
  const loc = locatePodSpec(objectOf(manifests, kind, name));
  if (!loc) throw new Error(`${kind} has no pod spec`);
  return loc.spec;
}

/** The WindowsValidationError `fn` throws; any other error is rethrown, and no error fails the test. */
export function captureError(fn: () => unknown): WindowsValidationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof WindowsValidationError) return err;
    throw err;
  }
  throw new Error('expected a WindowsValidationError');
}

/** Silences the Node.js process warnings the constructs print, returning the spy to assert on. */
export function silenceWarnings(): jest.SpyInstance {
  return jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
}

export const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
export const ASPNET = 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2022';
export const NANOSERVER_2019 = 'mcr.microsoft.com/windows/nanoserver:ltsc2019';
