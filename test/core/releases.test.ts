import { WINDOWS_RELEASES, type WindowsRelease } from 'k8s-windows';
import { cloudReleaseGate } from '../../lib/core/cloud-gates';
import {
  WINDOWS_RUNTIME_HANDLERS,
  isWindowsRelease,
  isWindowsRuntimeHandler,
  parseKubernetesMinor,
  parseWindowsRelease,
  releaseForBuild,
  releaseInfo,
  sacRelease,
  windowsRuntimeHandler,
} from '../../lib/core/releases';

describe('release table', () => {
  test.each([
    ['2019', '10.0.17763', 'WINDOWS_CORE_2019_x86_64', 'Windows2019', 'OS_VERSION_LTSC2019'],
    ['2022', '10.0.20348', 'WINDOWS_CORE_2022_x86_64', 'Windows2022', 'OS_VERSION_LTSC2022'],
    ['2025', '10.0.26100', 'WINDOWS_CORE_2025_x86_64', 'Windows2025', undefined],
  ] as const)('%s: build %s, EKS %s, AKS %s, GKE %s', (release, build, ami, sku, gke) => {
    const info = releaseInfo(release);
    expect(info.build).toBe(build);
    expect(info.eksAmiTypes.core).toBe(ami);
    expect(info.eksAmiTypes.full).toBe(ami.replace('CORE', 'FULL'));
    expect(info.aksOsSku).toBe(sku);
    expect(info.gkeOsVersion).toBe(gke);
    expect(releaseForBuild(build)).toBe(release);
    expect(releaseForBuild(`${build}.1234`)).toBe(release);
  });

  test('AKS refuses 2019 from Kubernetes 1.33 (one home: the cloud gates)', () => {
    expect(cloudReleaseGate('aks', '2019')?.lastMinor).toBe(32);
    expect(cloudReleaseGate('aks', '2022')?.lastMinor).toBe(36);
  });

  test('exhaustive over releases', () => {
    const kinds = WINDOWS_RELEASES.map((r: WindowsRelease) => {
      switch (r) {
        case '2019':
        case '2022':
        case '2025':
          return r;
        default: {
          const never: never = r;
          return never;
        }
      }
    });
    expect(kinds).toEqual(['2019', '2022', '2025']);
  });
});

describe('parseWindowsRelease', () => {
  test('accepts release names', () => {
    expect(parseWindowsRelease('2022')).toEqual({ ok: true, release: '2022' });
    expect(isWindowsRelease('2025')).toBe(true);
    expect(isWindowsRelease(2022)).toBe(false);
  });

  test('refuses SAC releases by name and build', () => {
    const byName = parseWindowsRelease('20H2');
    expect(byName).toMatchObject({ ok: false, message: expect.stringContaining('Semi-Annual Channel') });
    expect(parseWindowsRelease('10.0.18363')).toMatchObject({ ok: false, message: expect.stringContaining('1909') });
    expect(sacRelease('1903')?.build).toBe('10.0.18362');
  });

  test('suggests the name for a build or tag spelling', () => {
    expect(parseWindowsRelease('ltsc2022')).toEqual({ ok: false, message: expect.any(String), fix: "Write '2022'." });
    expect(parseWindowsRelease('10.0.17763')).toMatchObject({ fix: "Write '2019'." });
  });

  test('refuses anything else with the list', () => {
    expect(parseWindowsRelease('2012')).toMatchObject({ ok: false, fix: "Use one of '2019', '2022', '2025'." });
    expect(parseWindowsRelease('2016')).toMatchObject({
      ok: false,
      fix: "Use an LTSC release: '2019', '2022', '2025'.",
    });
    expect(parseWindowsRelease('2016')).toMatchObject({ message: expect.stringContaining('10.0.14393') });
    expect(parseWindowsRelease(undefined)).toMatchObject({ ok: false });
  });
});

test('parseKubernetesMinor', () => {
  expect(parseKubernetesMinor('1.30')).toBe(30);
  expect(parseKubernetesMinor('v1.33.2')).toBe(33);
  expect(parseKubernetesMinor('1.29.0-eks-abc')).toBe(29);
  expect(parseKubernetesMinor('2.0')).toBeUndefined();
});

test('containerd Windows runtime handlers, one per isolation', () => {
  expect(WINDOWS_RUNTIME_HANDLERS).toEqual({ process: 'runhcs-wcow-process', hyperv: 'runhcs-wcow-hypervisor' });
  expect(windowsRuntimeHandler('process')).toBe('runhcs-wcow-process');
  expect(windowsRuntimeHandler('hyperv')).toBe('runhcs-wcow-hypervisor');
  expect(isWindowsRuntimeHandler('runhcs-wcow-hypervisor')).toBe(true);
  expect(isWindowsRuntimeHandler('runc')).toBe(false);
  expect(isWindowsRuntimeHandler(undefined)).toBe(false);
});
