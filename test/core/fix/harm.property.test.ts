/**
 * `fix` never harms, on random but plausible manifest files: Windows, Linux (including Linux images whose version
 * happens to contain a Windows build name) and mixed sets; forbidden fields, HostProcess, host ports; anchors,
 * aliases and merge keys shared between containers and objects; block, flow and JSON documents; CRLF and a BOM.
 *
 * Properties, each checked against models kept in this file rather than the engine's own reading:
 * - it never throws on well-formed YAML;
 * - Linux objects are never changed (with `pinLinux`, only their `kubernetes.io/os: linux` selector is added) and
 *   never reported as Windows;
 * - every value that differs between input and output, read through aliases and merge keys, is covered by a
 *   change reported for that object;
 * - an object the API server admits before the fix is admitted after it, and every rejection left is reported;
 * - no finding its fixer settles is left unless the change report says why it was refused;
 * - it reads as it would with a `yaml` node tree for every document;
 * - it is idempotent, keeps the bytes of documents it did not change, the BOM and the line endings;
 * - every line it changes is explained by a change it reports: all other lines are byte-identical (lines.ts).
 *
 * A few hundred files a run, a new seed each time (test/helpers/property.ts); a long run:
 * `K8S_WINDOWS_PROPERTY_RUNS=20000 npx jest harm.property`.
 */
import fc from 'fast-check';
import { Document, isMap, type Node } from 'yaml';
import { fixManifests, fixManifestSet, loadManifests, type FixOptions, type FixResult } from 'k8s-windows';
import { FIXERS } from '../../../lib/core/fix/fixers';
import { cli } from '../../helpers/cli';
import { unexplainedLines } from './lines';
import { DEFAULT_PROPERTY_RUNS, propertyParameters } from '../../helpers/property';

const WINDOWS_IMAGES = [
  'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019',
  'mcr.microsoft.com/windows/nanoserver:ltsc2022',
  'mcr.microsoft.com/powershell:lts-nanoserver-1809',
  'registry.k8s.io/pause:3.9-windows-ltsc2022-amd64',
  'mcr.microsoft.com/windows/servercore:1809',
];
/** Linux images, some with a Windows build name buried in a version, some with none. */
const LINUX_IMAGES = [
  'nginx:1.27',
  'redis:7',
  'ghcr.io/acme/worker:v2.1909.3',
  'registry.example.com/api:1.4.1809',
  'registry.example.com/api:2004',
  'acme/etl:20h2',
  'acme/etl:1809-alpine',
  'quay.io/acme/job:v1.2004.0-rc1',
];

/** The API server's Windows rules (kube-apiserver validation.go, validateWindows*), as an independent model. */
const FORBIDDEN_POD_SECURITY = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'supplementalGroupsPolicy',
  'seLinuxChangePolicy',
];
const FORBIDDEN_CONTAINER_SECURITY = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The pod spec of a generated object (Deployment, Pod or CronJob), or undefined. */
function podSpecOf(obj: unknown): Rec | undefined {
  if (!isRec(obj) || !isRec(obj.spec)) return undefined;
  switch (obj.kind) {
    case 'Pod':
      return obj.spec;
    case 'Deployment':
      return isRec(obj.spec.template) && isRec(obj.spec.template.spec) ? obj.spec.template.spec : undefined;
    case 'CronJob': {
      const job = isRec(obj.spec.jobTemplate) ? obj.spec.jobTemplate.spec : undefined;
      const tpl = isRec(job) ? job.template : undefined;
      return isRec(tpl) && isRec(tpl.spec) ? tpl.spec : undefined;
    }
    default:
      return undefined;
  }
}

function containersOf(spec: Rec): Rec[] {
  return ['initContainers', 'containers'].flatMap((l) =>
    (Array.isArray(spec[l]) ? (spec[l] as unknown[]) : []).filter(isRec),
  );
}

