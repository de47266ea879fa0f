/**
 * The API server's Windows/Linux pod rules (reference §3), reproduced with its paths: every forbidden field with a
 * rejected and an accepted pod, in every container list and inside every workload kind.
 */
import { validateManifests, type Diagnostic } from 'k8s-windows';
import { FORBIDDEN_CONTAINER_SECURITY_FIELDS, FORBIDDEN_POD_SECURITY_FIELDS } from '../../../lib/core/windows-fields';
import { container, deployment, hostProcessSpec, linuxPod, pod, windowsPod, windowsSpec } from './fixtures';

const SAMPLE_VALUE: Record<string, unknown> = {
  appArmorProfile: { type: 'RuntimeDefault' },
  seLinuxOptions: { level: 's0:c123,c456' },
  seccompProfile: { type: 'RuntimeDefault' },
  fsGroup: 2000,
  fsGroupChangePolicy: 'OnRootMismatch',
  runAsUser: 1000,
  runAsGroup: 3000,
  supplementalGroups: [4000],
  supplementalGroupsPolicy: 'Strict',
  seLinuxChangePolicy: 'MountOption',
  capabilities: { drop: ['ALL'] },
  readOnlyRootFilesystem: false,
  privileged: false,
  allowPrivilegeEscalation: false,
  procMount: 'Default',
};

const rule = (ds: Diagnostic[], id: string): Diagnostic[] => ds.filter((d) => d.ruleId === id);
const paths = (ds: Diagnostic[], id: string): string[] => rule(ds, id).map((d) => d.path);

describe('windows-forbidden-field: pod securityContext', () => {
  test.each(FORBIDDEN_POD_SECURITY_FIELDS.map((f) => [f]))(
    '%s is rejected at its path, and the pod without it accepted',
    (field) => {
      const rejected = validateManifests([
        deployment(windowsSpec({ securityContext: { [field]: SAMPLE_VALUE[field] } })),
      ]);
      const d = rule(rejected, 'windows-forbidden-field');
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({
        severity: 'error',
        path: `spec.template.spec.securityContext.${field}`,
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      });
      expect(d[0].message).toContain('Forbidden: cannot be set for a windows pod');
      const value = SAMPLE_VALUE[field];
      expect(d[0].message).toContain(typeof value === 'string' ? `'${value}'` : JSON.stringify(value).slice(0, 10));
      expect(validateManifests([deployment(windowsSpec())])).toEqual([]);
    },
  );

  test('non-empty sysctls are rejected, empty ones accepted', () => {
    const bad = windowsPod({ securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] } });
    expect(paths(validateManifests([bad]), 'windows-forbidden-field')).toEqual(['spec.securityContext.sysctls']);
    expect(validateManifests([windowsPod({ securityContext: { sysctls: [] } })])).toEqual([]);
  });

  test('hostUsers and shareProcessNamespace are rejected with any value, false included', () => {
    for (const [field, value] of [
      ['hostUsers', false],
      ['hostUsers', true],
      ['shareProcessNamespace', false],
    ] as const) {
      expect(paths(validateManifests([windowsPod({ [field]: value })]), 'windows-forbidden-field')).toEqual([
        `spec.${field}`,
      ]);
    }
  });

  test('hostPID and hostIPC are rejected when true, accepted when false', () => {
    for (const field of ['hostPID', 'hostIPC']) {
      expect(paths(validateManifests([windowsPod({ [field]: true })]), 'windows-forbidden-field')).toEqual([
        `spec.${field}`,
      ]);
      expect(validateManifests([windowsPod({ [field]: false })])).toEqual([]);
    }
  });

  test('pod-level resources are rejected with their own detail', () => {
    const ds = rule(
      validateManifests([windowsPod({ resources: { limits: { cpu: '1' } } })]),
      'windows-forbidden-field',
    );
    expect(ds.map((d) => d.path)).toEqual(['spec.resources']);
    expect(ds[0].message).toContain('may not be set for a windows pod');
  });

  test('null values count as unset, as the API server decodes them to nil', () => {
    expect(validateManifests([windowsPod({ securityContext: { runAsUser: null }, hostUsers: null })])).toEqual([]);
  });
});

