/**
 * Every supported cdk8s-plus major, from the one source: `lib/cdk8s` loaded with `cdk8s-plus-28` resolved to each
 * major (as `build/cdk8s-plus-NN` is built), producing the same Windows pod from each major's own defaults.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type * as Cdk8s from 'cdk8s';
import type * as WindowsCdk8s from '../../lib/cdk8s';
import { LATER_MAJORS, SOURCE_MAJOR, retarget } from '../../scripts/cdk8s-plus-majors';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const MAJORS = [SOURCE_MAJOR, ...LATER_MAJORS];

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
interface Loaded {
  lib: typeof WindowsCdk8s;
  kplus: any;
  cdk8s: typeof Cdk8s;
}

/** `lib/cdk8s` with its `cdk8s-plus-28` import resolved to `cdk8s-plus-<major>`, in a fresh module registry. */
function load(major: number): Loaded {
  let loaded: Loaded | undefined;
  jest.isolateModules(() => {
    const kplus = require(`cdk8s-plus-${major}`);
    jest.doMock('cdk8s-plus-28', () => kplus);
    loaded = { lib: require('../../lib/cdk8s'), kplus, cdk8s: require('cdk8s') };
  });
  return loaded as Loaded;
}

const loadedMajors = new Map(MAJORS.map((m) => [m, load(m)]));
jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);

describe.each(MAJORS)('cdk8s-plus-%i', (major) => {
  const { lib, kplus, cdk8s } = loadedMajors.get(major) as Loaded;

  test('the constructs are that major’s constructs, with the same API', () => {
    const chart = cdk8s.Testing.chart();
    const web = new lib.WindowsDeployment(chart, 'web', {
      replicas: 2,
      containers: [{ image: IIS, portNumber: 80 }],
    });
    web.addContainer({ image: IIS, name: 'sidecar' });
    expect(web).toBeInstanceOf(kplus.Deployment);
    expect(
      new lib.WindowsStatefulSet(chart, 'db', {
        containers: [{ image: IIS }],
        service: new kplus.Service(chart, 'svc', { ports: [{ port: 80 }] }),
      }),
    ).toBeInstanceOf(kplus.StatefulSet);
    expect(new lib.WindowsDaemonSet(chart, 'ds', { containers: [{ image: IIS }] })).toBeInstanceOf(kplus.DaemonSet);
    expect(new lib.WindowsJob(chart, 'job', { containers: [{ image: IIS }] })).toBeInstanceOf(kplus.Job);
    expect(
      new lib.WindowsCronJob(chart, 'cron', { containers: [{ image: IIS }], schedule: cdk8s.Cron.daily() }),
    ).toBeInstanceOf(kplus.CronJob);
    web.exposeViaService();

    const manifests = cdk8s.Testing.synth(chart);
    const spec = manifests.find((m) => m.kind === 'Deployment').spec.template.spec;
    // Each major's Linux defaults are gone, whichever it adds (plus-29+: shareProcessNamespace: false).
    expect(spec).toEqual({
      automountServiceAccountToken: false,
      containers: [
        expect.objectContaining({
          name: 'main',
          image: IIS,
          imagePullPolicy: 'IfNotPresent',
          ports: [{ containerPort: 80 }],
        }),
        expect.objectContaining({ name: 'sidecar', image: IIS }),
      ],
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      os: { name: 'windows' },
      restartPolicy: 'Always',
      setHostnameAsFQDN: false,
      terminationGracePeriodSeconds: 30,
      tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
    });
    // No key left behind holding undefined, and the keys sorted as cdk8s sorts them.
    expect(Object.keys(spec)).toEqual([
      'automountServiceAccountToken',
      'containers',
      'dnsPolicy',
      'nodeSelector',
      'os',
      'restartPolicy',
      'setHostnameAsFQDN',
      'terminationGracePeriodSeconds',
      'tolerations',
    ]);
    for (const c of spec.containers) {
      expect(Object.keys(c)).not.toContain('securityContext');
      expect(Object.keys(c)).not.toContain('startupProbe');
      expect(c.securityContext).toBeUndefined();
      expect(c.startupProbe).toBeUndefined();
    }
    expect(manifests.filter((m) => m.kind === 'Service')).toHaveLength(2);
  });

  test('a HostProcess agent and the forbidden-field checks behave the same', () => {
    const chart = cdk8s.Testing.chart();
    new lib.WindowsHostProcessDaemonSet(chart, 'agent', { containers: [{ image: IIS }] });
    const manifests = cdk8s.Testing.synth(chart);
    expect(manifests.map((m) => m.kind)).toEqual(['Namespace', 'DaemonSet']);
    expect(manifests[1].spec.template.spec.securityContext.windowsOptions.hostProcess).toBe(true);
    expect(manifests[1].spec.template.spec.shareProcessNamespace).toBeUndefined();
    expect(
      () => new lib.WindowsDeployment(chart, 'bad', { containers: [{ image: IIS, securityContext: { user: 1000 } }] }),
    ).toThrow(/securityContext\.runAsUser 1000: Forbidden: cannot be set for a windows pod/);
  });

  if (major > SOURCE_MAJOR) {
    test('an explicit shareProcessNamespace: true is refused at construction', () => {
      const chart = cdk8s.Testing.chart();
      expect(
        () =>
          new lib.WindowsDeployment(chart, 'bad', { containers: [{ image: IIS }], shareProcessNamespace: true } as any),
      ).toThrow(/spec\.template\.spec\.shareProcessNamespace true: Forbidden: cannot be set for a windows pod/);
    });
  }
});

describe('the package entry points', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));

  test.each(LATER_MAJORS)(
    'cdk8s-plus-%i has an export, node10 types, an optional peer and a dev dependency',
    (major) => {
      const name = `cdk8s-plus-${major}`;
      expect(pkg.exports[`./${name}`]).toEqual({
        types: `./build/${name}/index.d.ts`,
        default: `./build/${name}/index.js`,
      });
      expect(pkg.typesVersions['*'][name]).toEqual([`build/${name}/index.d.ts`]);
      expect(pkg.peerDependencies[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(pkg.devDependencies[name]).toBeDefined();
    },
  );

  test('every subpath export has node10 types', () => {
    for (const [key, value] of Object.entries<any>(pkg.exports)) {
      if (key === '.' || key === './package.json') continue;
      expect(pkg.typesVersions['*'][key.slice(2)]).toEqual([value.types.slice(2)]);
    }
  });

  test('retarget rewrites the module specifier in code and typings', () => {
    expect(retarget(`const kplus = require("cdk8s-plus-28");\nimport * as k from 'cdk8s-plus-28';`, 33)).toBe(
      `const kplus = require("cdk8s-plus-33");\nimport * as k from 'cdk8s-plus-33';`,
    );
  });
});
