/**
 * Every rule of the catalogue with a failing and a passing case, asserting the rule id, the path and the severity.
 * The table is keyed by rule id so a rule added to the catalogue without cases fails the completeness test.
 */
import { RULES, validateManifests, type RuleId, type Severity, type ValidateOptions } from 'k8s-windows';
import { RULE_MODULES, type ModuleRuleId } from '../../../lib/core/rules';
import {
  container,
  credspec,
  credspecContent,
  deployment,
  gmsaRbac,
  hostProcessSpec,
  linuxPod,
  runtimeClass,
  windowsPod,
  windowsSpec,
  WINDOWS_TOLERATION,
} from './fixtures';

interface RuleCase {
  readonly fail: unknown[];
  readonly pass: unknown[];
  /** The path of the expected diagnostic. */
  readonly path: string;
  /** When this case reports with another severity than the rule's default. */
  readonly severity?: Severity;
  readonly options?: ValidateOptions;
}

const AKS_PLUGIN = '{CCC2A336-D7F3-4818-A213-272B7924213E}';
const gmsaPod = (name: string, metadata = {}): Record<string, unknown> =>
  windowsPod({ securityContext: { windowsOptions: { gmsaCredentialSpecName: name } } }, metadata);
const hostAccount = (PluginInput: unknown): Record<string, unknown> =>
  credspecContent({
    ActiveDirectoryConfig: { HostAccountConfig: { PortableCcgVersion: '1', PluginGUID: AKS_PLUGIN, PluginInput } },
  });

/** The rules not yet in modules (../../../lib/core/rules): a module's own examples are its cases. */
type ListedRuleId = Exclude<RuleId, ModuleRuleId>;
const MODULE_IDS: ReadonlySet<string> = new Set(RULE_MODULES.map((r) => r.meta.id));
const LISTED = RULES.filter((r) => !MODULE_IDS.has(r.id));

