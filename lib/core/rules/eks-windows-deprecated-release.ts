/**
 * eks-windows-deprecated-release: an amiType of a deprecated Windows Server release (Windows Server 2019: out of
 * Microsoft's mainstream support, no longer listed upstream). AWS has announced no retirement of the 2019 EKS AMIs
 * (lib/core/facts/clouds.ts), so this stays a warning. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { deprecationSummary, upstreamDroppedReleases } from '../facts/support';
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup } from '../cloud/eks-node-group';
import { eksWindowsAmiType } from '../cloud/eks-ami-types';
import { evaluationDate, lifecycleSentence, releaseSupport } from '../facts/support';
import { DEFAULT_WINDOWS_RELEASE, releaseInfo } from '../releases';

const DEPRECATED = upstreamDroppedReleases();

export default defineRule({
  meta: {
    id: 'eks-windows-deprecated-release',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: `A ${DEPRECATED.map((r) => `Windows Server ${r}`).join(' or ')} amiType.`,
    rationale: `${DEPRECATED.map(deprecationSummary).join('; ')}: images must move to a newer ltsc base.`,
    docs: 'https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support',
    severityReason: 'The node group runs today, and AWS has announced no retirement of its AMIs.',
  },
  messages: {
    deprecated: {
      description: 'An amiType whose Windows release is deprecated.',
      message: "amiType '{amiType}' runs {displayName}, which is deprecated: {value}. {release}",
      fix: "Move to '{DEFAULT_WINDOWS_RELEASE}' (rebuild images for the new build).",
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP],
    run: {
      'eks-node-group': (props, { date }, report) => {
        const parsed = windowsNodeGroup(props)?.parsed;
        if (parsed === undefined) return;
        const day = evaluationDate(date);
        const support = releaseSupport(parsed.release, day);
        if (support.state !== 'deprecated') return;
        report({
          path: 'amiType',
          messageId: 'deprecated',
          data: {
            amiType: String(props.amiType),
            displayName: releaseInfo(parsed.release).displayName,
            value: support.reasons.join('; '),
            release: lifecycleSentence(parsed.release, day),
            DEFAULT_WINDOWS_RELEASE: eksWindowsAmiType(DEFAULT_WINDOWS_RELEASE, parsed.variant),
          },
        });
      },
    },
  },
});
