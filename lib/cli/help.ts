/** The `--help` texts. Exit codes and input handling are documented here, where users look for them. */
import { newestMinor } from '../core/api/schema';
import { WINDOWS_RELEASES } from '../core/releases';
import { CONFIG_ENV, CONFIG_FILE_NAMES } from '../core/config';
import { SUPPRESS_ANNOTATION_PREFIX } from '../core/model/types';
import type { CommandName } from './args';
import { MANIFEST_EXTENSIONS } from './files';
import { CHART_FILE, KUSTOMIZATION_FILES } from './render';
import { CLOUDS } from '../core/cloud-gates';
import { ADMISSION_POLICY_VERSIONS } from '../core/policies/api-versions';
import { POLICY_MODES } from '../core/policies/types';
import { DEFAULT_SYSTEM_NAMESPACES, OPT_OUT_LABEL } from '../core/policies/validating';

const OVERVIEW = `Usage: k8s-windows <command> [options]

Checks Kubernetes manifests for Windows containers: what the API server rejects for Windows pods,
what cannot run on Windows nodes, and what runs badly there.

Commands:
  lint [options] <files|directories|->   lint manifests (YAML or JSON); '-' reads standard input
  fix [options] <files|directories|->    fix what the rules are sure of; prints the result (--write: in place)
  rules [id] [--format text|json|markdown]
                                         list the rules: id, default severity, summary; with an id,
                                         print that rule's page
  facts [--format text|json] [--date D]  what this version believes: releases, builds, support at a date,
                                         image compatibility, cloud gates and defaults, with sources
  policies [options]                     the rules as admission policies (YAML) for the API server
                                         to run: kubectl apply them
  doctor [options]                       read a live cluster (read-only) and explain every Windows pod
                                         that is not Ready, from what the scheduler, kubelet and runtime wrote
  help [command]                         show help for a command

Options:
  -h, --help      show help
  --version       print the version

Examples:
  k8s-windows lint manifests/
  k8s-windows lint overlays/prod                  (renders with kustomize build)
  k8s-windows lint ./chart --values prod.yaml     (renders with helm template)
  helm template my-release ./chart | k8s-windows lint -
  kustomize build overlays/prod > prod.yaml && k8s-windows lint --format sarif prod.yaml > k8s-windows.sarif
  k8s-windows lint --format junit manifests/ > k8s-windows-junit.xml
  k8s-windows fix --check manifests/
  k8s-windows rules windows-host-port
  k8s-windows fix --cloud gke ./chart > fixed.yaml
  k8s-windows policies --cluster-facts facts.yaml | kubectl apply -f -
  k8s-windows doctor --context prod -n shop
`;

const POLICY_OPTIONS = `  -c, --config <file>              the config file (default: ${CONFIG_FILE_NAMES[0]} in the working
                                   directory or the nearest directory above it; or $${CONFIG_ENV})
  --no-config                      read no config file
  --fail-on <error|warning|info>   the lowest severity that fails the run (default: error)
  --max-warnings <n>               fail when more than n warnings are left
  --resolve-images                 ask each image's registry for its platforms, builds and user
                                   (Docker config credentials and helpers; off by default)
  --offline                        with --resolve-images: answer from the cache only
  --registry-mirror <host=url>     a mirror for a registry (docker.io=https://mirror:5000; repeatable);
                                   it is sent the credentials stored for its own host only
  --no-mirror-fallback             a mirror's answer is final: never ask the registry itself
  --insecure-registry <host>       speak plain HTTP to a registry or mirror host, and let credentials
                                   go to it over HTTP (repeatable; loopback always may)
  --resolve-timeout <seconds>      the most all registry lookups of a run take (default: 30; 1.5, 30s
                                   and 1500ms are understood)
  --image-cache <dir>              where registry answers are cached (default: the platform's cache
                                   directory, ~/.cache/k8s-windows on Linux)
  --max-input-size <size>          the most one input may hold (default: 64MiB; bytes, or KiB, MiB,
                                   GiB): a larger file, device or standard input is an input problem
  Credentials go only over HTTPS, or to loopback and hosts given to --insecure-registry (or in
  K8S_WINDOWS_INSECURE_REGISTRIES). Mirrors given here or in K8S_WINDOWS_REGISTRY_MIRRORS
  (host=url,...) get their own host's credentials; mirrors from the config file get none.`;

