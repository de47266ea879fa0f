import { Cron, Size, Testing, type Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { windowsNodeTarget } from 'k8s-windows';
import { RULES_BY_ID } from '../../lib/core/validate/rules';
import {
  WindowsAnnotations,
  WindowsCronJob,
  WindowsDaemonSet,
  WindowsDeployment,
  WindowsJob,
  WindowsRuntimeClass,
  WindowsStatefulSet,
  type IGmsaCredentialSpec,
} from 'k8s-windows/cdk8s';
import { ASPNET, IIS, NANOSERVER_2019, captureError, objectOf, podSpecOf, silenceWarnings } from '../helpers/cdk8s';

let chart: Chart;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

describe('default output', () => {
  test('an IIS Deployment is a kplus.Deployment with a Windows pod spec', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    expect(web).toBeInstanceOf(kplus.Deployment);
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(spec.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(spec.hostNetwork).toBeUndefined();
    expect(spec.securityContext).toBeUndefined();
    const [c] = spec.containers;
    expect(c.securityContext).toBeUndefined();
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.resources).toEqual({
      limits: { cpu: '1500m', memory: '2048Mi' },
      requests: { cpu: '1000m', memory: '2048Mi' },
    });
    // cdk8s-plus's default tcpSocket startup probe is not used on Windows.
    expect(c.startupProbe).toBeUndefined();
    expect(web.nodeTarget.release).toBe('2022');
    expect(web.securityProfile).toBe('baseline');
  });

  test('the .NET Framework example renders without warnings', () => {
    new WindowsDeployment(chart, 'app', { containers: [{ image: ASPNET, portNumber: 80 }] });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.containers[0].image).toBe(ASPNET);
    expect(WindowsAnnotations.warningsOf(chart)).toEqual([]);
    expect(emitWarning).not.toHaveBeenCalled();
  });

  test.each([
    [
      'StatefulSet',
      (c: Chart) => new WindowsStatefulSet(c, 'w', { containers: [{ image: IIS, portNumber: 80 }] }),
      kplus.StatefulSet,
    ],
    ['DaemonSet', (c: Chart) => new WindowsDaemonSet(c, 'w', { containers: [{ image: IIS }] }), kplus.DaemonSet],
    ['Job', (c: Chart) => new WindowsJob(c, 'w', { containers: [{ image: IIS }] }), kplus.Job],
    [
      'CronJob',
      (c: Chart) => new WindowsCronJob(c, 'w', { schedule: Cron.daily(), containers: [{ image: IIS }] }),
      kplus.CronJob,
    ],
  ])('%s is its cdk8s-plus construct and renders a Windows pod', (kind, make, base) => {
    const w = make(chart);
    expect(w).toBeInstanceOf(base);
    const spec = podSpecOf(Testing.synth(chart), kind);
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector?.['kubernetes.io/os']).toBe('windows');
    expect(spec.securityContext).toBeUndefined();
    expect(spec.containers[0].securityContext).toBeUndefined();
  });

  test('cdk8s-plus Linux defaults are dropped, never emitted as false', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, securityContext: { readOnlyRootFilesystem: false, privileged: false } }],
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.containers[0].securityContext).toBeUndefined();
    expect(JSON.stringify(spec)).not.toMatch(/fsGroupChangePolicy|allowPrivilegeEscalation|readOnlyRootFilesystem/);
  });

  test('runAsNonRoot the user asks for is kept in baseline', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, securityContext: { ensureNonRoot: true } }],
      securityContext: { ensureNonRoot: true },
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.securityContext).toEqual({ runAsNonRoot: true });
    expect(spec.containers[0].securityContext).toEqual({ runAsNonRoot: true });
  });

  test('a startup probe copies the liveness check with a Windows budget', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, portNumber: 80, liveness: kplus.Probe.fromHttpGet('/healthz') }],
    });
    const [c] = podSpecOf(Testing.synth(chart), 'Deployment').containers;
    expect(c.startupProbe).toEqual({
      httpGet: { path: '/healthz', port: 80, scheme: 'HTTP' },
      periodSeconds: 10,
      failureThreshold: 30,
    });
  });

  test('a startup probe and pull policy the user sets are kept', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [
        {
          image: IIS,
          portNumber: 80,
          imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
          startup: kplus.Probe.fromHttpGet('/', { failureThreshold: 60 }),
        },
      ],
    });
    const [c] = podSpecOf(Testing.synth(chart), 'Deployment').containers;
    expect(c.imagePullPolicy).toBe('Always');
    expect(c.startupProbe?.failureThreshold).toBe(60);
    expect(c.startupProbe?.httpGet?.path).toBe('/');
  });

  test('a memory limit alone gets an equal request', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, resources: { memory: { limit: Size.gibibytes(1) } } }],
    });
    const [c] = podSpecOf(Testing.synth(chart), 'Deployment').containers;
    expect(c.resources).toEqual({ limits: { memory: '1024Mi' }, requests: { memory: '1024Mi' } });
  });

  test('a memory request below the limit is kept and warned about', () => {
    new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, resources: { memory: { request: Size.mebibytes(512), limit: Size.gibibytes(1) } } }],
    });
    const [c] = podSpecOf(Testing.synth(chart), 'Deployment').containers;
    expect(c.resources?.requests?.memory).toBe('512Mi');
    const warnings = WindowsAnnotations.warningsOf(chart);
    expect(warnings.map((w) => w.ruleId)).toEqual(['windows-memory-request-limit']);
    expect(RULES_BY_ID.has('windows-memory-request-limit')).toBe(true);
    expect(warnings[0].message).toMatch(/^\[windows-memory-request-limit\] spec\.template\.spec\.containers\[0\]/);
  });
});

