/** Why a cluster could not be read: one clear message each, exit 2. */
export type ClusterErrorKind =
  /** No kubeconfig, an unknown context, an unreadable file. */
  | 'config'
  /** The server did not answer (refused, unknown host, TLS). */
  | 'unreachable'
  /** 401: the credentials were refused. */
  | 'unauthorized'
  /** 403: a verb on a resource is not allowed. */
  | 'forbidden'
  /** The run's deadline passed. */
  | 'deadline'
  /** More objects than a run reads. */
  | 'too-large'
  /** Any other answer. */
  | 'server';

export class ClusterError extends Error {
  constructor(
    readonly kind: ClusterErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ClusterError';
  }
}
