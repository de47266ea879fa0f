/**
 * Issue 33: a Pod that names a RuntimeClass pinning a retired build. The RuntimeClass admission plugin merges the
 * RuntimeClass's nodeSelector into the Pod before the policies run, so the API server judges a Pod whose selector
 * the user never wrote: the policy's message names the RuntimeClass, and lint reports the Pod too, naming it.
 */
import { validateManifests } from 'k8s-windows';
import { generatePolicies } from '../../../lib/core/policies';
import { evaluatePolicies } from '../../helpers/vap-eval';

const RUNTIME_CLASS = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'windows-2016' },
  handler: 'runhcs-wcow-process',
  scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.14393' } },
};
const container = { name: 'web', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' };
const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { os: { name: 'windows' }, runtimeClassName: 'windows-2016', containers: [container] },
};
/** The Pod as the RuntimeClass admission plugin hands it to the policies: the RuntimeClass's selector merged in. */
const ADMITTED = { ...POD, spec: { ...POD.spec, nodeSelector: RUNTIME_CLASS.scheduling.nodeSelector } };

const SUPPORTED =
  "'10.0.17763' (Windows Server 2019), '10.0.20348' (Windows Server 2022), '10.0.26100' (Windows Server 2025)";

describe('lint', () => {
  test('reports the RuntimeClass and the Pod that names it, the Pod finding naming the RuntimeClass', () => {
    const found = validateManifests([RUNTIME_CLASS, POD]).filter((d) => d.ruleId === 'windows-build-retired');
    expect(found.map((d) => [d.resource.kind, d.severity, d.path, d.message, d.fix])).toEqual([
      [
        'RuntimeClass',
        'error',
        'scheduling.nodeSelector[node.kubernetes.io/windows-build]',
        "RuntimeClass 'windows-2016' pins node.kubernetes.io/windows-build=10.0.14393, Windows Server 2016, which no supported node runs: every pod of this class stays Pending.",
        `Pin a supported build: ${SUPPORTED}.`,
      ],
      [
        'Pod',
        'error',
        'spec.runtimeClassName',
        "This pod names RuntimeClass 'windows-2016' (node.kubernetes.io/windows-build=10.0.14393), which pins Windows Server 2016, a build no supported node runs: the RuntimeClass admission plugin adds that nodeSelector to the pod, so it stays Pending.",
        `Pin a supported build in RuntimeClass 'windows-2016' (its scheduling.nodeSelector): ${SUPPORTED}, with images of the same release; or name a RuntimeClass that pins one.`,
      ],
    ]);
  });

  test('a pod whose own nodeSelector pins the retired build is told of its nodeSelector, as before', () => {
    const found = validateManifests([RUNTIME_CLASS, ADMITTED]).filter(
      (d) => d.ruleId === 'windows-build-retired' && d.resource.kind === 'Pod',
    );
    expect(found.map((d) => [d.path, d.message])).toEqual([
      [
        'spec.nodeSelector[node.kubernetes.io/windows-build]',
        'This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.14393, Windows Server 2016, which no supported node runs: no node carries this label, so the pod stays Pending.',
      ],
    ]);
  });

  test('a RuntimeClass pinning a supported build gives its pods nothing to report', () => {
    const rc = {
      ...RUNTIME_CLASS,
      metadata: { name: 'windows-2022' },
      scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' } },
    };
    const pod = { ...POD, spec: { ...POD.spec, runtimeClassName: 'windows-2022' } };
    expect(validateManifests([rc, pod]).filter((d) => d.ruleId === 'windows-build-retired')).toEqual([]);
  });
});

describe('the policy', () => {
  const objects = generatePolicies({}).objects;

  test('names the RuntimeClass on a Pod whose selector the RuntimeClass admission plugin merged in', () => {
    expect(evaluatePolicies(objects, ADMITTED).violations.filter((v) => v.ruleId === 'windows-build-retired')).toEqual([
      {
        ruleId: 'windows-build-retired',
        message: `windows-build-retired: This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.14393 (written in the pod, or merged in from RuntimeClass 'windows-2016' by the RuntimeClass admission plugin), Windows Server 2016, which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${SUPPORTED}, with images of the same release, in RuntimeClass 'windows-2016' (its scheduling.nodeSelector) if the pin came from there.`,
        policy: 'k8s-windows-pod-deny',
        actions: ['Deny'],
      },
    ]);
  });

  test('says nothing of a RuntimeClass on a Pod that names none, nor on a template (the plugin merges into Pods only)', () => {
    const plain = { ...ADMITTED, spec: { ...ADMITTED.spec, runtimeClassName: undefined } };
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: ADMITTED.spec },
      },
    };
    const messages = [plain, deployment].map(
      (o) => evaluatePolicies(objects, o).violations.find((v) => v.ruleId === 'windows-build-retired')?.message,
    );
    expect(messages).toEqual([
      `windows-build-retired: This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.14393, Windows Server 2016, which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${SUPPORTED}, with images of the same release.`,
      `windows-build-retired: This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.14393, Windows Server 2016, which no supported node runs: no node carries this label, so the pod stays Pending. Pin a supported build: ${SUPPORTED}, with images of the same release.`,
    ]);
  });
});