/** What the API server rejects in one object: empty when it admits it. */
function rejections(obj: unknown): string[] {
  const spec = podSpecOf(obj);
  if (!spec) return [];
  const out: string[] = [];
  const containers = containersOf(spec);
  const windows = isRec(spec.os) && spec.os.name === 'windows';
  if (isRec(spec.os) && spec.os.name !== 'windows' && spec.os.name !== 'linux') out.push('os.name NotSupported');
  if (windows) {
    const sc = isRec(spec.securityContext) ? spec.securityContext : {};
    for (const f of FORBIDDEN_POD_SECURITY) if (sc[f] !== undefined) out.push(`pod securityContext.${f}`);
    if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) out.push('pod securityContext.sysctls');
    if (spec.hostPID === true) out.push('hostPID');
    if (spec.hostIPC === true) out.push('hostIPC');
    if (spec.shareProcessNamespace !== undefined) out.push('shareProcessNamespace');
    if (spec.hostUsers !== undefined) out.push('hostUsers');
    containers.forEach((c, i) => {
      const csc = isRec(c.securityContext) ? c.securityContext : {};
      for (const f of FORBIDDEN_CONTAINER_SECURITY) if (csc[f] !== undefined) out.push(`container ${i} ${f}`);
    });
  }
  // HostProcess: all containers or none, and hostNetwork; with hostNetwork, hostPort equals containerPort.
  const podHp =
    isRec(spec.securityContext) && isRec(spec.securityContext.windowsOptions)
      ? spec.securityContext.windowsOptions.hostProcess
      : undefined;
  const hp = containers.map((c) => {
    const own =
      isRec(c.securityContext) && isRec(c.securityContext.windowsOptions)
        ? c.securityContext.windowsOptions.hostProcess
        : undefined;
    return (own ?? podHp) === true;
  });
  if (hp.some((x) => x) && !hp.every((x) => x)) out.push('hostProcess all or none');
  if (hp.some((x) => x) && spec.hostNetwork !== true) out.push('hostProcess needs hostNetwork');
  if (spec.hostNetwork === true) {
    for (const c of containers) {
      for (const p of Array.isArray(c.ports) ? c.ports.filter(isRec) : []) {
        if (p.hostPort !== undefined && p.hostPort !== p.containerPort) out.push('hostPort != containerPort');
      }
    }
  }
  return out;
}

/** Refusals `rejections` names for any pod, whatever its OS, and the rule that reports each. */
const ANY_POD_REJECTIONS = [
  ['hostPort != containerPort', 'windows-host-port'],
  ['os.name NotSupported', 'windows-os-name'],
] as const;

// --- generation -----------------------------------------------------------------------------------------------

const podSecurity = fc.subarray([
  ['runAsUser', 1000],
  ['runAsGroup', 3000],
  ['fsGroup', 2000],
  ['runAsNonRoot', true],
  ['seccompProfile', { type: 'RuntimeDefault' }],
  ['supplementalGroups', [4000]],
] as const);
const containerSecurity = fc.subarray([
  ['privileged', false],
  ['allowPrivilegeEscalation', false],
  ['readOnlyRootFilesystem', true],
  ['capabilities', { drop: ['ALL'] }],
  ['runAsUser', 1000],
  ['runAsNonRoot', true],
] as const);

const pod = fc.record({
  os: fc.constantFrom('windows', 'linux', 'linux', 'unknown'),
  evidence: fc.constantFrom(
    'os',
    'os-capital',
    'selector',
    'beta-selector',
    'affinity',
    'image',
    'hostProcess',
    'runtimeClass',
  ),
  kind: fc.constantFrom('Deployment', 'Pod', 'CronJob'),
  windowsImage: fc.constantFrom(...WINDOWS_IMAGES),
  linuxImage: fc.constantFrom(...LINUX_IMAGES),
  linuxPinned: fc.boolean(),
  podSecurity,
  containerSecurity,
  hostPID: fc.boolean(),
  shareProcessNamespace: fc.boolean(),
  hostNetwork: fc.boolean(),
  /** `os: {name: ""}` where nothing else sets spec.os: refused by the API server, left to the user by fix. */
  emptyOs: fc.boolean(),
  hostPort: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  tolerate: fc.boolean(),
  /** Fields written as null (`nodeSelector:` with nothing after it), which fix must fill, not trip over. */
  nulls: fc.subarray(['nodeSelector', 'tolerations', 'securityContext'] as const),
  extraForbidden: fc.subarray(['sysctls', 'hostIPC', 'hostUsers'] as const),
  second: fc.boolean(),
  init: fc.boolean(),
  /** A Linux-only init image in a Windows pod (mixed): the pod is still Windows, the init image is its problem. */
  initImage: fc.constantFrom('same', 'busybox:1.36'),
  /** Share the first container's securityContext with the others: by alias, by merge key, or not at all. */
  share: fc.constantFrom('none', 'none', 'alias', 'merge'),
});
type Pod = typeof pod extends fc.Arbitrary<infer T> ? T : never;

