/**
 * The fix of each rule in a cdk8s user's words: the construct prop that fixes it (`windows: { release: '2019' }`),
 * not the manifest field (`nodeSelector`), which a construct user does not write. One table keyed by rule id, so each
 * rule has one place for it; the engine's rule id, message and manifest fix stay as they are, and this text replaces
 * only the fix, wherever a construct user reads it: refusals (`WindowsValidationError`), construct warnings and the
 * validation plugin's report on what the constructs wrote. A rule without an entry keeps the engine's fix.
 */
import type { ValidationIssue } from '../core/errors';
import { inferWindowsBuild, parseImageReference } from '../core/images';
import { releaseInfo, type WindowsRelease } from '../core/releases';

/** What a construct fix may read of the finding: the field it is about and, where it matters, its value. */
export interface ConstructFinding {
  /** API-server path of the finding (`spec.template.spec.containers[0].securityContext.runAsUser`). */
  readonly path: string;
  /** The value at `path`, when the caller has it (the image of an `image-build-mismatch`). */
  readonly value?: unknown;
  /** The Windows Server release the workload runs on, when known. */
  readonly release?: WindowsRelease;
}

type ConstructFix = (finding: ConstructFinding) => string | undefined;

/** The last field name of an API path: `runAsUser` of `spec.securityContext.runAsUser`. */
const fieldOf = (path: string): string =>
  path
    .replace(/\[\d+\]$/, '')
    .split('.')
    .pop() ?? '';
/** Whether the path is inside a container (else it is about the pod). */
const inContainer = (path: string): boolean =>
  /(?:^|\.)(?:initContainers|containers|ephemeralContainers)\[\d+\]/.test(path);

/** cdk8s-plus security props by API field (container.js and pod.js of cdk8s-plus-28 to 34). */
const SECURITY_PROP: Readonly<Record<string, string>> = {
  runAsUser: 'user',
  runAsGroup: 'group',
  runAsNonRoot: 'ensureNonRoot',
};

/** What to do about each forbidden field, once the prop is removed (the Windows way, where there is one). */
const FORBIDDEN_FIELD_TAIL: Readonly<Record<string, string>> = {
  runAsUser:
    "to run as a non-admin Windows user, set `windows: { runAsUserName: 'ContainerUser' }` or `windows: { securityProfile: 'restricted' }`.",
  runAsGroup: 'Windows has no GIDs.',
  fsGroup: 'Windows has no GIDs; grant access with ACLs inside the image.',
  supplementalGroups: 'Windows has no GIDs.',
  privileged:
    'for a node agent use `WindowsHostProcessDaemonSet` (every container runs as a HostProcess container on the node).',
  capabilities: 'Windows has no Linux capabilities.',
  readOnlyRootFilesystem: 'Windows cannot mount the root filesystem read-only.',
  allowPrivilegeEscalation: "Pod Security's restricted level exempts Windows pods from it.",
  seccompProfile: "Pod Security's restricted level exempts Windows pods from it.",
  sysctls: 'Windows has no sysctls.',
  shareProcessNamespace: 'Windows pods cannot share a process namespace (even `false` is refused).',
  hostPID: 'Windows pods cannot share the host PID namespace.',
  hostIPC: 'Windows pods cannot share the host IPC namespace.',
  hostUsers: 'user namespaces do not exist on Windows.',
};

/** The construct prop that writes a forbidden field: `securityContext.user` on the container, `sysctls`... */
function forbiddenProp(path: string): string {
  const field = fieldOf(path);
  const prop = SECURITY_PROP[field] ?? field;
  const owner = inContainer(path) ? "the container's" : "the workload's";
  return path.includes('.securityContext.') ? `\`${prop}\` from ${owner} \`securityContext\`` : `\`${prop}\``;
}

/** The release whose build an image is tagged for (`ltsc2019` → `'2019'`), if the tag says so. */
function releaseOfImage(image: unknown): WindowsRelease | undefined {
  if (typeof image !== 'string') return undefined;
  const build = inferWindowsBuild(parseImageReference(image)?.tag);
  return build.kind === 'release' ? build.release : undefined;
}

const RUN_AS_USER_NAME = "`windows: { runAsUserName: 'ContainerUser' }` (or `'ContainerAdministrator'`)";

/**
 * Each rule's fix for a construct user, by rule id. Every key is a rule of the catalogue
 * (test/cdk8s/construct-fixes.test.ts checks it).
 */
