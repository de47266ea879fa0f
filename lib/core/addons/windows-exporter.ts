/**
 * windows_exporter as a node add-on, written once for both front doors (`k8s-windows/addons` for cdk8s, the
 * `WindowsExporter` component of `k8s-windows/pulumi`): its defaults, the checks of its props, the config file, the
 * firewall rule and the PodMonitor. It follows prometheus-community/windows_exporter's own manifests at v0.31.8
 * (`kubernetes/windows-exporter-daemonset.yaml`, `kubernetes/windows-exporter-podmonitor.yaml`,
 * `kubernetes/kubernetes.md`; the facts in lib/core/facts/addons.ts); `WINDOWS_EXPORTER_DIFFERENCES` lists where it
 * differs, and why.
 */
import { stringify } from 'yaml';
import { IssueCollector, type ValidationIssue } from '../errors';
import { resolveAddonBase, type AddonDifference, type AddonOptions } from './common';
import type { HOST_PROCESS_USERS } from '../windows-options';
import type { Taint } from '../target';

/** The name of every object by default, and the firewall rule's display name (the upstream manifest's). */
export const WINDOWS_EXPORTER_NAME = 'windows-exporter';
/** `--web.listen-address` defaults to `:9182` (cmd/windows_exporter/main.go at v0.31.8); the manifest opens it. */
export const WINDOWS_EXPORTER_PORT = 9182;
/** The container port's name, which the upstream PodMonitor scrapes (`port: http`). */
export const WINDOWS_EXPORTER_PORT_NAME = 'http';
/** The upstream manifest's `collectors.enabled: '[defaults],container'`: the default collectors plus containers. */
export const WINDOWS_EXPORTER_COLLECTORS: readonly string[] = ['[defaults]', 'container'];
/**
 * The rest of the upstream manifest's config.yml: service metrics for containerd and the kubelet only. `include` is a
 * regular expression over service names (internal/collector/service/service.go at v0.31.8).
 */
export const WINDOWS_EXPORTER_CONFIG: Readonly<Record<string, unknown>> = {
  collector: { service: { include: 'containerd|kubelet' } },
};
/** The upstream manifest runs as `NT AUTHORITY\system`; adding a firewall rule needs an administrator. */
export const WINDOWS_EXPORTER_ACCOUNT: (typeof HOST_PROCESS_USERS)[number] = 'NT AUTHORITY\\SYSTEM';
/** The ConfigMap's name and the pod volume's, after the add-on's name (upstream: `windows-exporter-config`). */
export const windowsExporterConfigName = (name: string): string => `${name}-config`;
/** The config file's key in the ConfigMap and its name in the container's sandbox. */
export const WINDOWS_EXPORTER_CONFIG_FILE = 'config.yml';
/**
 * HostProcess volumes appear under the sandbox mount point, not at the mount path (the upstream manifest's args).
 */
export const WINDOWS_EXPORTER_ARGS: readonly string[] = [
  `--config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/${WINDOWS_EXPORTER_CONFIG_FILE}`,
];
/** windows_exporter answers `GET /health` (cmd/windows_exporter/main.go at v0.31.8). */
export const WINDOWS_EXPORTER_HEALTH_PATH = '/health';
/** The Prometheus Operator's PodMonitor. */
export const POD_MONITOR_API_VERSION = 'monitoring.coreos.com/v1';
/** The pod label the add-on selects its pods by, and the PodMonitor's `jobLabel`. */
export const WINDOWS_EXPORTER_NAME_LABEL = 'app.kubernetes.io/name';
/** The pod label that tells two exporters (two `name`s) apart. */
export const WINDOWS_EXPORTER_INSTANCE_LABEL = 'app.kubernetes.io/instance';

/**
 * Where the add-on's output differs from the upstream manifests (kubernetes/windows-exporter-daemonset.yaml and
 * kubernetes/windows-exporter-podmonitor.yaml at v0.31.8), and why. The docs list it, and the comparison test
 * (test/addons/windows-exporter.test.ts) fails on a difference missing here or an entry that no longer differs.
 */