const RENDER_OPTIONS = `  --no-render                      read chart and kustomization directories as plain files (the
                                   behaviour before rendering: templates fail to parse, overlays
                                   are read without their patches and images)
  --values <file>                  a Helm values file for the charts (repeatable, after the chart's
                                   own values.yaml; -f stays --format)
  --set <key=value>                a Helm value (repeatable, as helm's --set)
  --release-name <name>            the Helm release name (default: helm's, release-name)
  -n, --namespace <name>           the Helm release namespace (default: helm's, default)
  --allow-remote-resources         let kustomize fetch the remote resources, bases and components a
                                   kustomization names (refused by default: a repository's content
                                   does not decide which hosts a lint contacts)
  --render-timeout <seconds>       the most all renders of a run take together (default: 300;
                                   300s and 1500ms are understood); a render still running then is
                                   stopped with every process it started`;

const RENDERING = `Charts and kustomizations: a directory (named, or met while walking) holding
${KUSTOMIZATION_FILES.join(', ')} is checked as 'kustomize build DIR' prints it
(or 'kubectl kustomize DIR' when only kubectl is installed); one holding ${CHART_FILE} as
'helm template [--release-name] DIR' prints it, with the chart's values.yaml, then --values and --set. Their files are not read as manifests: a walk does not descend
into a chart, looks inside a kustomization only for other kustomizations, and skips a kustomization
that another one it found builds on (resources, bases, components). Findings name the file they
come from: a chart's template as Helm's '# Source:' comment names it (charts/web/templates/x.yaml),
an overlay's resource file that holds the object (patches change it; the kustomization file when
none does), at the field's line where the file writes it as rendered, else at the file's (object's)
first line with the rendered line:column in the message (JSON: 'rendered').
A tool that is not installed is an input problem (exit 2) naming what to install and the pipe
that does the same by hand; --no-render turns rendering off. The tools are found on PATH.
Rendering reads no more than the walk does: a symbolic link out of the directory named is left
out of a chart (Helm renders a copy without it) and stops a kustomization from rendering; remote
kustomize entries are refused unless --allow-remote-resources; Helm and Kustomize get a minimal
environment (PATH, HOME, temporary and locale variables, HELM_* and KUSTOMIZE_*), never the
caller's tokens; their output is held to --max-input-size.`;

const CONFIG = `Config file (${CONFIG_FILE_NAMES[0]}; the command line wins over it, rule by rule):
  rules: {<rule>: off|error|warning|info}    cloud, kubernetesVersion, windowsRelease, failOn,
  maxWarnings, tolerations, runtimeClassName, pinLinux, resolveImages, offline, imageCache,
  resolveTimeout, mirrorFallback, registryMirrors: {<host>: <url>}, insecureRegistries: [<host>]
  (as the options; a file's mirrors and insecure registries are asked without credentials), and
  ignore: [<glob relative to the file>]      files (and chart or kustomization directories)
                                             lint and fix leave alone (counted in a note; a
                                             run that leaves nothing to check exits 2)
  suppressions: [{rules: [<rule>], kind, namespace, name (globs), reason: <why>}]
  podTemplates: [{apiVersion: <group>/<version> (or <group>/*), kind, template: <path> (a pod
                 template: metadata and spec) or podSpec: <path> (a pod spec alone)}]
                                             custom resource kinds whose pods lint and fix judge
                                             as a workload's, e.g. {apiVersion: example.com/v1,
                                             kind: MyWorkload, template: spec.template}. Argo
                                             Rollouts and Workflows, KEDA ScaledJobs, OpenShift
                                             DeploymentConfigs and Knative Services are read
                                             without it; fix leaves Argo Workflows and Knative
                                             Services, and says so

Suppressions: annotate the object (or a workload's pod template) once per rule, the value the reason:
  ${SUPPRESS_ANNOTATION_PREFIX}<rule>: "<why this finding is accepted>"
Suppressed findings are listed with their reason (text: after the report; json: 'suppression';
sarif: 'suppressions'). A rule id that does not exist, or a suppression without a reason, is
reported (suppression-invalid). An error the API server rejects the object for is never hidden.`;

