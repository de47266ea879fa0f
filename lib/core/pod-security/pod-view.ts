/**
 * A defensive read-only view of a pod spec for the checks: every accessor tolerates nulls, wrong types and
 * missing fields, so malformed input yields no violation for the malformed part instead of an exception.
 * A field holding a value of the wrong JSON type counts as unset: the API server rejects such an object before
 * admission, and the rule engine reports it elsewhere.
 */
import { isRecord } from '../json';
import { CONTAINER_LISTS, OS_LABEL } from '../kube';

export type JsonRecord = Readonly<Record<string, unknown>>;

export { isRecord } from '../json';

/** `v` when it is an object, else undefined. */
export function record(v: unknown): JsonRecord | undefined {
  return isRecord(v) ? v : undefined;
}

/** `v` when it is an array, else an empty one. */
export function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `v` when it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Go's "the pointer is set": present and not null. */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** One init, regular or ephemeral container with its path. */
export interface ContainerView {
  readonly container: JsonRecord;
  /** `containers[0]`-style path relative to the pod spec. */
  readonly path: string;
  /** Its name, `''` when missing (upstream reports an empty name too). */
  readonly name: string;
  /** Its `securityContext`, when an object. */
  readonly securityContext?: JsonRecord;
}

/** The pod spec plus where it and its metadata sit in the object. */
export class PodView {
  readonly spec: JsonRecord;
  readonly securityContext?: JsonRecord;
  readonly annotations: ReadonlyMap<string, string>;
  /** Init, regular, then ephemeral containers: the order of upstream's `visitContainers`. */
  readonly containers: readonly ContainerView[];

  constructor(
    spec: JsonRecord,
    private readonly specPath: string,
    podMetadata: unknown,
    private readonly metadataPath: string,
  ) {
    this.spec = spec;
    this.securityContext = record(spec.securityContext);
    this.annotations = stringEntries(record(podMetadata)?.annotations);
    this.containers = CONTAINER_LISTS.flatMap((listName) =>
      list(spec[listName]).flatMap((c, i): ContainerView[] => {
        if (!isRecord(c)) return [];
        const securityContext = record(c.securityContext);
        return [
          {
            container: c,
            path: `${listName}[${i}]`,
            name: str(c.name) ?? '',
            ...(securityContext ? { securityContext } : {}),
          },
        ];
      }),
    );
  }

  /** Full path of a field of the pod spec: `at('hostNetwork')` → `spec.template.spec.hostNetwork`. */
  at(relative: string): string {
    return `${this.specPath}.${relative}`;
  }

  /** Full path of an annotation: `metadata.annotations[key]`. */
  annotationPath(key: string): string {
    return `${this.metadataPath}.annotations[${key}]`;
  }

  /** Upstream `spec.os.name == "windows"` (exact): the only thing that earns the Windows exemptions. */
  get isWindowsByOs(): boolean {
    return record(this.spec.os)?.name === 'windows';
  }

  /** The pod selects Windows nodes by nodeSelector: used only to hint at `spec.os.name` in fixes. */
  get selectsWindowsNodes(): boolean {
    return record(this.spec.nodeSelector)?.[OS_LABEL] === 'windows';
  }

  /** Upstream `relaxPolicyForUserNamespacePod`: `hostUsers` set to false. */
  get inUserNamespace(): boolean {
    return this.spec.hostUsers === false;
  }
}

function stringEntries(v: unknown): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (!isRecord(v)) return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out.set(k, val);
  return out;
}
