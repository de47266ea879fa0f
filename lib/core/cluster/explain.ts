/**
 * Why a Windows pod does not start, from what the components wrote about it: `explainPod(pod, events)` reads the
 * pod's status (conditions, container states) and its events, matches every text against the catalogue
 * (./messages.ts) and reports each cause once, with its newest evidence, the cause in our words and the fix.
 * `explainOwner(owner, events)` does the same for a workload controller whose pods are refused at creation
 * (FailedCreate: forbidden fields, HostProcess rules, gMSA webhook denials). Pure: no I/O, no clock, total on any
 * JSON (a malformed object yields no finding, never an exception).
 */
import { NODE_LABEL_FACTS } from '../facts/kubernetes';
import { inferWindowsBuild, isWindowsImage, parseImageReference } from '../images';
import type { PodSpec } from '../kube';
import type { Diagnostic } from '../model/types';
import type { SetIndex } from '../model/context';
import { analyzePod } from '../model/pod';
import { isRecord, type Rec } from '../model/util';
import { releaseForBuild, releaseInfo, type WindowsRelease } from '../releases';
import {
  DOCTOR_RULE_IDS,
  matchMessage,
  SCHEDULER_FRAME_PATTERN,
  type DoctorRuleId,
  type DoctorSeverity,
} from './messages';

/** The text a finding stands on, verbatim, and where it was read. */
export interface DoctorEvidence {
  /** The event message or status message, as the component wrote it. */
  readonly text: string;
  /** `event FailedScheduling by default-scheduler`, `status.containerStatuses[0].state.waiting`, … */
  readonly from: string;
  /** The event's last time, or the state's or condition's time, as written. */
  readonly at?: string;
}

/** The object a finding is about. */
export interface DoctorResource {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** One cause of a stuck Windows pod: a `Diagnostic` (so the CLI's formats print it) with its evidence. */
export interface DoctorFinding extends Diagnostic {
  readonly ruleId: DoctorRuleId;
  readonly severity: DoctorSeverity;
  /** The cause, in our words, with the pod's particulars. */
  readonly message: string;
  /** What to change. */
  readonly fix: string;
  readonly evidence: DoctorEvidence;
  readonly resource: DoctorResource;
  /**
   * The field to change, in API-server notation (`spec.tolerations`, `spec.template.spec.containers[0].image`); the
   * pod spec (`spec`, `spec.template.spec`) when the fix is outside the object (a node, the API server's flags).
   */
  readonly path: string;
  /** The catalogue entry that matched (MESSAGE_PATTERNS id): its sources cite the text. */
  readonly patternId: string;
  /** The pod's controller (its ownerReference with controller: true): the template to change is there. */
  readonly owner?: { readonly kind: string; readonly name: string };
}

/** A finding on a pod (the name lib/cli/doctor.ts imports). */
export type PodFinding = DoctorFinding;

export interface ExplainOptions {
  /**
   * The cluster's nodes (core/v1 Node objects). With them a pod counts as Windows when it runs on a Windows node,
   * Windows node taints and labels make findings concrete, and a node's build names the image tag to use.
   * @default []
   */
  readonly nodes?: readonly unknown[];
  /**
   * Names of the Windows nodes, when the caller has judged the nodes already (lib/core/cluster/nodes.ts): a pod on
   * one of them is a Windows pod. `nodes` is read first.
   * @default - none
   */
  readonly windowsNodes?: ReadonlySet<string>;
}

/** A pod judged: whether it is a Windows pod, whether it is Ready (or Succeeded), and why it is not. */
export interface PodDiagnosis {
  readonly windows: boolean;
  readonly ready: boolean;
  readonly findings: readonly DoctorFinding[];
}

const OS_LABEL = NODE_LABEL_FACTS.os;
const BETA_OS_LABEL = 'beta.kubernetes.io/os';
const BUILD_LABEL = NODE_LABEL_FACTS.windowsBuild;

const EMPTY_INDEX: SetIndex = {
  runtimeClasses: new Map(),
  namespaces: new Map(),
  credspecs: new Map(),
  roles: new Map(),
  clusterRoles: new Map(),
  bindingsBySubject: new Map(),
  hasRbac: false,
};

// ---------------------------------------------------------------------------------------------------------------
// Guards: own properties only, every read total.

function own(obj: unknown, key: string): unknown {
  return isRecord(obj) && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
function rec(obj: unknown, key: string): Rec | undefined {
  const v = own(obj, key);
  return isRecord(v) ? v : undefined;
}
function str(obj: unknown, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === 'string' ? v : undefined;
}
function arr(obj: unknown, key: string): readonly unknown[] {
  const v = own(obj, key);
  return Array.isArray(v) ? v : [];
}
function labelsOf(obj: unknown): Readonly<Record<string, unknown>> {
  return rec(rec(obj, 'metadata'), 'labels') ?? {};
}
function time(at: string | undefined): number {
  if (at === undefined) return Number.NEGATIVE_INFINITY;
  const t = Date.parse(at);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}
/** `"value"` for messages: quotes around, inner quotes escaped, backslashes kept as written (`NT AUTHORITY\SYSTEM`). */
function quote(s: string): string {
  return `"${s.replace(/"/g, '\\"')}"`;
}

// ---------------------------------------------------------------------------------------------------------------
// Which pods are Windows pods.

function nodeNamed(nodes: readonly unknown[], name: string | undefined): Rec | undefined {
  if (name === undefined) return undefined;
  const node = nodes.find((n) => str(rec(n, 'metadata'), 'name') === name);
  return isRecord(node) ? node : undefined;
}

function nodeOs(node: unknown): string | undefined {
  const labels = labelsOf(node);
  const os = labels[OS_LABEL] ?? labels[BETA_OS_LABEL];
  return typeof os === 'string' ? os : undefined;
}

/** The engine's reading of a pod spec (lib/core/model/pod.ts `analyzePod`): spec.os.name, OS selector, … */
function specIsWindows(obj: Rec, spec: Rec, path: string, podMetadata: unknown): boolean {
  try {
    const facts = analyzePod(
      obj,
      {
        spec: spec as unknown as PodSpec,
        path,
        ...(isRecord(podMetadata) ? { podMetadata: podMetadata as { labels?: Record<string, string> } } : {}),
      },
      EMPTY_INDEX,
      {},
    );
    return facts.windows;
  } catch {
    return false;
  }
}

/**
 * Whether a live pod is a Windows pod: the OS label of the node it runs on when `nodes` holds that node, else what
 * the engine reads from its spec (spec.os.name, a kubernetes.io/os selector or required affinity, a Windows
 * RuntimeClass handler, HostProcess containers, a Windows image).
 */
export function isWindowsPod(
  pod: unknown,
  nodes: readonly unknown[] = [],
  windowsNodes?: ReadonlySet<string>,
): boolean {
  if (!isRecord(pod)) return false;
  const spec = rec(pod, 'spec');
  if (!spec) return false;
  const nodeName = str(spec, 'nodeName');
  const os = nodeOs(nodeNamed(Array.isArray(nodes) ? nodes : [], nodeName));
  if (os !== undefined) return os === 'windows';
  if (nodeName !== undefined && windowsNodes instanceof Set && windowsNodes.has(nodeName)) return true;
  return specIsWindows(pod, spec, 'spec', rec(pod, 'metadata'));
}

// ---------------------------------------------------------------------------------------------------------------
// The texts of a pod or an owner, with where each was read.

type ContainerList = 'containers' | 'initContainers' | 'ephemeralContainers';

interface ContainerRef {
  readonly name: string;
  readonly c: Rec;
  /** `spec.containers[0]` (or under the owner's template). */
  readonly path: string;
}

interface Text {
  readonly text: string;
  readonly from: string;
  readonly at?: string;
  readonly time: number;
  readonly container?: ContainerRef;
}

const LISTS: readonly ContainerList[] = ['initContainers', 'containers', 'ephemeralContainers'];
const STATUS_LISTS: Readonly<Record<string, ContainerList>> = {
  initContainerStatuses: 'initContainers',
  containerStatuses: 'containers',
  ephemeralContainerStatuses: 'ephemeralContainers',
};

function containerByName(spec: Rec, specPath: string, list: ContainerList, name: string): ContainerRef | undefined {
  const items = arr(spec, list);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (isRecord(c) && str(c, 'name') === name) return { name, c, path: `${specPath}.${list}[${i}]` };
  }
  return undefined;
}

function allContainers(spec: Rec, specPath: string): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const list of LISTS) {
    arr(spec, list).forEach((c, i) => {
      if (isRecord(c)) out.push({ name: str(c, 'name') ?? '', c, path: `${specPath}.${list}[${i}]` });
    });
  }
  return out;
}

