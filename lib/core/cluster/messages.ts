/**
 * The messages Kubernetes components write about a Windows pod that does not start, as a catalogue: each entry is
 * one text a component writes (kube-scheduler's FailedScheduling reasons, kubelet's events and container states,
 * containerd's and hcsshim's errors, the API server's validation and admission refusals), the RegExp that finds it,
 * the cause in our words, the fix, and where the text was read, with the material's date and the day it was read
 * (2026-12-07). `explainPod` and `explainOwner` (./explain.ts) match live pods and events against it for
 * `k8s-windows doctor`.
 *
 * A pattern is anchored on the stable words of the format string and tolerant of its variable parts (node counts,
 * image names, container ids, taint keys). Where a text was not found in a source that was opened, the entry says
 * `verified: false` and its source `materialDate: 'unverified'`.
 *
 * Texts of Windows itself (the HRESULT messages "The container operating system does not match the host operating
 * system." and "The system cannot find the file specified.") are in no component's source: Windows formats them, and
 * hcsshim wraps them (`hcs::CreateComputeSystem <id>: <text>`). They are cited from the users' reports that show
 * them, beside the hcsshim code that wraps them.
 */
import type { IsoDate } from '../facts/types';

/**
 * What a source's own date is (mirrors lib/core/facts/types.ts `MaterialDate`): a commit's or page's date, `'undated'`
 * when the copy read shows none (a file read from the search index at a commit shows no commit date), `'unverified'`
 * when no source that was opened says it.
 */
export type MessageMaterialDate = IsoDate | 'undated' | 'unverified';

/** Where a message text was read (the shape of lib/core/facts `FactSource`, with its material date). */
export interface MessageSource {
  /** A file of a public repository as its GitHub URL at the commit read, or an issue or page. */
  readonly ref: string;
  /** The date of the material read: the commit's, the issue comment's, the page's; see {@link MessageMaterialDate}. */
  readonly materialDate: MessageMaterialDate;
  /** The day it was read. */
  readonly checked: IsoDate;
  /** What it says, quoted. */
  readonly says: string;
}

/** The day every source below was read. */
export const MESSAGES_CHECKED: IsoDate = '2026-12-07';

/** The rule ids `k8s-windows doctor` reports. */
export const DOCTOR_RULE_IDS = [
  'doctor-untolerated-taint',
  'doctor-no-node-matches-selector',
  'doctor-image-linux-only',
  'doctor-image-os-mismatch',
  'doctor-nanoserver-powershell',
  'doctor-command-not-found',
  'doctor-hostprocess-failed',
  'doctor-gmsa-failed',
  'doctor-forbidden-field',
] as const;

export type DoctorRuleId = (typeof DOCTOR_RULE_IDS)[number];

/** Every doctor finding is about a pod that cannot start (or a workload that cannot create its pods). */
export type DoctorSeverity = 'error';

/** The component whose words a message is (outermost first when several wrap each other). */
export type MessageComponent =
  | 'kube-scheduler'
  | 'kubelet'
  | 'containerd'
  | 'hcsshim'
  | 'Windows'
  | 'kube-apiserver'
  | 'windows-gmsa webhook'
  | 'kube-controller-manager';

/** Where a text shows in the cluster. */
export interface MessagePlace {
  /** `event`: an Event's message; `condition`: a pod condition; `waiting`/`terminated`: a container state. */
  readonly in: 'event' | 'condition' | 'waiting' | 'terminated';
  /** The event or condition reason, or the container state reason. */
  readonly reason: string;
  /** Who writes it: the event source, or the field. */
  readonly by: string;
}

/** One message text of the catalogue. */
export interface MessagePattern {
  /** This entry's id (several entries can report one rule). */
  readonly id: string;
  /** The rule reported when the text is found (explain.ts may report a sibling rule the entry names in `alsoReports`). */
  readonly ruleId: DoctorRuleId;
  /** A rule the same text reports in some pods (a "no match for platform" on a Windows image is a build mismatch). */
  readonly alsoReports?: readonly DoctorRuleId[];
  readonly severity: DoctorSeverity;
  /** The components whose words make up the text, outermost first. */
  readonly writtenBy: readonly MessageComponent[];
  /** Where the text shows. */
  readonly places: readonly MessagePlace[];
  /**
   * The stable words of the text, with groups for its variable parts. No `g` flag: explain.ts walks every occurrence
   * when `repeats` is set.
   */
  readonly pattern: RegExp;
  /** Another text the message must hold as well (the scheduler's "0/N nodes are available:" frame). */
  readonly within?: RegExp;
  /** The phrase can occur several times in one message (one per taint, one per refused field). */
  readonly repeats?: boolean;
  /** The cause, in our words. */
  readonly cause: string;
  /** The fix, in general; explain.ts makes it concrete from the groups and the pod. */
  readonly fix: string;
  /** The text as the components write it, with realistic variable parts (tests match it). */
  readonly example: string;
  readonly sources: readonly MessageSource[];
  /** `false` when some words of the pattern are in no source that was opened (see `note`). */
  readonly verified: boolean;
  readonly note?: string;
}

const K8S = 'https://github.com/kubernetes/kubernetes/blob';
const CHECKED = MESSAGES_CHECKED;

/** A source read from the search index at a commit: the copy shows no commit date. */
function k8s(commit: string, path: string, says: string): MessageSource {
  return { ref: `${K8S}/${commit}/${path}`, materialDate: 'undated', checked: CHECKED, says };
}

/** A file of a repository fetched whole: the commit that last changed it, and that commit's date. */
function file(repo: string, commit: string, path: string, line: number, date: IsoDate, says: string): MessageSource {
  return {
    ref: `https://github.com/${repo}/blob/${commit}/${path}#L${line}`,
    materialDate: date,
    checked: CHECKED,
    says,
  };
}