const CASES: Record<ListedRuleId, RuleCase> = {
  'gmsa-credspec-location': {
    fail: [
      {
        apiVersion: 'windows.k8s.io/v1',
        kind: 'GMSACredentialSpec',
        metadata: { name: 'webapp-gmsa' },
        spec: { credspec: credspecContent() },
      },
    ],
    pass: [credspec()],
    path: 'spec.credspec',
  },
  'gmsa-credspec-format': {
    fail: [
      credspec(
        'webapp-gmsa',
        credspecContent({ DomainJoinConfig: { Guid: '{56d9b136-5ed2-4b70-9a4b-4a7d1d1ef6e3}' } }),
      ),
    ],
    pass: [credspec()],
    path: 'credspec.DomainJoinConfig.Guid',
  },
  'gmsa-credspec-account-sid': {
    fail: [
      credspec(
        'webapp-gmsa',
        credspecContent({ DomainJoinConfig: { Sid: 'S-1-5-21-702590844-1001920913-2680819671-1105' } }),
      ),
    ],
    pass: [credspec()],
    path: 'credspec.DomainJoinConfig.Sid',
  },
  'gmsa-credspec-accounts': {
    fail: [
      credspec(
        'webapp-gmsa',
        credspecContent({
          ActiveDirectoryConfig: { GroupManagedServiceAccounts: [{ Name: 'webapp01', Scope: 'CONTOSO' }] },
        }),
      ),
    ],
    pass: [credspec()],
    path: 'credspec.ActiveDirectoryConfig.GroupManagedServiceAccounts',
  },
  'gmsa-host-account-config': {
    fail: [credspec('webapp-gmsa', hostAccount({ ObjectId: 'x' }))],
    pass: [
      credspec(
        'webapp-gmsa',
        hostAccount(
          'ObjectId=0f4e1c52-1111-2222-3333-444455556666;SecretUri=https://vault.vault.azure.net/secrets/gmsa',
        ),
      ),
    ],
    path: 'credspec.ActiveDirectoryConfig.HostAccountConfig.PluginInput',
  },
  'gmsa-credspec-name': {
    fail: [credspec('WebApp_GMSA')],
    pass: [credspec()],
    path: 'metadata.name',
  },
  'gmsa-credspec-not-found': {
    fail: [credspec(), gmsaPod('other-gmsa'), ...gmsaRbac('other-gmsa')],
    pass: [credspec(), gmsaPod('webapp-gmsa'), ...gmsaRbac()],
    path: 'spec.securityContext.windowsOptions.gmsaCredentialSpecName',
  },
  'gmsa-rbac-missing': {
    fail: [credspec(), gmsaPod('webapp-gmsa'), ...gmsaRbac('webapp-gmsa', 'default', 'other-sa')],
    pass: [credspec(), gmsaPod('webapp-gmsa'), ...gmsaRbac()],
    path: 'spec.securityContext.windowsOptions.gmsaCredentialSpecName',
  },
  'gmsa-init-container': {
    fail: [
      windowsPod({
        initContainers: [
          container({ name: 'init', securityContext: { windowsOptions: { gmsaCredentialSpecName: 'webapp-gmsa' } } }),
        ],
      }),
    ],
    pass: [windowsPod({ initContainers: [container({ name: 'init' })] })],
    path: 'spec.initContainers[0].securityContext.windowsOptions.gmsaCredentialSpecName',
  },
  'windows-node-selector-missing': {
    fail: [windowsPod({ nodeSelector: undefined })],
    pass: [windowsPod()],
    path: 'spec.nodeSelector',
  },
  'windows-node-selector-affinity-only': {
    fail: [
      windowsPod({
        nodeSelector: undefined,
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }] },
              ],
            },
          },
        },
      }),
    ],
    pass: [windowsPod()],
    path: 'spec.nodeSelector',
  },
  'windows-toleration-missing': {
    fail: [windowsPod({ tolerations: undefined })],
    pass: [
      windowsPod({
        tolerations: [{ key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      }),
    ],
    path: 'spec.tolerations',
  },
  'wildcard-toleration': {
    // Beside Windows pods: a Linux pod can only land on the other OS in a cluster that has Windows nodes.
    fail: [windowsPod(), linuxPod({ nodeSelector: undefined, tolerations: [{ operator: 'Exists' }] })],
    pass: [
      windowsPod(),
      linuxPod({ nodeSelector: undefined, tolerations: [{ key: 'dedicated', operator: 'Exists' }] }),
      linuxPod({ tolerations: [{ operator: 'Exists' }] }),
    ],
    path: 'spec.tolerations[0]',
  },
  'linux-node-selector-missing': {
    fail: [windowsPod(), linuxPod({ nodeSelector: undefined })],
    pass: [windowsPod(), linuxPod()],
    path: 'spec.nodeSelector',
  },
  'runtimeclass-handler': {
    fail: [runtimeClass('windows-2022', 'docker', '10.0.20348')],
    pass: [runtimeClass('windows-2022', 'runhcs-wcow-process', '10.0.20348')],
    path: 'handler',
  },
  'runtimeclass-release-mismatch': {
    fail: [runtimeClass('windows-2019', 'runhcs-wcow-process', '10.0.20348')],
    pass: [runtimeClass('windows-2019', 'runhcs-wcow-process', '10.0.17763')],
    path: 'scheduling.nodeSelector[node.kubernetes.io/windows-build]',
  },
  'windows-build-retired': {
    fail: [
      windowsPod({ nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17134' } }),
    ],
    pass: [windowsPod()],
    path: 'spec.nodeSelector[node.kubernetes.io/windows-build]',
  },
  'windows-isolation-annotation': {
    fail: [
      deployment(windowsSpec(), {}, { annotations: { 'experimental.windows.kubernetes.io/isolation-type': 'hyperv' } }),
    ],
    pass: [deployment()],
    path: 'spec.template.metadata.annotations[experimental.windows.kubernetes.io/isolation-type]',
  },
  'windows-beta-os-label': {
    fail: [
      windowsPod({
        nodeSelector: { 'beta.kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      }),
    ],
    pass: [windowsPod()],
    path: 'spec.nodeSelector[beta.kubernetes.io/os]',
  },
  'input-invalid-document': {
    fail: [42],
    pass: [windowsPod()],
    path: '',
  },
};

describe('rule catalogue', () => {
  test('every rule has a failing and a passing case', () => {
    expect(Object.keys(CASES).sort()).toEqual(LISTED.map((r) => r.id).sort());
  });

  test('ids are unique kebab-case, with summary, rationale and docs', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.rationale.length).toBeGreaterThan(10);
      expect(r.docs).toMatch(/^https:\/\//);
    }
  });
});

describe.each(LISTED.map((r) => [r.id, r] as const))('%s', (id, rule) => {
  const c = CASES[id as ListedRuleId];

  test('reports the failing case at its path', () => {
    const found = validateManifests(c.fail, c.options).filter((d) => d.ruleId === id);
    expect(found.map((d) => d.path)).toContain(c.path);
    const d = found.find((x) => x.path === c.path)!;
    expect(d.severity).toBe(c.severity ?? rule.defaultSeverity);
    expect(d.message.length).toBeGreaterThan(10);
    expect(d.fix).toEqual(expect.any(String));
  });

  test('accepts the passing case', () => {
    expect(validateManifests(c.pass, c.options).filter((d) => d.ruleId === id)).toEqual([]);
  });
});

describe('clean manifests', () => {
  test('a Windows pod, Deployment and HostProcess DaemonSet that follow every rule yield nothing', () => {
    const daemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: hostProcessSpec() },
      },
    };
    expect(validateManifests([windowsPod(), deployment(), daemonSet, linuxPod()])).toEqual([]);
  });

  test('the toleration rule accepts a toleration of the taint key with Exists', () => {
    const p = windowsPod({ tolerations: [{ key: 'os', operator: 'Exists', effect: 'NoSchedule' }] });
    expect(validateManifests([p])).toEqual([]);
  });

  test('tolerations merged in from the RuntimeClass count', () => {
    const p = windowsPod({ tolerations: undefined, nodeSelector: undefined, runtimeClassName: 'windows-2022' });
    expect(validateManifests([runtimeClass('windows-2022', 'runhcs-wcow-process', '10.0.20348'), p])).toEqual([]);
  });

  test('a wildcard toleration on a pod pinned to its OS is not reported', () => {
    const p = windowsPod({ tolerations: [{ operator: 'Exists' }] });
    expect(validateManifests([p])).toEqual([]);
  });

  test('WINDOWS_TOLERATION is the os=windows:NoSchedule toleration', () => {
    expect(WINDOWS_TOLERATION).toEqual({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
  });
});
