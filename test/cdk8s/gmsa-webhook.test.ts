import { Chart, Testing } from 'cdk8s';
import { WindowsValidationError, podSecurityLevel } from 'k8s-windows';
import { validateManifests } from '../../lib/core/validate';
import { GmsaWebhook, type GmsaWebhookProps } from 'k8s-windows/cdk8s';
import { GMSA_WEBHOOK_IMAGE } from '../../lib/cdk8s/gmsa-webhook';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
};
type Spec = Record<string, unknown>;

function synth(props?: GmsaWebhookProps, namespace?: string): Obj[] {
  const chart = new Chart(Testing.app(), 'test', namespace === undefined ? {} : { namespace });
  new GmsaWebhook(chart, 'webhook', props);
  return Testing.synth(chart) as Obj[];
}

function one(objects: Obj[], kind: string): Obj {
  const found = objects.filter((o) => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

describe('GmsaWebhook defaults', () => {
  const objects = synth();

  test('renders the objects of the upstream chart, namespace and CRD first', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'Namespace//gmsa-webhook',
      'CustomResourceDefinition//gmsacredentialspecs.windows.k8s.io',
      'ServiceAccount/gmsa-webhook/gmsa-webhook',
      'ClusterRole//gmsa-webhook',
      'ClusterRoleBinding//gmsa-webhook',
      'Issuer/gmsa-webhook/gmsa-webhook',
      'Certificate/gmsa-webhook/gmsa-webhook',
      'Deployment/gmsa-webhook/gmsa-webhook',
      'PodDisruptionBudget/gmsa-webhook/gmsa-webhook',
      'Service/gmsa-webhook/gmsa-webhook',
      'MutatingWebhookConfiguration//gmsa-webhook',
      'ValidatingWebhookConfiguration//gmsa-webhook',
    ]);
  });

  test('CRD: cluster-scoped, v1 stored, v1alpha1 served and deprecated, credspec a typed object', () => {
    const crd = one(objects, 'CustomResourceDefinition');
    const spec = crd.spec as {
      group: string;
      scope: string;
      names: Spec;
      versions: { name: string; served: boolean; storage: boolean; deprecated?: boolean; schema: Spec }[];
    };
    expect(spec.group).toBe('windows.k8s.io');
    expect(spec.scope).toBe('Cluster');
    expect(spec.names).toEqual({ kind: 'GMSACredentialSpec', plural: 'gmsacredentialspecs' });
    expect(
      spec.versions.map(({ name, served, storage, deprecated }) => ({ name, served, storage, deprecated })),
    ).toEqual([
      { name: 'v1alpha1', served: true, storage: false, deprecated: true },
      { name: 'v1', served: true, storage: true, deprecated: undefined },
    ]);
    const v1 = spec.versions[1].schema as {
      openAPIV3Schema: { type: string; properties: { credspec: { type: string; properties: Record<string, Spec> } } };
    };
    expect(v1.openAPIV3Schema.type).toBe('object');
    expect(v1.openAPIV3Schema.properties.credspec.type).toBe('object');
    expect(Object.keys(v1.openAPIV3Schema.properties.credspec.properties).sort()).toEqual([
      'ActiveDirectoryConfig',
      'CmsPlugins',
      'DomainJoinConfig',
    ]);
    expect(crd.metadata.annotations).toEqual({
      'api-approved.kubernetes.io':
        'https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/689-windows-gmsa',
    });
  });

  test('Deployment: 2 replicas on Linux nodes, the upstream image, env, TLS mount and probe', () => {
    const d = one(objects, 'Deployment');
    const spec = d.spec as { replicas: number; template: { spec: Spec } };
    expect(spec.replicas).toBe(2);
    const pod = spec.template.spec;
    expect(pod.os).toEqual({ name: 'linux' });
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.serviceAccountName).toBe('gmsa-webhook');
    expect(pod.containers).toEqual([
      {
        name: 'gmsa-webhook',
        image: 'registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1',
        imagePullPolicy: 'IfNotPresent',
        args: ['--cert-reload=true'],
        env: [
          { name: 'TLS_KEY', value: '/tls/key' },
          { name: 'TLS_CRT', value: '/tls/crt' },
          { name: 'HTTPS_PORT', value: '443' },
        ],
        ports: [{ containerPort: 443 }],
        readinessProbe: { httpGet: { scheme: 'HTTPS', path: '/health', port: 443 } },
        volumeMounts: [{ name: 'tls', mountPath: '/tls', readOnly: true }],
        securityContext: {
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        },
      },
    ]);
    expect(pod.volumes).toEqual([
      {
        name: 'tls',
        secret: {
          secretName: 'gmsa-webhook-cert',
          items: [
            { key: 'tls.key', path: 'key' },
            { key: 'tls.crt', path: 'crt' },
          ],
        },
      },
    ]);
    expect(GMSA_WEBHOOK_IMAGE).toBe('registry.k8s.io/gmsa-webhook/k8s-gmsa-webhook:v0.14.1');
  });

  test('PodDisruptionBudget and Service on 443', () => {
    expect(one(objects, 'PodDisruptionBudget').spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { app: 'gmsa-webhook' } },
    });
    expect(one(objects, 'Service').spec).toEqual({
      ports: [{ port: 443, targetPort: 443 }],
      selector: { app: 'gmsa-webhook' },
    });
  });

  test('RBAC: get and use on credspecs, create on localsubjectaccessreviews, bound to the service account', () => {
    expect(one(objects, 'ClusterRole').rules).toEqual([
      { apiGroups: ['windows.k8s.io'], resources: ['gmsacredentialspecs'], verbs: ['get', 'use'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
    ]);
    const binding = one(objects, 'ClusterRoleBinding');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'gmsa-webhook',
    });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'gmsa-webhook', namespace: 'gmsa-webhook' }]);
  });

  test('cert-manager: a self-signed Issuer, a Certificate for the Service, CA injected into both webhooks', () => {
    expect(one(objects, 'Issuer').spec).toEqual({ selfSigned: {} });
    expect(one(objects, 'Certificate').spec).toEqual({
      dnsNames: ['gmsa-webhook.gmsa-webhook.svc', 'gmsa-webhook.gmsa-webhook.svc.cluster.local'],
      issuerRef: { kind: 'Issuer', name: 'gmsa-webhook' },
      secretName: 'gmsa-webhook-cert',
      privateKey: { rotationPolicy: 'Always' },
    });
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      expect(one(objects, kind).metadata.annotations).toEqual({
        'cert-manager.io/inject-ca-from': 'gmsa-webhook/gmsa-webhook',
      });
    }
  });

  test.each([
    ['MutatingWebhookConfiguration', '/mutate', ['CREATE']],
    ['ValidatingWebhookConfiguration', '/validate', ['CREATE', 'UPDATE']],
  ])('%s on pods, failurePolicy Fail, skipping its namespace and disabled ones', (kind, path, operations) => {
    expect(one(objects, kind).webhooks).toEqual([
      {
        name: 'admission-webhook.windows-gmsa.sigs.k8s.io',
        clientConfig: { service: { name: 'gmsa-webhook', namespace: 'gmsa-webhook', path } },
        rules: [{ operations, apiGroups: [''], apiVersions: ['*'], resources: ['pods'] }],
        failurePolicy: 'Fail',
        admissionReviewVersions: ['v1', 'v1beta1'],
        sideEffects: 'None',
        namespaceSelector: {
          matchExpressions: [
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['gmsa-webhook'] },
            { key: 'windows.k8s.io/disabled', operator: 'NotIn', values: ['true'] },
          ],
        },
      },
    ]);
  });

  test('passes the rule engine without findings', () => {
    expect(validateManifests(objects)).toEqual([]);
  });

  test('the webhook pod is locked down: non-root, no escalation, no capabilities, RuntimeDefault seccomp (issue 24)', () => {
    const d = one(objects, 'Deployment');
    const pod = (d.spec as { template: { spec: Spec } }).template.spec;
    // The image is FROM scratch without a USER: a numeric non-root user, and the safe sysctl that lets it bind 443.
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '443' }],
    });
    expect(podSecurityLevel(d)).toBe('restricted');
  });
});