export const WINDOWS_EXPORTER_DIFFERENCES: readonly AddonDifference[] = [
  {
    kind: 'Namespace',
    paths: [],
    why: "upstream creates `monitoring` with no Pod Security label; the add-on runs in a namespace you give, which must enforce 'privileged', or creates one at 'privileged' (HostProcess pods need it): cdk8s `windows-system`, shared by the app's node agents; Pulumi one named after the add-on",
  },
  {
    kind: 'DaemonSet',
    paths: ['metadata.labels', 'spec.selector', 'spec.template.metadata.labels'],
    why: 'upstream labels and selects `app: windows-exporter`; the add-on labels `app.kubernetes.io/name` and `app.kubernetes.io/instance`, and cdk8s-plus selects its own `cdk8s.io/metadata.addr` label',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.securityContext.windowsOptions.runAsUserName'],
    why: 'upstream writes `NT AUTHORITY\\system`; the add-on writes the spelling the Kubernetes docs give, `NT AUTHORITY\\SYSTEM`',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.initContainers[0].image'],
    why: "upstream runs the firewall command in `mcr.microsoft.com/powershell:lts-nanoserver-1809`, a second image built for one Windows build; the pod is HostProcess, so the add-on runs the node's own powershell.exe from the exporter's image",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.initContainers[0].command', 'spec.template.spec.initContainers[0].args'],
    why: 'upstream calls New-NetFirewallRule on every start, adding one more rule each time; the add-on removes its rule by display name first, so there is one, on the current port',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].image', 'spec.template.spec.containers[0].imagePullPolicy'],
    why: 'upstream runs `:latest` with `imagePullPolicy: Always` (its docs say to pin a release); the add-on pins the release in the facts, `IfNotPresent`',
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].ports[0].hostPort'],
    why: "upstream also declares hostPort 9182; with hostNetwork the container port is the node's port already, and a hostPort on Windows needs CNI support, so the add-on leaves it out",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.os', 'spec.template.spec.tolerations'],
    why: "added: `os.name: windows` (the API server checks Windows pods by it) and the Windows nodes' taints, so the agent runs on tainted pools",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].resources', 'spec.template.spec.initContainers[0].resources'],
    why: "added: upstream requests nothing; the add-on gives a node agent's resources (100m CPU request, 500m limit, 600Mi memory request and limit), so the scheduler counts it",
  },
  {
    kind: 'DaemonSet',
    paths: ['spec.template.spec.containers[0].readinessProbe', 'spec.template.spec.containers[0].startupProbe'],
    why: 'added: `GET /health` on the exporter port, so a rollout waits for a working exporter',
  },
  {
    kind: 'ConfigMap',
    paths: ['metadata.labels'],
    why: 'upstream labels `app: windows-exporter`; the add-on labels `app.kubernetes.io/name` and `app.kubernetes.io/instance`',
  },
  {
    kind: 'Service',
    paths: [],
    why: 'added (upstream has none): a headless Service over the pods, port `http`, for Prometheus configurations that discover endpoints',
  },
  {
    kind: 'PodMonitor',
    paths: ['metadata.labels', 'spec.selector'],
    why: 'upstream labels and selects `app: windows-exporter`; the add-on uses `app.kubernetes.io/name` and `app.kubernetes.io/instance`',
  },
  {
    kind: 'PodMonitor',
    paths: ['spec.jobLabel'],
    why: 'upstream names `windows-exporter`, a label its pods do not carry; the add-on names `app.kubernetes.io/name`, so the job is `windows-exporter`',
  },
];

/** The PodMonitor's settings. */
export interface WindowsExporterPodMonitorOptions {
  /**
   * Labels on the PodMonitor, for a Prometheus whose `podMonitorSelector` selects by label (kube-prometheus-stack's
   * selects `release: <its release name>`).
   * @default {}
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * How often Prometheus scrapes, a Prometheus duration (`30s`, `1m`).
   * @default - the Prometheus default
   */
  readonly interval?: string;
}

/** The settings both front doors share. */
export interface WindowsExporterOptions extends AddonOptions {
  /**
   * The collectors to run (`collectors.enabled`); `[defaults]` stands for windows_exporter's default set.
   * @default ['[defaults]', 'container'] (the upstream manifest's)
   */
  readonly collectors?: readonly string[];
  /**
   * More of windows_exporter's config file, as YAML would hold it (keys are its flags, nested at the dots:
   * `{ collector: { service: { include: 'containerd|kubelet' } }, log: { level: 'warn' } }`). Replaces the default;
   * set `collectors` and `port` through their own props.
   * @default { collector: { service: { include: 'containerd|kubelet' } } } (the upstream manifest's)
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /**
   * The port the exporter listens on, on every node (HostProcess pods use the node's network).
   * @default 9182
   */
  readonly port?: number;
  /**
   * Open the port in the Windows firewall from an init container, as the upstream docs suggest. The rule stays on the
   * node when the add-on is removed (remove it with `Remove-NetFirewallRule -DisplayName <name>`).
   * @default true
   */
  readonly firewallRule?: boolean;
  /**
   * Also emit a Prometheus Operator PodMonitor (`monitoring.coreos.com/v1`; the CRD must be installed).
   * @default false
   */
  readonly podMonitor?: boolean | WindowsExporterPodMonitorOptions;
}