/** An issue or pull request thread: the date of the post quoted. */
function issue(ref: string, date: MessageMaterialDate, says: string): MessageSource {
  return { ref, materialDate: date, checked: CHECKED, says };
}

// kube-scheduler
const SCHEDULER_FRAME = k8s(
  'f899a310e19fe200bd65d3b94205abcc7dd967b1',
  'pkg/scheduler/framework/types.go',
  'NoNodeAvailableMsg = "0/%v nodes are available" … // A message format is "0/X nodes are available: <PreFilterMsg>. <FilterMsg>. <PostFilterMsg>." … reasonStrings = append(reasonStrings, fmt.Sprintf("%v %v", v, k))',
);
const SCHEDULER_EVENT = k8s(
  '4a37f009ca615534484b1116d0f147f1f23cf067',
  'pkg/scheduler/schedule_one.go',
  'fwk.EventRecorder().Eventf(pod, nil, v1.EventTypeWarning, "FailedScheduling", "Scheduling", msg) … updatePod(ctx, sched.client, pod, &v1.PodCondition{ Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: reason, Message: errMsg, }, nominatingInfo) … suffix := " ..."',
);
const TAINT_PLUGIN = k8s(
  '0f7becbc443966e5cf4ac37aa20a1a509fab73eb',
  'pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go',
  'errReason := fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value)',
);
const TAINT_PLUGIN_OLD = k8s(
  '007f7ae7dc217d27dad994dce003cfe1c5bc6706',
  'pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go',
  'errReason := fmt.Sprintf("node(s) had taint {%s: %s}, that the pod didn\'t tolerate",',
);
const AFFINITY_PLUGIN = k8s(
  '5ae369a03439e3654c6fa01a1de5c3d9615fe897',
  'pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go',
  'ErrReasonPod = "node(s) didn\'t match Pod\'s node affinity/selector"',
);

// kubelet
const KUBELET_PULL = k8s(
  'cfce511e157eb37917f5ad1d86197e732f0a097f',
  'pkg/kubelet/images/image_manager.go',
  'm.logIt(objRef, v1.EventTypeWarning, events.FailedToPullImage, logPrefix, fmt.Sprintf("Failed to pull image %q: %v", imgRef, imagePullResult.err), klog.Warning) … // Fallback for no specific error … return err.Error(), ErrImagePull',
);
const KUBELET_EVENTS = k8s(
  '819ecd4dbe6afbaa4f6227d22b9c46938d48e603',
  'pkg/kubelet/events/event.go',
  'FailedToStartContainer  = "Failed" … FailedToPullImage       = "Failed"',
);
const KUBELET_START = k8s(
  'fbba6b47ad9824012048624a5ef60669e8109517',
  'pkg/kubelet/kuberuntime/kuberuntime_container.go',
  'm.recordContainerEvent(pod, container, containerID, v1.EventTypeWarning, events.FailedToStartContainer, "Error: %v", s.Message()) … return s.Message(), kubecontainer.ErrRunContainer',
);

// containerd
const CTRD = 'containerd/containerd';
const CONTAINERD_NO_PLATFORM = file(
  CTRD,
  'a7d26b35ec878e4f0514b6352e889d4c58b859bc',
  'core/images/handlers.go',
  342,
  '2025-10-17',
  'return children, fmt.Errorf("no match for platform in manifest: %w", errdefs.ErrNotFound)',
);
const CONTAINERD_PULL = file(
  CTRD,
  '16ff70b8614592cb379dccfb0376c54cbe0e147d',
  'internal/cri/server/images/image_pull.go',
  289,
  '2026-06-25',
  'return nil, 0, fmt.Errorf("failed to pull and unpack image %q: %w", ref, err)',
);
const CONTAINERD_CREATE_TASK = file(
  CTRD,
  '91be73ba6233ffcf6e652710bfec6b4127bdd5c2',
  'internal/cri/server/container_start.go',
  140,
  '2026-07-29',
  'return nil, fmt.Errorf("failed to create containerd task: %w", err)',
);
const CONTAINERD_START_TASK = file(
  CTRD,
  '91be73ba6233ffcf6e652710bfec6b4127bdd5c2',
  'internal/cri/server/container_start.go',
  180,
  '2026-07-29',
  'return nil, fmt.Errorf("failed to start containerd task %q: %w", id, err)',
);
const CONTAINERD_START_ERROR = file(
  CTRD,
  '3f1c5fdd708f17cdefbe4a20ed58ba04c58479c1',
  'internal/cri/server/helpers.go',
  47,
  '2026-04-20',
  'errorStartReason = "StartError"',
);
const CONTAINERD_SHIM_TASK = file(
  CTRD,
  '402eb3166e088938090c759965f2ea7a3bbf22d4',
  'core/runtime/v2/task_manager.go',
  257,
  '2026-08-17',
  'return nil, fmt.Errorf("failed to create shim task: %w", err)',
);
const PLATFORMS_WINDOWS = file(
  'containerd/platforms',
  'adbf32116ad6ded8007706e861b7d0aa10901639',
  'platform_windows_compat.go',
  87,
  '2026-03-30',
  '// If host is < WS 2022, exact version match is required … if host.Build < ltsc2022 { … return host.Build == ctr.Build',
);

