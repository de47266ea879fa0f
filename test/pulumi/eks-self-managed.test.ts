import * as pulumi from '@pulumi/pulumi';
import { schedulingFor, type Taint } from 'k8s-windows';
import { tolerationFor } from '../../lib/core/target';
import type * as eksModule from 'k8s-windows/pulumi/eks';
import { eksWindowsAmiParameterName } from '../../lib/core/cloud/eks-ami-types';
import type * as selfManagedModule from '../../lib/pulumi/eks/self-managed-node-pool';
import { renderWindowsUserData, windowsKubeletArgs } from '../../lib/pulumi/eks/user-data';
import { inputErrorsOf, mockPulumi, resolved, type Registered } from './mocks';

const { registered, findings } = mockPulumi(
  (type, name) => {
    if (type === 'aws:iam/role:Role') return { arn: `arn:aws:iam::123456789012:role/${name}`, name };
    if (type === 'aws:iam/instanceProfile:InstanceProfile') {
      return { arn: `arn:aws:iam::123456789012:instance-profile/${name}` };
    }
    if (type === 'aws:ec2/launchTemplate:LaunchTemplate') return { latestVersion: 3 };
    return {};
  },
  (token, inputs) =>
    token === 'aws:ssm/getParameter:getParameter'
      ? { ...inputs, value: `ami-from-ssm:${String(inputs.name)}`, type: 'String' }
      : inputs,
);

let eks: typeof eksModule;
// The component's own checks, from its module (the entry exports the components only).
let selfManaged: typeof selfManagedModule;
beforeAll(async () => {
  eks = await import('k8s-windows/pulumi/eks');
  selfManaged = await import('../../lib/pulumi/eks/self-managed-node-pool');
});

const BASE = {
  clusterName: 'prod',
  subnetIds: ['subnet-a'],
  amiId: 'ami-0123456789abcdef0',
  securityGroupIds: ['sg-cluster'],
};

async function buildPool(name: string, args: Partial<eksModule.SelfManagedWindowsNodePoolArgs> = {}) {
  const pool = new eks.SelfManagedWindowsNodePool(name, { ...BASE, ...args });
  await resolved(pool.autoScalingGroup.urn);
  await resolved(pool.launchTemplate.urn);
  if (pool.accessEntry) await resolved(pool.accessEntry.urn);
  const one = (type: string): Registered => {
    const found = registered.filter((r) => r.type === type);
    expect(found).toHaveLength(1);
    return found[0];
  };
  return { pool, of: (type: string) => registered.filter((r) => r.type === type), one };
}

function decode(userData: unknown): string {
  return Buffer.from(String(userData), 'base64').toString('utf8');
}

describe('renderWindowsUserData', () => {
  test('default kubelet arguments of reference §6', () => {
    expect(windowsKubeletArgs({ labels: {}, taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] })).toEqual(
      [
        '--register-with-taints=os=windows:NoSchedule',
        '--system-reserved=memory=2Gi',
        '--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS',
      ],
    );
  });

  test('labels sorted, taints joined, extra args last', () => {
    expect(
      windowsKubeletArgs({
        labels: { 'example.com/z': '1', 'example.com/a': '2' },
        taints: [
          { key: 'os', value: 'windows', effect: 'NoSchedule' },
          { key: 'gpu', effect: 'NoExecute' },
        ],
        systemReservedMemory: '3Gi',
        extraArgs: ['--max-pods=30'],
      }),
    ).toEqual([
      '--node-labels=example.com/a=2,example.com/z=1',
      '--register-with-taints=os=windows:NoSchedule,gpu:NoExecute',
      '--system-reserved=memory=3Gi',
      '--windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS',
      '--max-pods=30',
    ]);
  });

  test('minimal user data', () => {
    expect(
      renderWindowsUserData({
        clusterName: 'prod',
        kubeletArgs: windowsKubeletArgs({
          labels: {},
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        }),
      }),
    ).toMatchSnapshot();
  });

  test('user data with endpoint, CA, DNS IP, labels and a quote to escape', () => {
    expect(
      renderWindowsUserData({
        clusterName: "o'brien",
        apiServerEndpoint: 'https://ABC.gr7.eu-west-1.eks.amazonaws.com',
        certificateAuthority: 'LS0tLS1CRUdJTg==',
        dnsClusterIp: '172.20.0.10',
        kubeletArgs: windowsKubeletArgs({
          labels: { 'example.com/pool': 'iis' },
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        }),
      }),
    ).toMatchSnapshot();
  });

  test('typographic quotes are doubled too (PowerShell treats them as quotes)', () => {
    expect(renderWindowsUserData({ clusterName: 'a\u2019b', kubeletArgs: [] })).toContain(
      "-EKSClusterName 'a\u2019\u2019b'",
    );
  });
});

