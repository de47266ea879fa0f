/**
 * windows-run-as-non-root-image-user: on Windows the kubelet judges runAsNonRoot by runAsUserName, else by the
 * image's user: ContainerAdministrator is refused, an image without a user runs unchecked
 * (pkg/kubelet/kuberuntime/security_context_windows.go `verifyRunAsNonRoot`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/security_context_windows.go;
 * kubernetes/kubernetes#112469). Server Core based images run as ContainerAdministrator, so runAsNonRoot without
 * runAsUserName either stops the container or is not enforced.
 */
import { isServerCoreImage, parseImageReference } from '../images';
import { join, rec } from '../validate/util';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-run-as-non-root-image-user',
    family: 'windows-options',
    defaultSeverity: 'warning',
    summary: 'runAsNonRoot: true without runAsUserName on a Server Core based image (IIS, ASP.NET, .NET Framework).',
    rationale:
      "Without runAsUserName the kubelet checks the image's user: a Server Core image's ContainerAdministrator is refused (CreateContainerConfigError), and an image that names no user runs as ContainerAdministrator unchecked.",
    docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/',
    severityReason:
      "Either the kubelet refuses the container or runAsNonRoot is silently not enforced; which one depends on the image's config, which the manifest does not show.",
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      const podSc = rec(p.spec, 'securityContext');
      for (const c of p.containers) {
        if (c.hostProcess || typeof c.c.image !== 'string') continue;
        const sc = rec(c.c, 'securityContext');
        const nonRoot = sc?.runAsNonRoot ?? podSc?.runAsNonRoot;
        if (nonRoot !== true) continue;
        const user = rec(sc, 'windowsOptions')?.runAsUserName ?? rec(podSc, 'windowsOptions')?.runAsUserName;
        if (user !== undefined && user !== null) continue;
        const ref = parseImageReference(c.c.image);
        if (!ref || !isServerCoreImage(ref)) continue;
        const path = join(c.path, 'securityContext.windowsOptions.runAsUserName');
        report(
          path,
          `${c.path} runs '${c.c.image}', a Server Core based image whose user is ContainerAdministrator, with runAsNonRoot: true and no runAsUserName: the kubelet refuses the container (CreateContainerConfigError), or runs it as ContainerAdministrator unchecked when the image names no user.`,
          'Set securityContext.windowsOptions.runAsUserName: ContainerUser (IIS and ASP.NET need their app pool identity to have access; test it), or drop runAsNonRoot.',
        );
      }
    },
  },
});