describe('windows-forbidden-field: every container list', () => {
  const lists = [
    ['initContainers', 'spec.initContainers[0]'],
    ['containers', 'spec.containers[0]'],
    ['ephemeralContainers', 'spec.ephemeralContainers[0]'],
  ] as const;
  test.each(FORBIDDEN_CONTAINER_SECURITY_FIELDS.map((f) => [f]))('%s', (field) => {
    for (const [list, path] of lists) {
      const c = container({ name: 'x', securityContext: { [field]: SAMPLE_VALUE[field] } });
      const spec = list === 'containers' ? windowsSpec({ containers: [c] }) : windowsSpec({ [list]: [c] });
      expect(paths(validateManifests([pod(spec)]), 'windows-forbidden-field')).toEqual([
        `${path}.securityContext.${field}`,
      ]);
      const clean = list === 'containers' ? windowsSpec() : windowsSpec({ [list]: [container({ name: 'x' })] });
      expect(rule(validateManifests([pod(clean)]), 'windows-forbidden-field')).toEqual([]);
    }
  });

  test('paths follow each workload kind', () => {
    const spec = windowsSpec({ containers: [container({ securityContext: { runAsUser: 1 } })] });
    const wrap = (kind: string, body: Record<string, unknown>) => ({
      apiVersion: 'x/v1',
      kind,
      metadata: { name: 'w' },
      ...body,
    });
    const template = { template: { spec } };
    const cases: [Record<string, unknown>, string][] = [
      [wrap('StatefulSet', { spec: template }), 'spec.template.spec'],
      [wrap('DaemonSet', { spec: template }), 'spec.template.spec'],
      [wrap('ReplicaSet', { spec: template }), 'spec.template.spec'],
      [wrap('ReplicationController', { spec: template }), 'spec.template.spec'],
      [wrap('Job', { spec: template }), 'spec.template.spec'],
      [wrap('CronJob', { spec: { jobTemplate: { spec: template } } }), 'spec.jobTemplate.spec.template.spec'],
      [wrap('PodTemplate', template), 'template.spec'],
    ];
    for (const [obj, base] of cases) {
      expect(paths(validateManifests([obj]), 'windows-forbidden-field')).toEqual([
        `${base}.containers[0].securityContext.runAsUser`,
      ]);
    }
  });
});

describe('windows-linux-only-field: Windows by evidence, no spec.os', () => {
  test('nodeSelector evidence turns forbidden fields into info', () => {
    const ds = validateManifests([windowsPod({ os: undefined, securityContext: { fsGroup: 1 } })]);
    expect(rule(ds, 'windows-forbidden-field')).toEqual([]);
    expect(rule(ds, 'windows-linux-only-field')).toMatchObject([
      { severity: 'info', path: 'spec.securityContext.fsGroup' },
    ]);
  });

  test('every image being a Windows image is evidence', () => {
    const p = pod({ containers: [container({ securityContext: { privileged: true } })] });
    expect(paths(validateManifests([p]), 'windows-linux-only-field')).toEqual([
      'spec.containers[0].securityContext.privileged',
    ]);
  });

  test('one Windows image makes a Windows pod: a pod cannot mix Windows and Linux containers', () => {
    const p = pod({
      containers: [container(), { name: 'side', image: 'nginx:1.27', securityContext: { privileged: true } }],
    });
    const found = validateManifests([p]);
    expect(rule(found, 'windows-node-selector-missing')).toMatchObject([{ severity: 'error' }]);
    expect(rule(found, 'windows-linux-only-field')).toMatchObject([
      { path: 'spec.containers[1].securityContext.privileged', severity: 'info' },
    ]);
  });
});

