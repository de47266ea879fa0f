/**
 * Where each kind of object keeps its pod spec. The rule engine, Pod Security checks and the front doors all find
 * pod specs through here, so a new kind is added once.
 */
import { isRecord } from './json';
import type { PodSpec } from './kube';

/** Kinds that hold a pod spec, and the path segments to it. */
export const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec'],
  PodTemplate: ['template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** Kinds that hold a pod template (not a pod): their pod metadata sits beside the spec. */
export function isWorkloadKind(kind: unknown): kind is string {
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(POD_SPEC_PATHS, kind);
}

export interface PodSpecLocation {
  /** The pod spec object inside `obj` (not a copy). */
  readonly spec: PodSpec;
  /** Its path in API-server notation: `spec.template.spec`. */
  readonly path: string;
  /** The pod (template) metadata, where labels and annotations of the pods live. */
  readonly podMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  /**
   * Where `podMetadata` is in the object, when it is not beside the spec (`spec.templates[0].metadata`).
   * @default - `metadata` for a Pod, else the pod template's (`spec.template.metadata`)
   */
  readonly podMetadataPath?: string;
  /**
   * The custom resource the pod template is in (pod-templates.ts), for what differs from a workload's: what `fix`
   * does there, fields the resource cannot carry, and where a pod built from parts (an Argo Workflow template) keeps
   * each field.
   * @default - a Kubernetes workload: its pod spec is written as the API server reads it
   */
  readonly source?: PodSource;
}

/** A custom resource's pod template, as the rules and `fix` must treat it. */
export interface PodSource {
  /** What holds the pod, for messages: `an Argo Rollout`, `Argo Workflow template 'build'`. */
  readonly what: string;
  /** Why `fix` leaves the pod to be fixed by hand (a clause), when it does. */
  readonly fixLeft?: string;
  /**
   * Pod spec fields the resource cannot carry (Knative's `os`): a finding that asks to add one is not reported.
   * @default - none
   */
  readonly omits?: readonly string[];
  /**
   * For a pod the controller builds from parts (an Argo Workflow template and the workflow's defaults): the place in
   * the object of a path the rules report under `path`, and the same for every such path in a message.
   * @default - paths are the object's own
   */
  readonly rewrite?: {
    readonly path: (path: string) => string;
    readonly text: (text: string) => string;
    /** What to add to the fix of a finding at `path` (a sentence), where the resource writes that field its own way. */
    readonly hint?: (path: string) => string | undefined;
  };
}

/** Finds the pod spec of a Pod, workload or PodTemplate; undefined for other objects or when absent. */
export function locatePodSpec(obj: unknown): PodSpecLocation | undefined {
  if (!isRecord(obj) || !isWorkloadKind(obj.kind)) return undefined;
  const segments = POD_SPEC_PATHS[obj.kind];
  let node: unknown = obj;
  let parent: unknown = undefined;
  for (const s of segments) {
    parent = node;
    node = isRecord(node) ? node[s] : undefined;
  }
  if (!isRecord(node)) return undefined;
  const meta = obj.kind === 'Pod' ? obj.metadata : isRecord(parent) ? parent.metadata : undefined;
  return {
    spec: node as unknown as PodSpec,
    path: segments.join('.'),
    ...(isRecord(meta) ? { podMetadata: meta as PodSpecLocation['podMetadata'] } : {}),
  };
}
