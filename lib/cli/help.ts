/** The `--help` texts. Exit codes and input handling are documented here, where users look for them. */
import { WINDOWS_RELEASES } from '../core/releases';
import { WAIVE_ANNOTATION } from '../core/validate/types';
import type { CommandName } from './args';
import { MANIFEST_EXTENSIONS } from './files';

const OVERVIEW = `Usage: k8s-windows <command> [options]

Checks Kubernetes manifests for Windows containers: what the API server rejects for Windows pods,
what cannot run on Windows nodes, and what runs badly there.

Commands:
  lint [options] <files|directories|->   lint manifests (YAML or JSON); '-' reads standard input
  rules [--format text|json|markdown]    list the rules: id, default severity, summary
  help [command]                         show help for a command

Options:
  -h, --help      show help
  --version       print the version

Examples:
  k8s-windows lint manifests/
  helm template my-release ./chart | k8s-windows lint -
  kustomize build overlays/prod | k8s-windows lint --format sarif - > k8s-windows.sarif
`;

const LINT = `Usage: k8s-windows lint [options] <files|directories|->

Lints Kubernetes manifests for Windows containers. Files are read whatever their extension.
Directories are searched recursively for ${MANIFEST_EXTENSIONS.join(', ')} files, skipping node_modules
and hidden (dot) entries; documents without a kind in files found that way (a chart's values.yaml,
cdk8s's construct-metadata.json) are not manifests and are skipped. '-' reads standard input (shown as
<stdin>). A pod finds what it names (its Namespace, RuntimeClass, gMSA credential spec, RBAC grants) in
any input; rules that compare a pod with its neighbours (Linux pods beside Windows pods, Services in front
of Windows pods, credspec names, RBAC that makes a missing grant certain) look only inside its own file,
so a directory of unrelated manifests does not mix.

Input is read as kubectl reads it: UTF-8, with or without a byte-order mark, or UTF-16 with a byte-order
mark (what Windows PowerShell 5.1's '>' writes). Binary or invalid UTF-8 input is refused.

Options:
  -f, --format <text|json|sarif>   output format (default: text)
                                     text   grouped by file and resource; colour on a terminal
                                            (NO_COLOR turns it off, FORCE_COLOR forces it)
                                     json   the diagnostics array, each with source, line and
                                            column, plus input problems (ruleId input-unreadable)
                                     sarif  SARIF 2.1.0, for GitHub code scanning
  --disable <rule[,rule...]>       turn rules off (repeatable)
  --severity <rule=level[,...]>    set a rule's severity: error, warning, info or off (repeatable;
                                   the last mention of a rule wins)
  --windows-release <${WINDOWS_RELEASES.join('|')}>
                                   the Windows Server release of the cluster's Windows nodes, for
                                   image compatibility checks when a pod does not pin one
  --kubernetes-version <1.x>       the cluster's Kubernetes version, for version-dependent rules
  --cloud <eks|aks|gke>            the cloud the cluster runs on: GKE taints Windows nodes (a missing
                                   toleration is a warning), EKS reads the kubernetes.io/os nodeSelector
  -q, --quiet                      report errors only
  --allow-empty                    accept standard input with no objects (default: exit 2, since empty
                                   input usually means the command before the pipe failed)
  --stdin-filename <name>          the file name to report standard input under (default: <stdin>)
  -h, --help                       show this help

A resource can waive rules with the annotation ${WAIVE_ANNOTATION}: "<rule>,<rule>" (or "*").

Exit codes:
  0  no error-severity problems (warnings and info do not fail)
  1  at least one error-severity problem
  2  bad usage, or input that could not be read: a missing file, an unreadable directory, a directory
     without manifests, binary or invalid UTF-8 input, empty standard input (without --allow-empty), a
     document nested too deeply, or a YAML/JSON syntax error. The rest of the input is still linted and reported,
     but the run fails with 2 because part of it went unchecked.
`;

const RULES = `Usage: k8s-windows rules [--format text|json|markdown]

Lists every rule: id, default severity and summary (text), the full catalogue with rationale and
documentation links (json), or a Markdown table (markdown, as in the README).

Options:
  -f, --format <text|json|markdown>   output format (default: text)
  -h, --help                 show this help
`;

export function helpText(topic?: CommandName): string {
  switch (topic) {
    case undefined:
      return OVERVIEW;
    case 'lint':
      return LINT;
    case 'rules':
      return RULES;
    default: {
      const unknownTopic: never = topic;
      throw new Error(`no help for ${String(unknownTopic)}`);
    }
  }
}