/** The options with every default applied. */
export interface ResolvedWindowsExporter {
  readonly name: string;
  readonly image: string;
  readonly collectors: readonly string[];
  readonly config: Readonly<Record<string, unknown>>;
  readonly port: number;
  readonly firewallRule: boolean;
  readonly taints: readonly Taint[];
  readonly podMonitor?: WindowsExporterPodMonitorOptions;
}

/** A collector name as windows_exporter spells them (`logical_disk`), or the `[defaults]` placeholder. */
const COLLECTOR = /^(?:\[defaults\]|[a-z][a-z0-9_]*)$/;
/** A Prometheus duration: `30s`, `1m30s`, `500ms`. */
const DURATION = /^(?:\d+(?:ms|s|m|h|d|w|y))+$/;
/** Config keys that have their own prop, flattened as windows_exporter reads them. */
const OWN_PROP_KEYS: Readonly<Record<string, string>> = {
  'collectors.enabled': 'collectors',
  'web.listen-address': 'port',
  'config.file': 'none: the add-on mounts its config file itself',
};

/** Config keys as windows_exporter reads them: nested maps joined at dots (internal/config/flatten.go). */
function flatKeys(value: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([k, v]) => {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    return isPlainObject(v) ? flatKeys(v, key) : [key];
  });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where a config value is not something a YAML config file holds (a scalar, a list of scalars, or a map of those). */
function badConfigValues(value: Readonly<Record<string, unknown>>, prefix: string): string[] {
  return Object.entries(value).flatMap(([k, v]) => {
    const path = `${prefix}.${k}`;
    if (isPlainObject(v)) return badConfigValues(v, path);
    const scalar = (x: unknown) => ['string', 'number', 'boolean'].includes(typeof x);
    if (scalar(v) || (Array.isArray(v) && v.every(scalar))) return [];
    return [path];
  });
}

/** Applies the defaults and checks every option; `issues` lists every problem at once (empty when none). */
export function resolveWindowsExporter(options: WindowsExporterOptions = {}): {
  readonly resolved: ResolvedWindowsExporter;
  readonly issues: readonly ValidationIssue[];
} {
  const issues = new IssueCollector();
  const { name, image, taints } = resolveAddonBase('windows-exporter', options, issues);
  const collectors = options.collectors ?? WINDOWS_EXPORTER_COLLECTORS;
  if (!Array.isArray(collectors) || collectors.length === 0) {
    issues.add(
      'collectors',
      `collectors ${JSON.stringify(collectors)} names no collector.`,
      "List at least one, e.g. ['[defaults]', 'container'].",
    );
  } else {
    collectors.forEach((c: unknown, i) => {
      if (typeof c !== 'string' || !COLLECTOR.test(c)) {
        issues.add(
          `collectors[${i}]`,
          `${JSON.stringify(c)} is not a collector name.`,
          "Write one name per entry, as windows_exporter spells it ('logical_disk', 'container'), or '[defaults]'.",
        );
      }
    });
  }
  const config = options.config ?? WINDOWS_EXPORTER_CONFIG;
  if (!isPlainObject(config)) {
    issues.add(
      'config',
      `config ${JSON.stringify(config)} is not an object.`,
      "Write it as YAML would hold it: { collector: { service: { include: 'containerd|kubelet' } } }.",
    );
  } else {
    for (const key of flatKeys(config)) {
      const own = OWN_PROP_KEYS[key];
      if (own !== undefined) {
        issues.add(
          `config.${key}`,
          `config sets ${key}, which the add-on writes itself.`,
          own.startsWith('none') ? `Remove it (${own}).` : `Remove it and use the ${own} prop.`,
        );
      }
    }
    for (const path of badConfigValues(config, 'config')) {
      issues.add(
        path,
        `${path} is not a string, number, boolean or list of those.`,
        'Write the value as YAML holds it.',
      );
    }
  }
  const port = options.port ?? WINDOWS_EXPORTER_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    issues.add(
      'port',
      `port ${JSON.stringify(port)} is not a TCP port.`,
      `Use an integer from 1 to 65535 (default ${WINDOWS_EXPORTER_PORT}).`,
    );
  }
  const firewallRule = options.firewallRule ?? true;
  if (typeof firewallRule !== 'boolean') {
    issues.add(
      'firewallRule',
      `firewallRule ${JSON.stringify(firewallRule)} is not a boolean.`,
      'Write true or false.',
    );
  }
  const monitor = options.podMonitor ?? false;
  let podMonitor: WindowsExporterPodMonitorOptions | undefined;
  if (monitor === true) podMonitor = {};
  else if (isPlainObject(monitor)) {
    podMonitor = monitor;
    const interval: unknown = monitor.interval;
    if (interval !== undefined && (typeof interval !== 'string' || !DURATION.test(interval))) {
      issues.add(
        'podMonitor.interval',
        `interval ${JSON.stringify(interval)} is not a Prometheus duration.`,
        "Write e.g. '30s' or '1m'.",
      );
    }
    const labels: unknown = monitor.labels;
    if (labels !== undefined && (!isPlainObject(labels) || Object.values(labels).some((v) => typeof v !== 'string'))) {
      issues.add(
        'podMonitor.labels',
        `labels ${JSON.stringify(labels)} are not string labels.`,
        "Write e.g. { release: 'prometheus' }.",
      );
    }
  } else if (monitor !== false) {
    issues.add(
      'podMonitor',
      `podMonitor ${JSON.stringify(monitor)} is neither a boolean nor options.`,
      "Write true, or { labels: { release: 'prometheus' }, interval: '30s' }.",
    );
  }
  return {
    resolved: { name, image, collectors, config, port, firewallRule, taints, ...(podMonitor ? { podMonitor } : {}) },
    issues: issues.issues,
  };
}

