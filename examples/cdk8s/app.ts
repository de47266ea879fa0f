/**
 * A mixed-OS shop on one hybrid cluster of Windows Server 2022 and Linux nodes:
 *
 * - `cluster`: what a platform team installs once: the gMSA CRD and admission webhook, a RuntimeClass for
 *   Windows Server 2022, and the gMSA credential spec of the shop's API.
 * - `shop`: an IIS front end and a .NET Framework API that runs as the gMSA `WebApp01` (Windows), and a Redis
 *   cache (Linux), each behind a Service; every Linux pod pinned to Linux nodes.
 * - `monitoring`: windows_exporter on every Windows node (`WindowsExporter`), in a `privileged` namespace.
 *
 * `main.ts` synthesizes it; `test/cdk8s/example.e2e.test.ts` checks every object with the rule engine.
 */
import { Chart, Size, type App, type ChartProps } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import {
  GmsaCredentialSpec,
  GmsaWebhook,
  WindowsDeployment,
  WindowsRuntimeClass,
  pinLinuxWorkloads,
  type IGmsaCredentialSpec,
  type IWindowsRuntimeClass,
} from 'k8s-windows/cdk8s';
import { WindowsExporter } from 'k8s-windows/addons';

/** The Pod Security admission label a Namespace enforces its level with. */
const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** Images pinned to the Windows Server 2022 build (`ltsc2022`), so they match the nodes. */
export const IMAGES = {
  iis: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  aspnet: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2022',
  redis: 'redis:7.2.5-alpine',
} as const;

export const SHOP_NAMESPACE = 'shop';
export const MONITORING_NAMESPACE = 'windows-monitoring';

/** The platform chart: the gMSA webhook, the Windows Server 2022 RuntimeClass and the API's credential spec. */
export class ClusterChart extends Chart {
  public readonly runtimeClass: WindowsRuntimeClass;
  public readonly apiIdentity: GmsaCredentialSpec;

  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    new GmsaWebhook(this, 'gmsa-webhook');
    // The shop's pods run as the images' users (ContainerAdministrator for IIS), which `baseline` allows.
    new kplus.Namespace(this, 'shop-namespace', {
      metadata: { name: SHOP_NAMESPACE, labels: { [POD_SECURITY_ENFORCE_LABEL]: 'baseline' } },
    });
    this.runtimeClass = new WindowsRuntimeClass(this, 'ws2022', { release: '2022' });
    // Values from `Get-ADDomain` and the gMSA created with `New-ADServiceAccount WebApp01`.
    this.apiIdentity = new GmsaCredentialSpec(this, 'webapp01', {
      name: 'webapp01',
      domain: {
        dnsName: 'contoso.com',
        netBiosName: 'CONTOSO',
        sid: 'S-1-5-21-2126449477-2524075714-3094792973',
        guid: '244818ae-87ac-4fcd-92ec-e79e5252348a',
      },
      accounts: [{ name: 'WebApp01' }],
    });
  }
}

export interface ShopChartProps extends ChartProps {
  readonly runtimeClass: IWindowsRuntimeClass;
  readonly apiIdentity: IGmsaCredentialSpec;
}

/** The application: IIS front end and .NET Framework API on Windows, Redis on Linux. */
export class ShopChart extends Chart {
  constructor(scope: Construct, id: string, props: ShopChartProps) {
    super(scope, id, { ...props, namespace: props.namespace ?? SHOP_NAMESPACE });

    const cache = new kplus.Deployment(this, 'redis', {
      metadata: { name: 'redis' },
      replicas: 1,
      containers: [
        {
          name: 'redis',
          image: IMAGES.redis,
          portNumber: 6379,
          resources: {
            cpu: { request: kplus.Cpu.millis(100), limit: kplus.Cpu.millis(500) },
            memory: { request: Size.mebibytes(256), limit: Size.mebibytes(256) },
          },
          volumeMounts: [{ path: '/data', volume: kplus.Volume.fromEmptyDir(this, 'redis-data', 'data') }],
        },
      ],
    });
    cache.exposeViaService({ name: 'redis', ports: [{ port: 6379 }] });

    const api = new WindowsDeployment(this, 'api', {
      metadata: { name: 'api' },
      replicas: 2,
      windows: { runtimeClass: props.runtimeClass, gmsa: props.apiIdentity },
      containers: [
        {
          name: 'api',
          image: IMAGES.aspnet,
          portNumber: 80,
          envVariables: { REDIS_HOST: kplus.EnvValue.fromValue('redis:6379') },
          readiness: kplus.Probe.fromHttpGet('/health', { port: 80 }),
        },
      ],
    });
    api.exposeViaService({ name: 'api', ports: [{ port: 80 }] });

    const frontend = new WindowsDeployment(this, 'frontend', {
      metadata: { name: 'frontend' },
      replicas: 3,
      windows: { runtimeClass: props.runtimeClass },
      containers: [
        {
          name: 'iis',
          image: IMAGES.iis,
          portNumber: 80,
          envVariables: { API_URL: kplus.EnvValue.fromValue('http://api') },
          readiness: kplus.Probe.fromHttpGet('/', { port: 80 }),
        },
      ],
    });
    frontend.exposeViaService({
      name: 'frontend',
      serviceType: kplus.ServiceType.LOAD_BALANCER,
      ports: [{ port: 80 }],
    });

    // Redis (and anything added later) stays off the Windows nodes.
    pinLinuxWorkloads(this);
  }
}

/**
 * windows_exporter on every Windows node (`WindowsExporter`: HostProcess, its config, the firewall rule, a headless
 * Service), in the monitoring team's own namespace, which admits `privileged` pods.
 */
export class MonitoringChart extends Chart {
  public readonly exporter: WindowsExporter;

  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    // HostProcess pods need the `privileged` level: the add-on checks it and never labels a namespace it is given.
    const namespace = new kplus.Namespace(this, 'namespace', {
      metadata: { name: MONITORING_NAMESPACE, labels: { [POD_SECURITY_ENFORCE_LABEL]: 'privileged' } },
    });
    this.exporter = new WindowsExporter(this, 'windows-exporter', { namespace });
  }
}

/** Adds the three charts to `app`. */
export function buildShopApp(app: App): { cluster: ClusterChart; shop: ShopChart; monitoring: MonitoringChart } {
  const cluster = new ClusterChart(app, 'cluster');
  const shop = new ShopChart(app, 'shop', { runtimeClass: cluster.runtimeClass, apiIdentity: cluster.apiIdentity });
  const monitoring = new MonitoringChart(app, 'monitoring');
  return { cluster, shop, monitoring };
}
