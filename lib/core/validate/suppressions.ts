/**
 * Suppressions: what the user accepted, and why. Written on an object, one annotation per rule whose value is
 * the reason (`suppress.k8s-windows.io/<rule-id>`, as kube-linter's `ignore-check.kube-linter.io/<check>`), or the
 * older reasonless `k8s-windows.io/waive` list; or in the config file by rule and kind, namespace, name.
 * `DiagnosticSink` applies them; the `suppression-invalid` rule checks the annotations.
 */
import picomatch from 'picomatch';
import { WAIVE_ANNOTATION, type ConfigSuppression, type SuppressionInfo } from '../model/types';
import { suppressionAnnotations } from '../model/suppression-annotations';
import type { PodSpecLocation } from '../workloads';
import { rec, str } from '../model/util';

/** A suppression as written, before it meets a finding. */
export type WrittenSuppression = Omit<SuppressionInfo, 'honoured'>;

/** The reason given to a `k8s-windows.io/waive` entry, which has no place for one. */
export const WAIVE_NO_REASON = `no reason given (${WAIVE_ANNOTATION})`;

/** A config suppression compiled: its globs matched once per object. */
interface CompiledSuppression {
  readonly entry: ConfigSuppression;
  readonly namespace?: (s: string) => boolean;
  readonly name?: (s: string) => boolean;
}

/** The suppressions of a run: the config file's, compiled once, and each object's annotations. */
export class Suppressions {
  private readonly config: readonly CompiledSuppression[];

  constructor(config: readonly ConfigSuppression[] | undefined) {
    this.config = (config ?? []).map((entry) => ({
      entry,
      ...(entry.namespace !== undefined ? { namespace: picomatch(entry.namespace) } : {}),
      ...(entry.name !== undefined ? { name: picomatch(entry.name) } : {}),
    }));
  }

  /** The suppressions that apply to an object, by rule id (`*`: every rule); undefined when there are none. */
  of(obj: unknown, loc: PodSpecLocation | undefined): ReadonlyMap<string, WrittenSuppression> | undefined {
    let out: Map<string, WrittenSuppression> | undefined;
    const add = (id: string, s: WrittenSuppression) => {
      out ??= new Map();
      if (!out.has(id)) out.set(id, s);
    };
    for (const a of suppressionAnnotations(obj, loc)) {
      // A reasonless per-rule annotation still suppresses (suppression-invalid asks for the reason).
      const reason = a.legacy ? WAIVE_NO_REASON : a.reason || 'no reason given';
      for (const id of a.ruleIds) add(id, { kind: 'annotation', reason, from: a.path });
    }
    if (this.config.length > 0) {
      const meta = rec(obj, 'metadata');
      const kind = str(obj, 'kind') ?? '';
      const namespace = str(meta, 'namespace') ?? 'default';
      const name = str(meta, 'name') ?? '';
      for (const c of this.config) {
        if (c.entry.kind !== undefined && c.entry.kind !== kind) continue;
        if (c.namespace !== undefined && !c.namespace(namespace)) continue;
        if (c.name !== undefined && !c.name(name)) continue;
        for (const id of c.entry.rules)
          add(id, { kind: 'config', reason: c.entry.reason, from: c.entry.from ?? 'config' });
      }
    }
    return out;
  }
}
