/**
 * The CEL variables every pod policy declares before its rules' own (POLICIES.md "The prelude variables"): what
 * lib/core/model/pod.ts `analyzePod` works out about a pod, as far as the object alone shows it. Rule expressions
 * read them as `variables.<name>`. A policy exists in three shapes that differ only in where the pod spec is, so
 * only the first variables differ; the rest are shared.
 *
 * Plain CEL that both the API server and @bufbuild/cel accept: `has()` before every optional field, no `.?`, the
 * strings extension (`split`, `trim`, `lowerAscii`, `indexOf`, `lastIndexOf`, `substring`) where needed. A list
 * literal that mixes a field with strings wraps the field in `string()`: the API server compiles a new policy with
 * `object` untyped (`dyn`) and refuses a literal whose items differ in type (rules/cel-parts.ts says more).
 */
import { isRegistryHost, placeholderPattern, referencePattern, slotReferencePattern } from '../image-reference';
import { windowsImagePatterns } from '../images';
import { AKS_OS_SKU_LABEL, BETA_OS_LABEL, OS_LABEL, WINDOWS_BUILD_LABEL } from '../kube';
import { releaseInfo, WINDOWS_RELEASES } from '../releases';
import { SUPPRESS_ANNOTATION_PREFIX, WAIVE_ANNOTATION } from '../model/types';
import { buildIs, celMap, celString, celStringList, type CelVariable } from '../rules/cel';

export { buildIs, celMap, celString, celStringList };

/** Where a policy finds the pod spec: a Pod, a workload's pod template, a CronJob's job template. */
/** How `selectedOs` and `affinityOs` read an OS value written empty (which lint reads as a non-Windows OS). */
export const EMPTY_OS = '(empty)';

export type PolicyShape = 'pod' | 'workload' | 'cronjob';

export const POLICY_SHAPES: readonly PolicyShape[] = ['pod', 'workload', 'cronjob'];

/** The kinds a shape matches, by API group and version (matchConstraints.resourceRules). */
export interface ShapeResources {
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** Plural resource names, as resourceRules name them. */
  readonly resources: readonly string[];
  /** The kinds, for the tests' matching. */
  readonly kinds: readonly string[];
}

/** What each shape matches: Pods; the workloads with a pod template; CronJobs. */
export const SHAPE_RESOURCES: Readonly<Record<PolicyShape, readonly ShapeResources[]>> = {
  pod: [{ apiGroup: '', apiVersion: 'v1', resources: ['pods'], kinds: ['Pod'] }],
  workload: [
    {
      apiGroup: 'apps',
      apiVersion: 'v1',
      resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'],
      kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'],
    },
    { apiGroup: 'batch', apiVersion: 'v1', resources: ['jobs'], kinds: ['Job'] },
    { apiGroup: '', apiVersion: 'v1', resources: ['replicationcontrollers'], kinds: ['ReplicationController'] },
  ],
  cronjob: [{ apiGroup: 'batch', apiVersion: 'v1', resources: ['cronjobs'], kinds: ['CronJob'] }],
};

/** `has(a.b) && has(a.b.c)`… for a dotted path below a root that exists. */
function hasChain(root: string, fields: readonly string[]): string {
  return fields.map((_, i) => `has(${[root, ...fields.slice(0, i + 1)].join('.')})`).join(' && ');
}

/**
 * The first variables of each shape: where the pod spec and the pod's metadata are. A template's metadata may be
 * absent: `dyn()` on both branches lets the API server's type checker accept an ObjectMeta or an empty map there.
 */
