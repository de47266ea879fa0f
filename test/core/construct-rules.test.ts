/**
 * Issue 25: a construct refuses with the rule module's own finding. Every failing example of a rule the constructs
 * run (`refusedByConstructs`), fed through `toWindowsPodSpec` (what the cdk8s workloads and Pulumi components run on
 * the pod they emit), gives the same rule id, path and message as lint gives for that object: an error as a refusal,
 * a lower severity as a warning. The rules of GMSACredentialSpec objects are fed through the `GmsaCredentialSpec`
 * construct (cdk8s) and component (Pulumi), from the props that emit the example's object.
 */
import { Chart, Testing } from 'cdk8s';
import { loadManifests, validateManifests, WindowsValidationError as PublicValidationError } from 'k8s-windows';
import { GmsaCredentialSpec, WindowsAnnotations, type GmsaCredentialSpecProps } from 'k8s-windows/cdk8s';
import type * as PulumiK8s from '../../lib/pulumi/k8s/gmsa';
import { inputErrorsOf, mockPulumi } from '../pulumi/mocks';
import { renderCredentialSpec } from '../../lib/core/gmsa-credspec';
import { WINDOWS_BUILD_LABEL } from '../../lib/core/kube';
import { releaseForBuild, releaseInfo, type WindowsRelease } from '../../lib/core/releases';
import type { ImageLookups } from '../../lib/core/model/image-facts';
import { RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { CONSTRUCT_RULE_MODULES } from '../../lib/core/rules/refused-by-constructs';
import { toWindowsPodSpec, type WindowsWarning } from '../../lib/core/pod-spec';
import { WindowsValidationError } from '../../lib/core/errors';
import { locatePodSpec } from '../../lib/core/workloads';
import { readRuleExamples } from '../../scripts/rule-examples';

const CONSTRUCT_RULES = (RULE_MODULES as readonly RuleModule[]).filter((r) => r.meta.refusedByConstructs === true);
/** Whether a rule judges GMSACredentialSpec objects (the `GmsaCredentialSpec` constructs run it), not pods. */
const judgesCredspecs = (r: RuleModule): boolean =>
  (Array.isArray(r.check) ? r.check : [r.check]).some(
    (c: RuleModule['check']) => !Array.isArray(c) && 'kinds' in c && c.kinds.includes('GMSACredentialSpec'),
  );
const POD_RULES = CONSTRUCT_RULES.filter((r) => !judgesCredspecs(r));
const CREDSPEC_RULES = CONSTRUCT_RULES.filter(judgesCredspecs);

const pulumi = mockPulumi();
let PulumiGmsa: typeof PulumiK8s.GmsaCredentialSpec;
beforeAll(async () => {
  // The component registers against the mocked runtime: imported after mockPulumi.
  PulumiGmsa = (await import('../../lib/pulumi/k8s/gmsa')).GmsaCredentialSpec;
  // WindowsAnnotations prints each warning once; keep the test output clean.
  jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});

type Seen = { ruleId?: string; path: string; message: string; severity: 'refused' | 'warned' };
type Spec = {
  os?: { name?: string };
  nodeSelector?: Record<string, string>;
  securityContext?: { windowsOptions?: { hostProcess?: unknown } };
};

/** What the construct side says about one pod spec, for `ruleId`, on nodes of `release`. */
function throughConstruct(
  spec: Spec,
  path: string,
  ruleId: string,
  release: WindowsRelease,
  images: ImageLookups | undefined,
): Seen[] {
  const warnings: WindowsWarning[] = [];
  let refused: readonly { ruleId?: string; path: string; message: string }[] = [];
  try {
    toWindowsPodSpec(spec as never, {
      pathPrefix: path,
      release,
      hostProcess: spec.securityContext?.windowsOptions?.hostProcess === true,
      // The pod as written: the Windows container defaults would change what the memory rule judges.
      containerDefaults: false,
      ...(images !== undefined ? { images } : {}),
      onWarning: (w) => warnings.push(w),
    });
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    refused = err.issues;
  }
  return [
    ...refused.map((i) => ({ ruleId: i.ruleId, path: i.path, message: i.message, severity: 'refused' as const })),
    ...warnings.map((w) => ({ ruleId: w.ruleId, path: w.path, message: w.message, severity: 'warned' as const })),
  ].filter((x) => x.ruleId === ruleId);
}

/** The value at an API path (`spec.containers[0].securityContext.privileged`) of `obj`. */
function valueAt(obj: unknown, path: string): unknown {
  let node: unknown = obj;
  for (const seg of path.split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/**
 * What a construct never emits, so never refuses: a forbidden field that asks for nothing (`false`, an empty list or
 * object) is dropped, as `toWindowsPodSpec` documents (cdk8s-plus writes such defaults on its own).
 */
function dropped(obj: unknown, path: string, ruleId: string): boolean {
  if (ruleId !== 'windows-forbidden-field') return false;
  const v = valueAt(obj, path);
  return (
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  );
}

test('the constructs run some rules', () => {
  expect(CONSTRUCT_RULES.map((r) => r.meta.id)).toEqual(
    expect.arrayContaining(['windows-forbidden-field', 'windows-host-port', 'windows-memory-request-limit']),
  );
});

describe.each(POD_RULES.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule) => {
  // Constructs target the newest Kubernetes: an example that judges an older target is lint's alone.
  const examples = readRuleExamples(id).failing.filter((e) => e.options?.kubernetesVersion === undefined);

  test.each(examples.map((e) => [e.title, e] as const))('%s', (_title, example) => {
    const images = example.options?.images;
    const seen: Seen[] = [];
    const expected: Seen[] = [];
    let windowsPods = 0;
    for (const obj of loadManifests(example.manifests)) {
      const loc = locatePodSpec(obj);
      const spec = loc?.spec as Spec | undefined;
      // Constructs build Windows pods only.
      if (!loc || !spec || spec.os?.name === 'linux' || spec.nodeSelector?.['kubernetes.io/os'] === 'linux') continue;
      windowsPods++;
      // The construct pins the pod to its nodes (the pod's own build label, else Windows Server 2022): lint judges
      // the object so pinned, as the construct would emit it.
      const pinned = spec.nodeSelector?.[WINDOWS_BUILD_LABEL];
      const release = (pinned !== undefined ? releaseForBuild(String(pinned)) : undefined) ?? '2022';
      const emitted = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
      const emittedSpec = locatePodSpec(emitted)!.spec as Spec;
      emittedSpec.os = { name: 'windows' };
      emittedSpec.nodeSelector = { ...emittedSpec.nodeSelector, [WINDOWS_BUILD_LABEL]: releaseInfo(release).build };
      for (const d of validateManifests([emitted], example.options ?? {})) {
        if (d.ruleId !== id || dropped(emitted, d.path, id)) continue;
        expected.push({
          ruleId: d.ruleId,
          path: d.path,
          message: d.message,
          severity: d.severity === 'error' ? 'refused' : 'warned',
        });
      }
      seen.push(...throughConstruct(JSON.parse(JSON.stringify(spec)) as Spec, loc.path, id, release, images));
    }
    expect(seen).toEqual(expected);
    // An example whose pods are all Linux pods is lint's alone; any other fails through the construct too.
    if (windowsPods > 0) expect(expected.length).toBeGreaterThan(0);
    expect(rule.meta.refusedByConstructs).toBe(true);
  });
});

type Rec = Record<string, unknown>;
/** What a finding says, wherever it is reported. */
type Shown = { ruleId: string; messageId?: string; severity: string; path: string; message: string };
const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {});

/**
 * The props that make `GmsaCredentialSpec` emit `obj`, or undefined when none do: the builder writes CmsPlugins and
 * the configs itself, lists an account without scope once per domain name, normalises a GUID's braces, and the
 * object is cluster-scoped (no namespace prop). Checked by rendering the props and comparing with the example.
 */
function credspecProps(obj: Rec): GmsaCredentialSpecProps | undefined {
  const metadata = rec(obj.metadata);
  const credspec = rec(obj.credspec);
  const djc = rec(credspec.DomainJoinConfig);
  const adc = rec(credspec.ActiveDirectoryConfig);
  const hac = adc.HostAccountConfig === undefined ? undefined : rec(adc.HostAccountConfig);
  const accounts = Array.isArray(adc.GroupManagedServiceAccounts) ? adc.GroupManagedServiceAccounts : [];
  const props = {
    name: metadata.name as string,
    domain: {
      dnsName: djc.DnsName as string,
      netBiosName: djc.NetBiosName as string,
      sid: djc.Sid as string,
      guid: djc.Guid as string,
      dnsTreeName: djc.DnsTreeName as string,
      machineAccountName: djc.MachineAccountName as string,
    },
    accounts: accounts.map((a) => ({ name: rec(a).Name as string, scope: rec(a).Scope as string })),
    ...(hac === undefined
      ? {}
      : {
          hostAccountConfig: {
            pluginGuid: hac.PluginGUID as string,
            pluginInput: hac.PluginInput as string,
            portableCcgVersion: hac.PortableCcgVersion as string,
          },
        }),
  };
  const emitted = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name: props.name }, credspec: null };
  const same =
    JSON.stringify({ ...emitted, credspec: renderCredentialSpec(props).credspec }) ===
    JSON.stringify({ ...emitted, metadata, credspec });
  return same ? props : undefined;
}

