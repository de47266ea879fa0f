/**
 * Where the tests find the programs they run that npm does not install (Helm, Kustomize, the registry, etcd,
 * htpasswd, pre-commit): `scripts/test-tools.sh` (npm's `pretest`) builds them into `.tools/bin`, without root.
 * The directories searched, first match wins:
 * 1. `$K8S_WINDOWS_TOOLS_BIN`, a folder of your own tools;
 * 2. `.tools/bin`, what the script built;
 * 3. `$(go env GOPATH)/bin` (`$GOPATH/bin`, else `~/go/bin`), where set-ups before the script installed Helm and
 *    Kustomize with `go install`;
 * then PATH, and for the registry and etcd the Debian programs (`/usr/bin/docker-registry`, `/usr/bin/etcd`).
 */
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

/** The project's own tools folder, which `scripts/test-tools.sh` fills. */
export const PROJECT_TOOLS_BIN = path.join(REPO, '.tools', 'bin');

/** The folders searched before PATH, in order. */
export const TOOLS_DIRS: readonly string[] = [
  ...(process.env.K8S_WINDOWS_TOOLS_BIN ? [process.env.K8S_WINDOWS_TOOLS_BIN] : []),
  PROJECT_TOOLS_BIN,
  path.join(process.env.GOPATH?.split(path.delimiter)[0] ?? path.join(homedir(), 'go'), 'bin'),
];

/** How the tools are got, for the messages of tests that miss one. */
export const HOW_TO_GET_TOOLS =
  'scripts/test-tools.sh builds the test tools into .tools/bin (npm test runs it first; CONTRIBUTING.md: Set up), or set K8S_WINDOWS_TOOLS_BIN';

/** PATH with the tools' folders first: the environment for a test that runs a tool by name. */
export function toolsPath(pathVariable: string = process.env.PATH ?? ''): string {
  return [...TOOLS_DIRS, pathVariable].join(path.delimiter);
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The tool `name` in the first of the tools' folders that has it, else `fallback`, else `name` itself (for PATH to
 * find, or for the spawn to fail with ENOENT naming it).
 */
export function toolPath(name: string, fallback?: string): string {
  for (const dir of TOOLS_DIRS) {
    const file = path.join(dir, name);
    if (executable(file)) return file;
  }
  return fallback ?? name;
}
