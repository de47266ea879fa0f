/**
 * image-nanoserver-powershell beyond its examples: which images are Nano Server of 1709 or later, which field names
 * the program, and what is not reported.
 */
import { validateManifests } from '../../../lib/core';

const pod = (container: Record<string, unknown>, hostProcess = false): unknown[] => [
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      os: { name: 'windows' },
      ...(hostProcess
        ? {
            hostNetwork: true,
            securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
          }
        : {}),
      containers: [{ name: 'c', ...container }],
    },
  },
];
const found = (container: Record<string, unknown>, hostProcess = false) =>
  validateManifests(pod(container, hostProcess))
    .filter((d) => d.ruleId === 'image-nanoserver-powershell')
    .map((d) => d.path);

test.each([
  ['mcr.microsoft.com/windows/nanoserver:ltsc2022', ['powershell']],
  ['mcr.microsoft.com/windows/nanoserver:1809', ['PowerShell.exe', '-c', 'x']],
  ['microsoft/nanoserver:1709', ['powershell']],
  ['golang:1.27-nanoserver-ltsc2022', ['powershell', '-c', 'go version']],
  ['mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022', ['cmd.exe', '/S', '/C', 'powershell -c x']],
  ['mcr.microsoft.com/windows/nanoserver:ltsc2025', ['cmd /c powershell.exe -File a.ps1']],
])('%s with command %j is reported at the command', (image, command) => {
  expect(found({ image, command })).toEqual(['spec.containers[0].command']);
});

test.each([
  ['microsoft/nanoserver:sac2016', ['powershell'], 'Windows Server 2016 Nano Server had Windows PowerShell'],
  ['microsoft/nanoserver', ['powershell'], "the retired Docker Hub repository's latest is 2016"],
  ['mcr.microsoft.com/windows/nanoserver:ltsc2022', ['pwsh'], 'pwsh is not Windows PowerShell'],
  ['mcr.microsoft.com/windows/nanoserver:ltsc2022', ['cmd', '/c', 'pwsh -c x'], 'pwsh behind cmd'],
  ['mcr.microsoft.com/windows/servercore:ltsc2022', ['powershell'], 'Server Core has powershell.exe'],
  ['acme/tools:1.0', ['powershell'], 'an image not known to be Nano Server'],
])('%s with command %j is not reported (%s)', (image, command) => {
  expect(found({ image, command })).toEqual([]);
});

test('args name the program only on the bare base image, which has no ENTRYPOINT', () => {
  expect(found({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', args: ['powershell', '-c', 'x'] })).toEqual([
    'spec.containers[0].args',
  ]);
  // Another image's ENTRYPOINT may take `powershell` as an argument.
  expect(found({ image: 'mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022', args: ['powershell'] })).toEqual([]);
  // A command given wins over args.
  expect(
    found({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['cmd'], args: ['powershell'] }),
  ).toEqual([]);
});

test('a HostProcess container runs the host’s powershell.exe', () => {
  expect(found({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['powershell'] }, true)).toEqual([]);
});