describe('windows-os-name', () => {
  test('empty name is Required at spec.os.name', () => {
    for (const os of [{}, { name: '' }]) {
      const d = rule(validateManifests([windowsPod({ os })]), 'windows-os-name');
      expect(d).toMatchObject([{ path: 'spec.os.name', severity: 'error' }]);
      expect(d[0].message).toContain('Required');
    }
  });

  test('an unknown name is NotSupported at spec.os', () => {
    const d = rule(validateManifests([linuxPod({ os: { name: 'darwin' } })]), 'windows-os-name');
    expect(d).toMatchObject([{ path: 'spec.os' }]);
    expect(d[0].message).toContain('not supported');
  });

  test('linux and windows are accepted', () => {
    expect(rule(validateManifests([linuxPod({ os: { name: 'linux' } }), windowsPod()]), 'windows-os-name')).toEqual([]);
  });
});

describe('windows-options-on-linux-pod', () => {
  test('pod and container windowsOptions, even {}, are rejected on Linux pods', () => {
    const p = linuxPod({
      os: { name: 'linux' },
      securityContext: { windowsOptions: {} },
      initContainers: [
        { name: 'i', image: 'busybox:1.36', securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } },
      ],
    });
    expect(paths(validateManifests([p]), 'windows-options-on-linux-pod')).toEqual([
      'spec.securityContext.windowsOptions',
      'spec.initContainers[0].securityContext.windowsOptions',
    ]);
  });

  test('a pod without spec.os may carry windowsOptions', () => {
    expect(
      rule(validateManifests([linuxPod({ securityContext: { windowsOptions: {} } })]), 'windows-options-on-linux-pod'),
    ).toEqual([]);
  });
});

describe('windows-run-as-user-name (every sub-rule)', () => {
  const user = (name: unknown) => windowsPod({ securityContext: { windowsOptions: { runAsUserName: name } } });
  const check = (name: unknown): Diagnostic[] => rule(validateManifests([user(name)]), 'windows-run-as-user-name');
  test.each([
    ['', 'empty'],
    ['Container\u0007User', 'control characters'],
    ['a\\b\\c', 'more than one backslash'],
    [`${'d'.repeat(256)}\\user`, 'domain too long'],
    ['bad.domain_with_underscore\\user', 'domain neither NetBIOS nor DNS'],
    ['CONTOSO\\', 'empty user'],
    ['u'.repeat(105), 'user too long'],
    ['. .', 'only dots and spaces'],
    ['user@contoso', 'forbidden character @'],
    ['CONTOSO\\us:er', 'forbidden character :'],
  ])('%j is rejected (%s)', (name) => {
    expect(check(name)).toMatchObject([
      { path: 'spec.securityContext.windowsOptions.runAsUserName', severity: 'error' },
    ]);
  });
  test.each([
    ['ContainerUser'],
    ['ContainerAdministrator'],
    ['NT AUTHORITY\\NETWORK SERVICE'],
    ['contoso.com\\svc-web'],
    ['CONTOSO\\svc-web'],
    ['u'.repeat(104)],
  ])('%j is accepted', (name) => {
    expect(check(name)).toEqual([]);
  });
});

describe('gMSA name and inline spec formats', () => {
  test('gmsaCredentialSpecName must be a DNS-1123 subdomain of at most 253 characters', () => {
    const named = (n: string) =>
      windowsPod({ containers: [container({ securityContext: { windowsOptions: { gmsaCredentialSpecName: n } } })] });
    for (const bad of ['Upper', 'under_score', '-lead', 'a'.repeat(254)]) {
      expect(paths(validateManifests([named(bad)]), 'gmsa-name-format')).toEqual([
        'spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName',
      ]);
    }
    expect(rule(validateManifests([named('web.gmsa-1')]), 'gmsa-name-format')).toEqual([]);
  });

  test('gmsaCredentialSpec over 65536 bytes is rejected, at the limit accepted', () => {
    const inline = (s: string) => windowsPod({ securityContext: { windowsOptions: { gmsaCredentialSpec: s } } });
    expect(paths(validateManifests([inline('x'.repeat(65537))]), 'gmsa-inline-spec-size')).toEqual([
      'spec.securityContext.windowsOptions.gmsaCredentialSpec',
    ]);
    expect(rule(validateManifests([inline('x'.repeat(65536))]), 'gmsa-inline-spec-size')).toEqual([]);
  });
});