describe('targets', () => {
  test('release pins the build label', () => {
    new WindowsDeployment(chart, 'web', { windows: { release: '2019' }, containers: [{ image: NANOSERVER_2019 }] });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.nodeSelector?.['node.kubernetes.io/windows-build']).toBe('10.0.17763');
  });

  test("a node pool's target gives its labels and exactly its taints", () => {
    const target = windowsNodeTarget({
      release: '2025',
      labels: { pool: 'win25' },
      taints: [{ key: 'sku', value: 'windows', effect: 'NoExecute' }],
    });
    const web = new WindowsDeployment(chart, 'web', {
      windows: { target },
      containers: [{ image: 'mcr.microsoft.com/windows/servercore:ltsc2025' }],
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.26100',
      pool: 'win25',
    });
    expect(spec.tolerations).toEqual([{ key: 'sku', operator: 'Equal', value: 'windows', effect: 'NoExecute' }]);
    expect(web.nodeTarget).toBe(target);
  });

  test('a RuntimeClass gives runtimeClassName and its scheduling', () => {
    const rc = new WindowsRuntimeClass(chart, 'rc', { release: '2022' });
    new WindowsDeployment(chart, 'web', { windows: { runtimeClass: rc }, containers: [{ image: IIS }] });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.runtimeClassName).toBe('windows-2022');
    expect(spec.nodeSelector?.['node.kubernetes.io/windows-build']).toBe('10.0.20348');
  });

  test('Hyper-V through a RuntimeClass runs an older image on a newer host', () => {
    const rc = new WindowsRuntimeClass(chart, 'rc', { release: '2022', isolation: 'hyperv' });
    const web = new WindowsDeployment(chart, 'web', {
      windows: { runtimeClass: rc },
      containers: [{ image: NANOSERVER_2019 }],
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.runtimeClassName).toBe('windows-2022-hyperv');
    expect(web.nodeTarget.isolation).toBe('hyperv');
  });

  test('Hyper-V without a RuntimeClass is refused', () => {
    const err = captureError(
      () => new WindowsDeployment(chart, 'web', { windows: { isolation: 'hyperv' }, containers: [{ image: IIS }] }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['windows.isolation']);
    expect(err.issues[0].fix).toMatch(/WindowsRuntimeClass/);
  });

  test('contradicting target props are all reported', () => {
    const rc = new WindowsRuntimeClass(chart, 'rc', { release: '2022' });
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'web', {
          windows: { runtimeClass: rc, target: windowsNodeTarget(), release: '2019', isolation: 'hyperv' },
          containers: [{ image: IIS }],
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['windows.runtimeClass', 'windows.release', 'windows.isolation']);
    expect(err.message).toMatch(/^test\/web: 3 Windows validation problems/);
  });

  test('a bad release is reported with the fix', () => {
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'web', {
          windows: { release: 'ltsc2022' as never },
          containers: [{ image: IIS }],
        }),
    );
    expect(err.issues[0]).toMatchObject({ path: 'windows.release', fix: "Write '2022'." });
  });
});