const FIX = `Usage: k8s-windows fix [options] <files|directories|->

Fixes what the rules are certain of and prints the fixed manifests on standard output (--write:
rewrites the files instead). Inputs are read as 'lint' reads them. Documents with nothing to fix
come out byte for byte; edited ones keep their comments, key order, quoting and anchors where the
YAML library can. Running fix on its own output changes nothing.

What is fixed, for pods the rules find to be Windows pods:
  - spec.os.name: windows, and nodeSelector kubernetes.io/os: windows where the pod selects no OS
  - a toleration for each taint of the target (--toleration, --cloud); none if you give none
  - with --windows-release: the node.kubernetes.io/windows-build selector (or --runtime-class) on
    pods pinned to no build; without it, pods whose image runs on one build only are pinned to it
    (HostProcess pods and multi-arch node-agent DaemonSets are left unpinned: they run on any build)
  - fields the API server forbids on Windows pods are removed, each named in the change report
  - HostProcess pods: hostNetwork: true, and each hostPort set to its containerPort
  - with --pin-linux: kubernetes.io/os: linux on Linux pods of a set that has Windows pods
A pod is Windows by spec.os, its OS selector, a Windows RuntimeClass, HostProcess, or an image that
surely is one (a Windows repository, or a tag like ltsc2022 or nanoserver-1809; never a version
such as 1.4.1809 or 2004). Nothing inside a YAML anchor other places share, behind an alias or from
a merge key is edited: such a fix is reported as not made, with why, for every object it concerns.
Everything else is reported as lint reports it ('k8s-windows rules --format json' shows which rules
are fixable and how).

Where things go: the fixed manifests on standard output (none with --write, --diff, --dry-run or
--check); the report (changes, fixes not made, findings left; with --check the files that would
change) on standard error while standard output carries manifests or a diff, else on standard
output, or in --report-file.

Options:
  -w, --write                      rewrite the files in place (not with '-'): through a temporary file
                                   renamed over the original (mode kept), only while the file is
                                   still what was read, never through a link out of its directory;
                                   a file that cannot be written is left whole and reported (exit 2)
  --diff                           print a unified diff of what would change; write nothing
  --dry-run                        report what would change; print and write no manifests
  --check                          write and print nothing; list the files a fix would change, and
                                   exit 1 when there is one, else 0 (as prettier --check, ruff and
                                   black do); findings a fix cannot settle are lint's to fail on
  -f, --format <text|json|sarif|junit|github>
                                   the report's format (default: text; json is lint's envelope with
                                   changes, refused and written added, and with --check the files
                                   that would change; junit and github as for lint, with --check one
                                   failure or annotation per change a fix would make); --report is
                                   its older name
  --report-file <file>             write the report to this file
  -q, --quiet                      report only the errors left: no change lines, no warnings or advice
  --toleration <key=value:Effect>  a taint your Windows nodes carry (repeatable; 'key:Effect' for a
                                   taint without value)
  --cloud <${CLOUDS.join('|')}>            add the taints the cloud puts on Windows nodes itself: gke taints
                                   them node.kubernetes.io/os=windows:NoSchedule; eks and aks add none
                                   (and re-levels advice as for lint)
  --windows-release <${WINDOWS_RELEASES.join('|')}>
                                   the release of your Windows nodes: pins unpinned Windows pods to it
  --runtime-class <name>           with --windows-release: set this RuntimeClass instead of the build
                                   selector
  --pin-linux                      pin Linux pods to Linux nodes when the set has Windows pods
  --krm                            read a KRM ResourceList on standard input and write it back (a
                                   Kustomize exec function); options may come from functionConfig.spec
                                   or a ConfigMap's data (anything else in the functionConfig: exit 2)
  --allow-empty                    accept standard input without objects (else exit 2, as lint)
  --stdin-filename <name>          the name standard input is reported under
  --disable <rule[,rule...]>       turn rules off: their findings are neither fixed nor reported
  --severity <rule=level[,...]>    set a rule's severity, as for lint
  --kubernetes-version <1.x>       the cluster's Kubernetes version, as for lint
${RENDER_OPTIONS}
  --date <YYYY-MM-DD>              the day support and retirements are judged at, as for lint
${POLICY_OPTIONS}
  -h, --help                       show this help

Charts and kustomizations are rendered as for lint (see 'k8s-windows lint --help'), and fix prints the
fixed rendered manifests: what a Helm post-renderer or 'kubectl apply -f -' takes. It never rewrites
templates or bases: --write on a chart or kustomization is refused and writes nothing.

${CONFIG}

Helm post-renderer (stdin to stdout, non-zero on errors left):
  helm install web ./chart --post-renderer ./k8s-windows-fix.sh
Kustomize: see docs/fix.md, Kustomize (an exec KRM function with --krm).

Exit codes (as lint):
  0  nothing left at the --fail-on severity (default: error), and no more than --max-warnings
     (--check: no file a fix would change)
  1  findings left that fail the run (the fixed manifests are still printed or written)
     (--check: a fix would change a file)
  2  bad usage, or input that could not be read or parsed (those documents are left as they were)
`;