// hcsshim
const HCS = 'microsoft/hcsshim';
const HCS_CREATE_SYSTEM = file(
  HCS,
  '0f25a0125d95e6932d27fde08d1436414819e29a',
  'internal/hcs/system.go',
  60,
  '2026-07-21',
  'operation := "hcs::CreateComputeSystem"',
);
const HCS_CREATE_PROCESS = file(
  HCS,
  '0f25a0125d95e6932d27fde08d1436414819e29a',
  'internal/hcs/system.go',
  794,
  '2026-07-21',
  'operation := "hcs::System::CreateProcess"',
);
const HCS_SYSTEM_ERROR = file(
  HCS,
  '3a9e9576fc4f10a8a06655cb49e619312e88b4ac',
  'internal/hcs/errors.go',
  201,
  '2026-07-09',
  's := e.Op + " " + e.ID + ": " + e.Err.Error()',
);
const HCS_USER_TOKEN = file(
  HCS,
  '1a0726eba616a52c525075575d86ccbb7c37fb64',
  'internal/jobcontainers/jobcontainer.go',
  274,
  '2026-06-17',
  'return nil, fmt.Errorf("failed to create user process token: %w", err)',
);
const HCS_LOGON = file(
  HCS,
  '0b7e02b6b5a035fda83846c29c6fdacf2d95dacd',
  'internal/jobcontainers/logon.go',
  126,
  '2022-05-18',
  'return 0, fmt.Errorf("failed to logon user: %w", err)',
);
const HCS_FIND_EXECUTABLE = file(
  HCS,
  '9364e4c0bb457f4f1746a9cc877738450419c8dd',
  'internal/jobcontainers/path.go',
  151,
  '2022-08-15',
  'return "", "", fmt.Errorf("failed to find executable %q", commandLine)',
);
const HCS_UVM_HOSTPROCESS = file(
  HCS,
  '6fd5aea8c2bb4b3ba8a5966a55a6e6bd4a889c60',
  'cmd/containerd-shim-runhcs-v1/pod.go',
  504,
  '2026-07-06',
  'return fmt.Errorf("UVM does not support HostProcess containers")',
);

// kube-apiserver and kube-controller-manager
const VALIDATION = 'pkg/apis/core/validation/validation.go';
const VALIDATION_COMMIT = 'a7264f95ffc8b56377da16e83461aa59467ebb3e';
const VALIDATE_WINDOWS = k8s(
  VALIDATION_COMMIT,
  VALIDATION,
  'func validateWindows(spec *core.PodSpec, fldPath *field.Path) field.ErrorList { … allErrs = append(allErrs, field.Forbidden(fldPath.Child("securityContext").Child("runAsUser"), "cannot be set for a windows pod")) … (the same words for appArmorProfile, seLinuxOptions, hostUsers, hostPID, hostIPC, seccompProfile, fsGroup, fsGroupChangePolicy, sysctls, shareProcessNamespace, runAsGroup, supplementalGroups, supplementalGroupsPolicy; per container appArmorProfile, seLinuxOptions, seccompProfile, capabilities, readOnlyRootFilesystem, privileged, allowPrivilegeEscalation, procMount, runAsUser, runAsGroup)',
);
const VALIDATE_HOSTPROCESS = k8s(
  VALIDATION_COMMIT,
  VALIDATION,
  'errMsg := "If pod contains any hostProcess containers then all containers must be HostProcess containers" … errMsg := "hostNetwork must be true if pod contains any hostProcess containers" … errMsg := "hostProcess containers are disallowed by cluster policy" … errMsg := fmt.Sprintf("pod hostProcess value must be identical if both are specified, was %v", *podHostProcess)',
);
const VALIDATE_GMSA_SIZE = k8s(
  VALIDATION_COMMIT,
  VALIDATION,
  'errMsg := fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", maxGMSACredentialSpecLengthInKiB)',
);
const FIELD_ERROR = file(
  'kubernetes/apimachinery',
  '03a5b24591ec115fc957eb54530dde7c7cb5828d',
  'pkg/util/validation/field/errors.go',
  106,
  '2026-04-30',
  'return fmt.Sprintf("%s: %s", e.Field, e.ErrorBody()) … ErrorTypeForbidden: return "Forbidden" … if len(e.Detail) != 0 { s += fmt.Sprintf(": %s", e.Detail) }',
);
const INVALID_ERROR = file(
  'kubernetes/apimachinery',
  '7042d260880e0b4e774c8e207d73f960d7d539a6',
  'pkg/api/errors/errors.go',
  309,
  '2025-08-15',
  'err.ErrStatus.Message = fmt.Sprintf("%s %q is invalid: %v", qualifiedKind.String(), name, aggregatedErrs)',
);
const AGGREGATE_ERROR = file(
  'kubernetes/apimachinery',
  '36c0fecd8509bf2f2aaaddeeb798e14fd906df62',
  'pkg/util/errors/errors.go',
  95,
  '2025-06-19',
  'result += ", " … return "[" + result + "]"',
);
const FAILED_CREATE = k8s(
  '1f8996f8cec98af38ab4cba237421b28c1cef9a3',
  'pkg/controller/controller_utils.go',
  'FailedCreatePodReason = "FailedCreate" … r.Recorder.Eventf(object, v1.EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err)',
);
const WEBHOOK_DENIED = file(
  'kubernetes/apiserver',
  '7c5dd5a07b655bfa7faf4bebace1071079afdfd0',
  'pkg/admission/plugin/webhook/errors/statuserror.go',
  29,
  '2019-04-24',
  'deniedBy := fmt.Sprintf("admission webhook %q denied the request", webhookName) … result.Message = fmt.Sprintf("%s: %s", deniedBy, result.Message)',
);

