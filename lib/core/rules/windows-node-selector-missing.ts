/**
 * windows-node-selector-missing: `spec.os.name` does not steer the scheduler; only a `kubernetes.io/os: windows`
 * selector (or required affinity) keeps a Windows pod off Linux nodes
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#ensuring-os-specific-workloads-land-on-the-appropriate-container-host).
 */
import { OS_LABEL } from '../kube';
import { GENERIC_LABELS } from '../model/pod';
import { affinityExcludesWindows, selectOs, selectsOs, unknownRuntimeClass } from '../model/pod-scheduling';
import { celString, celStringList, type RuleCel } from './cel';
import { celTagBuild } from './cel-parts';
import { windowsNamePatterns } from '../images';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

/** The pod selects Windows nodes, by selector or (with no OS selector) by required affinity. */
const SELECTS_WINDOWS =
  "variables.selectedOs == 'windows' || (variables.selectedOs == '' && variables.affinityOs == 'windows')";
/** A RuntimeClass the policy cannot see may carry the selector (lint's unknownRuntimeClass). */
const RUNTIME_CLASS_MAY_SELECT = "variables.selectedOs == '' && has(variables.spec.runtimeClassName)";
const BY_POOL = "variables.selectedOs == '' && variables.nsm_poolSelector != ''";
const FIX = `' Add nodeSelector { ${OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).'`;
/** The fix of a pod judged Windows by an image's name only: the name is not proof, so either OS may be right. */
const NAME_FIX = `If the image is a Windows one, add nodeSelector { ${OS_LABEL}: windows } (and spec.os.name: windows); if it is a Linux one, add nodeSelector { ${OS_LABEL}: linux }.`;

