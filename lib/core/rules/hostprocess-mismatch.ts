/**
 * hostprocess-mismatch: the API server requires a container's windowsOptions.hostProcess to equal the pod's when
 * both are set (kube-apiserver validation.go `validateWindowsHostProcessPod`, checked for every pod whatever its OS,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { join, rec, show } from '../model/util';
import { HOST_PROCESS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'hostprocess-mismatch',
    family: 'host-process',
    defaultSeverity: 'error',
    summary: "A container's windowsOptions.hostProcess differs from the pod's.",
    rationale: 'The API server requires the pod and container values to be identical when both are set.',
    docs: HOST_PROCESS,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    mismatch: { description: "A container's hostProcess setting differs from the pod's." },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      const podValue = rec(rec(p.spec, 'securityContext'), 'windowsOptions')?.hostProcess;
      if (typeof podValue !== 'boolean') return;
      for (const c of p.containers) {
        const own = rec(rec(c.c, 'securityContext'), 'windowsOptions')?.hostProcess;
        if (typeof own !== 'boolean' || own === podValue) continue;
        const path = join(c.path, 'securityContext.windowsOptions.hostProcess');
        report(
          path,
          `${path} ${show(own)}: Invalid value: pod hostProcess value must be identical if both are specified, was ${podValue}.`,
          `Remove the container's hostProcess (it inherits the pod's ${podValue}), or set it to ${podValue}.`,
          undefined,
          'mismatch',
        );
      }
    },
  },
});
