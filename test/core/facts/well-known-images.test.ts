/**
 * The bundled table of well-known images: held to its generator and data files (offline), read as its records say,
 * and used by the image rules when no registry answered.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import fc from 'fast-check';
import { toWindowsPodSpec, validateManifests, WindowsValidationError, type ImageLookups } from '../../../lib/core';
import { wellKnownImage } from '../../../lib/core/facts/well-known-image-platforms';
import {
  DOCKER_OFFICIAL_IMAGES,
  MICROSOFT_IMAGES,
  MICROSOFT_IMAGES_CHECKED,
  OFFICIAL_IMAGES,
} from '../../../lib/core/facts/well-known-images';
import { withWellKnownImages } from '../../../lib/core/model/image-facts';
import { buildWellKnownImages, parseLibraryFile, tagPlatforms } from '../../../scripts/well-known-images';

const ROOT = join(__dirname, '../../..');

// `npm run well-known-images check` compares the text; this holds the data the module exports, offline.
test('the committed table is what scripts/well-known-images.ts builds from scripts/data/well-known-images', () => {
  const built = buildWellKnownImages();
  expect(OFFICIAL_IMAGES).toEqual(built.images);
  expect(DOCKER_OFFICIAL_IMAGES).toEqual(built.source);
  expect(MICROSOFT_IMAGES).toEqual(built.microsoft.repositories);
  expect(MICROSOFT_IMAGES_CHECKED).toBe(built.microsoft.checked);
  expect(readFileSync(join(ROOT, 'lib/core/facts/well-known-images.ts'), 'utf8')).toContain(
    `never named Windows since ${built.historyFrom}`,
  );
});

test("every Microsoft record gives the date of the material read, and a finding's source carries it", () => {
  for (const [repo, r] of Object.entries(MICROSOFT_IMAGES)) {
    expect({ repo, materialDate: /^(?:\d{4}-\d{2}-\d{2}|undated)$/.test(r.materialDate) }).toEqual({
      repo,
      materialDate: true,
    });
  }
  expect(wellKnownImage('mcr.microsoft.com/windows/servercore:ltsc2022')?.source).toEqual({
    title: "Microsoft's records of its Windows images",
    url: MICROSOFT_IMAGES['mcr.microsoft.com/windows/servercore'].url,
    materialDate: '2019-09-26',
    checked: MICROSOFT_IMAGES_CHECKED,
  });
});

test('the table names its record: repository, commit, and the day it was checked', () => {
  const record = JSON.parse(readFileSync(join(ROOT, 'scripts/data/well-known-images/official-images.json'), 'utf8'));
  expect(DOCKER_OFFICIAL_IMAGES).toEqual({
    title: 'the Docker Official Images library file',
    url: `https://github.com/docker-library/official-images/tree/${record.commit}/library`,
    materialDate: record.committed,
    checked: record.checked,
  });
  expect(record.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(record.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

describe('parseLibraryFile', () => {
  const file = [
    '# generated',
    'Maintainers: someone',
    'GitRepo: https://example.invalid/x.git',
    '',
    'Tags: 1.0-alpine, alpine',
    'Architectures: amd64, arm64v8',
    'GitCommit: 0',
    '',
    'Tags: 1.0-windowsservercore-ltsc2022',
    'SharedTags: 1.0, latest',
    'Architectures: windows-amd64',
    'Constraints: windowsservercore-ltsc2022',
    '',
    'Tags: 1.0-nanoserver-ltsc2025',
    'SharedTags: 1.0',
    'Architectures: windows-amd64',
    'Constraints: nanoserver-ltsc2025, windowsservercore-ltsc2025',
    '',
    'Tags: 1.0-bookworm',
    'SharedTags: 1.0, latest',
    'Architectures: amd64, arm32v7',
  ].join('\n');

  test('a shared tag is the manifest list over every group naming it; Windows entries carry their build', () => {
    const tags = tagPlatforms(parseLibraryFile('x', file));
    expect([...(tags.get('alpine') ?? [])]).toEqual(['linux/amd64', 'linux/arm64/v8']);
    expect([...(tags.get('1.0') ?? [])].sort()).toEqual([
      'linux/amd64',
      'linux/arm/v7',
      'windows/amd64:10.0.20348',
      'windows/amd64:10.0.26100',
    ]);
    expect([...(tags.get('latest') ?? [])].sort()).toEqual(['linux/amd64', 'linux/arm/v7', 'windows/amd64:10.0.20348']);
  });

  test("the header's Architectures hold when a comment paragraph comes first (library/cirros)", () => {
    const cirros = [
      '# this file is generated via https://example.invalid/generate-stackbrew-library.sh',
      '',
      'Maintainers: someone',
      'GitRepo: https://example.invalid/x.git',
      'Architectures: amd64, arm32v7, arm64v8, ppc64le',
      '',
      'Tags: 0.6.3, 0.6, 0, latest',
    ].join('\n');
    expect(parseLibraryFile('cirros', cirros)).toEqual([
      {
        tags: ['0.6.3', '0.6', '0', 'latest'],
        shared: [],
        platforms: ['linux/amd64', 'linux/arm/v7', 'linux/arm64/v8', 'linux/ppc64le'],
      },
    ]);
    expect(OFFICIAL_IMAGES['library/cirros']).toEqual({
      everyTag: 'linux/amd64 linux/arm/v7 linux/arm64/v8 linux/ppc64le',
    });
  });

  test('a library file with no tags (library/unit) has no tag groups, and the table leaves the repository out', () => {
    expect(parseLibraryFile('unit', 'Maintainers: someone\nGitRepo: https://example.invalid/unit.git\n')).toEqual([]);
    const record = JSON.parse(readFileSync(join(ROOT, 'scripts/data/well-known-images/official-images.json'), 'utf8'));
    expect(record.withoutTags).toEqual(expect.arrayContaining(['unit']));
    for (const name of record.withoutTags as string[]) expect(OFFICIAL_IMAGES[`library/${name}`]).toBeUndefined();
    expect(wellKnownImage('unit:1.34.1')).toBeUndefined();
  });

  test('no repository of the table has an empty platform list', () => {
    for (const [repo, r] of Object.entries(OFFICIAL_IMAGES)) {
      const lists = 'everyTag' in r ? [r.everyTag] : Object.keys(r.tags);
      expect(lists.length).toBeGreaterThan(0);
      for (const list of lists) expect({ repo, list: list.trim() !== '' }).toEqual({ repo, list: true });
    }
  });

  test('an architecture or Windows constraint it does not know stops the generator, naming it', () => {
    expect(() => parseLibraryFile('x', 'Tags: a\nArchitectures: sparc64\n')).toThrow(
      "library/x: unknown architecture 'sparc64'",
    );
    expect(() =>
      parseLibraryFile('x', 'Tags: a\nArchitectures: windows-amd64\nConstraints: windowsservercore-1903\n'),
    ).toThrow("library/x: unknown Windows constraint 'windowsservercore-1903'");
  });
});

describe('wellKnownImage', () => {
  test.each([
    'busybox',
    'busybox:1.36',
    'nginx:1.27',
    'docker.io/library/alpine',
    'index.docker.io/library/nginx:1.7.9',
  ])('%s: a repository whose library file never listed Windows is Linux for every tag', (image) => {
    const known = wellKnownImage(image);
    expect(known?.platforms.length).toBeGreaterThan(0);
    expect(known?.platforms.every((p) => p.os === 'linux')).toBe(true);
    expect(known?.statement).toMatch(
      /^the Docker Official Images library file of '\w+' has never listed a Windows image; checked \d{4}-\d{2}-\d{2}$/,
    );
  });

  test('a digest in such a repository is Linux too: nothing of it is Windows', () => {
    expect(wellKnownImage(`nginx@sha256:${'a'.repeat(64)}`)?.platforms.every((p) => p.os === 'linux')).toBe(true);
  });

  test('a repository with Windows tags is known tag by tag, each as its record lists it', () => {
    const alpine = wellKnownImage('golang:alpine');
    expect(alpine?.platforms.every((p) => p.os === 'linux')).toBe(true);
    expect(alpine?.statement).toContain("lists 'golang:alpine' for linux/");
    const shared = wellKnownImage('golang:1.27');
    expect(shared?.platforms.filter((p) => p.os === 'windows')).toEqual([
      { os: 'windows', architecture: 'amd64', osVersion: '10.0.20348' },
      { os: 'windows', architecture: 'amd64', osVersion: '10.0.26100' },
    ]);
    expect(shared?.platforms.some((p) => p.os === 'linux')).toBe(true);
    expect(wellKnownImage('golang:1.27-nanoserver-ltsc2022')?.platforms).toEqual([
      { os: 'windows', architecture: 'amd64', osVersion: '10.0.20348' },
    ]);
  });

  test.each([
    ['golang:1.19', 'a tag the library file no longer lists'],
    [`golang@sha256:${'b'.repeat(64)}`, 'a digest in a repository whose tags differ'],
    ['ghcr.io/acme/nginx:1.27', 'another registry'],
    ['quay.io/prometheus/busybox', 'another registry'],
    ['acme/busybox:1.36', 'a user repository on Docker Hub'],
    ['envoyproxy/envoy:v1.31.0', 'a repository the table does not hold'],
    ['not an image', 'not a reference'],
  ])('%s is unknown (%s)', (image) => {
    expect(wellKnownImage(image)).toBeUndefined();
  });

  test("Microsoft's Windows images are Windows only, for a tag that names the build", () => {
    const core = wellKnownImage('mcr.microsoft.com/windows/servercore:ltsc2022');
    expect(core?.platforms).toEqual([{ os: 'windows', architecture: 'amd64' }]);
    expect(core?.statement).toBe(
      `Microsoft documents Server Core as a Windows container base image, published for Windows only; checked ${MICROSOFT_IMAGES_CHECKED}`,
    );
    expect(core?.source.url).toContain('MicrosoftDocs/Virtualization-Documentation/blob/');
    expect(
      wellKnownImage('mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019')?.platforms,
    ).toEqual([{ os: 'windows', architecture: 'amd64' }]);
    // A build-less tag may be a list over builds or one build: image-floating-tag asks about it.
    expect(wellKnownImage('mcr.microsoft.com/windows/servercore/iis')).toBeUndefined();
    expect(wellKnownImage('mcr.microsoft.com/dotnet/framework/samples:aspnetapp')).toBeUndefined();
    expect(wellKnownImage('mcr.microsoft.com/powershell:lts-nanoserver-1809')).toBeUndefined();
  });

  test('every record of the table names where it was read, as a URL', () => {
    for (const r of Object.values(MICROSOFT_IMAGES)) expect(r.url).toMatch(/^https:\/\/github\.com\/.+/);
    expect(DOCKER_OFFICIAL_IMAGES.url).toMatch(
      /^https:\/\/github\.com\/docker-library\/official-images\/tree\/[0-9a-f]{40}\//,
    );
  });

  test('every tag of the table reads back to its own platforms (property)', () => {
    const tagged = Object.entries(OFFICIAL_IMAGES).flatMap(([repo, r]) =>
      'tags' in r
        ? Object.entries(r.tags).flatMap(([platforms, list]) =>
            list.split(' ').map((tag) => ({ repo, tag, platforms })),
          )
        : [],
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...tagged),
        fc.constantFrom('', 'docker.io/', 'docker.io/library/'),
        ({ repo, tag, platforms }, prefix) => {
          const name = repo.slice('library/'.length);
          const image = `${prefix}${name}:${tag}`;
          const known = wellKnownImage(image);
          expect(known?.platforms.length).toBe(platforms.split(' ').length);
          expect(known?.platforms.some((p) => p.os === 'windows')).toBe(platforms.includes('windows/'));
        },
      ),
    );
  });
});

describe('the image rules without a registry', () => {
  const pod = (images: Record<string, string>, extra = ''): unknown[] => [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: {
        os: { name: extra === 'linux' ? 'linux' : 'windows' },
        ...(extra === 'linux' ? {} : { nodeSelector: { 'node.kubernetes.io/windows-build': '10.0.20348' } }),
        initContainers: images.init ? [{ name: 'wait', image: images.init }] : undefined,
        containers: [{ name: 'app', image: images.app }],
      },
    },
  ];
  const osMissing = (objects: unknown[], images?: ImageLookups) =>
    validateManifests(objects, images ? { images } : {}).filter((d) => d.ruleId === 'image-os-missing');

  test('a busybox init container in a Windows pod is an error at its image, quoting the record', () => {
    const [d, ...rest] = osMissing(pod({ init: 'busybox:1.36', app: 'mcr.microsoft.com/windows/servercore:ltsc2022' }));
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ severity: 'error', path: 'spec.initContainers[0].image' });
    expect(d.message).toBe(
      `spec.initContainers[0].image 'busybox:1.36' has no windows image (the Docker Official Images library file of 'busybox' has never listed a Windows image; checked ${DOCKER_OFFICIAL_IMAGES.checked}), and this is a Windows pod: the pull fails with "no matching manifest for windows/amd64".`,
    );
  });

  test('an official tag whose record lists Windows, or a tag the record does not list, is not reported', () => {
    expect(osMissing(pod({ app: 'python:3.14' }))).toEqual([]);
    expect(osMissing(pod({ app: 'python:2.7' }))).toEqual([]);
  });

  test('a Linux-only tag of a repository with Windows tags is reported, by its own record', () => {
    const [d] = osMissing(pod({ app: 'docker.io/library/python:3.14-slim' }));
    expect(d.path).toBe('spec.containers[0].image');
    expect(d.message).toContain("lists 'python:3.14-slim' for linux/");
  });

  test('a busybox in a Linux pod is fine; a Server Core image in one is the reverse error', () => {
    expect(osMissing(pod({ app: 'busybox' }, 'linux'))).toEqual([]);
    const [d] = osMissing(pod({ app: 'mcr.microsoft.com/windows/servercore:ltsc2022' }, 'linux'));
    expect(d).toMatchObject({ severity: 'error', path: 'spec.containers[0].image' });
    expect(d.message).toContain(
      'has no linux image (Microsoft documents Server Core as a Windows container base image',
    );
  });

  test("the registry's answer wins over the record, whatever it is", () => {
    const found: ImageLookups = {
      'busybox:1.36': {
        status: 'found',
        facts: { platforms: [{ os: 'windows', architecture: 'amd64', osVersion: '10.0.20348.1' }] },
      },
    };
    expect(osMissing(pod({ app: 'busybox:1.36' }), found)).toEqual([]);
    const unreachable: ImageLookups = { 'busybox:1.36': { status: 'unreachable', message: 'connection refused' } };
    expect(osMissing(pod({ app: 'busybox:1.36' }), unreachable)).toEqual([]);
    expect(withWellKnownImages(pod({ app: 'busybox:1.36' }), unreachable)).toBe(unreachable);
  });

  test('the well-known records are added only for the images the objects name', () => {
    const merged = withWellKnownImages(pod({ init: 'busybox', app: 'acme/app:1' }), undefined);
    expect(Object.keys(merged ?? {})).toEqual(['busybox']);
    expect(withWellKnownImages(pod({ app: 'acme/app:1' }), undefined)).toBeUndefined();
  });
});

describe('toWindowsPodSpec (the constructs) and the records', () => {
  const spec = (image: string) => ({
    initContainers: [{ name: 'wait', image }],
    containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
  });

  test("a well-known Linux-only image is refused with the engine's finding, at its path", () => {
    let error: unknown;
    try {
      toWindowsPodSpec(spec('busybox:1.36'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    expect((error as WindowsValidationError).issues).toEqual([
      expect.objectContaining({
        path: 'spec.initContainers[0].image',
        ruleId: 'image-os-missing',
        fix: 'Use a Windows build of the image (a nanoserver or servercore variant), or move the container to a Linux pod.',
      }),
    ]);
    expect((error as WindowsValidationError).issues[0].message).toContain(
      "the Docker Official Images library file of 'busybox' has never listed a Windows image",
    );
  });

  test("an image the registry was asked about is left to the registry's answer", () => {
    const images: ImageLookups = { 'busybox:1.36': { status: 'unreachable', message: 'offline' } };
    expect(toWindowsPodSpec(spec('busybox:1.36'), { images }).initContainers?.[0].image).toBe('busybox:1.36');
  });

  test('an official tag the record lists for Windows gets no floating-tag warning: its builds are known', () => {
    const warnings: string[] = [];
    toWindowsPodSpec(spec('golang:1.27'), { release: '2022', onWarning: (w) => warnings.push(w.ruleId ?? '') });
    expect(warnings).not.toContain('image-floating-tag');
    const unknown: string[] = [];
    toWindowsPodSpec(spec('golang:1.19'), { release: '2022', onWarning: (w) => unknown.push(w.ruleId ?? '') });
    expect(unknown).toContain('image-floating-tag');
  });
});