describe('SelfManagedWindowsNodePool', () => {
  test('launch template: the AMI, PowerShell user data calling the bootstrap script, IMDSv2, a 50 GiB gp3 root', async () => {
    const { pool, one } = await buildPool('win');
    const lt = one('aws:ec2/launchTemplate:LaunchTemplate').inputs;
    expect(lt).toEqual({
      imageId: 'ami-0123456789abcdef0',
      instanceType: 'm5.xlarge',
      userData: expect.any(String),
      iamInstanceProfile: { arn: 'arn:aws:iam::123456789012:instance-profile/win-instance-profile' },
      vpcSecurityGroupIds: ['sg-cluster'],
      blockDeviceMappings: [
        {
          deviceName: '/dev/sda1',
          ebs: { volumeSize: 50, volumeType: 'gp3', encrypted: 'true', deleteOnTermination: 'true' },
        },
      ],
      metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 2 },
      tags: {},
    });
    expect(decode(lt.userData)).toBe(
      [
        '<powershell>',
        "& \"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\" -EKSClusterName 'prod' -KubeletExtraArgs '--register-with-taints=os=windows:NoSchedule --system-reserved=memory=2Gi --windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS' 3>&1 4>&1 5>&1 6>&1",
        '</powershell>',
        '',
      ].join('\n'),
    );
    expect(await resolved(pool.userData)).toBe(decode(lt.userData));
  });

  test('cluster name, endpoint and CA may be Outputs', async () => {
    const { one } = await buildPool('out', {
      clusterName: pulumi.output('from-output'),
      clusterEndpoint: pulumi.output('https://endpoint'),
      clusterCertificateAuthority: pulumi.output('Q0E='),
    });
    const text = decode(one('aws:ec2/launchTemplate:LaunchTemplate').inputs.userData);
    expect(text).toContain(
      "-EKSClusterName 'from-output' -APIServerEndpoint 'https://endpoint' -Base64ClusterCA 'Q0E='",
    );
    expect(one('aws:autoscaling/group:Group').inputs.tags).toContainEqual({
      key: 'k8s.io/cluster-autoscaler/from-output',
      value: 'owned',
      propagateAtLaunch: false,
    });
  });

  test('Auto Scaling group: launch template, scaling, cluster and autoscaler tags', async () => {
    const { one } = await buildPool('win', {
      labels: { 'example.com/pool': 'iis' },
      scaling: { minSize: 0, maxSize: 4, desiredSize: 1 },
      tags: { team: 'web' },
    });
    expect(one('aws:autoscaling/group:Group').inputs).toEqual({
      vpcZoneIdentifiers: ['subnet-a'],
      minSize: 0,
      maxSize: 4,
      desiredCapacity: 1,
      launchTemplate: { id: 'win-launch-template-id', version: '3' },
      tags: [
        { key: 'Name', value: 'win', propagateAtLaunch: true },
        { key: 'kubernetes.io/cluster/prod', value: 'owned', propagateAtLaunch: true },
        { key: 'k8s.io/cluster-autoscaler/enabled', value: 'true', propagateAtLaunch: false },
        { key: 'k8s.io/cluster-autoscaler/prod', value: 'owned', propagateAtLaunch: false },
        {
          key: 'k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address',
          value: '14',
          propagateAtLaunch: false,
        },
        {
          key: 'k8s.io/cluster-autoscaler/node-template/label/example.com/pool',
          value: 'iis',
          propagateAtLaunch: false,
        },
        {
          key: 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os',
          value: 'windows',
          propagateAtLaunch: false,
        },
        {
          key: 'k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build',
          value: '10.0.20348',
          propagateAtLaunch: false,
        },
        {
          key: 'k8s.io/cluster-autoscaler/node-template/taint/os',
          value: 'windows:NoSchedule',
          propagateAtLaunch: false,
        },
        { key: 'team', value: 'web', propagateAtLaunch: true },
      ],
    });
  });

  test('node role, instance profile and the EC2_WINDOWS access entry', async () => {
    const { of, one } = await buildPool('win');
    expect(one('aws:iam/role:Role').name).toBe('win-node-role');
    expect(of('aws:iam/rolePolicyAttachment:RolePolicyAttachment').map((a) => a.inputs.policyArn)).toEqual([
      'arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy',
      'arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly',
      'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy',
    ]);
    expect(one('aws:iam/instanceProfile:InstanceProfile').inputs).toEqual({ role: 'win-node-role', tags: {} });
    expect(one('aws:eks/accessEntry:AccessEntry').inputs).toEqual({
      clusterName: 'prod',
      principalArn: 'arn:aws:iam::123456789012:role/win-node-role',
      type: 'EC2_WINDOWS',
      tags: {},
    });
  });

  test('a given role: no role created; createAccessEntry: false leaves the entry out', async () => {
    const { pool, of, one } = await buildPool('byo', {
      nodeRole: { name: 'windows-nodes', arn: 'arn:aws:iam::1:role/windows-nodes' },
      createAccessEntry: false,
    });
    expect(of('aws:iam/role:Role')).toEqual([]);
    expect(of('aws:eks/accessEntry:AccessEntry')).toEqual([]);
    expect(one('aws:iam/instanceProfile:InstanceProfile').inputs.role).toBe('windows-nodes');
    expect(await resolved(pool.nodeRoleArn)).toBe('arn:aws:iam::1:role/windows-nodes');
  });

  test('the user data registers exactly the taints and labels of nodeTarget', async () => {
    const taints: Taint[] = [
      { key: 'os', value: 'windows', effect: 'NoSchedule' },
      { key: 'example.com/dedicated', value: 'iis', effect: 'NoExecute' },
    ];
    const { pool, one } = await buildPool('t', {
      taints,
      labels: { 'example.com/pool': 'iis' },
      release: '2025',
      diskSize: 80,
    });
    const text = decode(one('aws:ec2/launchTemplate:LaunchTemplate').inputs.userData);
    expect(text).toContain('--register-with-taints=os=windows:NoSchedule,example.com/dedicated=iis:NoExecute');
    expect(text).toContain('--node-labels=example.com/pool=iis');
    expect(schedulingFor(pool.nodeTarget).tolerations).toEqual(taints.map(tolerationFor));
    expect(pool.nodeTarget.labels).toEqual({
      'example.com/pool': 'iis',
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.26100',
    });
    expect(
      (one('aws:ec2/launchTemplate:LaunchTemplate').inputs.blockDeviceMappings as { ebs: { volumeSize: number } }[])[0]
        .ebs.volumeSize,
    ).toBe(80);
  });

  test('warns below 2Gi system-reserved memory', async () => {
    await buildPool('low', { systemReservedMemory: '1024Mi' });
    expect(findings.map((f) => [f.ruleId, f.path, f.severity, f.resource])).toEqual([
      ['eks-windows-system-reserved', '', 'warning', 'low'],
    ]);
    expect(findings[0].message).toMatch(/^systemReservedMemory 1024Mi/);
  });

  test('bad input: every property at once, nothing registered', async () => {
    const errors = inputErrorsOf(
      () =>
        new eks.SelfManagedWindowsNodePool('bad', {
          ...BASE,
          release: '1909' as eksModule.SelfManagedWindowsNodePoolArgs['release'],
          instanceType: 't4g.xlarge',
          taints: [{ key: 'os', value: 'windows', effect: 'NO_EXECUTE' as Taint['effect'] }],
          scaling: { minSize: 3, maxSize: 3, desiredSize: 4 },
          diskSize: 29,
          systemReservedMemory: 'lots',
          kubeletExtraArgs: [
            '--node-labels=a=b',
            'max-pods=3',
            '--max-pods=30',
            '--register-with-taints=x=y:NoSchedule',
          ],
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'release',
      'taints[0].effect',
      'scaling.desiredSize',
      'diskSize',
      'instanceType',
      'systemReservedMemory',
      'kubeletExtraArgs[0]',
      'kubeletExtraArgs[1]',
      'kubeletExtraArgs[3]',
    ]);
    expect(errors[4].reason).toMatch(/'t4g.xlarge' is AWS Graviton.*'t3.xlarge'/);
    expect(errors[6].reason).toBe(
      "Kubelet argument --node-labels is set by the pool from its 'labels' arg. Fix: Remove it and set 'labels' instead, so nodeTarget matches the nodes.",
    );
    await new Promise((r) => setImmediate(r));
    expect(registered).toEqual([]);
  });

  test('checkSelfManagedWindowsNodePoolArgs returns issues without throwing', () => {
    expect(
      selfManaged.checkSelfManagedWindowsNodePoolArgs({ ...BASE, instanceType: 'mac2.metal' }).map((i) => i.path),
    ).toEqual(['instanceType']);
    expect(selfManaged.checkSelfManagedWindowsNodePoolArgs({ ...BASE })).toEqual([]);
  });
});

