/**
 * Windows evidence in an image's repository name (issue 34): `readWindowsName` reads it token by token, never
 * inside a word, and a Linux word beside it cancels it; `repositoryWindowsBuild` reads the build a name names; the
 * CEL forms read names with the same patterns (`windowsNamePatterns`). And placeholders for an image
 * (`#registry#/app`, `<your-registry>`, `app:__TAG__`) are not references.
 */
import { run } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import fc from 'fast-check';
import {
  isPlaceholderReference,
  parseImageReference,
  placeholderPattern,
  readImageReference,
} from '../../lib/core/image-reference';
import {
  inferWindowsBuild,
  isWindowsImage,
  readWindowsName,
  repositoryWindowsBuild,
  windowsBuildCoverage,
  windowsNamePatterns,
} from '../../lib/core/images';
import { celTagBuild } from '../../lib/core/rules/cel-parts';
import { isPlaceholderReference as registryPlaceholder } from '../../lib/registry/reference';
import { propertyParameters } from '../helpers/property';

describe('readWindowsName', () => {
  test.each([
    [
      'contoso/iis-windows-ltsc2019',
      ['windows', 'ltsc2019'],
      '10.0.17763',
      'repository',
      "the image repository name 'contoso/iis-windows-ltsc2019' names Windows ('windows', 'ltsc2019': Windows Server 2019)",
    ],
    [
      'fabrikam/sql-windows-1809',
      ['windows-1809'],
      '10.0.17763',
      'repository',
      "the image repository name 'fabrikam/sql-windows-1809' names Windows ('windows-1809': Windows Server 2019)",
    ],
    [
      'contoso.azurecr.io/shop/agent-win2022:3.1',
      ['win2022'],
      '10.0.20348',
      'repository',
      "the image repository name 'shop/agent-win2022' names Windows ('win2022': Windows Server 2022)",
    ],
    [
      'acme/app_servercore_2025',
      ['servercore_2025'],
      '10.0.26100',
      'repository',
      "the image repository name 'acme/app_servercore_2025' names Windows ('servercore_2025': Windows Server 2025)",
    ],
    [
      'acme/legacy-windows-1709',
      ['windows-1709'],
      '10.0.16299',
      'repository',
      "the image repository name 'acme/legacy-windows-1709' names Windows ('windows-1709': Windows Server 1709)",
    ],
    // A bare build in the tag counts once the name says Windows.
    [
      'contoso/sql-windows:1809',
      ['windows'],
      '10.0.17763',
      'tag',
      "the image repository name 'contoso/sql-windows' names Windows ('windows') and its tag '1809' names Windows Server 2019",
    ],
    [
      'ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.2',
      ['windows'],
      undefined,
      undefined,
      "the image repository name 'kubernetes-sigs/sig-windows/csi-proxy' names Windows ('windows')",
    ],
    [
      'acme/nanoserver.tools:2.0',
      ['nanoserver'],
      undefined,
      undefined,
      "the image repository name 'acme/nanoserver.tools' names Windows ('nanoserver')",
    ],
  ])('%s', (image, words, build, buildFrom, evidence) => {
    const reading = readWindowsName(image);
    expect(reading).toEqual({
      repository: parseImageReference(image)?.repository,
      words,
      build: build === undefined ? { kind: 'unknown' } : expect.objectContaining({ build }),
      ...(buildFrom !== undefined ? { buildFrom } : {}),
      evidence,
    });
  });

  test.each([
    // 'win' and 'windows' inside a word name nothing.
    'acme/darwin-tools',
    'winston/logger',
    'acme/kubewin',
    'acme/twine:3.8',
    'acme/windowsill',
    'acme/winterfell',
    // A build name without a Windows word is a version.
    'acme/etl-2004',
    'acme/report-1809:v2',
    // A Linux word beside the Windows one: cross-compilers, emulators, control-plane parts, a Linux base.
    'dockcross/windows-static-x64',
    'acme/windows-mingw-builder',
    'scottyhardy/docker-wine',
    'quay.io/openshift/origin-windows-machine-config-operator',
    'registry.redhat.io/openshift4-wincw/windows-machine-config-rhel9-operator',
    'acme/windows-gmsa-webhook:v0.12',
    'acme/windows-csi-controller',
    'acme/windows-app:1.0-alpine3.19',
    'acme/windows-app:linux-amd64',
    // A Linux container that runs Windows in a virtual machine.
    'dockurr/windows',
    'mirror.example.com/dockurr/windows-arm:4.00',
    // The registry host is not the image's name.
    'windows.example.com/app',
    'win.acme.io/app:1.0',
    // Not a reference.
    'Contoso/IIS-Windows',
  ])('%s names no Windows', (image) => {
    expect(readWindowsName(image)).toBeUndefined();
  });

  test('the tag still wins for the build an image is known to be built for', () => {
    // inferWindowsBuild reads tags only: a name is weaker evidence, read where the rules say so.
    expect(inferWindowsBuild(parseImageReference('contoso/iis-windows-1809:ltsc2022')?.tag)).toMatchObject({
      release: '2022',
    });
    expect(repositoryWindowsBuild('contoso/iis-windows-1809:ltsc2022')).toMatchObject({
      build: { release: '2019' },
      words: 'windows-1809',
    });
  });

  test('a name alone does not make isWindowsImage say Windows', () => {
    expect(isWindowsImage('contoso/iis-windows-ltsc2019')).toBeUndefined();
    expect(isWindowsImage('mcr.microsoft.com/windows/servercore:ltsc2022')).toBe(true);
  });
});

