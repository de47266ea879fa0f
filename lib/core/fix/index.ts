/**
 * `fixManifests`: makes a manifest set Windows-correct where the rule engine is certain, and says what it changed.
 *
 * - It acts on the engine's own findings (rule id + path) and its own facts about each pod (whether it is a
 *   Windows pod and why), never on a second guess: what `validateManifests` does not report is not touched.
 * - Windows pods get `spec.os`, the `kubernetes.io/os` selector, the target's tolerations and, with
 *   `windowsRelease`, the build selector (or `runtimeClassName`); forbidden fields are removed; HostProcess pods
 *   get `hostNetwork` and hostPort = containerPort; with `pinLinux`, Linux pods of a set with Windows pods get
 *   `kubernetes.io/os: linux`.
 * - Output is faithful: edits go through the `yaml` Document API and are written into the source as splices, so
 *   every line that changes belongs to a reported change and every other byte stays; fixing the output again
 *   changes nothing. A plain block document is edited from its lines instead (lib/core/yaml/direct.ts), to the same
 *   bytes.
 */
import { runEngine, validateManifests } from '../validate/engine';
import type { FixEdit, FixTarget } from '../model/fixes';
import type { PodFacts } from '../model/pod';
import { placeDiagnostics, resourceRef } from '../validate/report';
import type { Diagnostic, ResourceRef } from '../model/types';
import type { ImageLookups } from '../model/image-facts';
import { isRecord, show } from '../model/util';
import { looksLikeObject, miscasedKeys, type MiscasedKey } from '../model/key-case';
import {
  editorOf,
  parseText,
  nextReadings,
  readText,
  renderText,
  WholeListNeeded,
  type DocObject,
  type LoadError,
  type ParsedDoc,
  type ParsedText,
  type Readings,
} from '../yaml';
import { FIX_MEANINGS, FIXERS, TARGET_FIXERS } from './fixers';
import { resolveFixTarget, type FixOptions } from './options';

export * from './options';

export interface FixChange {
  /** The rule whose finding this fixes (or, for the target's tolerations and release pin, would report it). */
  readonly ruleId: string;
  readonly action: 'set' | 'added' | 'removed';
  /** API-server path in the object: `spec.template.spec.os`. */
  readonly path: string;
  /** The value written (set, added). */
  readonly value?: unknown;
  /** The value before (set over an existing value, removed). */
  readonly previous?: unknown;
  readonly resource: ResourceRef;
  /** One sentence for the change report. */
  readonly message: string;
}

/**
 * A fix that was not made because making it would change more than its finding: the field sits in a YAML anchor
 * that other places share, comes from a merge key, or is not in a collection of the expected kind. Its finding
 * stays in `diagnostics`; this says why `fix` left it to be fixed by hand.
 */
export interface FixRefusal {
  readonly ruleId: string;
  /** API-server path of the edit that was not made. */
  readonly path: string;
  readonly resource: ResourceRef;
  /** Why: `it sits in the YAML anchor &sc, which other places share`. */
  readonly reason: string;
  /** One sentence for the change report. */
  readonly message: string;
}

export interface FixResult {
  /** The fixed text: only the lines of reported changes differ from the input, every other byte is kept. */
  readonly text: string;
  readonly changes: readonly FixChange[];
  /** Fixes not made, with why; their findings are in `diagnostics`. */
  readonly refused: readonly FixRefusal[];
  /** What is left: the findings of the output, as `validateManifests` reports them. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface FixInputText {
  readonly text: string;
  /** Shown in diagnostics and changes (a file name). */
  readonly source?: string;
  /**
   * Leave documents without a `kind` out of the checks (a chart's values.yaml found in a directory walk), as
   * `k8s-windows lint` does for files it discovers; `Kind:` beside an apiVersion written in any case counts as one.
   * @default false
   */
  readonly manifestsOnly?: boolean;
}

export interface FixSetResult {
  /** One per input, in order. */
  readonly texts: readonly string[];
  readonly changes: readonly FixChange[];
  /** Fixes not made, with why; their findings are in `diagnostics`. */
  readonly refused: readonly FixRefusal[];
  readonly diagnostics: readonly Diagnostic[];
  /** Malformed documents, left as they were. */
  readonly errors: readonly LoadError[];
  /** How many objects were checked. */
  readonly objectCount: number;
  /** How many objects were checked in each input (0 for a file without manifests). */
  readonly objectCounts: readonly number[];
}

