/**
 * The tool's own name, version and home page, read from package.json at run time. The file is found by walking up
 * from this module, so it works from `lib/cli` (tsx, jest) and from `build/cli` (the installed bin) alike; importing
 * the JSON would pull it into the compiled tree.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The npm package (and bin) name. */
export const TOOL_NAME = 'k8s-windows';

export interface PackageInfo {
  readonly name: string;
  readonly version: string;
  /** Where to read about the tool: package.json `homepage`, else the repository, else the npm page. */
  readonly informationUri: string;
}

let cached: PackageInfo | undefined;

/** Reads package.json once; a missing or foreign file yields version `0.0.0` rather than a crash. */
export function packageInfo(): PackageInfo {
  cached ??= readPackageInfo(__dirname);
  return cached;
}

export function readPackageInfo(startDir: string): PackageInfo {
  const fallback = `https://www.npmjs.com/package/${TOOL_NAME}`;
  for (let dir = startDir; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = parseJson(file);
      if (pkg?.name === TOOL_NAME) {
        return {
          name: TOOL_NAME,
          version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
          informationUri: homepage(pkg) ?? fallback,
        };
      }
    }
    if (path.dirname(dir) === dir) break;
  }
  return { name: TOOL_NAME, version: '0.0.0', informationUri: fallback };
}

function parseJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function homepage(pkg: Record<string, unknown>): string | undefined {
  if (typeof pkg.homepage === 'string') return pkg.homepage;
  const repo = pkg.repository;
  const url =
    typeof repo === 'string'
      ? repo
      : typeof repo === 'object' && repo !== null
        ? (repo as { url?: unknown }).url
        : undefined;
  if (typeof url !== 'string') return undefined;
  // `git+https://github.com/o/r.git` → `https://github.com/o/r`
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}