describe('images', () => {
  test('an image for another build under process isolation throws with the fix', () => {
    const err = captureError(() => new WindowsDeployment(chart, 'web', { containers: [{ image: NANOSERVER_2019 }] }));
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0].path).toBe('spec.template.spec.containers[0].image');
    expect(err.issues[0].fix).toMatch(/ltsc2022/);
  });

  test('a floating tag is a warning with the rule id', () => {
    new WindowsDeployment(chart, 'web', { containers: [{ image: 'contoso.azurecr.io/shop/api:4.8' }] });
    Testing.synth(chart);
    Testing.synth(chart);
    const warnings = WindowsAnnotations.warningsOf(chart);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ ruleId: 'image-floating-tag', constructPath: 'test/web' });
    expect(RULES_BY_ID.has(warnings[0].ruleId)).toBe(true);
    expect(warnings[0].message).toMatch(/^\[image-floating-tag\] spec\.template\.spec\.containers\[0\]\.image: /);
    expect(emitWarning).toHaveBeenCalledTimes(1);
  });
});

describe('security profile and identity', () => {
  test("'restricted' sets runAsNonRoot with ContainerUser", () => {
    const web = new WindowsDeployment(chart, 'web', {
      windows: { securityProfile: 'restricted' },
      containers: [{ image: IIS }],
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.securityContext).toEqual({ runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } });
    expect(spec.containers[0].securityContext).toBeUndefined();
    expect(web.securityProfile).toBe('restricted');
  });

  test("'restricted' with ensureNonRoot: false is refused", () => {
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'web', {
          windows: { securityProfile: 'restricted' },
          securityContext: { ensureNonRoot: false },
          containers: [{ image: IIS }],
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['securityContext.ensureNonRoot']);
  });

  test('runAsUserName is set on the pod and checked', () => {
    new WindowsDeployment(chart, 'ok', { windows: { runAsUserName: 'ContainerUser' }, containers: [{ image: IIS }] });
    expect(podSpecOf(Testing.synth(chart), 'Deployment').securityContext).toEqual({
      windowsOptions: { runAsUserName: 'ContainerUser' },
    });
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'bad', { windows: { runAsUserName: 'a\\b\\c' }, containers: [{ image: IIS }] }),
    );
    expect(err.issues[0].path).toBe('windows.runAsUserName');
  });

  test('gMSA by name is set on the pod, not on init containers', () => {
    new WindowsDeployment(chart, 'web', {
      windows: { gmsa: 'webapp01' },
      initContainers: [{ image: IIS, name: 'setup' }],
      containers: [{ image: IIS }],
    });
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.securityContext?.windowsOptions).toEqual({ gmsaCredentialSpecName: 'webapp01' });
    expect(spec.initContainers?.[0].securityContext).toBeUndefined();
  });

  test('a gMSA credential spec object is granted to a service account created for the workload', () => {
    const granted: kplus.IServiceAccount[] = [];
    const spec: IGmsaCredentialSpec = { name: 'webapp01', grantUse: (sa) => granted.push(sa) };
    const web = new WindowsDeployment(chart, 'web', { windows: { gmsa: spec }, containers: [{ image: IIS }] });
    expect(granted).toHaveLength(1);
    expect(web.serviceAccount).toBe(granted[0]);
    const manifests = Testing.synth(chart);
    const pod = podSpecOf(manifests, 'Deployment');
    expect(pod.serviceAccountName).toBe(granted[0].name);
    expect(objectOf(manifests, 'ServiceAccount').metadata.name).toBe(granted[0].name);
  });

  test("a gMSA credential spec object is granted to the workload's own service account", () => {
    const sa = new kplus.ServiceAccount(chart, 'sa');
    const granted: kplus.IServiceAccount[] = [];
    new WindowsDeployment(chart, 'web', {
      serviceAccount: sa,
      windows: { gmsa: { name: 'webapp01', grantUse: (s) => granted.push(s) } },
      containers: [{ image: IIS }],
    });
    expect(granted).toEqual([sa]);
  });

  test('a bad gMSA name is refused', () => {
    const err = captureError(
      () => new WindowsDeployment(chart, 'web', { windows: { gmsa: 'WebApp_01' }, containers: [{ image: IIS }] }),
    );
    expect(err.issues[0].path).toBe('windows.gmsa');
  });

  test('HostProcess on a WindowsDaemonSet sets hostNetwork and the HostProcess user', () => {
    new WindowsDaemonSet(chart, 'agent', { windows: { hostProcess: true }, containers: [{ image: 'agent:1.0' }] });
    const spec = podSpecOf(Testing.synth(chart), 'DaemonSet');
    expect(spec.hostNetwork).toBe(true);
    expect(spec.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' },
    });
  });

  test("HostProcess with the 'restricted' profile is refused", () => {
    const err = captureError(
      () =>
        new WindowsDaemonSet(chart, 'agent', {
          windows: { hostProcess: true, securityProfile: 'restricted' },
          containers: [{ image: 'agent:1.0' }],
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual(['windows.securityProfile']);
  });
});

describe('a refused construct', () => {
  test('leaves the tree: the chart synthesizes without it and the id can be used again', () => {
    captureError(
      () => new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, securityContext: { user: 1000 } }] }),
    );
    expect(chart.node.tryFindChild('web')).toBeUndefined();
    expect(Testing.synth(chart)).toEqual([]);
    new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    expect(podSpecOf(Testing.synth(chart), 'Deployment').os).toEqual({ name: 'windows' });
  });

  test('the other constructs that refuse their props leave the tree too', () => {
    captureError(() => new WindowsRuntimeClass(chart, 'rc', { release: '1809' as never }));
    captureError(
      () => new WindowsDaemonSet(chart, 'ds', { containers: [{ image: IIS }], windows: { isolation: 'hyperv' } }),
    );
    expect(chart.node.children).toEqual([]);
  });
});