/** The container an event is about: `spec.containers{web}`. */
function containerOfFieldPath(fieldPath: string | undefined, spec: Rec, specPath: string): ContainerRef | undefined {
  const m =
    fieldPath === undefined ? null : /^spec\.(containers|initContainers|ephemeralContainers)\{(.+)\}$/.exec(fieldPath);
  return m ? containerByName(spec, specPath, m[1] as ContainerList, m[2]) : undefined;
}

function eventText(event: unknown): string | undefined {
  return str(event, 'message') ?? str(event, 'note');
}

function eventAt(event: unknown): string | undefined {
  return (
    str(event, 'lastTimestamp') ??
    str(rec(event, 'series'), 'lastObservedTime') ??
    str(event, 'eventTime') ??
    str(event, 'firstTimestamp') ??
    str(event, 'deprecatedLastTimestamp') ??
    str(rec(event, 'metadata'), 'creationTimestamp')
  );
}

function eventSubject(event: unknown): Rec | undefined {
  return rec(event, 'involvedObject') ?? rec(event, 'regarding');
}

/** Whether an event is about `kind` `namespace/name` (an event naming no object is taken as the caller's). */
function eventIsAbout(event: unknown, kind: string, namespace: string, name: string, uid: string | undefined): boolean {
  const subject = eventSubject(event);
  if (!subject) return true;
  const k = str(subject, 'kind');
  const n = str(subject, 'name');
  const ns = str(subject, 'namespace');
  const u = str(subject, 'uid');
  if (k !== undefined && k !== kind) return false;
  if (n !== undefined && n !== name) return false;
  if (ns !== undefined && ns !== '' && ns !== namespace) return false;
  if (u !== undefined && u !== '' && uid !== undefined && uid !== '' && u !== uid) return false;
  return true;
}

