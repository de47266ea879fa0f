/**
 * Secrets never in messages (issue 24): a podSpec, spec or target given as a secret is refused once known naming
 * the fields, never quoting their values.
 */
import * as pulumi from '@pulumi/pulumi';
import { WindowsDeployment } from 'k8s-windows/pulumi';
import { PulumiProgramError, describeError, runProgram } from 'k8s-windows/pulumi/testing';
import { SelfManagedWindowsNodePool } from 'k8s-windows/pulumi/eks';
import { redact } from '../../lib/pulumi/secrets';

const CORE_2022 = 'mcr.microsoft.com/windows/servercore:ltsc2022';
const SECRET = 'S3cr3tValueNobodyMaySee';

async function failureOf(program: () => unknown): Promise<string> {
  const e = await runProgram(program).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(PulumiProgramError);
  const errors = (e as PulumiProgramError).errors;
  expect(errors).toHaveLength(1);
  expect(pulumi.InputPropertiesError.isInstance(errors[0])).toBe(true);
  return describeError(errors[0]);
}

test('a secret podSpec with forbidden fields: the fields are named, their values are not', async () => {
  const text = await failureOf(() => {
    new WindowsDeployment('web', {
      podSpec: pulumi.secret({
        hostPID: true,
        securityContext: { seLinuxOptions: { user: SECRET, role: 'r' } },
        containers: [
          {
            name: 'web',
            image: CORE_2022,
            securityContext: { runAsUser: 4242, privileged: true },
            env: [{ name: 'TOKEN', value: SECRET }],
          },
        ],
      }),
    });
  });
  expect(text).toContain('podSpec.securityContext.seLinuxOptions');
  expect(text).toContain('podSpec.containers[0].securityContext.runAsUser');
  expect(text).not.toContain('S3cr3t');
  expect(text).not.toContain('4242');
});

test('a secret nested in a plain podSpec (a secret runAsUserName): named, not quoted', async () => {
  const text = await failureOf(() => {
    new WindowsDeployment('web', {
      podSpec: {
        containers: [
          {
            name: 'web',
            image: CORE_2022,
            securityContext: { windowsOptions: { runAsUserName: pulumi.secret(`${SECRET}\u0000bad`) } },
          },
        ],
      },
    });
  });
  expect(text).toContain('runAsUserName');
  expect(text).not.toContain('S3cr3t');
});

test('the same refusal without a secret still quotes the value (it helps)', async () => {
  const text = await failureOf(() => {
    new WindowsDeployment('web', {
      podSpec: pulumi.output({
        securityContext: { seLinuxOptions: { user: SECRET } },
        containers: [{ name: 'web', image: CORE_2022 }],
      }),
    });
  });
  expect(text).toContain(SECRET);
});

test('a secret service CIDR that is not a CIDR: the pool names serviceIpv4Cidr, not its value', async () => {
  const text = await failureOf(() => {
    new SelfManagedWindowsNodePool('win', {
      clusterName: 'prod',
      subnetIds: ['subnet-0abc'],
      securityGroupIds: ['sg-1'],
      amiId: 'ami-0123',
      serviceIpv4Cidr: pulumi.secret(`10.0.0.0/99-${SECRET}`),
    });
  });
  expect(text).toContain('serviceIpv4Cidr');
  expect(text).not.toContain('S3cr3t');
});

describe('redact', () => {
  test('quoted, JSON-quoted, cut short and bare long values; numbers standing alone; short words only quoted', () => {
    const secret = { user: 'S3cr3tValue', role: 'r', uid: 4242, list: ['with "quote" inside'] };
    expect(
      redact(
        `'S3cr3tValue' {"user":"S3cr3tValue","role":"r"} 'S3cr3…' S3cr3tValue uid 4242 containers[0] role r "with \\"quote\\" inside"`,
        [secret],
      ),
    ).toBe(
      `'<secret>' {"user":"<secret>","role":"<secret>"} '<secret>…' <secret> uid <secret> containers[0] role r "<secret>"`,
    );
  });
});

test('otherMapRoles that resolve to an empty list: one error naming awsAuth.otherMapRoles', async () => {
  const { Provider } = await import('@pulumi/kubernetes/provider');
  const e = await runProgram(() => {
    new SelfManagedWindowsNodePool('win', {
      clusterName: 'prod',
      subnetIds: ['subnet-0abc'],
      securityGroupIds: ['sg-1'],
      amiId: 'ami-0123',
      authenticationMode: 'CONFIG_MAP',
      awsAuth: { kubernetesProvider: new Provider('k8s', {}), otherMapRoles: pulumi.output([]) },
    });
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  const errors = (e as PulumiProgramError).errors;
  expect(errors).toHaveLength(1);
  expect((errors[0] as pulumi.InputPropertiesError).errors.map((x) => x.propertyPath)).toEqual([
    'awsAuth.otherMapRoles',
  ]);
});

test('a secret RuntimeClass target of the wrong shape: named, not quoted', async () => {
  const { WindowsRuntimeClass } = await import('k8s-windows/pulumi');
  const text = await failureOf(() => {
    new WindowsRuntimeClass('rc', {
      target: pulumi.secret({ release: SECRET, isolation: 'process', labels: {}, taints: [] }) as never,
    });
  });
  expect(text).toContain('target.release');
  expect(text).not.toContain('S3cr3t');
});
