/**
 * runtimeclass-release-mismatch: users pick a RuntimeClass by its name (`windows-2019`); when its scheduling
 * pins another build, pods land on nodes whose release their images do not match
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#runtimeclass). A retired build is
 * windows-build-retired's finding, not this one.
 */
import { WINDOWS_BUILD_LABEL } from '../kube';
import { releaseForBuild, releaseInfo, retiredRelease, WINDOWS_RELEASES, type WindowsRelease } from '../releases';
import { join, key, rec, str, stringMap } from '../model/util';
import { RUNTIME_CLASS } from './docs';
import { defineRule } from './rule';

const NAME_RELEASE = new RegExp(
  `(?:^|[-_.])(?:ltsc|ws|win|windows)?-?(${WINDOWS_RELEASES.join('|')}|1809)(?:$|[-_.])`,
  'i',
);

/** The release a RuntimeClass name says (`windows-2019`, `ltsc2022`, `win-1809`). */
function releaseInName(name: string): WindowsRelease | undefined {
  const m = NAME_RELEASE.exec(name);
  if (!m) return undefined;
  return m[1] === '1809' ? '2019' : (m[1] as WindowsRelease);
}

export default defineRule({
  meta: {
    id: 'runtimeclass-release-mismatch',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A RuntimeClass whose name says one Windows release but whose scheduling pins another build.',
    rationale:
      'Users pick the RuntimeClass by its name; pods then land on the other release and their images do not match.',
    docs: RUNTIME_CLASS,
    severityReason: 'Pods run on another release than their RuntimeClass name promises.',
  },
  messages: {
    'release-mismatch': {
      description: 'A RuntimeClass whose name names one release while its nodeSelector pins another build.',
      message:
        "RuntimeClass '{name}' says Windows Server {named} but pins {WINDOWS_BUILD_LABEL}={build}{value}: pods choosing it by name land on other nodes than their images need.",
      fix: "Pin {WINDOWS_BUILD_LABEL}: '{build2}' for {displayName}{value2}.",
    },
  },
  check: {
    scope: 'object',
    kinds: ['RuntimeClass'],
    run(obj, _context, report) {
      const name = str(rec(obj, 'metadata'), 'name') ?? '';
      const build = stringMap(rec(obj, 'scheduling'), 'nodeSelector')[WINDOWS_BUILD_LABEL];
      const named = releaseInName(name);
      if (build === undefined || named === undefined) return;
      if (/^\d+\.\d+\.\d+/.test(build) && retiredRelease(build)) return;
      const pinned = releaseForBuild(build);
      if (pinned === named) return;
      report({
        path: join('scheduling.nodeSelector', key(WINDOWS_BUILD_LABEL)),
        messageId: 'release-mismatch',
        data: {
          name,
          named,
          WINDOWS_BUILD_LABEL,
          build,
          value: pinned ? ` (${releaseInfo(pinned).displayName})` : '',
          build2: releaseInfo(named).build,
          displayName: releaseInfo(named).displayName,
          value2: pinned ? `, or rename the RuntimeClass to 'windows-${pinned}'` : '',
        },
      });
    },
  },
});