function eventTexts(
  events: readonly unknown[],
  about: { kind: string; namespace: string; name: string; uid?: string },
  spec: Rec,
  specPath: string,
): Text[] {
  const out: Text[] = [];
  for (const event of events) {
    if (!isRecord(event) || !eventIsAbout(event, about.kind, about.namespace, about.name, about.uid)) continue;
    const text = eventText(event);
    if (text === undefined || text === '') continue;
    const reason = str(event, 'reason') ?? 'event';
    const by =
      str(rec(event, 'source'), 'component') ??
      str(event, 'reportingComponent') ??
      str(event, 'reportingController') ??
      str(rec(event, 'deprecatedSource'), 'component');
    const at = eventAt(event);
    const container = containerOfFieldPath(str(eventSubject(event), 'fieldPath'), spec, specPath);
    out.push({
      text,
      from: by ? `event ${reason} by ${by}` : `event ${reason}`,
      ...(at !== undefined ? { at } : {}),
      time: time(at),
      ...(container ? { container } : {}),
    });
  }
  return out;
}

function statusTexts(pod: Rec, spec: Rec): Text[] {
  const out: Text[] = [];
  const status = rec(pod, 'status');
  if (!status) return out;
  arr(status, 'conditions').forEach((condition, i) => {
    const text = str(condition, 'message');
    if (text === undefined || text === '' || str(condition, 'status') === 'True') return;
    const at = str(condition, 'lastTransitionTime') ?? str(condition, 'lastProbeTime');
    out.push({ text, from: `status.conditions[${i}]`, ...(at !== undefined ? { at } : {}), time: time(at) });
  });
  for (const [statusList, list] of Object.entries(STATUS_LISTS)) {
    arr(status, statusList).forEach((cs, i) => {
      const name = str(cs, 'name');
      const container = name !== undefined ? containerByName(spec, 'spec', list, name) : undefined;
      const states: [string, unknown, string | undefined][] = [
        ['state.waiting', rec(rec(cs, 'state'), 'waiting'), undefined],
        ['state.terminated', rec(rec(cs, 'state'), 'terminated'), 'finishedAt'],
        ['lastState.terminated', rec(rec(cs, 'lastState'), 'terminated'), 'finishedAt'],
      ];
      for (const [where, state, timeKey] of states) {
        const text = str(state, 'message');
        if (text === undefined || text === '') continue;
        const at = timeKey !== undefined ? (str(state, timeKey) ?? str(state, 'startedAt')) : undefined;
        out.push({
          text,
          from: `status.${statusList}[${i}].${where}`,
          ...(at !== undefined ? { at } : {}),
          time: time(at),
          ...(container ? { container } : {}),
        });
      }
    });
  }
  const message = str(status, 'message');
  if (message !== undefined && message !== '')
    out.push({ text: message, from: 'status.message', time: time(undefined) });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// What each catalogue entry means for this pod.

interface Subject {
  /** The pod, or the owner whose template makes the pods. */
  readonly obj: Rec;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The pod spec, or the owner's template spec. */
  readonly spec: Rec;
  /** `spec`, or `spec.template.spec`. */
  readonly specPath: string;
  readonly nodes: readonly Rec[];
  /** The node the pod runs on, when `nodes` holds it. */
  readonly node?: Rec;
  /** Whether the spec itself says Windows (not only the node it landed on). */
  readonly declaredWindows: boolean;
}

interface Reading {
  readonly ruleId: DoctorRuleId;
  /** What makes the cause distinct within its rule (a taint, a container, a field). */
  readonly key: string;
  readonly message: string;
  readonly fix: string;
  /** @default - the spec (`spec`, `spec.template.spec`) */
  readonly path?: string;
}

type Interpreter = (m: RegExpExecArray, text: Text, subject: Subject) => Reading | undefined;

function frameTotal(text: string): number | undefined {
  const m = SCHEDULER_FRAME_PATTERN.exec(text);
  return m ? Number(m[1]) : undefined;
}

function windowsNodes(nodes: readonly Rec[]): Rec[] {
  return nodes.filter((n) => nodeOs(n) === 'windows');
}

function nodeTaints(node: Rec): Rec[] {
  return arr(rec(node, 'spec'), 'taints').filter(isRecord);
}

function untoleratedTaint(m: RegExpExecArray, _text: Text, s: Subject): Reading | undefined {
  const count = m[1];
  const key = m[2];
  const value = m[3];
  const onWindowsNode = windowsNodes(s.nodes).some((n) =>
    nodeTaints(n).some((t) => str(t, 'key') === key && (str(t, 'value') ?? '') === value),
  );
  const windowsWord = /windows/i.test(key) || /windows/i.test(value);
  if (!windowsWord && !onWindowsNode) return undefined;
  const path = `${s.specPath}.tolerations`;
  const toleration =
    value === ''
      ? `{key: ${quote(key)}, operator: "Exists"}`
      : `{key: ${quote(key)}, operator: "Equal", value: ${quote(value)}}`;
  const taint = `{${key}: ${value}}`;
  const existing = arr(s.spec, 'tolerations').findIndex((t) => str(t, 'key') === key);
  const near =
    existing >= 0
      ? ` ${path}[${existing}] names the key but does not tolerate the taint: check its operator, value and effect.`
      : '';
  return {
    ruleId: 'doctor-untolerated-taint',
    key: `${key}=${value}`,
    message: `The pod does not tolerate the taint ${taint} that ${count} node(s) carry${onWindowsNode ? ' (Windows nodes)' : ' (a Windows node taint)'}, so the scheduler places it on none of them.${near}`,
    fix: `Add to ${path}: ${toleration} (with no effect it tolerates NoSchedule and NoExecute alike).`,
    path,
  };
}

function stringEntries(obj: Rec | undefined): [string, string][] {
  if (!obj) return [];
  return Object.entries(obj).filter((e): e is [string, string] => typeof e[1] === 'string');
}

function noNodeMatches(m: RegExpExecArray, text: Text, s: Subject): Reading | undefined {
  const total = frameTotal(text.text);
  if (total === undefined || total === 0 || Number(m[1]) !== total) return undefined;
  const selector = stringEntries(rec(s.spec, 'nodeSelector'));
  const hasAffinity =
    rec(rec(rec(s.spec, 'affinity'), 'nodeAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution') !== undefined;
  const asks = selector.map(([k, v]) => `${k}=${v}`).join(', ');
  const missing = s.nodes.length === 0 ? [] : selector.filter(([k, v]) => !s.nodes.some((n) => labelsOf(n)[k] === v));
  const details = missing.map(([k, v]) => {
    const values = [
      ...new Set(
        windowsNodes(s.nodes)
          .map((n) => labelsOf(n)[k])
          .filter((x) => typeof x === 'string'),
      ),
    ];
    return `no node has ${k}=${v}${values.length > 0 ? ` (Windows nodes have ${values.slice(0, 5).join(', ')})` : ''}`;
  });
  const selectorPath = `${s.specPath}.nodeSelector`;
  const affinityPath = `${s.specPath}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
  const message =
    `No node matches the pod's ${selector.length > 0 ? `node selector (${asks})` : 'node selector'}` +
    `${hasAffinity ? ' or required node affinity' : ''}: all ${total} nodes were rejected for it` +
    `${details.length > 0 ? `; ${details.join('; ')}` : ''}.`;
  let fix: string;
  if (missing.length > 0) {
    const [k, v] = missing[0];
    fix = `Change ${selectorPath}[${quote(k)}] (${v}) to a value the Windows nodes carry, or add nodes labelled ${k}=${v}.`;
  } else {
    fix =
      `Make ${selector.length > 0 || !hasAffinity ? selectorPath : affinityPath} ask only for labels the Windows nodes carry ` +
      `(kubectl get nodes -l ${OS_LABEL}=windows --show-labels): ${OS_LABEL}: windows, and a ${BUILD_LABEL} the nodes run.`;
  }
  const path = selector.length > 0 ? selectorPath : hasAffinity ? affinityPath : selectorPath;
  return { ruleId: 'doctor-no-node-matches-selector', key: 'selector', message, fix, path };
}

const PULLED_IMAGE = /(?:Failed to pull image|failed to pull and unpack image) "([^"]+)"/;

