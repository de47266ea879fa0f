/**
 * `@kubernetes/client-node`, the field's Kubernetes client, loaded when a command reads a cluster. It is an ES module
 * and this package is CommonJS: TypeScript would compile `import()` to `require()`, which cannot load it, so the
 * import is made at run time as Node.js itself does it. Nothing else loads it: `lint` never pays for it.
 */
import type * as ClientNodeModule from '@kubernetes/client-node';

export type ClientNode = typeof ClientNodeModule;

// A real dynamic import, out of reach of the CommonJS transform.
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

let loaded: Promise<ClientNode> | undefined;

/** The client module, loaded once. */
export function clientNode(): Promise<ClientNode> {
  loaded ??= importModule('@kubernetes/client-node') as Promise<ClientNode>;
  return loaded;
}

/** Turns the client's model objects back into the JSON the API server sent (timestamps as strings). */
export interface Serializer {
  serialize(data: unknown, type: string): unknown;
}

let serializer: Promise<Serializer> | undefined;

/**
 * The client's own serializer (its generated models' JSON mapping). The package does not export it from its root,
 * and has no `exports` map, so its module is loaded by path.
 */
export function modelSerializer(): Promise<Serializer> {
  serializer ??= (
    importModule('@kubernetes/client-node/dist/gen/models/ObjectSerializer.js') as Promise<{
      ObjectSerializer: Serializer;
    }>
  ).then((m) => m.ObjectSerializer);
  return serializer;
}
