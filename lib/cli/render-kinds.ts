/**
 * Which directories are rendered, by what (the file that makes a directory a chart or a kustomization), and with
 * which settings.
 */

export type Renderer = 'helm' | 'kustomize';

/** File names that make a directory a Kustomize kustomization (what `kustomize build` looks for, in its order). */
export const KUSTOMIZATION_FILES: readonly string[] = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The file that makes a directory a Helm chart. */
export const CHART_FILE = 'Chart.yaml';

/**
 * What a directory holding `names` renders with, if anything. A kustomization wins over `Chart.yaml`: a chart
 * directory with a kustomization file is post-rendered by it.
 */
export function rendererOf(names: readonly string[]): Renderer | undefined {
  if (KUSTOMIZATION_FILES.some((f) => names.includes(f))) return 'kustomize';
  if (names.includes(CHART_FILE)) return 'helm';
  return undefined;
}

/** How the rendering options of `lint` and `fix` reach the tools. */
export interface RenderSettings {
  /** Render charts and kustomizations; `--no-render` turns it off. @default true */
  readonly render: boolean;
  /** `--values FILE` (repeatable), as given: resolved against the working directory. @default [] */
  readonly values: readonly string[];
  /** `--set KEY=VALUE` (repeatable), passed to `helm template` as given. @default [] */
  readonly set: readonly string[];
  /** `--release-name`. @default - Helm's own (`release-name`) */
  readonly releaseName?: string;
  /** `--namespace`: the release namespace of `helm template`. @default - Helm's own (`default`) */
  readonly namespace?: string;
  /** `--kubernetes-version`, passed to Helm as `--kube-version` so `.Capabilities` match the checks. */
  readonly kubernetesVersion?: string;
  /**
   * `--allow-remote-resources`: let Kustomize fetch the remote resources, bases and components a kustomization
   * names (and reach the network with the caller's proxy settings). @default false
   */
  readonly allowRemote?: boolean;
  /** `--render-timeout SECONDS`, in milliseconds: the deadline of all renders of the run. @default 300000 */
  readonly timeoutMs?: number;
}

export const DEFAULT_RENDER_SETTINGS: RenderSettings = { render: true, values: [], set: [] };