/** The failing examples of the credspec rules that no props can emit, by rule id, and why. */
const NOT_EXPRESSIBLE: Readonly<Record<string, readonly string[]>> = {
  // The builder writes a GUID without braces (and warns, in the rule's builders-only `normalised` case).
  'gmsa-credspec-format': ['The domain GUID in braces, as some tools print it'],
  // The object is cluster-scoped: the construct has no namespace prop and drops a chart's namespace.
  'gmsa-credspec-name': ['A namespace on the cluster-scoped object'],
};

test('the constructs run the credential spec rules on the GMSACredentialSpec they emit', () => {
  expect(CREDSPEC_RULES.map((r) => r.meta.id).sort()).toEqual([
    'gmsa-credspec-account-sid',
    'gmsa-credspec-accounts',
    'gmsa-credspec-format',
    'gmsa-credspec-name',
    'gmsa-host-account-config',
  ]);
});

describe.each(CREDSPEC_RULES.map((rule) => [rule.meta.id] as const))('%s through GmsaCredentialSpec', (id) => {
  const examples = readRuleExamples(id).failing;
  const expressible = examples.filter((e) =>
    loadManifests(e.manifests).every((o) => rec(o).kind !== 'GMSACredentialSpec' || credspecProps(rec(o))),
  );

  test('the examples no props can emit are the known ones', () => {
    expect(examples.filter((e) => !expressible.includes(e)).map((e) => e.title)).toEqual(NOT_EXPRESSIBLE[id] ?? []);
  });

  test.each(expressible.map((e) => [e.title, e] as const))('%s', (_title, example) => {
    for (const obj of loadManifests(example.manifests).map(rec)) {
      if (obj.kind !== 'GMSACredentialSpec') continue;
      const props = credspecProps(obj)!;
      const lint = validateManifests([obj]).filter((d) => d.ruleId === id);
      expect(lint.length).toBeGreaterThan(0);
      const refused = lint.filter((d) => d.severity === 'error');
      const warned = lint.filter((d) => d.severity !== 'error');

      // cdk8s: refusals as WindowsValidationError issues, warnings as construct annotations.
      const chart = new Chart(Testing.app(), 'test');
      let issues: readonly { ruleId?: string; path: string; message: string; fix?: string }[] = [];
      try {
        new GmsaCredentialSpec(chart, 'spec', props);
      } catch (e) {
        expect(e).toBeInstanceOf(PublicValidationError);
        issues = (e as PublicValidationError).issues;
      }
      expect(
        issues.filter((i) => i.ruleId === id).map(({ ruleId, path, message }) => ({ ruleId, path, message })),
      ).toEqual(refused.map(({ ruleId, path, message }) => ({ ruleId, path, message })));
      for (const i of issues) expect(i.fix).toMatch(/^Set the `[\w.]+` prop|^Set the account's/);
      const annotations = WindowsAnnotations.warningsOf(chart).filter((w) => w.ruleId === id);
      expect(annotations.map((w) => w.ruleId)).toEqual(warned.map((d) => d.ruleId));
      annotations.forEach((w, i) => expect(w.message).toContain(`${warned[i].path}: ${warned[i].message}`));

      // Pulumi: refusals as InputPropertiesError entries (before anything registers), and every finding in the
      // findings sink with its rule id and message id (refusals as errors, warnings as warnings).
      if (refused.length > 0) {
        const errors = inputErrorsOf(() => new PulumiGmsa('gmsa', props));
        expect(errors.map((e) => e.propertyPath)).toEqual(refused.map((d) => d.path));
        errors.forEach((e, i) => expect(e.reason).toMatch(new RegExp(`^${escape(refused[i].message)} Fix: Set the`)));
        expect(pulumi.registered).toEqual([]);
      } else {
        new PulumiGmsa('gmsa', props);
      }
      const fields = ({ ruleId, messageId, severity, path, message }: Shown): Shown => ({
        ruleId,
        messageId,
        severity,
        path,
        message,
      });
      expect(pulumi.findings.filter((f) => f.ruleId === id).map(fields)).toEqual(lint.map(fields));
    }
  });
});

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
test('the constructs load exactly the rule modules that opt in (refusedByConstructs), in the registry order', () => {
  expect(CONSTRUCT_RULE_MODULES.map((r) => r.meta.id)).toEqual(CONSTRUCT_RULES.map((r) => r.meta.id));
  expect(CONSTRUCT_RULE_MODULES.every((r, i) => r === CONSTRUCT_RULES[i])).toBe(true);
});
