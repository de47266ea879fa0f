/**
 * Writes lib/core/facts/well-known-images.ts: the platforms of well-known images, from public records, so the image
 * rules know a Linux-only image in a Windows pod without asking a registry.
 *
 * The record is the Docker Official Images library (https://github.com/docker-library/official-images): every
 * official image is built only from its `library/<name>` file, whose tag groups each list `Architectures:`
 * (`windows-amd64` for Windows builds, with `Constraints: windowsservercore-ltsc2022` naming the Windows build).
 * From a clone of that repository `refresh` keeps, in scripts/data/well-known-images/:
 * - `official-images.json`: the commit read, its date, the date checked, and every repository whose library file
 *   has never named Windows in the repository's whole history (`git log -S windows`), with the architectures of its
 *   current tags: all of such a repository's tags are Linux images;
 * - `library/<name>`: the library files, verbatim, of the repositories that ship Windows tags (or once did) and
 *   are seen in pods; for them only the tags listed are known, each with its own platforms.
 * Beside them, `microsoft.json` holds Microsoft's Windows images by hand, each repository with the Microsoft record
 * (docs, README) that shows it is Windows only.
 * The default run turns those files into the table offline; `check` fails when the committed table differs.
 *
 * Usage: tsx scripts/well-known-images.ts [check]
 *        tsx scripts/well-known-images.ts refresh <official-images clone> [checked-date]
 */
import { execFileSync } from 'child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '..');
const DATA = join(ROOT, 'scripts', 'data', 'well-known-images');
const OUT = join(ROOT, 'lib', 'core', 'facts', 'well-known-images.ts');
const UPSTREAM = 'docker-library/official-images';

/**
 * Official repositories with Windows tags (now or once) whose tags are kept one by one: those seen in pods (servers,
 * brokers, proxies, `docker:dind` sidecars, `hello-world` tests). Language toolchains (eclipse-temurin, julia, pypy,
 * haxe, hylang, swift, openjdk) are build bases, rarely a pod's image: their tags stay unknown.
 */
const TAGGED = ['caddy', 'docker', 'golang', 'hello-world', 'mongo', 'nats', 'python', 'redis', 'traefik'];

/**
 * Windows builds by the base-image word in a library file's `Constraints:` (Microsoft's version-compatibility table,
 * https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
const WINDOWS_BUILDS: Readonly<Record<string, string>> = {
  ltsc2016: '10.0.14393',
  '1809': '10.0.17763',
  ltsc2019: '10.0.17763',
  ltsc2022: '10.0.20348',
  ltsc2025: '10.0.26100',
};

/** bashbrew's architecture names (https://github.com/docker-library/bashbrew/blob/master/architecture/oci-platform.go) as OCI platforms. */
const ARCHITECTURES: Readonly<Record<string, string>> = {
  amd64: 'linux/amd64',
  arm32v5: 'linux/arm/v5',
  arm32v6: 'linux/arm/v6',
  arm32v7: 'linux/arm/v7',
  arm64v8: 'linux/arm64/v8',
  i386: 'linux/386',
  mips64le: 'linux/mips64le',
  ppc64le: 'linux/ppc64le',
  riscv64: 'linux/riscv64',
  s390x: 'linux/s390x',
  'windows-amd64': 'windows/amd64',
};

/** What `refresh` records beside the library files. */
export interface OfficialImagesRecord {
  readonly repository: string;
  readonly commit: string;
  /** The commit's date (YYYY-MM-DD). */
  readonly committed: string;
  /** The day the clone was read. */
  readonly checked: string;
  /** The history read for `neverWindows`: from the first commit. */
  readonly historyFrom: string;
  /** Repositories whose library file never named Windows, with the bashbrew architectures of their current tags. */
  readonly neverWindows: Readonly<Record<string, readonly string[]>>;
  /**
   * Repositories whose library file lists no tags at the commit read (deprecated, nothing to pull): the table says
   * nothing of them.
   */
  readonly withoutTags: readonly string[];
}

interface TagGroup {
  readonly tags: string[];
  readonly shared: string[];
  readonly platforms: string[];
}

