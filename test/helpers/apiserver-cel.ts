/**
 * The Kubernetes API server's own admission CEL as a test judge: test/apiserver-cel is a Go program built on
 * k8s.io/apiserver v0.37.2 that compiles, type-checks and costs every expression of the given
 * ValidatingAdmissionPolicies and MutatingAdmissionPolicies, then matches and evaluates them on the given objects
 * (test/apiserver-cel/README.md says which apiserver APIs do what). `apiserverCel(request)` builds it when needed
 * (Go 1.26, CONTRIBUTING.md: Set up; scripts/test-tools.sh builds it before `npm test`) and runs it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
/** The Go module's folder. */
export const APISERVER_CEL_SOURCE = path.join(REPO, 'test', 'apiserver-cel');
/** Where the binary is built (build/ is ignored by git). */
export const APISERVER_CEL_BINARY = path.join(REPO, 'build', 'apiserver-cel');

/** The committed upstream API definitions of a minor (data/kubernetes-api/README.md). */
export function kubernetesApiSchemas(minor: `1.${number}`): string {
  return path.join(REPO, 'data', 'kubernetes-api', `v${minor}.json`);
}

/** A Kubernetes object as JSON. */
export type KubeObject = Record<string, unknown>;

export interface ApiserverCelCase {
  readonly object: KubeObject;
  /** The object before an UPDATE. @default the object itself */
  readonly oldObject?: KubeObject;
  /**
   * The request's namespace, with its labels (`kubernetes.io/metadata.name` is added as the API server does).
   * @default object.metadata.namespace with no other label; without either the request is cluster-scoped:
   * namespaceSelector does not apply and namespaceObject is null
   */
  readonly namespace?: { readonly metadata: { readonly name: string; readonly labels?: Record<string, string> } };
  readonly operation: 'CREATE' | 'UPDATE';
}

export interface ApiserverCelRequest {
  /** The API server's minor, "1.30" or newer: its environment compiles new expressions at the minor before it. */
  readonly kubernetesVersion: `1.${number}`;
  /** Path of data/kubernetes-api/v1.NN.json: `kubernetesApiSchemas(minor)`. */
  readonly schemas: string;
  /**
   * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and MutatingAdmissionPolicy, v1beta1
   * MutatingAdmissionPolicy; each with its own metadata.name.
   */
  readonly policies: readonly KubeObject[];
  /** Parameter objects: a policy with a paramKind is evaluated once with each of that kind. @default [] */
  readonly params?: readonly KubeObject[];
  /**
   * OpenAPI v3 schemas of the param kinds, keyed "<apiVersion>/<kind>", so `params.x` is type-checked.
   * @default {} (params untyped)
   */
  readonly paramSchemas?: Readonly<Record<string, unknown>>;
  /** @default [] */
  readonly cases?: readonly ApiserverCelCase[];
}

export interface ApiserverCelExpression {
  /** The expression's field, e.g. `spec.validations[0].expression`. */
  readonly field: string;
  readonly expression: string;
  /** What the API server's validation says when the policy is created: any error refuses the policy. */
  readonly errors: readonly string[];
  /**
   * The TypeChecker's findings against the schemas of the kinds the resourceRules name (status.typeChecking in a
   * cluster; the API server admits the policy anyway). Not for mutations.
   */
  readonly warnings: readonly string[];
  /** Static worst-case cost estimate over a 3 MiB object; null when the expression does not compile typed. */
  readonly cost: number | null;
  /**
   * Type errors of the expression with the variables it reads inlined, per checked kind: typed through the
   * variables, which the TypeChecker types as dyn when they hold an object (it cannot see a wrong field read through
   * `variables.spec`). Not the API server's finding; the helper's own, from the inlining the cost estimate does.
   */
  readonly inlinedErrors: readonly string[];
}

export interface ApiserverCelPolicyReport {
  readonly name: string;
  readonly kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
  readonly apiVersion: string;
  /** The kinds the expressions were type-checked and costed against, e.g. `apps/v1/Deployment`. */
  readonly checkedKinds: readonly string[];
  readonly expressions: readonly ApiserverCelExpression[];
  /** Problems of the policy as a whole (a missing matchConstraints, no validations, ...). */
  readonly errors: readonly string[];
}