describe('quantityBytes', () => {
  test.each([
    ['2Gi', 2 * 1024 ** 3],
    ['2048Mi', 2 * 1024 ** 3],
    ['2G', 2e9],
    ['512', 512],
    ['1.5Gi', 1.5 * 1024 ** 3],
  ])('%s', (q, bytes) => expect(selfManaged.quantityBytes(q)).toBe(bytes));
  test.each(['', 'lots', '2 Gi', '-1Gi', '2gi'])('%s is not a quantity', (q) =>
    expect(selfManaged.quantityBytes(q)).toBeUndefined(),
  );
});

describe('issue 9: self-managed pool', () => {
  test('-ServiceCIDR is passed when the cluster has a custom service CIDR', async () => {
    const { one } = await buildPool('svc', { serviceIpv4Cidr: '10.96.0.0/12' });
    expect(decode(one('aws:ec2/launchTemplate:LaunchTemplate').inputs.userData)).toContain(
      "-ServiceCIDR '10.96.0.0/12'",
    );
  });

  test('an endpoint without the CA (and the reverse) is refused; a bad service CIDR too', () => {
    expect(
      inputErrorsOf(() => new eks.SelfManagedWindowsNodePool('x', { ...BASE, clusterEndpoint: 'https://e' })),
    ).toEqual([
      {
        propertyPath: 'clusterCertificateAuthority',
        reason: expect.stringContaining('-APIServerEndpoint only with -Base64ClusterCA'),
      },
    ]);
    expect(
      inputErrorsOf(() => new eks.SelfManagedWindowsNodePool('x', { ...BASE, clusterCertificateAuthority: 'Q0E=' })),
    ).toEqual([{ propertyPath: 'clusterEndpoint', reason: expect.any(String) }]);
    expect(
      inputErrorsOf(() => new eks.SelfManagedWindowsNodePool('x', { ...BASE, serviceIpv4Cidr: '10.96.0.0' })),
    ).toEqual([{ propertyPath: 'serviceIpv4Cidr', reason: expect.stringContaining('not an IPv4 CIDR') }]);
  });

  test('without amiId: the EKS-optimized AMI from the public SSM parameter for release, variant and version', async () => {
    const { one, pool } = await buildPool('ssm', { amiId: undefined, kubernetesVersion: '1.31', amiVariant: 'full' });
    expect(one('aws:ec2/launchTemplate:LaunchTemplate').inputs.imageId).toBe(
      'ami-from-ssm:/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-EKS_Optimized-1.31/image_id',
    );
    expect(await resolved(pool.amiId)).toMatch(/^ami-from-ssm:/);
    expect(eksWindowsAmiParameterName('2025', 'core', 35)).toBe(
      '/aws/service/ami-windows-latest/Windows_Server-2025-English-Core-EKS_Optimized-1.35/image_id',
    );
  });

  test('without amiId a Kubernetes version is required', () => {
    expect(inputErrorsOf(() => new eks.SelfManagedWindowsNodePool('x', { ...BASE, amiId: undefined }))).toEqual([
      { propertyPath: 'kubernetesVersion', reason: expect.stringContaining('looks up the EKS-optimized Windows AMI') },
    ]);
  });

  test('CONFIG_MAP clusters: no access entry, aws-auth mapRoles keep the other roles and add eks:kube-proxy-windows', async () => {
    const { Provider } = await import('@pulumi/kubernetes/provider');
    const provider = new Provider('k8s', {});
    const linux = {
      rolearn: 'arn:aws:iam::123456789012:role/linux',
      username: 'system:node:{{EC2PrivateDNSName}}',
      groups: ['system:bootstrappers', 'system:nodes'],
    };
    const pool = new eks.SelfManagedWindowsNodePool('cm', {
      ...BASE,
      authenticationMode: 'CONFIG_MAP',
      awsAuth: { kubernetesProvider: provider, otherMapRoles: [linux] },
    });
    await resolved(pool.autoScalingGroup.urn);
    await resolved((pool.awsAuthConfigMap as NonNullable<typeof pool.awsAuthConfigMap>).urn);
    expect(pool.accessEntry).toBeUndefined();
    const patch = registered.find((r) => r.type === 'kubernetes:core/v1:ConfigMapPatch');
    expect(patch?.inputs.metadata).toMatchObject({ name: 'aws-auth', namespace: 'kube-system' });
    const { parse } = await import('yaml');
    expect(parse(String((patch?.inputs.data as Record<string, unknown>).mapRoles))).toEqual([
      linux,
      {
        rolearn: 'arn:aws:iam::123456789012:role/cm-node-role',
        username: 'system:node:{{EC2PrivateDNSName}}',
        groups: ['system:bootstrappers', 'system:nodes', 'eks:kube-proxy-windows'],
      },
    ]);
    expect(await resolved(pool.awsAuthRoleMapping)).toMatchObject({
      groups: ['system:bootstrappers', 'system:nodes', 'eks:kube-proxy-windows'],
    });
  });

  test('CONFIG_MAP without awsAuth, or with createAccessEntry, is refused', () => {
    expect(
      inputErrorsOf(
        () =>
          new eks.SelfManagedWindowsNodePool('x', {
            ...BASE,
            authenticationMode: 'CONFIG_MAP',
            createAccessEntry: true,
          }),
      ).map((e) => e.propertyPath),
    ).toEqual(['createAccessEntry', 'awsAuth']);
    expect(
      () => new eks.SelfManagedWindowsNodePool('x', { ...BASE, authenticationMode: 'CONFIG_MAP', awsAuth: 'external' }),
    ).not.toThrow();
  });

  describe('aws-auth has one writer (issue 24: two pools, or otherMapRoles: [], wiped each other)', () => {
    const linux = {
      rolearn: 'arn:aws:iam::123456789012:role/linux',
      username: 'system:node:{{EC2PrivateDNSName}}',
      groups: ['system:bootstrappers', 'system:nodes'],
    };
    async function provider() {
      const { Provider } = await import('@pulumi/kubernetes/provider');
      return new Provider('k8s', {});
    }

    test('a second pool writing aws-auth through the same provider is refused, naming the first and the fix', async () => {
      const kubernetesProvider = await provider();
      const awsAuth = { kubernetesProvider, otherMapRoles: [linux] };
      new eks.SelfManagedWindowsNodePool('win-a', { ...BASE, authenticationMode: 'CONFIG_MAP', awsAuth });
      expect(
        inputErrorsOf(
          () => new eks.SelfManagedWindowsNodePool('win-b', { ...BASE, authenticationMode: 'CONFIG_MAP', awsAuth }),
        ),
      ).toEqual([
        {
          propertyPath: 'awsAuth',
          reason: expect.stringMatching(
            /Pool 'win-a' already writes aws-auth mapRoles.*replace its mappings.*Fix: Create this pool with awsAuth: 'external' before 'win-a', and list its awsAuthRoleMapping in the otherMapRoles of 'win-a'/,
          ),
        },
      ]);
    });

    test("the fix: one writer lists the other pool's mapping, so both Windows roles and the Linux role stay mapped", async () => {
      const kubernetesProvider = await provider();
      const other = new eks.SelfManagedWindowsNodePool('win-d', {
        ...BASE,
        authenticationMode: 'CONFIG_MAP',
        awsAuth: 'external',
      });
      const writer = new eks.SelfManagedWindowsNodePool('win-c', {
        ...BASE,
        authenticationMode: 'CONFIG_MAP',
        awsAuth: { kubernetesProvider, otherMapRoles: [linux, other.awsAuthRoleMapping] },
      });
      await resolved((writer.awsAuthConfigMap as NonNullable<typeof writer.awsAuthConfigMap>).urn);
      const patches = registered.filter(
        (r) => r.type === 'kubernetes:core/v1:ConfigMapPatch' && r.name !== 'win-a-aws-auth',
      );
      expect(patches).toHaveLength(1);
      const { parse } = await import('yaml');
      const roles = parse(String((patches[0].inputs.data as Record<string, unknown>).mapRoles)) as {
        rolearn: string;
      }[];
      expect(roles.map((r) => r.rolearn)).toEqual([
        linux.rolearn,
        'arn:aws:iam::123456789012:role/win-d-node-role',
        'arn:aws:iam::123456789012:role/win-c-node-role',
      ]);
    });

    test('a refused pool does not hold aws-auth: the corrected pool may write it', async () => {
      const kubernetesProvider = await provider();
      inputErrorsOf(
        () =>
          new eks.SelfManagedWindowsNodePool('bad', {
            ...BASE,
            diskSize: 1,
            authenticationMode: 'CONFIG_MAP',
            awsAuth: { kubernetesProvider, otherMapRoles: [linux] },
          }),
      );
      expect(
        () =>
          new eks.SelfManagedWindowsNodePool('good', {
            ...BASE,
            authenticationMode: 'CONFIG_MAP',
            awsAuth: { kubernetesProvider, otherMapRoles: [linux] },
          }),
      ).not.toThrow();
    });

    test('otherMapRoles: [] is refused: it would remove every other mapping', async () => {
      const kubernetesProvider = await provider();
      expect(
        inputErrorsOf(
          () =>
            new eks.SelfManagedWindowsNodePool('x', {
              ...BASE,
              authenticationMode: 'CONFIG_MAP',
              awsAuth: { kubernetesProvider, otherMapRoles: [] },
            }),
        ),
      ).toEqual([
        {
          propertyPath: 'awsAuth.otherMapRoles',
          reason: expect.stringContaining('awsAuth.otherMapRoles is empty: mapRoles is written whole'),
        },
      ]);
    });
  });
});

