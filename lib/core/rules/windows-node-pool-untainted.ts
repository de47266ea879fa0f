/**
 * windows-node-pool-untainted: Kubernetes keeps Linux pods off Windows nodes only by taint or by their own selector
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations). A cloud rule: its check reads a
 * cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { WINDOWS_NODE_POOLS } from './cloud-resources';
import { defineRule } from './rule';
import { AKS_WINDOWS_TAINT, isWindowsAgentPool, parseTaintString } from '../cloud/aks-agent-pool';
import { checkGkeTaints, isPlainTaint, untaintedGkePoolWarnings, windowsNodeConfig } from '../cloud/gke-node-pool';
import { hasWindowsTaint, isKnown, isRepellingTaint, untaintedPoolIssue } from '../cloud/node-pools';
import { WINDOWS_TAINT, taintLiteral } from '../target';

export default defineRule({
  meta: {
    id: 'windows-node-pool-untainted',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: 'A Windows node pool without a NoSchedule or NoExecute taint.',
    rationale:
      'Linux pods that do not select kubernetes.io/os land on an untainted Windows node and fail to pull their images.',
    docs: 'https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations',
    severityReason: 'Only Linux pods without an OS selector are hurt; they sit in ImagePullBackOff.',
    cases: [
      {
        name: 'aks-component',
        severity: 'error',
        when: "The AKS WindowsNodePool component's taints: AKS taints no Windows node itself, and the component's nodeTarget promises workloads a pool Linux pods stay off, so it refuses rather than warns.",
      },
    ],
  },
  messages: {
    untainted: {
      description: 'A Windows node pool without a NoSchedule or NoExecute taint.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: WINDOWS_NODE_POOLS,
    run: {
      // GKE may taint Windows nodes itself (unverified): the component warns, as for a provider pool.
      'gke-pool-component': ({ taints }, _context, report) => {
        if (taints === undefined) return;
        for (const w of untaintedGkePoolWarnings(taints, 'taints')) {
          report({ path: w.path, messageId: 'untainted', data: { message: w.message, fix: w.fix } });
        }
      },
      // EKS components' warnings are about the pool as a whole: no path.
      'eks-pool-component': ({ taints }, _context, report) => {
        if (hasWindowsTaint(taints)) return;
        report({
          path: '',
          messageId: 'untainted',
          data: {
            message:
              'The Windows pool does not carry the taint os=windows:NoSchedule, so Linux pods without a kubernetes.io/os selector can be scheduled onto it and fail to pull their images.',
            fix: 'Keep the default taints, or add WINDOWS_TAINT to taints; workloads built from pool.nodeTarget tolerate it.',
          },
        });
      },
      // The component refuses (its case): its taints default to os=windows:NoSchedule, so none was given on purpose.
      'aks-pool-component': ({ taints }, _context, report) => {
        if (taints === undefined || taints.some(isRepellingTaint)) return;
        const issue = untaintedPoolIssue('taints', `${taintLiteral(WINDOWS_TAINT)} ('${AKS_WINDOWS_TAINT}')`);
        report({
          path: issue.path,
          messageId: 'untainted',
          data: { message: issue.message, fix: issue.fix },
          case: 'aks-component',
        });
      },
      // AKS does not taint Windows nodes itself (its docs recommend os=windows:NoSchedule).
      'aks-agent-pool': ({ osType, nodeTaints }, _context, report) => {
        if (!isWindowsAgentPool({ osType })) return;
        const taints: readonly unknown[] = Array.isArray(nodeTaints) ? nodeTaints : [];
        const allKnown =
          nodeTaints === undefined || nodeTaints === null || (Array.isArray(nodeTaints) && taints.every(isKnown));
        const parsed = taints.flatMap((t) => {
          const r = typeof t === 'string' ? parseTaintString(t) : undefined;
          return r?.ok ? [r.taint] : [];
        });
        if (!allKnown || parsed.length !== taints.length || parsed.some(isRepellingTaint)) return;
        const issue = untaintedPoolIssue('nodeTaints', `'${AKS_WINDOWS_TAINT}'`);
        report({ path: issue.path, messageId: 'untainted', data: { message: issue.message, fix: issue.fix } });
      },
      'gke-node-pool': (props, _context, report) => {
        const nodeConfig = windowsNodeConfig(props);
        if (nodeConfig === undefined) return;
        const taints = nodeConfig.taints;
        if (taints !== undefined && !(Array.isArray(taints) && taints.every(isPlainTaint))) return;
        const parsed = checkGkeTaints(taints ?? [], 'nodeConfig.taints').taints;
        for (const w of untaintedGkePoolWarnings(parsed, 'nodeConfig.taints')) {
          report({ path: w.path, messageId: 'untainted', data: { message: w.message, fix: w.fix } });
        }
      },
    },
  },
});
