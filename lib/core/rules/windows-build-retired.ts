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

/**
 * On a Pod that names a RuntimeClass, a nodeSelector pin may be the RuntimeClass's, merged in by the RuntimeClass
 * admission plugin before the policies run: the messages name the RuntimeClass, where the fix then belongs.
 */
const RC_MERGED = "(variables.pinSource == 'selector' && variables.runtimeClassMerged != '')";
const RC_ORIGIN = `(${RC_MERGED} ? ' (written in the pod, or merged in from RuntimeClass \\'' + variables.runtimeClassMerged + '\\' by the RuntimeClass admission plugin)' : '')`;
const RC_FIX = `(${RC_MERGED} ? ', in RuntimeClass \\'' + variables.runtimeClassMerged + '\\' (its scheduling.nodeSelector) if the pin came from there' : '')`;

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
    pod: {
      description: 'A pod pinned to a retired build.',
      message:
        'This pod pins {via}, {displayName}, which no supported node runs: no node carries this label, so the pod stays Pending.',
      fix: 'Pin a supported build: {supportedBuilds}, with images of the same release.',
    },
    'pod-runtime-class': {
      description: 'A pod whose RuntimeClass pins a retired build.',
      message:
        'This pod names {via}, which pins {displayName}, a build no supported node runs: the RuntimeClass admission plugin adds that nodeSelector to the pod, so it stays Pending.',
      fix: "Pin a supported build in RuntimeClass '{runtimeClassName}' (its scheduling.nodeSelector): {supportedBuilds}, with images of the same release; or name a RuntimeClass that pins one.",
    },
    'runtime-class': {
      description: 'A RuntimeClass that pins a retired build.',
      message:
        "RuntimeClass '{obj}' pins {WINDOWS_BUILD_LABEL}={build}, {displayName}, which no supported node runs: every pod of this class stays Pending.",
      fix: 'Pin a supported build: {supportedBuilds}.',
    },
  },
  check: [
    {
      scope: 'pod',
      run(p, _context, report) {
        if (!p.windows || p.retiredPin === undefined) return;
        // A pin inherited from the RuntimeClass: the RuntimeClass admission plugin adds its nodeSelector to the pod,
        // which then stays Pending (or is refused by the policies); said on the pod too, naming the RuntimeClass.
        if (p.retiredPin.path.endsWith('runtimeClassName')) {
          report({
            path: p.retiredPin.path,
            messageId: 'pod-runtime-class',
            data: {
              via: p.retiredPin.via,
              displayName: p.retiredPin.release.displayName,
              runtimeClassName: p.runtimeClassName ?? '',
              supportedBuilds: supportedBuilds(),
            },
          });
          return;
        }
        report({
          path: p.retiredPin.path,
          messageId: 'pod',
          data: {
            via: p.retiredPin.via,
            displayName: p.retiredPin.release.displayName,
            supportedBuilds: supportedBuilds(),
          },
        });
      },
    },
    {
      scope: 'object',
      kinds: ['RuntimeClass'],
      run(obj, _context, report) {
        const build = stringMap(rec(obj, 'scheduling'), 'nodeSelector')[WINDOWS_BUILD_LABEL];
        const retired = build !== undefined && /^\d+\.\d+\.\d+/.test(build) ? retiredRelease(build) : undefined;
        if (!retired) return;
        report({
          path: join('scheduling.nodeSelector', key(WINDOWS_BUILD_LABEL)),
          messageId: 'runtime-class',
          data: {
            obj: str(rec(obj, 'metadata'), 'name') ?? '',
            WINDOWS_BUILD_LABEL,
            build,
            displayName: retired.displayName,
            supportedBuilds: supportedBuilds(),
          },
        });
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
        messageExpression: `'windows-build-retired: This pod pins ' + variables.pinVia + ${RC_ORIGIN} + ', ' + variables.wbr_retired + ', which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${supportedBuilds().replace(/'/g, "\\'")}, with images of the same release' + ${RC_FIX} + '.'`,
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
        messageExpression: `'windows-build-retired: This pod pins ' + variables.pinVia + ${RC_ORIGIN} + ', which no Windows pool of the cluster runs (' + params.spec.pools.filter(p, has(p.build)).map(p, p.name + ': ' + p.build).join(', ') + '): the pod stays Pending. Pin the build of the pool it should run on' + ${RC_FIX} + '.'`,
      },
    ],
  }),
});