/** The container a text is about: the event's or status's, else the one whose image the text names, else the only one. */
function containerOf(text: Text, s: Subject, image?: string): ContainerRef | undefined {
  if (text.container) return text.container;
  const all = allContainers(s.spec, s.specPath);
  if (image !== undefined) {
    const named = all.find(
      (c) =>
        str(c.c, 'image') === image || (str(c.c, 'image') !== undefined && image.endsWith(`/${str(c.c, 'image')}`)),
    );
    if (named) return named;
  }
  return all.length === 1 ? all[0] : undefined;
}

function nodeRelease(s: Subject): { name: string; build?: string; release?: WindowsRelease } | undefined {
  if (!s.node) return undefined;
  const name = str(rec(s.node, 'metadata'), 'name') ?? '';
  const build = labelsOf(s.node)[BUILD_LABEL];
  if (typeof build !== 'string') return { name };
  return { name, build, release: releaseForBuild(build) };
}

function nodePhrase(n: ReturnType<typeof nodeRelease>): string {
  if (!n) return "the pod's node";
  if (n.release) return `node ${n.name} (${releaseInfo(n.release).displayName}, ${n.build})`;
  return n.build !== undefined ? `node ${n.name} (build ${n.build})` : `node ${n.name}`;
}

function releaseTag(release: WindowsRelease): string {
  return releaseInfo(release).imageTags[0] ?? `ltsc${release}`;
}

function noPlatform(_m: RegExpExecArray, text: Text, s: Subject): Reading | undefined {
  const named = PULLED_IMAGE.exec(text.text)?.[1];
  const container = containerOf(text, s, named);
  const image = named ?? (container ? str(container.c, 'image') : undefined);
  if (image === undefined) return undefined;
  const path = container ? `${container.path}.image` : undefined;
  const node = nodeRelease(s);
  if (isWindowsImage(image) === true) {
    const tag = node?.release ? ` (tag ${releaseTag(node.release)})` : '';
    return {
      ruleId: 'doctor-image-os-mismatch',
      key: container?.path ?? image,
      message: `Image ${quote(image)} is a Windows image, but it has no manifest for the Windows build of ${nodePhrase(node)}: containerd on Windows pulls only an entry whose build the host can run.`,
      fix: `Use a tag of the image built for the node's Windows release${tag}${path ? ` in ${path}` : ''}, or pin the pod to nodes of the image's build (${s.specPath}.nodeSelector ${BUILD_LABEL}).`,
      ...(path ? { path } : {}),
    };
  }
  const fix = s.declaredWindows
    ? `Use an image published for Windows${path ? ` in ${path}` : ''} (a manifest list with a windows/amd64 entry for the node's build, or an image built FROM a Windows base image); a Linux-only image cannot run on a Windows node.`
    : `The pod is not pinned to an OS and landed on a Windows node: set ${s.specPath}.nodeSelector ${OS_LABEL}: linux, or use an image published for Windows.`;
  return {
    ruleId: 'doctor-image-linux-only',
    key: container?.path ?? image,
    message: `Image ${quote(image)} has no manifest a Windows node can run (no windows/amd64 entry): the image is published for Linux only (or for other platforms), so ${nodePhrase(node)} cannot pull it.`,
    fix,
    ...(path ? { path } : {}),
  };
}

