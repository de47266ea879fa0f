/**
 * The constructs refuse at construction what the validator calls an error, naming the field and the fix; what it
 * calls a warning or advice reaches the construct user as a warning under the same rule id.
 */
import { ApiObject, JsonPatch, Testing, type Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { validateManifests } from 'k8s-windows';
import { WindowsDeployment, WindowsHostProcessDaemonSet } from 'k8s-windows/cdk8s';
import { WindowsAnnotations } from '../../lib/cdk8s/annotations';
import { IIS, captureError, podSpecOf, silenceWarnings } from '../helpers/cdk8s';

const AGENT = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

let chart: Chart;
let emitWarning: jest.SpyInstance;
beforeEach(() => {
  chart = Testing.chart();
  emitWarning = silenceWarnings();
});
afterEach(() => emitWarning.mockRestore());

test('memory emptyDir and mountPropagation (errors in lint) are refused together; hostPort and ClusterFirstWithHostNet (advice in lint) are warnings', () => {
  const cache = kplus.Volume.fromEmptyDir(chart, 'cache', 'cache', { medium: kplus.EmptyDirMedium.MEMORY });
  const props: kplus.DeploymentProps = {
    dns: { policy: kplus.DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET },
    containers: [
      {
        image: IIS,
        ports: [{ number: 80, hostPort: 8080 }],
        volumeMounts: [{ volume: cache, path: 'C:\\cache', propagation: kplus.MountPropagation.HOST_TO_CONTAINER }],
      },
    ],
  };
  const err = captureError(() => new WindowsDeployment(chart, 'web', props));
  expect(err.message).toMatch(/^test\/web: 2 Windows validation problems/);
  expect(err.issues.map((i) => i.path)).toEqual([
    'spec.template.spec.volumes[0].emptyDir.medium',
    'spec.template.spec.containers[0].volumeMounts[0].mountPropagation',
  ]);
  for (const i of err.issues) expect(i.fix).toBeTruthy();

  const ok = Testing.chart();
  const web = new WindowsDeployment(ok, 'web', {
    dns: props.dns,
    containers: [{ image: IIS, ports: [{ number: 80, hostPort: 8080 }] }],
  });
  const manifests = Testing.synth(ok);
  // The construct keeps what the user wrote, and says what lint says, under lint's rule ids.
  expect(podSpecOf(manifests, 'Deployment').dnsPolicy).toBe('ClusterFirstWithHostNet');
  expect(WindowsAnnotations.warningsOf(web).map((w) => w.ruleId)).toEqual(
    expect.arrayContaining(['windows-dns-host-net', 'windows-host-port-cni']),
  );
  const lint = validateManifests(manifests).filter((d) =>
    ['windows-dns-host-net', 'windows-host-port-cni'].includes(d.ruleId),
  );
  expect(lint.map((d) => [d.ruleId, d.severity]).sort()).toEqual([
    ['windows-dns-host-net', 'info'],
    ['windows-host-port-cni', 'info'],
  ]);
});

test('a container added later with a hostPort is warned about at synth, as lint advises', () => {
  const web = new WindowsDeployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
  web.addContainer({ image: IIS, name: 'side', ports: [{ number: 81, hostPort: 81 }] });
  expect(() => Testing.synth(chart)).not.toThrow();
  expect(WindowsAnnotations.warningsOf(web).map((w) => w.ruleId)).toContain('windows-host-port-cni');
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