/** windows_exporter's config.yml: the collectors, the port when it is not the default, then `config`. */
export function windowsExporterConfigFile(resolved: ResolvedWindowsExporter): string {
  const doc: Record<string, unknown> = { collectors: { enabled: resolved.collectors.join(',') } };
  if (resolved.port !== WINDOWS_EXPORTER_PORT) doc.web = { 'listen-address': `:${resolved.port}` };
  return stringify({ ...doc, ...resolved.config });
}

/**
 * The init container's command: the node's own PowerShell (HostProcess containers run on the host) replacing the
 * rule named `name` with one that allows TCP `port` inbound on every profile, as the upstream docs' rule does.
 */
export function windowsExporterFirewallCommand(resolved: ResolvedWindowsExporter): string[] {
  const rule = `-DisplayName '${resolved.name}'`;
  return [
    'powershell.exe',
    '-NoProfile',
    '-NonInteractive',
    '-Command',
    `Remove-NetFirewallRule ${rule} -ErrorAction SilentlyContinue; New-NetFirewallRule ${rule} -Direction Inbound -Profile Any -Action Allow -LocalPort ${resolved.port} -Protocol TCP | Out-Null`,
  ];
}

/** The pod labels: the add-on's name and the instance. */
export function windowsExporterPodLabels(resolved: ResolvedWindowsExporter): Record<string, string> {
  return { [WINDOWS_EXPORTER_NAME_LABEL]: WINDOWS_EXPORTER_NAME, [WINDOWS_EXPORTER_INSTANCE_LABEL]: resolved.name };
}

/** The PodMonitor object (undefined when none was asked for). */
export function windowsExporterPodMonitor(
  resolved: ResolvedWindowsExporter,
  namespace: string,
): Record<string, unknown> | undefined {
  const monitor = resolved.podMonitor;
  if (monitor === undefined) return undefined;
  const labels = { ...windowsExporterPodLabels(resolved), ...monitor.labels };
  return {
    apiVersion: POD_MONITOR_API_VERSION,
    kind: 'PodMonitor',
    metadata: { name: resolved.name, namespace, labels },
    spec: {
      jobLabel: WINDOWS_EXPORTER_NAME_LABEL,
      selector: { matchLabels: windowsExporterPodLabels(resolved) },
      podMetricsEndpoints: [
        {
          port: WINDOWS_EXPORTER_PORT_NAME,
          scheme: 'http',
          ...(monitor.interval !== undefined ? { interval: monitor.interval } : {}),
        },
      ],
    },
  };
}