function osMismatch(_m: RegExpExecArray, text: Text, s: Subject): Reading | undefined {
  const container = containerOf(text, s);
  const image = container ? str(container.c, 'image') : undefined;
  const ref = image !== undefined ? parseImageReference(image) : undefined;
  const built = ref ? inferWindowsBuild(ref.tag) : { kind: 'unknown' as const };
  const node = nodeRelease(s);
  const builtText =
    built.kind === 'release'
      ? ` is built for ${releaseInfo(built.release).displayName} (${built.build})`
      : built.kind === 'retired'
        ? ` is built for ${built.displayName} (${built.build})`
        : '';
  const subject = image !== undefined ? `Image ${quote(image)}${builtText}` : 'The image';
  const path = container ? `${container.path}.image` : undefined;
  const useTag = node?.release
    ? `Use the image's ${releaseTag(node.release)} tag (built for ${releaseInfo(node.release).displayName})`
    : "Use the image tag built for the node's Windows release";
  const pin =
    built.kind === 'release' || built.kind === 'retired'
      ? `${s.specPath}.nodeSelector ${BUILD_LABEL}: ${quote(built.build)}`
      : `${s.specPath}.nodeSelector ${BUILD_LABEL}`;
  return {
    ruleId: 'doctor-image-os-mismatch',
    key: container?.path ?? 'image',
    message: `${subject} and cannot run on ${nodePhrase(node)}: with process isolation Windows runs a container only on a host whose build supports the image's.`,
    fix: `${useTag}${path ? ` in ${path}` : ''}, or pin the pod to nodes of the image's build (${pin}).`,
    ...(path ? { path } : {}),
  };
}

function firstCommand(c: Rec): string | undefined {
  const command = arr(c, 'command');
  const first = command[0];
  return typeof first === 'string' && first !== '' ? first : undefined;
}

function executableName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.exe$/, '');
}

function isNanoServer(image: string | undefined): boolean {
  if (image === undefined) return false;
  const ref = parseImageReference(image);
  const name = ref ? `${ref.repository}:${ref.tag ?? ''}` : image;
  return /nanoserver/i.test(name);
}

function fileNotFound(_m: RegExpExecArray, text: Text, s: Subject): Reading | undefined {
  const container = containerOf(text, s);
  if (!container) return undefined;
  const image = str(container.c, 'image');
  const command = firstCommand(container.c);
  const exe = command !== undefined ? executableName(command) : undefined;
  const powershell = exe === 'powershell' || exe === 'pwsh';
  const commandPath = `${container.path}.command`;
  if (powershell && isNanoServer(image)) {
    return {
      ruleId: 'doctor-nanoserver-powershell',
      key: container.path,
      message: `Container ${quote(container.name)} runs ${quote(command ?? '')}, but its image ${quote(image ?? '')} is Nano Server, which has no ${exe === 'pwsh' ? 'PowerShell 7 unless the image adds it' : 'Windows PowerShell'}: Windows cannot find the file.`,
      fix: `Run the command with cmd /c in ${commandPath} (${quote('cmd')}, ${quote('/c')}, …), or use an image that ships PowerShell 7 (mcr.microsoft.com/powershell with a nanoserver tag for the node's build) and run pwsh.`,
      path: commandPath,
    };
  }
  const message =
    command !== undefined
      ? `Container ${quote(container.name)} runs ${quote(command)}, which its image ${quote(image ?? '')} does not have: Windows cannot find the file.${powershell ? ' If the image is built on Nano Server, it has no Windows PowerShell.' : ''}`
      : `The entrypoint of image ${quote(image ?? '')} (container ${quote(container.name)} sets no command) is not in the image: Windows cannot find the file.`;
  return {
    ruleId: 'doctor-command-not-found',
    key: container.path,
    message,
    fix: `Set ${commandPath} to an executable the image has (its full path, or one on the image's PATH).`,
    path: commandPath,
  };
}

function windowsOptionsPath(s: Subject, container: ContainerRef | undefined, field: string): string {
  if (container && own2(container.c, field) !== undefined)
    return `${container.path}.securityContext.windowsOptions.${field}`;
  return `${s.specPath}.securityContext.windowsOptions.${field}`;
}

function own2(c: Rec, field: string): unknown {
  return own(rec(rec(c, 'securityContext'), 'windowsOptions'), field);
}

function runAsUserName(s: Subject, container: ContainerRef | undefined): string | undefined {
  const fromContainer = container ? own2(container.c, 'runAsUserName') : undefined;
  if (typeof fromContainer === 'string') return fromContainer;
  const fromPod = own(rec(rec(s.spec, 'securityContext'), 'windowsOptions'), 'runAsUserName');
  return typeof fromPod === 'string' ? fromPod : undefined;
}

function hostProcessUser(m: RegExpExecArray, text: Text, s: Subject): Reading {
  const container = containerOf(text, s);
  const user = runAsUserName(s, container);
  const path = windowsOptionsPath(s, container, 'runAsUserName');
  const why = m[1] !== undefined && m[1] !== '' ? ` (${m[1].replace(/\.$/, '')})` : '';
  return {
    ruleId: 'doctor-hostprocess-failed',
    key: `user:${container?.path ?? ''}`,
    message: `HostProcess container${container ? ` ${quote(container.name)}` : ''} could not log on as ${user !== undefined ? quote(user) : 'its user'}${why}: containerd must run as LocalSystem or LocalService, and the user must be a service account or a local group of the node.`,
    fix: `Set ${path} to NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service, NT AUTHORITY\\NetworkService or a local group of the node, and run containerd as LocalSystem or LocalService.`,
    path,
  };
}

