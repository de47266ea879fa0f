import {
  checkCloudRelease,
  cloudReleaseGate,
  defaultReleaseFor,
  releasesOnKubernetes,
  CLOUDS,
} from '../../lib/core/cloud-gates';
import { WINDOWS_RELEASES } from '../../lib/core/releases';

describe('release ↔ Kubernetes-version gates', () => {
  test('EKS runs Windows Server 2025 from 1.35 only (AWS AMI list, eksctl, Karpenter)', () => {
    expect(checkCloudRelease('eks', '2025', '1.34')).toEqual({
      message: expect.stringContaining(
        "EKS runs Windows Server 2025 nodes on Kubernetes 1.35 or newer; '1.34' is older",
      ),
      fix: "Use Kubernetes 1.35 or newer, or release '2019' or '2022'.",
    });
    expect(checkCloudRelease('eks', '2025', '1.35.2-eks-abc')).toBeUndefined();
    expect(checkCloudRelease('eks', '2022', '1.22')?.fix).toBe("Use Kubernetes 1.23 or newer, or release '2019'.");
  });

  /** A day before AKS retired Windows Server 2019 (2026-03-01): only the version gates apply. */
  const BEFORE_2019_RETIREMENT = '2026-02-01';
  const TODAY = '2026-11-27';

  test('AKS before 2026-03-01: Windows2019 up to 1.32, Windows2022 1.23–1.36, Windows2025 from 1.32', () => {
    const at = BEFORE_2019_RETIREMENT;
    expect(checkCloudRelease('aks', '2019', '1.31', at)).toBeUndefined();
    expect(checkCloudRelease('aks', '2019', '1.33', at)?.fix).toBe("Use release '2022' or '2025', or Kubernetes 1.32.");
    expect(checkCloudRelease('aks', '2022', '1.36', at)).toBeUndefined();
    expect(checkCloudRelease('aks', '2022', '1.37', at)?.fix).toBe("Use release '2025', or Kubernetes 1.36.");
    expect(checkCloudRelease('aks', '2025', '1.31', at)?.message).toContain('1.32 or newer');
    expect(checkCloudRelease('aks', '2025', '1.32', at)).toBeUndefined();
  });

  test('AKS from 2026-03-01: Windows2019 is retired on every Kubernetes version, with the dates and the way out', () => {
    expect(checkCloudRelease('aks', '2019', '1.31', TODAY)).toEqual({
      message:
        'AKS retired Windows Server 2019 on 2026-03-01: no new pools on any Kubernetes version; its node images are deleted from 2027-04-01, after which existing pools cannot scale.',
      fix: "Move to release '2022' (or '2025' on Kubernetes 1.32 or newer) and rebuild the images on its base (https://learn.microsoft.com/azure/aks/upgrade-windows-os).",
    });
    expect(checkCloudRelease('aks', '2019', undefined, '2026-03-01')?.message).toContain('retired Windows Server 2019');
    expect(checkCloudRelease('aks', '2019', '1.28', '2026-02-28')).toBeUndefined();
    expect(releasesOnKubernetes('aks', 31, TODAY)).toEqual(['2022']);
    expect(releasesOnKubernetes('aks', 32, TODAY)).toEqual(['2022', '2025']);
  });

  test('AKS retires Windows Server 2022 on 2028-06-30 by the date alone', () => {
    expect(checkCloudRelease('aks', '2022', '1.34', '2028-06-29')).toBeUndefined();
    expect(checkCloudRelease('aks', '2022', '1.34', '2028-06-30')?.message).toBe(
      'AKS retired Windows Server 2022 on 2028-06-30: no new pools on any Kubernetes version; its node images are deleted from 2029-06-30, after which existing pools cannot scale.',
    );
  });

  test('the default release follows the cloud and the Kubernetes version (AKS: 2025 from 1.37)', () => {
    expect(defaultReleaseFor('aks', '1.36')).toBe('2022');
    expect(defaultReleaseFor('aks', '1.37')).toBe('2025');
    expect(defaultReleaseFor('aks', 'v1.38.1')).toBe('2025');
    expect(defaultReleaseFor('aks', undefined)).toBe('2022');
    expect(defaultReleaseFor('eks', '1.37')).toBe('2022');
    expect(defaultReleaseFor('gke', '1.37')).toBe('2022');
    // Every default passes its own cloud's gate today.
    for (const cloud of CLOUDS) {
      for (let minor = 25; minor <= 40; minor++) {
        expect(checkCloudRelease(cloud, defaultReleaseFor(cloud, `1.${minor}`), `1.${minor}`, TODAY)).toBeUndefined();
      }
    }
  });

  test('GKE does not offer 2025 at all', () => {
    expect(cloudReleaseGate('gke', '2025')).toBeUndefined();
    expect(checkCloudRelease('gke', '2025', '1.33')?.message).toBe('GKE does not offer Windows Server 2025 nodes.');
  });

  test('an unparsable version is left to the caller', () => {
    expect(checkCloudRelease('aks', '2022', 'latest')).toBeUndefined();
  });

  test('releasesOnKubernetes agrees with checkCloudRelease for every cloud, release and minor', () => {
    for (const cloud of CLOUDS) {
      for (let minor = 10; minor <= 40; minor++) {
        for (const date of [BEFORE_2019_RETIREMENT, TODAY, '2028-07-01']) {
          const fits = releasesOnKubernetes(cloud, minor, date);
          for (const release of WINDOWS_RELEASES) {
            expect(checkCloudRelease(cloud, release, `1.${minor}`, date) === undefined).toBe(fits.includes(release));
          }
        }
      }
    }
  });
});
