import { checkImageCompatibility, parseImageReference } from 'k8s-windows';
import {
  inferWindowsBuild,
  isWindowsImage,
  legacyWindowsRepository,
  windowsBuildCoverage,
} from '../../lib/core/images';

describe('parseImageReference', () => {
  test.each([
    ['nginx', { repository: 'nginx' }],
    ['redis:7', { repository: 'redis', tag: '7' }],
    [
      'mcr.microsoft.com/windows/servercore:ltsc2022',
      { registry: 'mcr.microsoft.com', repository: 'windows/servercore', tag: 'ltsc2022' },
    ],
    ['localhost:5000/app:1.0', { registry: 'localhost:5000', repository: 'app', tag: '1.0' }],
    [
      `mcr.microsoft.com/windows/nanoserver@sha256:${'a'.repeat(64)}`,
      { registry: 'mcr.microsoft.com', repository: 'windows/nanoserver', digest: `sha256:${'a'.repeat(64)}` },
    ],
    [
      `reg.io/team/app:ltsc2022@sha256:${'b'.repeat(64)}`,
      { registry: 'reg.io', repository: 'team/app', tag: 'ltsc2022', digest: `sha256:${'b'.repeat(64)}` },
    ],
  ])('%s', (text, expected) => {
    expect(parseImageReference(text)).toEqual(expected);
  });

  test.each(['', 'UPPER/case', 'a b', 'app@sha256:short', 'app:-bad'])('rejects %j', (text) => {
    expect(parseImageReference(text)).toBeUndefined();
  });
});

describe('inferWindowsBuild', () => {
  test.each([
    ['ltsc2022', '2022'],
    ['windowsservercore-ltsc2022', '2022'],
    ['4.8-windowsservercore-ltsc2019', '2019'],
    ['nanoserver-1809', '2019'],
    ['8.0-nanoserver-ltsc2025', '2025'],
    ['10.0.20348.2655', '2022'],
    ['ltsc2022-amd64', '2022'],
  ])('%s → %s', (tag, release) => {
    expect(inferWindowsBuild(tag)).toMatchObject({ kind: 'release', release });
  });

  test('retired releases: SAC tags and Windows Server 2016', () => {
    expect(inferWindowsBuild('20H2')).toEqual({
      kind: 'retired',
      name: '20H2',
      build: '10.0.19042',
      displayName: 'Windows Server 20H2',
    });
    expect(inferWindowsBuild('windowsservercore-1909')).toMatchObject({ kind: 'retired', name: '1909' });
    for (const tag of ['1709', 'windowsservercore-1803', 'windowsservercore-ltsc2016', 'sac2016', '10.0.14393.2248']) {
      expect(inferWindowsBuild(tag)).toMatchObject({ kind: 'retired' });
    }
    expect(inferWindowsBuild('10.0.16299.15')).toMatchObject({ kind: 'retired', name: '1709' });
  });

  test("vendors' year tags after a Windows word", () => {
    expect(inferWindowsBuild('3.1.4-windows-2022')).toMatchObject({ kind: 'release', release: '2022' });
    expect(inferWindowsBuild('v1.2-win2019')).toMatchObject({ kind: 'release', release: '2019' });
    expect(inferWindowsBuild('2022')).toEqual({ kind: 'unknown' });
  });

  test('legacy Docker Hub microsoft/* repositories are Windows images', () => {
    for (const image of ['microsoft/iis', 'microsoft/windowsservercore:latest', 'docker.io/microsoft/aspnet:4.7.2']) {
      expect(isWindowsImage(image)).toBe(true);
      expect(legacyWindowsRepository(image)).toBeDefined();
    }
    expect(legacyWindowsRepository('microsoft/iis')?.successor).toBe('mcr.microsoft.com/windows/servercore/iis');
    expect(legacyWindowsRepository('mcr.microsoft.com/windows/servercore/iis')).toBeUndefined();
    expect(isWindowsImage('mcr.microsoft.com/windows:ltsc2019')).toBe(true);
  });

  test('build coverage: single-build tags, known multi-arch publishers, unknown', () => {
    expect(windowsBuildCoverage('mcr.microsoft.com/windows/servercore:ltsc2022')).toBe('single');
    expect(windowsBuildCoverage('registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0')).toBe('multi');
    expect(windowsBuildCoverage('mcr.microsoft.com/oss/kubernetes-csi/azuredisk-csi:v1.31.0')).toBe('multi');
    expect(windowsBuildCoverage('mcr.microsoft.com/dotnet/framework/aspnet:4.8')).toBe('multi');
    expect(windowsBuildCoverage('contoso.azurecr.io/web:1.0')).toBe('unknown');
  });

  test.each(['4.8', 'latest', '1.2.3', undefined])('floating %j', (tag) => {
    expect(inferWindowsBuild(tag)).toEqual({ kind: 'unknown' });
  });
});

