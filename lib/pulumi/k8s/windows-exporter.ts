/**
 * `WindowsExporter` on `@pulumi/kubernetes`: the same windows_exporter add-on as `k8s-windows/addons` gives cdk8s
 * (lib/core/addons/windows-exporter.ts holds what both emit): a HostProcess DaemonSet with its config, the firewall
 * rule, a headless Service and, when asked, a PodMonitor.
 */
import * as pulumi from '@pulumi/pulumi';
import { CustomResource } from '@pulumi/kubernetes/apiextensions';
import { ConfigMap, Service, type Namespace } from '@pulumi/kubernetes/core/v1';
import type * as k8sInput from '@pulumi/kubernetes/types/input';
import {
  resolveWindowsExporter,
  windowsExporterConfigFile,
  windowsExporterConfigName,
  windowsExporterFirewallCommand,
  windowsExporterPodLabels,
  windowsExporterPodMonitor,
  POD_MONITOR_API_VERSION,
  WINDOWS_EXPORTER_ACCOUNT,
  WINDOWS_EXPORTER_ARGS,
  WINDOWS_EXPORTER_CONFIG_FILE,
  WINDOWS_EXPORTER_HEALTH_PATH,
  WINDOWS_EXPORTER_NAME,
  WINDOWS_EXPORTER_PORT_NAME,
  type WindowsExporterOptions,
} from '../../core/addons/windows-exporter';
import { windowsNodeTarget } from '../../core/target';
import { requireArgs, throwInputErrors } from '../errors';
import { WindowsDaemonSet } from './workloads';
import { addonNamespace } from './addon-namespace';
import { ADDON_RESOURCES } from '../../core/addons/common';

export interface WindowsExporterArgs extends WindowsExporterOptions {
  /**
   * The namespace to run in, by name. It must admit `privileged` pods (`pod-security.kubernetes.io/enforce:
   * privileged`): the component cannot see its labels and never changes them.
   * @default - a Namespace of the add-on's own, named after it (`name`, default `windows-exporter`), labelled
   * `privileged`
   */
  readonly namespace?: pulumi.Input<string>;
  /**
   * The exporter container's resources (the firewall init container gets the same).
   * @default - a node agent's: 100m CPU request, 500m limit, 600Mi memory request and limit
   */
  readonly resources?: pulumi.Input<k8sInput.core.v1.ResourceRequirements>;
}

/**
 * windows_exporter on every Windows node: a HostProcess DaemonSet (`WindowsDaemonSet` with `windows.hostProcess`)
 * running as `NT AUTHORITY\SYSTEM`, its `config.yml` from a ConfigMap, an init container that opens the port in the
 * Windows firewall, a headless Service, and a Prometheus Operator PodMonitor when `podMonitor` is set. The image is
 * pinned in the facts (`addon.windows-exporter.image`). Bad args are refused in one `pulumi.InputPropertiesError`
 * before anything registers.
 *
 * @example
 * new WindowsExporter('exporter', { taints: pool.nodeTarget.taints, podMonitor: { labels: { release: 'prometheus' } } });
 */
export class WindowsExporter extends pulumi.ComponentResource {
  /** The Namespace this component created for itself; undefined when `namespace` was given. */
  public readonly createdNamespace?: Namespace;
  /** The name of the namespace everything runs in. */
  public readonly namespaceName: pulumi.Output<string>;
  /** The ConfigMap holding `config.yml`. */
  public readonly configMap: ConfigMap;
  /** The HostProcess DaemonSet. */
  public readonly daemonSet: WindowsDaemonSet;
  /** The headless Service over the exporters. */
  public readonly service: Service;
  /** The PodMonitor, when `podMonitor` asked for one. */
  public readonly podMonitor?: CustomResource;
  /** The port the exporters listen on, on every node. */
  public readonly port: number;

  constructor(name: string, rawArgs: WindowsExporterArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const subject = `WindowsExporter '${name}'`;
    const args = requireArgs(subject, rawArgs);
    const { resolved, issues } = resolveWindowsExporter(args);
    throwInputErrors(subject, issues);

    super('k8s-windows:kubernetes:WindowsExporter', name, {}, opts);
    this.port = resolved.port;
    const parent = { parent: this };
    const labels = windowsExporterPodLabels(resolved);

    const placed = addonNamespace(name, resolved.name, args.namespace, this);
    this.createdNamespace = placed.created;
    const namespace = placed.name;
    this.namespaceName = namespace;

    const configName = windowsExporterConfigName(resolved.name);
    this.configMap = new ConfigMap(
      `${name}-config`,
      {
        metadata: { name: configName, namespace, labels },
        data: { [WINDOWS_EXPORTER_CONFIG_FILE]: windowsExporterConfigFile(resolved) },
      },
      parent,
    );
    const resources = args.resources ?? ADDON_RESOURCES;
    const initContainers = resolved.firewallRule
      ? [
          {
            name: 'configure-firewall',
            image: resolved.image,
            command: windowsExporterFirewallCommand(resolved),
            resources,
          },
        ]
      : undefined;
    this.daemonSet = new WindowsDaemonSet(
      name,
      {
        metadata: { name: resolved.name, namespace, labels },
        spec: {
          template: {
            metadata: { labels },
            spec: {
              ...(initContainers ? { initContainers } : {}),
              containers: [
                {
                  name: WINDOWS_EXPORTER_NAME,
                  image: resolved.image,
                  args: [...WINDOWS_EXPORTER_ARGS],
                  ports: [{ containerPort: resolved.port, name: WINDOWS_EXPORTER_PORT_NAME }],
                  readinessProbe: {
                    httpGet: { path: WINDOWS_EXPORTER_HEALTH_PATH, port: resolved.port, scheme: 'HTTP' },
                  },
                  resources,
                  volumeMounts: [
                    {
                      name: configName,
                      mountPath: `/${WINDOWS_EXPORTER_CONFIG_FILE}`,
                      subPath: WINDOWS_EXPORTER_CONFIG_FILE,
                    },
                  ],
                },
              ],
              volumes: [{ name: configName, configMap: { name: this.configMap.metadata.name } }],
            },
          },
        },
        windows: {
          hostProcess: true,
          runAsUserName: WINDOWS_EXPORTER_ACCOUNT,
          target: windowsNodeTarget({ taints: resolved.taints }),
        },
      },
      parent,
    );
    this.service = new Service(
      `${name}-service`,
      {
        metadata: { name: resolved.name, namespace, labels },
        spec: {
          clusterIP: 'None',
          selector: labels,
          ports: [{ name: WINDOWS_EXPORTER_PORT_NAME, port: resolved.port, targetPort: resolved.port }],
        },
      },
      parent,
    );
    if (resolved.podMonitor !== undefined) {
      const monitor = namespace.apply((ns) => windowsExporterPodMonitor(resolved, ns));
      this.podMonitor = new CustomResource(
        `${name}-pod-monitor`,
        {
          apiVersion: POD_MONITOR_API_VERSION,
          kind: 'PodMonitor',
          metadata: monitor.apply((m) => m?.metadata as k8sInput.meta.v1.ObjectMeta),
          spec: monitor.apply((m) => m?.spec),
        },
        parent,
      );
    }
    this.registerOutputs({ namespaceName: namespace, port: resolved.port });
  }
}
