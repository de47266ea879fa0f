/** Builders for the rule tests: a Windows pod that passes every rule, and variations of it. */
export const WINDOWS_IMAGE = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';
export const WINDOWS_TOLERATION = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };

type Obj = Record<string, unknown>;

/** A Windows container that passes every rule. */
export function container(extra: Obj = {}): Obj {
  return { name: 'app', image: WINDOWS_IMAGE, ...extra };
}

/** A Windows pod spec that passes every rule; `overrides` replace top-level spec fields (undefined removes one). */
export function windowsSpec(overrides: Obj = {}): Obj {
  const spec: Obj = {
    os: { name: 'windows' },
    nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
    tolerations: [WINDOWS_TOLERATION],
    containers: [container()],
    ...overrides,
  };
  for (const k of Object.keys(spec)) if (spec[k] === undefined) delete spec[k];
  return spec;
}

export function pod(spec: Obj = windowsSpec(), metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', ...metadata }, spec };
}

export function windowsPod(overrides: Obj = {}, metadata: Obj = {}): Obj {
  return pod(windowsSpec(overrides), metadata);
}

export function deployment(spec: Obj = windowsSpec(), metadata: Obj = {}, templateMetadata: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', ...metadata },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' }, ...templateMetadata }, spec },
    },
  };
}

export function linuxPod(overrides: Obj = {}): Obj {
  const spec: Obj = {
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    containers: [{ name: 'app', image: 'nginx:1.27' }],
    ...overrides,
  };
  for (const k of Object.keys(spec)) if (spec[k] === undefined) delete spec[k];
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'linux' }, spec };
}

/** A HostProcess pod that passes every rule. */
export function hostProcessSpec(overrides: Obj = {}): Obj {
  return windowsSpec({
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [
      container({ image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0' }),
    ],
    ...overrides,
  });
}

/** A credspec as New-CredentialSpec writes it. */
export function credspecContent(
  overrides: { DomainJoinConfig?: Obj; ActiveDirectoryConfig?: Obj; CmsPlugins?: unknown } = {},
): Obj {
  return {
    CmsPlugins: overrides.CmsPlugins ?? ['ActiveDirectory'],
    DomainJoinConfig: {
      Sid: 'S-1-5-21-702590844-1001920913-2680819671',
      MachineAccountName: 'webapp01',
      Guid: '56d9b136-5ed2-4b70-9a4b-4a7d1d1ef6e3',
      DnsTreeName: 'contoso.com',
      DnsName: 'contoso.com',
      NetBiosName: 'CONTOSO',
      ...overrides.DomainJoinConfig,
    },
    ActiveDirectoryConfig: {
      GroupManagedServiceAccounts: [
        { Name: 'webapp01', Scope: 'contoso.com' },
        { Name: 'webapp01', Scope: 'CONTOSO' },
      ],
      ...overrides.ActiveDirectoryConfig,
    },
  };
}

export function credspec(name = 'webapp-gmsa', content: Obj = credspecContent(), extra: Obj = {}): Obj {
  return {
    apiVersion: 'windows.k8s.io/v1',
    kind: 'GMSACredentialSpec',
    metadata: { name },
    credspec: content,
    ...extra,
  };
}

/** ClusterRole + RoleBinding granting `use` on a credspec to a ServiceAccount (reference §8, least privilege). */
export function gmsaRbac(credspecName = 'webapp-gmsa', namespace = 'default', serviceAccount = 'default'): Obj[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: `${credspecName}-user` },
      rules: [
        {
          apiGroups: ['windows.k8s.io'],
          resources: ['gmsacredentialspecs'],
          verbs: ['use'],
          resourceNames: [credspecName],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${credspecName}-user`, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${credspecName}-user` },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
    },
  ];
}

export function runtimeClass(name: string, handler: unknown, build?: string): Obj {
  return {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name },
    handler,
    scheduling: {
      nodeSelector: { 'kubernetes.io/os': 'windows', ...(build ? { 'node.kubernetes.io/windows-build': build } : {}) },
      tolerations: [WINDOWS_TOLERATION],
    },
  };
}

export function namespace(name: string, enforce?: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, ...(enforce ? { labels: { 'pod-security.kubernetes.io/enforce': enforce } } : {}) },
  };
}

export function service(spec: Obj, name = 'web'): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
  };
}