function podSpec(p: Pod): Rec {
  const spec: Rec = {};
  const windows = p.os === 'windows';
  if (windows && p.evidence === 'os') spec.os = { name: 'windows' };
  if (windows && p.evidence === 'os-capital') spec.os = { name: 'Windows' };
  if (windows && p.evidence === 'selector') spec.nodeSelector = { 'kubernetes.io/os': 'windows' };
  if (windows && p.evidence === 'beta-selector') spec.nodeSelector = { 'beta.kubernetes.io/os': 'windows' };
  if (windows && p.evidence === 'runtimeClass') spec.runtimeClassName = 'windows-2022';
  if (p.os === 'linux' && p.linuxPinned) spec.nodeSelector = { 'kubernetes.io/os': 'linux' };
  if (windows && p.evidence === 'affinity') {
    spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] }],
        },
      },
    };
  }
  const hostProcess = windows && p.evidence === 'hostProcess';
  const sc: Rec = Object.fromEntries(p.podSecurity);
  if (hostProcess) sc.windowsOptions = { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' };
  // Any pod may ask for the host network: the API server then holds every one's host ports to its container ports.
  if (p.hostNetwork) spec.hostNetwork = true;
  if (p.emptyOs && spec.os === undefined) spec.os = { name: '' };
  if (Object.keys(sc).length > 0) spec.securityContext = sc;
  if (p.hostPID) spec.hostPID = true;
  if (p.shareProcessNamespace) spec.shareProcessNamespace = false;
  if (windows && p.extraForbidden.includes('hostIPC')) spec.hostIPC = true;
  if (windows && p.extraForbidden.includes('hostUsers')) spec.hostUsers = false;
  if (windows && p.extraForbidden.includes('sysctls')) {
    spec.securityContext = {
      ...(spec.securityContext as Rec | undefined),
      sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
    };
  }
  const image = windows ? p.windowsImage : p.os === 'linux' ? p.linuxImage : 'registry.example.com/team/app:3.2.1';
  const first: Rec = { name: 'app', image };
  if (p.containerSecurity.length > 0) first.securityContext = Object.fromEntries(p.containerSecurity);
  if (p.hostPort !== undefined) first.ports = [{ containerPort: 8080, hostPort: p.hostPort }];
  spec.containers = [first];
  if (p.second) {
    const second: Rec = { name: 'sidecar', image };
    if (first.securityContext !== undefined && p.share === 'alias') second.securityContext = first.securityContext;
    (spec.containers as Rec[]).push(second);
  }
  if (p.init) {
    const init: Rec = { name: 'init', image: p.initImage === 'same' ? image : p.initImage };
    if (first.securityContext !== undefined && p.share === 'alias') init.securityContext = first.securityContext;
    spec.initContainers = [init];
  }
  if (p.tolerate) spec.tolerations = [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }];
  for (const field of p.nulls) if (spec[field] === undefined) spec[field] = null;
  return spec;
}

function objectFor(p: Pod, name: string): Rec {
  const labels = { app: name };
  const spec = podSpec(p);
  switch (p.kind) {
    case 'Pod':
      return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec };
    case 'CronJob':
      return {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name },
        spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { metadata: { labels }, spec } } } },
      };
    default:
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, labels },
        spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec } },
      };
  }
}

const entry = fc.oneof(
  { weight: 8, arbitrary: pod.map((p) => ({ pod: p as Pod | undefined })) },
  { weight: 1, arbitrary: fc.constant({ pod: undefined as Pod | undefined }) },
);

