import { checkImageCompatibility, inferWindowsBuild, isWindowsImage, parseImageReference } from 'k8s-windows';

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

  test('SAC tags', () => {
    expect(inferWindowsBuild('20H2')).toEqual({ kind: 'sac', name: '20H2', build: '10.0.19042' });
    expect(inferWindowsBuild('windowsservercore-1909')).toMatchObject({ kind: 'sac', name: '1909' });
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

  test('process isolation needs equal builds', () => {
    expect(checkImageCompatibility(iis2022, '2022', 'process').status).toBe('compatible');
    const bad = checkImageCompatibility(aspnet2019, '2022', 'process');
    expect(bad).toMatchObject({ status: 'incompatible' });
    expect(bad.status === 'incompatible' && bad.reason).toContain('does not match the host operating system');
    expect(bad.status === 'incompatible' && bad.fix).toContain('ltsc2022');
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