function hostProcessExecutable(m: RegExpExecArray, text: Text, s: Subject): Reading {
  const container = containerOf(text, s);
  const commandPath = container ? `${container.path}.command` : `${s.specPath}.containers[].command`;
  return {
    ruleId: 'doctor-hostprocess-failed',
    key: `exe:${container?.path ?? m[1]}`,
    message: `HostProcess container${container ? ` ${quote(container.name)}` : ''}: its command ${quote(m[1])} was not found in the working directory, the container's PATH or the node's system directories.`,
    fix: `Give the executable's full path in ${commandPath} (a file of the image is under %CONTAINER_SANDBOX_MOUNT_POINT%), or set workingDir or PATH to its folder.`,
    path: commandPath,
  };
}

function fixed(ruleId: DoctorRuleId, key: string, message: string, fix: string, path?: string): Reading {
  return { ruleId, key, message, fix, ...(path !== undefined ? { path } : {}) };
}

/** The windowsOptions that name a credential spec: the pod's, or a container's. */
function gmsaNamePath(s: Subject, credSpec: string): string {
  const pod = rec(rec(s.spec, 'securityContext'), 'windowsOptions');
  if (str(pod, 'gmsaCredentialSpecName') === credSpec)
    return `${s.specPath}.securityContext.windowsOptions.gmsaCredentialSpecName`;
  for (const c of allContainers(s.spec, s.specPath)) {
    if (own2(c.c, 'gmsaCredentialSpecName') === credSpec)
      return `${c.path}.securityContext.windowsOptions.gmsaCredentialSpecName`;
  }
  return `${s.specPath}.securityContext.windowsOptions.gmsaCredentialSpecName`;
}

function gmsaResourcePath(s: Subject, kind: string, name: string, field: string): string {
  if (kind === 'container') {
    const c = allContainers(s.spec, s.specPath).find((x) => x.name === name);
    if (c) return `${c.path}.securityContext.windowsOptions.${field}`;
  }
  return `${s.specPath}.securityContext.windowsOptions.${field}`;
}

/** `spec.containers[0].securityContext.runAsUser` → whether the object holds it. */
function hasPath(root: unknown, path: string): boolean {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return false;
    cur = own(cur, m[1]);
    for (const idx of m[2].match(/\d+/g) ?? []) {
      cur = Array.isArray(cur) ? cur[Number(idx)] : undefined;
    }
    if (cur === undefined || cur === null) return false;
  }
  return true;
}

/** A pod field path as the API server names it → the same field in the subject (the owner's template). */
function inSubject(podPath: string, s: Subject): string {
  return s.specPath === 'spec' ? podPath : podPath.replace(/^spec/, s.specPath);
}

function forbiddenField(m: RegExpExecArray, _text: Text, s: Subject): Reading {
  const podPath = m[1];
  const path = inSubject(podPath, s);
  const field = podPath.split('.').pop() ?? podPath;
  const resources = /may not be set/.test(m[0]);
  const inTemplate = hasPath(s.obj, path);
  const added = inTemplate
    ? ''
    : ` The ${s.kind === 'Pod' ? 'pod spec as written' : `${s.kind}'s template`} does not set it: an admission webhook or policy adds it.`;
  let fix: string;
  if (!inTemplate) fix = `Exclude Windows pods from the mutating webhook or policy that adds ${field}.`;
  else if (resources) fix = `Remove ${path} and set resources on each container.`;
  else if (field === 'runAsUser' || field === 'runAsGroup')
    fix = `Remove ${path}; a Windows container's user is securityContext.windowsOptions.runAsUserName.`;
  else fix = `Remove ${path}.`;
  return {
    ruleId: 'doctor-forbidden-field',
    key: podPath,
    message: `The API server refuses the pod: ${podPath} ${resources ? 'may not' : 'cannot'} be set on a Windows pod (spec.os.name: windows).${added}`,
    fix,
    path,
  };
}

