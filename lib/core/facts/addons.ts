/**
 * The node add-ons (`k8s-windows/addons`, and the same components in `k8s-windows/pulumi`): the image each one runs,
 * pinned by version (and by digest where a source we opened gives it), and the upstream manifest it follows, so the
 * comparison tests and `--resolve-images` know what to check.
 */
import { WINDOWS_EXPORTER_IMAGE_FACT } from './kubernetes';
import { githubFile, type Sourced } from './types';

const CHECKED = '2026-12-07';
/** When the Fluent Bit and SMB add-ons' sources were read. */
const CHECKED_FLUENT_BIT_SMB = '2026-12-08';

/** The add-ons with an image pinned here. */
export type AddonName = 'windows-exporter' | 'csi-proxy' | 'fluent-bit-windows' | 'smb-csi-node-windows';

/** An add-on's image, and the upstream manifest its output is compared with. */
export interface AddonImageFact extends Sourced {
  /** The image by version, `repository:version` (`addonImage` adds the digest when it is known). */
  readonly image: string;
  /** The upstream release the image is. */
  readonly version: string;
  /**
   * The manifest digest of `image`, when a source we opened gives it.
   * @default - unverified: no source opened gives it; the image is pinned by version only
   */
  readonly digest?: string;
  /** The upstream manifest the add-on follows: repository, path and the commit read. */
  readonly upstream: { readonly repo: string; readonly path: string; readonly commit: string };
  /**
   * The other images the add-on runs (sidecars), by container name, pinned the same way.
   * @default {}
   */
  readonly sidecars?: Readonly<Record<string, string>>;
}

/** windows_exporter v0.31.8, the commit its tag names. */
const WINDOWS_EXPORTER_TAG_COMMIT = 'c73b596c0ebb4088bb9b9422a26903f8a35cec86';

/** sig-windows-tools' master at the copy read (2026-04-23). */
const SIG_WINDOWS_TOOLS_COMMIT = '401ee6fcd8369cd8c293bd361275fdbe6f24ed07';

/** csi-driver-smb's master at the snapshot read; `deploy/v1.20.3/` last changed in b56694c (2026-07-03). */
const CSI_DRIVER_SMB_COMMIT = '95c6968057eeab711c5913fa6c26295759b6ceb3';

/** Siemens-Healthineers/K2s at the copy in test/fixtures/realworld-fresh (its SOURCES.md). */
const K2S_COMMIT = 'eaa769c3de9218abff13739283aa4773d39f3e70';

/** amazon-cloudwatch-container-insights at the copy in test/fixtures/realworld (its SOURCES.md). */
const CW_INSIGHTS_COMMIT = 'dfd961175e8215ca20f3c1bdec9e4ee8df60d676';

/** fluent/fluent-bit at the copy of dockerfiles/Dockerfile.windows read. */
const FLUENT_BIT_COMMIT = '03b67af9ff7dd86170c760c2ef24b6e5733ca686';

