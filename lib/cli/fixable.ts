/**
 * Whether `k8s-windows fix` changes a finding that `lint` reports, run with the same settings (the config file's and
 * the same command-line options): some fixers act only with an option `fix` has and `lint` does not — the taints to
 * tolerate, pinning Linux pods — so `lint` names that option instead of calling the finding fixable by plain `fix`.
 */
import { CLOUD_TAINTS } from '../core/fix';
import { fixLeftReason } from '../core/pod-templates';
import { RULES_BY_ID } from '../core/validate/rules';
import type { EngineSettings } from '../core/validate/settings';
import type { Diagnostic, RuleInfo } from '../core/model/types';

/** What `fix` needs of the run's settings: the taints (`--toleration`, a cloud preset) and `--pin-linux`. */
export type FixSettings = Pick<EngineSettings, 'tolerations' | 'cloud' | 'pinLinux'>;

/** A fixer that changes nothing without an option of `fix`: the option, as written on its command line. */
interface NeedsOption {
  /** `--toleration <key=value:Effect>`. */
  readonly option: string;
  /** Whether the settings give what the option gives (the config file may). */
  readonly given: (settings: FixSettings) => boolean;
}

/** The option of `fix` that gives each setting a fixer may need (the rule's `fixNeeds`). */
export const FIX_OPTIONS: Readonly<Record<NonNullable<RuleInfo['fixNeeds']>, NeedsOption>> = {
  // Tolerations for the target's taints: none are known without --toleration or a cloud that taints (gke).
  tolerations: {
    option: '--toleration <key=value:Effect>',
    given: (s) => (s.tolerations ?? []).length > 0 || (s.cloud !== undefined && CLOUD_TAINTS[s.cloud].length > 0),
  },
  pinLinux: { option: '--pin-linux', given: (s) => s.pinLinux === true },
};

/**
 * How `fix` treats a finding: `'fix'` when plain `fix` (same settings) changes it, the option it needs when only
 * that option makes it, undefined when it does not fix it at all (no fixer, or a kind fix leaves alone). A fixer may
 * still leave a finding alone when the edit is not certain for it ("potentially").
 */
export function fixability(d: Diagnostic, settings: FixSettings): 'fix' | { readonly option: string } | undefined {
  const rule = RULES_BY_ID.get(d.ruleId);
  if (rule?.fixable === undefined) return undefined;
  if (fixLeftReason(d.resource.apiVersion, d.resource.kind) !== undefined) return undefined;
  const needs = rule.fixNeeds === undefined ? undefined : FIX_OPTIONS[rule.fixNeeds];
  if (needs !== undefined && !needs.given(settings)) return { option: needs.option };
  return 'fix';
}