/** Tokens of Linux image names, and words that hold a Windows word inside them. */
const LINUX_TOKENS = [
  'nginx',
  'redis',
  'api',
  'web',
  'worker',
  'app',
  'darwin',
  'winston',
  'twine',
  'kubewin',
  'windowsill',
  'winter',
  'erwin',
  'winery',
  'owin',
  'winrm2',
  'windowsx',
  'xwindows',
  'nanoservers',
  'servercorex',
  'ltsc',
  'ltsc20',
  'sac',
  '2019',
  '2022',
  '1809',
  '2004',
  '20h2',
  '10',
  '0',
  'v1',
  'amd64',
];
const SEPARATORS = ['-', '_', '.', '__', '--'];

/** Repository paths from those tokens, one to three components of one to four tokens. */
const linuxishRepository = fc
  .array(
    fc
      .tuple(
        fc.constantFrom(...LINUX_TOKENS),
        fc.array(fc.tuple(fc.constantFrom(...SEPARATORS), fc.constantFrom(...LINUX_TOKENS)), { maxLength: 3 }),
      )
      .map(([first, rest]) => first + rest.map(([s, t]) => s + t).join('')),
    { minLength: 1, maxLength: 3 },
  )
  .map((components) => components.join('/'));

const anyTag = fc.option(
  fc.constantFrom('latest', '1.0', 'v2.1909.3', '1809', 'ltsc2022', 'windows-2019', '2004-amd64', 'nanoserver'),
  { nil: undefined },
);

describe('no Windows word, no reading', () => {
  test('a repository of Linux tokens (and words that hold a Windows word inside them) never names Windows', () => {
    fc.assert(
      fc.property(linuxishRepository, anyTag, (repository, tag) => {
        const image = tag === undefined ? repository : `${repository}:${tag}`;
        fc.pre(parseImageReference(image) !== undefined);
        // A build in the tag alone is the tag's reading (isWindowsImage), never the name's.
        expect(readWindowsName(image)).toBeUndefined();
        expect(repositoryWindowsBuild(image)).toBeUndefined();
      }),
      propertyParameters(),
    );
  });

  test('a Windows word among them names Windows, unless a Linux word is beside it', () => {
    fc.assert(
      fc.property(
        linuxishRepository,
        fc.constantFrom('windows', 'win', 'nanoserver', 'servercore', 'windowsservercore', 'wcow'),
        fc.constantFrom('-', '_', '.', '/'),
        fc.option(fc.constantFrom('alpine', 'ubuntu22', 'operator', 'mingw', 'linux'), { nil: undefined }),
        (repository, word, separator, linux) => {
          const image = `${repository}${separator}${word}${linux === undefined ? '' : `-${linux}`}`;
          fc.pre(parseImageReference(image) !== undefined);
          const reading = readWindowsName(image);
          if (linux !== undefined) expect(reading).toBeUndefined();
          else expect(reading?.words.join(' ')).toContain(word);
        },
      ),
      propertyParameters(),
    );
  });
});