describe('HostProcess consistency, whatever the OS', () => {
  test('checked on a pod with no OS evidence at all', () => {
    const p = pod({
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [
        { name: 'a', image: 'example/agent:1' },
        { name: 'b', image: 'example/agent:1', securityContext: { windowsOptions: { hostProcess: false } } },
      ],
    });
    expect(validateManifests([p]).map((d) => [d.ruleId, d.path])).toEqual(
      expect.arrayContaining([
        ['hostprocess-mismatch', 'spec.containers[1].securityContext.windowsOptions.hostProcess'],
        ['hostprocess-all-or-none', 'spec'],
        ['hostprocess-host-network', 'spec.hostNetwork'],
      ]),
    );
  });

  test('container-level HostProcess on every container (init included) with hostNetwork is accepted', () => {
    const hp = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
    const spec = hostProcessSpec({
      securityContext: undefined,
      initContainers: [container({ name: 'init', securityContext: hp })],
      containers: [container({ securityContext: hp })],
    });
    expect(validateManifests([pod(spec)])).toEqual([]);
  });

  test('an ephemeral container without HostProcess breaks all-or-none', () => {
    const spec = hostProcessSpec({
      securityContext: { windowsOptions: { runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [container({ securityContext: { windowsOptions: { hostProcess: true } } })],
      ephemeralContainers: [container({ name: 'debug' })],
    });
    const d = rule(validateManifests([pod(spec)]), 'hostprocess-all-or-none');
    expect(d).toHaveLength(1);
    expect(d[0].message).toContain('spec.ephemeralContainers[0]');
  });
});

describe('HostProcess users and images', () => {
  const hp = (windowsOptions: Record<string, unknown>) =>
    pod(hostProcessSpec({ securityContext: { windowsOptions: { hostProcess: true, ...windowsOptions } } }));

  test('no runAsUserName is a warning on each HostProcess container', () => {
    expect(rule(validateManifests([hp({ runAsUserName: undefined })]), 'hostprocess-run-as-user-name')).toMatchObject([
      { severity: 'warning', path: 'spec.containers[0].securityContext.windowsOptions.runAsUserName' },
    ]);
  });

  test('an account that may be a local group is a warning; container accounts are errors', () => {
    expect(rule(validateManifests([hp({ runAsUserName: 'hpc-users' })]), 'hostprocess-run-as-user-name')).toMatchObject(
      [{ severity: 'warning', path: 'spec.securityContext.windowsOptions.runAsUserName' }],
    );
    expect(
      rule(validateManifests([hp({ runAsUserName: 'containeradministrator' })]), 'hostprocess-run-as-user-name'),
    ).toMatchObject([{ severity: 'error' }]);
  });

  test('the documented host accounts are accepted in any case', () => {
    for (const user of ['NT AUTHORITY\\SYSTEM', 'nt authority\\networkservice', 'NT AUTHORITY\\Local service']) {
      expect(rule(validateManifests([hp({ runAsUserName: user })]), 'hostprocess-run-as-user-name')).toEqual([]);
    }
  });

  test('HostProcess pods may use hostNetwork, hostPort and Linux-looking mount paths', () => {
    const spec = hostProcessSpec({
      containers: [
        container({
          image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
          ports: [{ containerPort: 9182, hostPort: 9182 }],
          volumeMounts: [{ name: 'cfg', mountPath: '/etc/exporter' }],
        }),
      ],
      volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }],
    });
    expect(validateManifests([pod(spec)])).toEqual([]);
  });

  test('floating tags: latest, no tag; digests are pinned', () => {
    const img = (image: string) => windowsPod({ containers: [container({ image })] });
    for (const image of ['mcr.microsoft.com/windows/nanoserver:latest', 'mcr.microsoft.com/windows/nanoserver']) {
      expect(rule(validateManifests([img(image)]), 'image-floating-tag')).toHaveLength(1);
    }
    const digest = `mcr.microsoft.com/windows/nanoserver@sha256:${'a'.repeat(64)}`;
    expect(rule(validateManifests([img(digest)]), 'image-floating-tag')).toEqual([]);
  });
});
