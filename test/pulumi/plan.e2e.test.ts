import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { renderPlan, windowsFacts } from '../../examples/pulumi/plan-report';

const ROOT = path.join(__dirname, '..', '..');

/** Runs `npm run plan`'s entry (`tsx examples/pulumi/plan.ts`) in a child process, as the script does. */
function plan(...clouds: string[]): { code: number | null; stdout: string } {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const result = spawnSync(tsx, [path.join('examples', 'pulumi', 'plan.ts'), ...clouds], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout };
}

/** The lines of one cloud's section. */
function section(stdout: string, cloud: string): string {
  const start = stdout.indexOf(`== ${cloud}:`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = stdout.indexOf('\n== ', start + 1);
  return stdout.slice(start, end < 0 ? undefined : end);
}

describe('npm run plan', () => {
  let out: { code: number | null; stdout: string };
  beforeAll(() => {
    out = plan();
  }, 120_000);

  test("every program runs and passes the policy pack with no finding at all (the library's own output)", () => {
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('plan: eks PASS, aks PASS, gke PASS');
    expect(out.stdout.split('policy pack k8s-windows: 0 mandatory, 0 advisory violation(s)').length - 1).toBe(3);
  });

  test('eks: the managed Windows node group, its prerequisites, IIS from its nodeTarget and the admission policies', () => {
    const eks = section(out.stdout, 'eks');
    expect(eks).toMatch(/components: .*k8s-windows:eks:WindowsClusterPrerequisites windows/);
    expect(eks).toContain(
      '+ aws:eks/addon:Addon windows-vpc-cni\n      addonName: vpc-cni\n      configurationValues: {"enableWindowsIpam":"true","enableWindowsPrefixDelegation":"false"}',
    );
    expect(eks).toMatch(/\+ aws:eks\/nodeGroup:NodeGroup windows-node-group\n\s+amiType: WINDOWS_CORE_2022_x86_64\n/);
    expect(eks).toContain('taints: os=windows:NO_SCHEDULE');
    expect(eks).toMatch(
      /\+ kubernetes:apps\/v1:Deployment iis\n\s+os\.name: windows\n\s+nodeSelector: kubernetes\.io\/os=windows, node\.kubernetes\.io\/windows-build=10\.0\.20348\n\s+tolerations: os=windows:NoSchedule\n/,
    );
    expect(eks).toContain('+ kubernetes:core/v1:Service iis');
    // The admission policies, with the pool as the cluster facts (its CRD first).
    expect(eks).toMatch(/components: .*k8s-windows:k8s:WindowsAdmissionPolicies windows-policies/);
    expect(eks).toContain(
      '+ kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy windows-policies-vap-k8s-windows-pod-deny\n',
    );
    expect(eks.indexOf('CustomResourceDefinition windows-policies-crd')).toBeLessThan(
      eks.indexOf('WindowsClusterFacts windows-policies-facts'),
    );
    expect(eks).toContain('verdict: PASS');
  });

  test('aks: a Windows2022 User pool on a cluster with a Windows profile and Azure CNI', () => {
    const aks = section(out.stdout, 'aks');
    expect(aks).toContain('windowsProfile.adminUsername: winadmin');
    expect(aks).toContain('networkProfile.networkPlugin: azure');
    expect(aks).toMatch(
      /\+ azure-native:containerservice:AgentPool win22\n\s+osType: Windows\n\s+osSKU: Windows2022\n\s+mode: User\n/,
    );
    expect(aks).toContain('nodeTaints: os=windows:NoSchedule');
    expect(aks).toMatch(/\+ kubernetes:apps\/v1:Deployment iis\n\s+os\.name: windows\n/);
  });

  test('gke: a WINDOWS_LTSC_CONTAINERD pool beside a Linux pool', () => {
    const gke = section(out.stdout, 'gke');
    expect(gke).toContain('+ gcp:container/nodePool:NodePool linux');
    expect(gke).toMatch(
      /\+ gcp:container\/nodePool:NodePool windows\n\s+imageType: WINDOWS_LTSC_CONTAINERD\n\s+osversion: OS_VERSION_LTSC2022\n/,
    );
    expect(gke).toMatch(/\+ kubernetes:apps\/v1:Deployment iis\n\s+os\.name: windows\n/);
  });
});

test('an unknown cloud is refused', () => {
  expect(plan('openshift').code).toBe(2);
});

// The report is pure, so it is tested in-process; only running the programs needs processes of their own.
describe('the plan report', () => {
  const pool = {
    type: 'azure-native:containerservice:AgentPool',
    name: 'win',
    urn: 'urn:pulumi:dev::p::azure-native:containerservice:AgentPool::win',
    custom: true,
    inputs: { osType: 'Windows', osSKU: 'Windows2022', mode: 'System', nodeTaints: ['os=windows:NoSchedule'] },
  };

  test('Windows facts of a node pool', () => {
    expect(windowsFacts(pool)).toEqual([
      ['osType', 'Windows'],
      ['osSKU', 'Windows2022'],
      ['mode', 'System'],
      ['nodeTaints', 'os=windows:NoSchedule'],
    ]);
  });

  test('a mandatory violation fails the verdict; advisory ones do not', () => {
    const mandatory = {
      policy: 'windows-node-pools',
      enforcementLevel: 'mandatory' as const,
      message: '[x] mode: bad',
      urn: pool.urn,
    };
    const advisory = { ...mandatory, policy: 'windows-node-pools-advice', enforcementLevel: 'advisory' as const };
    expect(renderPlan('aks', [pool], [mandatory])).toContain('verdict: FAIL');
    expect(renderPlan('aks', [pool], [mandatory])).toContain('[mandatory] windows-node-pools (win): [x] mode: bad');
    expect(renderPlan('aks', [pool], [advisory])).toContain('verdict: PASS');
  });
});
