/**
 * image-build-unpinned: a single-build image in a pod that pins no build starts only on nodes of that build and
 * fails on every other ("the container operating system does not match the host operating system",
 * https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { WINDOWS_BUILD_LABEL } from '../kube';
import { DEVICE_PLUGIN_FACTS, type DevicePluginFact } from '../facts/node-runtime';
import { hostRunsImage, hostsRunningImage, processCompatibilitySentence, WINDOWS_RELEASES } from '../facts/windows';
import { releaseInfo, type WindowsRelease } from '../releases';
import type { FixEdit, FixTarget } from '../model/fixes';
import type { PodFacts } from '../model/pod';
import { namedReleaseImages, releaseImages } from '../model/pod-images';
import { isRecord, join, key, rec, stringMap } from '../model/util';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

/**
 * The edit that pins a Windows pod to `release`: `runtimeClassName` when the target names one, else the build
 * selector. None for pods that pin a build already (or select a pool that may), HostProcess pods (they run on any
 * build) and DaemonSets whose images name no build (multi-arch node agents follow every Windows node).
 */
function releasePin(p: PodFacts, target: FixTarget, release = target.release): FixEdit[] {
  if (release === undefined || p.hostProcess || p.runtimeClassName !== undefined) return [];
  // Pinned already, by the engine's reading (build selector or affinity, AKS os-sku, a retired build), or by a
  // pool label whose release the input does not show.
  if ((p.pin !== undefined && p.pin.path !== '') || p.retiredPin !== undefined || p.poolSelector !== undefined) {
    return [];
  }
  if (stringMap(p.spec, 'nodeSelector')[WINDOWS_BUILD_LABEL] !== undefined) return [];
  if (p.kind === 'DaemonSet' && imageRelease(p) === undefined) return [];
  if (target.runtimeClassName !== undefined && release === target.release) {
    return [{ op: 'set', path: join(p.path, 'runtimeClassName'), value: target.runtimeClassName }];
  }
  return [
    { op: 'set', path: join(p.path, 'nodeSelector', key(WINDOWS_BUILD_LABEL)), value: releaseInfo(release).build },
  ];
}

/**
 * The first extended resource a container of the pod requests (or limits) that a known device plugin advertises, with
 * that plugin: the pod can land only on the nodes the plugin runs on (a device plugin advertises its resources on its
 * own node only).
 */
function devicePluginRequest(p: PodFacts): { resource: string; plugin: DevicePluginFact } | undefined {
  for (const c of p.containers) {
    const resources = rec(c.c, 'resources');
    for (const field of ['limits', 'requests']) {
      const amounts = rec(resources, field);
      if (!isRecord(amounts)) continue;
      for (const name of Object.keys(amounts)) {
        const plugin = DEVICE_PLUGIN_FACTS.find((d) => d.resources.includes(name));
        if (plugin) return { resource: name, plugin };
      }
    }
  }
  return undefined;
}

/** The release the pod's first single-build image is built for. */
function imageRelease(p: PodFacts): WindowsRelease | undefined {
  return releaseImages(p)[0]?.release;
}

export default defineRule({
  meta: {
    id: 'image-build-unpinned',
    family: 'images',
    defaultSeverity: 'warning',
    summary: 'A single-build Windows image (ltsc2019, 1809, nanoserver-ltsc2022) in a pod that pins no Windows build.',
    rationale: `An image runs only on the hosts whose build takes it (${processCompatibilitySentence()}): the pod fails on nodes of any other release in the cluster.`,
    docs: VERSION_COMPAT,
    severityReason:
      'The pod starts only on nodes whose build runs the image and fails on every other release in the cluster.',
    fixable: 'Pins the pod to the build of --windows-release (or --runtime-class), else to the build its image needs.',
    cases: [
      {
        name: 'repository-name',
        severity: 'info',
        when: "The image's tag names no build and its repository name does (fabrikam/sql-windows-1809:v2): a repository may outlive the build it was named for, so the name is weaker evidence than a tag.",
      },
    ],
  },
  messages: {
    unpinned: {
      description: 'A single-build image in a pod that pins no Windows build.',
      message:
        '{path2} \'{image}\' {value} and runs only on {value2} nodes, but the pod pins no Windows build: on nodes of any other release it fails with "the container operating system does not match the host operating system".',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.pin !== undefined || p.retiredPin !== undefined) return;
      // A tag's build first; else one a repository name names (weaker evidence, said in the message).
      const tagged = releaseImages(p)[0];
      const first = tagged ?? namedReleaseImages(p)[0];
      // A RuntimeClass outside the set may carry the build selector, and a pool label (agentpool: win22) may pin a
      // pool of one release; Hyper-V runs older images on newer hosts.
      if (!first || p.isolation !== 'process' || !p.isolationKnown || p.poolSelector !== undefined) return;
      const info = releaseInfo(first.release);
      const hosts = hostsRunningImage(first.release, 'process').map((r) => releaseInfo(r).displayName);
      const byName = tagged === undefined ? first.named : undefined;
      const fix = `Add nodeSelector { ${WINDOWS_BUILD_LABEL}: '${info.build}' } (or a RuntimeClass that pins it), or use a multi-arch image that covers every node build.`;
      // A device plugin's resource confines the pod to the nodes the plugin runs on, which its prerequisites say are
      // of a release or newer (the DirectX plugins: Windows Server 2022 or newer). When every such release runs the
      // image (ltsc2022 on 2022 and 2025 hosts), no node the pod can land on fails it.
      const device = devicePluginRequest(p);
      if (device !== undefined) {
        const min = WINDOWS_RELEASES.indexOf(device.plugin.minimumRelease);
        const pluginHosts = WINDOWS_RELEASES.filter((_, i) => i >= min);
        if (pluginHosts.every((h) => hostRunsImage(h, first.release, 'process'))) return;
      }
      report({
        path: join(p.path, 'nodeSelector'),
        messageId: 'unpinned',
        data: {
          path2: first.path,
          image: first.image,
          value: byName
            ? `looks built for ${info.displayName} (${byName.evidence})`
            : `is built for ${info.displayName}`,
          value2: hosts.join(' or '),
          fix,
        },
        case: byName ? 'repository-name' : undefined,
      });
    },
  },
  // Pinned to the target's release when one is given (a wrong image then shows as image-build-mismatch), else to
  // the build its image needs: the only build it can start on.
  fix: ({ pod, target }) => releasePin(pod, target, target.release ?? imageRelease(pod)),
  // The release the user gave: every unpinned Windows pod gets it, whether or not the rule found it lacking.
  targetFix: ({ pod, target }) => releasePin(pod, target),
});
