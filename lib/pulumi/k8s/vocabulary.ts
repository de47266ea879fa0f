/**
 * The core's messages name pod-spec fields (the words of `podSpec`, which Pulumi users write as manifests) and,
 * for what a front door sets through its own options, "the hostProcess option"; a few fixes add a cdk8s-plus hint.
 * Pulumi users get the args of the components instead: `windows.hostProcess`, `windows: { release }`, and no
 * cdk8s-plus words. The rule ids, paths and reasons stay the core's.
 */

type Rewrite = readonly [RegExp, string | ((match: string, ...groups: string[]) => string)];

const REWRITES: readonly Rewrite[] = [
  // cdk8s-plus hints: the Pulumi user wrote the manifest field, which the fix already names.
  [/;? in cdk8s-plus, (?:`[^`]*`|[^.;)`])*/g, ''],
  [/ \(in cdk8s-plus, (?:`[^`]*`|[^)`])*\)/g, ''],
  // The core's options, as the `windows` block of the workload components spells them.
  [/\bthe hostProcess option\b/g, 'windows.hostProcess: true'],
  [/\bthe runAsUserName option\b/g, 'windows.runAsUserName'],
  [/\bthe gMSA option\b/g, 'windows.gmsa'],
  [/\bchoose the account with runAsUserName\b/g, 'choose the account with windows.runAsUserName'],
  [/^Remove gmsa or hostProcess\.$/, 'Remove windows.gmsa or windows.hostProcess.'],
  [
    /\b(?:pin|run) the workload (?:to|on) Windows Server (\d{4}) nodes\b/g,
    (_m, release: string) =>
      `run it on Windows Server ${release} nodes: windows: { release: '${release}' }, or windows.target set to a ${release} pool's nodeTarget`,
  ],
];

function rewrite(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REWRITES) {
    out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  }
  return out;
}

/** An issue or warning of the core, in the words of the Pulumi components' args. */
export function inPulumiWords<T extends { readonly message: string; readonly fix?: string }>(issue: T): T {
  return {
    ...issue,
    message: rewrite(issue.message),
    ...(issue.fix !== undefined ? { fix: rewrite(issue.fix) } : {}),
  };
}
