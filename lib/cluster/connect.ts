/**
 * Which cluster to read, as kubectl decides it: `--kubeconfig FILE`, else `$KUBECONFIG` (a list of files, merged),
 * else `~/.kube/config`, else the pod's service account when running in a cluster; `--context` picks a context.
 * Exec credential plugins (the clouds' `aws eks get-token`, `kubelogin`, `gke-gcloud-auth-plugin`) run as kubectl runs
 * them: the kubeconfig is the user's own file.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from './client-node';
import { ClusterError } from './errors';

export interface ConnectOptions {
  /** `--kubeconfig FILE`. @default - $KUBECONFIG, else ~/.kube/config, else in-cluster */
  readonly kubeconfig?: string;
  /** `--context NAME`. @default - the kubeconfig's current-context */
  readonly context?: string;
  /** The environment to read KUBECONFIG, HOME and the in-cluster variables from. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A loaded configuration and what messages say about it. */
export interface Connection {
  readonly config: KubeConfig;
  /** The context's name, or `in-cluster`. */
  readonly context: string;
  /** The API server's URL. */
  readonly server: string;
  /** The user entry's name, for 401 and 403 messages. */
  readonly user: string;
}

export async function connect(options: ConnectOptions): Promise<Connection> {
  const { KubeConfig } = await clientNode();
  const config = new KubeConfig();
  const { env } = options;
  const files =
    options.kubeconfig !== undefined
      ? [options.kubeconfig]
      : env.KUBECONFIG !== undefined && env.KUBECONFIG !== ''
        ? env.KUBECONFIG.split(path.delimiter).filter((f) => f !== '')
        : [path.join(env.HOME ?? homedir(), '.kube', 'config')];
  const present = files.filter((f) => existsSync(f));
  if (options.kubeconfig !== undefined && present.length === 0) {
    throw new ClusterError('config', `--kubeconfig ${options.kubeconfig}: no such file.`);
  }
  if (present.length === 0) {
    if (env.KUBERNETES_SERVICE_HOST !== undefined && env.KUBERNETES_SERVICE_PORT !== undefined) {
      config.loadFromCluster();
      return describe(config, 'in-cluster');
    }
    throw new ClusterError(
      'config',
      `no kubeconfig: ${files.join(', ')} ${files.length === 1 ? 'does' : 'do'} not exist and this is not a pod in a cluster. Name one with --kubeconfig FILE (or set KUBECONFIG), as for kubectl.`,
    );
  }
  try {
    // Several files merge as kubectl merges them: the first to name a cluster, user, context or current-context wins.
    let current: string | undefined;
    for (const file of present) {
      const one = new KubeConfig();
      one.loadFromFile(file);
      for (const c of one.clusters) if (!config.clusters.some((x) => x.name === c.name)) config.addCluster(c);
      for (const u of one.users) if (!config.users.some((x) => x.name === u.name)) config.addUser(u);
      for (const c of one.contexts) if (!config.contexts.some((x) => x.name === c.name)) config.addContext(c);
      if (current === undefined && one.currentContext) current = one.currentContext;
    }
    if (current !== undefined) config.setCurrentContext(current);
  } catch (err) {
    throw new ClusterError('config', `cannot read the kubeconfig ${present.join(', ')}: ${(err as Error).message}`);
  }
  if (options.context !== undefined) {
    const names = config.getContexts().map((c) => c.name);
    if (!names.includes(options.context)) {
      throw new ClusterError(
        'config',
        `--context ${options.context}: no such context in ${present.join(', ')} (${names.length > 0 ? `it has ${names.join(', ')}` : 'it has none'}).`,
      );
    }
    config.setCurrentContext(options.context);
  }
  const current = config.getCurrentContext();
  if (current === '' || config.getContextObject(current) === null) {
    throw new ClusterError(
      'config',
      `the kubeconfig ${present.join(', ')} has no current context: name one with --context (it has ${config
        .getContexts()
        .map((c) => c.name)
        .join(', ')}).`,
    );
  }
  return describe(config, current);
}

function describe(config: KubeConfig, context: string): Connection {
  const cluster = config.getCurrentCluster();
  if (cluster === null) throw new ClusterError('config', `the context ${context} names no cluster in the kubeconfig.`);
  return { config, context, server: cluster.server, user: config.getCurrentUser()?.name ?? '(no user)' };
}
