/**
 * `GmsaWebhook`: the GMSACredentialSpec CRD and the kubernetes-sigs/windows-gmsa admission webhook, as its Helm
 * chart (https://github.com/kubernetes-sigs/windows-gmsa/tree/master/charts/gmsa) installs them. The mutating webhook inlines credspecs into pods that name
 * one; the validating webhook checks the pod's service account may `use` it. A broken webhook blocks pod creation
 * cluster-wide (`failurePolicy: Fail`), hence two replicas, a PodDisruptionBudget and Linux-only scheduling.
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { GMSA_API_GROUP, GMSA_CRD_NAME, GMSA_KIND, GMSA_RESOURCE, GMSA_USE_VERB } from '../core/gmsa-credspec';
import { IssueCollector } from '../core/errors';
import { GMSA_WEBHOOK_IMAGE_FACT } from '../core/facts/kubernetes';
import { OS_LABEL, type Toleration } from '../core/kube';
import { isDns1123Subdomain } from '../core/windows-options';
import { markClusterScoped } from './gmsa';
import { refuseIfAny } from './refusal';

/** The webhook image of the newest upstream release: a fact with its source in lib/core/facts/kubernetes.ts. */
export const GMSA_WEBHOOK_IMAGE = GMSA_WEBHOOK_IMAGE_FACT.image;
/** Name both webhook configurations give their webhook (upstream). */
export const GMSA_WEBHOOK_NAME = 'admission-webhook.windows-gmsa.sigs.k8s.io';
/** Namespace label that turns the webhook off for a namespace (upstream). */
export const GMSA_WEBHOOK_DISABLED_LABEL = 'windows.k8s.io/disabled';

const DEFAULT_NAME = 'gmsa-webhook'; // upstream deploy script's default release name
const DEFAULT_REPLICAS = 2; // upstream chart values.replicaCount
const HTTPS_PORT = 443; // upstream chart values.containerPort; the Service port the API server calls
const TLS_MOUNT = '/tls'; // upstream: TLS_CRT=/tls/crt, TLS_KEY=/tls/key
const CERT_MANAGER_API = 'cert-manager.io/v1';
const INJECT_CA_ANNOTATION = 'cert-manager.io/inject-ca-from';
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name'; // set by the API server on every namespace
/**
 * The webhook image is `FROM scratch` with no USER (admission-webhook/dockerfiles/Dockerfile): it would run as root.
 * Run it as the distroless `nonroot` user instead; the binary and the mounted TLS files are world-readable.
 */
const WEBHOOK_UID = 65532;
/**
 * The webhook always listens on 443 (main.go reads HTTPS_PORT through env_int, which returns the default when the
 * value parses). A non-root process with every capability dropped may bind it only when the pod's network
 * namespace starts unprivileged ports there: `net.ipv4.ip_unprivileged_port_start` is a namespaced sysctl on the
 * kubelet's safe list since Kubernetes 1.22 (pkg/kubelet/sysctl/safe_sysctls.go) and allowed by Pod Security
 * baseline, so it needs no node or namespace change.
 */
const UNPRIVILEGED_PORT_SYSCTL = { name: 'net.ipv4.ip_unprivileged_port_start', value: String(HTTPS_PORT) };

/** How the webhook gets its serving certificate. */
export type GmsaWebhookTls =
  | {
      /** cert-manager issues and rotates the certificate and injects the CA bundle into both webhook configurations. */
      readonly type: 'cert-manager';
      /**
       * Issuer to sign with.
       * @default - a self-signed namespaced Issuer created with the webhook
       */
      readonly issuer?: { readonly name: string; readonly kind: 'Issuer' | 'ClusterIssuer' };
    }
  | {
      /** An existing `kubernetes.io/tls` Secret (`tls.crt`, `tls.key`) in the webhook's namespace. */
      readonly type: 'secret';
      readonly secretName: string;
      /** Base64-encoded PEM of the CA that signed the certificate, for the webhook configurations' `caBundle`. */
      readonly caBundle: string;
    };

/** Props of `GmsaWebhook`. */
export interface GmsaWebhookProps {
  /**
   * Name of the Deployment, Service, ServiceAccount, RBAC objects and webhook configurations.
   * @default 'gmsa-webhook'
   */
  readonly name?: string;
  /**
   * Namespace of the webhook. The webhook never acts on pods in its own namespace.
   * @default - the Chart's namespace when it has one, else the same as name
   */
  readonly namespace?: string;
  /**
   * Create the Namespace object.
   * @default - true for the webhook's own namespace (`namespace`, or the name); false for the Chart's namespace,
   * which the app or the cluster already has
   */
  readonly createNamespace?: boolean;
  /**
   * Install the `gmsacredentialspecs.windows.k8s.io` CRD (v1 stored, v1alpha1 served and deprecated).
   * @default true
   */
  readonly installCrd?: boolean;
  /**
   * Webhook image.
   * @default GMSA_WEBHOOK_IMAGE
   */
  readonly image?: string;
  /**
   * Replicas. Pod creation fails cluster-wide while none is ready, so keep at least two.
   * @default 2
   */
  readonly replicas?: number;
  /**
   * Serving certificate.
   * @default { type: 'cert-manager' } with a self-signed Issuer
   */
  readonly tls?: GmsaWebhookTls;
  /**
   * Extra tolerations of the webhook pods (for tainted Linux system nodes).
   * @default - none
   */
  readonly tolerations?: readonly Toleration[];
  /**
   * Webhook log level (`LOG_LEVEL`: panic, fatal, error, warn, info, debug, trace).
   * @default - the webhook's default (debug)
   */
  readonly logLevel?: 'panic' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
}