export interface ApiserverCelViolation {
  /** Index in spec.validations. */
  readonly validation: number;
  /** The messageExpression's text, else message, else "failed expression: ..." as the API server words it. */
  readonly message: string;
  readonly reason: string;
}

export interface ApiserverCelResult {
  /** Index in cases. */
  readonly case: number;
  readonly policy: string;
  /** The param object's name, for a policy with a paramKind. */
  readonly param?: string;
  /** matchConstraints (resourceRules, selectors) and matchConditions both matched. */
  readonly matched: boolean;
  /** Every validation that evaluated to false. */
  readonly violations: readonly ApiserverCelViolation[];
  /** An evaluation error (a failed expression, a missing param, a cancelled evaluation over budget). */
  readonly error?: string;
  /** Runtime cost counted against the per-policy budget (ValidatingAdmissionPolicy). */
  readonly cost?: number;
  /** The object after the MutatingAdmissionPolicy's mutations, when it matched and they applied. */
  readonly patched?: KubeObject;
}

export interface ApiserverCelResponse {
  readonly kubernetesVersion: string;
  /** The environment version of new expressions: the minor before kubernetesVersion. */
  readonly compatibilityVersion: string;
  /** k8s.io/apiserver/pkg/apis/cel: the budgets the API server enforces at run time. */
  readonly budgets: {
    readonly perCallLimit: number;
    readonly runtimeCELCostBudget: number;
    readonly runtimeCELCostBudgetMatchConditions: number;
  };
  readonly policies: readonly ApiserverCelPolicyReport[];
  /** One per case and policy (and param), cases in order, policies in order within a case. */
  readonly results: readonly ApiserverCelResult[];
}

/** The request itself was wrong: every problem, each naming its field. */
export class ApiserverCelRequestError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`apiserver-cel refused the request:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ApiserverCelRequestError';
  }
}

/** The newest modification time of the module's sources (go files, go.mod, go.sum). */
function newestSource(): number {
  return readdirSync(APISERVER_CEL_SOURCE)
    .filter((name) => name.endsWith('.go') || name === 'go.mod' || name === 'go.sum')
    .reduce((newest, name) => Math.max(newest, statSync(path.join(APISERVER_CEL_SOURCE, name)).mtimeMs), 0);
}

/**
 * Builds build/apiserver-cel unless it is newer than every source (minutes on a cold Go cache). The build goes to a
 * temporary name first, so jest workers building at once never run a half-written binary. Throws, never skips,
 * when Go is missing.
 */
export function ensureApiserverCel(): string {
  if (existsSync(APISERVER_CEL_BINARY) && statSync(APISERVER_CEL_BINARY).mtimeMs >= newestSource()) {
    return APISERVER_CEL_BINARY;
  }
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error !== undefined || go.status !== 0) {
    throw new Error(
      'Go is not on PATH: the API server CEL tests build test/apiserver-cel with Go 1.26 (CONTRIBUTING.md: Set up; scripts/test-tools.sh builds it before npm test).',
    );
  }
  mkdirSync(path.dirname(APISERVER_CEL_BINARY), { recursive: true });
  const partial = `${APISERVER_CEL_BINARY}.${process.pid}.tmp`;
  try {
    execFileSync('nice', ['go', 'build', '-o', partial, './'], {
      cwd: APISERVER_CEL_SOURCE,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`go build in test/apiserver-cel failed:\n${stderr || String(error)}`);
  }
  renameSync(partial, APISERVER_CEL_BINARY);
  return APISERVER_CEL_BINARY;
}

/** Runs the judge on one request. */
export function apiserverCel(request: ApiserverCelRequest): ApiserverCelResponse {
  const binary = ensureApiserverCel();
  const run = spawnSync(binary, [], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error !== undefined) throw run.error;
  if (run.status === 2) {
    throw new ApiserverCelRequestError((JSON.parse(run.stdout) as { errors: string[] }).errors);
  }
  if (run.status !== 0) {
    throw new Error(`apiserver-cel exited with ${String(run.status ?? run.signal)}:\n${run.stderr}`);
  }
  return JSON.parse(run.stdout) as ApiserverCelResponse;
}