/** The Fluent Bit and SMB node add-ons' facts, kept apart from the table above for reading. */
const MORE_ADDON_IMAGE_FACTS: Readonly<Record<'fluent-bit-windows' | 'smb-csi-node-windows', AddonImageFact>> = {
  'fluent-bit-windows': {
    image: 'fluent/fluent-bit:windows-2019-2.2.2',
    version: '2.2.2',
    upstream: {
      repo: 'Siemens-Healthineers/K2s',
      path: 'addons/logging/manifests/logging/fluentbit/windows/daemonset-windows.yaml',
      commit: K2S_COMMIT,
    },
    sources: [
      {
        ref: githubFile(
          'aws-samples/amazon-cloudwatch-container-insights',
          CW_INSIGHTS_COMMIT,
          'k8s-deployment-manifest-templates/deployment-mode/daemonset/container-insights-monitoring/fluent-bit/fluent-bit-windows.yaml',
        ),
        materialDate: 'undated',
        checked: CHECKED_FLUENT_BIT_SMB,
        says: 'image fluent/fluent-bit:windows-2019-2.2.2, "For Windows 2022, use 2022 instead of 2019": the Windows tags are windows-<2019|2022>-<version>',
      },
      {
        ref: githubFile('fluent/fluent-bit', FLUENT_BIT_COMMIT, 'dockerfiles/Dockerfile.windows'),
        materialDate: 'undated',
        checked: CHECKED_FLUENT_BIT_SMB,
        says: 'the runtime image holds C:\\fluent-bit\\bin\\fluent-bit.exe and C:\\fluent-bit\\etc (parsers.conf among them); ENTRYPOINT fluent-bit.exe',
      },
      {
        ref: githubFile(
          'Siemens-Healthineers/K2s',
          K2S_COMMIT,
          'addons/logging/manifests/logging/fluentbit/windows/daemonset-windows.yaml',
        ),
        materialDate: 'undated',
        checked: CHECKED_FLUENT_BIT_SMB,
        says: 'the manifest the add-on follows: Fluent Bit as HostProcess ("NT AUTHORITY\\system"), hostNetwork, config and parsers from ConfigMaps, requests 100m CPU and 128Mi, limit 500Mi memory',
      },
    ],
    note: "Pinned to the newest Windows tag a source we opened names (2.2.2, built on ltsc2019; a HostProcess container need not match the host's build). Newer releases exist (4.2.0, in a fluent-bit-docs release pull request seen in a search, not opened); whether their windows-<year>-<version> images were published is unverified: give `image` to use one. Digest unverified: no source opened gives it.",
  },
  'smb-csi-node-windows': {
    image: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp',
    version: 'v1.20.3',
    sidecars: { 'node-driver-registrar': 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.17.0' },
    upstream: {
      repo: 'kubernetes-csi/csi-driver-smb',
      path: 'deploy/v1.20.3/csi-smb-node-windows-hostprocess.yaml',
      commit: CSI_DRIVER_SMB_COMMIT,
    },
    sources: [
      {
        ref: githubFile(
          'kubernetes-csi/csi-driver-smb',
          CSI_DRIVER_SMB_COMMIT,
          'deploy/v1.20.3/csi-smb-node-windows-hostprocess.yaml',
        ),
        materialDate: '2026-07-03',
        checked: CHECKED_FLUENT_BIT_SMB,
        says: 'the manifest the add-on follows (copied to test/fixtures/addons): DaemonSet csi-smb-node-win in kube-system, HostProcess as "NT AUTHORITY\\SYSTEM", hostNetwork, images smbplugin:v1.20.3-windows-hp and csi-node-driver-registrar:v2.17.0, system-node-critical, seccompProfile RuntimeDefault, registrar 30m/40Mi requests and 150Mi limit, smb 10m/40Mi requests and 600Mi limit',
      },
      {
        ref: githubFile('kubernetes-csi/csi-driver-smb', CSI_DRIVER_SMB_COMMIT, 'deploy/'),
        materialDate: '2026-08-07',
        checked: CHECKED_FLUENT_BIT_SMB,
        says: 'v1.20.3 is the newest versioned deploy directory',
      },
    ],
    note: 'Digests unverified: no source opened gives them; the images are pinned by version.',
  },
};

/** Every add-on's image, by add-on. */
export const ADDON_IMAGE_FACTS: Readonly<Record<AddonName, AddonImageFact>> = {
  'windows-exporter': {
    image: WINDOWS_EXPORTER_IMAGE_FACT.image,
    version: '0.31.8',
    upstream: {
      repo: 'prometheus-community/windows_exporter',
      path: 'kubernetes/windows-exporter-daemonset.yaml',
      commit: WINDOWS_EXPORTER_TAG_COMMIT,
    },
    sources: [
      ...WINDOWS_EXPORTER_IMAGE_FACT.sources,
      {
        ref: githubFile(
          'prometheus-community/windows_exporter',
          WINDOWS_EXPORTER_TAG_COMMIT,
          '.github/workflows/release.yml',
        ),
        materialDate: '2026-07-22',
        checked: CHECKED,
        says: 'images ghcr.io/prometheus-community/windows-exporter and docker.io/prometheuscommunity/windows-exporter, tags "type=semver,pattern={{version}}" (0.31.8, no v), platforms windows/amd64',
      },
      {
        ref: githubFile('prometheus-community/windows_exporter', WINDOWS_EXPORTER_TAG_COMMIT, 'Dockerfile'),
        materialDate: '2026-07-22',
        checked: CHECKED,
        says: 'FROM the HostProcess base image v1.0.0; ENTRYPOINT ["windows_exporter.exe"]: a HostProcess-only image',
      },
      {
        ref: githubFile(
          'prometheus-community/windows_exporter',
          WINDOWS_EXPORTER_TAG_COMMIT,
          'kubernetes/windows-exporter-daemonset.yaml',
        ),
        materialDate: '2026-07-22',
        checked: CHECKED,
        says: 'the manifest the add-on follows (last changed 2024-09-20): HostProcess as "NT AUTHORITY\\system", hostNetwork, a configure-firewall init container running New-NetFirewallRule for TCP 9182, port 9182 named http, config.yml from a ConfigMap (collectors "[defaults],container", service include "containerd|kubelet"), no resources',
      },
    ],
    note: 'Digest unverified: no source opened gives the manifest digest of 0.31.8 (the registry was not reachable when checked), so the image is pinned by version; `k8s-windows lint --resolve-images` resolves it.',
  },
  'csi-proxy': {
    image: 'ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2',
    version: 'v1.1.2',
    upstream: {
      repo: 'kubernetes-sigs/sig-windows-tools',
      path: 'hostprocess/csi-proxy/csi-proxy.yaml',
      commit: SIG_WINDOWS_TOOLS_COMMIT,
    },
    sources: [
      {
        ref: githubFile(
          'kubernetes-sigs/sig-windows-tools',
          SIG_WINDOWS_TOOLS_COMMIT,
          'hostprocess/csi-proxy/csi-proxy.yaml',
        ),
        materialDate: '2026-04-23',
        checked: CHECKED,
        says: 'the manifest the add-on follows (last changed 2023-06-20): DaemonSet csi-proxy in kube-system, HostProcess as "NT AUTHORITY\\SYSTEM", hostNetwork, nodeSelector kubernetes.io/os: windows, image ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2, no resources, no tolerations',
      },
      {
        ref: githubFile(
          'kubernetes-sigs/sig-windows-tools',
          SIG_WINDOWS_TOOLS_COMMIT,
          'hostprocess/csi-proxy/Dockerfile.windows',
        ),
        materialDate: '2026-04-23',
        checked: CHECKED,
        says: 'builds csi-proxy v1.1.3 from kubernetes-csi/csi-proxy on the HostProcess base image v1.0.0; ENTRYPOINT ["csi-proxy.exe", "-v", "4"]',
      },
      {
        ref: githubFile(
          'kubernetes-sigs/sig-windows-tools',
          SIG_WINDOWS_TOOLS_COMMIT,
          '.github/workflows/csi-proxy.yml',
        ),
        materialDate: '2026-04-23',
        checked: CHECKED,
        says: 'on a push to master that changes hostprocess/csi-proxy/VERSION (v1.1.3 since 2023-11-13), pushes ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:<VERSION>',
      },
      {
        ref: 'https://github.com/kubernetes-csi/csi-proxy/tree/v1.3.0',
        materialDate: '2025-09-17',
        checked: CHECKED,
        says: 'the newest csi-proxy release tag (v2.0.0-alpha.2 is a pre-release); sig-windows-tools builds no image of it',
      },
    ],
    note: "Pinned to the version sig-windows-tools' manifest deploys, v1.1.2: its build files say v1.1.3, but whether that image was published is unverified. Digest unverified: no source opened gives it (the registry was not reachable when checked).",
  },
  ...MORE_ADDON_IMAGE_FACTS,
};

/** The image reference of an add-on: `repository:version`, with `@digest` when the digest is known. */
export function addonImage(name: AddonName): string {
  const fact = ADDON_IMAGE_FACTS[name];
  return fact.digest === undefined ? fact.image : `${fact.image}@${fact.digest}`;
}