/** The openAPI schema of a credspec: types only, as upstream; unknown keys are pruned. */
const CREDSPEC_SCHEMA = {
  description: 'GMSA Credential Spec',
  type: 'object',
  properties: {
    ActiveDirectoryConfig: {
      type: 'object',
      properties: {
        GroupManagedServiceAccounts: {
          type: 'array',
          items: { type: 'object', properties: { Name: { type: 'string' }, Scope: { type: 'string' } } },
        },
        HostAccountConfig: {
          type: 'object',
          properties: {
            PluginGUID: { type: 'string' },
            PluginInput: { type: 'string' },
            PortableCcgVersion: { type: 'string' },
          },
        },
      },
    },
    CmsPlugins: { type: 'array', items: { type: 'string' } },
    DomainJoinConfig: {
      type: 'object',
      properties: {
        DnsName: { type: 'string' },
        DnsTreeName: { type: 'string' },
        Guid: { type: 'string' },
        MachineAccountName: { type: 'string' },
        NetBiosName: { type: 'string' },
        Sid: { type: 'string' },
      },
    },
  },
};

/**
 * The gMSA CRD and admission webhook, in one construct.
 *
 * @see https://github.com/kubernetes-sigs/windows-gmsa/tree/master/charts/gmsa
 */
export class GmsaWebhook extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  /** The CRD, when installed. */
  public readonly crd?: ApiObject;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;
  public readonly mutatingWebhook: ApiObject;
  public readonly validatingWebhook: ApiObject;

  constructor(scope: Construct, id: string, props: GmsaWebhookProps = {}) {
    super(scope, id);
    const name = props.name ?? DEFAULT_NAME;
    // A Chart's namespace is where its user deploys: the webhook goes there unless told otherwise.
    const chartNamespace = props.namespace === undefined ? Chart.of(scope).namespace : undefined;
    const namespace = props.namespace ?? chartNamespace ?? name;
    const replicas = props.replicas ?? DEFAULT_REPLICAS;
    const image = props.image ?? GMSA_WEBHOOK_IMAGE;
    const tls: GmsaWebhookTls = props.tls ?? { type: 'cert-manager' };

    const issues = new IssueCollector();
    if (!isDns1123Subdomain(name) || name.length > 63) {
      issues.add(
        'name',
        `'${name}' is not a DNS-1123 label (it names a Service).`,
        'Use lowercase letters, digits and "-".',
      );
    }
    if (!isDns1123Subdomain(namespace) || namespace.includes('.') || namespace.length > 63) {
      issues.add('namespace', `'${namespace}' is not a DNS-1123 label.`, 'Use lowercase letters, digits and "-".');
    }
    if (!Number.isInteger(replicas) || replicas < 1) {
      issues.add('replicas', `${replicas} is not a positive integer.`, 'Use 2 or more.');
    }
    if (tls.type === 'secret') {
      if (!isDns1123Subdomain(tls.secretName)) {
        issues.add('tls.secretName', `'${tls.secretName}' is not a Secret name.`, 'Name the kubernetes.io/tls Secret.');
      }
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(tls.caBundle)) {
        issues.add('tls.caBundle', 'caBundle is not base64.', 'Base64-encode the CA certificate PEM.');
      }
    }
    refuseIfAny(this, issues, `GmsaWebhook ${this.node.path}`);
    this.name = name;
    this.namespace = namespace;

    const labels = { app: name };
    const meta = { name, namespace, labels };
    const secretName = tls.type === 'secret' ? tls.secretName : `${name}-cert`;

    if (props.createNamespace ?? chartNamespace === undefined) {
      const ns = new ApiObject(this, 'Namespace', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
      markClusterScoped(ns);
    }

    if (props.installCrd ?? true) {
      const version = (v: string, storage: boolean) => ({
        name: v,
        served: true,
        storage,
        ...(storage ? {} : { deprecated: true }),
        schema: { openAPIV3Schema: { type: 'object', properties: { credspec: CREDSPEC_SCHEMA } } },
      });
      this.crd = new ApiObject(this, 'Crd', {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: {
          name: GMSA_CRD_NAME,
          annotations: {
            'api-approved.kubernetes.io':
              'https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/689-windows-gmsa',
          },
        },
        spec: {
          group: GMSA_API_GROUP,
          versions: [version('v1alpha1', false), version('v1', true)],
          conversion: { strategy: 'None' },
          names: { kind: GMSA_KIND, plural: GMSA_RESOURCE },
          scope: 'Cluster',
        },
      });
      markClusterScoped(this.crd);
    }

    new ApiObject(this, 'ServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta });

    const role = new ApiObject(this, 'ClusterRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name, labels },
      rules: [
        { apiGroups: [GMSA_API_GROUP], resources: [GMSA_RESOURCE], verbs: ['get', GMSA_USE_VERB] },
        { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
      ],
    });
    markClusterScoped(role);
    const binding = new ApiObject(this, 'ClusterRoleBinding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    });
    markClusterScoped(binding);

    if (tls.type === 'cert-manager' && tls.issuer === undefined) {
      new ApiObject(this, 'Issuer', {
        apiVersion: CERT_MANAGER_API,
        kind: 'Issuer',
        metadata: meta,
        spec: { selfSigned: {} },
      });
    }
    if (tls.type === 'cert-manager') {
      new ApiObject(this, 'Certificate', {
        apiVersion: CERT_MANAGER_API,
        kind: 'Certificate',
        metadata: meta,
        spec: {
          dnsNames: [`${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`],
          issuerRef: tls.issuer ?? { kind: 'Issuer', name },
          secretName,
          // the webhook reloads a rotated certificate (--cert-reload), so a new key each time costs nothing
          privateKey: { rotationPolicy: 'Always' },
        },
      });
    }

    const env = [
      { name: 'TLS_KEY', value: `${TLS_MOUNT}/key` },
      { name: 'TLS_CRT', value: `${TLS_MOUNT}/crt` },
      { name: 'HTTPS_PORT', value: String(HTTPS_PORT) },
      ...(props.logLevel === undefined ? [] : [{ name: 'LOG_LEVEL', value: props.logLevel }]),
    ];
    this.deployment = new ApiObject(this, 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            os: { name: 'linux' },
            serviceAccountName: name,
            // A Linux pod that meets Pod Security restricted: it only serves HTTPS and reads its certificate.
            securityContext: {
              runAsNonRoot: true,
              runAsUser: WEBHOOK_UID,
              runAsGroup: WEBHOOK_UID,
              seccompProfile: { type: 'RuntimeDefault' },
              sysctls: [UNPRIVILEGED_PORT_SYSCTL],
            },
            nodeSelector: { [OS_LABEL]: 'linux' },
            ...(props.tolerations?.length ? { tolerations: props.tolerations.map((t) => ({ ...t })) } : {}),
            containers: [
              {
                name,
                image,
                imagePullPolicy: 'IfNotPresent',
                args: [`--cert-reload=${tls.type === 'cert-manager'}`],
                env,
                ports: [{ containerPort: HTTPS_PORT }],
                readinessProbe: { httpGet: { scheme: 'HTTPS', path: '/health', port: HTTPS_PORT } },
                volumeMounts: [{ name: 'tls', mountPath: TLS_MOUNT, readOnly: true }],
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true, // it writes nothing: logs go to stdout
                  capabilities: { drop: ['ALL'] },
                },
              },
            ],
            volumes: [
              {
                name: 'tls',
                secret: {
                  secretName,
                  items: [
                    { key: 'tls.key', path: 'key' },
                    { key: 'tls.crt', path: 'crt' },
                  ],
                },
              },
            ],
          },
        },
      },
    });

    new ApiObject(this, 'PodDisruptionBudget', {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta,
      // one replica may go (node drains); with a single replica the budget must not block drains forever
      spec: { ...(replicas > 1 ? { minAvailable: 1 } : { maxUnavailable: 1 }), selector: { matchLabels: labels } },
    });

    this.service = new ApiObject(this, 'Service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta,
      spec: { ports: [{ port: HTTPS_PORT, targetPort: HTTPS_PORT }], selector: labels },
    });

    const webhookConfig = (kind: string, path: string, operations: string[]): ApiObject => {
      const obj = new ApiObject(this, kind, {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind,
        metadata: {
          name,
          labels,
          ...(tls.type === 'cert-manager' ? { annotations: { [INJECT_CA_ANNOTATION]: `${namespace}/${name}` } } : {}),
        },
        webhooks: [
          {
            name: GMSA_WEBHOOK_NAME,
            clientConfig: {
              service: { name, namespace, path },
              ...(tls.type === 'secret' ? { caBundle: tls.caBundle } : {}),
            },
            rules: [{ operations, apiGroups: [''], apiVersions: ['*'], resources: ['pods'] }],
            failurePolicy: 'Fail',
            admissionReviewVersions: ['v1', 'v1beta1'],
            sideEffects: 'None',
            namespaceSelector: {
              matchExpressions: [
                { key: NAMESPACE_NAME_LABEL, operator: 'NotIn', values: [namespace] },
                { key: GMSA_WEBHOOK_DISABLED_LABEL, operator: 'NotIn', values: ['true'] },
              ],
            },
          },
        ],
      });
      markClusterScoped(obj);
      return obj;
    };
    this.mutatingWebhook = webhookConfig('MutatingWebhookConfiguration', '/mutate', ['CREATE']);
    this.validatingWebhook = webhookConfig('ValidatingWebhookConfiguration', '/validate', ['CREATE', 'UPDATE']);
  }
}