export const CONSTRUCT_FIXES: Readonly<Record<string, ConstructFix>> = {
  'windows-forbidden-field': ({ path }) => {
    const tail = FORBIDDEN_FIELD_TAIL[fieldOf(path)];
    return `Remove ${forbiddenProp(path)}${tail ? `; ${tail}` : '.'}`;
  },
  'image-build-mismatch': ({ value, release: nodes }) => {
    const release = releaseOfImage(value);
    const tag =
      nodes === undefined
        ? "the image's tag for the workload's release"
        : `the image's ${releaseInfo(nodes).imageTags[0]} tag`;
    return release === undefined
      ? `Use ${tag}, or set \`windows: { release }\` to the release the image is built for.`
      : `Use ${tag}, or run it on Windows Server ${release} nodes: \`windows: { release: '${release}' }\`.`;
  },
  'windows-emptydir-memory': () =>
    'Drop `medium: EmptyDirMedium.MEMORY` from `Volume.fromEmptyDir(...)` (a disk-backed emptyDir).',
  'windows-mount-propagation': () => 'Remove `propagation` from the volume mount.',
  'windows-host-port': () =>
    'Remove `hostPort` from the port (it defaults to the container port) or make it equal to `number`.',
  'windows-host-port-cni': () =>
    'Check your Windows CNI maps host ports, or drop `hostPort` and expose the port with `exposeViaService()`.',
  'windows-dns-host-net': () =>
    'Remove `dns: { policy: DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET }` (ClusterFirst is the default).',
  'windows-memory-request-limit': () =>
    'Give the container equal memory request and limit: `resources: { memory: { request: Size.gibibytes(2), limit: Size.gibibytes(2) } }`, or only the limit.',
  'windows-startup-probe': () =>
    'Give the container `startup: kplus.Probe.fromHttpGet(...)` (or a `liveness`/`readiness` probe: the constructs derive a startup probe from it with a 5-minute budget).',
  'windows-tcp-probe': () =>
    'Use `kplus.Probe.fromHttpGet(...)` or `kplus.Probe.fromCommand(...)` instead of `fromTcpSocket`.',
  'image-floating-tag': () =>
    "Use an image tag that names the Windows build of the workload's `windows.release` (`ltsc2022` by default), or a multi-arch tag.",
  'windows-run-as-user-name': () => `Set ${RUN_AS_USER_NAME}.`,
  'windows-host-network': () =>
    'Remove `hostNetwork: true`: only HostProcess pods use the host network; for a node agent use `WindowsHostProcessDaemonSet`.',
  'hostprocess-run-as-user-name': () =>
    "Set `windows: { runAsUserName: 'NT AUTHORITY\\\\SYSTEM' }`, `'NT AUTHORITY\\\\Local service'` or `'NT AUTHORITY\\\\NetworkService'`.",
  'hostprocess-run-as-non-root': () =>
    "Remove `securityContext: { ensureNonRoot }`; choose the account with `windows: { runAsUserName: 'NT AUTHORITY\\\\SYSTEM' }` (or Local service, NetworkService).",
  'gmsa-name-format': () =>
    'Pass `windows: { gmsa }` the `GMSACredentialSpec` name, or the `GmsaCredentialSpec` construct.',
};

/**
 * `issue` in a construct user's words, when its rule has a construct fix: that fix, and for a forbidden security
 * field whose cdk8s-plus prop has another name (`user` renders `runAsUser`), the prop named after the message.
 * `value` reads the value at the issue's path, where the fix depends on it (an image's build).
 */
export function inConstructWords<T extends ValidationIssue>(
  issue: T,
  value?: (path: string) => unknown,
  release?: WindowsRelease,
): T {
  const fix = constructFix(issue.ruleId, { path: issue.path, value: value?.(issue.path), release });
  if (fix === undefined) return issue;
  const field = fieldOf(issue.path);
  const prop = SECURITY_PROP[field];
  const named =
    issue.ruleId === 'windows-forbidden-field' && prop !== undefined && issue.path.includes('.securityContext.')
      ? ` (${inContainer(issue.path) ? "the container's" : "the workload's"} \`securityContext.${prop}\`)`
      : '';
  return { ...issue, message: named ? issue.message.replace(/\.?$/, `${named}.`) : issue.message, fix };
}

/** The value at an API `path` (`spec.template.spec.containers[1].image`) inside `obj` rooted at `prefix`. */
export function valueAt(obj: unknown, prefix: string, path: string): unknown {
  if (!path.startsWith(`${prefix}.`)) return undefined;
  let node: unknown = obj;
  for (const seg of path
    .slice(prefix.length + 1)
    .split(/\.|\[(\d+)\]/)
    .filter((x) => x !== undefined && x !== '')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** The construct fix of `ruleId` for `finding`, if the table has one. */
export function constructFix(ruleId: string | undefined, finding: ConstructFinding): string | undefined {
  if (ruleId === undefined) return undefined;
  return Object.prototype.hasOwnProperty.call(CONSTRUCT_FIXES, ruleId) ? CONSTRUCT_FIXES[ruleId](finding) : undefined;
}