describe('issue 36: secret args and the user data', () => {
  /** Whether the mocked engine received `value` as a secret (`{ [specialSigKey]: specialSecretSig, value }`). */
  const isSecretInput = (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
  const plainValue = (value: unknown): unknown => (isSecretInput(value) ? (value as { value: unknown }).value : value);
  /** The launch template `buildPool(name)` registered (by name: an earlier test's may still arrive). */
  const launchTemplateOf = (built: Awaited<ReturnType<typeof buildPool>>, name: string) => {
    const found = built.of('aws:ec2/launchTemplate:LaunchTemplate').filter((r) => r.name === `${name}-launch-template`);
    expect(found).toHaveLength(1);
    return found[0].inputs;
  };

  test.each<[string, Partial<eksModule.SelfManagedWindowsNodePoolArgs>, string]>([
    ['clusterName', { clusterName: pulumi.secret('secret-prod') }, "-EKSClusterName 'secret-prod'"],
    [
      'clusterEndpoint',
      { clusterEndpoint: pulumi.secret('https://secret.example'), clusterCertificateAuthority: 'Q0E=' },
      "-APIServerEndpoint 'https://secret.example'",
    ],
    [
      'clusterCertificateAuthority',
      { clusterEndpoint: 'https://e.example', clusterCertificateAuthority: pulumi.secret('U0VDUkVU') },
      "-Base64ClusterCA 'U0VDUkVU'",
    ],
    ['dnsClusterIp', { dnsClusterIp: pulumi.secret('172.20.0.10') }, "-DNSClusterIP '172.20.0.10'"],
    ['serviceIpv4Cidr', { serviceIpv4Cidr: pulumi.secret('10.96.0.0/12') }, "-ServiceCIDR '10.96.0.0/12'"],
  ])('a secret %s makes the user data secret: the launch template gets it as a secret', async (arg, args, text) => {
    const built = await buildPool(`secret-${arg}`, args);
    const { pool } = built;
    const userData = launchTemplateOf(built, `secret-${arg}`).userData;
    expect(isSecretInput(userData)).toBe(true);
    expect(decode(plainValue(userData))).toContain(text);
    expect(await pulumi.isSecret(pool.userData)).toBe(true);
    expect(await pulumi.isSecret(pool.launchTemplate.userData)).toBe(true);
  });

  test('a secret keyName stays secret on the launch template; the user data does not hold it and is not secret', async () => {
    const built = await buildPool('key', { keyName: pulumi.secret('rdp-key-prod') });
    const { pool } = built;
    const lt = launchTemplateOf(built, 'key');
    expect(isSecretInput(lt.keyName)).toBe(true);
    expect(plainValue(lt.keyName)).toBe('rdp-key-prod');
    expect(await pulumi.isSecret(pool.launchTemplate.keyName)).toBe(true);
    expect(typeof lt.userData).toBe('string');
    expect(decode(lt.userData)).not.toContain('rdp-key-prod');
    expect(await pulumi.isSecret(pool.userData)).toBe(false);
  });

  test('plain args: nothing is marked secret', async () => {
    const built = await buildPool('plain', {
      keyName: 'rdp-key',
      clusterEndpoint: 'https://e.example',
      clusterCertificateAuthority: 'Q0E=',
      dnsClusterIp: '172.20.0.10',
      serviceIpv4Cidr: '10.96.0.0/12',
    });
    const { pool } = built;
    const lt = launchTemplateOf(built, 'plain');
    expect(lt.keyName).toBe('rdp-key');
    expect(typeof lt.userData).toBe('string');
    expect(await pulumi.isSecret(pool.userData)).toBe(false);
    expect(await pulumi.isSecret(pool.launchTemplate.userData)).toBe(false);
    expect(await pulumi.isSecret(pool.launchTemplate.keyName)).toBe(false);
  });

  test.each<[string, Partial<eksModule.SelfManagedWindowsNodePoolArgs>]>([
    ['labels["a"]', { labels: { a: pulumi.secret('b') as never } }],
    ['taints[0].value', { taints: [{ key: 'a', value: pulumi.secret('b') as never, effect: 'NoSchedule' }] }],
    ['systemReservedMemory', { systemReservedMemory: pulumi.secret('3Gi') as never }],
    ['kubeletExtraArgs[0]', { kubeletExtraArgs: [pulumi.secret('--max-pods=30') as never] }],
  ])('the kubelet arguments cannot carry a secret into the user data: a secret %s is refused', (path, args) => {
    expect(
      inputErrorsOf(() => new eks.SelfManagedWindowsNodePool('x', { ...BASE, ...args })).map((e) => e.propertyPath),
    ).toEqual([path]);
  });
});
