/**
 * Fluent Bit on every Windows node, written once for both front doors: HostProcess, reading the node's container logs
 * (`C:\var\log\containers`), sending them to the outputs you give. It follows Siemens-Healthineers/K2s'
 * HostProcess manifest (`addons/logging/manifests/logging/fluentbit/windows/daemonset-windows.yaml`; the facts in
 * lib/core/facts/addons.ts); `FLUENT_BIT_WINDOWS_DIFFERENCES` lists where it differs, and why.
 */
import { IssueCollector, type ValidationIssue } from '../errors';
import type { Taint } from '../target';
import type { AgentContainer, HostProcessAgent } from './agent';
import { resolveAddonBase, type AddonDifference, type AddonOptions } from './common';

export const FLUENT_BIT_WINDOWS_NAME = 'fluent-bit-windows';
/** The config file's key in the ConfigMap, and the directory the ConfigMap is mounted at in the sandbox. */
export const FLUENT_BIT_CONFIG_FILE = 'fluent-bit.conf';
export const FLUENT_BIT_CONFIG_DIR = '/fluent-bit-config';
/** The container log files the kubelet writes on a Windows node. */
export const FLUENT_BIT_CONTAINER_LOGS = 'C:\\var\\log\\containers\\*.log';
/** The ConfigMap's name and its volume's, after the add-on's name. */
export const fluentBitConfigName = (name: string): string => `${name}-config`;
/**
 * Sized as upstream sizes it (K2s: 100m CPU and 128Mi requested, 500Mi memory limit); no CPU limit, so a burst of
 * logs is not throttled into lost lines.
 */
export const FLUENT_BIT_RESOURCES = { cpuRequestMillis: 100, memoryRequestMebibytes: 128, memoryLimitMebibytes: 500 };

/** One Fluent Bit output: its plugin name, the tags it takes, and the plugin's settings. */
export interface FluentBitOutput {
  /** The output plugin (`cloudwatch_logs`, `azure_logs_ingestion`, `stackdriver`, `forward`, `stdout`). */
  readonly name: string;
  /**
   * The tags it takes.
   * @default 'kube.*' (every container log)
   */
  readonly match?: string;
  /**
   * The plugin's settings, one per line of its `[OUTPUT]` section (`{ region: 'eu-west-1' }`).
   * @default {}
   */
  readonly settings?: Readonly<Record<string, string | number | boolean>>;
}

/** The settings both front doors share. */
export interface FluentBitWindowsOptions extends AddonOptions {
  /** Where the logs go: one `[OUTPUT]` section each, in order. At least one. */
  readonly outputs: readonly FluentBitOutput[];
  /**
   * Add the pods' metadata (the `kubernetes` filter) reading the API server as this ServiceAccount of the namespace,
   * which needs `get`, `list` and `watch` on pods and namespaces. The add-on creates no RBAC: it never widens it.
   * @default - no metadata filter; records carry the log file's name in their tag
   */
  readonly kubernetesMetadata?: { readonly serviceAccountName: string };
  /**
   * Fluent Bit's own log level.
   * @default 'info'
   */
  readonly logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
}

export interface ResolvedFluentBitWindows {
  readonly name: string;
  readonly image: string;
  readonly taints: readonly Taint[];
  readonly outputs: readonly FluentBitOutput[];
  readonly kubernetesMetadata?: { readonly serviceAccountName: string };
  readonly logLevel: string;
}

/**
 * Where the add-on's output differs from K2s' HostProcess DaemonSet, and why (the comparison test fails on a
 * difference missing here or an entry that no longer differs).
 */