/**
 * Fixes several texts as one set (cross-object rules see all of them, as `k8s-windows lint` does), keeping each
 * text apart. Malformed documents are reported in `errors` and left untouched. Throws `WindowsValidationError`
 * for bad options only.
 */
export function fixManifestSet(
  inputs: readonly FixInputText[],
  options: FixOptions = {},
  /**
   * @internal `{ fast: false }` builds every document's `yaml` node tree; `{ splitLists: false }` reads each List
   * as one document, not item by item: the tests hold the fast reading to both. `read(k)`: what the loader's
   * `readWhole` gave for input `k`'s text, when the caller read it already (`fix --krm`'s envelope); asked once
   * per input, by the first pass, so the caller can let it go.
   */
  internal?: FixInternal,
): FixSetResult {
  if (internal?.fast === false || internal?.splitLists === false) return fixSet(inputs, options, internal);
  try {
    return fixSet(inputs, options, internal);
  } catch (e) {
    // An item of a List that cannot be fixed on its own (rare: see WholeListNeeded): every List read whole.
    if (e instanceof WholeListNeeded) return fixSet(inputs, options, { ...internal, splitLists: false });
    throw e;
  }
}

interface FixInternal {
  readonly fast?: boolean;
  /** `false`: every edit made on the `yaml` node tree (direct.ts left out), for the tests that hold the two equal. */
  readonly direct?: boolean;
  /** `false`: each pass reads every document again (nothing reused from the pass before), for the same tests. */
  readonly reuse?: boolean;
  /** `false`: the first pass runs every rule, not only those with fixers (FIXING_RULES), for the same tests. */
  readonly narrow?: boolean;
  readonly splitLists?: boolean;
  readonly read?: (input: number) => { readonly value: unknown } | undefined;
}

function fixSet(inputs: readonly FixInputText[], options: FixOptions, internal: FixInternal | undefined): FixSetResult {
  const target = resolveFixTarget(options);
  const split = internal?.splitLists !== false;
  let handed = internal?.read;
  // What each pass leaves the next to reuse: the values of the documents it did not change or edited from their lines.
  let readings: readonly Readings[] | undefined;
  const read: Reader =
    internal?.fast === false
      ? parseText
      : (text, source, k) => readText(text, source, split, handed?.(k), readings?.[k]);
  const changes: FixChange[] = [];
  let current = inputs;
  // Only the first pass's counts are kept, and of each pass only its texts go on to the next: two passes'
  // documents and findings are never held at once.
  let first: Pick<FixPass, 'errors' | 'objectCount' | 'objectCounts'> | undefined;
  let pass: FixPass | undefined;
  for (let round = 1; ; round++) {
    // The previous pass is let go before the next one reads: held until the assignment, its objects, findings and
    // rendered documents would be in memory twice over.
    pass = undefined;
    // The first pass runs only the rules with fixers: its findings decide its edits, and are what is left only if it
    // makes none (then every rule is run on the same objects). Most fixes change something, and the next pass runs
    // every rule on the output.
    const only = round === 1 && internal?.narrow !== false ? FIXING_RULES : undefined;
    pass = fixPass(current, options, target, read, internal?.direct !== false, only);
    handed = undefined;
    readings = internal?.reuse === false ? undefined : pass.parsed.map(nextReadings);
    first ??= { errors: pass.errors, objectCount: pass.objectCount, objectCounts: pass.objectCounts };
    // One push per change: a spread of a large input's changes passes the engine's limit on arguments.
    for (const c of pass.changes) changes.push(c);
    // A fix can make a pod's Windows evidence certain (`os.name: Windows` becomes `windows`): the next pass then
    // makes the fixes that follow from it, so one run does what a second run would.
    if (pass.changes.length > 0 && round < MAX_PASSES) {
      const texts = pass.texts;
      current = inputs.map((input, i) => ({ ...input, text: texts[i] }));
      continue;
    }
    // What is left is judged on the output as written, so its positions are the output's lines: the last pass
    // changed nothing, so its findings are the output's; else (at the pass limit) the output is checked again.
    const last = pass;
    const diagnostics =
      last.changes.length === 0
        ? last.complete
          ? placeDiagnostics(last.before, last.objects)
          : validateManifests(last.objects, { ...options, includeSuppressed: false })
        : validateManifests(
            last.parsed.flatMap((p, i) =>
              objectsOf(p.docs.some((d) => d.changed) ? read(last.texts[i], p.source, i) : p, current[i]).map(
                (o) => o.value,
              ),
            ),
            { ...options, includeSuppressed: false },
          );
    return {
      texts: last.texts,
      changes,
      refused: last.refused,
      diagnostics,
      errors: first.errors,
      objectCount: first.objectCount,
      objectCounts: first.objectCounts,
    };
  }
}