describe('windowsNamePatterns: the CEL forms read names as readWindowsName does', () => {
  const patterns = windowsNamePatterns();
  const anyBuild = patterns.builds.map((b) => `(?:${b.pattern})`).join('|');
  const nameRelease = patterns.builds
    .map((b) => `r.matches('${b.pattern.replace(/\\/g, '\\\\')}') ? '${b.release}' : `)
    .join('');
  // readWindowsName and repositoryWindowsBuild, as the rules' CEL forms write them (windows-node-selector-missing's
  // nsm_named and nsm_namedBuild, image-build-mismatch's name release).
  const named = `(!r.matches(lr) && !r.matches(lw) && !t.matches(lw) && (r.matches(w) || r.matches(b)))`;
  const expression = `[${named}, ${named} && (r.matches(b) || ${celTagBuild('t')} != ''), ${nameRelease}'']`;
  const names = fc
    .tuple(
      fc.constantFrom('', 'contoso/', 'fabrikam/sql/', 'dockurr/', 'mirror.io/dockcross/'),
      fc.constantFrom('iis', 'sql', 'agent', 'windows', 'win', 'darwin', 'app'),
      fc.array(
        fc.tuple(
          fc.constantFrom('-', '_', '.'),
          fc.constantFrom(
            'windows',
            'win2022',
            'ltsc2019',
            '1809',
            '2004',
            'nanoserver',
            'alpine',
            'operator',
            'exporter',
            '10.0.20348',
            'arm',
          ),
        ),
        { maxLength: 3 },
      ),
      fc.constantFrom('', ':latest', ':1809', ':ltsc2022', ':1.0-alpine', ':v2'),
    )
    .map(([prefix, first, rest, tag]) => `${prefix}${first}${rest.map(([s, t]) => s + t).join('')}${tag}`)
    .filter((image) => parseImageReference(image) !== undefined);

  test('on generated names', () => {
    fc.assert(
      fc.property(names, (image) => {
        const ref = parseImageReference(image)!;
        const result = run(
          expression,
          {
            r: ref.repository,
            t: ref.tag?.toLowerCase() ?? '',
            lr: patterns.linuxRepository,
            lw: patterns.linuxWord,
            w: patterns.word,
            b: anyBuild,
          },
          { funcs: strings },
        );
        const reading = readWindowsName(ref);
        const named = repositoryWindowsBuild(ref);
        expect([...(result as Iterable<unknown>)]).toEqual([
          reading !== undefined,
          reading !== undefined && reading.build.kind !== 'unknown',
          named === undefined ? '' : named.build.kind === 'release' ? named.build.release : 'retired',
        ]);
      }),
      propertyParameters(),
    );
  });
});

