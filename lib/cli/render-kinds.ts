/** Which directories are rendered, and by what: the file that makes a directory a chart or a kustomization. */

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