export const FLUENT_BIT_WINDOWS_DIFFERENCES: readonly AddonDifference[] = [
  {
    kind: 'DaemonSet',
    paths: ['metadata.name', 'metadata.namespace'],
    why: "upstream is `fluent-bit-win` in `logging`, with no Pod Security label of its own; the add-on is `fluent-bit-windows` in a namespace you give, which must enforce 'privileged', or one it creates at 'privileged'",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.selector', 'spec.template.metadata.labels'],
    why: 'the same two labels, valued after the add-on; cdk8s-plus selects its own `cdk8s.io/metadata.addr` label',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.securityContext.windowsOptions.runAsUserName'],
    why: 'upstream writes `NT AUTHORITY\\system`; the add-on writes the spelling the Kubernetes docs give, `NT AUTHORITY\\SYSTEM`',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.serviceAccountName'],
    why: 'upstream runs as `fluent-bit`, bound to read pods for its `kubernetes` filter; the add-on adds that filter only with `kubernetesMetadata`, as the account you name, and creates no RBAC',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.tolerations'],
    why: "upstream tolerates `OS=Windows`, K2s' own taint; the add-on tolerates the Windows pools' taints",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].name', 'spec.template.spec.containers[0].image'],
    why: "upstream runs K2s' own HostProcess build of Fluent Bit 5.1.1 from its registry; the add-on runs Fluent Bit's published Windows image, pinned in the facts (a HostProcess container need not match the host's build)",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].args', 'spec.template.spec.containers[0].command'],
    why: "upstream's image runs `fluent-bit.exe` from its working directory with a relative config; the add-on names the executable and its config under the container's sandbox mount point, where a HostProcess container's files are",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].volumeMounts', 'spec.template.spec.volumes'],
    why: 'upstream mounts a config and a parsers ConfigMap file by file; the add-on mounts one ConfigMap (its config) as a directory and uses the built-in `cri` multiline parser, so it needs no parsers file',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.os'],
    why: 'added: `os.name: windows` (the API server checks Windows pods by it)',
  },
];

const KEY = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug', 'trace'];
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Applies the defaults and checks every option; `issues` lists every problem at once (empty when none). */
export function resolveFluentBitWindows(options: FluentBitWindowsOptions): {
  readonly resolved: ResolvedFluentBitWindows;
  readonly issues: readonly ValidationIssue[];
} {
  const issues = new IssueCollector();
  const { name, image, taints } = resolveAddonBase('fluent-bit-windows', options, issues);
  const outputs: unknown = options.outputs;
  const example = "[{ name: 'cloudwatch_logs', settings: { region: 'eu-west-1', log_group_name: 'windows' } }]";
  if (!Array.isArray(outputs) || outputs.length === 0) {
    issues.add('outputs', `outputs ${JSON.stringify(outputs)} names no output.`, `Give at least one, e.g. ${example}.`);
  } else {
    outputs.forEach((o: Partial<FluentBitOutput>, i) => {
      if (typeof o?.name !== 'string' || !KEY.test(o.name)) {
        issues.add(
          `outputs[${i}].name`,
          `${JSON.stringify(o?.name)} is not an output plugin name.`,
          `Write e.g. 'cloudwatch_logs'.`,
        );
      }
      if (o?.match !== undefined && (typeof o.match !== 'string' || /\s/.test(o.match) || o.match === '')) {
        issues.add(
          `outputs[${i}].match`,
          `${JSON.stringify(o.match)} is not a tag pattern.`,
          "Write e.g. 'kube.*', or omit it.",
        );
      }
      for (const [k, v] of Object.entries(o?.settings ?? {})) {
        if (!KEY.test(k))
          issues.add(
            `outputs[${i}].settings.${k}`,
            `${JSON.stringify(k)} is not a setting name.`,
            'Write the name as the plugin documents it.',
          );
        if (
          !['string', 'number', 'boolean'].includes(typeof v) ||
          /[\r\n]/.test(String(v)) ||
          String(v).trim() === ''
        ) {
          issues.add(
            `outputs[${i}].settings.${k}`,
            `${k} ${JSON.stringify(v)} is not a one-line value.`,
            'Write a string, number or boolean on one line.',
          );
        }
      }
    });
  }
  const meta = options.kubernetesMetadata;
  if (
    meta !== undefined &&
    (typeof meta?.serviceAccountName !== 'string' || !DNS_LABEL.test(meta.serviceAccountName))
  ) {
    issues.add(
      'kubernetesMetadata.serviceAccountName',
      `${JSON.stringify(meta?.serviceAccountName)} is not a ServiceAccount name.`,
      "Name an account of the namespace that may get, list and watch pods and namespaces, e.g. 'fluent-bit'; or omit kubernetesMetadata.",
    );
  }
  const logLevel = options.logLevel ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    issues.add(
      'logLevel',
      `logLevel ${JSON.stringify(logLevel)} is not a Fluent Bit log level.`,
      `Use one of ${LOG_LEVELS.join(', ')}.`,
    );
  }
  return {
    resolved: {
      name,
      image,
      taints,
      outputs: Array.isArray(outputs) ? (outputs as FluentBitOutput[]) : [],
      ...(meta !== undefined ? { kubernetesMetadata: meta } : {}),
      logLevel,
    },
    issues: issues.issues,
  };
}