describe('placeholders for an image', () => {
  const placeholders = [
    '#registry#/web:1.0',
    '#{ContainerRegistry}#/web:#{Build.BuildId}#',
    '<your-registry>/web:1.0',
    '< Registry Name >.azurecr.io/web',
    '${REGISTRY}/web:${TAG}',
    '$REGISTRY/web',
    '$(Registry)/web:$(Build.BuildId)',
    '{{ .Values.image }}',
    'contoso.azurecr.io/web:__TAG__',
    'contoso.azurecr.io/web:__Build_BuildId__',
    'contoso.azurecr.io/web:v1-__suffix__',
    '@@REGISTRY@@/web',
    '%REGISTRY%/web:1.0',
    'ko://github.com/acme/web',
  ];

  /** A slot for the registry alone, before a reference: the rules read what the repository and tag say. */
  const registrySlots: Record<string, { registry: string; repository: string; tag?: string }> = {
    '#registry#/web:1.0': { registry: '#registry#', repository: 'web', tag: '1.0' },
    '<your-registry>/web:1.0': { registry: '<your-registry>', repository: 'web', tag: '1.0' },
    '< Registry Name >.azurecr.io/web': { registry: '< Registry Name >.azurecr.io', repository: 'web' },
    '$REGISTRY/web': { registry: '$REGISTRY', repository: 'web' },
    '%REGISTRY%/web:1.0': { registry: '%REGISTRY%', repository: 'web', tag: '1.0' },
  };

  test.each(placeholders)('%s is a placeholder, not a reference: no registry is asked about it', (text) => {
    expect(isPlaceholderReference(text)).toBe(true);
    expect(registryPlaceholder(text)).toBe(true);
    expect(readImageReference(text)).toEqual({ ok: false, reason: 'it is a placeholder for an image, not an image' });
    expect(parseImageReference(text)).toEqual(registrySlots[text]);
    if (registrySlots[text] !== undefined) return;
    expect(isWindowsImage(text)).toBeUndefined();
    expect(readWindowsName(text)).toBeUndefined();
    expect(windowsBuildCoverage(text)).toBe('unknown');
  });

  test.each([
    ['< Registry Name >.azurecr.io/windows/servercore/iis:windowsservercore-ltsc2019', true, 'single', undefined],
    ['#registry#/iis-windows-ltsc2019:1.0', undefined, 'unknown', '10.0.17763'],
    ['<your-registry>/iis-windows-ltsc2019', undefined, 'unknown', '10.0.17763'],
    ['${REGISTRY}/windows/nanoserver:ltsc2022', true, 'single', undefined],
    ['<your-registry>/agent:1.0', undefined, 'unknown', undefined],
  ] as const)(
    'behind a slot for the registry, %s is read for its Windows evidence',
    (text, windows, coverage, named) => {
      expect(isWindowsImage(text)).toBe(windows);
      expect(windowsBuildCoverage(text)).toBe(coverage);
      expect(repositoryWindowsBuild(parseImageReference(text)!)?.build).toEqual(
        named === undefined ? undefined : expect.objectContaining({ build: named }),
      );
      expect(readImageReference(text).ok).toBe(false);
    },
  );

  test.each([
    '<registry>/<app>:1.0',
    '<registry>/web:__TAG__',
    '{{ .Values.registry }}/web:{{ .Values.tag }}',
    '@@REG@@/web:1.0',
    '<registry>',
    '<registry>/Web:1.0',
  ])('%s is not read: the placeholder is more than the registry, or what follows is not a reference', (text) => {
    expect(parseImageReference(text)).toBeUndefined();
  });

  test.each([
    'nginx:1.25',
    'mcr.microsoft.com/windows/servercore:ltsc2022',
    'contoso.azurecr.io/web:build__42',
    'contoso.azurecr.io/web_app__v2:1.0',
    'contoso.azurecr.io/web:__',
    `localhost:5000/app@sha256:${'a'.repeat(64)}`,
  ])('%s is a reference', (text) => {
    expect(isPlaceholderReference(text)).toBe(false);
  });

  test('the CEL pattern says what isPlaceholderReference says', () => {
    for (const text of [...placeholders, 'nginx:1.25', 'contoso.azurecr.io/web:build__42', 'web:__TAG__@sha256:x']) {
      const matched = run(`t.matches(p)`, { t: text, p: placeholderPattern() }, { funcs: strings });
      expect([text, matched]).toEqual([text, isPlaceholderReference(text)]);
    }
  });
});
