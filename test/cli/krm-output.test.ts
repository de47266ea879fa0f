/**
 * `fix --krm` gives the ResourceList back as fix writes any manifest: its own bytes (comments, flow collections)
 * but the fixed lines, with the results appended as its last key; a list that already holds results (an earlier
 * function's) has them replaced.
 */
import { parse } from 'yaml';
import { cli } from '../helpers/cli';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
# the function's options
functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: fn}, data: {cloud: gke}}
items:
- apiVersion: v1
  kind: ConfigMap   # untouched
  metadata: {name: cfg}
- apiVersion: v1
  kind: Pod
  metadata: {name: web}
  spec:
    os: {name: windows}
    nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}
    tolerations: [{key: node.kubernetes.io/os, operator: Equal, value: windows, effect: NoSchedule}]
    containers: [{name: c, image: '${IIS}', securityContext: {runAsUser: 1000}}]
`;

describe('fix --krm output', () => {
  it('keeps the bytes of the list, changes the fixed line and appends the results', async () => {
    const r = await cli(['fix', '--krm'], { stdin: LIST });
    expect(r.code).toBe(0);
    const [body, results] = r.stdout.split(/^results:\n/m);
    expect(body).toBe(LIST.replace(', securityContext: {runAsUser: 1000}}]', '}]'));
    expect(parse(`results:\n${results}`).results[0]).toEqual({
      message:
        'fixed: removed spec.containers[0].securityContext.runAsUser 1000: Linux-only, the API server forbids it on Windows pods (windows-forbidden-field).',
      severity: 'info',
      resourceRef: { apiVersion: 'v1', kind: 'Pod', name: 'web' },
      field: { path: 'spec.containers[0].securityContext.runAsUser' },
    });
  });

  it("replaces an earlier function's results", async () => {
    const r = await cli(['fix', '--krm'], { stdin: `${LIST}results: [{message: old, severity: info}]\n` });
    expect(r.code).toBe(0);
    const out = parse(r.stdout) as { results: { message: string }[] };
    expect(out.results.map((x) => x.message)).not.toContain('old');
    expect(out.results.length).toBeGreaterThan(0);
  });
});
