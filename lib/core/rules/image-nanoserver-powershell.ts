/**
 * image-nanoserver-powershell: an ordinary container on a Nano Server image whose command runs Windows PowerShell.
 * Nano Server container images have shipped without it since Windows Server 1709: "PowerShell, WMI, and the Windows
 * servicing stack are absent from the Nanoserver image" (MicrosoftDocs/Virtualization-Documentation,
 * virtualization/windowscontainers/manage-containers/container-base-images.md@0543f8704798b518e9c979522e0b2fb3ca062329,
 * checked 2026-11-27; 1709 is when it went: https://github.com/aspnet/aspnet-docker/issues/362, "Nanoserver starting
 * with 1709 no longer includes Powershell", with `'powershell' is not recognized` in a 10.0.16299 container), so the
 * container cannot start. PowerShell 7 (`pwsh`) is what Microsoft's
 * `mcr.microsoft.com/powershell` Nano Server images add; a HostProcess container runs on the host, whose
 * `powershell.exe` it finds.
 */
import { inferWindowsBuild, parseImageReference, type ImageReference } from '../images';
import { join } from '../model/util';
import { defineRule } from './rule';
import { celImageRefs, IMAGE_REF, re2, NON_HOST_PROCESS_CONTAINERS } from './cel-parts';
import { celString } from './cel';

const BASE_IMAGES_DOC =
  'https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/container-base-images';

/** Windows Server 2016's build: its Nano Server images still held Windows PowerShell. */
const WINDOWS_SERVER_2016_BUILD = '10.0.14393';

/** Microsoft's Nano Server base repositories: no ENTRYPOINT, so a container's `args` alone name its program. */
const NANO_SERVER_BASE = /^(?:mcr\.microsoft\.com\/windows\/nanoserver|(?:docker\.io\/)?microsoft\/nanoserver)$/;
/** A tag that says the image is built on Nano Server: `lts-nanoserver-ltsc2022`, `8.0-nanoserver-1809`. */
const NANO_SERVER_TAG = /(?:^|[-_.])nanoserver(?:$|[-_.])/;

/** Whether the image is a Nano Server image of 1709 or later, and whether it is Microsoft's bare base image. */
function nanoServer(ref: ImageReference): { readonly base: boolean } | undefined {
  const where = ref.registry === undefined ? ref.repository : `${ref.registry}/${ref.repository}`;
  const base = NANO_SERVER_BASE.test(where);
  if (!base && !NANO_SERVER_TAG.test(ref.tag?.toLowerCase() ?? '')) return undefined;
  const built = inferWindowsBuild(ref.tag);
  // Docker Hub's retired microsoft/nanoserver means 2016 (its latest, sac2016) unless the tag names a later build.
  const legacy = where.endsWith('microsoft/nanoserver') && !where.startsWith('mcr.');
  if (built.kind !== 'unknown' ? built.build === WINDOWS_SERVER_2016_BUILD : legacy) return undefined;
  return { base };
}

/** `powershell` or `powershell.exe`, bare or with a path (`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`). */
function isWindowsPowerShell(word: string | undefined): boolean {
  const name = (word ?? '').split(/[\\/]/).pop()?.toLowerCase();
  return name === 'powershell' || name === 'powershell.exe';
}

