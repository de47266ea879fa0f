/**
 * windows-linux-mount-path: a Windows container's paths are C:\...; a Linux path is mounted at C:\var\... which
 * the app may not read (https://kubernetes.io/docs/concepts/storage/windows-storage/). Kubernetes itself mounts the
 * service account token at /var/run/secrets, which becomes C:\var\run\secrets
 * (https://kubernetes.io/docs/concepts/windows/intro/).
 */
import { podMounts } from '../model/pod-volumes';
import { join } from '../model/util';
import { STORAGE } from './docs';
import { defineRule } from './rule';

/** Linux system directories a Windows container does not have. */
const LINUX_PATH = /^\/(?:var|etc|proc|sys|dev|run)(?:\/|$)/;
const TOKEN_PATH = /^\/var\/run\/secrets(?:\/|$)/;

export default defineRule({
  meta: {
    id: 'windows-linux-mount-path',
    family: 'pod-features',
    defaultSeverity: 'info',
    summary: 'A Linux mount path (/var, /etc, /proc, /sys, /dev, /run, /tmp) in a Windows container.',
    rationale: 'Windows paths are C:\\...; a Linux path becomes C:\\var\\... which the Windows app does not read.',
    docs: STORAGE,
    severityReason: 'The mount works at C:\\...; only the app knows whether it reads that path.',
  },
  messages: {
    'linux-path': {
      description: 'A Linux mount path in a Windows container.',
      message:
        "{path} '{mountPath}' is a Linux path: in a Windows container it is mounted at C:{value}; that is right only if the app reads that path.",
      fix: "If the app expects a Windows location, mount at a Windows path, e.g. 'C:\\data' or 'C:/data'.",
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { m, path: base } of podMounts(p)) {
        const mountPath = m.mountPath;
        if (typeof mountPath !== 'string' || !LINUX_PATH.test(mountPath) || TOKEN_PATH.test(mountPath)) continue;
        const path = join(base, 'mountPath');
        report({ path, messageId: 'linux-path', data: { mountPath, value: mountPath.replace(/\//g, '\\') } });
      }
    },
  },
});
