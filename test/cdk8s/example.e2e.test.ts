import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { WindowsValidation, type ValidationViolation } from 'k8s-windows/cdk8s/plugin';
import { validateManifests } from '../../lib/core/validate';
import { IMAGES, buildShopApp } from '../../examples/cdk8s/app';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
};
type PodSpec = Record<string, unknown> & {
  containers: Record<string, unknown>[];
  initContainers?: Record<string, unknown>[];
};

const ROOT = join(__dirname, '..', '..');

beforeAll(() => {
  jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});

function synthExample(): Obj[] {
  const app = Testing.app();
  buildShopApp(app);
  return app.charts.flatMap((c) => Testing.synth(c) as Obj[]);
}

function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

function podSpec(obj: Obj): PodSpec {
  return (obj.spec as { template: { spec: PodSpec } }).template.spec;
}

describe('the cdk8s example app', () => {
  const objects = synthExample();

  test('every object passes the rule engine: no errors, no warnings', () => {
    const diagnostics = validateManifests(objects, { windowsRelease: '2022' });
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('the objects of the three charts', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'CustomResourceDefinition//gmsacredentialspecs.windows.k8s.io',
        'MutatingWebhookConfiguration//gmsa-webhook',
        'ValidatingWebhookConfiguration//gmsa-webhook',
        'Namespace//shop',
        'RuntimeClass//windows-2022',
        'GMSACredentialSpec//webapp01',
        'Deployment/shop/frontend',
        'Deployment/shop/api',
        'Deployment/shop/redis',
        'Service/shop/frontend',
        'Service/shop/api',
        'Service/shop/redis',
        'Namespace//windows-monitoring',
        'ConfigMap/windows-monitoring/windows-exporter-config',
        'DaemonSet/windows-monitoring/windows-exporter',
        'Service/windows-monitoring/windows-exporter',
      ]),
    );
  });

  test('the API runs as the gMSA on Windows Server 2022, and its service account may use it', () => {
    const api = find(objects, 'Deployment', 'api');
    const pod = podSpec(api);
    expect(pod.os).toEqual({ name: 'windows' });
    expect(pod.runtimeClassName).toBe('windows-2022');
    expect(pod.securityContext).toEqual({ windowsOptions: { gmsaCredentialSpecName: 'webapp01' } });
    expect(pod.containers[0].image).toBe(IMAGES.aspnet);

    const credspec = find(objects, 'GMSACredentialSpec', 'webapp01');
    expect(credspec.metadata.namespace).toBeUndefined();
    expect(credspec.credspec).toEqual(
      expect.objectContaining({
        DomainJoinConfig: expect.objectContaining({ MachineAccountName: 'WebApp01', NetBiosName: 'CONTOSO' }),
      }),
    );

    const binding = objects.find((o) => o.kind === 'RoleBinding');
    expect(binding?.metadata.namespace).toBe('shop');
    expect(binding?.subjects).toEqual([
      { apiGroup: '', kind: 'ServiceAccount', name: pod.serviceAccountName, namespace: 'shop' },
    ]);
    const role = find(objects, 'ClusterRole', (binding?.roleRef as { name: string }).name);
    expect(role.rules).toEqual([
      {
        apiGroups: ['windows.k8s.io'],
        resources: ['gmsacredentialspecs'],
        resourceNames: ['webapp01'],
        verbs: ['use'],
      },
    ]);
  });

  test('the IIS front end is Windows and behind a LoadBalancer; Redis is pinned to Linux', () => {
    const frontend = podSpec(find(objects, 'Deployment', 'frontend'));
    expect(frontend.os).toEqual({ name: 'windows' });
    expect(frontend.containers[0].image).toBe(IMAGES.iis);
    expect((find(objects, 'Service', 'frontend').spec as { type: string }).type).toBe('LoadBalancer');

    const redis = podSpec(find(objects, 'Deployment', 'redis'));
    expect(redis.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
  });

  test('windows_exporter (WindowsExporter): HostProcess, port 9182, config from the ConfigMap, firewall init container', () => {
    const ds = find(objects, 'DaemonSet', 'windows-exporter');
    const pod = podSpec(ds);
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    });
    expect(pod.containers[0].ports).toEqual([expect.objectContaining({ containerPort: 9182, name: 'http' })]);
    expect(pod.initContainers?.map((c) => c.name)).toEqual(['configure-firewall']);
    expect(JSON.stringify(pod.initContainers?.[0].command)).toContain('-LocalPort 9182');
    const volumes = pod.volumes as { configMap?: { name: string } }[];
    expect(volumes.map((v) => v.configMap?.name)).toContain('windows-exporter-config');
    expect(find(objects, 'Namespace', 'windows-monitoring').metadata.labels).toEqual(
      expect.objectContaining({ 'pod-security.kubernetes.io/enforce': 'privileged' }),
    );
  });
});

describe('synth with the validation plugin, as `npm run synth` runs it', () => {
  let outdir: string;
  beforeEach(() => {
    outdir = mkdtempSync(join(tmpdir(), 'k8s-windows-example-'));
  });
  afterEach(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  test('the written manifests pass the plugin with the root cdk8s.yaml properties', async () => {
    const config = parse(readFileSync(join(ROOT, 'cdk8s.yaml'), 'utf8')) as {
      app: string;
      output: string;
      validations: { package: string; class: string; version: string; properties?: Record<string, unknown> }[];
    };
    expect(config.output).toBe('dist');
    expect(config.app).toBe('node --import tsx examples/cdk8s/main.ts');
    const [entry] = config.validations;
    expect(entry.package).toBe('./examples/cdk8s/validation-plugin.js');
    expect(entry.class).toBe('WindowsValidation');
    // cdk8s-cli require()s a local package path in plain Node: the shim must load the TypeScript plugin itself.
    const loaded = execFileSync(
      process.execPath,
      ['-e', `process.stdout.write(typeof require(${JSON.stringify(entry.package)}).${entry.class})`],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(loaded).toBe('function');

    const app = new App({ outdir });
    buildShopApp(app);
    app.synth();
    const files = readdirSync(outdir)
      .filter((f) => f.endsWith('.k8s.yaml'))
      .sort();
    expect(files).toEqual(['cluster.k8s.yaml', 'monitoring.k8s.yaml', 'shop.k8s.yaml']);

    const violations: ValidationViolation[] = [];
    const submitted: string[] = [];
    await new WindowsValidation(entry.properties).validate({
      manifests: files.map((f) => join(outdir, f)),
      report: {
        addViolation: (v) => void violations.push(v),
        submit: (status) => void submitted.push(status),
      },
      logger: { log: () => undefined },
    });
    expect(violations.filter((v) => !v.ruleName.endsWith('[info]'))).toEqual([]);
    expect(submitted).toEqual(['success']);
  });
});