function shapeVariables(shape: PolicyShape): CelVariable[] {
  switch (shape) {
    case 'pod':
      return [
        { name: 'spec', expression: 'object.spec' },
        { name: 'podMeta', expression: 'object.metadata' },
        // The RuntimeClass the RuntimeClass admission plugin merged into this Pod (its scheduling.nodeSelector and
        // tolerations, before the policies run): a pin in the Pod's nodeSelector may have come from there.
        {
          name: 'runtimeClassMerged',
          expression: "has(object.spec.runtimeClassName) ? object.spec.runtimeClassName : ''",
        },
      ];
    case 'workload':
      return [
        { name: 'spec', expression: 'object.spec.template.spec' },
        {
          name: 'podMeta',
          expression: `${hasChain('object', ['spec', 'template', 'metadata'])} ? dyn(object.spec.template.metadata) : dyn({})`,
        },
        // The plugin merges a RuntimeClass into Pods only: a template's selector is its own.
        { name: 'runtimeClassMerged', expression: "''" },
      ];
    case 'cronjob':
      return [
        { name: 'spec', expression: 'object.spec.jobTemplate.spec.template.spec' },
        {
          name: 'podMeta',
          expression: `${hasChain('object', ['spec', 'jobTemplate', 'spec', 'template', 'metadata'])} ? dyn(object.spec.jobTemplate.spec.template.metadata) : dyn({})`,
        },
        { name: 'runtimeClassMerged', expression: "''" },
      ];
    default: {
      const never: never = shape;
      throw new Error(`unknown policy shape ${String(never)}`);
    }
  }
}

const OS_LABELS = [OS_LABEL, BETA_OS_LABEL];

/** The OS node-affinity operators lint reads (others say nothing about the OS). */
const OS_OPERATORS = ['In', 'NotIn', 'DoesNotExist'];

/** The lists of a waive annotation on `meta` (a metadata map), split and trimmed. */
function waiveList(meta: string): string {
  return `(has(${meta}.annotations) && ${celString(WAIVE_ANNOTATION)} in ${meta}.annotations ? ${meta}.annotations[${celString(WAIVE_ANNOTATION)}].split(',').map(w, w.trim()) : [])`;
}

/** The rule ids of `suppress.k8s-windows.io/<id>` annotations on `meta`. */
function suppressKeys(meta: string): string {
  const prefix = celString(SUPPRESS_ANNOTATION_PREFIX);
  return `(has(${meta}.annotations) ? ${meta}.annotations.filter(k, k.startsWith(${prefix})).map(k, k.substring(${SUPPRESS_ANNOTATION_PREFIX.length})) : [])`;
}

/**
 * Whether a host part names a registry (`isRegistryHost`: a dot, a colon, or `localhost`), as CEL on `h`. Checked
 * here against the TypeScript function so the two stay one rule.
 */
function registryHostExpression(h: string): string {
  if (!isRegistryHost('a.b') || !isRegistryHost('a:1') || !isRegistryHost('localhost') || isRegistryHost('a')) {
    throw new Error('isRegistryHost changed: update the prelude');
  }
  return `(${h}.contains('.') || ${h}.contains(':') || ${h} == 'localhost')`;
}

/** The annotations and suppressions of the object and its pod (after `podMeta`): every policy declares them. */
function suppressionVariables(): CelVariable[] {
  return [
    {
      name: 'annotations',
      expression: 'has(variables.podMeta.annotations) ? variables.podMeta.annotations : {}',
    },
    {
      // The rule ids suppressed on the object or its pod template: the legacy waive lists (`*` waives every rule)
      // and the object's own suppress annotations (the pod's are read from `annotations`).
      name: 'waived',
      expression: `${waiveList('object.metadata')} + ${waiveList('variables.podMeta')} + ${suppressKeys('object.metadata')}`,
    },
  ];
}

/** A required-affinity expression that pins one build: `windows-build In [one value]`. */
function buildIn(e: string): string {
  return `${e}.key == ${celString(WINDOWS_BUILD_LABEL)} && ${e}.operator == 'In' && has(${e}.values) && ${e}.values.size() == 1`;
}