/** The rules whose findings or targets `fix` acts on. */
const FIXING_RULES: ReadonlySet<string> = new Set([...FIXERS.keys(), ...TARGET_FIXERS.keys()]);

/** Passes at most: the second settles what the first made certain; a third would be a fixer feeding itself. */
const MAX_PASSES = 3;

/** One pass over the texts: every fix the findings call for, made on the texts as they are. */
interface FixPass {
  readonly parsed: readonly ParsedText[];
  readonly texts: readonly string[];
  readonly changes: readonly FixChange[];
  readonly refused: readonly FixRefusal[];
  /** The findings the pass acted on: those of its input, without their lines and columns. */
  readonly before: readonly Diagnostic[];
  /** The objects judged, as `before` counts them. */
  readonly objects: readonly unknown[];
  /** Whether every rule was run (else `before` holds only the findings of rules with fixers). */
  readonly complete: boolean;
  readonly errors: readonly LoadError[];
  readonly objectCount: number;
  readonly objectCounts: readonly number[];
}

/** The objects of a parsed text that are checked (documents without `kind` left out where asked: `looksLikeObject`). */
function objectsOf(p: ParsedText, input: FixInputText): readonly DocObject[] {
  return input.manifestsOnly === true ? p.objects.filter((o) => looksLikeObject(o.value)) : p.objects;
}

/** Reads input `k`'s text for a pass. */
type Reader = (text: string, source: string | undefined, k: number) => ParsedText;

