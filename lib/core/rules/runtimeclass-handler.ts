/**
 * runtimeclass-handler: containerd on Windows runs pods through the `runhcs-wcow-process` and
 * `runhcs-wcow-hypervisor` handlers; any other handler fails sandbox creation
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#runtimeclass; the handler names are containerd's default
 * Windows runtimes, internal/cri/config/config_windows.go: CONTAINERD_WINDOWS_HANDLER_FACT in
 * lib/core/facts/node-runtime.ts).
 */
import { OS_LABEL } from '../kube';
import { isWindowsRuntimeHandler, WINDOWS_RUNTIME_HANDLER_PREFIX, WINDOWS_RUNTIME_HANDLERS } from '../releases';
import { celString, celStringList } from './cel';
import { rec, show, str, stringMap } from '../model/util';
import { RUNTIME_CLASS } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'runtimeclass-handler',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary: 'A Windows RuntimeClass whose handler is not runhcs-wcow-process or runhcs-wcow-hypervisor.',
    rationale:
      'containerd on Windows runs pods through the runhcs-wcow-* handlers; any other handler fails sandbox creation.',
    docs: RUNTIME_CLASS,
    severityReason: 'Every pod of the class fails sandbox creation.',
  },
  messages: {
    'unknown-handler': {
      description: 'A Windows RuntimeClass handler that is neither runhcs-wcow-process nor runhcs-wcow-hypervisor.',
      message:
        "handler {handler} is not a containerd Windows handler: pods of RuntimeClass '{obj}' fail to create their sandbox.",
      fix: "Use handler '{process}' (process isolation) or '{hyperv}' (Hyper-V isolation, experimental upstream).",
    },
  },
  check: {
    scope: 'object',
    kinds: ['RuntimeClass'],
    run(obj, _context, report) {
      const handler = obj.handler;
      const selector = stringMap(rec(obj, 'scheduling'), 'nodeSelector');
      if (selector[OS_LABEL] !== 'windows' && !isWindowsRuntimeHandler(handler)) return;
      const handlers = Object.values(WINDOWS_RUNTIME_HANDLERS);
      if (typeof handler === 'string' && handlers.some((h) => handler.startsWith(h))) return;
      report({
        path: 'handler',
        messageId: 'unknown-handler',
        data: {
          handler: show(handler),
          obj: str(rec(obj, 'metadata'), 'name') ?? '',
          process: WINDOWS_RUNTIME_HANDLERS.process,
          hyperv: WINDOWS_RUNTIME_HANDLERS.hyperv,
        },
      });
    },
  },
  cel: () => ({
    scope: 'runtimeclass',
    validations: [
      {
        expression: `!((has(object.scheduling) && has(object.scheduling.nodeSelector) && ${celString(OS_LABEL)} in object.scheduling.nodeSelector && object.scheduling.nodeSelector[${celString(OS_LABEL)}] == 'windows') || object.handler.startsWith(${celString(WINDOWS_RUNTIME_HANDLER_PREFIX)})) || ${celStringList(Object.values(WINDOWS_RUNTIME_HANDLERS))}.exists(h, object.handler.startsWith(h))`,
        messageExpression: `'runtimeclass-handler: handler "' + object.handler + '" is not a containerd Windows handler: pods of RuntimeClass \\'' + object.metadata.name + '\\' fail to create their sandbox. Use handler \\'${WINDOWS_RUNTIME_HANDLERS.process}\\' (process isolation) or \\'${WINDOWS_RUNTIME_HANDLERS.hyperv}\\' (Hyper-V isolation, experimental upstream).'`,
      },
    ],
  }),
});
