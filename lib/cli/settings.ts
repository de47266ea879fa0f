/**
 * What `lint` and `fix` run with: the config file (named with `--config`, or found from the working directory
 * upward) overlaid by the command line, its ignored paths, and the exit policy (`--fail-on`, `--max-warnings`).
 */
import * as path from 'node:path';
import picomatch from 'picomatch';
import { loadConfig, mergeSettings, type LoadedConfig } from '../core/config';
import { registryEnvironment } from '../registry/trust';
import type { FixOptions } from '../core/fix';
import { validateOptionsOf, type EngineSettings, type TrustedRegistries } from '../core/validate/settings';
import type { Diagnostic, Severity } from '../core/model/types';
import type { FixCommand, LintCommand } from './args';
import type { Input } from './files';
import { CHART_FILE, KUSTOMIZATION_FILES, type Renderer } from './render';

/** Problems in the config file: printed one per line, exit 2 (no pointer to --help: the file is what to fix). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export interface RunSettings {
  readonly settings: EngineSettings;
  /** The config file read, if any. */
  readonly config?: LoadedConfig;
  /** Whether a file input is left alone by the config's `ignore`. */
  readonly ignored: (input: Input) => boolean;
}

/**
 * The command line (and the user's environment, for registries) as settings: only what was given, so the config
 * file's values stand where it is silent. Mirrors and insecure registries from here are the trusted ones.
 */
function commandSettings(command: LintCommand | FixCommand, trusted: TrustedRegistries): EngineSettings {
  const fix =
    command.kind === 'fix'
      ? {
          ...(command.tolerations.length > 0 ? { tolerations: command.tolerations } : {}),
          ...(command.runtimeClassName !== undefined ? { runtimeClassName: command.runtimeClassName } : {}),
          ...(command.pinLinux ? { pinLinux: true } : {}),
        }
      : {};
  return {
    ...(Object.keys(command.rules).length > 0 ? { rules: command.rules } : {}),
    ...(command.windowsRelease !== undefined ? { windowsRelease: command.windowsRelease } : {}),
    ...(command.kubernetesVersion !== undefined ? { kubernetesVersion: command.kubernetesVersion } : {}),
    ...(command.cloud !== undefined ? { cloud: command.cloud } : {}),
    ...(command.date !== undefined ? { date: command.date } : {}),
    ...(command.failOn !== undefined ? { failOn: command.failOn } : {}),
    ...(command.maxWarnings !== undefined ? { maxWarnings: command.maxWarnings } : {}),
    ...(command.resolveImages ? { resolveImages: true } : {}),
    ...(command.offline ? { offline: true } : {}),
    ...(Object.keys(trusted.mirrors).length > 0 ? { registryMirrors: trusted.mirrors } : {}),
    ...(trusted.insecureRegistries.length > 0 ? { insecureRegistries: trusted.insecureRegistries } : {}),
    trustedRegistries: trusted,
    ...(command.imageCache !== undefined ? { imageCache: command.imageCache } : {}),
    ...(command.noMirrorFallback ? { mirrorFallback: false } : {}),
    ...(command.resolveTimeout !== undefined ? { resolveTimeout: command.resolveTimeout } : {}),
    ...fix,
  };
}

/**
 * The settings of a run. A config file with problems stops it (exit 2) with every problem listed, as a bad
 * command line does.
 */
export function resolveRunSettings(
  command: LintCommand | FixCommand,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): RunSettings {
  const config = command.noConfig
    ? undefined
    : loadConfig({ cwd, env, ...(command.config !== undefined ? { path: command.config } : {}) });
  if (config !== undefined && config.issues.length > 0) {
    throw new ConfigError(config.issues.map((i) => `${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`));
  }
  // Registries the user vouches for: the environment's, then the command line's over them.
  const environment = registryEnvironment(env);
  const trusted: TrustedRegistries = {
    mirrors: { ...environment.trusted.mirrors, ...command.registryMirrors },
    insecureRegistries: [...new Set([...environment.trusted.insecureRegistries, ...command.insecureRegistries])],
  };
  const settings = mergeSettings(config?.settings, commandSettings(command, trusted));
  if (settings.resolveImages === true && environment.issues.length > 0) {
    throw new ConfigError(environment.issues.map((i) => `${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`));
  }
  const globs = config?.settings.ignore ?? [];
  const match = globs.length > 0 ? picomatch([...globs], { dot: true }) : undefined;
  const ignored = (input: Input): boolean => {
    if (match === undefined || config === undefined || input.kind === 'stdin') return false;
    const relative = path.relative(config.dir, input.path).split(path.sep).join('/');
    if (relative.startsWith('../')) return false;
    // A chart or kustomization is ignored as a directory, or by the file that makes it one (charts/** or */Chart.yaml).
    if (input.kind === 'render')
      return match(relative) || renderMarkers(input.renderer).some((f) => match(`${relative}/${f}`));
    return match(relative);
  };
  return { settings, ...(config !== undefined ? { config } : {}), ignored };
}

function renderMarkers(renderer: Renderer): readonly string[] {
  return renderer === 'helm' ? [CHART_FILE] : KUSTOMIZATION_FILES;
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/**
 * Whether the findings fail the run: any at `failOn` or above (default: errors), or more warnings than
 * `maxWarnings`. Suppressed findings do not count; those whose suppression is not honoured do.
 */
export function failsRun(diagnostics: readonly Diagnostic[], settings: EngineSettings): boolean {
  const failOn = settings.failOn ?? 'error';
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.suppression?.honoured === true) continue;
    if (RANK[d.severity] <= RANK[failOn]) return true;
    if (d.severity === 'warning') warnings++;
  }
  return settings.maxWarnings !== undefined && warnings > settings.maxWarnings;
}

/** `fixManifestSet`'s options from a run's settings (the config file under the command line). */
export function fixOptionsOf(settings: EngineSettings): FixOptions {
  return {
    ...validateOptionsOf(settings),
    tolerations: settings.tolerations ?? [],
    ...(settings.runtimeClassName !== undefined ? { runtimeClassName: settings.runtimeClassName } : {}),
    pinLinux: settings.pinLinux === true,
  };
}