function fixPass(
  inputs: readonly FixInputText[],
  options: FixOptions,
  target: FixTarget,
  read: Reader,
  lines: boolean,
  only: ReadonlySet<string> | undefined,
): FixPass {
  const parsed = inputs.map((i, k) => read(i.text, i.source, k));
  const perInput = parsed.map((p, i) => objectsOf(p, inputs[i]));
  const entries = perInput.flat();
  const objects = entries.map((e) => e.value);
  // A suppressed finding is left alone, so fix acts only on what is reported.
  const validateOptions = { ...options, includeSuppressed: false };
  // The engine's own run: its findings, its facts about each pod, and which rules report on each object. Where they
  // stand in the text is read only if this pass is the last (placeDiagnostics).
  const run = runEngine(objects, validateOptions, { placed: false, ...(only !== undefined ? { only } : {}) });
  const before = run.diagnostics;
  // The fixers read the image facts the rules did: the registry's answers, else the well-known records.
  const images = isRecord(run.images) ? run.images : undefined;

  const byObject = new Map<number, Diagnostic[]>();
  for (const d of before) {
    const i = d.location?.object;
    if (i === undefined) continue;
    const list = byObject.get(i);
    if (list) list.push(d);
    else byObject.set(i, [d]);
  }

  const changes: FixChange[] = [];
  const refused: FixRefusal[] = [];
  // A document is rendered (and its node tree let go) once the objects after it are reached: a List's items
  // share one document.
  let open: ParsedDoc | undefined;
  entries.forEach((entry, i) => {
    if (entry.doc !== open) open?.finish?.();
    open = entry.doc;
    const obj = entry.value;
    const pod = run.pods.get(i);
    if (pod === undefined) return;
    // A key written in another case (`Spec:`) was judged as meant, so the edits' paths (`spec.…`) are not in the
    // text: the object is left as written, and what a fix would change is said.
    const miscased = miscasedKeys(obj);
    if (miscased.length > 0) {
      const planned = editsFor(pod, byObject.get(i) ?? [], target, (ruleId) => run.reports(i, ruleId), images);
      for (const r of miscasedRefusals(miscased, planned, resourceRef(pod.obj))) refused.push(r);
      return;
    }
    // A custom resource fix does not edit (an Argo Workflow's templates, a Knative Service): what it would do, said.
    const left = pod.source?.fixLeft;
    if (left !== undefined) {
      const all = run.podLists.get(i) ?? [pod];
      for (const r of leftEdits(all, byObject.get(i) ?? [], target, (ruleId) => run.reports(i, ruleId))) {
        refused.push({
          ruleId: r.ruleId,
          path: r.path,
          resource: resourceRef(obj),
          reason: left,
          message: `not changed: ${r.path}: ${left}; fix it by hand (${r.ruleId}).`,
        });
      }
      return;
    }
    const edits = editsFor(pod, byObject.get(i) ?? [], target, (ruleId) => run.reports(i, ruleId), images);
    if (edits.length === 0) return;
    const resource = resourceRef(obj);
    const refuse = (ruleId: string, path: string, reason: string) =>
      refused.push({
        ruleId,
        path,
        resource,
        reason,
        message: `not changed: ${path}: ${reason}; fix it by hand (${ruleId}).`,
      });
    // One strategy makes the object's edits: a plain block document of this one object (or List item) has them
    // written from its lines, as the node tree would write them; any other, on its node tree (lib/core/yaml).
    const editor = editorOf(
      entry,
      edits.map((e) => e.edit),
      lines,
    );
    if (editor.strategy === 'lines') {
      let changed = false;
      edits.forEach(({ edit, ruleId }, k) => {
        const previous = editor.results[k].previous;
        if (edit.op === 'set' && previous === edit.value) return;
        changed = true;
        changes.push(describe(edit, ruleId, resource, previous));
      });
      if (changed) editor.commit();
      return;
    }
    // Check every edit before making any: a pod is fixed as a whole or its rejected parts are said.
    const checked = edits.map((e) => ({ ...e, refused: editor.check(e.edit) }));
    const forbiddenLeft = checked.find(
      (e) => e.refused !== undefined && FIX_MEANINGS.get(e.ruleId)?.removesRejectedOnWindows === true,
    );
    for (const { edit, ruleId, refused: reason } of checked) {
      if (reason !== undefined) {
        refuse(ruleId, edit.path, reason);
        continue;
      }
      // spec.os.name: windows makes the API server reject the forbidden fields that could not be removed.
      if (forbiddenLeft !== undefined && FIX_MEANINGS.get(ruleId)?.declaresWindows === true) {
        refuse(
          ruleId,
          edit.path,
          `${forbiddenLeft.edit.path} could not be removed, and with spec.os.name: windows the API server would reject it`,
        );
        continue;
      }
      const result = editor.apply(edit);
      if (!result.ok) {
        refuse(ruleId, edit.path, result.reason);
        continue;
      }
      if (edit.op === 'set' && result.previous === edit.value) continue;
      entry.doc.changed = true;
      changes.push(describe(edit, ruleId, resource, result.previous));
    }
  });

  open?.finish?.();
  const texts = parsed.map(renderText);
  return {
    parsed,
    texts,
    changes,
    refused,
    before,
    objects,
    complete: only === undefined,
    errors: parsed.flatMap((p) => p.errors),
    objectCount: entries.length,
    objectCounts: perInput.map((o) => o.length),
  };
}

/**
 * Fixes one manifest text (multi-document YAML or JSON; `List` kinds unwrapped) and returns the fixed text, what
 * changed and the findings left. Throws an `Error` listing every malformed document (as `loadManifests` does),
 * and a `WindowsValidationError` for bad options.
 */
