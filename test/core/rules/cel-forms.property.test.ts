/**
 * The CEL forms whose checks read text with their own grammar, held to those checks on generated values (the
 * differential of test/core/policies/differential.ts: the generated policy run by @bufbuild/cel against the engine
 * on the object alone): runAsUserName and gmsaCredentialSpecName formats; image references as parseImageReference
 * and inferWindowsBuild read them (cel-parts.ts `celImageRefs`), through the image rules; a Nano Server container's
 * command line; windows_exporter's version tags. A tag naming two builds is left out: the CEL reads the first in
 * table order where inferWindowsBuild takes the first in the tag (images.ts `windowsBuildTagPatterns`).
 */
import { run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import fc from 'fast-check';
import { inferWindowsBuild, parseImageReference } from '../../../lib/core/images';
import { celImageRefs } from '../../../lib/core/rules/cel-parts';
import { propertyParameters } from '../../helpers/property';
import { differential } from '../policies/differential';

const windowsPod = (container: Record<string, unknown>, podSecurity?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: {
    os: { name: 'windows' },
    ...(podSecurity ? { securityContext: podSecurity } : {}),
    containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ...container }],
  },
});

/** Disagreements of the named rules on `object`, with CEL runtime errors (none is expected). */
function disagreements(object: unknown, rules: readonly string[]): unknown[] {
  const found = differential(object, 'generated', rules);
  return [...found.mismatches, ...found.errors];
}

/** Runs of a property that evaluates every policy under every cloud per value: fewer than the default. */
const DIFFERENTIAL_RUNS = 60;

const text = (pieces: readonly string[], maxLength: number) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((p) => p.join(''));

test('runAsUserName and gmsaCredentialSpecName: the API server format, as the checks read it', () => {
  const pieces = ['a', 'B', '.', ' ', '\\', '-', '/', '@', 'é', '\u0001', '0', '_', '${X}', '{{', '}}', '<', '>'];
  const long = ['x'.repeat(15), 'y'.repeat(100), 'ÿ'.repeat(60), 'd.'.repeat(130)];
  fc.assert(
    fc.property(text([...pieces, ...long], 6), fc.boolean(), (value, onPod) => {
      const options = { runAsUserName: value, gmsaCredentialSpecName: value };
      const object = onPod
        ? windowsPod({}, { windowsOptions: options })
        : windowsPod({ securityContext: { windowsOptions: options } });
      expect(disagreements(object, ['windows-run-as-user-name', 'gmsa-name-format'])).toEqual([]);
    }),
    propertyParameters(DIFFERENTIAL_RUNS),
  );
});

/** Image references from the pieces the image rules read: registries, Windows and legacy repositories, tags. */
const imageReference = fc
  .tuple(
    fc.constantFrom('', 'mcr.microsoft.com/', 'docker.io/', 'localhost:5000/', 'quay.io/', 'ghcr.io/'),
    fc.constantFrom(
      'windows/nanoserver',
      'windows/servercore',
      'microsoft/nanoserver',
      'microsoft/iis',
      'microsoft/dotnet-framework-build',
      'powershell',
      'oss/kubernetes/windows-host-process-containers-base-image',
      'prometheus-community/windows-exporter',
      'acme/app',
      'Acme/App',
    ),
    fc.option(
      fc
        .tuple(
          fc.constantFrom('', 'v1.2-', '4.8-', 'lts-', '0.29.0-', '0.30.1-', 'V0.31-'),
          fc.constantFrom('', 'nanoserver-', 'windowsservercore-', 'windows-', 'win', 'servercore_'),
          fc.constantFrom('', 'ltsc2022', 'ltsc2016', 'sac2016', '1809', '1709', '20H2', '2004', '2022', '2016'),
          fc.constantFrom('', '10.0.17763.1', '10.0.14393', '-amd64', '.1', '_x', '-nanoserver'),
        )
        .map((parts) => `:${parts.join('')}`)
        .filter((tag) => tag !== ':' && !/^:[-_.]/.test(tag)),
      { nil: '' },
    ),
    fc.constantFrom('', '', `@sha256:${'a'.repeat(64)}`, '@sha256:abc'),
  )
  .map((parts) => parts.join(''))
  // One build per tag (see the file's comment).
  .filter((image) => {
    const tag = /:([^/:@]+)(?:@|$)/.exec(image)?.[1]?.toLowerCase() ?? '';
    return (tag.match(/ltsc\d{4}|sac2016|1809|1709|20h2|2004|10\.0\.\d{5}|-2022|-2016/g) ?? []).length <= 1;
  });

/** A CEL list (of lists) as arrays. */
const plain = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && Symbol.iterator in value
    ? [...(value as Iterable<unknown>)].map(plain)
    : value;

test('celImageRefs reads a reference as parseImageReference and inferWindowsBuild do', () => {
  const expression = celImageRefs('containers');
  fc.assert(
    fc.property(imageReference, (image) => {
      const result = run(expression, { containers: [{ name: 'c', image }] }, { funcs: strings });
      const ref = parseImageReference(image);
      const built = ref ? inferWindowsBuild(ref.tag) : undefined;
      const expected = ref
        ? [
            [
              'c',
              image,
              ref.registry ? `${ref.registry}/${ref.repository}` : ref.repository,
              ref.registry ?? '',
              ref.repository,
              ref.tag?.toLowerCase() ?? '',
              built?.kind === 'unknown' || built === undefined ? '' : built.build,
            ],
          ]
        : [];
      expect(plain(result)).toEqual(expected);
    }),
    propertyParameters(),
  );
});