describe('GmsaWebhook in a Chart with a namespace', () => {
  test("goes in the Chart's namespace, creates no Namespace, and its service references follow", () => {
    const objects = synth({}, 'security');
    expect(objects.map((o) => o.kind)).not.toContain('Namespace');
    expect(one(objects, 'Deployment').metadata.namespace).toBe('security');
    expect(one(objects, 'Service').metadata.namespace).toBe('security');
    const webhook = one(objects, 'MutatingWebhookConfiguration');
    expect(webhook.metadata.namespace).toBeUndefined();
    expect((webhook.webhooks as { clientConfig: { service: Spec } }[])[0].clientConfig.service).toMatchObject({
      name: 'gmsa-webhook',
      namespace: 'security',
    });
    // No cluster-scoped object carries a namespace.
    for (const kind of [
      'CustomResourceDefinition',
      'ClusterRole',
      'ClusterRoleBinding',
      'ValidatingWebhookConfiguration',
    ]) {
      for (const o of objects.filter((x) => x.kind === kind)) expect(o.metadata.namespace).toBeUndefined();
    }
  });

  test('a namespace given wins over the Chart, and is created as before', () => {
    const objects = synth({ namespace: 'gmsa' }, 'security');
    expect(one(objects, 'Namespace').metadata).toEqual({ name: 'gmsa' });
    expect(one(objects, 'Deployment').metadata.namespace).toBe('gmsa');
  });
});

