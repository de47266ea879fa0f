/**
 * Every TypeScript block of the user documentation (README.md, CONTRIBUTING.md and the pages of docs/), type-checked
 * against the package's own types, so no example can drift (run by `npm run typecheck`, so by `npm test`).
 *
 * A block is checked as its own module. What a snippet takes from the program around it (a `cluster`, a `provider`)
 * is declared in an HTML comment right before the block, invisible on the rendered page:
 *
 *     <!-- readme-check
 *     import * as eks from '@pulumi/aws/eks';
 *     declare const cluster: eks.Cluster;
 *     -->
 *
 * A block importing `k8s-windows/cdk8s-plus-NN` is checked against cdk8s-plus-NN's own typings, as a project on
 * that major compiles it (the one source in lib/cdk8s with `cdk8s-plus-28` resolved to the major).
 *
 * Usage: tsx scripts/readme-examples.ts check
 */
import { readdirSync, readFileSync } from 'fs';
import { basename, join, relative, resolve } from 'path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');

/**
 * The pages whose examples, tables and figures the tests hold true, as paths from the repository root: the README,
 * CONTRIBUTING.md and every page of docs/ (the rule pages in docs/rules/ are generated whole, and held by their own
 * test).
 */
export function docPages(root = ROOT): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** Each page of `docPages` with its text. */
export function readDocPages(root = ROOT): { page: string; text: string }[] {
  return docPages(root).map((page) => ({ page, text: readFileSync(join(root, page), 'utf8') }));
}

/** The ```ts blocks of every page of `docPages`, each with the page it is on. */
export function docBlocks(root = ROOT): (ReadmeBlock & { page: string })[] {
  return readDocPages(root).flatMap(({ page, text }) => readmeBlocks(text).map((b) => ({ ...b, page })));
}

export interface ReadmeBlock {
  /** 1-based line of the block's first code line in its page. */
  readonly line: number;
  readonly code: string;
  /** Declarations from the `readme-check` comment before it. */
  readonly context: string;
}

/** The ```ts blocks of a Markdown text, each with its `readme-check` context. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const out: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith('```')) end++;
    // The context comment ends on the line before the fence (a blank line between is allowed).
    let context = '';
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    if (j >= 0 && lines[j].trim() === '-->') {
      let k = j - 1;
      while (k >= 0 && !lines[k].startsWith('<!-- readme-check')) k--;
      if (k >= 0) context = lines.slice(k + 1, j).join('\n');
    }
    out.push({ line: start + 1, code: lines.slice(start, end).join('\n'), context });
    i = end;
  }
  return out;
}

/** The cdk8s-plus major a block is written for: the `k8s-windows/cdk8s-plus-NN` entry it imports, else 28. */
function majorOf(code: string): number {
  const m = /['"]k8s-windows\/cdk8s-plus-(\d+)['"]/.exec(code);
  return m ? Number(m[1]) : 28;
}

/**
 * Type-checks every block of the pages (default: `docPages`); returns the problems, each named by its page and line
 * (empty when clean).
 */
export function checkReadmeExamples(
  pages: string | readonly string[] = docPages().map((p) => join(ROOT, p)),
): string[] {
  // A page is named from the repository root, or by its file name when it lies elsewhere.
  const label = (file: string): string => {
    const r = relative(ROOT, file);
    return r.startsWith('..') ? basename(file) : r;
  };
  const blocks = (typeof pages === 'string' ? [pages] : pages).flatMap((file) =>
    readmeBlocks(readFileSync(file, 'utf8')).map((b, n) => ({ ...b, page: label(file), n })),
  );
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const problems: string[] = [];
  const cache = new Map<string, ts.SourceFile | undefined>();
  blocks.forEach((block) => {
    const { n, page } = block;
    const major = majorOf(block.code);
    const file = join(ROOT, `${page.replace(/[/.]/g, '_')}.block-${n + 1}.ts`);
    // The context first, then the block, each line where the page has it (offset by the context's lines).
    const contextLines = block.context === '' ? 0 : block.context.split('\n').length;
    const source = `${block.context === '' ? '' : `${block.context}\n`}${block.code}\nexport {};\n`;
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      // A snippet may leave a value unused: what it shows is how to call the API.
      noUnusedLocals: false,
      noUnusedParameters: false,
      paths: {
        ...config.options.paths,
        [`k8s-windows/cdk8s-plus-${major}`]: ['lib/cdk8s/index.ts'],
        ...(major !== 28 ? { 'cdk8s-plus-28': [`node_modules/cdk8s-plus-${major}`] } : {}),
      },
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, onError) => {
      if (name === file) return ts.createSourceFile(name, source, lang, true);
      // Parsed files are shared between blocks of one major only: lib/cdk8s resolves differently per major.
      const key = `${major}\u0000${name}`;
      if (!cache.has(key)) cache.set(key, read(name, lang, onError));
      return cache.get(key);
    };
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => name === file || fileExists(name);
    const program = ts.createProgram([file], options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file || !d.file);
    for (const d of diagnostics) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (d.file === undefined || d.start === undefined) {
        problems.push(`${page} block ${n + 1} (line ${block.line}): ${message}`);
        continue;
      }
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      const where =
        line < contextLines ? `its readme-check context, line ${line + 1}` : `line ${block.line + line - contextLines}`;
      problems.push(`${page} ${where}: TS${d.code}: ${message}`);
    }
  });
  return problems;
}

if (require.main === module) {
  const problems = checkReadmeExamples();
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`${docPages().join(', ')}: every TypeScript block type-checks.\n`);
}
