/**
 * Pods inside custom resources (issue 34): Argo Rollouts, KEDA ScaledJob, OpenShift DeploymentConfig, Knative
 * Serving and Argo Workflows are judged as workloads are, with findings at the path the resource writes each field;
 * `podTemplates` names other kinds; `fix` edits the pod templates it can and says why it leaves the others.
 */
import { WindowsValidationError } from '../../../lib/core/errors';
import { fixManifests } from '../../../lib/core/fix';
import { locatePods, readPodTemplateKinds } from '../../../lib/core/pod-templates';
import { loadManifests, validateManifests } from '../../../lib/core/validate';
import type { Diagnostic, ValidateOptions } from '../../../lib/core/model/types';
import type { ValidationIssue } from '../../../lib/core/errors';

/** A Windows pod that lacks nothing: its OS, selector, build pin and toleration, an image naming its build. */
const GOOD_POD = `os: { name: windows }
nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348 }
tolerations: [{ key: os, operator: Equal, value: windows, effect: NoSchedule }]
containers:
  - name: app
    image: example.com/app:1.0-ltsc2022`;

/** A Windows pod (by its image) that selects no Windows node and sets a field the API server forbids on Windows. */
const BAD_POD = `containers:
  - name: app
    image: example.com/app:1.0-ltsc2022
    securityContext: { runAsUser: 1000 }`;

const indent = (text: string, n: number) =>
  text
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');

function lint(text: string, options: ValidateOptions = {}): Diagnostic[] {
  return validateManifests(loadManifests(text, 'in.yaml'), options);
}

const found = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.ruleId} ${d.path}`);

/** Each well-known kind with one pod template, with the pod written at its place. */
const ONE_TEMPLATE: readonly { name: string; doc: (pod: string) => string; prefix: string }[] = [
  {
    name: 'Argo Rollout',
    prefix: 'spec.template.spec',
    doc: (pod) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: { name: web }\nspec:\n  template:\n    spec:\n${indent(pod, 6)}\n`,
  },
  {
    name: 'KEDA ScaledJob',
    prefix: 'spec.jobTargetRef.template.spec',
    doc: (pod) =>
      `apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nmetadata: { name: agent }\nspec:\n  jobTargetRef:\n    template:\n      spec:\n${indent(pod, 8)}\n`,
  },
  {
    name: 'OpenShift DeploymentConfig',
    prefix: 'spec.template.spec',
    doc: (pod) =>
      `apiVersion: apps.openshift.io/v1\nkind: DeploymentConfig\nmetadata: { name: web }\nspec:\n  template:\n    spec:\n${indent(pod, 6)}\n`,
  },
];

describe.each(ONE_TEMPLATE)('$name', ({ doc, prefix }) => {
  test('a Windows pod template that selects no Windows node, with a Linux-only field: found at its paths', () => {
    const ds = lint(doc(BAD_POD));
    expect(found(ds)).toEqual(
      expect.arrayContaining([
        `windows-node-selector-missing ${prefix}.nodeSelector`,
        `windows-toleration-missing ${prefix}.tolerations`,
        `windows-os-unset ${prefix}.os`,
        `windows-linux-only-field ${prefix}.containers[0].securityContext.runAsUser`,
      ]),
    );
    // Line and column lookup finds the real place: the field is in the text.
    const runAsUser = ds.find((d) => d.ruleId === 'windows-linux-only-field');
    expect(runAsUser?.location?.position).toBeDefined();
    expect(doc(BAD_POD).split('\n')[(runAsUser?.location?.position?.line ?? 0) - 1]).toContain('runAsUser: 1000');
  });

  test('a Windows pod template that lacks nothing: no finding', () => {
    expect(lint(doc(GOOD_POD))).toEqual([]);
  });

  test('fix writes the pod template at its own paths, and the output lints clean of what it fixed', () => {
    const result = fixManifests(doc(BAD_POD), { tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] });
    expect(result.refused).toEqual([]);
    expect(result.changes.map((c) => c.path)).toEqual(
      expect.arrayContaining([
        `${prefix}.os.name`,
        `${prefix}.nodeSelector[kubernetes.io/os]`,
        `${prefix}.tolerations`,
        `${prefix}.containers[0].securityContext.runAsUser`,
      ]),
    );
    const after = found(lint(result.text));
    expect(after).not.toContain(`windows-node-selector-missing ${prefix}.nodeSelector`);
    expect(after).not.toContain(`windows-linux-only-field ${prefix}.containers[0].securityContext.runAsUser`);
  });
});