const file = fc.record({
  /** Documents, each one object or a v1 List of several (whose items may share anchors). */
  documents: fc.array(
    fc.record({
      entries: fc.array(entry, { minLength: 1, maxLength: 3 }),
      list: fc.boolean(),
      shareAcross: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  style: fc.constantFrom('block', 'block', 'block-indented', 'flow', 'json', 'json-line'),
  crlf: fc.boolean(),
  bom: fc.boolean(),
});
type File = typeof file extends fc.Arbitrary<infer T> ? T : never;

const options = fc.record({
  cloud: fc.option(fc.constantFrom('eks' as const, 'aks' as const, 'gke' as const), { nil: undefined }),
  windowsRelease: fc.option(fc.constantFrom('2019' as const, '2022' as const), { nil: undefined }),
  pinLinux: fc.boolean(),
  tolerate: fc.boolean(),
});

/** The RuntimeClass pods with `runtimeClass` evidence name (in the first List, or missing from the set). */
const RUNTIME_CLASS: Rec = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'windows-2022' },
  handler: 'runhcs-wcow-process',
  scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' } },
};

interface Generated {
  readonly text: string;
  /** Per object, in load order: its name and whether it was generated as a Linux pod. */
  readonly objects: readonly { name: string; linux: boolean }[];
  /** Per document, whether it holds a Windows or unknown-OS pod (Linux-only documents must keep their bytes). */
  readonly docs: readonly { text: string; linuxOnly: boolean }[];
}

/** Replaces each later container's securityContext with `{<<: *anchor, runAsNonRoot: true}`. */
function mergeShared(doc: Document, paths: (string | number)[][]): void {
  const firstPath = paths[0];
  const anchor = doc.getIn(firstPath, true) as Node | undefined;
  if (!isMap(anchor)) return;
  for (const path of paths.slice(1)) {
    const alias = doc.createAlias(anchor, 'base');
    const map = doc.createNode({ runAsNonRoot: true }) as ReturnType<typeof doc.createNode>;
    if (!isMap(map)) return;
    map.items.unshift(doc.createPair('<<', alias));
    doc.setIn(path, map);
  }
}

function render(input: File): Generated {
  // JSON cannot hold several documents in one file: such files are one document.
  const json = input.style === 'json' || input.style === 'json-line';
  const f = json ? { ...input, documents: input.documents.slice(0, 1) } : input;
  const objects: { name: string; linux: boolean }[] = [];
  const docs: { text: string; linuxOnly: boolean }[] = [];
  let n = 0;
  const eol = f.crlf ? '\r\n' : '\n';
  f.documents.forEach((d, index) => {
    const items: { obj: Rec; pod: Pod | undefined }[] = d.entries.map(({ pod: p }) => {
      const name = `obj-${n++}`;
      objects.push({ name, linux: p?.os === 'linux' });
      return p === undefined
        ? { obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value' } }, pod: p }
        : { obj: objectFor(p, name), pod: p };
    });
    // In a List, later items may reuse the first pod's securityContext object (anchors across objects).
    // Only between pods of one kind of OS: a HostProcess securityContext would make a Linux pod a Windows one.
    if (d.list && d.shareAcross) {
      const osClass = (p: Pod | undefined) =>
        p ? `${p.os}|${p.os === 'windows' && p.evidence === 'hostProcess'}` : '';
      const first = items.find((i) => i.pod !== undefined);
      const shared = first ? podSpecOf(first.obj)?.securityContext : undefined;
      for (const i of items) {
        const spec = podSpecOf(i.obj);
        if (shared !== undefined && spec && i !== first && osClass(i.pod) === osClass(first?.pod)) {
          spec.securityContext = shared;
        }
      }
    }
    if (items.some((i) => i.pod?.os === 'windows' && i.pod.evidence === 'runtimeClass') && index === 0) {
      items.push({ obj: RUNTIME_CLASS, pod: undefined });
      objects.push({ name: 'windows-2022', linux: false });
    }
    const value = d.list ? { apiVersion: 'v1', kind: 'List', items: items.map((i) => i.obj) } : items[0].obj;
    const linuxOnly = items.every((i) => i.pod === undefined || i.pod.os === 'linux');
    let body: string;
    if (f.style === 'json') body = `${JSON.stringify(value, null, 2)}\n`;
    else if (f.style === 'json-line') body = `${JSON.stringify(value)}\n`;
    else {
      const doc = new Document(value, { merge: true });
      items.forEach((i, k) => {
        if (i.pod?.share !== 'merge') return;
        const base: (string | number)[] = d.list ? ['items', k] : [];
        const specPath =
          i.pod.kind === 'Pod'
            ? ['spec']
            : i.pod.kind === 'CronJob'
              ? ['spec', 'jobTemplate', 'spec', 'template', 'spec']
              : ['spec', 'template', 'spec'];
        const paths: (string | number)[][] = [[...base, ...specPath, 'containers', 0, 'securityContext']];
        if (i.pod.second) paths.push([...base, ...specPath, 'containers', 1, 'securityContext']);
        if (i.pod.init) paths.push([...base, ...specPath, 'initContainers', 0, 'securityContext']);
        if (paths.length > 1) mergeShared(doc, paths);
      });
      body = `# document ${index}\n${doc.toString({
        indentSeq: f.style === 'block-indented',
        ...(f.style === 'flow' ? { collectionStyle: 'flow' as const } : {}),
      })}`;
    }
    docs.push({ text: `${index > 0 ? '---\n' : ''}${body}`.replace(/\n/g, eol), linuxOnly });
  });
  const text = docs.map((d) => d.text).join('');
  return { text: f.bom ? `\uFEFF${text}` : text, objects, docs };
}

// --- comparison -----------------------------------------------------------------------------------------------

/** Paths (as segment arrays) where two plain values differ. */
function differences(a: unknown, b: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  if (a === b) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) differences(a[i], b[i], [...path, i], out);
    return out;
  }
  if (isRec(a) && isRec(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], [...path, k], out);
    return out;
  }
  out.push(path);
  return out;
}

