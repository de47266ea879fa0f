/**
 * `WindowsKarpenterNodePool` for cdk8s: the Karpenter `EC2NodeClass` and `NodePool` for Windows nodes on EKS, as
 * the core builds them (`windowsKarpenterManifests`), for GitOps users who apply Karpenter objects from manifests.
 * The node role, its access entry and Karpenter itself are not Kubernetes objects: create them elsewhere.
 * @see https://karpenter.sh/docs/concepts/nodepools/
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { windowsKarpenterManifests, type KarpenterManifest, type WindowsKarpenterOptions } from '../core/karpenter';
import type { WindowsNodeTarget } from '../core/target';

/** Props: the core's options (see `WindowsKarpenterOptions`); `name` defaults to the construct id. */
export interface WindowsKarpenterNodePoolProps extends Omit<WindowsKarpenterOptions, 'name'> {
  /**
   * Name of the `NodePool` and `EC2NodeClass`.
   * @default - the construct id
   */
  readonly name?: string;
}

/** Both objects are cluster-scoped: never emit the chart's namespace on them. */
class ClusterScopedObject extends ApiObject {
  public override toJson(): Record<string, unknown> {
    const json = super.toJson() as { metadata?: Record<string, unknown> };
    if (json.metadata) delete json.metadata.namespace;
    return json;
  }
}

/**
 * Windows capacity through Karpenter: an `EC2NodeClass` (`windows20xx@latest`) and a `NodePool` restricted to
 * Windows, amd64 and the release's build, tainted `os=windows:NoSchedule`. Throws `WindowsValidationError` listing
 * every bad prop. Build workloads from `nodeTarget`.
 */
export class WindowsKarpenterNodePool extends Construct {
  public readonly nodeClass: ApiObject;
  public readonly nodePool: ApiObject;
  /** The labels and taints the nodes carry. */
  public readonly nodeTarget: WindowsNodeTarget;

  constructor(scope: Construct, id: string, props: WindowsKarpenterNodePoolProps) {
    super(scope, id);
    const manifests = windowsKarpenterManifests({ ...props, name: props.name ?? id });
    this.nodeTarget = manifests.nodeTarget;
    this.nodeClass = toApiObject(this, 'node-class', manifests.nodeClass);
    this.nodePool = toApiObject(this, 'node-pool', manifests.nodePool);
    this.nodePool.addDependency(this.nodeClass);
  }
}

function toApiObject(scope: Construct, id: string, manifest: KarpenterManifest): ApiObject {
  return new ClusterScopedObject(scope, id, {
    apiVersion: manifest.apiVersion,
    kind: manifest.kind,
    metadata: { name: manifest.metadata.name },
    spec: manifest.spec,
  });
}
