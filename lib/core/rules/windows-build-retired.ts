/**
 * windows-build-retired: no supported node runs Windows Server 2016 or a SAC release (1709 to 20H2), so no node
 * carries their `node.kubernetes.io/windows-build` label and every pod pinned to one stays Pending
 * (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility,
 * https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support). Judged where the pin is written:
 * on the pod, or on the RuntimeClass (whose pods then all inherit it).
 */
import { WINDOWS_BUILD_LABEL } from '../kube';
import { RETIRED_RELEASES, retiredRelease } from '../releases';
import { buildIs, celString } from './cel';
import { supportedBuilds } from '../model/pod-scheduling';
import { join, key, rec, str, stringMap } from '../model/util';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

/** The retired release a pinned build names, as CEL: its display name, or ''. */
const RETIRED_NAME = `(${RETIRED_RELEASES.map((r) => `${buildIs('variables.pinBuild', r.build)} ? ${celString(r.displayName)} : `).join('')}'')`;

/** The build a RuntimeClass's nodeSelector pins, or ''. */
const RC_BUILD = `(has(object.scheduling) && has(object.scheduling.nodeSelector) && ${celString(WINDOWS_BUILD_LABEL)} in object.scheduling.nodeSelector ? object.scheduling.nodeSelector[${celString(WINDOWS_BUILD_LABEL)}] : '')`;

export default defineRule({
  meta: {
    id: 'windows-build-retired',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary:
      'A nodeSelector or RuntimeClass that pins node.kubernetes.io/windows-build to a retired release (2016, SAC 1709-20H2).',
    rationale:
      'No supported node runs Windows Server 2016 or a SAC release, so no node carries the label: every pod pinned to it stays Pending.',
    docs: VERSION_COMPAT,
    severityReason: 'No node carries the label: the pods stay Pending.',
    cases: [
      {
        name: 'cluster-build',
        severity: 'error',
        when: 'Admission policies with the cluster facts only: the pod pins a node.kubernetes.io/windows-build that no Windows pool of the cluster runs, so it stays Pending.',
      },
    ],
  },
  messages: {
    pod: { description: 'A pod pinned to a retired build.' },
    'runtime-class': { description: 'A RuntimeClass that pins a retired build.' },
  },
  check: [
    {
      scope: 'pod',
      run(p, _context, report) {
        // A pin inherited from the RuntimeClass is reported once, on the RuntimeClass.
        if (!p.windows || p.retiredPin === undefined || p.retiredPin.path.endsWith('runtimeClassName')) return;
        report(
          p.retiredPin.path,
          `This pod pins ${p.retiredPin.via}, ${p.retiredPin.release.displayName}, which no supported node runs: no node carries this label, so the pod stays Pending.`,
          `Pin a supported build: ${supportedBuilds()}, with images of the same release.`,
          undefined,
          'pod',
        );
      },
    },
    {
      scope: 'object',
      kinds: ['RuntimeClass'],
      run(obj, _context, report) {
        const build = stringMap(rec(obj, 'scheduling'), 'nodeSelector')[WINDOWS_BUILD_LABEL];
        const retired = build !== undefined && /^\d+\.\d+\.\d+/.test(build) ? retiredRelease(build) : undefined;
        if (!retired) return;
        report(
          join('scheduling.nodeSelector', key(WINDOWS_BUILD_LABEL)),
          `RuntimeClass '${str(rec(obj, 'metadata'), 'name') ?? ''}' pins ${WINDOWS_BUILD_LABEL}=${build}, ${retired.displayName}, which no supported node runs: every pod of this class stays Pending.`,
          `Pin a supported build: ${supportedBuilds()}.`,
          undefined,
          'runtime-class',
        );
      },
    },
  ],
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // A build pin (nodeSelector or affinity) that names a retired release, by its display name.
        name: 'wbr_retired',
        expression: `variables.pinSource in ['selector', 'affinity'] && variables.pinBuild.matches('^[0-9]+[.][0-9]+[.][0-9]+') ? ${RETIRED_NAME} : ''`,
      },
    ],
    validations: [
      {
        expression: "!variables.windows || variables.wbr_retired == ''",
        messageExpression: `'windows-build-retired: This pod pins ' + variables.pinVia + ', ' + variables.wbr_retired + ', which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${supportedBuilds().replace(/'/g, "\\'")}, with images of the same release.'`,
      },
      {
        scope: 'runtimeclass',
        expression: `!(${RC_BUILD} != '' && ${RC_BUILD}.matches('^[0-9]+[.][0-9]+[.][0-9]+') && ${RETIRED_NAME.replace(/variables\.pinBuild/g, RC_BUILD)} != '')`,
        messageExpression: `'windows-build-retired: RuntimeClass \\'' + object.metadata.name + '\\' pins ${WINDOWS_BUILD_LABEL}=' + ${RC_BUILD} + ', ' + ${RETIRED_NAME.replace(/variables\.pinBuild/g, RC_BUILD)} + ', which no supported node runs: every pod of this class stays Pending. Pin a supported build: ${supportedBuilds().replace(/'/g, "\\'")}.'`,
      },
      {
        case: 'cluster-build',
        params: true,
        expression:
          "!variables.windows || !(variables.pinSource in ['selector', 'affinity']) || !has(params.spec.pools) || !params.spec.pools.exists(p, has(p.build)) || params.spec.pools.exists(p, has(p.build) && (variables.pinBuild == p.build || variables.pinBuild.startsWith(p.build + '.') || p.build.startsWith(variables.pinBuild + '.')))",
        messageExpression:
          "'windows-build-retired: This pod pins ' + variables.pinVia + ', which no Windows pool of the cluster runs (' + params.spec.pools.filter(p, has(p.build)).map(p, p.name + ': ' + p.build).join(', ') + '): the pod stays Pending. Pin the build of the pool it should run on.'",
      },
    ],
  }),
});