export default defineRule({
  meta: {
    id: 'windows-node-selector-missing',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary: 'A Windows pod that does not select kubernetes.io/os=windows nodes.',
    rationale:
      'spec.os.name does not steer the scheduler: without the selector the pod can land on a Linux node, where it cannot run.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'The pod can land on a Linux node, where it never starts, or selects Linux outright.',
    fixable:
      "Adds nodeSelector kubernetes.io/os: windows when the pod selects no OS (a contradicting selector is left to you, and so is a pod only an image's name says is Windows).",
    cases: [
      {
        name: 'pool-selector',
        severity: 'info',
        when: 'The pod selects nodes by a pool or role label (agentpool, eks.amazonaws.com/nodegroup, cloud.google.com/gke-nodepool…) but not by OS: that label may select only Windows nodes, so it schedules.',
      },
      {
        name: 'pool-selector-eks',
        severity: 'warning',
        when: "The same with cloud eks: the pod schedules, but EKS's VPC resource controller reads the kubernetes.io/os nodeSelector to give Windows pods an IP.",
      },
      {
        name: 'image-name-build',
        severity: 'warning',
        when: "Nothing else says the pod's OS, and an image's repository name names Windows and a build (contoso/iis-windows-ltsc2019, fabrikam/sql-windows-1809, or a Windows word with a build tag, acme/app-windows:1809): most likely a Windows image, but a name is not proof, so not an error.",
      },
      {
        name: 'image-name',
        severity: 'info',
        when: "Nothing else says the pod's OS, and an image's repository name holds a Windows word but no build (acme/windows-agent): Linux images that build, emulate or manage Windows are named so too (names with a Linux word, such as alpine, mingw or operator, are not read).",
      },
    ],
  },
  messages: {
    'affinity-excludes': {
      description: 'A required node affinity that allows no Windows node.',
      message:
        'This pod is Windows ({evidence}) but its required node affinity allows {value}: it can never be scheduled on a Windows node.',
      fix: 'Make the affinity require {OS_LABEL} In [windows], or remove the OS term and keep nodeSelector { {OS_LABEL}: windows }.',
    },
    'other-os': {
      description: 'A nodeSelector that selects nodes of another OS.',
      message: 'This pod is Windows ({evidence}) but selects {label}={os} nodes, where it cannot run.',
      fix: 'Add nodeSelector { {OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).',
    },
    'pool-only': {
      description: 'A nodeSelector on a node-pool label but not on kubernetes.io/os.',
      message:
        'This pod is Windows ({evidence}) and selects nodes by {poolSelector} but not by {OS_LABEL}: unless that label selects only Windows nodes it can land on a Linux node.',
      fix: 'Add nodeSelector { {OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).',
    },
    'no-selector': {
      description: 'No kubernetes.io/os=windows selector at all.',
      message:
        'This pod is Windows ({evidence}) but does not select {OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.',
      fix: 'Add nodeSelector { {OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).',
    },
    'image-name': {
      description: "No OS selector, and nothing but an image's repository name says the pod is Windows.",
      message:
        "This pod selects no OS, and {path2}.image is '{image}': {evidence}. If it is a Windows image, the pod can land on a Linux node and never start.",
      fix: '{fix}',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows) {
        const named = p.windowsByName;
        // Only a pod that says nothing else about its OS or pool (a RuntimeClass may carry a selector).
        if (named === undefined || p.runtimeClassName !== undefined || p.poolSelector !== undefined) return;
        report({
          path: join(p.path, 'nodeSelector'),
          messageId: 'image-name',
          data: { path2: named.path, image: named.image, evidence: named.reading.evidence, fix: NAME_FIX },
          case: named.reading.build.kind !== 'unknown' ? 'image-name-build' : 'image-name',
        });
        return;
      }
      if (affinityExcludesWindows(p)) {
        const allowed = [...(p.osAllowedByAffinity ?? [])];
        report({
          path: join(p.path, 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'),
          messageId: 'affinity-excludes',
          data: {
            evidence: p.evidence,
            value: allowed.length > 0 ? `only ${OS_LABEL} ${allowed.join(', ')}` : `no ${OS_LABEL} value`,
            OS_LABEL,
          },
        });
        return;
      }
      const selectsOther = p.osBySelector !== undefined && p.osBySelector !== 'windows';
      if (!selectsOther && selectsOs(p, 'windows')) return;
      if (unknownRuntimeClass(p) && p.osBySelector === undefined) return;
      const byPool = p.osBySelector === undefined && p.poolSelector !== undefined;
      const at = join(p.path, 'nodeSelector');
      if (p.osBySelector !== undefined) {
        const label = p.osSelectorLabel ?? OS_LABEL;
        report({
          path: at,
          messageId: 'other-os',
          data: { evidence: p.evidence, label, os: p.osBySelector, OS_LABEL },
        });
        return;
      }
      const data = { evidence: p.evidence, poolSelector: p.poolSelector, OS_LABEL };
      if (byPool) {
        report({
          path: at,
          messageId: 'pool-only',
          data,
          case: options.cloud === 'eks' ? 'pool-selector-eks' : 'pool-selector',
        });
        return;
      }
      report({ path: at, messageId: 'no-selector', data });
    },
  },
  // Only where the pod selects no OS at all: a contradicting selector or affinity is the user's to settle.
  // Never on an image's name alone (the image may be a Linux one).
  fix: ({ pod }) =>
    pod.windows && pod.osBySelector === undefined && (pod.osByAffinity === undefined || pod.osByAffinity === 'windows')
      ? [selectOs(pod, 'windows')]
      : [],
  cel: () => celForm(),
});