describe('forbidden fields', () => {
  test('set on purpose at construction: every one is reported at once', () => {
    const err = captureError(
      () =>
        new WindowsDeployment(chart, 'web', {
          securityContext: { fsGroup: 2000 },
          hostNetwork: true,
          containers: [{ image: IIS, securityContext: { privileged: true, readOnlyRootFilesystem: true, user: 1000 } }],
        }),
    );
    // hostNetwork: true is a warning in lint (the kubelet ignores it outside HostProcess): not refused here either.
    expect(err.issues.map((i) => i.path).sort()).toEqual([
      'spec.template.spec.containers[0].securityContext.privileged',
      'spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem',
      'spec.template.spec.containers[0].securityContext.runAsUser',
      'spec.template.spec.securityContext.fsGroup',
    ]);
    expect(err.message).toMatch(/^test\/web: 4 Windows validation problems/);
    expect(err.issues.find((i) => i.path.endsWith('runAsUser'))?.fix).toMatch(/runAsUserName/);
  });

  test('on a container added after construction: thrown at synth with the construct path', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    web.addContainer({ name: 'sidecar', image: IIS, securityContext: { privileged: true } });
    const err = captureError(() => Testing.synth(chart));
    expect(err.message).toMatch(/^test\/web: 1 Windows validation problem:/);
    expect(err.issues).toEqual([
      expect.objectContaining({ path: 'spec.template.spec.containers[1].securityContext.privileged' }),
    ]);
  });

  test('cdk8s-plus defaults of an attached container are dropped, its own settings kept', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    web.attachContainer(new kplus.Container({ name: 'attached', image: IIS }));
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.containers[1].securityContext).toBeUndefined();
    expect(spec.containers[1].imagePullPolicy).toBe('Always');
  });

  test('a cdk8s-plus whose containers keep their defaults elsewhere still renders none of them', () => {
    // Containers normally render only the user's fields (their `_startup` and `securityContext._toKube` are replaced
    // when added). Without those internals the render removes the defaults from the JSON instead.
    const addContainer = jest.spyOn(kplus.AbstractPod.prototype, 'addContainer').mockImplementation(function (
      this: kplus.AbstractPod,
      cont: kplus.ContainerProps,
    ) {
      const container = new kplus.Container(cont);
      this.attachContainer(container);
      delete (container as unknown as { _startup?: unknown })._startup;
      return container;
    });
    try {
      new WindowsDeployment(chart, 'web', {
        containers: [{ image: IIS, portNumber: 80, securityContext: { ensureNonRoot: true } }],
      });
    } finally {
      addContainer.mockRestore();
    }
    const [c] = podSpecOf(Testing.synth(chart), 'Deployment').containers;
    expect(c.securityContext).toEqual({ runAsNonRoot: true });
    expect(c.startupProbe).toBeUndefined();
    expect(c.imagePullPolicy).toBe('IfNotPresent');
  });

  test('a pod securityContext renders only the fields the user set', () => {
    new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }], securityContext: { ensureNonRoot: true } });
    new WindowsDeployment(chart, 'plain', { containers: [{ image: IIS }] });
    const manifests = Testing.synth(chart);
    expect(manifests[0].spec.template.spec.securityContext).toEqual({ runAsNonRoot: true });
    expect(manifests[1].spec.template.spec.securityContext).toBeUndefined();
  });
});

