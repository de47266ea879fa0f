/**
 * Lints the manifests of the seed documents (test/fixtures/seeds, extracted from /work/shared/reference/seeds) and
 * expects what a Windows expert would point out in each.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { validateManifests, type ValidateOptions } from 'k8s-windows';
import { loadManifestsWithErrors } from '../../../lib/core/yaml';

const DIR = join(__dirname, '..', '..', 'fixtures', 'seeds');

function lint(file: string, options?: ValidateOptions): { findings: string[]; errors: number } {
  const { objects, errors } = loadManifestsWithErrors(readFileSync(join(DIR, file), 'utf8'), file);
  const findings = validateManifests(objects, options).map(
    (d) => `${d.severity} ${d.ruleId} ${d.resource.kind}/${d.resource.name} ${d.path}`,
  );
  return { findings, errors: errors.length };
}

describe('seed manifests', () => {
  test('000 Windows worker nodes: the gMSA credspec sits under spec with placeholder values', () => {
    const { findings, errors } = lint('000-windows-worker-nodes.yaml');
    expect(errors).toBe(0);
    expect(findings).toEqual([
      'info windows-os-unset Pod/hyperv-app spec.os',
      'info windows-toleration-missing Pod/hyperv-app spec.tolerations',
      'info windows-startup-probe Pod/hyperv-app spec.containers[0].startupProbe',
      'info windows-os-unset DaemonSet/windows-node-agent spec.template.spec.os',
      'error gmsa-credspec-location GMSACredentialSpec/webapp-gmsa spec.credspec',
      'error gmsa-credspec-format GMSACredentialSpec/webapp-gmsa spec.credspec.CmsPlugins',
      'error gmsa-credspec-format GMSACredentialSpec/webapp-gmsa spec.credspec.DomainJoinConfig.Sid',
      'error gmsa-credspec-format GMSACredentialSpec/webapp-gmsa spec.credspec.DomainJoinConfig.Guid',
      'warning gmsa-credspec-accounts GMSACredentialSpec/webapp-gmsa spec.credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts',
      'info windows-os-unset Pod/webapp spec.os',
      'info gmsa-rbac-missing Pod/webapp spec.securityContext.windowsOptions.gmsaCredentialSpecName',
      'info windows-toleration-missing Pod/webapp spec.tolerations',
      'warning image-build-unpinned Pod/webapp spec.nodeSelector',
      'info windows-startup-probe Pod/webapp spec.containers[0].startupProbe',
    ]);
  });

  test('001 Running Windows workloads: memory request below limit, a floating tag', () => {
    expect(lint('001-running-windows-workloads.yaml')).toEqual({
      errors: 0,
      findings: [
        'info windows-os-unset Deployment/iis-app spec.template.spec.os',
        'info windows-toleration-missing Deployment/iis-app spec.template.spec.tolerations',
        'warning image-build-unpinned Deployment/iis-app spec.template.spec.nodeSelector',
        'info windows-memory-request-limit Deployment/iis-app spec.template.spec.containers[0].resources.requests.memory',
        'info windows-startup-probe Deployment/iis-app spec.template.spec.containers[0].startupProbe',
        'info windows-os-unset Deployment/dotnet-api spec.template.spec.os',
        'info image-floating-tag Deployment/dotnet-api spec.template.spec.containers[0].image',
      ],
    });
  });

  test('002 Windows guide: RuntimeClass windows-2019 pinned to the 2022 build, with a placeholder handler', () => {
    const { findings, errors } = lint('002-windows-containers-guide.yaml');
    expect(errors).toBe(0);
    expect(findings).toEqual([
      'info windows-os-unset Deployment/win-webserver spec.template.spec.os',
      'info windows-toleration-missing Deployment/win-webserver spec.template.spec.tolerations',
      'warning image-build-unpinned Deployment/win-webserver spec.template.spec.nodeSelector',
      'info windows-startup-probe Deployment/win-webserver spec.template.spec.containers[0].startupProbe',
      'error runtimeclass-handler RuntimeClass/windows-2019 handler',
      'warning runtimeclass-release-mismatch RuntimeClass/windows-2019 scheduling.nodeSelector[node.kubernetes.io/windows-build]',
      'info windows-os-unset Deployment/iis-2019 spec.template.spec.os',
      'error image-build-mismatch Deployment/iis-2019 spec.template.spec.containers[0].image',
      'info windows-memory-request-limit Deployment/iis-2019 spec.template.spec.containers[0].resources.requests.memory',
      'info windows-startup-probe Deployment/iis-2019 spec.template.spec.containers[0].startupProbe',
    ]);
  });

  test('002 on Kubernetes 1.33: the ltsc2019 web server needs Windows Server 2019 nodes', () => {
    expect(lint('002-windows-containers-guide.yaml', { kubernetesVersion: '1.33' }).findings).toContain(
      'warning windows-release-support Deployment/win-webserver spec.template.spec.containers[0].image',
    );
  });

  test('003 legacy guide: the dockershim handler, and a malformed document that does not hide the rest', () => {
    expect(lint('003-windows-guide-legacy.yaml')).toEqual({
      errors: 1,
      findings: [
        'info windows-os-unset Deployment/win-webserver spec.template.spec.os',
        'info windows-toleration-missing Deployment/win-webserver spec.template.spec.tolerations',
        'warning image-build-unpinned Deployment/win-webserver spec.template.spec.nodeSelector',
        'info windows-startup-probe Deployment/win-webserver spec.template.spec.containers[0].startupProbe',
        'error runtimeclass-handler RuntimeClass/windows-2019 handler',
      ],
    });
  });
});