// windows-gmsa
const GMSA = 'kubernetes-sigs/windows-gmsa';
const GMSA_WEBHOOK = 'd56c3d10d5c62bec3a37385fbfd210a3a27352c5';
const GMSA_WEBHOOK_NAME = file(
  GMSA,
  '5235268dba35e7243fc3b481bd96c81e836da489',
  'charts/gmsa/templates/validatingwebhook.yaml',
  11,
  '2024-03-15',
  '- name: admission-webhook.windows-gmsa.sigs.k8s.io',
);

const PLACE_FAILED_SCHEDULING: readonly MessagePlace[] = [
  { in: 'event', reason: 'FailedScheduling', by: 'default-scheduler' },
  { in: 'condition', reason: 'Unschedulable', by: 'status.conditions[type=PodScheduled]' },
];
const PLACE_PULL: readonly MessagePlace[] = [
  { in: 'event', reason: 'Failed', by: 'kubelet' },
  { in: 'waiting', reason: 'ErrImagePull', by: 'status.containerStatuses[].state.waiting' },
];
const PLACE_START: readonly MessagePlace[] = [
  { in: 'event', reason: 'Failed', by: 'kubelet' },
  { in: 'waiting', reason: 'RunContainerError', by: 'status.containerStatuses[].state.waiting' },
  { in: 'terminated', reason: 'StartError', by: 'status.containerStatuses[].lastState.terminated' },
];
const PLACE_CREATE: readonly MessagePlace[] = [
  { in: 'event', reason: 'Failed', by: 'kubelet' },
  { in: 'waiting', reason: 'CreateContainerError', by: 'status.containerStatuses[].state.waiting' },
];
const PLACE_FAILED_CREATE: readonly MessagePlace[] = [
  {
    in: 'event',
    reason: 'FailedCreate',
    by: 'replicaset-controller, daemonset-controller, job-controller, statefulset-controller',
  },
];

/** The scheduler's frame around its reasons. */
export const SCHEDULER_FRAME_PATTERN = /^0\/(\d+) nodes are available:/;

