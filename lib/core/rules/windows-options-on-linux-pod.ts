/**
 * windows-options-on-linux-pod: a pod with `spec.os.name: linux` may not carry windowsOptions at pod or container
 * level, not even `{}` (kube-apiserver validation.go `validateLinux`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { has, join, own, rec, show } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerName, celPresent, SPEC } from './cel-parts';

export default defineRule({
  meta: {
    id: 'windows-options-on-linux-pod',
    family: 'api-server',
    defaultSeverity: 'error',
    summary: 'windowsOptions set on a pod with spec.os.name: linux.',
    rationale: 'The API server rejects windowsOptions at pod or container level on Linux pods, even `{}`.',
    docs: K8S_WINDOWS_GUIDE,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    'windows-options': {
      description: 'windowsOptions on a pod with spec.os.name: linux.',
      message: '{path} {sc}: Forbidden: windows options cannot be set for a linux pod.',
      fix: 'Remove windowsOptions, or set spec.os.name: windows if this is a Windows pod.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (p.declaredOs !== 'linux') return;
      // Any value counts, `{}` and null included: the API server checks that the field is set.
      const places: [unknown, string][] = [[rec(p.spec, 'securityContext'), p.path]];
      for (const c of p.containers) places.push([rec(c.c, 'securityContext'), c.path]);
      for (const [sc, base] of places) {
        if (!has(sc, 'windowsOptions')) continue;
        const path = join(base, 'securityContext.windowsOptions');
        report({ path, messageId: 'windows-options', data: { sc: show(own(sc, 'windowsOptions')) } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Where windowsOptions is set: the pod, then each container by name.
        name: 'wolp_places',
        expression: `(${celPresent(SPEC, 'securityContext', 'windowsOptions')} ? ['pod securityContext.windowsOptions'] : []) + variables.containers.filter(c, ${celPresent('c', 'securityContext', 'windowsOptions')}).map(c, ${celContainerName('c')} + ' securityContext.windowsOptions')`,
      },
    ],
    validations: [
      {
        expression: `variables.declaredOs != 'linux' || size(variables.wolp_places) == 0`,
        messageExpression: `'windows-options-on-linux-pod: ' + variables.wolp_places.join(', ') + ': Forbidden: windows options cannot be set for a linux pod. Remove windowsOptions, or set spec.os.name: windows if this is a Windows pod.'`,
      },
    ],
  }),
});