const LINT = `Usage: k8s-windows lint [options] <files|directories|->

Lints Kubernetes manifests for Windows containers. Files are read whatever their extension.
Chart and kustomization directories are rendered first (see below). Other directories are searched
recursively for ${MANIFEST_EXTENSIONS.join(', ')} files, skipping node_modules and hidden (dot) entries,
and symbolic links that lead out of the directory named (a note says which);
documents without a kind in files found that way (cdk8s's construct-metadata.json) are not manifests
and are skipped. '-' reads standard input (shown as
<stdin>). A pod finds what it names (its Namespace, RuntimeClass, gMSA credential spec, RBAC grants) in
any input; rules that compare a pod with its neighbours (Linux pods beside Windows pods, Services in front
of Windows pods, credspec names, RBAC that makes a missing grant certain) look only inside its own file,
so a directory of unrelated manifests does not mix.

Input is read as kubectl reads it: UTF-8, with or without a byte-order mark, or UTF-16 with a byte-order
mark (what Windows PowerShell 5.1's '>' writes). Binary or invalid UTF-8 input is refused.

Options:
  -f, --format <text|json|sarif|junit|github>
                                   output format (default: text)
                                     text   grouped by file and resource; colour on a terminal
                                            (NO_COLOR turns it off, FORCE_COLOR forces it);
                                            '(fixable)' marks what 'k8s-windows fix' can change,
                                            '(fixable with --pin-linux)' what it changes with that option
                                     json   { tool, summary, findings, inputProblems }: each finding
                                            with source, line, column and fixable
                                     sarif  SARIF 2.1.0, for GitHub code scanning (lint files in
                                            the repository, or name standard input with
                                            --stdin-filename, so code scanning can place results)
                                     junit  JUnit XML for CI test reports: a suite per file, a test
                                            case per object, failing with its findings at the
                                            --fail-on severity or above (the rest in the suite's
                                            system-out); an error per file that could not be read
                                     github GitHub Actions workflow commands (::error, ::warning,
                                            ::notice) that annotate the file and line; files are
                                            named relative to $GITHUB_WORKSPACE
  --disable <rule[,rule...]>       turn rules off (repeatable)
  --severity <rule=level[,...]>    set a rule's severity: error, warning, info or off (repeatable;
                                   the last mention of a rule wins)
  --windows-release <${WINDOWS_RELEASES.join('|')}>
                                   the Windows Server release of the cluster's Windows nodes, for
                                   image compatibility checks when a pod does not pin one
  --kubernetes-version <1.x>       the cluster's Kubernetes version (default 1.${newestMinor()}, the newest known):
                                   objects are checked against its API (removed apiVersions, unknown
                                   fields), and version-dependent rules follow it
  --cloud <eks|aks|gke>            the cloud the cluster runs on: GKE taints Windows nodes (a missing
                                   toleration is a warning), EKS reads the kubernetes.io/os nodeSelector
  --date <YYYY-MM-DD>              the day support and retirements are judged at (default: today): a
                                   release a cloud retired before it fails that cloud's gate
                                   (k8s-windows facts prints the dates)
  -q, --quiet                      report errors only
  --allow-empty                    accept standard input with no objects (default: exit 2, since empty
                                   input usually means the command before the pipe failed)
  --stdin-filename <name>          the file name to report standard input under (default: <stdin>)
${RENDER_OPTIONS}
${POLICY_OPTIONS}
  -h, --help                       show this help

${RENDERING}

${CONFIG}

A single template file ({{ ... }}) is not YAML: lint its chart directory, or render it first
(helm template ... | k8s-windows lint -).

Exit codes:
  0  no finding at the --fail-on severity (default: error) and no more than --max-warnings warnings
  1  findings that fail the run (by default: at least one error)
  2  bad usage, or input that could not be read: a missing file, an unreadable directory, a directory
     without manifests, binary or invalid UTF-8 input, empty standard input (without --allow-empty), a
     document nested too deeply, a List whose items are not objects, input over --max-input-size, every
     input ignored by the config file's ignore list (nothing checked), or a YAML/JSON syntax error. The rest of the input is still linted and reported,
     but the run fails with 2 because part of it went unchecked.
`;