/** One `library/<name>` file's tag groups (the RFC 2822-like stanzas bashbrew reads), platforms in OCI form. */
export function parseLibraryFile(name: string, text: string): TagGroup[] {
  const groups: TagGroup[] = [];
  let defaults: Record<string, string> | undefined;
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields: Record<string, string> = {};
    let last: string | undefined;
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#') || line.trim() === '') continue;
      const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (m) fields[(last = m[1])] = m[2].trim();
      else if (/^\s/.test(line) && last !== undefined) fields[last] += ` ${line.trim()}`;
      else throw new Error(`library/${name}: cannot read ${JSON.stringify(line)}`);
    }
    // A paragraph of comments only (cirros opens with "# this file is generated via …" and a blank line) is no
    // entry: the header, whose Architectures every tag group inherits, is the first paragraph with fields.
    if (Object.keys(fields).length === 0) continue;
    if (fields.Tags === undefined) {
      defaults ??= fields;
      continue;
    }
    const list = (v: string | undefined): string[] =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    const constraints = list(fields.Constraints ?? defaults?.Constraints);
    const builds = new Set(
      constraints.map((c) => {
        const word = /-(ltsc\d{4}|1809)$/.exec(c)?.[1];
        const build = word === undefined ? undefined : WINDOWS_BUILDS[word];
        if (build === undefined) throw new Error(`library/${name}: unknown Windows constraint '${c}'`);
        return build;
      }),
    );
    const platforms = list(fields.Architectures ?? defaults?.Architectures ?? 'amd64').map((a) => {
      const platform = ARCHITECTURES[a];
      if (platform === undefined) throw new Error(`library/${name}: unknown architecture '${a}'`);
      if (!platform.startsWith('windows/')) return platform;
      if (builds.size !== 1) throw new Error(`library/${name}: ${fields.Tags}: Windows tags need one Windows build`);
      return `${platform}:${[...builds][0]}`;
    });
    groups.push({ tags: list(fields.Tags), shared: list(fields.SharedTags), platforms });
  }
  return groups;
}

/** Every tag of a library file with its platforms: a shared tag is the manifest list over all groups naming it. */
export function tagPlatforms(groups: readonly TagGroup[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const g of groups) {
    for (const tag of [...g.tags, ...g.shared]) {
      const set = out.get(tag) ?? new Set<string>();
      for (const p of g.platforms) set.add(p);
      out.set(tag, set);
    }
  }
  return out;
}

const PLATFORM_ORDER = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Microsoft's Windows-only repositories, kept by hand (scripts/data/well-known-images/microsoft.json). */
interface MicrosoftRecord {
  readonly checked: string;
  readonly repositories: Readonly<
    Record<string, { readonly says: string; readonly url: string; readonly materialDate: string }>
  >;
}

function readMicrosoft(): MicrosoftRecord {
  const record = JSON.parse(readFileSync(join(DATA, 'microsoft.json'), 'utf8')) as MicrosoftRecord;
  for (const [repo, r] of Object.entries(record.repositories)) {
    if (!/^mcr\.microsoft\.com\//.test(repo) || !r.says || !/^https:\/\//.test(r.url)) {
      throw new Error(`microsoft.json: ${repo} needs an mcr.microsoft.com name, what the record says, and its URL`);
    }
    if (r.materialDate !== 'undated' && !/^\d{4}-\d{2}-\d{2}$/.test(r.materialDate ?? '')) {
      throw new Error(`microsoft.json: ${repo} needs the date of the material read (YYYY-MM-DD, or 'undated')`);
    }
  }
  return record;
}

function readRecord(): OfficialImagesRecord {
  return JSON.parse(readFileSync(join(DATA, 'official-images.json'), 'utf8')) as OfficialImagesRecord;
}

