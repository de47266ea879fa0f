/**
 * One `fix` run does what two would: a fix that makes a pod's Windows evidence certain (`os.name: Windows`, which
 * the API server refuses, becomes `windows`) is followed in the same run by the fixes a Windows pod needs
 * (forbidden fields removed, the OS selector, the cloud's toleration, the build pin).
 */
import { fixManifests } from 'k8s-windows';

const pod = (osName: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec:
  template:
    spec:
      os:
        name: ${osName}
      securityContext:
        runAsUser: 1000
      containers:
      - name: c
        image: registry.example.com/app:1.0
        securityContext: {privileged: true}
`;

describe('fix settles in one run', () => {
  it.each([['Windows'], ['WINDOWS'], ['"Windows"']])('os.name: %s', (osName) => {
    const options = { cloud: 'gke', windowsRelease: '2022' } as const;
    const once = fixManifests(pod(osName), options);
    expect(once.changes.map((c) => `${c.ruleId} ${c.path}`)).toEqual([
      'windows-os-name spec.template.spec.os.name',
      'windows-forbidden-field spec.template.spec.securityContext.runAsUser',
      'windows-forbidden-field spec.template.spec.containers[0].securityContext.privileged',
      'windows-node-selector-missing spec.template.spec.nodeSelector[kubernetes.io/os]',
      'windows-toleration-missing spec.template.spec.tolerations',
      'image-build-unpinned spec.template.spec.nodeSelector[node.kubernetes.io/windows-build]',
    ]);
    expect(once.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const twice = fixManifests(once.text, options);
    expect(twice.changes).toEqual([]);
    expect(twice.text).toBe(once.text);
  });
});