/** The catalogue. */
export const MESSAGE_PATTERNS: readonly MessagePattern[] = [
  {
    id: 'scheduler-untolerated-taint',
    ruleId: 'doctor-untolerated-taint',
    severity: 'error',
    writtenBy: ['kube-scheduler'],
    places: PLACE_FAILED_SCHEDULING,
    pattern: /(\d+) node\(s\) had untolerated taint \{([^\s{}:]+): ([^\s{}]*)\}/,
    within: SCHEDULER_FRAME_PATTERN,
    repeats: true,
    cause: 'The Windows nodes carry a taint the pod does not tolerate, so the scheduler places it on no node.',
    fix: 'Add a toleration for the taint to spec.tolerations (key, operator Equal and the value; no effect tolerates NoSchedule and NoExecute).',
    example:
      "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {os: windows}. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
    sources: [
      TAINT_PLUGIN,
      SCHEDULER_FRAME,
      SCHEDULER_EVENT,
      issue(
        'https://github.com/ROCm/TheRock/issues/2865',
        'undated',
        '0/13 nodes are available: 1 node(s) had untolerated taint {app: bazelremotetaint}, 2 node(s) had untolerated taint {CriticalAddonsOnly: true}, 3 node(s) were unschedulable, 7 node(s) had untolerated taint {kubernetes.io/os: windows}. preemption: 0/13 nodes are available: 13 Preemption is not helpful for scheduling.',
      ),
    ],
    verified: true,
    note: 'The report quoted from ROCm/TheRock#2865 is a Linux pod kept off tainted Windows nodes: it shows the wording, not a Windows pod.',
  },
  {
    id: 'scheduler-untolerated-taint-older-wording',
    ruleId: 'doctor-untolerated-taint',
    severity: 'error',
    writtenBy: ['kube-scheduler'],
    places: PLACE_FAILED_SCHEDULING,
    pattern: /(\d+) node\(s\) had taint \{([^\s{}:]+): ([^\s{}]*)\}, that the pod didn't tolerate/,
    within: SCHEDULER_FRAME_PATTERN,
    repeats: true,
    cause: 'The Windows nodes carry a taint the pod does not tolerate, so the scheduler places it on no node.',
    fix: 'Add a toleration for the taint to spec.tolerations (key, operator Equal and the value; no effect tolerates NoSchedule and NoExecute).',
    example: "0/3 nodes are available: 3 node(s) had taint {os: windows}, that the pod didn't tolerate.",
    sources: [TAINT_PLUGIN_OLD, SCHEDULER_FRAME],
    verified: true,
    note: "An older scheduler's wording (the taint plugin at the commit read); which release changed it was not checked.",
  },
  {
    id: 'scheduler-node-affinity',
    ruleId: 'doctor-no-node-matches-selector',
    severity: 'error',
    writtenBy: ['kube-scheduler'],
    places: PLACE_FAILED_SCHEDULING,
    pattern: /(\d+) node\(s\) didn't match Pod's node affinity\/selector/,
    within: SCHEDULER_FRAME_PATTERN,
    cause:
      "No node has the labels the pod's nodeSelector or required node affinity asks for (an OS, a Windows build, a pool): every node was rejected for it.",
    fix: 'Change spec.nodeSelector (or the required node affinity) to labels the Windows nodes have: kubernetes.io/os: windows, and a node.kubernetes.io/windows-build the nodes run; or add nodes with those labels.',
    example:
      "0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
    sources: [AFFINITY_PLUGIN, SCHEDULER_FRAME, SCHEDULER_EVENT],
    verified: true,
    note: 'Reported only when the count equals the node total: in a mixed cluster the Linux nodes always fail a Windows selector, which is no fault.',
  },
  {
    id: 'containerd-no-match-for-platform',
    ruleId: 'doctor-image-linux-only',
    alsoReports: ['doctor-image-os-mismatch'],
    severity: 'error',
    writtenBy: ['kubelet', 'containerd'],
    places: PLACE_PULL,
    pattern: /no match for platform in manifest/,
    cause:
      "The image has no manifest for the node's platform: containerd on a Windows node pulls only a windows/amd64 entry whose build the host can run, and the image has none (a Linux-only image, or a Windows image built for another build).",
    fix: "Use an image published for Windows at the node's build (its ltsc tag), or keep a Linux-only workload off Windows nodes (spec.nodeSelector kubernetes.io/os: linux).",
    example:
      'Failed to pull image "ghcr.io/nginx/nginx-gateway-fabric:2.0.2": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/nginx/nginx-gateway-fabric:2.0.2": no match for platform in manifest: not found',
    sources: [
      CONTAINERD_NO_PLATFORM,
      CONTAINERD_PULL,
      KUBELET_PULL,
      KUBELET_EVENTS,
      PLATFORMS_WINDOWS,
      issue(
        'https://github.com/nginx/nginx-gateway-fabric/issues/3661',
        '2025-07-25',
        'Failed to pull image "ghcr.io/nginx/nginx-gateway-fabric:2.0.2": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/nginx/nginx-gateway-fabric:2.0.2": no match for platform in manifest: not found … we noticed the pod was getting autoassigned to a Windows-based node',
      ),
      issue(
        'https://github.com/containerd/containerd/issues/6989',
        '2023-01-06',
        'rpc error: code = NotFound desc = failed to pull and unpack image "mcr.microsoft.com/windows/servercore:ltsc2019": no match for platform in manifest: not found',
      ),
    ],
    verified: true,
    note: "A Windows image (by its name) with no entry for the node's build is reported as doctor-image-os-mismatch.",
  },
  {
    id: 'hcs-os-mismatch',
    ruleId: 'doctor-image-os-mismatch',
    severity: 'error',
    writtenBy: ['kubelet', 'containerd', 'hcsshim', 'Windows'],
    places: PLACE_START,
    pattern:
      /The container operating system does not match the host operating system|The operating system of the container does not match the operating system of the host/,
    cause:
      "The image was built for another Windows build than the node's: with process isolation Windows runs a container only on a host whose build it supports.",
    fix: "Use the image tag built for the node's Windows release, or pin the pod to nodes of the image's build (spec.nodeSelector node.kubernetes.io/windows-build).",
    example:
      'failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem 7b5a9d0c3e8f4a1b9c2d6e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b: The container operating system does not match the host operating system.: unknown',
    sources: [
      HCS_CREATE_SYSTEM,
      HCS_SYSTEM_ERROR,
      CONTAINERD_CREATE_TASK,
      CONTAINERD_SHIM_TASK,
      CONTAINERD_START_ERROR,
      KUBELET_START,
      issue(
        'https://github.com/kubernetes/community/issues/3091',
        '2019-01-13',
        'Error response from daemon: CreateComputeSystem 94d1c5e13d7201f47af54f676d0a6c3220f4cdc70a02cb9398b11cc5dc189ae5: The container operating system does not match the host operating system.',
      ),
      issue(
        'https://github.com/microsoft/dotnet-framework-docker/issues/1265',
        '2025-10-15',
        'hcsshim::CreateComputeSystem f0e8722996e015f45c72a2baf0e772ddf28ae6b37bbd5ed93af03358298acdbf: The container operating system does not match the host operating system.',
      ),
      issue(
        'https://github.com/MicrosoftDocs/Virtualization-Documentation/issues/765',
        '2018-05-30',
        'encountered an error during CreateContainer: failure in a Windows system call: The operating system of the container does not match the operating system of the host. (0xc0370101)',
      ),
      issue(
        'https://github.com/microsoft/hcsshim/issues/2017',
        '2024-02-01',
        'failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem xxxxxxx--cid--xxxxxxxx : Access is denied.: unknown',
      ),
    ],
    verified: true,
    note: "The sentence is Windows' text for HRESULT 0xc0370101, in no component's source; hcsshim has no constant for it (internal/hcs/errors.go at the commit read). The containerd framing is shown by hcsshim#2017 with another HCS error; the example puts the two together.",
  },
  {
    id: 'hcs-create-process-file-not-found',
    ruleId: 'doctor-command-not-found',
    alsoReports: ['doctor-nanoserver-powershell'],
    severity: 'error',
    writtenBy: ['kubelet', 'containerd', 'hcsshim', 'Windows'],
    places: PLACE_START,
    pattern: /CreateProcess\b[^\n]*?The system cannot find the file specified/,
    cause:
      "The container's command is not in the image: Windows could not find the executable when it created the container's process.",
    fix: 'Set spec.containers[].command to an executable the image has; Nano Server has no Windows PowerShell (use cmd /c, or an image with PowerShell 7 and pwsh).',
    example:
      'failed to start containerd task "544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d": hcs::System::CreateProcess 544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d: The system cannot find the file specified.: unknown',
    sources: [
      HCS_CREATE_PROCESS,
      HCS_SYSTEM_ERROR,
      CONTAINERD_START_TASK,
      KUBELET_START,
      issue(
        'https://github.com/containerd/containerd/issues/6300',
        '2021-11-30',
        'failed to start containerd task \\"544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d\\": hcs::System::CreateProcess 544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d: The system cannot find the file specified.: unknown',
      ),
      issue(
        'https://github.com/microsoft/Windows-Containers/issues/252',
        '2022-07-20',
        'Error: failed to start container "windows": Error response from daemon: container windows encountered an error during hcsshim::System::CreateProcess: failure in a Windows system call: The system cannot find the file specified. (0x2) … image: mcr.microsoft.com/windows/nanoserver:1809 … command: - powershell',
      ),
      issue(
        'https://github.com/microsoft/Windows-Containers/issues/252',
        '2022-07-21',
        "Nanoserver doesn't include PowerShell but you can use `cmd` instead … If you want PowerShell, you can use `mcr.microsoft.com/powershell:nanoserver-1809`",
      ),
    ],
    verified: true,
    note: "The sentence is Windows' text for ERROR_FILE_NOT_FOUND (0x2), in no component's source. A powershell (or pwsh) command in a nanoserver image is reported as doctor-nanoserver-powershell.",
  },
  {
    id: 'hcs-hostprocess-user-token',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kubelet', 'containerd', 'hcsshim'],
    places: PLACE_START,
    pattern: /failed to create user process token: (?:failed to logon user: )?([^\n]*?)(?:: unknown)?$/m,
    cause:
      'The HostProcess container could not log on as its user: containerd must run as LocalSystem or LocalService, and runAsUserName must name NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service, NT AUTHORITY\\NetworkService or a local group.',
    fix: 'Set securityContext.windowsOptions.runAsUserName to NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service, NT AUTHORITY\\NetworkService or a local group of the node, and run containerd as LocalSystem or LocalService.',
    example:
      'failed to create containerd task: failed to create shim task: failed to create user process token: failed to logon user: Access is denied.: unknown',
    sources: [
      HCS_USER_TOKEN,
      HCS_LOGON,
      {
        ref: 'https://github.com/kubernetes/website/blob/23009a516ff325a0d551d0f69de43ceeeac60d65/content/en/docs/tasks/configure-pod-container/create-hostprocess-pod.md',
        materialDate: 'undated',
        checked: CHECKED,
        says: 'HostProcess containers fail to start with `failed to create user process token: failed to logon user: Access is denied.: unknown` … Ensure containerd is running as `LocalSystem` or `LocalService` service accounts. … Allowed Values: NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service, NT AUTHORITY\\NetworkService, Local usergroup names',
      },
    ],
    verified: true,
    note: "The page quotes the text without its containerd prefix; where in containerd's chain (create or start) it is wrapped was not traced: the example's prefix is an assumption, the pattern does not need it.",
  },
  {
    id: 'hcs-hostprocess-executable',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kubelet', 'containerd', 'hcsshim'],
    places: PLACE_START,
    pattern: /failed to find executable "((?:[^"\\]|\\.)*)"/,
    cause:
      "The HostProcess container's command was not found: hcsshim looks for it in the working directory, the PATH the container sets and the host's system directories.",
    fix: 'Give the full path of the executable in spec.containers[].command (for a file of the image, under %CONTAINER_SANDBOX_MOUNT_POINT%), or set workingDir or PATH to its folder.',
    example:
      'failed to start containerd task "0d2b8b6a6f4e4f7c9b1a3c5e7f9a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d1e3f5a": failed to find executable "install-agent.exe": unknown',
    sources: [
      HCS_FIND_EXECUTABLE,
      file(
        HCS,
        '9364e4c0bb457f4f1746a9cc877738450419c8dd',
        'internal/jobcontainers/path.go',
        84,
        '2022-08-15',
        "// First we get the system paths concatenated with semicolons (C:\\windows;C:\\windows\\system32;C:\\windows\\system;) // and use this as the basis for the directories to search for the application. … // If there's a working directory we should also add this to the list of directories to search. … // Append the path environment to the list of directories to search.",
      ),
      CONTAINERD_START_TASK,
    ],
    verified: true,
    note: 'The containerd prefix in the example is assumed from container_start.go; no user report of the full text was found.',
  },
  {
    id: 'hcs-hostprocess-hyperv',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kubelet', 'containerd', 'hcsshim'],
    places: PLACE_CREATE,
    pattern: /UVM does not support HostProcess containers/,
    cause: 'A HostProcess container in a Hyper-V isolated pod: the utility VM does not support HostProcess containers.',
    fix: 'Run HostProcess pods process-isolated: remove spec.runtimeClassName (or name a RuntimeClass with the runhcs-wcow-process handler).',
    example:
      'failed to create containerd task: failed to create shim task: UVM does not support HostProcess containers: unknown',
    sources: [HCS_UVM_HOSTPROCESS, CONTAINERD_CREATE_TASK],
    verified: true,
    note: "Where the shim's error reaches kubelet (create or start) was not traced; the example's prefix is an assumption.",
  },
  {
    id: 'apiserver-hostprocess-host-network',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /hostNetwork must be true if pod contains any hostProcess containers/,
    cause: 'The API server refuses the pod: a pod with HostProcess containers must use the host network.',
    fix: 'Set spec.hostNetwork: true.',
    example:
      'Error creating: Pod "node-agent-7xk2p" is invalid: spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    sources: [VALIDATE_HOSTPROCESS, FIELD_ERROR, INVALID_ERROR, FAILED_CREATE],
    verified: true,
  },
  {
    id: 'apiserver-hostprocess-all-or-none',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /If pod contains any hostProcess containers then all containers must be HostProcess containers/,
    cause: 'The API server refuses the pod: some of its containers are HostProcess and some are not.',
    fix: 'Set spec.securityContext.windowsOptions.hostProcess: true at pod level so every container (init containers too) inherits it, or remove hostProcess from all.',
    example:
      'Error creating: Pod "node-agent-7xk2p" is invalid: spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
    sources: [VALIDATE_HOSTPROCESS, FIELD_ERROR, INVALID_ERROR, FAILED_CREATE],
    verified: true,
  },
  {
    id: 'apiserver-hostprocess-mismatch',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /pod hostProcess value must be identical if both are specified, was (true|false)/,
    cause: 'The API server refuses the pod: a container sets windowsOptions.hostProcess to the opposite of the pod.',
    fix: "Remove the container's securityContext.windowsOptions.hostProcess, or make it equal to the pod's.",
    example:
      'Error creating: Pod "node-agent-7xk2p" is invalid: spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
    sources: [VALIDATE_HOSTPROCESS, FIELD_ERROR, INVALID_ERROR, FAILED_CREATE],
    verified: true,
  },
  {
    id: 'apiserver-hostprocess-disallowed',
    ruleId: 'doctor-hostprocess-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /hostProcess containers are disallowed by cluster policy/,
    cause:
      'The API server refuses HostProcess pods: it does not allow privileged containers (capabilities AllowPrivileged is false).',
    fix: 'Run kube-apiserver with privileged containers allowed (--allow-privileged=true), or do without HostProcess containers.',
    example:
      'Error creating: Pod "node-agent-7xk2p" is invalid: spec: Forbidden: hostProcess containers are disallowed by cluster policy',
    sources: [VALIDATE_HOSTPROCESS, FIELD_ERROR, INVALID_ERROR, FAILED_CREATE],
    verified: true,
    note: 'validation.go reads `capabilities.Get().AllowPrivileged`; that the --allow-privileged flag sets it was not checked in a source.',
  },
  {
    id: 'gmsa-webhook-not-authorized',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver', 'windows-gmsa webhook'],
    places: PLACE_FAILED_CREATE,
    pattern: /service account "([^"]*)" is not authorized to `use` GMSA cred spec "([^"]*)"/,
    cause: 'The gMSA webhook refuses the pod: its service account may not `use` the GMSACredentialSpec it names.',
    fix: 'Bind the service account to a Role or ClusterRole that grants verb use on gmsacredentialspecs (apiGroup windows.k8s.io) with resourceNames the credential spec.',
    example:
      'Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: service account "webapp" is not authorized to `use` GMSA cred spec "gmsa-webapp1"',
    sources: [
      file(
        GMSA,
        GMSA_WEBHOOK,
        'admission-webhook/webhook.go',
        310,
        '2024-10-18',
        'msg := fmt.Sprintf("service account %q is not authorized to `use` GMSA cred spec %q", pod.Spec.ServiceAccountName, *credSpecName)',
      ),
      file(
        GMSA,
        '2f2f42f1a31fce00caf74b85d6a7b52f9eec2797',
        'admission-webhook/kube_client.go',
        20,
        '2021-09-29',
        'crdAPIGroup     = "windows.k8s.io" … crdResourceName = "gmsacredentialspecs"',
      ),
      GMSA_WEBHOOK_NAME,
      WEBHOOK_DENIED,
      FAILED_CREATE,
    ],
    verified: true,
  },
  {
    id: 'gmsa-webhook-spec-missing',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver', 'windows-gmsa webhook'],
    places: PLACE_FAILED_CREATE,
    pattern: /cred spec (\S+) does not exist/,
    cause: 'The gMSA webhook refuses the pod: the GMSACredentialSpec it names does not exist.',
    fix: 'Create the GMSACredentialSpec, or correct securityContext.windowsOptions.gmsaCredentialSpecName (kubectl get gmsacredentialspecs).',
    example:
      'Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: cred spec gmsa-webapp1 does not exist',
    sources: [
      file(
        GMSA,
        '2f2f42f1a31fce00caf74b85d6a7b52f9eec2797',
        'admission-webhook/kube_client.go',
        104,
        '2021-09-29',
        'return "", http.StatusNotFound, fmt.Errorf("cred spec %s does not exist", credSpecName)',
      ),
      GMSA_WEBHOOK_NAME,
      WEBHOOK_DENIED,
      FAILED_CREATE,
    ],
    verified: true,
  },
  {
    id: 'gmsa-webhook-spec-empty',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver', 'windows-gmsa webhook'],
    places: PLACE_FAILED_CREATE,
    pattern: /cred spec (\S+) does not have a credspec key/,
    cause: 'The gMSA webhook refuses the pod: the GMSACredentialSpec it names has no credspec contents.',
    fix: "Fill the GMSACredentialSpec's credspec field (the JSON New-CredentialSpec writes).",
    example:
      'Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: cred spec gmsa-webapp1 does not have a credspec key',
    sources: [
      file(
        GMSA,
        '2f2f42f1a31fce00caf74b85d6a7b52f9eec2797',
        'admission-webhook/kube_client.go',
        110,
        '2021-09-29',
        'return "", http.StatusExpectationFailed, fmt.Errorf("cred spec %s does not have a %s key", credSpecName, crdContentsField) … crdContentsField = "credspec"',
      ),
      GMSA_WEBHOOK_NAME,
      WEBHOOK_DENIED,
    ],
    verified: true,
  },
  {
    id: 'gmsa-webhook-contents-mismatch',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver', 'windows-gmsa webhook'],
    places: PLACE_FAILED_CREATE,
    pattern:
      /the GMSA cred spec contents for (pod|container) "([^"]*)" does not match the contents of GMSA resource "([^"]*)"/,
    cause:
      'The gMSA webhook refuses the pod: it sets gmsaCredentialSpec contents that differ from the GMSACredentialSpec it names.',
    fix: 'Remove securityContext.windowsOptions.gmsaCredentialSpec and keep only gmsaCredentialSpecName: the webhook fills the contents from the resource.',
    example:
      'Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: the GMSA cred spec contents for container "iis" does not match the contents of GMSA resource "gmsa-webapp1"',
    sources: [
      file(
        GMSA,
        GMSA_WEBHOOK,
        'admission-webhook/webhook.go',
        322,
        '2024-10-18',
        'msg := fmt.Sprintf("the GMSA cred spec contents for %s %q does not match the contents of GMSA resource %q", resourceKind, resourceName, *credSpecName)',
      ),
      GMSA_WEBHOOK_NAME,
      WEBHOOK_DENIED,
    ],
    verified: true,
  },
  {
    id: 'gmsa-webhook-name-missing',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver', 'windows-gmsa webhook'],
    places: PLACE_FAILED_CREATE,
    pattern:
      /(pod|container) "([^"]*)" has a GMSA cred spec set, but does not define the name of the corresponding resource/,
    cause: 'The gMSA webhook refuses the pod: it sets gmsaCredentialSpec contents without gmsaCredentialSpecName.',
    fix: 'Set securityContext.windowsOptions.gmsaCredentialSpecName to the GMSACredentialSpec and remove the inline gmsaCredentialSpec.',
    example:
      'Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: container "iis" has a GMSA cred spec set, but does not define the name of the corresponding resource',
    sources: [
      file(
        GMSA,
        GMSA_WEBHOOK,
        'admission-webhook/webhook.go',
        331,
        '2024-10-18',
        'msg := fmt.Sprintf("%s %q has a GMSA cred spec set, but does not define the name of the corresponding resource", resourceKind, resourceName)',
      ),
      GMSA_WEBHOOK_NAME,
      WEBHOOK_DENIED,
    ],
    verified: true,
  },
  {
    id: 'apiserver-gmsa-spec-size',
    ruleId: 'doctor-gmsa-failed',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /gmsaCredentialSpec size must be under (\d+) KiB/,
    cause: 'The API server refuses the pod: its gMSA credential spec is larger than the API server accepts.',
    fix: 'Shrink the credential spec (the GMSACredentialSpec the webhook copies into the pod): keep only the ActiveDirectoryConfig the gMSA needs.',
    example:
      'Error creating: Pod "webapp-5d8f7b6c4-" is invalid: spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "…": gmsaCredentialSpec size must be under 64 KiB',
    sources: [VALIDATE_GMSA_SIZE, FIELD_ERROR, INVALID_ERROR, FAILED_CREATE],
    verified: true,
  },
  {
    id: 'apiserver-windows-forbidden-field',
    ruleId: 'doctor-forbidden-field',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /(?<![\w.])(spec(?:\.[\w[\]-]+)*): Forbidden: cannot be set for a windows pod/,
    repeats: true,
    cause:
      'The API server refuses the pod: it sets a Linux-only field, which a pod with spec.os.name: windows may not set.',
    fix: 'Remove the field from the pod template; if a mutating webhook or policy adds it, exclude Windows pods from it.',
    example:
      'Error creating: Pod "web-7d4b9c8f6-x2x9k" is invalid: [spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod, spec.containers[0].securityContext.seccompProfile: Forbidden: cannot be set for a windows pod]',
    sources: [VALIDATE_WINDOWS, FIELD_ERROR, INVALID_ERROR, AGGREGATE_ERROR, FAILED_CREATE],
    verified: true,
  },
  {
    id: 'apiserver-windows-pod-resources',
    ruleId: 'doctor-forbidden-field',
    severity: 'error',
    writtenBy: ['kube-controller-manager', 'kube-apiserver'],
    places: PLACE_FAILED_CREATE,
    pattern: /(?<![\w.])(spec(?:\.[\w[\]-]+)*): Forbidden: may not be set for a windows pod/,
    repeats: true,
    cause: 'The API server refuses the pod: it sets pod-level resources, which a Windows pod may not set.',
    fix: 'Remove spec.resources and set resources on each container.',
    example:
      'Error creating: Pod "web-7d4b9c8f6-x2x9k" is invalid: spec.resources: Forbidden: may not be set for a windows pod',
    sources: [
      {
        ref: `${K8S}/${VALIDATION_COMMIT}/${VALIDATION}`,
        materialDate: 'unverified',
        checked: CHECKED,
        says: 'unverified: the words "may not be set for a windows pod" were not found in the parts of validation.go read (validateWindows, validateWindowsHostProcessPod); lib/core/windows-fields.ts cites them',
      },
    ],
    verified: false,
    note: 'Kept because lib/core/windows-fields.ts gives these words for pod-level resources; no source opened on 2026-12-07 shows them.',
  },
];