test('the image rules agree with their checks on generated references, HostProcess or not', () => {
  fc.assert(
    fc.property(imageReference, fc.boolean(), (image, hostProcess) => {
      const object = windowsPod(
        { image },
        hostProcess ? { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } : undefined,
      );
      if (hostProcess) (object.spec as Record<string, unknown>).hostNetwork = true;
      expect(
        disagreements(object, [
          'image-sac',
          'image-legacy-repository',
          'image-hostprocess-only',
          'image-nanoserver-powershell',
        ]),
      ).toEqual([]);
    }),
    propertyParameters(DIFFERENTIAL_RUNS),
  );
});

test('image-nanoserver-powershell reads command lines as its check does', () => {
  const words = [
    'powershell',
    'PowerShell.exe',
    'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    '"C:/x/powershell.exe"',
    'cmd',
    'cmd.exe',
    'C:/x/cmd.exe',
    '/c',
    '/C',
    '/k',
    '/s',
    '/cx',
    '/',
    'echo',
    '"powershell',
    'pwsh',
    '-Command',
    '',
    ' ',
  ];
  const argv = fc.array(
    fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
    { maxLength: 4 },
  );
  const images = [
    'mcr.microsoft.com/windows/nanoserver:ltsc2022',
    'microsoft/nanoserver',
    'microsoft/nanoserver:1809',
    'docker.io/microsoft/nanoserver:10.0.14393.1',
    'mcr.microsoft.com/powershell:lts-nanoserver-1809',
    'acme/app:1.0-nanoserver-ltsc2022',
    'mcr.microsoft.com/windows/servercore:ltsc2022',
  ];
  fc.assert(
    fc.property(fc.constantFrom(...images), argv, fc.constantFrom('command', 'args', 'both'), (image, line, field) => {
      const container: Record<string, unknown> = { image };
      if (field !== 'args') container.command = line;
      if (field !== 'command') container.args = field === 'both' ? ['powershell'] : line;
      expect(disagreements(windowsPod(container), ['image-nanoserver-powershell'])).toEqual([]);
    }),
    propertyParameters(DIFFERENTIAL_RUNS),
  );
});

test('memory-too-small reads quantities as parseQuantity does', () => {
  const quantity = fc.oneof(
    fc.integer({ min: -10, max: 3_000_000 }),
    fc.double({ min: -1, max: 3e6, noNaN: true }),
    text(['1', '0', '.', '5', '8', 'e', 'E', '3', '-', '+', 'm', 'Mi', 'k', 'Ki', 'M', 'Ei', 'n', ' ', 'x'], 6),
  );
  fc.assert(
    fc.property(fc.option(quantity, { nil: undefined }), fc.option(quantity, { nil: undefined }), (request, limit) => {
      const resources = {
        ...(request === undefined ? {} : { requests: { memory: request } }),
        ...(limit === undefined ? {} : { limits: { memory: limit, cpu: '1' } }),
      };
      expect(disagreements(windowsPod({ resources }), ['memory-too-small'])).toEqual([]);
    }),
    propertyParameters(DIFFERENTIAL_RUNS),
  );
});

test('windows-startup-probe and windows-run-as-non-root-image-user on generated containers', () => {
  const images = [
    'mcr.microsoft.com/windows/servercore:ltsc2022',
    'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
    'mcr.microsoft.com/dotnet/framework/aspnet:4.8',
    'quay.io/windows/servercore:ltsc2022',
    'acme/app:1.0-windowsservercore-ltsc2019',
    'mcr.microsoft.com/windows/nanoserver:ltsc2022',
  ];
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const probe = fc.record(
    {
      initialDelaySeconds: fc.nat(60),
      periodSeconds: fc.integer({ min: 1, max: 30 }),
      failureThreshold: fc.integer({ min: 1, max: 10 }),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(
      fc.constantFrom(...images),
      maybe(probe),
      fc.boolean(),
      maybe(fc.boolean()),
      maybe(fc.boolean()),
      maybe(fc.constantFrom('ContainerUser', 'ContainerAdministrator')),
      maybe(fc.constantFrom('ContainerUser')),
      fc.boolean(),
      maybe(fc.constantFrom('Always', 'Never', 'OnFailure')),
      (image, liveness, startup, ownNonRoot, podNonRoot, ownUser, podUser, hostProcess, restartPolicy) => {
        const securityContext = {
          ...(ownNonRoot === undefined ? {} : { runAsNonRoot: ownNonRoot }),
          ...(ownUser === undefined ? {} : { windowsOptions: { runAsUserName: ownUser } }),
        };
        const podSecurity = {
          ...(podNonRoot === undefined ? {} : { runAsNonRoot: podNonRoot }),
          windowsOptions: {
            ...(podUser === undefined ? {} : { runAsUserName: podUser }),
            ...(hostProcess ? { hostProcess: true } : {}),
          },
        };
        const object = windowsPod(
          {
            image,
            securityContext,
            ...(liveness === undefined ? {} : { livenessProbe: { tcpSocket: { port: 80 }, ...liveness } }),
            ...(startup ? { startupProbe: { tcpSocket: { port: 80 } } } : {}),
          },
          podSecurity,
        );
        if (restartPolicy !== undefined) (object.spec as Record<string, unknown>).restartPolicy = restartPolicy;
        expect(disagreements(object, ['windows-startup-probe', 'windows-run-as-non-root-image-user'])).toEqual([]);
      },
    ),
    propertyParameters(DIFFERENTIAL_RUNS),
  );
});
