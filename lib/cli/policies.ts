/**
 * `k8s-windows policies`: the admission policy set as YAML for `kubectl apply` or a chart, in apply order (the
 * WindowsClusterFacts CRD and object, the policies, their bindings). The config file is read as lint reads it
 * (its rule settings, cloud and Kubernetes version); the command line wins over it.
 */
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { loadConfig } from '../core/config';
import { WindowsValidationError } from '../core/errors';
import { generatePolicies, readClusterFacts, type ClusterFacts, type PolicyOptions } from '../core/policies';
import type { PoliciesCommand } from './args';
import { describeFsError } from './files';
import { packageInfo, TOOL_NAME } from './package-info';
import { formatBytes, InputTooLargeError, readFileBounded } from './read';
import { ConfigError } from './settings';

/** What `policies` needs of the CLI's io (run.ts `CliIO`; not imported, so run.ts alone depends on this module). */
export interface PoliciesIO {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** @default process.cwd() */
  readonly cwd?: string;
  /** The environment ($K8S_WINDOWS_CONFIG names a config file, as for lint). @default - none */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The option or config field each PolicyOptions field comes from, for messages. */
function optionName(field: string, configPath: string | undefined): string {
  const head = field.split(/[.[]/)[0];
  switch (head) {
    case 'mode':
      return field.replace('mode', '--mode');
    case 'mutating':
      return '--mutating';
    case 'kubernetesVersion':
      return '--kubernetes-version';
    case 'settings':
      return `${configPath ?? 'config'} ${field.replace(/^settings/, 'rules')}`;
    default:
      return field;
  }
}

/**
 * The most bytes a `--cluster-facts` file may hold. A cluster's facts are a few kilobytes (64 pools with a dozen
 * labels and a few taints each are about 100 KiB), and etcd stores no object over 1.5 MiB (its default
 * --max-request-bytes), so a larger file is not a facts object: it is refused before it is parsed, at once, instead
 * of parsing a 60 MB label value for seconds (lint's 64 MiB input limit is for manifest sets).
 */
export const MAX_CLUSTER_FACTS_BYTES = 1024 * 1024;

/** Reads the cluster facts file: one YAML or JSON document, a WindowsClusterFacts object or its spec. */
async function readFactsFile(file: string, cwd: string): Promise<ClusterFacts> {
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    text = (await readFileBounded(full, MAX_CLUSTER_FACTS_BYTES)).bytes.toString('utf8');
  } catch (err) {
    if (err instanceof InputTooLargeError) {
      const limit = formatBytes(MAX_CLUSTER_FACTS_BYTES);
      throw new ConfigError([
        `--cluster-facts ${file}: ${err.size !== undefined ? `is ${formatBytes(err.size)}, over` : 'is larger than'} the ${limit} a facts file may hold (a cluster's facts are a few kilobytes); it was not parsed. Write one WindowsClusterFacts object (or its spec) with the Windows pools' builds, labels and taints.`,
      ]);
    }
    throw new ConfigError([`--cluster-facts ${file}: ${describeFsError(err)}`]);
  }
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  const problems = list.flatMap((d) =>
    d.errors.map((e) => `--cluster-facts ${file}: ${e.message.split('\n')[0]} Fix the YAML (or JSON) syntax.`),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  const values = list.map((d) => d.toJS() as unknown).filter((v) => v !== null && v !== undefined);
  if (values.length !== 1) {
    throw new ConfigError([
      `--cluster-facts ${file}: holds ${values.length} documents; write one WindowsClusterFacts object (or its spec).`,
    ]);
  }
  const read = readClusterFacts(values[0], file);
  if (read.issues.length > 0 || read.facts === undefined) {
    throw new ConfigError(read.issues.map((i) => `--cluster-facts ${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`));
  }
  return read.facts;
}

/** Runs `policies`: prints the policy set; exit 2 with every problem named on bad input. */
export async function runPolicies(command: PoliciesCommand, io: PoliciesIO): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const config = command.noConfig
    ? undefined
    : loadConfig({
        cwd,
        ...(io.env ? { env: io.env } : {}),
        ...(command.config !== undefined ? { path: command.config } : {}),
      });
  if (config !== undefined && config.issues.length > 0) {
    throw new ConfigError(config.issues.map((i) => `${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`));
  }
  const settings = config?.settings ?? {};
  const clusterFacts = command.clusterFacts !== undefined ? await readFactsFile(command.clusterFacts, cwd) : undefined;
  const cloud = command.cloud ?? settings.cloud;
  const kubernetesVersion = command.kubernetesVersion ?? settings.kubernetesVersion;
  const options: PolicyOptions = {
    mode: command.mode,
    mutating: command.mutating,
    ...(cloud !== undefined ? { cloud } : {}),
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
    ...(settings.rules !== undefined ? { settings: settings.rules } : {}),
    ...(clusterFacts !== undefined ? { clusterFacts } : {}),
  };
  let objects;
  try {
    objects = generatePolicies(options).objects;
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    throw new ConfigError(
      err.issues.map((i) => `${optionName(i.path, config?.path)}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`),
    );
  }
  if (command.mutating && !objects.some((o) => o.kind === 'MutatingAdmissionPolicy')) {
    io.stderr.write(
      `${TOOL_NAME}: --mutating: every rule with a sure fix is off in the settings, so there is no MutatingAdmissionPolicy to print; only the validating policies are printed.\n`,
    );
  }
  const header = `# ${TOOL_NAME} ${packageInfo().version} policies --mode ${command.mode}${cloud !== undefined ? ` --cloud ${cloud}` : ''}: apply in this order (kubectl apply -f).\n`;
  io.stdout.write(header + objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n'));
  return 0;
}
