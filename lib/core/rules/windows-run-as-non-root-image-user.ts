/**
 * windows-run-as-non-root-image-user: on Windows the kubelet judges runAsNonRoot by runAsUserName, else by the
 * image's user: ContainerAdministrator is refused, an image without a user runs unchecked
 * (pkg/kubelet/kuberuntime/security_context_windows.go `verifyRunAsNonRoot`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/security_context_windows.go;
 * kubernetes/kubernetes#112469). Server Core images leave their config's User unset and run as ContainerAdministrator
 * (https://github.com/kubernetes/kubernetes/issues/112469#issuecomment-1307784766), so runAsNonRoot without
 * runAsUserName is not enforced on them; an image built with USER ContainerAdministrator is refused.
 */
import {
  isServerCoreImage,
  parseImageReference,
  SERVER_CORE_REGISTRY,
  SERVER_CORE_REPOSITORY,
  SERVER_CORE_TAG,
} from '../images';
import { windowsImageUser } from '../model/image-facts';
import { join, rec } from '../model/util';
import { defineRule } from './rule';
import { celImageRefs, celOr, celPresent, IMAGE_REF, NON_HOST_PROCESS_CONTAINERS, re2, SPEC } from './cel-parts';
import { celString } from './cel';

const NON_ROOT = ['securityContext', 'runAsNonRoot'] as const;
const USER = ['securityContext', 'windowsOptions', 'runAsUserName'] as const;

export default defineRule({
  meta: {
    id: 'windows-run-as-non-root-image-user',
    family: 'windows-options',
    defaultSeverity: 'warning',
    summary: 'runAsNonRoot: true without runAsUserName on a Server Core based image (IIS, ASP.NET, .NET Framework).',
    rationale:
      "Without runAsUserName the kubelet checks the image config's user: ContainerAdministrator is refused (CreateContainerConfigError), and an image that names none, as Server Core images do, runs as ContainerAdministrator unchecked.",
    docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/',
    severityReason:
      "Either the kubelet refuses the container or runAsNonRoot is silently not enforced; which one depends on the image's config, which the manifest does not show.",
    cases: [
      {
        name: 'image-admin',
        severity: 'error',
        when: 'With --resolve-images, the image config says User: ContainerAdministrator: the kubelet refuses the container.',
      },
    ],
  },
  messages: {
    'image-admin': {
      description: 'The image config names ContainerAdministrator, so the kubelet refuses the container.',
      message:
        '{path2} runs \'{image}\', whose image user is ContainerAdministrator, with runAsNonRoot: true and no runAsUserName: the kubelet refuses the container (CreateContainerConfigError: "will break non-root policy").',
      fix: 'Set securityContext.windowsOptions.runAsUserName: ContainerUser, or drop runAsNonRoot.',
    },
    'image-no-user': {
      description: 'The image config names no user, so runAsNonRoot is not enforced.',
      message:
        "{path2} runs '{image}', whose image names no user, with runAsNonRoot: true and no runAsUserName: the kubelet lets it run, as the base image's default user (ContainerAdministrator on Server Core), so runAsNonRoot is not enforced.",
      fix: 'Set securityContext.windowsOptions.runAsUserName: ContainerUser, so the non-root choice is explicit and checked.',
    },
    'server-core': {
      description: 'A Server Core based image, judged by its name without its config.',
      message:
        "{path2} runs '{image}', a Server Core based image that runs as ContainerAdministrator, with runAsNonRoot: true and no runAsUserName: the kubelet runs it as ContainerAdministrator unchecked when the image config names no user (as Server Core's does), and refuses it (CreateContainerConfigError) when the image sets USER ContainerAdministrator.",
      fix: 'Set securityContext.windowsOptions.runAsUserName: ContainerUser (IIS and ASP.NET need their app pool identity to have access; test it), or drop runAsNonRoot.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows) return;
      const podSc = rec(p.spec, 'securityContext');
      for (const c of p.containers) {
        if (c.hostProcess || typeof c.c.image !== 'string') continue;
        const sc = rec(c.c, 'securityContext');
        const nonRoot = sc?.runAsNonRoot ?? podSc?.runAsNonRoot;
        if (nonRoot !== true) continue;
        const named = rec(sc, 'windowsOptions')?.runAsUserName ?? rec(podSc, 'windowsOptions')?.runAsUserName;
        if (named !== undefined && named !== null) continue;
        const path = join(c.path, 'securityContext.windowsOptions.runAsUserName');
        const lookup = options.images?.[c.c.image];
        const user = lookup?.status === 'found' ? windowsImageUser(lookup.facts) : undefined;
        // The registry's word on the image user, where it was asked: refused, run unchecked, or fine.
        if (user !== undefined) {
          if (user === 'ContainerAdministrator') {
            report({ path, messageId: 'image-admin', data: { path2: c.path, image: c.c.image }, case: 'image-admin' });
          } else if (user === '') {
            report({ path, messageId: 'image-no-user', data: { path2: c.path, image: c.c.image } });
          }
          continue;
        }
        const ref = parseImageReference(c.c.image);
        if (!ref || !isServerCoreImage(ref)) continue;
        report({ path, messageId: 'server-core', data: { path2: c.path, image: c.c.image } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The non-HostProcess containers on a Server Core based image with runAsNonRoot and no runAsUserName.
        name: 'wrni_found',
        expression: `${celImageRefs(`${NON_HOST_PROCESS_CONTAINERS}.filter(c, ${celOr(celOr('false', SPEC, ...NON_ROOT), 'c', ...NON_ROOT)} && !(${celPresent('c', ...USER)} || ${celPresent(SPEC, ...USER)}))`, [], { build: false })}.filter(r, (r[${IMAGE_REF.registry}] == ${celString(SERVER_CORE_REGISTRY)} && r[${IMAGE_REF.repository}].matches(${celString(re2(SERVER_CORE_REPOSITORY))})) || r[${IMAGE_REF.tag}].matches(${celString(re2(SERVER_CORE_TAG))}))`,
      },
    ],
    validations: [
      {
        expression: '!variables.windows || size(variables.wrni_found) == 0',
        messageExpression: `'windows-run-as-non-root-image-user: ' + variables.wrni_found.map(r, "container '" + r[${IMAGE_REF.name}] + "' runs '" + r[${IMAGE_REF.image}] + "'").join(', ') + ', a Server Core based image that runs as ContainerAdministrator, with runAsNonRoot: true and no runAsUserName: the kubelet runs it as ContainerAdministrator unchecked when the image config names no user (as Server Core\\'s does), and refuses it (CreateContainerConfigError) when the image sets USER ContainerAdministrator. Set securityContext.windowsOptions.runAsUserName: ContainerUser (IIS and ASP.NET need their app pool identity to have access; test it), or drop runAsNonRoot.'`,
      },
    ],
    limits:
      "What the registry says of the image's user (--resolve-images: refused as ContainerAdministrator, the image-admin error, or run unchecked for any image) is lint's: the policy knows Server Core based images by name.",
  }),
});
