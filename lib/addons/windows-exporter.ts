/**
 * `WindowsExporter`: prometheus-community's windows_exporter on every Windows node, as a HostProcess DaemonSet
 * (`WindowsHostProcessDaemonSet`) with its config file, the firewall rule, a headless Service and, when asked, a
 * Prometheus Operator PodMonitor. What it emits, and where that differs from upstream's manifest, is written once in
 * lib/core/addons/windows-exporter.ts, which the Pulumi component shares.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  resolveWindowsExporter,
  windowsExporterConfigFile,
  windowsExporterConfigName,
  windowsExporterFirewallCommand,
  windowsExporterPodLabels,
  windowsExporterPodMonitor,
  WINDOWS_EXPORTER_ACCOUNT,
  WINDOWS_EXPORTER_ARGS,
  WINDOWS_EXPORTER_CONFIG_FILE,
  WINDOWS_EXPORTER_HEALTH_PATH,
  WINDOWS_EXPORTER_NAME,
  WINDOWS_EXPORTER_PORT_NAME,
  type WindowsExporterOptions,
} from '../core/addons/windows-exporter';
import { windowsNodeTarget } from '../core/target';
import { WindowsHostProcessDaemonSet } from '../cdk8s/host-process';
import { refuse } from '../cdk8s/refusal';
import { addonNamespacePolicy, type AddonPlacementProps } from './common';

export interface WindowsExporterProps extends WindowsExporterOptions, AddonPlacementProps {}

/**
 * windows_exporter on every Windows node: a HostProcess DaemonSet running as `NT AUTHORITY\SYSTEM` on the node's
 * network, its `config.yml` from a ConfigMap, an init container that opens the port in the Windows firewall, a
 * headless Service, and a PodMonitor when `podMonitor` is set. The image is pinned in the facts
 * (`addon.windows-exporter.image`).
 *
 * @example
 * new WindowsExporter(chart, 'exporter', {
 *   collectors: ['[defaults]', 'container', 'process'],
 *   taints: pool.nodeTarget.taints,
 *   podMonitor: { labels: { release: 'prometheus' } },
 * });
 */
export class WindowsExporter extends Construct {
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsHostProcessDaemonSet;
  /** The ConfigMap holding `config.yml`. */
  public readonly configMap: kplus.ConfigMap;
  /** The headless Service over the exporters. */
  public readonly service: kplus.Service;
  /** The PodMonitor, when `podMonitor` asked for one. */
  public readonly podMonitor?: ApiObject;
  /** The namespace everything runs in. */
  public readonly namespaceName: string;
  /** The port the exporters listen on, on every node. */
  public readonly port: number;

  constructor(scope: Construct, id: string, props: WindowsExporterProps = {}) {
    super(scope, id);
    const { resolved, issues } = resolveWindowsExporter(props);
    const { policy, issues: policyIssues } = addonNamespacePolicy(props);
    const problems = [...issues, ...policyIssues];
    if (problems.length > 0) refuse(this, problems, this.node.path);

    this.port = resolved.port;
    const labels = windowsExporterPodLabels(resolved);
    this.daemonSet = new WindowsHostProcessDaemonSet(this, 'daemon-set', {
      metadata: { name: resolved.name, labels },
      podMetadata: { labels },
      ...(props.namespace !== undefined ? { namespace: props.namespace } : {}),
      namespacePolicy: policy,
      windows: { runAsUserName: WINDOWS_EXPORTER_ACCOUNT, target: windowsNodeTarget({ taints: resolved.taints }) },
    });
    const namespace = this.daemonSet.namespaceName;
    this.namespaceName = namespace;

    this.configMap = new kplus.ConfigMap(this, 'config', {
      metadata: { name: windowsExporterConfigName(resolved.name), namespace, labels },
      data: { [WINDOWS_EXPORTER_CONFIG_FILE]: windowsExporterConfigFile(resolved) },
    });
    if (resolved.firewallRule) {
      this.daemonSet.addInitContainer({
        name: 'configure-firewall',
        image: resolved.image,
        command: windowsExporterFirewallCommand(resolved),
        ...(props.resources !== undefined ? { resources: props.resources } : {}),
      });
    }
    this.daemonSet.addContainer({
      name: WINDOWS_EXPORTER_NAME,
      image: resolved.image,
      args: [...WINDOWS_EXPORTER_ARGS],
      ports: [{ number: resolved.port, name: WINDOWS_EXPORTER_PORT_NAME }],
      readiness: kplus.Probe.fromHttpGet(WINDOWS_EXPORTER_HEALTH_PATH, { port: resolved.port }),
      ...(props.resources !== undefined ? { resources: props.resources } : {}),
      volumeMounts: [
        {
          path: `/${WINDOWS_EXPORTER_CONFIG_FILE}`,
          subPath: WINDOWS_EXPORTER_CONFIG_FILE,
          volume: kplus.Volume.fromConfigMap(this, 'config-volume', this.configMap, {
            name: windowsExporterConfigName(resolved.name),
          }),
        },
      ],
    });
    this.service = new kplus.Service(this, 'service', {
      metadata: { name: resolved.name, namespace, labels },
      clusterIP: 'None',
      selector: this.daemonSet,
      ports: [{ port: resolved.port, targetPort: resolved.port, name: WINDOWS_EXPORTER_PORT_NAME }],
    });
    const monitor = windowsExporterPodMonitor(resolved, namespace);
    if (monitor !== undefined) {
      this.podMonitor = new ApiObject(this, 'pod-monitor', monitor as ConstructorParameters<typeof ApiObject>[2]);
    }
    // Everything in the namespace comes after it in the manifest, so the first `kubectl apply -f` finds it.
    const ns = this.daemonSet.namespace;
    if (ns !== undefined) {
      for (const obj of [this.configMap, this.service, this.podMonitor]) if (obj) obj.node.addDependency(ns);
    }
  }
}