/** One `[SECTION]` of a classic Fluent Bit config, its keys aligned. */
function section(title: string, entries: readonly (readonly [string, string | number | boolean])[]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return [`[${title}]`, ...entries.map(([k, v]) => `    ${k.padEnd(width)} ${String(v)}`)].join('\n');
}

/** The sandbox path of a file in the container (`${CONTAINER_SANDBOX_MOUNT_POINT}` is expanded by Fluent Bit). */
const sandbox = (path: string) => `\${CONTAINER_SANDBOX_MOUNT_POINT}${path}`;

/**
 * The config file: the node's container logs, tailed with the CRI parser, the tail database on the host so a restart
 * resumes where it stopped, Fluent Bit's own logs left out (they would loop); then the metadata filter when asked;
 * then the outputs.
 */
export function fluentBitConfigFile(resolved: ResolvedFluentBitWindows): string {
  const sections = [
    section('SERVICE', [
      ['Flush', 5],
      ['Log_Level', resolved.logLevel],
      ['Daemon', 'off'],
    ]),
    section('INPUT', [
      ['Name', 'tail'],
      ['Tag', 'kube.*'],
      ['Path', FLUENT_BIT_CONTAINER_LOGS],
      ['Exclude_Path', `C:\\var\\log\\containers\\${resolved.name}-*`],
      ['multiline.parser', 'cri'],
      ['DB', `C:\\var\\log\\${resolved.name}-containers.db`],
      ['Mem_Buf_Limit', '5MB'],
      ['Skip_Long_Lines', 'On'],
      ['Refresh_Interval', 10],
      ['Rotate_Wait', 30],
    ]),
  ];
  if (resolved.kubernetesMetadata !== undefined) {
    const account = '/var/run/secrets/kubernetes.io/serviceaccount';
    sections.push(
      section('FILTER', [
        ['Name', 'kubernetes'],
        ['Match', 'kube.*'],
        ['Kube_Tag_Prefix', 'kube.C.var.log.containers.'],
        ['Kube_CA_File', sandbox(`${account}/ca.crt`)],
        ['Kube_Token_File', sandbox(`${account}/token`)],
        ['Merge_Log', 'On'],
      ]),
    );
  }
  for (const o of resolved.outputs) {
    sections.push(
      section('OUTPUT', [['Name', o.name], ['Match', o.match ?? 'kube.*'], ...Object.entries(o.settings ?? {})]),
    );
  }
  return `${sections.join('\n\n')}\n`;
}

/** The pod labels: the add-on's name and the instance. */
export function fluentBitPodLabels(resolved: ResolvedFluentBitWindows): Record<string, string> {
  return { 'app.kubernetes.io/name': FLUENT_BIT_WINDOWS_NAME, 'app.kubernetes.io/instance': resolved.name };
}

/** The DaemonSet's agent: Fluent Bit as SYSTEM (the log files are the node's), its config mounted from the ConfigMap. */
export function fluentBitAgent(resolved: ResolvedFluentBitWindows): HostProcessAgent {
  const configName = fluentBitConfigName(resolved.name);
  const container: AgentContainer = {
    name: FLUENT_BIT_WINDOWS_NAME,
    image: resolved.image,
    command: ['%CONTAINER_SANDBOX_MOUNT_POINT%/fluent-bit/bin/fluent-bit.exe'],
    args: ['-c', `%CONTAINER_SANDBOX_MOUNT_POINT%${FLUENT_BIT_CONFIG_DIR}/${FLUENT_BIT_CONFIG_FILE}`],
    resources: FLUENT_BIT_RESOURCES,
    volumeMounts: [{ volume: configName, mountPath: FLUENT_BIT_CONFIG_DIR }],
  };
  return {
    name: resolved.name,
    labels: fluentBitPodLabels(resolved),
    account: 'NT AUTHORITY\\SYSTEM',
    taints: resolved.taints,
    initContainers: [],
    containers: [container],
    configMapVolumes: { [configName]: configName },
    ...(resolved.kubernetesMetadata ? { serviceAccountName: resolved.kubernetesMetadata.serviceAccountName } : {}),
  };
}
