import { parseCommand, UsageError } from '../../lib/cli/args';
import { closeMatches } from '../../lib/core/suggest';

const IDS = ['windows-forbidden-field', 'windows-host-network', 'image-floating-tag'];

function usageProblems(argv: string[]): string[] {
  try {
    parseCommand(argv, IDS);
  } catch (err) {
    if (err instanceof UsageError) return err.message.split('\n');
    throw err;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommand', () => {
  test('lint with defaults', () => {
    expect(parseCommand(['lint', 'a.yaml', '-', 'dir'], IDS)).toEqual({
      kind: 'lint',
      noConfig: false,
      resolveImages: false,
      offline: false,
      registryMirrors: {},
      insecureRegistries: [],
      noMirrorFallback: false,
      inputs: ['a.yaml', '-', 'dir'],
      format: 'text',
      rules: {},
      quiet: false,
      allowEmpty: false,
      rendering: { render: true, values: [], set: [] },
    });
  });

  test('lint with every option', () => {
    expect(
      parseCommand(
        [
          'lint',
          '--format',
          'sarif',
          '--disable',
          'windows-host-network,image-floating-tag',
          '--severity=windows-forbidden-field=warning',
          '--windows-release',
          '2019',
          '--kubernetes-version',
          'v1.30.2',
          '--cloud',
          'gke',
          '--allow-empty',
          '--stdin-filename',
          'web.yaml',
          '-q',
          'x.yaml',
        ],
        IDS,
      ),
    ).toEqual({
      kind: 'lint',
      noConfig: false,
      resolveImages: false,
      offline: false,
      registryMirrors: {},
      insecureRegistries: [],
      noMirrorFallback: false,
      inputs: ['x.yaml'],
      format: 'sarif',
      rules: { 'windows-host-network': 'off', 'image-floating-tag': 'off', 'windows-forbidden-field': 'warning' },
      windowsRelease: '2019',
      kubernetesVersion: 'v1.30.2',
      cloud: 'gke',
      quiet: true,
      allowEmpty: true,
      stdinFilename: 'web.yaml',
      rendering: { render: true, values: [], set: [] },
    });
  });

  test('--disable and --severity apply in command-line order: the last mention wins', () => {
    const a = parseCommand(
      ['lint', '--disable', 'image-floating-tag', '--severity', 'image-floating-tag=error', 'f'],
      IDS,
    );
    const b = parseCommand(
      ['lint', '--severity', 'image-floating-tag=error', '--disable', 'image-floating-tag', 'f'],
      IDS,
    );
    expect(a.kind === 'lint' && a.rules).toEqual({ 'image-floating-tag': 'error' });
    expect(b.kind === 'lint' && b.rules).toEqual({ 'image-floating-tag': 'off' });
  });

  test('-f is --format', () => {
    expect(parseCommand(['lint', '-f', 'json', 'f'], IDS)).toMatchObject({ format: 'json' });
    expect(parseCommand(['rules', '-f', 'json'], IDS)).toEqual({ kind: 'rules', format: 'json' });
  });

  test('help and version', () => {
    expect(parseCommand(['--help'], IDS)).toEqual({ kind: 'help' });
    expect(parseCommand(['-h'], IDS)).toEqual({ kind: 'help' });
    expect(parseCommand(['help'], IDS)).toEqual({ kind: 'help' });
    expect(parseCommand(['help', 'lint'], IDS)).toEqual({ kind: 'help', topic: 'lint' });
    expect(parseCommand(['lint', '--help'], IDS)).toEqual({ kind: 'help', topic: 'lint' });
    expect(parseCommand(['rules', '-h'], IDS)).toEqual({ kind: 'help', topic: 'rules' });
    expect(parseCommand(['--version'], IDS)).toEqual({ kind: 'version' });
  });

  test('every problem is reported at once', () => {
    expect(
      usageProblems([
        'lint',
        '--format',
        'xml',
        '--disable',
        'windows-forbiden-field',
        '--severity',
        'image-floating-tag=fatal',
        '--windows-release',
        'ltsc2022',
        '--kubernetes-version',
        'latest',
      ]),
    ).toEqual([
      "--format 'xml' is not one of text, json, sarif, junit, github.",
      "--disable: unknown rule 'windows-forbiden-field'. Did you mean 'windows-forbidden-field'?",
      "--severity image-floating-tag: level 'fatal' is not one of error, warning, info, off.",
      "--windows-release: Windows release 'ltsc2022' is not a release name. Write '2022'.",
      "--kubernetes-version 'latest' is not a Kubernetes 1.x version; write it as 1.30.",
      "no input: name files or directories to lint, or '-' to read standard input.",
    ]);
  });

  test('an unknown rule with no close match points to the catalogue', () => {
    expect(usageProblems(['lint', '--disable', 'zzz', 'f'])).toEqual([
      "--disable: unknown rule 'zzz'. Run 'k8s-windows rules' to list the rule ids.",
    ]);
  });

  test('a SAC release is refused with its name', () => {
    expect(usageProblems(['lint', '--windows-release', '20H2', 'f'])).toEqual([
      "--windows-release: Windows release '20H2' is the end-of-life Semi-Annual Channel release 20H2 (build 10.0.19042). Use an LTSC release: '2019', '2022', '2025'.",
    ]);
  });

  test('--severity needs RULE=LEVEL', () => {
    expect(usageProblems(['lint', '--severity', 'image-floating-tag', 'f'])).toEqual([
      "--severity 'image-floating-tag' must be RULE=LEVEL, LEVEL one of error, warning, info, off.",
    ]);
  });

  test('unknown options suggest the close one; options without values are named', () => {
    expect(usageProblems(['lint', '--formt', 'json', 'f'])).toEqual([
      "unknown option '--formt' for 'lint'. Did you mean --format?",
    ]);
    expect(usageProblems(['lint', 'f', '--format'])).toEqual(["option '--format' needs a value."]);
    expect(usageProblems(['lint', '--format', '--quiet', 'f'])).toEqual(["option '--format' needs a value."]);
    expect(usageProblems(['lint', '--quiet=yes', 'f'])).toEqual(["option '--quiet' takes no value."]);
  });

  test('commands: missing, unknown, misspelt', () => {
    expect(usageProblems([])).toEqual(['no command given.']);
    expect(usageProblems(['lnt'])).toEqual([
      "unknown command 'lnt'. Did you mean 'lint'? Commands: lint, fix, rules, facts, policies, doctor.",
    ]);
    expect(usageProblems(['help', 'deploy'])).toEqual([
      "unknown command 'deploy'. Commands: lint, fix, rules, facts, policies, doctor.",
    ]);
    expect(usageProblems(['rules', 'extra'])).toEqual([
      "unknown rule 'extra'. Run 'k8s-windows rules' to list the rule ids.",
    ]);
    expect(usageProblems(['rules', 'windows-host-netwrk'])).toEqual([
      "unknown rule 'windows-host-netwrk'. Did you mean 'windows-host-network'?",
    ]);
    expect(parseCommand(['rules', 'windows-host-network'], IDS)).toEqual({
      kind: 'rules',
      format: 'text',
      id: 'windows-host-network',
    });
    expect(usageProblems(['rules', '--format', 'sarif'])).toEqual([
      "--format 'sarif' is not one of text, json, markdown.",
    ]);
  });

  test('usage errors name the command whose help explains them', () => {
    expect(() => parseCommand(['lint'], IDS)).toThrow(expect.objectContaining({ topic: 'lint' }));
    expect(() => parseCommand(['--nope'], IDS)).toThrow(expect.objectContaining({ topic: undefined }));
  });
});