const RULES = `Usage: k8s-windows rules [--format text|json|markdown]
       k8s-windows rules <id> [--format text|json]

Lists every rule: id, default severity and summary (text), the full catalogue with rationale,
documentation links and each rule's messages by id, which findings name as messageId (json), or a
Markdown table (markdown, as in docs/rules.md).

With a rule id, prints that rule's page (Markdown, as docs/rules/<id>.md: what it finds, why, its
severity, its messages, its fix and examples), or its catalogue entry with its messages (json). An
unknown id is an error that names the closest ids.

Options:
  -f, --format <text|json|markdown>   output format (default: text)
  -h, --help                 show this help
`;

const FACTS = `Usage: k8s-windows facts [options]

Prints what this version believes: Windows Server releases (builds, image tags, Microsoft's
lifecycle, support status at the evaluation date), which image builds each host build runs (process
isolation and Hyper-V), each cloud's releases by Kubernetes version, retirements and default release,
the newest Kubernetes known (1.${newestMinor()}), and every source as its URL with the date of the
material read and the day it was read. The first line gives the days the facts were read and the
oldest and newest date of their material.

Options:
  -f, --format <text|json>   output format (default: text); json lists every fact with its sources
  --date <YYYY-MM-DD>        judge support and retirements at this day (default: today)
  -h, --help                 show this help
`;

const POLICIES = `Usage: k8s-windows policies [options]

Prints the rules that need nothing but the object as ValidatingAdmissionPolicies and their bindings
(admissionregistration.k8s.io/v1, Kubernetes 1.${ADMISSION_POLICY_VERSIONS.validatingV1} or later), as YAML in apply order:
the WindowsClusterFacts CRD, its object (with --cluster-facts), the policies, the bindings. The API
server then checks every Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob,
ReplicationController and RuntimeClass created, or updated in its spec, whatever applies it, with
lint's rule ids and fixes in its messages. \`k8s-windows rules\` and docs/admission-policies.md say which
rules are enforced.

Errors deny and warnings warn (kubectl prints them); info is not enforced. Every policy has
failurePolicy Ignore: a CEL runtime error lets the object through rather than block the cluster.
Namespaces ${DEFAULT_SYSTEM_NAMESPACES.join(', ')} are not checked, nor a namespace or object labelled
${OPT_OUT_LABEL}=disabled. ${SUPPRESS_ANNOTATION_PREFIX}<rule-id> annotations are honoured as lint
honours them, except for an error the API server itself would refuse. The config file's rule settings
(severities, off), cloud and kubernetesVersion shape the set, read as lint reads them; its
suppressions are lint's only.

Options:
  --mode <${POLICY_MODES.join('|')}>     deny (default): errors [Deny], warnings [Warn]; warn: errors [Warn, Audit],
                                   warnings [Warn] (while a team rolls out); audit: both [Audit]
  --cloud <${CLOUDS.join('|')}>            the cloud's defaults (gke: a missing toleration is a warning);
                                   default: the config file's, else none
  --cluster-facts <file>           the cluster's Windows pools and RuntimeClasses: a WindowsClusterFacts
                                   object or its spec (YAML or JSON). Adds the object, and the
                                   *-cluster policies check "tolerates none of the pools' taints" and
                                   "pinned to a build no pool runs"; without the object they are skipped
  --mutating                       also the MutatingAdmissionPolicies for the fixes fix is sure of
                                   (v1; v1beta1 with --kubernetes-version before 1.${ADMISSION_POLICY_VERSIONS.mutatingV1})
  --kubernetes-version <1.N>       the cluster's version: refused before 1.${ADMISSION_POLICY_VERSIONS.validatingV1}; picks the mutating version
  -c, --config <file>              the config file (default: ${CONFIG_FILE_NAMES[0]} in the working
                                   directory or the nearest directory above it; or $${CONFIG_ENV})
  --no-config                      read no config file
  -h, --help                       show this help

Exit codes: 0 printed; 2 bad options, config file or facts file (every problem named).

Check before enforcing: kubectl apply --dry-run=server -f policies.yaml, then --mode warn.
`;

