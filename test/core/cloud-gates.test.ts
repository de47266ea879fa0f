import { checkCloudRelease, cloudReleaseGate, releasesOnKubernetes, CLOUDS } from '../../lib/core/cloud-gates';
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

  test('AKS: Windows2019 up to 1.32, Windows2022 1.23–1.36, Windows2025 from 1.32', () => {
    expect(checkCloudRelease('aks', '2019', '1.33')?.fix).toBe("Use release '2022' or '2025', or Kubernetes 1.32.");
    expect(checkCloudRelease('aks', '2022', '1.36')).toBeUndefined();
    expect(checkCloudRelease('aks', '2022', '1.37')?.fix).toBe("Use release '2025', or Kubernetes 1.36.");
    expect(checkCloudRelease('aks', '2025', '1.31')?.message).toContain('1.32 or newer');
    expect(checkCloudRelease('aks', '2025', '1.32')).toBeUndefined();
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
        const fits = releasesOnKubernetes(cloud, minor);
        for (const release of WINDOWS_RELEASES) {
          expect(checkCloudRelease(cloud, release, `1.${minor}`) === undefined).toBe(fits.includes(release));
        }
      }
    }
  });
});
