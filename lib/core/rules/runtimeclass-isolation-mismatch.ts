/**
 * runtimeclass-isolation-mismatch: users pick a RuntimeClass by its name (`runhcs-wcow-hypervisor`, `windows-hyperv`);
 * containerd runs its pods with the isolation of the handler it names, `runhcs-wcow-process` (process isolation) or
 * `runhcs-wcow-hypervisor` (Hyper-V isolation, `SandboxIsolation: 1`), as containerd's default Windows config defines
 * them (lib/core/facts/node-runtime.ts). A name that says one isolation over a handler of the other gives every pod
 * that chose it by name the isolation it did not ask for.
 */
import { CONTAINERD_WINDOWS_HANDLER_FACT } from '../facts/node-runtime';
import { rec, str } from '../model/util';
import { RUNTIME_CLASS } from './docs';
import { defineRule } from './rule';

type Isolation = 'process' | 'hyperv';

const WORDS: Readonly<Record<Isolation, string>> = { process: 'process isolation', hyperv: 'Hyper-V isolation' };

/** The isolation a RuntimeClass name says, read token by token: `hypervisor`, `hyperv`, `hyper-v`; `process`. */
function isolationInName(name: string): Isolation | undefined {
  const lower = name.toLowerCase();
  const hyperv = /(?:^|[-_.])(?:hypervisor|hyperv|hyper-v)(?:$|[-_.])/.test(lower);
  const process = /(?:^|[-_.])process(?:$|[-_.])/.test(lower);
  if (hyperv === process) return undefined;
  return hyperv ? 'hyperv' : 'process';
}

/** The isolation containerd's default Windows config runs a handler with, for its two default handlers. */
function isolationOfHandler(handler: unknown): Isolation | undefined {
  const { handlers } = CONTAINERD_WINDOWS_HANDLER_FACT;
  if (handler === handlers.process) return 'process';
  if (handler === handlers.hyperv) return 'hyperv';
  return undefined;
}

export default defineRule({
  meta: {
    id: 'runtimeclass-isolation-mismatch',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary:
      'A RuntimeClass whose name says one isolation (hypervisor, hyperv, process) while its handler runs the other.',
    rationale:
      "Users pick the RuntimeClass by its name; containerd runs its pods with the handler's isolation: pods that ask for Hyper-V isolation run process-isolated, where an image of another Windows build than the node's fails to start.",
    docs: RUNTIME_CLASS,
    severityReason:
      'Pods get another isolation than the RuntimeClass name promises: process-isolated pods fail on an image of another build, Hyper-V ones each run in a utility VM the user did not plan for.',
  },
  messages: {
    'isolation-mismatch': {
      description: "A RuntimeClass named for one isolation whose handler is containerd's handler for the other.",
      message:
        "RuntimeClass '{name}' says {value} but its handler '{handler}' runs pods with {value2}: pods that choose it by name get {value2}, and {consequence}.",
      fix: "Set handler '{value3}' for {value}, or rename the RuntimeClass to say {value2}.",
    },
  },
  check: {
    scope: 'object',
    kinds: ['RuntimeClass'],
    run(obj, _context, report) {
      const name = str(rec(obj, 'metadata'), 'name') ?? '';
      const named = isolationInName(name);
      const handled = isolationOfHandler(obj.handler);
      if (named === undefined || handled === undefined || named === handled) return;
      const { handlers } = CONTAINERD_WINDOWS_HANDLER_FACT;
      const consequence =
        handled === 'process'
          ? 'an image of another Windows build than the node\'s fails with "the container operating system does not match the host operating system"'
          : "each runs in its own Hyper-V utility VM instead of on the node's kernel";
      report({
        path: 'handler',
        messageId: 'isolation-mismatch',
        data: {
          name,
          value: WORDS[named],
          handler: String(obj.handler),
          value2: WORDS[handled],
          consequence,
          value3: handlers[named],
        },
      });
    },
  },
});
