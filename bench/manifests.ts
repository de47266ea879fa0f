/**
 * A large, realistic manifest for the lint bench: what a hybrid cluster's Helm output looks like. Windows
 * Deployments (some with the mistakes the rules exist for), Services in front of them, Linux pods, and a few
 * Namespaces and RuntimeClasses. Deterministic: object `i` depends only on `i`.
 */
import { stringify } from 'yaml';
import { releaseInfo } from '../lib/core/releases';
import { OS_LABEL, WINDOWS_BUILD_LABEL } from '../lib/core/kube';

/** Namespaces the objects spread over; each also appears as a Namespace object. */
const NAMESPACE_COUNT = 20;
/** One in this many objects is a Namespace, and the next one a RuntimeClass ("a few"). */
const RARE_KIND_PERIOD = 500;

const WINDOWS = releaseInfo('2022');
const WINDOWS_IMAGE = `mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-${WINDOWS.imageTags[0]}`;
const WINDOWS_TOLERATION = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };

function namespaceOf(i: number): string {
  return `team-${i % NAMESPACE_COUNT}`;
}

function namespace(i: number): object {
  const name = `team-${(i / RARE_KIND_PERIOD) % NAMESPACE_COUNT}`;
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: { 'pod-security.kubernetes.io/enforce': i % 1000 === 0 ? 'restricted' : 'baseline' },
    },
  };
}

function runtimeClass(i: number): object {
  return {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: `windows-${WINDOWS.release}-${i}` },
    handler: 'runhcs-wcow-process',
    scheduling: {
      nodeSelector: { [OS_LABEL]: 'windows', [WINDOWS_BUILD_LABEL]: WINDOWS.build },
      tolerations: [WINDOWS_TOLERATION],
    },
  };
}

function windowsDeployment(i: number): object {
  const app = `win-web-${i}`;
  // One in ten carries a mistake: a forbidden Linux field, a floating tag, or memory request below limit.
  const flaw = i % 10 === 0 ? (i / 10) % 3 : -1;
  const container: Record<string, unknown> = {
    name: 'web',
    image: flaw === 1 ? 'mcr.microsoft.com/dotnet/framework/aspnet:latest' : WINDOWS_IMAGE,
    ports: [{ name: 'http', containerPort: 80 }],
    env: [
      { name: 'ASPNETCORE_ENVIRONMENT', value: 'Production' },
      { name: 'APP_NAME', value: app },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    resources: {
      requests: { cpu: '500m', memory: flaw === 2 ? '512Mi' : '1Gi' },
      limits: { cpu: '1', memory: '1Gi' },
    },
    readinessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 10 },
    startupProbe: { httpGet: { path: '/healthz', port: 80 }, failureThreshold: 30, periodSeconds: 10 },
    volumeMounts: [{ name: 'config', mountPath: 'C:\\app\\config', readOnly: true }],
    ...(flaw === 0 ? { securityContext: { runAsUser: 1000 } } : {}),
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: namespaceOf(i), labels: { app, tier: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app, tier: 'web' } },
        spec: {
          os: { name: 'windows' },
          nodeSelector: { [OS_LABEL]: 'windows', [WINDOWS_BUILD_LABEL]: WINDOWS.build },
          tolerations: [WINDOWS_TOLERATION],
          securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } },
          containers: [container],
          volumes: [{ name: 'config', configMap: { name: `${app}-config` } }],
        },
      },
    },
  };
}

function service(i: number): object {
  const app = `win-web-${i - 4}`;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: app, namespace: namespaceOf(i - 4), labels: { app } },
    spec: {
      type: i % 20 === 4 ? 'LoadBalancer' : 'ClusterIP',
      selector: { app },
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
      ...(i % 20 === 4 ? { externalTrafficPolicy: i % 40 === 4 ? 'Local' : 'Cluster' } : {}),
    },
  };
}

function linuxPod(i: number): object {
  const app = `linux-worker-${i}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: app, namespace: namespaceOf(i), labels: { app } },
    spec: {
      // Half pinned to Linux, half not: the hybrid-cluster rule has work to do.
      ...(i % 2 === 0 ? { nodeSelector: { [OS_LABEL]: 'linux' } } : {}),
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'worker',
          image: 'registry.example.com/platform/worker:1.24.3',
          args: ['--queue', `jobs-${i % 7}`, '--concurrency', '4'],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    },
  };
}

/** Object `i` of the bench manifest. */
export function benchObject(i: number): object {
  if (i % RARE_KIND_PERIOD === 0) return namespace(i);
  if (i % RARE_KIND_PERIOD === 1) return runtimeClass(i);
  const slot = i % 10;
  if (slot < 4) return windowsDeployment(i);
  if (slot < 7) return service(i);
  return linuxPod(i);
}

/** `count` objects as one multi-document YAML text. */
export function benchManifest(count: number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) docs.push(stringify(benchObject(i)));
  return docs.join('---\n');
}
