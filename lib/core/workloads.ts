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