describe('closeMatches', () => {
  test('typos, missing prefixes, closest first, at most three', () => {
    expect(closeMatches('windows-hostnetwork', IDS)).toEqual(['windows-host-network']);
    expect(closeMatches('floating-tag', IDS)).toEqual(['image-floating-tag']);
    expect(closeMatches('windows', IDS)).toEqual(['windows-host-network', 'windows-forbidden-field']);
    expect(closeMatches('qqqq', IDS)).toEqual([]);
  });
});

describe('registry options', () => {
  test('--insecure-registry (repeatable), --no-mirror-fallback and --resolve-timeout', () => {
    expect(
      parseCommand(
        [
          'lint',
          '--resolve-images',
          '--insecure-registry',
          'registry.internal:5000',
          '--insecure-registry',
          '10.0.0.5',
          '--no-mirror-fallback',
          '--resolve-timeout',
          '1500ms',
          'x.yaml',
        ],
        IDS,
      ),
    ).toMatchObject({
      insecureRegistries: ['registry.internal:5000', '10.0.0.5'],
      noMirrorFallback: true,
      resolveTimeout: 1.5,
    });
    expect(parseCommand(['lint', '--resolve-timeout', '45', 'x.yaml'], IDS)).toMatchObject({ resolveTimeout: 45 });
  });

  test.each(['0', 'soon', '3601', '10m'])('--resolve-timeout %s is refused, saying what to write', (value) => {
    expect(() => parseCommand(['lint', '--resolve-timeout', value, 'x.yaml'], IDS)).toThrow(
      `--resolve-timeout '${value}' is not a time: write seconds, more than 0 and at most 3600 (30, 30s or 1500ms).`,
    );
  });

  test('--insecure-registry takes a host, not a URL', () => {
    expect(() => parseCommand(['lint', '--insecure-registry', 'http://registry.internal', 'x.yaml'], IDS)).toThrow(
      '--insecure-registry[0]: "http://registry.internal" is not a registry host. Write host or host:port, with no scheme or path: \'registry.internal:5000\'.',
    );
  });
});

describe('policies', () => {
  test('defaults, and every option read', () => {
    expect(parseCommand(['policies'], IDS)).toEqual({
      kind: 'policies',
      mode: 'deny',
      mutating: false,
      noConfig: false,
    });
    expect(
      parseCommand(
        [
          'policies',
          '--mode',
          'warn',
          '--mutating',
          '--cloud',
          'eks',
          '--cluster-facts',
          'f.yaml',
          '-c',
          'k.yaml',
          '--kubernetes-version',
          '1.34',
        ],
        IDS,
      ),
    ).toEqual({
      kind: 'policies',
      mode: 'warn',
      mutating: true,
      cloud: 'eks',
      clusterFacts: 'f.yaml',
      config: 'k.yaml',
      noConfig: false,
      kubernetesVersion: '1.34',
    });
    expect(parseCommand(['policies', '-h'], IDS)).toEqual({ kind: 'help', topic: 'policies' });
  });

  test('conflicting and empty options are named', () => {
    expect(usageProblems(['policies', '--config', 'k.yaml', '--no-config', '--cluster-facts', ' '])).toEqual([
      '--cluster-facts needs a file name.',
      '--config names a config file and --no-config reads none: give one or the other.',
    ]);
  });
});
