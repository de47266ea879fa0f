/** The constructs refuse at construction what the validator calls an error, naming the field and the fix. */
import { ApiObject, JsonPatch, Testing, type Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { validateManifests } from 'k8s-windows';
import { WindowsDeployment, WindowsHostProcessDaemonSet } from 'k8s-windows/cdk8s';
import { IIS, captureError, silenceWarnings } from './helpers';

const AGENT = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

let chart: Chart;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

test('hostPort, memory emptyDir, mountPropagation and ClusterFirstWithHostNet are refused together', () => {
  const cache = kplus.Volume.fromEmptyDir(chart, 'cache', 'cache', { medium: kplus.EmptyDirMedium.MEMORY });
  const err = captureError(
    () =>
      new WindowsDeployment(chart, 'web', {
        dns: { policy: kplus.DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET },
        containers: [
          {
            image: IIS,
            ports: [{ number: 80, hostPort: 8080 }],
            volumeMounts: [{ volume: cache, path: 'C:\\cache', propagation: kplus.MountPropagation.HOST_TO_CONTAINER }],
          },
        ],
      }),
  );
  expect(err.message).toMatch(/^test\/web: 4 Windows validation problems/);
  expect(err.issues.map((i) => i.path)).toEqual([
    'spec.template.spec.dnsPolicy',
    'spec.template.spec.volumes[0].emptyDir.medium',
    'spec.template.spec.containers[0].ports[0].hostPort',
    'spec.template.spec.containers[0].volumeMounts[0].mountPropagation',
  ]);
  for (const i of err.issues) expect(i.fix).toBeTruthy();
});

test('a container added later with a hostPort fails at synth', () => {
  const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
  web.addContainer({ image: IIS, name: 'side', ports: [{ number: 81, hostPort: 81 }] });
  expect(() => Testing.synth(chart)).toThrow(/containers\[1\]\.ports\[0\]\.hostPort: hostPort 81 is not supported/);
});

test('a HostProcess hostPort must equal its containerPort; an equal one passes and validates clean', () => {
  const err = captureError(
    () =>
      new WindowsHostProcessDaemonSet(chart, 'bad', {
        containers: [{ image: AGENT, ports: [{ number: 9182, hostPort: 9183 }] }],
      }),
  );
  expect(err.issues.map((i) => i.path)).toEqual(['spec.template.spec.containers[0].ports[0].hostPort']);
  const clean = Testing.chart(); // the refused construct stays in `chart`'s tree
  new WindowsHostProcessDaemonSet(clean, 'ok', {
    containers: [{ image: AGENT, ports: [{ number: 9182, hostPort: 9182 }] }],
  });
  const manifests = Testing.synth(clean);
  expect(validateManifests(manifests).filter((d) => d.severity === 'error')).toEqual([]);
});

describe('JSON patches', () => {
  test('a patch that adds a forbidden field is reported, never dropped', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    ApiObject.of(web).addJsonPatch(
      JsonPatch.add('/spec/template/spec/containers/0/securityContext', { runAsUser: 1000 }),
    );
    const err = captureError(() => Testing.synth(chart));
    expect(err.message).toMatch(/^test\/web: 1 Windows validation problem/);
    expect(err.issues[0]).toMatchObject({
      path: 'spec.template.spec.containers[0].securityContext.runAsUser',
      message: expect.stringMatching(/written by a JsonPatch/),
    });
  });

  test('what a valid patch writes is kept, after the Windows conversion', () => {
    const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    ApiObject.of(web).addJsonPatch(
      JsonPatch.add('/spec/template/spec/priorityClassName', 'high'),
      JsonPatch.add('/spec/template/spec/containers/0/securityContext', {
        windowsOptions: { runAsUserName: 'ContainerUser' },
      }),
    );
    const spec = Testing.synth(chart)[0].spec.template.spec;
    expect(spec.priorityClassName).toBe('high');
    expect(spec.containers[0].securityContext).toEqual({ windowsOptions: { runAsUserName: 'ContainerUser' } });
    expect(spec.os).toEqual({ name: 'windows' });
  });
});