export function fixManifests(text: string, options: FixOptions & { readonly source?: string } = {}): FixResult {
  const { source, ...rest } = options;
  const result = fixManifestSet([{ text, ...(source !== undefined ? { source } : {}) }], rest);
  if (result.errors.length > 0) {
    const where = source ?? '<input>';
    const lines = result.errors.map((e) => `  ${where}:${e.line}:${e.column}: ${e.message}`);
    throw new Error(
      `${result.errors.length} malformed YAML document problem${result.errors.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
    );
  }
  return {
    text: result.texts[0],
    changes: result.changes,
    refused: result.refused,
    diagnostics: result.diagnostics,
  };
}

interface PlannedEdit {
  readonly edit: FixEdit;
  readonly ruleId: string;
}

/**
 * What fix would change in the pods of an object it leaves (a custom resource it does not edit), each once, at the
 * path the resource writes it: each finding with a fixer, and each rule's fixes toward the target on its Windows pods.
 */
function leftEdits(
  pods: readonly PodFacts[],
  diagnostics: readonly Diagnostic[],
  target: FixTarget,
  isActive: (ruleId: string) => boolean,
): { readonly ruleId: string; readonly path: string }[] {
  const out = new Map<string, { readonly ruleId: string; readonly path: string }>();
  const add = (ruleId: string, path: string) => out.set(`${ruleId}\u0000${path}`, { ruleId, path });
  for (const d of diagnostics) if (FIXERS.has(d.ruleId)) add(d.ruleId, d.path);
  for (const pod of pods) {
    if (!pod.windows) continue;
    const place = pod.source?.rewrite?.path ?? ((p: string) => p);
    for (const [ruleId, fixer] of TARGET_FIXERS) {
      if (isActive(ruleId)) for (const e of fixer({ pod, target })) add(ruleId, place(e.path));
    }
  }
  return [...out.values()];
}

/** The edits not made in an object with keys written in another case: rename them first. */
function miscasedRefusals(
  miscased: readonly MiscasedKey[],
  edits: readonly PlannedEdit[],
  resource: ResourceRef,
): FixRefusal[] {
  const written = miscased.map((m) => `'${m.written}' for ${m.meant}`).join(' and ');
  const meant = miscased.map((m) => m.meant).join(' and ');
  const reason = `the document writes ${written} (input-invalid-document)`;
  return edits.map(({ edit, ruleId }) => ({
    ruleId,
    path: edit.path,
    resource,
    reason,
    message: `not changed: ${edit.path}: ${reason}; write ${meant}, then run fix again (${ruleId}).`,
  }));
}

/** The edits for one pod: each finding's fixer, then, for Windows pods, each rule's fixes toward the target. */
function editsFor(
  pod: PodFacts,
  diagnostics: readonly Diagnostic[],
  target: FixTarget,
  isActive: (ruleId: string) => boolean,
  images: ImageLookups | undefined,
): PlannedEdit[] {
  const out: PlannedEdit[] = [];
  const seen = new Set<string>();
  const add = (edit: FixEdit, ruleId: string) => {
    const id = `${edit.op}\u0000${edit.path}\u0000${JSON.stringify('value' in edit ? edit.value : null)}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ edit, ruleId });
  };
  for (const d of diagnostics) {
    const fixer = FIXERS.get(d.ruleId);
    if (fixer) for (const e of fixer({ diagnostic: d, pod, target, images })) add(e, d.ruleId);
  }
  if (!pod.windows) return out;
  // Each rule's own fixes toward the user's target (taints, release), made on every Windows pod where it is on.
  for (const [ruleId, fixer] of TARGET_FIXERS) {
    if (isActive(ruleId)) for (const e of fixer({ pod, target })) add(e, ruleId);
  }
  return out;
}

function describe(edit: FixEdit, ruleId: string, resource: ResourceRef, previous: unknown): FixChange {
  const rule = ` (${ruleId})`;
  switch (edit.op) {
    case 'set':
      return {
        ruleId,
        action: 'set',
        path: edit.path,
        value: edit.value,
        ...(previous !== undefined ? { previous } : {}),
        resource,
        message: `set ${edit.path} to ${show(edit.value)}${previous !== undefined ? ` (was ${show(previous)})` : ''}${rule}.`,
      };
    case 'append': {
      const what = edit.path.endsWith('tolerations') ? `a toleration for ${taintText(edit.value)}` : show(edit.value);
      return {
        ruleId,
        action: 'added',
        path: edit.path,
        value: edit.value,
        resource,
        message: `added ${what} to ${edit.path}${rule}.`,
      };
    }
    case 'remove':
      return {
        ruleId,
        action: 'removed',
        path: edit.path,
        previous,
        resource,
        message: `removed ${edit.path} ${show(previous)}${removalReason(ruleId)}${rule}.`,
      };
    default: {
      const unknownEdit: never = edit;
      throw new Error(`unknown edit ${JSON.stringify(unknownEdit)}`);
    }
  }
}

/** `: why` of a rule's removals, as its module says (`fixMeaning.removal`); nothing where it says none. */
function removalReason(ruleId: string): string {
  const why = FIX_MEANINGS.get(ruleId)?.removal;
  return why === undefined ? '' : `: ${why}`;
}

/** `key=value:Effect` for a toleration written by `tolerationFor`. */
function taintText(t: unknown): string {
  if (!isRecord(t)) return show(t);
  return `${String(t.key)}${t.value !== undefined ? `=${String(t.value)}` : ''}:${String(t.effect)}`;
}
