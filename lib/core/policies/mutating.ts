/**
 * MutatingAdmissionPolicies for the fixes `fix` makes with certainty (issue 26 §2), opt-in.
 *
 * SEAM ONLY: another engineer writes the generator in this file; until it lands, `generatePolicies` with
 * `mutating: true` emits no mutating policy (the CLI's --mutating says so on stderr when none comes back).
 */
import type { PolicyObject, PolicyOptions } from './types';

/** The MutatingAdmissionPolicies and their bindings `options` asks for (`options.mutatingVersion`). */
export function mutatingPolicies(options: PolicyOptions): PolicyObject[] {
  void options;
  return [];
}