const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  'scheduler-untolerated-taint': untoleratedTaint,
  'scheduler-untolerated-taint-older-wording': untoleratedTaint,
  'scheduler-node-affinity': noNodeMatches,
  'containerd-no-match-for-platform': noPlatform,
  'hcs-os-mismatch': osMismatch,
  'hcs-create-process-file-not-found': fileNotFound,
  'hcs-hostprocess-user-token': hostProcessUser,
  'hcs-hostprocess-executable': hostProcessExecutable,
  'hcs-hostprocess-hyperv': (_m, _t, s) =>
    fixed(
      'doctor-hostprocess-failed',
      'hyperv',
      `The pod runs HostProcess containers with Hyper-V isolation${str(s.spec, 'runtimeClassName') !== undefined ? ` (RuntimeClass ${quote(str(s.spec, 'runtimeClassName') ?? '')})` : ''}: the utility VM does not support HostProcess containers.`,
      `Run the pod process-isolated: remove ${s.specPath}.runtimeClassName, or name a RuntimeClass whose handler is runhcs-wcow-process.`,
      `${s.specPath}.runtimeClassName`,
    ),
  'apiserver-hostprocess-host-network': (_m, _t, s) =>
    fixed(
      'doctor-hostprocess-failed',
      'hostNetwork',
      'The API server refuses the pod: a pod with HostProcess containers must use the host network.',
      `Set ${s.specPath}.hostNetwork: true.`,
      `${s.specPath}.hostNetwork`,
    ),
  'apiserver-hostprocess-all-or-none': (_m, _t, s) =>
    fixed(
      'doctor-hostprocess-failed',
      'all-or-none',
      'The API server refuses the pod: some of its containers are HostProcess containers and some are not.',
      `Set ${s.specPath}.securityContext.windowsOptions.hostProcess: true so every container (init containers too) inherits it, or remove hostProcess from every container.`,
      `${s.specPath}.securityContext.windowsOptions.hostProcess`,
    ),
  'apiserver-hostprocess-mismatch': (m, _t, s) =>
    fixed(
      'doctor-hostprocess-failed',
      'mismatch',
      `The API server refuses the pod: a container sets windowsOptions.hostProcess to the opposite of the pod's (${m[1]}).`,
      `Remove the container's securityContext.windowsOptions.hostProcess, or set it to ${m[1]} like ${s.specPath}.securityContext.windowsOptions.hostProcess.`,
    ),
  'apiserver-hostprocess-disallowed': () =>
    fixed(
      'doctor-hostprocess-failed',
      'disallowed',
      'The API server refuses HostProcess pods: it does not allow privileged containers.',
      'Run kube-apiserver with privileged containers allowed (--allow-privileged=true), or do without HostProcess containers.',
    ),
  'gmsa-webhook-not-authorized': (m, _t, s) =>
    fixed(
      'doctor-gmsa-failed',
      `use:${m[2]}`,
      `The gMSA webhook refuses the pod: service account ${quote(m[1])} may not use the GMSACredentialSpec ${quote(m[2])}.`,
      `Bind service account ${quote(m[1])} (namespace ${s.namespace}) to a Role or ClusterRole with the rule {apiGroups: ["windows.k8s.io"], resources: ["gmsacredentialspecs"], verbs: ["use"], resourceNames: [${quote(m[2])}]}.`,
      `${s.specPath}.serviceAccountName`,
    ),
  'gmsa-webhook-spec-missing': (m, _t, s) =>
    fixed(
      'doctor-gmsa-failed',
      `missing:${m[1]}`,
      `The gMSA webhook refuses the pod: the GMSACredentialSpec ${quote(m[1])} it names does not exist.`,
      `Create the GMSACredentialSpec ${quote(m[1])}, or correct ${gmsaNamePath(s, m[1])} (kubectl get gmsacredentialspecs).`,
      gmsaNamePath(s, m[1]),
    ),
  'gmsa-webhook-spec-empty': (m) =>
    fixed(
      'doctor-gmsa-failed',
      `empty:${m[1]}`,
      `The gMSA webhook refuses the pod: the GMSACredentialSpec ${quote(m[1])} has no credspec contents.`,
      `Fill the credspec field of GMSACredentialSpec ${quote(m[1])} with the credential spec JSON.`,
    ),
  'gmsa-webhook-contents-mismatch': (m, _t, s) =>
    fixed(
      'doctor-gmsa-failed',
      `contents:${m[1]}/${m[2]}`,
      `The gMSA webhook refuses the pod: the gmsaCredentialSpec contents set on ${m[1]} ${quote(m[2])} differ from the GMSACredentialSpec ${quote(m[3])}.`,
      `Remove ${gmsaResourcePath(s, m[1], m[2], 'gmsaCredentialSpec')} and keep only gmsaCredentialSpecName: the webhook fills the contents from the resource.`,
      gmsaResourcePath(s, m[1], m[2], 'gmsaCredentialSpec'),
    ),
  'gmsa-webhook-name-missing': (m, _t, s) =>
    fixed(
      'doctor-gmsa-failed',
      `name:${m[1]}/${m[2]}`,
      `The gMSA webhook refuses the pod: ${m[1]} ${quote(m[2])} sets gmsaCredentialSpec contents without gmsaCredentialSpecName.`,
      `Set ${gmsaResourcePath(s, m[1], m[2], 'gmsaCredentialSpecName')} to the GMSACredentialSpec and remove the inline gmsaCredentialSpec.`,
      gmsaResourcePath(s, m[1], m[2], 'gmsaCredentialSpecName'),
    ),
  'apiserver-gmsa-spec-size': (m) =>
    fixed(
      'doctor-gmsa-failed',
      'size',
      `The API server refuses the pod: its gMSA credential spec is not under ${m[1]} KiB.`,
      'Shrink the credential spec (the GMSACredentialSpec the webhook copies into the pod) to the ActiveDirectoryConfig the gMSA needs.',
    ),
  'apiserver-windows-forbidden-field': forbiddenField,
  'apiserver-windows-pod-resources': forbiddenField,
};

/** Whether every catalogue entry has its interpretation here (a test holds the two files together). */
export function interpretedPatternIds(): readonly string[] {
  return Object.keys(INTERPRETERS);
}

// ---------------------------------------------------------------------------------------------------------------
// Putting it together.

function ownerOf(obj: Rec): { kind: string; name: string } | undefined {
  for (const ref of arr(rec(obj, 'metadata'), 'ownerReferences')) {
    if (own(ref, 'controller') !== true) continue;
    const kind = str(ref, 'kind');
    const name = str(ref, 'name');
    if (kind !== undefined && name !== undefined) return { kind, name };
  }
  return undefined;
}

function isReady(pod: Rec): boolean {
  const status = rec(pod, 'status');
  if (str(status, 'phase') === 'Succeeded') return true;
  return arr(status, 'conditions').some((c) => str(c, 'type') === 'Ready' && str(c, 'status') === 'True');
}