/** One occurrence of a pattern in a text: the entry and the RegExp match (its groups). */
export interface MessageMatch {
  readonly pattern: MessagePattern;
  readonly match: RegExpExecArray;
}

/** Longest text matched; past it a message is cut (the scheduler cuts events at 1 KiB, status messages are longer). */
export const MAX_MESSAGE_LENGTH = 64 * 1024;

/**
 * Every occurrence of every catalogue pattern in `text`, in catalogue order (each occurrence of a `repeats` pattern).
 * Pure and total: a non-string or an empty text matches nothing.
 */
export function matchMessage(text: unknown): MessageMatch[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const t = text.length > MAX_MESSAGE_LENGTH ? text.slice(0, MAX_MESSAGE_LENGTH) : text;
  const out: MessageMatch[] = [];
  for (const pattern of MESSAGE_PATTERNS) {
    if (pattern.within && !pattern.within.test(t)) continue;
    if (pattern.repeats) {
      const all = new RegExp(pattern.pattern.source, `${pattern.pattern.flags.replace('g', '')}g`);
      for (let m = all.exec(t); m !== null; m = all.exec(t)) {
        out.push({ pattern, match: m });
        if (m[0].length === 0) all.lastIndex++;
      }
    } else {
      const m = pattern.pattern.exec(t);
      if (m) out.push({ pattern, match: m });
    }
  }
  return out;
}