describe('isWindowsImage', () => {
  test.each([
    ['mcr.microsoft.com/windows/servercore:ltsc2022', true],
    ['mcr.microsoft.com/dotnet/framework/aspnet:4.8', true],
    ['mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', true],
    ['mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022', true],
    ['mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', true],
    ['redis:7', undefined],
    ['mcr.microsoft.com/dotnet/aspnet:8.0', undefined],
  ])('%s → %s', (image, expected) => {
    expect(isWindowsImage(image)).toBe(expected);
  });
});

describe('checkImageCompatibility', () => {
  const iis2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
  const aspnet2019 = 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019';

  test('process isolation: the host build, and on a 2025 host ltsc2022 too; never an older or newer one otherwise', () => {
    expect(checkImageCompatibility(iis2022, '2022', 'process').status).toBe('compatible');
    const bad = checkImageCompatibility(aspnet2019, '2022', 'process');
    expect(bad).toMatchObject({ status: 'incompatible' });
    expect(bad.status === 'incompatible' && bad.reason).toContain('does not match the host operating system');
    expect(bad.status === 'incompatible' && bad.fix).toBe(
      "Use the image's ltsc2022 tag, or pin the workload to Windows Server 2019 nodes.",
    );
    // Issue 23: a Windows Server 2025 host runs ltsc2022 images with process isolation (containerd's stable-ABI rule).
    expect(checkImageCompatibility(iis2022, '2025', 'process')).toEqual({
      status: 'compatible',
      reason:
        'A Windows Server 2025 host (10.0.26100) runs Windows Server 2022 images (10.0.20348) with process isolation.',
    });
    const newer = checkImageCompatibility('mcr.microsoft.com/windows/servercore:ltsc2025', '2022', 'process');
    expect(newer).toMatchObject({ status: 'incompatible' });
    expect(newer.status === 'incompatible' && newer.reason).toContain(
      'with process isolation a Windows Server 2022 host runs only ltsc2022 images',
    );
    expect(checkImageCompatibility(aspnet2019, '2025', 'process').status).toBe('incompatible');
  });

  test('Hyper-V runs older images on newer hosts, not the reverse', () => {
    expect(checkImageCompatibility(aspnet2019, '2022', 'hyperv').status).toBe('compatible');
    expect(checkImageCompatibility(iis2022, '2019', 'hyperv').status).toBe('incompatible');
  });

  test('HostProcess images need not match', () => {
    expect(checkImageCompatibility(aspnet2019, '2025', 'hostProcess').status).toBe('compatible');
  });

  test('floating tags, digests and SAC images', () => {
    expect(checkImageCompatibility('mcr.microsoft.com/dotnet/framework/aspnet:4.8', '2022').status).toBe('unknown');
    expect(
      checkImageCompatibility(`mcr.microsoft.com/windows/nanoserver@sha256:${'c'.repeat(64)}`, '2022').status,
    ).toBe('unknown');
    expect(checkImageCompatibility('mcr.microsoft.com/windows/servercore:20H2', '2022').status).toBe('incompatible');
    expect(checkImageCompatibility('not an image', '2022').status).toBe('unknown');
  });
});