const DOCTOR = `Usage: k8s-windows doctor [options]

Reads a live cluster as kubectl does and explains every Windows pod that is not Ready: the rule id,
the cause, the evidence (the scheduler's event, the container's waiting or terminated message,
verbatim) and the fix. Then judges the running workloads (Deployments, StatefulSets, DaemonSets,
Jobs, CronJobs, and pods and ReplicaSets no controller owns) with the rules lint runs, each against
the Windows release of the nodes its pods can be scheduled on (their node.kubernetes.io/windows-build
labels, taints and the RuntimeClasses); finds a Windows DaemonSet no Windows node runs and a Linux
workload an untainted Windows node can take; and judges the nodes: a Windows node without a taint
in a cluster that also runs Linux nodes, one of a retired Windows release (as advice, one whose
support is ending), and one whose runtime runs no HostProcess container (containerd before 1.6,
Docker) while HostProcess workloads exist. Suppression annotations are honoured as lint honours
them.

Read-only by construction: it only lists nodes, pods, events, runtimeclasses.node.k8s.io and the
controllers that make pods (deployments, replicasets, daemonsets, statefulsets, cronjobs, jobs,
replicationcontrollers: a pod the API server refused exists only as their FailedCreate event), in
pages; it never reads Secrets and never writes. --print-rbac prints the ClusterRole it needs.

Options:
  --kubeconfig <file>              the kubeconfig (default: $KUBECONFIG, else ~/.kube/config, else the
                                   pod's service account in a cluster); exec credential plugins run as
                                   kubectl runs them
  --context <name>                 the kubeconfig context (default: its current-context)
  -n, --namespace <name>           only this namespace's pods, events and workloads
  -A, --all-namespaces             every namespace (the default)
  -f, --format <text|json|sarif|github>
                                   output format (default: text)
  --fail-on <error|warning|info>   the least severity that makes the exit code 1 (default: error)
  --upgrade-to <2019|2022|2025>    judge the workloads as if every Windows node ran that release
                                   (as lint's --windows-release takes it): what an upgrade breaks
  --kubernetes-version <1.x>       judge by that Kubernetes minor (default: the oldest kubelet of the
                                   Windows nodes)
  --facts                          print the WindowsClusterFacts object of the Windows nodes and
                                   RuntimeClasses as YAML (lists only nodes and RuntimeClasses), for
                                   policies --cluster-facts or kubectl apply, and exit
  --timeout <seconds>              the most the whole run takes, connecting included (default: 60;
                                   60s and 1500ms are understood)
  --print-rbac                     print the least-privilege ClusterRole (and a binding) and exit
  -h, --help                       show this help

Exit codes: 0 no finding at --fail-on; 1 findings; 2 bad options, or the cluster could not be read
(no kubeconfig, unreachable server, 401 credentials refused, 403 naming the verb and resource
missing, the deadline passed): one message on stderr.
`;

export function helpText(topic?: CommandName): string {
  switch (topic) {
    case undefined:
      return OVERVIEW;
    case 'lint':
      return LINT;
    case 'fix':
      return FIX;
    case 'rules':
      return RULES;
    case 'facts':
      return FACTS;
    case 'policies':
      return POLICIES;
    case 'doctor':
      return DOCTOR;
    default: {
      const unknownTopic: never = topic;
      throw new Error(`no help for ${String(unknownTopic)}`);
    }
  }
}