function explain(subject: Subject, texts: readonly Text[]): DoctorFinding[] {
  const best = new Map<string, { finding: DoctorFinding; time: number }>();
  for (const text of texts) {
    for (const found of matchMessage(text.text)) {
      const interpret = INTERPRETERS[found.pattern.id];
      const reading = interpret ? interpret(found.match, text, subject) : undefined;
      if (!reading) continue;
      const id = `${reading.ruleId}\u0000${reading.key}`;
      const prior = best.get(id);
      if (prior && prior.time >= text.time) continue;
      const owner = subject.kind === 'Pod' ? ownerOf(subject.obj) : undefined;
      best.set(id, {
        time: text.time,
        finding: {
          ruleId: reading.ruleId,
          severity: found.pattern.severity,
          message: reading.message,
          fix: reading.fix,
          evidence: { text: text.text, from: text.from, ...(text.at !== undefined ? { at: text.at } : {}) },
          resource: { kind: subject.kind, namespace: subject.namespace, name: subject.name },
          path: reading.path ?? subject.specPath,
          patternId: found.pattern.id,
          ...(owner ? { owner } : {}),
        },
      });
    }
  }
  const order = (f: DoctorFinding) => DOCTOR_RULE_IDS.indexOf(f.ruleId);
  return [...best.values()].map((b) => b.finding).sort((a, b) => order(a) - order(b) || a.path.localeCompare(b.path));
}

function nodeRecords(options: ExplainOptions): Rec[] {
  const nodes = isRecord(options) ? options.nodes : undefined;
  return Array.isArray(nodes) ? nodes.filter(isRecord) : [];
}

/**
 * A pod judged: whether it is a Windows pod (isWindowsPod), whether it is Ready or Succeeded, and, for a Windows pod
 * that is neither, its causes (explainPod).
 */
export function diagnosePod(pod: unknown, events: readonly unknown[] = [], options: ExplainOptions = {}): PodDiagnosis {
  if (!isRecord(pod)) return { windows: false, ready: false, findings: [] };
  const spec = rec(pod, 'spec');
  const nodes = nodeRecords(options);
  const windowsNodes = isRecord(options) && options.windowsNodes instanceof Set ? options.windowsNodes : undefined;
  const windows = spec !== undefined && isWindowsPod(pod, nodes, windowsNodes);
  const ready = isReady(pod);
  if (!spec || !windows || ready) return { windows, ready, findings: [] };
  const metadata = rec(pod, 'metadata');
  const name = str(metadata, 'name') ?? '';
  const namespace = str(metadata, 'namespace') || 'default';
  const node = nodeNamed(nodes, str(spec, 'nodeName'));
  const subject: Subject = {
    obj: pod,
    kind: 'Pod',
    namespace,
    name,
    spec,
    specPath: 'spec',
    nodes,
    ...(node ? { node } : {}),
    declaredWindows: specIsWindows(pod, spec, 'spec', metadata),
  };
  const uid = str(metadata, 'uid');
  const texts = [
    ...eventTexts(
      Array.isArray(events) ? events : [],
      { kind: 'Pod', namespace, name, ...(uid ? { uid } : {}) },
      spec,
      'spec',
    ),
    ...statusTexts(pod, spec),
  ];
  return { windows, ready, findings: explain(subject, texts) };
}

/**
 * The causes of a Windows pod that is not Ready, one finding per cause with its newest evidence: the pod's status
 * (conditions, container states) and `events` (core/v1 Events about it; events about other objects are skipped).
 * A Ready or Succeeded pod, a pod that is not a Windows pod (isWindowsPod) and a malformed object yield nothing.
 */
export function explainPod(
  pod: unknown,
  events: readonly unknown[] = [],
  options: ExplainOptions = {},
): DoctorFinding[] {
  return [...diagnosePod(pod, events, options).findings];
}

/** Kinds whose pods are made from `spec.template` and refused at creation with a FailedCreate event. */
const TEMPLATE_OWNERS: ReadonlySet<string> = new Set([
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
  'Job',
]);

/**
 * The causes of a workload controller's pods being refused at creation (FailedCreate events: forbidden fields,
 * HostProcess rules, gMSA webhook denials), for a ReplicaSet, ReplicationController, StatefulSet, DaemonSet or Job
 * whose template is a Windows pod. Paths point into the owner's template (`spec.template.spec…`).
 */
export function explainOwner(
  owner: unknown,
  events: readonly unknown[] = [],
  options: ExplainOptions = {},
): DoctorFinding[] {
  if (!isRecord(owner)) return [];
  const kind = str(owner, 'kind');
  if (kind === undefined || !TEMPLATE_OWNERS.has(kind)) return [];
  const template = rec(rec(owner, 'spec'), 'template');
  const spec = rec(template, 'spec');
  if (!spec) return [];
  const specPath = 'spec.template.spec';
  if (!specIsWindows(owner, spec, specPath, rec(template, 'metadata'))) return [];
  const metadata = rec(owner, 'metadata');
  const name = str(metadata, 'name') ?? '';
  const namespace = str(metadata, 'namespace') || 'default';
  const subject: Subject = {
    obj: owner,
    kind,
    namespace,
    name,
    spec,
    specPath,
    nodes: nodeRecords(options),
    declaredWindows: true,
  };
  const uid = str(metadata, 'uid');
  const texts = eventTexts(
    Array.isArray(events) ? events : [],
    { kind, namespace, name, ...(uid ? { uid } : {}) },
    spec,
    specPath,
  );
  return explain(subject, texts);
}