/** The program a command line starts, looking through `cmd /c` (and `/s /c`, `/k`) to the line it runs. */
function program(argv: readonly unknown[]): string | undefined {
  const words = argv.map((a) => (typeof a === 'string' ? a : ''));
  const first = words[0]?.trim().split(/\s+/)[0];
  const exe = first?.split(/[\\/]/).pop()?.toLowerCase();
  if (exe !== 'cmd' && exe !== 'cmd.exe') return first;
  // cmd's switches may share the first word (`cmd /c powershell ...`) or follow it.
  const rest = [...words[0].trim().split(/\s+/).slice(1), ...words.slice(1)].join(' ').trim().split(/\s+/);
  const at = rest.findIndex((w) => /^\/[ck]$/i.test(w));
  return at < 0 ? undefined : rest[at + 1]?.replace(/^"/, '');
}

/** The fixes, for the CEL form's messages (the check words them the same). */
const BASE_FIX =
  "Use a PowerShell 7 image (mcr.microsoft.com/powershell, the nanoserver tag for your nodes' build) and run pwsh, or a Server Core image (mcr.microsoft.com/windows/servercore), which has powershell.exe; a node agent may run as a HostProcess container, which uses the host's.";
const DERIVED_FIX =
  "Run pwsh (PowerShell 7) if the image has it, or use a Server Core based image, which has powershell.exe; a node agent may run as a HostProcess container, which uses the host's.";

/**
 * `program` and `isWindowsPowerShell` as RE2, for the CEL form: the first word of the first item is Windows
 * PowerShell, or it is cmd and the word after its first `/c` or `/k` (a leading quote aside) is.
 */
const POWERSHELL_WORD = String.raw`(?:\S*[\\/])?powershell(?:\.exe)?(?:\s|$)`;
const FIRST_IS_POWERSHELL = `(?i)^\\s*${POWERSHELL_WORD}`;
const FIRST_IS_CMD = String.raw`(?i)^\s*(?:\S*[\\/])?cmd(?:\.exe)?(?:\s|$)`;
/** A word that is not `/c` or `/k` (any case). */
const NOT_CMD_SWITCH = String.raw`(?:[^/\s]\S*|/|/[^ck\s]\S*|/[ck]\S+)`;
const CMD_RUNS_POWERSHELL =
  String.raw`(?i)^\s*(?:\S*[\\/])?cmd(?:\.exe)?(?:\s+${NOT_CMD_SWITCH})*\s+/[ck]\s+"?` + POWERSHELL_WORD;

/** The image `r` (cel-parts IMAGE_REF, then field, first item, items joined) is Microsoft's bare base image. */
const BASE = `r[${IMAGE_REF.where}].matches(${celString(re2(NANO_SERVER_BASE))})`;
/** The field that runs Windows PowerShell on a Nano Server image of 1709 or later (nanoServer), '' for none. */
const NANO_PROGRAM = (() => {
  const [field, first, joined] = [IMAGE_REF.extra, IMAGE_REF.extra + 1, IMAGE_REF.extra + 2].map((i) => `r[${i}]`);
  const where = `r[${IMAGE_REF.where}]`;
  const nano = `(${BASE} || r[${IMAGE_REF.tag}].matches(${celString(re2(NANO_SERVER_TAG))}))`;
  const legacy = `(${where}.endsWith('microsoft/nanoserver') && !${where}.startsWith('mcr.'))`;
  const after2016 = `(r[${IMAGE_REF.build}] != '' ? r[${IMAGE_REF.build}] != ${celString(WINDOWS_SERVER_2016_BUILD)} : !${legacy})`;
  const runs = `(${field} == 'command' || (${field} == 'args' && ${BASE}))`;
  const powershell = `${first}.matches('\\\\S') && (${first}.matches(${celString(FIRST_IS_POWERSHELL)}) || (${first}.matches(${celString(FIRST_IS_CMD)}) && ${joined}.matches(${celString(CMD_RUNS_POWERSHELL)})))`;
  return `(${nano} && ${after2016} && ${runs} && ${powershell} ? ${field} : '')`;
})();

export default defineRule({
  meta: {
    id: 'image-nanoserver-powershell',
    family: 'images',
    defaultSeverity: 'error',
    summary:
      'An ordinary container on a Nano Server image (1709 or later) whose command runs Windows PowerShell (`powershell`, `powershell.exe`).',
    rationale:
      "Nano Server images have shipped without Windows PowerShell since 1709; `pwsh` (PowerShell 7) is what the mcr.microsoft.com/powershell Nano Server images add, and a HostProcess container uses the host's powershell.exe.",
    docs: BASE_IMAGES_DOC,
    severityReason: 'The program is not in the image: the container cannot start.',
  },
  messages: {
    powershell: {
      description: 'A Nano Server container whose command runs Windows PowerShell, which Nano Server lacks.',
      message:
        "{path} runs Windows PowerShell on the Nano Server image '{image}', which has shipped without it since 1709: the container cannot start (the program is not found).",
      fix: '{fix}',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const c of p.containers) {
        if (c.hostProcess || typeof c.c.image !== 'string') continue;
        const ref = parseImageReference(c.c.image);
        const nano = ref === undefined ? undefined : nanoServer(ref);
        if (nano === undefined) continue;
        // Without a command the image's ENTRYPOINT runs with args; only Microsoft's bare base image is known to
        // have none, so there args[0] is the program.
        const { command, args } = c.c;
        const [field, argv] = Array.isArray(command)
          ? ['command', command]
          : nano.base && Array.isArray(args)
            ? ['args', args]
            : [undefined, undefined];
        if (field === undefined || !isWindowsPowerShell(program(argv))) continue;
        const path = join(c.path, field);
        report({
          path,
          messageId: 'powershell',
          data: {
            image: c.c.image,
            fix: nano.base
              ? "Use a PowerShell 7 image (mcr.microsoft.com/powershell, the nanoserver tag for your nodes' build) and run pwsh, or a Server Core image (mcr.microsoft.com/windows/servercore), which has powershell.exe; a node agent may run as a HostProcess container, which uses the host's."
              : "Run pwsh (PowerShell 7) if the image has it, or use a Server Core based image, which has powershell.exe; a node agent may run as a HostProcess container, which uses the host's.",
          },
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The non-HostProcess containers on a Nano Server image (1709 or later) whose program is Windows
        // PowerShell, as [name, image, field, base].
        name: 'inp_found',
        expression: `${celImageRefs(NON_HOST_PROCESS_CONTAINERS, [
          "has(c.command) ? 'command' : has(c.args) ? 'args' : ''",
          "has(c.command) ? (size(c.command) > 0 ? c.command[0] : '') : has(c.args) && size(c.args) > 0 ? c.args[0] : ''",
          "has(c.command) ? c.command.join(' ') : has(c.args) ? c.args.join(' ') : ''",
        ])}.map(r, [r[${IMAGE_REF.name}], r[${IMAGE_REF.image}], ${NANO_PROGRAM}, string(${BASE})]).filter(f, f[2] != '')`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.inp_found) == 0',
        messageExpression: `'image-nanoserver-powershell: ' + variables.inp_found.map(f, "container '" + f[0] + "' " + f[2] + " runs Windows PowerShell on the Nano Server image '" + f[1] + "', which has shipped without it since 1709: the container cannot start (the program is not found). " + (f[3] == 'true' ? ${celString(BASE_FIX)} : ${celString(DERIVED_FIX)})).join(' ')`,
      },
    ],
  }),
});