/** The CEL form (built when policies are generated). */
function celForm(): RuleCel<'image-name-build' | 'image-name' | 'pool-selector' | 'pool-selector-eks'> {
  const names = windowsNamePatterns();
  // Any form in which a repository path names a build.
  const nameBuild = names.builds.map((b) => `(?:${b.pattern})`).join('|');
  return {
    scope: 'pod',
    variables: [
      {
        // Required affinity allows no Windows node (every term restricts the OS, none allows windows).
        name: 'nsm_excludesWindows',
        expression:
          "variables.osTerms.size() > 0 && variables.osTerms.all(t, t.size() > 0) && !variables.osAllowed.exists(l, 'windows' in l)",
      },
      {
        // The first selector or required-affinity label that is not generic: a likely pool selector.
        name: 'nsm_poolSelector',
        expression: `has(variables.spec.nodeSelector) && variables.spec.nodeSelector.exists(k, !(k in ${celStringList([...GENERIC_LABELS])})) ? variables.spec.nodeSelector.filter(k, !(k in ${celStringList([...GENERIC_LABELS])}))[0] : has(variables.spec.affinity) && has(variables.spec.affinity.nodeAffinity) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.exists(t, has(t.matchExpressions) && t.matchExpressions.exists(e, !(e.key in ${celStringList([...GENERIC_LABELS])}))) ? variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.filter(t, has(t.matchExpressions) && t.matchExpressions.exists(e, !(e.key in ${celStringList([...GENERIC_LABELS])})))[0].matchExpressions.filter(e, !(e.key in ${celStringList([...GENERIC_LABELS])}))[0].key : ''`,
      },
      {
        // The images whose repository name says Windows (readWindowsName), as imageRefs rows.
        name: 'nsm_named',
        expression: `variables.imageRefs.filter(r, !r[1].matches(${celString(names.linuxRepository)}) && !r[1].matches(${celString(names.linuxWord)}) && !r[2].matches(${celString(names.linuxWord)}) && (r[1].matches(${celString(names.word)}) || r[1].matches(${celString(nameBuild)})))`,
      },
      {
        // Those whose name (or, the name saying Windows, whose tag) also names a build.
        name: 'nsm_namedBuild',
        expression: `variables.nsm_named.filter(r, r[1].matches(${celString(nameBuild)}) || ${celTagBuild('r[2]')} != '')`,
      },
      {
        // Nothing but an image's name says the pod's OS (analyzePod's windowsByName), and no RuntimeClass or pool
        // label may select it.
        name: 'nsm_byName',
        expression: `!variables.windows && variables.declaredOs == '' && variables.selectedOs == '' && variables.affinityOs == '' && !has(variables.spec.runtimeClassName) && variables.nsm_poolSelector == '' && variables.nsm_named.size() > 0`,
      },
    ],
    validations: [
      {
        expression: '!variables.windows || !variables.nsm_excludesWindows',
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + ') but its required node affinity allows ' + (variables.osAllowed.exists(l, l.size() > 0) ? 'only ${OS_LABEL} ' + variables.osAllowed.filter(l, l.size() > 0)[0].join(', ') : 'no ${OS_LABEL} value') + ': it can never be scheduled on a Windows node. Make the affinity require ${OS_LABEL} In [windows], or remove the OS term and keep nodeSelector { ${OS_LABEL}: windows }.'`,
      },
      {
        expression: `!variables.windows || variables.nsm_excludesWindows || ${SELECTS_WINDOWS} || ${RUNTIME_CLASS_MAY_SELECT} || ${BY_POOL}`,
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + (variables.selectedOs != '' ? ') but selects ' + variables.selectedOsLabel + '=' + variables.selectedOs + ' nodes, where it cannot run.' : ') but does not select ${OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.') + ${FIX}`,
      },
      ...(['pool-selector', 'pool-selector-eks'] as const).map((c) => ({
        case: c,
        clouds: c === 'pool-selector-eks' ? (['eks'] as const) : (['none', 'aks', 'gke'] as const),
        expression: `!variables.windows || variables.nsm_excludesWindows || ${SELECTS_WINDOWS} || ${RUNTIME_CLASS_MAY_SELECT} || !(${BY_POOL})`,
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + ') and selects nodes by ' + variables.nsm_poolSelector + ' but not by ${OS_LABEL}: unless that label selects only Windows nodes it can land on a Linux node.' + ${FIX}`,
      })),
      ...(['image-name-build', 'image-name'] as const).map((c) => {
        const list = c === 'image-name-build' ? 'variables.nsm_namedBuild' : 'variables.nsm_named';
        return {
          case: c,
          expression: `!variables.nsm_byName || variables.nsm_namedBuild.size() ${c === 'image-name-build' ? '==' : '>'} 0`,
          messageExpression: `'windows-node-selector-missing: This pod selects no OS, and container ' + ${list}[0][3] + ' image is \\'' + ${list}[0][4] + '\\': the image repository name \\'' + ${list}[0][1] + '\\' names Windows${c === 'image-name-build' ? ' and a build' : ''}. If it is a Windows image, the pod can land on a Linux node and never start. ' + ${celString(NAME_FIX)}`,
        };
      }),
    ],
    limits:
      'A RuntimeClass the pod names may select Windows nodes: the policy, which sees only the pod, accepts a pod that names one and selects no OS. With --resolve-images lint ignores the name of an image its registry publishes without a Windows entry; the policy reads the name alone.',
  };
}
