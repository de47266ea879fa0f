/**
 * windows-forbidden-field: the fields kube-apiserver forbids on pods with `spec.os.name: windows`
 * ("cannot be set for a windows pod", validation.go `validateWindows`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go;
 * https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod).
 */
import { POD_RESOURCES_REFUSED_FROM_MINOR, WINDOWS_ALTERNATIVE } from '../windows-fields';
import { apiSchema, targetMinor } from '../api/schema';
import { FORBIDDEN_FIELD_REMOVAL, forbiddenFields, removeField } from '../model/pod-forbidden';
import { show } from '../model/util';
import { K8S_WINDOWS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule, formatMessage } from './rule';
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_DETAIL,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
  POD_RESOURCES_FORBIDDEN_DETAIL,
} from '../windows-fields';
import { celContainerName, SPEC } from './cel-parts';
import { celString } from './cel';

const POD_FIELDS = Object.keys(FORBIDDEN_POD_FIELDS) as (keyof typeof FORBIDDEN_POD_FIELDS)[];
/** A forbidden field's finding in the CEL form's words, as a CEL string: where, the API server's detail, the fix. */
const forbidden = (where: string, field: string, detail = FORBIDDEN_DETAIL): string =>
  celString(`${where}: Forbidden: ${detail}. ${WINDOWS_ALTERNATIVE[field] ?? 'Remove it.'}`);

/** The last field name of an API path: `runAsUser` of `spec.securityContext.runAsUser`. */
const fieldOf = (path: string): string =>
  path
    .replace(/\[\d+\]$/, '')
    .split('.')
    .pop() ?? '';
/** Whether the path is inside a container (else it is about the pod). */
const inContainer = (path: string): boolean =>
  /(?:^|\.)(?:initContainers|containers|ephemeralContainers)\[\d+\]/.test(path);

/** cdk8s-plus security props by API field (container.js and pod.js of cdk8s-plus-28 to 34). */
const CDK8S_SECURITY_PROP: Readonly<Record<string, string>> = {
  runAsUser: 'user',
  runAsGroup: 'group',
  runAsNonRoot: 'ensureNonRoot',
};

/** What to do about each forbidden field in cdk8s, once the prop is removed (the Windows way, where there is one). */
const CDK8S_TAIL: Readonly<Record<string, string>> = {
  runAsUser:
    "to run as a non-admin Windows user, set `windows: { runAsUserName: 'ContainerUser' }` or `windows: { securityProfile: 'restricted' }`.",
  runAsGroup: 'Windows has no GIDs.',
  fsGroup: 'Windows has no GIDs; grant access with ACLs inside the image.',
  supplementalGroups: 'Windows has no GIDs.',
  privileged:
    'for a node agent use `WindowsHostProcessDaemonSet` (every container runs as a HostProcess container on the node).',
  capabilities: 'Windows has no Linux capabilities.',
  readOnlyRootFilesystem: 'Windows cannot mount the root filesystem read-only.',
  allowPrivilegeEscalation: "Pod Security's restricted level exempts Windows pods from it.",
  seccompProfile: "Pod Security's restricted level exempts Windows pods from it.",
  sysctls: 'Windows has no sysctls.',
  shareProcessNamespace: 'Windows pods cannot share a process namespace (even `false` is refused).',
  hostPID: 'Windows pods cannot share the host PID namespace.',
  hostIPC: 'Windows pods cannot share the host IPC namespace.',
  hostUsers: 'user namespaces do not exist on Windows.',
};

/** The cdk8s fix: remove the prop that writes the field (`securityContext.user` on the container, `sysctls`). */
function cdk8sFix(path: string): { fix: string; messageSuffix?: string } {
  const field = fieldOf(path);
  const prop = CDK8S_SECURITY_PROP[field] ?? field;
  const owner = inContainer(path) ? "the container's" : "the workload's";
  const inSecurityContext = path.includes('.securityContext.');
  const named = inSecurityContext ? `\`${prop}\` from ${owner} \`securityContext\`` : `\`${prop}\``;
  const tail = CDK8S_TAIL[field];
  return {
    fix: `Remove ${named}${tail ? `; ${tail}` : '.'}`,
    // A cdk8s-plus prop with another name than its field (`user` renders `runAsUser`) is named after the message.
    ...(inSecurityContext && CDK8S_SECURITY_PROP[field] !== undefined
      ? { messageSuffix: ` (${owner} \`securityContext.${prop}\`)` }
      : {}),
  };
}

/** The words of the `inert-left-out` note, which only the constructs report (`inertFieldLeftOut`). */
const INERT_LEFT_OUT = {
  message:
    'securityContext.{prop}: {value} is left out of the manifest: the API server refuses {field} on Windows pods whatever its value, and {value} is what a Windows container does anyway.',
  fix: "Remove {prop} from the container's securityContext props.",
} as const;

/**
 * The note a cdk8s construct gives on a forbidden field its props set to what a Windows container does anyway
 * (`privileged: false`): the API server refuses the field whatever its value, so the construct leaves it out of the
 * manifest and says so under this rule (never dropped silently). Lint has no such case: a manifest's field is its own.
 */
export function inertFieldLeftOut(
  path: string,
  prop: string,
  field: string,
  value: unknown,
): { ruleId: 'windows-forbidden-field'; messageId: 'inert-left-out'; path: string; message: string; fix: string } {
  return {
    ruleId: 'windows-forbidden-field',
    messageId: 'inert-left-out',
    path,
    message: formatMessage(INERT_LEFT_OUT.message, { prop, value: show(value), field }),
    fix: formatMessage(INERT_LEFT_OUT.fix, { prop }),
  };
}

