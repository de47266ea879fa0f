/**
 * windows-release-support: a Windows release the cluster's Kubernetes version does not support. With
 * `options.cloud`, that cloud's gates and retirements at `options.date` (lib/core/facts/clouds.ts: AKS retired
 * Windows2019 on 2026-03-01 and ends Windows2022 after 1.36, EKS starts 2025 at 1.35); without it, the upstream GA
 * minor and the first retirement a cloud has announced
 * (https://learn.microsoft.com/azure/aks/upgrade-windows-os, https://kubernetes.io/docs/concepts/windows/intro/).
 */
import { checkCloudRelease, cloudReleaseGate } from '../cloud-gates';
import { upstreamListedSentence } from '../facts/support';
import { parseKubernetesMinor, releaseInfo } from '../releases';
import { releaseImages } from '../model/pod-images';
import { K8S_WINDOWS } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-release-support',
    family: 'images',
    defaultSeverity: 'warning',
    summary: 'A pod pinned to a Windows release that the Kubernetes version does not support.',
    rationale: `Upstream Kubernetes lists only ${upstreamListedSentence()}, a cloud refuses a release outside its Kubernetes versions or after retiring it, and each release has a first Kubernetes minor.`,
    docs: K8S_WINDOWS,
    severityReason: 'Pools of that release are refused or unsupported on that Kubernetes version.',
  },
  messages: {
    cloud: {
      description: 'A release the chosen cloud does not run on the Kubernetes version.',
      message: 'This pod needs {displayName} nodes: {message}',
      fix: '{fix}',
    },
    retired: {
      description: 'Windows Server 2019 after the Kubernetes versions that support it.',
      message:
        'This pod needs {displayName} nodes, which Kubernetes {version} no longer supports (AKS refuses them from 1.{retiredAfter}; upstream no longer lists them).',
      fix: 'Move the workload to a supported release: its nodes and images (ltsc2022 / ltsc2025).',
    },
    'too-new': {
      description: 'A release newer than the Kubernetes version supports.',
      message:
        'This pod needs {displayName} nodes, which Kubernetes supports from 1.{firstKubernetesMinor}, not {version}.',
      fix: 'Upgrade the cluster to 1.{firstKubernetesMinor} or later, or use an older Windows release.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || typeof options.kubernetesVersion !== 'string') return;
      const minor = parseKubernetesMinor(options.kubernetesVersion);
      if (minor === undefined) return;
      const fromImage = p.pin === undefined ? releaseImages(p)[0] : undefined;
      const target = p.pin && p.pin.path !== '' ? p.pin : fromImage;
      if (!target) return;
      const info = releaseInfo(target.release);
      const version = `1.${minor}`;
      if (options.cloud !== undefined) {
        const violation = checkCloudRelease(options.cloud, target.release, options.kubernetesVersion, options.date);
        if (violation) {
          report({
            path: target.path,
            messageId: 'cloud',
            data: { displayName: info.displayName, message: violation.message, fix: violation.fix },
          });
        }
        return;
      }
      // The first retirement a cloud has announced (AKS ends Windows2019 after 1.32) stands for upstream's, which
      // publishes no end date but no longer lists the release.
      const retiredAfter = cloudReleaseGate('aks', target.release)?.lastMinor;
      if (target.release === '2019' && retiredAfter !== undefined && minor > retiredAfter) {
        report({
          path: target.path,
          messageId: 'retired',
          data: { displayName: info.displayName, version, retiredAfter: retiredAfter + 1 },
        });
      } else if (minor < info.firstKubernetesMinor) {
        report({
          path: target.path,
          messageId: 'too-new',
          data: { displayName: info.displayName, firstKubernetesMinor: info.firstKubernetesMinor, version },
        });
      }
    },
  },
});
