/** The shapes of the EKS pools' args (see `../arg-shapes`): what each must be before anything reads it. */
import { list, NODE_POOL_SHAPES, num, object, record, str, type ArgShapes } from '../arg-shapes';

const inputString = str({ eventual: true });
const requiredName = str({ eventual: true, nonEmpty: true });

/** `NodeRoleRef`: an `aws.iam.Role` or `{ name, arn }`. */
export const NODE_ROLE_SHAPE = object(
  { name: { shape: requiredName, required: true }, arn: { shape: inputString, required: true } },
  { expects: 'an IAM role (aws.iam.Role or { name, arn })' },
);

/** `tags`: a map of strings, each maybe an Output, or one Output. */
export const TAGS_SHAPE = record(inputString, { eventual: true });

/** Args every EKS pool takes (`EksWindowsPoolBaseArgs`). */
export const EKS_POOL_BASE_SHAPES: ArgShapes = {
  clusterName: { shape: requiredName, required: true, example: 'cluster.name' },
  subnetIds: { shape: list(inputString, { eventual: true }), required: true, example: "['subnet-0abc123']" },
  ...NODE_POOL_SHAPES,
  clusterVersion: { shape: str({ eventual: true }), example: 'cluster.version' },
  diskSize: { shape: num(), example: '50' },
  partition: { shape: str(), example: "'aws'" },
  tags: { shape: TAGS_SHAPE, example: "{ team: 'web' }" },
};