describe('Knative Serving', () => {
  const service = (pod: string, apiVersion = 'serving.knative.dev/v1') =>
    `apiVersion: ${apiVersion}\nkind: Service\nmetadata: { name: hello }\nspec:\n  template:\n    spec:\n${indent(pod, 6)}\n`;

  test('a Windows pod template without a Windows selector is found at spec.template.spec, and spec.os is not asked for', () => {
    const ds = lint(service(BAD_POD));
    expect(found(ds)).toEqual(
      expect.arrayContaining([
        'windows-node-selector-missing spec.template.spec.nodeSelector',
        'windows-linux-only-field spec.template.spec.containers[0].securityContext.runAsUser',
      ]),
    );
    // Knative's pod spec has no os field: a finding that asks for it would ask for what Knative refuses.
    expect(ds.map((d) => d.ruleId)).not.toContain('windows-os-unset');
    // Not a core Service: no Service rule reads it.
    expect(ds.every((d) => d.path.startsWith('spec.template.spec'))).toBe(true);
  });

  test('a pod template that lacks nothing Knative takes: no finding', () => {
    expect(lint(service(GOOD_POD.replace('os: { name: windows }\n', '')))).toEqual([]);
  });

  test('fix leaves it and says why, at each path it would have written', () => {
    const text = service(BAD_POD);
    const result = fixManifests(text);
    expect(result.text).toBe(text);
    expect(result.changes).toEqual([]);
    expect(result.refused.map((r) => `${r.ruleId} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'windows-node-selector-missing spec.template.spec.nodeSelector',
        'windows-linux-only-field spec.template.spec.containers[0].securityContext.runAsUser',
      ]),
    );
    expect(result.refused[0].message).toMatch(
      /^not changed: spec\.template\.spec\..*: fix does not edit Knative Serving pod templates: Knative takes a subset of the pod spec \(no spec\.os; nodeSelector, tolerations, affinity and runtimeClassName only with its kubernetes\.podspec-\* feature flags on\); fix it by hand \(/,
    );
  });
});

describe('Argo Workflows', () => {
  const HYBRID = `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: { generateName: hybrid- }
spec:
  entrypoint: main
  nodeSelector: { kubernetes.io/os: windows }
  tolerations: [{ key: os, operator: Equal, value: windows, effect: NoSchedule }]
  templates:
    - name: main
      steps:
        - - { name: win, template: win }
          - { name: linux, template: linux }
    - name: win
      container:
        image: mcr.microsoft.com/windows/nanoserver:ltsc2022
        securityContext: { runAsUser: 1000 }
    - name: linux
      nodeSelector: { kubernetes.io/os: linux }
      container: { image: alpine:3.20 }
`;

  test("the workflow's nodeSelector and tolerations apply to a template that sets none; findings name where each field is written", () => {
    const ds = lint(HYBRID);
    expect(found(ds)).toEqual([
      'windows-linux-only-field spec.templates[1].container.securityContext.runAsUser',
      // spec.os can be set only through the template's podSpecPatch.
      'windows-os-unset spec.templates[1].podSpecPatch',
      // The workflow's selector is the one that applies: the build pin belongs beside it.
      'image-build-unpinned spec.nodeSelector',
    ]);
    const linuxOnly = ds[0];
    expect(linuxOnly.message).toContain('spec.templates[1].container.securityContext.runAsUser 1000 is Linux-only');
    expect(linuxOnly.message).not.toContain('«pod»');
    expect(ds[1].fix).toContain('An Argo template sets spec.os only through its podSpecPatch');
    // The Linux template selects Linux: its own selector replaces the workflow's, so it is not judged Windows.
    expect(ds.some((d) => d.path.startsWith('spec.templates[2]'))).toBe(false);
  });

  test("a template's own nodeSelector replaces the workflow's, never merges with it", () => {
    const text = HYBRID.replace(
      '    - name: win\n',
      '    - name: win\n      nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348 }\n',
    );
    const ds = lint(text);
    expect(found(ds)).not.toContain('image-build-unpinned spec.nodeSelector');
    expect(found(ds).filter((p) => p.includes('nodeSelector'))).toEqual([]);
  });

  test('podSpecPatch is read: spec.os set there is not asked for again', () => {
    const text = HYBRID.replace(
      '    - name: win\n',
      `    - name: win\n      podSpecPatch: '{"os": {"name": "windows"}}'\n`,
    );
    expect(lint(text).map((d) => d.ruleId)).not.toContain('windows-os-unset');
  });

  test('a Windows template without a Windows selector is found at the template, and a passing one has no finding', () => {
    const bare = `apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata: { name: build }
spec:
  templates:
    - name: build
      script:
        image: example.com/build:1.0-ltsc2022
        source: dir
`;
    expect(found(lint(bare))).toEqual(
      expect.arrayContaining([
        'windows-node-selector-missing spec.templates[0].nodeSelector',
        'windows-toleration-missing spec.templates[0].tolerations',
      ]),
    );
    const good = bare.replace(
      '      script:\n',
      `      nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348 }
      tolerations: [{ key: os, operator: Equal, value: windows, effect: NoSchedule }]
      podSpecPatch: '{"os": {"name": "windows"}}'
      script:\n`,
    );
    expect(lint(good)).toEqual([]);
  });

  test('a CronWorkflow keeps its workflow under spec.workflowSpec; containerSet containers and sidecars are the pod', () => {
    const cron = `apiVersion: argoproj.io/v1alpha1
kind: CronWorkflow
metadata: { name: nightly }
spec:
  schedule: "0 1 * * *"
  workflowSpec:
    templates:
      - name: set
        nodeSelector: { kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348 }
        tolerations: [{ key: os, operator: Equal, value: windows, effect: NoSchedule }]
        podSpecPatch: '{"os": {"name": "windows"}}'
        containerSet:
          containers:
            - { name: a, image: example.com/a:1.0-ltsc2022 }
            - { name: b, image: example.com/b:1.0-ltsc2022, securityContext: { runAsUser: 1000 } }
        sidecars:
          - { name: c, image: example.com/c:1.0-ltsc2022, ports: [{ containerPort: 80, hostPort: 80 }] }
`;
    const ds = found(lint(cron));
    expect(ds).toContain(
      'windows-forbidden-field spec.workflowSpec.templates[0].containerSet.containers[1].securityContext.runAsUser',
    );
    expect(ds.filter((p) => p.includes('sidecars[0]'))).not.toEqual([]);
  });

  test('a suppression annotation on the template is honoured', () => {
    const text = HYBRID.replace(
      '    - name: win\n',
      `    - name: win\n      metadata:\n        annotations:\n          suppress.k8s-windows.io/image-build-unpinned: "the workflow runs on one node pool"\n`,
    );
    expect(lint(HYBRID).map((d) => d.ruleId)).toContain('image-build-unpinned');
    expect(lint(text).map((d) => d.ruleId)).not.toContain('image-build-unpinned');
  });

  test("the template's metadata holds its pods' annotations: a finding on one names the template's", () => {
    const text = HYBRID.replace(
      '    - name: win\n',
      `    - name: win\n      metadata:\n        annotations:\n          experimental.windows.kubernetes.io/isolation-type: hyperv\n`,
    );
    expect(found(lint(text))).toContain(
      'windows-isolation-annotation spec.templates[1].metadata.annotations[experimental.windows.kubernetes.io/isolation-type]',
    );
  });

  test('fix leaves the workflow as it is and says what it would have changed, at the paths the findings name', () => {
    const result = fixManifests(HYBRID, { tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] });
    expect(result.text).toBe(HYBRID);
    expect(result.changes).toEqual([]);
    expect(result.refused.map((r) => `${r.ruleId} ${r.path}`)).toEqual([
      'windows-linux-only-field spec.templates[1].container.securityContext.runAsUser',
      'windows-os-unset spec.templates[1].podSpecPatch',
      'image-build-unpinned spec.nodeSelector',
    ]);
    expect(result.refused[0].message).toBe(
      "not changed: spec.templates[1].container.securityContext.runAsUser: fix does not edit Argo Workflow templates: the workflow controller builds each pod from its template and the workflow's defaults (a template's nodeSelector and tolerations replace the workflow's, and spec.os is set only through podSpecPatch); fix it by hand (windows-linux-only-field).",
    );
  });
});

describe('kinds are found by API group, never by name alone', () => {
  test('other projects’ Rollout and Deployment kinds, and a core Service, are not read as pod templates', () => {
    const others = `apiVersion: one-click.dev/v1alpha1
kind: Rollout
metadata: { name: r }
spec:
  template:
    spec:
${indent(BAD_POD, 6)}
---
apiVersion: apps.example.com/v1
kind: Deployment
metadata: { name: d }
spec:
  template:
    spec:
${indent(BAD_POD, 6)}
`;
    expect(lint(others)).toEqual([]);
    expect(locatePods({ apiVersion: 'v1', kind: 'Service', spec: { template: { spec: {} } } })).toEqual([]);
  });
});

describe('podTemplates: custom kinds', () => {
  const custom = `apiVersion: example.com/v1
kind: MyWorkload
metadata: { name: w, labels: { app: w } }
spec:
  runner:
    template:
      metadata: { labels: { app: w } }
      spec:
${indent(BAD_POD, 8)}
  pod:
${indent(BAD_POD, 4)}
`;

  test('unknown kinds are not read; a template entry reads the pod template at its path', () => {
    expect(lint(custom)).toEqual([]);
    const ds = lint(custom, {
      podTemplates: [{ apiVersion: 'example.com/v1', kind: 'MyWorkload', template: 'spec.runner.template' }],
    });
    expect(found(ds)).toEqual(
      expect.arrayContaining([
        'windows-node-selector-missing spec.runner.template.spec.nodeSelector',
        'windows-linux-only-field spec.runner.template.spec.containers[0].securityContext.runAsUser',
      ]),
    );
  });

  test('a podSpec entry reads a pod spec; group/* matches every version, another group none', () => {
    const ds = lint(custom, {
      podTemplates: [{ apiVersion: 'example.com/*', kind: 'MyWorkload', podSpec: 'spec.pod' }],
    });
    expect(found(ds)).toContain('windows-node-selector-missing spec.pod.nodeSelector');
    expect(
      lint(custom, { podTemplates: [{ apiVersion: 'other.com/*', kind: 'MyWorkload', podSpec: 'spec.pod' }] }),
    ).toEqual([]);
  });

  test('an entry wins over a well-known kind', () => {
    const rollout = `apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: { name: r }\nspec:\n  pod:\n${indent(BAD_POD, 4)}\n`;
    expect(lint(rollout)).toEqual([]);
    const ds = lint(rollout, {
      podTemplates: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', podSpec: 'spec.pod' }],
    });
    expect(found(ds)).toContain('windows-node-selector-missing spec.pod.nodeSelector');
  });

  test('fix edits a custom kind at its paths', () => {
    const result = fixManifests(custom, {
      podTemplates: [{ apiVersion: 'example.com/v1', kind: 'MyWorkload', template: 'spec.runner.template' }],
    });
    expect(result.refused).toEqual([]);
    expect(result.changes.map((c) => c.path)).toContain('spec.runner.template.spec.nodeSelector[kubernetes.io/os]');
  });

  test('bad entries are refused, each problem named with its value and what to write', () => {
    const issues: ValidationIssue[] = [];
    readPodTemplateKinds(
      [
        { apiVersion: 'apps/v1', kind: 'Deployment', template: 'spec.template' },
        { apiVersion: 'example.com/v1', kind: 'myWorkload', path: 'spec.template' },
        { apiVersion: 'example.com/v1', kind: 'A', template: 'spec.template', podSpec: 'spec' },
        { apiVersion: 'example.com/v1', kind: 'B', template: 'spec..template' },
        { apiVersion: 'example.com/v1', kind: 'C', podSpec: 'spec' },
        { apiVersion: 'example.com/v1', kind: 'C', podSpec: 'spec.other' },
        'MyWorkload',
      ],
      'podTemplates',
      issues,
    );
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'podTemplates[0].apiVersion: "apps/v1" is not the apiVersion of a custom resource.',
      "podTemplates[1].path: 'path' is not a podTemplates key.",
      'podTemplates[1].kind: "myWorkload" is not a kind.',
      'podTemplates[1]: names neither template nor podSpec.',
      'podTemplates[2]: names both template and podSpec.',
      'podTemplates[3].template: "spec..template" is not a field path.',
      'podTemplates[5]: names example.com/v1 C again (as podTemplates[4] does).',
      'podTemplates[6]: "MyWorkload" is not a mapping.',
    ]);
    expect(issues[0].fix).toBe(
      "Write the CRD's group and version, such as 'example.com/v1', or 'example.com/*' for every version (the built-in groups' kinds are read already).",
    );
    expect(issues[1].fix).toBe('Use apiVersion, kind, template, podSpec.');
    const notList: ValidationIssue[] = [];
    readPodTemplateKinds({ kind: 'MyWorkload' }, 'config.podTemplates', notList);
    expect(notList).toEqual([
      {
        path: 'config.podTemplates',
        message: '{"kind":"MyWorkload"} is not a list.',
        fix: "Write podTemplates: [{ apiVersion: 'example.com/v1', kind: 'MyWorkload', template: 'spec.template' }].",
      },
    ]);
  });

  test('validateManifests refuses bad entries with a WindowsValidationError naming them', () => {
    let error: unknown;
    try {
      lint(custom, { podTemplates: [{ apiVersion: 'example.com/v1', kind: 'MyWorkload' }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    expect((error as WindowsValidationError).issues).toEqual([
      {
        path: 'podTemplates[0]',
        message: 'names neither template nor podSpec.',
        fix: "Write template: 'spec.template' (where the pod template is) or podSpec: 'spec.podSpec' (a pod spec alone).",
      },
    ]);
  });
});

describe('Pod Security reads the pod template of a custom resource', () => {
  test('a Rollout whose pods a restricted namespace refuses', () => {
    const text = `apiVersion: v1
kind: Namespace
metadata: { name: shop, labels: { pod-security.kubernetes.io/enforce: restricted } }
---
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: { name: web, namespace: shop }
spec:
  template:
    spec:
${indent(GOOD_POD, 6)}
      hostNetwork: true
`;
    expect(found(lint(text))).toContain('pod-security-level spec.template.spec.hostNetwork');
  });
});