describe('GmsaWebhook options', () => {
  test('a given secret and caBundle replace cert-manager', () => {
    const objects = synth({ tls: { type: 'secret', secretName: 'webhook-tls', caBundle: 'LS0tLS1CRUdJTg==' } });
    expect(objects.map((o) => o.kind)).not.toContain('Certificate');
    expect(objects.map((o) => o.kind)).not.toContain('Issuer');
    const webhook = one(objects, 'ValidatingWebhookConfiguration');
    expect(webhook.metadata.annotations).toBeUndefined();
    expect((webhook.webhooks as { clientConfig: Spec }[])[0].clientConfig).toEqual({
      service: { name: 'gmsa-webhook', namespace: 'gmsa-webhook', path: '/validate' },
      caBundle: 'LS0tLS1CRUdJTg==',
    });
    const pod = (one(objects, 'Deployment').spec as { template: { spec: { containers: Spec[]; volumes: Spec[] } } })
      .template.spec;
    expect(pod.containers[0].args).toEqual(['--cert-reload=false']);
    expect((pod.volumes[0].secret as Spec).secretName).toBe('webhook-tls');
  });

  test('a ClusterIssuer signs the certificate; no Issuer is created', () => {
    const objects = synth({ tls: { type: 'cert-manager', issuer: { kind: 'ClusterIssuer', name: 'corp-ca' } } });
    expect(objects.map((o) => o.kind)).not.toContain('Issuer');
    expect((one(objects, 'Certificate').spec as Spec).issuerRef).toEqual({ kind: 'ClusterIssuer', name: 'corp-ca' });
  });

  test('name, namespace, replicas, image, tolerations, log level; no Namespace or CRD', () => {
    const objects = synth({
      name: 'gmsa',
      namespace: 'kube-system',
      createNamespace: false,
      installCrd: false,
      replicas: 3,
      image: 'registry.example.com/gmsa-webhook:v0.13.0',
      tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
      logLevel: 'info',
    });
    expect(objects.map((o) => o.kind)).not.toContain('Namespace');
    expect(objects.map((o) => o.kind)).not.toContain('CustomResourceDefinition');
    const d = one(objects, 'Deployment');
    expect(d.metadata).toEqual({ name: 'gmsa', namespace: 'kube-system', labels: { app: 'gmsa' } });
    const spec = d.spec as { replicas: number; template: { spec: { tolerations: Spec[]; containers: Spec[] } } };
    expect(spec.replicas).toBe(3);
    expect(spec.template.spec.tolerations).toEqual([{ key: 'CriticalAddonsOnly', operator: 'Exists' }]);
    expect(spec.template.spec.containers[0].image).toBe('registry.example.com/gmsa-webhook:v0.13.0');
    expect(spec.template.spec.containers[0].env).toContainEqual({ name: 'LOG_LEVEL', value: 'info' });
    const webhook = one(objects, 'MutatingWebhookConfiguration');
    expect(webhook.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'kube-system/gmsa' });
  });

  test('a single replica gets a budget that does not block node drains', () => {
    expect(one(synth({ replicas: 1 }), 'PodDisruptionBudget').spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: { app: 'gmsa-webhook' } },
    });
  });

  test('in a namespaced chart, cluster-scoped objects carry no namespace', () => {
    const objects = synth({ namespace: 'gmsa-webhook' }, 'apps');
    for (const kind of [
      'Namespace',
      'CustomResourceDefinition',
      'ClusterRole',
      'ClusterRoleBinding',
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
    ]) {
      expect(one(objects, kind).metadata.namespace).toBeUndefined();
    }
    expect(one(objects, 'Deployment').metadata.namespace).toBe('gmsa-webhook');
  });

  test('bad props: every problem at once', () => {
    let error: unknown;
    try {
      synth({
        name: 'GMSA',
        namespace: 'a.b',
        replicas: 0,
        tls: { type: 'secret', secretName: 'Bad Secret', caBundle: 'not base64!' },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    expect((error as WindowsValidationError).issues.map((i) => i.path)).toEqual([
      'name',
      'namespace',
      'replicas',
      'tls.secretName',
      'tls.caBundle',
    ]);
  });
});