/** The variables shared by every shape, after the shape's own: see POLICIES.md for each. */
function sharedVariables(): CelVariable[] {
  const images = windowsImagePatterns();
  const selector = (label: string) =>
    `has(variables.spec.nodeSelector) && ${celString(label)} in variables.spec.nodeSelector`;
  const selectorValue = (label: string) => `variables.spec.nodeSelector[${celString(label)}]`;
  // A value written empty still decides the OS (lint's osBySelector is ''): it reads as EMPTY, never as unset.
  const orEmpty = (value: string) => `(${value} == '' ? ${celString(EMPTY_OS)} : ${value})`;
  const hostProcessOf = (sc: string) =>
    `has(${sc}.securityContext) && has(${sc}.securityContext.windowsOptions) && has(${sc}.securityContext.windowsOptions.hostProcess)`;
  const allows = (e: string, o: string) =>
    `((${e}.operator == 'In' && has(${e}.values) && ${o} in ${e}.values) || (${e}.operator == 'NotIn' && ${o} in ['linux', 'windows'] && !(has(${e}.values) && ${o} in ${e}.values)))`;
  return [
    {
      // dyn(): the schemas name each list's item type by its path, so the two lists of Containers do not concatenate
      // typed; the API server types a variable holding objects as dyn anyway, and dyn here keeps every other
      // expression checkable with the variables inlined (test/apiserver-cel's inlinedErrors).
      name: 'containers',
      expression:
        '(has(variables.spec.containers) ? dyn(variables.spec.containers) : []) + (has(variables.spec.initContainers) ? dyn(variables.spec.initContainers) : [])',
    },
    {
      name: 'declaredOs',
      expression:
        "has(variables.spec.os) && has(variables.spec.os.name) && variables.spec.os.name in ['windows', 'linux'] ? variables.spec.os.name : ''",
    },
    {
      // The value as written (`Windows`, `foo`): any value decides, as lint's osBySelector; '' when none is set.
      name: 'selectedOs',
      expression: `${OS_LABELS.map((l) => `${selector(l)} ? ${orEmpty(selectorValue(l))} : `).join('')}${selector(AKS_OS_SKU_LABEL)} ? (${selectorValue(AKS_OS_SKU_LABEL)}.lowerAscii().startsWith('windows') ? 'windows' : 'linux') : ''`,
    },
    {
      // The label selectedOs comes from, for messages ('' when none).
      name: 'selectedOsLabel',
      expression: `${OS_LABELS.map((l) => `${selector(l)} ? ${celString(l)} : `).join('')}${selector(AKS_OS_SKU_LABEL)} ? ${celString(AKS_OS_SKU_LABEL)} : ''`,
    },
    {
      // Per required node-selector term, its expressions on an OS label with an operator that restricts the OS.
      name: 'osTerms',
      expression: `${hasChain('variables.spec', ['affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'])} && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) ? variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.map(t, has(t.matchExpressions) ? t.matchExpressions.filter(e, e.key in ${celStringList(OS_LABELS)} && e.operator in ${celStringList(OS_OPERATORS)}) : []) : []`,
    },
    {
      // The OS values each term allows (its expressions ANDed); meaningful when every term restricts the OS.
      name: 'osAllowed',
      expression: `variables.osTerms.all(t, t.size() > 0) ? variables.osTerms.map(t, (t.exists(e, e.operator == 'In') ? (has(t.filter(e, e.operator == 'In')[0].values) ? t.filter(e, e.operator == 'In')[0].values : []) : ['linux', 'windows']).filter(o, t.all(e, ${allows('e', 'o')}))) : []`,
    },
    {
      // The one OS required affinity allows (terms ORed), as lint's osByAffinity; '' when it allows several or
      // does not restrict the OS.
      name: 'affinityOs',
      expression: `variables.osTerms.size() > 0 && variables.osAllowed.exists(l, l.size() > 0) && variables.osAllowed.all(l, l.all(o, o == variables.osAllowed.filter(x, x.size() > 0)[0][0])) ? (variables.osAllowed.filter(x, x.size() > 0)[0][0] == '' ? ${celString(EMPTY_OS)} : variables.osAllowed.filter(x, x.size() > 0)[0][0]) : ''`,
    },
    {
      name: 'hostProcess',
      expression: `variables.containers.exists(c, ${hostProcessOf('c')} ? c.securityContext.windowsOptions.hostProcess : (${hostProcessOf('variables.spec')} && variables.spec.securityContext.windowsOptions.hostProcess))`,
    },
    {
      // Each container image that reads as a reference (parseImageReference: not a placeholder, or a placeholder for
      // the registry alone, which stands as the registry), as [registry,
      // repository, lower-cased tag, container name, image, 'true' when the container runs as HostProcess]: ordered
      // lists stand in for the records CEL cannot build.
      name: 'imageRefs',
      expression: `variables.containers.filter(c, has(c.image) && ((c.image.matches(${celString(referencePattern())}) && !c.image.matches(${celString(placeholderPattern())})) || (c.image.matches(${celString(slotReferencePattern())}) && c.image.substring(0, c.image.indexOf('/')).matches(${celString(placeholderPattern())}) && !c.image.substring(c.image.indexOf('/') + 1).matches(${celString(placeholderPattern())}))) && !(c.image.contains('@sha256:') && !c.image.matches('@sha256:[a-f0-9]{64}$'))).map(c, [c.image.split('@')[0], string(has(c.name) ? c.name : ''), string(c.image), (${hostProcessOf('c')} ? c.securityContext.windowsOptions.hostProcess : (${hostProcessOf('variables.spec')} && variables.spec.securityContext.windowsOptions.hostProcess)) ? 'true' : '']).map(n, n[0].lastIndexOf(':') > n[0].lastIndexOf('/') ? [n[0].substring(0, n[0].lastIndexOf(':')), n[0].substring(n[0].lastIndexOf(':') + 1).lowerAscii(), n[1], n[2], n[3]] : [n[0], '', n[1], n[2], n[3]]).map(r, r[0].indexOf('/') > 0 && (${registryHostExpression("r[0].substring(0, r[0].indexOf('/'))")} || r[0].substring(0, r[0].indexOf('/')).matches(${celString(placeholderPattern())})) ? [r[0].substring(0, r[0].indexOf('/')), r[0].substring(r[0].indexOf('/') + 1), r[1], r[2], r[3], r[4]] : ['', r[0], r[1], r[2], r[3], r[4]])`,
    },
    {
      // isWindowsImage: a Windows repository, a legacy Docker Hub one, a Windows word or a strong build in the tag.
      name: 'windowsImages',
      expression: `variables.imageRefs.filter(r, r[1].matches(${celString(images.repository)}) || ((r[0] == '' || r[0] in ${celStringList(images.dockerHubHosts)}) && r[1].matches(${celString(images.legacyRepository)})) || r[2].matches(${celString(images.tagWord)}) || r[2].matches(${celString(images.strongTag)}))`,
    },
    { name: 'windowsImage', expression: 'variables.windowsImages.size() > 0' },
    {
      // analyzePod's precedence; a RuntimeClass's handler needs the RuntimeClass, which the policy does not see.
      name: 'windows',
      expression:
        "variables.declaredOs != '' ? variables.declaredOs == 'windows' : variables.selectedOs != '' ? variables.selectedOs == 'windows' : variables.affinityOs != '' ? variables.affinityOs == 'windows' : variables.hostProcess || variables.windowsImage",
    },
    {
      // Why the pod counts as Windows, for messages (analyzePod's evidence; a container by name, not index).
      name: 'evidence',
      expression: `variables.declaredOs != '' ? 'spec.os.name is ' + variables.declaredOs : variables.selectedOs != '' ? 'it selects ' + variables.selectedOsLabel + '=' + variables.selectedOs + ' nodes' : variables.affinityOs != '' ? 'its node affinity requires ${OS_LABEL}=' + variables.affinityOs : variables.hostProcess ? 'it runs HostProcess containers' : variables.windowsImage ? "container '" + variables.windowsImages[0][3] + "' image '" + variables.windowsImages[0][4] + "' is a Windows image" : ''`,
    },
    {
      // The build every required affinity term pins with `windows-build In [one build]`, or ''.
      name: 'pinAffinityBuild',
      expression: `${hasChain('variables.spec', ['affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'])} && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.size() > 0 && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.all(t, has(t.matchExpressions) && t.matchExpressions.exists(e, ${buildIn('e')})) && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.all(t, t.matchExpressions.filter(e, ${buildIn('e')})[0].values[0] == variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions.filter(e, ${buildIn('e')})[0].values[0]) ? variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions.filter(e, ${buildIn('e')})[0].values[0] : ''`,
    },
    {
      // Where the pod pins a Windows build (analyzePod's order): 'selector' (nodeSelector
      // node.kubernetes.io/windows-build, whatever its value), 'affinity' (every required term In [one build]),
      // 'sku' (AKS's os-sku label naming a release), or ''. A RuntimeClass's pin is another object's.
      name: 'pinSource',
      expression: `${selector(WINDOWS_BUILD_LABEL)} ? 'selector' : variables.pinAffinityBuild != '' ? 'affinity' : ${selector(AKS_OS_SKU_LABEL)} && ${selectorValue(AKS_OS_SKU_LABEL)}.lowerAscii() in ${celMap(Object.fromEntries(WINDOWS_RELEASES.map((r) => [releaseInfo(r).aksOsSku.toLowerCase(), r])))} ? 'sku' : ''`,
    },
    {
      // The pinned build as written ('' for an AKS os-sku pin or none).
      name: 'pinBuild',
      expression: `variables.pinSource == 'selector' ? ${selectorValue(WINDOWS_BUILD_LABEL)} : variables.pinSource == 'affinity' ? variables.pinAffinityBuild : ''`,
    },
    {
      // The supported release the pin names ('2022'), or '' (none, an unknown or a retired build).
      name: 'pinRelease',
      expression: `variables.pinSource == 'sku' ? ${celMap(Object.fromEntries(WINDOWS_RELEASES.map((r) => [releaseInfo(r).aksOsSku.toLowerCase(), r])))}[${selectorValue(AKS_OS_SKU_LABEL)}.lowerAscii()] : ${WINDOWS_RELEASES.map((r) => `${buildIs('variables.pinBuild', releaseInfo(r).build)} ? ${celString(r)} : `).join('')}''`,
    },
    {
      // How the pod pins, for messages (lint's `via`).
      name: 'pinVia',
      expression: `variables.pinSource == 'selector' ? 'nodeSelector ${WINDOWS_BUILD_LABEL}=' + variables.pinBuild : variables.pinSource == 'affinity' ? 'node affinity ${WINDOWS_BUILD_LABEL} In [' + variables.pinBuild + ']' : variables.pinSource == 'sku' ? 'nodeSelector ${AKS_OS_SKU_LABEL}=' + ${selectorValue(AKS_OS_SKU_LABEL)} : ''`,
    },
  ];
}

/** The prelude of a pod policy of `shape`, in evaluation order. */
export function podPrelude(shape: PolicyShape): readonly CelVariable[] {
  return [...shapeVariables(shape), ...suppressionVariables(), ...sharedVariables()];
}

/** The prelude of a RuntimeClass policy: its metadata and suppressions. */
export function runtimeClassPrelude(): readonly CelVariable[] {
  return [{ name: 'podMeta', expression: 'object.metadata' }, ...suppressionVariables()];
}

/** What a RuntimeClass policy matches. */
export const RUNTIMECLASS_RESOURCES: readonly ShapeResources[] = [
  { apiGroup: 'node.k8s.io', apiVersion: 'v1', resources: ['runtimeclasses'], kinds: ['RuntimeClass'] },
];