export default defineRule({
  meta: {
    id: 'windows-forbidden-field',
    family: 'api-server',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'A field the API server forbids on pods with spec.os.name: windows.',
    rationale:
      'kube-apiserver rejects Windows pods that set Linux-only security fields, host namespaces, sysctls or pod-level resources ("cannot be set for a windows pod").',
    docs: K8S_WINDOWS,
    ...API_SERVER_REJECTS_POD,
    fixable: 'Removes the field; the change report names it and its value.',
    cases: [
      {
        name: 'pod-resources-before-1.34',
        severity: 'warning',
        when: `Pod-level resources with a target older than 1.${POD_RESOURCES_REFUSED_FROM_MINOR}: the API server admits them (or drops them while the alpha PodLevelResources gate is off) and refuses them from 1.${POD_RESOURCES_REFUSED_FROM_MINOR}.`,
      },
    ],
  },
  messages: {
    'pod-resources-before-1.34': {
      description: 'Pod-level resources on a Windows pod, for a target before the API server refuses them.',
      message:
        '{path} {value}: Kubernetes 1.{minor} admits pod-level resources on a Windows pod (or drops them while the alpha PodLevelResources gate is off), and 1.{POD_RESOURCES_REFUSED_FROM_MINOR} and later refuse the pod ({detail}).',
      fix: '{fix}',
    },
    forbidden: {
      description: 'A field the API server forbids on a Windows pod.',
      message: '{path} {value}: Forbidden: {detail}.',
      fix: '{fix}',
    },
    'inert-left-out': {
      description:
        'A forbidden field a cdk8s prop sets to what Windows does anyway, left out of the manifest (constructs only).',
      ...INERT_LEFT_OUT,
    },
  },
  frontDoorFixes: { cdk8s: ({ path }) => cdk8sFix(path) },
  fixMeaning: FORBIDDEN_FIELD_REMOVAL,
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || p.declaredOs !== 'windows') return;
      for (const { path, value, field, detail } of forbiddenFields(p)) {
        const minor = field === 'resources' ? targetMinor(options.kubernetesVersion) : undefined;
        if (minor !== undefined && minor < POD_RESOURCES_REFUSED_FROM_MINOR) {
          // Before 1.32 the field does not exist: api-unknown-field reports it.
          const podSpec = apiSchema(minor).kinds.get('v1/Pod')?.fields.get('spec');
          if (!podSpec?.type.fields.has('resources')) continue;
          report({
            path,
            messageId: 'pod-resources-before-1.34',
            data: {
              value: show(value),
              minor,
              POD_RESOURCES_REFUSED_FROM_MINOR,
              detail,
              fix: WINDOWS_ALTERNATIVE[field] ?? 'Remove it.',
            },
            case: 'pod-resources-before-1.34',
          });
          continue;
        }
        report({
          path,
          messageId: 'forbidden',
          data: { value: show(value), detail, fix: WINDOWS_ALTERNATIVE[field] ?? 'Remove it.' },
        });
      }
    },
  },
  fix: removeField,
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The pod-level forbidden fields it sets, each as its finding's words and fix.
        name: 'wff_pod',
        expression: `((has(${SPEC}.securityContext) ? [${[
          ...FORBIDDEN_POD_SECURITY_FIELDS.map(
            (f) => `has(${SPEC}.securityContext.${f}) ? ${forbidden(`pod securityContext.${f}`, f)} : ''`,
          ),
          `has(${SPEC}.securityContext.${FORBIDDEN_POD_SYSCTLS}) && size(${SPEC}.securityContext.${FORBIDDEN_POD_SYSCTLS}) > 0 ? ${forbidden(`pod securityContext.${FORBIDDEN_POD_SYSCTLS}`, FORBIDDEN_POD_SYSCTLS)} : ''`,
        ].join(
          ', ',
        )}] : []) + [${POD_FIELDS.map((f) => `has(${SPEC}.${f})${FORBIDDEN_POD_FIELDS[f] === 'any' ? '' : ` && ${SPEC}.${f}`} ? ${forbidden(`pod ${f}`, f)} : ''`).join(', ')}]).filter(m, m != '')`,
      },
      {
        // Per container with forbidden securityContext fields, their findings.
        name: 'wff_containers',
        expression: `variables.containers.filter(c, has(c.securityContext)).map(c, [${FORBIDDEN_CONTAINER_SECURITY_FIELDS.map((f) => `has(c.securityContext.${f}) ? ${celContainerName('c')} + ${forbidden(` securityContext.${f}`, f)} : ''`).join(', ')}].filter(m, m != '')).filter(l, size(l) > 0).map(l, l.join(' '))`,
      },
    ],
    validations: [
      {
        expression: `variables.declaredOs != 'windows' || size(variables.wff_pod) + size(variables.wff_containers) == 0`,
        messageExpression: `'windows-forbidden-field: ' + (variables.wff_pod + variables.wff_containers).join(' ')`,
      },
      {
        expression: `variables.declaredOs != 'windows' || !has(${SPEC}.resources)`,
        messageExpression: `'windows-forbidden-field: ' + ${forbidden('pod resources', 'resources', POD_RESOURCES_FORBIDDEN_DETAIL)}`,
      },
    ],
    limits: `Pod-level resources under a --kubernetes-version before 1.${POD_RESOURCES_REFUSED_FROM_MINOR}, lint's warning: a policy does not know the cluster's version, and refuses them as the API server does from 1.${POD_RESOURCES_REFUSED_FROM_MINOR}.`,
  }),
});