/** `spec.template.spec.nodeSelector[kubernetes.io/os]` as segments. */
function segments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[2] !== undefined) out.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
    else out.push(m[1]);
  }
  return out;
}

/** Whether one path is a prefix of the other (a change at either covers the difference). */
function related(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

function nameOf(obj: unknown): string {
  return isRec(obj) && isRec(obj.metadata) ? String(obj.metadata.name) : '';
}

function check(
  g: Generated,
  o: { cloud?: 'eks' | 'aks' | 'gke'; windowsRelease?: '2019' | '2022'; pinLinux: boolean; tolerate: boolean },
) {
  const opts: FixOptions = {
    ...(o.cloud !== undefined ? { cloud: o.cloud } : {}),
    ...(o.windowsRelease !== undefined ? { windowsRelease: o.windowsRelease } : {}),
    pinLinux: o.pinLinux,
    tolerations: o.tolerate ? [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] : [],
  };
  stats.files++;
  if (g.text.includes('&')) stats.anchors++;
  if (g.text.includes('<<')) stats.merges++;
  let result: FixResult;
  try {
    result = fixManifests(g.text, opts);
  } catch (e) {
    throw new Error(`fixManifests threw on well-formed YAML: ${String(e)}`);
  }
  stats.objects += g.objects.length;
  if (result.changes.length > 0) stats.changed++;
  if (result.refused.length > 0) stats.refused++;
  const before = loadManifests(g.text);
  const after = loadManifests(result.text);
  expect(after).toHaveLength(before.length);

  before.forEach((objBefore, i) => {
    const name = nameOf(objBefore);
    const objAfter = after[i];
    const linux = g.objects.find((x) => x.name === name)?.linux === true;
    const changes = result.changes.filter((c) => c.resource.name === name);
    const diffs = differences(objBefore, objAfter);
    // Every difference is covered by a change reported for this object.
    for (const d of diffs) {
      const covered = changes.some((c) => related(segments(c.path), d));
      if (!covered) throw new Error(`${name}: ${d.join('.')} changed with no change reported for it`);
    }
    if (linux) {
      // Linux objects: at most the Linux selector, and never judged Windows.
      for (const c of changes) expect(c.path).toMatch(/nodeSelector\[kubernetes\.io\/os\]$/);
      for (const c of changes) expect(c.value).toBe('linux');
      const wrong = result.diagnostics.filter(
        (d) =>
          d.resource.name === name &&
          ['image-sac', 'windows-node-selector-missing', 'windows-forbidden-field'].includes(d.ruleId),
      );
      expect(wrong).toEqual([]);
    }
    // Never a new rejection; every rejection left is reported as an error for the object.
    if (rejections(objBefore).length === 0) expect(rejections(objAfter)).toEqual([]);
    if (rejections(objAfter).length > 0) {
      expect(result.diagnostics.some((d) => d.resource.name === name && d.severity === 'error')).toBe(true);
    }
    // The refusals of any pod, whatever its OS, each under its rule (issue 36: an empty os.name with a host port).
    const errorsOf = (ruleId: string) =>
      result.diagnostics.some((d) => d.resource.name === name && d.ruleId === ruleId && d.severity === 'error');
    for (const [rejection, ruleId] of ANY_POD_REJECTIONS) {
      if (rejections(objAfter).includes(rejection)) expect([name, errorsOf(ruleId)]).toEqual([name, true]);
    }
  });

  // No settled finding left, unless the fix says why it refused it.
  const taints = [...(o.cloud === 'gke' ? ['node.kubernetes.io/os'] : []), ...(o.tolerate ? ['os'] : [])];
  const left = result.diagnostics.filter(
    (d) =>
      FIXERS.has(d.ruleId) &&
      !(d.ruleId === 'windows-toleration-missing' && taints.length === 0) &&
      !(d.ruleId === 'linux-node-selector-missing' && !o.pinLinux) &&
      // Reported, never fixed: an empty os.name (which OS?) and the host ports of a pod not known to be Windows.
      !(d.ruleId === 'windows-os-name' && d.messageId === 'empty') &&
      !(d.ruleId === 'windows-host-port' && d.messageId === 'not-windows') &&
      !result.refused.some((r) => r.resource.name === d.resource.name && (r.ruleId === d.ruleId || r.path === d.path)),
  );
  expect(left.map((d) => `${d.resource.name} ${d.ruleId} ${d.path}`)).toEqual([]);

  // Read with a yaml node tree for the edited documents only, as with one for every document (fast-read.test.ts).
  expect(fixManifestSet([{ text: g.text }], opts)).toEqual(fixManifestSet([{ text: g.text }], opts, { fast: false }));

  // Idempotent.
  const again = fixManifests(result.text, opts);
  expect(again.changes).toEqual([]);
  expect(again.text).toBe(result.text);

  // Bytes: unchanged documents as they were, the BOM and the line endings kept.
  if (result.changes.length === 0) expect(result.text).toBe(g.text);
  for (const d of g.docs) {
    const changedHere = result.changes.some(
      (c) =>
        d.text.includes(`name: ${c.resource.name}`) ||
        d.text.includes(`"name":"${c.resource.name}"`) ||
        d.text.includes(`"name": "${c.resource.name}"`),
    );
    if (!changedHere) expect(result.text).toContain(d.text);
  }
  expect(result.text.startsWith('\uFEFF')).toBe(g.text.startsWith('\uFEFF'));
  if (g.text.includes('\r\n')) expect(/[^\r]\n/.test(result.text)).toBe(false);
  // Lines: only those a reported change explains differ; every other line keeps its bytes.
  expect(unexplainedLines(g.text, result.text, result.changes)).toEqual([]);
}

/** What the run covered, printed with FIX_PROPERTY_STATS=1. */
const stats = { files: 0, objects: 0, anchors: 0, merges: 0, changed: 0, refused: 0 };
afterAll(() => {
  if (process.env.FIX_PROPERTY_STATS) console.log(stats);
});

describe('fix never harms', () => {
  test('on generated manifest files', () => {
    fc.assert(
      fc.property(file, options, (f, o) => check(render(f), o)),
      propertyParameters(),
    );
  });

  test('k8s-windows fix - prints what fixManifests gives, byte for byte (BOM and line endings included)', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        const g = render(f);
        const r = await cli(['fix', '--allow-empty', '-'], { stdin: g.text });
        expect(r.stdout).toBe(fixManifests(g.text).text);
      }),
      // A tenth of the files: each one runs the CLI, whose output the first property has already checked.
      propertyParameters(DEFAULT_PROPERTY_RUNS / 10),
    );
  });
});