describe('cdk8s-plus features keep working', () => {
  test('containers and volumes added after construction are converted', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    const c = web.addContainer({ name: 'logs', image: IIS, portNumber: 8080 });
    c.mount('C:\\logs', kplus.Volume.fromEmptyDir(chart, 'logs', 'logs'));
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.containers.map((x) => x.name)).toEqual(['main', 'logs']);
    expect(spec.containers[1].securityContext).toBeUndefined();
    expect(spec.containers[1].imagePullPolicy).toBe('IfNotPresent');
    expect(spec.containers[1].startupProbe).toBeUndefined();
    expect(spec.volumes).toEqual([{ name: 'logs', emptyDir: {} }]);
  });

  test('exposeViaService selects the Windows pods', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    const svc = web.exposeViaService({ serviceType: kplus.ServiceType.LOAD_BALANCER });
    const manifests = Testing.synth(chart);
    const service = objectOf(manifests, 'Service');
    const deployment = objectOf(manifests, 'Deployment');
    expect(svc).toBeInstanceOf(kplus.Service);
    expect(service.spec.type).toBe('LoadBalancer');
    expect(service.spec.ports).toEqual([{ port: 80, targetPort: 80 }]);
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
  });

  test('scheduling tolerations and affinity are merged with the Windows ones', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS }] });
    web.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.is('team', 'a')));
    web.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('zone', 'z1')));
    const spec = podSpecOf(Testing.synth(chart), 'Deployment');
    expect(spec.tolerations).toEqual([
      { key: 'team', operator: 'Equal', value: 'a' },
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
    ]);
    expect(spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toBeDefined();
  });

  test('a StatefulSet keeps its headless Service', () => {
    new WindowsStatefulSet(chart, 'db', { containers: [{ image: IIS, portNumber: 1433 }] });
    const manifests = Testing.synth(chart);
    expect(objectOf(manifests, 'Service').spec.clusterIP).toBe('None');
    expect(podSpecOf(manifests, 'StatefulSet').os).toEqual({ name: 'windows' });
  });
});
