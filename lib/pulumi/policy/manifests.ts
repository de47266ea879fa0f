/**
 * Turns the Kubernetes resources of a Pulumi stack back into manifests for `validateManifests`: a
 * `kubernetes:apps/v1:Deployment` resource's props are the Deployment object, short of `apiVersion`/`kind` when
 * the program did not set them and of `metadata.name` when Pulumi auto-names it.
 */
import { readProps } from './props';

type Json = Record<string, unknown>;

/** Type-token modules of `@pulumi/kubernetes` resources that are not Kubernetes objects (their children are). */
const NON_OBJECT_MODULES: ReadonlySet<string> = new Set([
  'yaml',
  'yaml/v2',
  'helm.sh/v2',
  'helm.sh/v3',
  'helm.sh/v4',
  'kustomize',
  'kustomize/v2',
]);

/** The apiVersion and kind a `@pulumi/kubernetes` type token stands for, or undefined for other resources. */
export function kubernetesTypeOf(type: string): { apiVersion: string; kind: string } | undefined {
  const m = /^kubernetes:([^:]+):([A-Za-z0-9]+)$/.exec(type);
  if (!m) return undefined;
  const [, module, kind] = m;
  if (NON_OBJECT_MODULES.has(module)) return undefined;
  // `*Patch` resources are partial objects (server-side apply patches) and `*List` ones hold objects: neither is one.
  if (kind.endsWith('Patch') || kind.endsWith('List')) return undefined;
  return { apiVersion: module.startsWith('core/') ? module.slice('core/'.length) : module, kind };
}

/** A Kubernetes resource of the stack, as a manifest, with where its unknown values are. */
export interface StackManifest {
  readonly urn: string;
  readonly manifest: Json;
  /** Paths (API-server notation) whose values are not known yet (`pulumi preview`). */
  readonly unknownPaths: readonly string[];
}

/**
 * The manifest a Kubernetes resource declares, or undefined when the resource is not a Kubernetes object.
 * `status` is dropped (outputs carry it; nothing checks it) and `metadata.name` falls back to the resource name.
 */
export function manifestOf(resource: {
  type: string;
  name: string;
  urn: string;
  props: unknown;
}): StackManifest | undefined {
  const t = kubernetesTypeOf(resource.type);
  if (!t) return undefined;
  const { value, unknownPaths } = readProps(resource.props, 'omit');
  const { status: _status, ...rest } = value;
  void _status;
  const metadata: Json =
    typeof rest.metadata === 'object' && rest.metadata !== null ? { ...(rest.metadata as Json) } : {};
  if (metadata.name === undefined && !unknownPaths.includes('metadata.name')) metadata.name = resource.name;
  return {
    urn: resource.urn,
    manifest: {
      ...rest,
      apiVersion: typeof rest.apiVersion === 'string' ? rest.apiVersion : t.apiVersion,
      kind: typeof rest.kind === 'string' ? rest.kind : t.kind,
      metadata,
    },
    unknownPaths,
  };
}