/** The table as data, from the committed data files: what the generated module exports. */
export function buildWellKnownImages(): {
  readonly source: { title: string; url: string; materialDate: string; checked: string };
  readonly images: Record<string, { everyTag: string } | { tags: Record<string, string> }>;
  readonly historyFrom: string;
  readonly microsoft: MicrosoftRecord;
} {
  const record = readRecord();
  const images: Record<string, { everyTag: string } | { tags: Record<string, string> }> = {};
  const names = new Set([...Object.keys(record.neverWindows), ...readdirSync(join(DATA, 'library'))]);
  for (const name of [...names].sort()) {
    const never = record.neverWindows[name];
    if (never !== undefined) {
      const platforms = [...new Set(never.map((a) => ARCHITECTURES[a]))].sort(PLATFORM_ORDER);
      if (platforms.some((p) => p === undefined)) throw new Error(`${name}: unknown architecture in ${never.join()}`);
      // Every tag's platforms: a repository with none would read as an image of no platform at all.
      if (platforms.length === 0)
        throw new Error(`${name}: no architectures (a library file with no tags is left out)`);
      images[`library/${name}`] = { everyTag: platforms.join(' ') };
      continue;
    }
    const text = readFileSync(join(DATA, 'library', name), 'utf8');
    const byPlatforms = new Map<string, string[]>();
    for (const [tag, set] of tagPlatforms(parseLibraryFile(name, text))) {
      const key = [...set].sort(PLATFORM_ORDER).join(' ');
      byPlatforms.set(key, [...(byPlatforms.get(key) ?? []), tag]);
    }
    const tags: Record<string, string> = {};
    for (const [platforms, list] of [...byPlatforms].sort(([a], [b]) => PLATFORM_ORDER(a, b))) {
      if (platforms === '') throw new Error(`library/${name}: tags ${list.join(', ')} have no platform`);
      tags[platforms] = list.join(' ');
    }
    if (Object.keys(tags).length === 0) continue;
    images[`library/${name}`] = { tags };
  }
  return {
    source: {
      title: 'the Docker Official Images library file',
      url: `https://github.com/${record.repository}/tree/${record.commit}/library`,
      materialDate: record.committed,
      checked: record.checked,
    },
    images,
    historyFrom: record.historyFrom,
    microsoft: readMicrosoft(),
  };
}

/** The table's TypeScript, from the committed data files (formatted by the repository's prettier settings). */
export async function generateWellKnownImages(): Promise<string> {
  const { source: official, images, historyFrom, microsoft } = buildWellKnownImages();
  const entries = Object.entries(images).map(([repo, r]) =>
    'everyTag' in r
      ? `${JSON.stringify(repo)}: { everyTag: ${JSON.stringify(r.everyTag)} },`
      : `${JSON.stringify(repo)}: { tags: { ${Object.entries(r.tags)
          .map(([platforms, list]) => `${JSON.stringify(platforms)}: ${JSON.stringify(list)},`)
          .join('\n')} } },`,
  );
  const text = `/**
 * Generated by scripts/well-known-images.ts (npm run well-known-images) from scripts/data/well-known-images: do not
 * edit. The platforms of well-known images as public records give them, for the image rules when no registry is
 * asked; a registry's answer (--resolve-images) wins over them.
 */

/** Where a record of this table comes from. */
export interface WellKnownImageSource {
  /** What the record is, as a finding names it. */
  readonly title: string;
  /** Where it was read: repository, path and commit. */
  readonly url: string;
  /** The date of the material read: the commit's date (YYYY-MM-DD), or 'undated' when the record shows none. */
  readonly materialDate: string;
  /** The day it was read. */
  readonly checked: string;
}

/**
 * One repository's platforms, each \`os/architecture[/variant][:windows build]\`, space-separated: either every tag's
 * (the record covers every tag the repository ever had), or tag by tag (tags not listed are not known).
 */
export type WellKnownRepository =
  | { readonly everyTag: string }
  | { readonly tags: Readonly<Record<string, string>> };

/** The Docker Official Images library, at the commit read. */
export const DOCKER_OFFICIAL_IMAGES: WellKnownImageSource = {
  title: ${JSON.stringify(official.title)},
  url: ${JSON.stringify(official.url)},
  materialDate: ${JSON.stringify(official.materialDate)},
  checked: ${JSON.stringify(official.checked)},
};

/**
 * Docker Hub's official repositories (\`library/<name>\`, pulled as \`<name>\`). \`everyTag\`: the repository's library
 * file has never named Windows since ${historyFrom}, so no tag of it is a Windows image; \`tags\`: platforms
 * (space-separated) → the tags listed for exactly those platforms; a shared tag (\`latest\`) is the manifest list
 * over every group that names it.
 */
export const OFFICIAL_IMAGES: Readonly<Record<string, WellKnownRepository>> = {
${entries.join('\n')}
};

/** The day Microsoft's records below were read. */
export const MICROSOFT_IMAGES_CHECKED = ${JSON.stringify(microsoft.checked)};

/**
 * Microsoft's Windows images (\`mcr.microsoft.com/...\`): every tag is a Windows image (windows/amd64), as the
 * record at \`url\` (of \`materialDate\`) shows; only a tag that names a Windows build is answered.
 */
export const MICROSOFT_IMAGES: Readonly<
  Record<string, { readonly says: string; readonly url: string; readonly materialDate: string }>
> = {
${Object.entries(microsoft.repositories)
  .map(
    ([repo, r]) =>
      `${JSON.stringify(repo)}: { says: ${JSON.stringify(r.says)}, url: ${JSON.stringify(r.url)}, materialDate: ${JSON.stringify(r.materialDate)} },`,
  )
  .join('\n')}
};
`;
  // Loaded here: prettier's plugins load by dynamic import, which the offline test (jest, CommonJS) cannot do.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  return prettier.format(text, { ...options, filepath: OUT });
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Re-reads the library from a clone of docker-library/official-images into scripts/data/well-known-images. */
async function refresh(clone: string, checked: string): Promise<void> {
  const commit = git(clone, 'rev-parse', 'HEAD').trim();
  const committed = git(clone, 'log', '-1', '--format=%cs', commit).trim();
  const first = git(clone, 'rev-list', '--max-parents=0', commit).trim().split('\n')[0];
  const historyFrom = git(clone, 'log', '-1', '--format=%cs', first).trim();
  const everWindows = new Set(
    git(clone, 'log', '--format=', '--name-only', '-S', 'windows', commit, '--', 'library/')
      .split('\n')
      .filter((l) => l.startsWith('library/'))
      .map((l) => l.slice('library/'.length)),
  );
  const names = git(clone, 'ls-tree', '--name-only', commit, 'library/')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.slice('library/'.length));
  const neverWindows: Record<string, string[]> = {};
  const withoutTags: string[] = [];
  rmSync(join(DATA, 'library'), { recursive: true, force: true });
  mkdirSync(join(DATA, 'library'), { recursive: true });
  for (const name of names) {
    const text = git(clone, 'show', `${commit}:library/${name}`);
    const groups = parseLibraryFile(name, text);
    if (groups.length === 0) {
      withoutTags.push(name);
      continue;
    }
    if (!everWindows.has(name)) {
      const archs = new Set(groups.flatMap((g) => g.platforms));
      neverWindows[name] = Object.entries(ARCHITECTURES)
        .filter(([, p]) => archs.has(p))
        .map(([a]) => a);
    } else if (TAGGED.includes(name)) {
      writeFileSync(join(DATA, 'library', name), text);
    }
  }
  const record: OfficialImagesRecord = {
    repository: UPSTREAM,
    commit,
    committed,
    checked,
    historyFrom,
    neverWindows,
    withoutTags,
  };
  const file = join(DATA, 'official-images.json');
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(record), { ...options, filepath: file }));
}

async function main(): Promise<void> {
  const [mode, clone, checked] = process.argv.slice(2);
  if (mode === 'refresh') {
    if (clone === undefined) throw new Error('refresh needs the path of a docker-library/official-images clone');
    await refresh(clone, checked ?? new Date().toISOString().slice(0, 10));
  } else if (mode !== undefined && mode !== 'check') {
    throw new Error(`unknown mode '${mode}': use check, refresh <clone>, or nothing to write the table`);
  }
  const text = await generateWellKnownImages();
  if (mode === 'check') {
    if (readFileSync(OUT, 'utf8') !== text) {
      process.stderr.write(`${OUT} is not what the data gives: run npm run well-known-images\n`);
      process.exitCode = 1;
    }
    return;
  }
  mkdirSync(join(ROOT, 'lib', 'core', 'facts'), { recursive: true });
  writeFileSync(OUT, text);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
