/**
 * The rule catalogue: every rule `validateManifests` can report, with its default severity and why it matters.
 * Ids are stable: users waive and re-level rules by id, so an id is never renamed or reused.
 */
import { RULE_MODULES, type ModuleRuleId } from '../rules';
import type { RuleFamily, RuleInfo } from './types';

const K8S_WINDOWS_GUIDE = 'https://kubernetes.io/docs/concepts/windows/user-guide/';
const GMSA = 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/';
const CREDSPEC =
  'https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts';
const GMSA_NON_DOMAIN = 'https://github.com/kubernetes-sigs/windows-gmsa';
const VERSION_COMPAT =
  'https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility';
const RUNTIME_CLASS = 'https://kubernetes.io/docs/concepts/containers/runtime-class/';
const OBJECTS = 'https://kubernetes.io/docs/concepts/overview/working-with-objects/';

const RULE_LIST = [
  // --- API server (validation.go): reproduced with the API server's paths ---
  // --- windowsOptions formats (API server, any pod) ---
  // --- HostProcess ---
  // --- gMSA ---
  {
    id: 'gmsa-credspec-location',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: 'A GMSACredentialSpec whose credspec is missing or nested under spec.',
    rationale:
      'The CRD keeps credspec at the top level and prunes unknown keys, so a credspec under spec is dropped and pods get no identity.',
    docs: GMSA,
    severityReason: 'The pods get no gMSA identity.',
  },
  {
    id: 'gmsa-credspec-format',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: 'A credspec field with the wrong format (CmsPlugins, Sid, Guid, NetBiosName, DNS names, accounts).',
    rationale:
      'The CRD schema only checks types; a malformed credspec is accepted and fails when the container starts.',
    docs: CREDSPEC,
    severityReason: 'The container fails to start with its identity.',
  },
  {
    id: 'gmsa-credspec-account-sid',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'DomainJoinConfig.Sid is an account SID, not the domain SID.',
    rationale: 'Some vendor docs put the gMSA account SID (with a trailing RID) where the domain SID belongs.',
    docs: CREDSPEC,
    severityReason: 'Works with some CCG plugins, fails lookups with others.',
  },
  {
    id: 'gmsa-credspec-accounts',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'The primary gMSA account is not listed twice, scoped by DNS name and by NetBIOS name.',
    rationale: 'New-CredentialSpec lists the account for both scopes; lookups by the missing scope fail.',
    docs: CREDSPEC,
    severityReason: 'Works until something looks the account up by the missing scope.',
  },
  {
    id: 'gmsa-host-account-config',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: 'HostAccountConfig with a malformed PluginGUID or PluginInput.',
    rationale:
      'Non-domain-joined nodes fetch the gMSA through a CCG plugin; a wrong GUID or input format leaves the container without an identity.',
    docs: GMSA_NON_DOMAIN,
    severityReason: 'Non-domain-joined nodes cannot fetch the gMSA.',
  },
  {
    id: 'gmsa-credspec-name',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: 'A GMSACredentialSpec name pods cannot reference, or a namespace on the cluster-scoped object.',
    rationale: 'Pods name the credspec in gmsaCredentialSpecName, which must be a lowercase DNS-1123 subdomain.',
    docs: GMSA,
    severityReason: 'Pods cannot reference it (a namespace on the object is a warning: it is ignored).',
  },
  {
    id: 'gmsa-credspec-not-found',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'A pod names a GMSACredentialSpec that is not in the input set (which has others).',
    rationale: 'The gMSA webhook rejects pods naming a credspec that does not exist.',
    docs: GMSA,
    severityReason:
      'Only credspecs from the same file are compared, and the credspec may exist in the cluster already.',
  },
  {
    id: 'gmsa-rbac-missing',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: "No Role/ClusterRole and binding grants the pod's ServiceAccount `use` on its credspec.",
    rationale:
      'The gMSA webhook asks a SubjectAccessReview (verb use, windows.k8s.io/gmsacredentialspecs) and rejects the pod without the grant.',
    docs: GMSA,
    severityReason:
      "The gMSA webhook rejects the pod. Error only when the pod's own file holds RBAC for its ServiceAccount or for the credspec; otherwise the grant may live elsewhere (info).",
  },
  {
    id: 'gmsa-init-container',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'gmsaCredentialSpecName on an init container.',
    rationale: 'The gMSA webhook does not expand init containers: they run without the gMSA identity.',
    docs: GMSA_NON_DOMAIN,
    severityReason: 'The init container runs, without the identity it was given.',
  },
  // --- scheduling ---
  {
    id: 'windows-node-selector-missing',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary: 'A Windows pod that does not select kubernetes.io/os=windows nodes.',
    rationale:
      'spec.os.name does not steer the scheduler: without the selector the pod can land on a Linux node, where it cannot run.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'The pod can land on a Linux node, where it never starts, or selects Linux outright.',
  },
  {
    id: 'windows-node-selector-affinity-only',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A Windows pod that selects Windows nodes by node affinity only, without a nodeSelector.',
    rationale: 'The EKS VPC resource controller reads the kubernetes.io/os nodeSelector to give Windows pods an IP.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'It schedules; only EKS needs the nodeSelector (warning with cloud eks).',
  },
  {
    id: 'windows-toleration-missing',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A Windows pod that does not tolerate the os=windows:NoSchedule taint.',
    rationale:
      'Where Windows nodes are tainted (os=windows:NoSchedule by convention, node.kubernetes.io/os=windows:NoSchedule on GKE) a pod without the toleration stays Pending.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'AKS and EKS do not taint Windows nodes by default; warning with cloud gke, which taints them.',
  },
  {
    id: 'wildcard-toleration',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A toleration with operator: Exists and no key, which tolerates every taint.',
    rationale: 'It swallows the Windows taint, so the pod can land on nodes of the other OS.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'The pod can land on nodes of the other OS.',
  },
  {
    id: 'linux-node-selector-missing',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A Linux pod without the kubernetes.io/os: linux nodeSelector in a set that has Windows pods.',
    rationale:
      'In a hybrid cluster an unpinned Linux pod can land on an untainted Windows node and sit in ImagePullBackOff.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason:
      'On untainted Windows nodes (the AKS and EKS default) the pod can land there and never start; only pods of the same file as Windows pods are checked.',
  },
  {
    id: 'runtimeclass-handler',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary: 'A Windows RuntimeClass whose handler is not runhcs-wcow-process or runhcs-wcow-hypervisor.',
    rationale:
      'containerd on Windows runs pods through the runhcs-wcow-* handlers; any other handler fails sandbox creation.',
    docs: RUNTIME_CLASS,
    severityReason: 'Every pod of the class fails sandbox creation.',
  },
  {
    id: 'runtimeclass-release-mismatch',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A RuntimeClass whose name says one Windows release but whose scheduling pins another build.',
    rationale:
      'Users pick the RuntimeClass by its name; pods then land on the other release and their images do not match.',
    docs: RUNTIME_CLASS,
    severityReason: 'Pods run on another release than their RuntimeClass name promises.',
  },
  {
    id: 'windows-build-retired',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary:
      'A nodeSelector or RuntimeClass that pins node.kubernetes.io/windows-build to a retired release (2016, SAC 1709-20H2).',
    rationale:
      'No supported node runs Windows Server 2016 or a SAC release, so no node carries the label: every pod pinned to it stays Pending.',
    docs: VERSION_COMPAT,
    severityReason: 'No node carries the label: the pods stay Pending.',
  },
  {
    id: 'windows-isolation-annotation',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'The experimental.windows.kubernetes.io/isolation-type annotation, which only dockershim read.',
    rationale:
      'containerd ignores the annotation, so the pod runs process-isolated; Hyper-V isolation is chosen by a RuntimeClass with the runhcs-wcow-hypervisor handler.',
    docs: RUNTIME_CLASS,
    severityReason: 'The pod runs, but process-isolated, not as the annotation asks.',
  },
  {
    id: 'windows-beta-os-label',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A pod that selects Windows nodes by the deprecated beta.kubernetes.io/os label.',
    rationale: 'The label is deprecated since Kubernetes 1.14; the kubelet still sets it, so the pod schedules.',
    docs: 'https://kubernetes.io/docs/reference/labels-annotations-taints/#beta-kubernetes-io-os-deprecated',
    severityReason: 'The kubelet still sets the beta label, so the pod schedules.',
  },
  // --- images ---
  // --- unsupported pod features ---
  // --- resources ---
  // --- probes ---
  // --- Services ---
  // --- Pod Security Admission ---
  // --- input ---
  {
    id: 'input-invalid-document',
    family: 'input',
    defaultSeverity: 'warning',
    summary: 'A document that is not a Kubernetes object (not a mapping, or without apiVersion/kind).',
    rationale: 'kubectl would refuse it; it cannot be checked.',
    docs: OBJECTS,
    severityReason: 'kubectl refuses the document; the rest of the input is still checked.',
  },
] as const satisfies readonly RuleInfo[];

/** A rule id of the catalogue: one of a rule module (../rules/) or of the list above. */
export type RuleId = (typeof RULE_LIST)[number]['id'] | ModuleRuleId;

/**
 * The rules `fixManifests` can fix, and how, for the rules not yet in modules (a module says it in its meta). The
 * fixers live beside each rule's check (the `*_FIXES` tables in checks/); a test keeps this table and those fixers
 * in step.
 */
const FIXABLE: Readonly<Partial<Record<RuleId, string>>> = {
  'windows-node-selector-missing':
    'Adds nodeSelector kubernetes.io/os: windows when the pod selects no OS (a contradicting selector is left to you).',
  'windows-node-selector-affinity-only': 'Adds nodeSelector kubernetes.io/os: windows.',
  'windows-beta-os-label': 'Adds nodeSelector kubernetes.io/os: windows beside the beta label (which stays).',
  'windows-toleration-missing':
    'Adds a toleration for each taint of the target (--toleration, or a --cloud preset that taints); none without one.',
  'linux-node-selector-missing': 'With pinLinux (--pin-linux): adds nodeSelector kubernetes.io/os: linux.',
};

/** Catalogue order: by family, in this order (every family named, so a new one fails the build here). */
const FAMILY_ORDER: Readonly<Record<RuleFamily, number>> = {
  'api-server': 0,
  'windows-options': 1,
  'host-process': 2,
  gmsa: 3,
  scheduling: 4,
  images: 5,
  'pod-features': 6,
  resources: 7,
  probes: 8,
  services: 9,
  'pod-security': 10,
  input: 11,
};

/** The rule catalogue, in the order `k8s-windows rules` lists it: by family, then as listed or registered. */
export const RULES: readonly RuleInfo[] = [
  ...RULE_LIST.map((r): RuleInfo => {
    const fixable = FIXABLE[r.id];
    return fixable === undefined ? r : { ...r, fixable };
  }),
  ...RULE_MODULES.map(({ meta }): RuleInfo => meta),
].sort((a, b) => FAMILY_ORDER[a.family] - FAMILY_ORDER[b.family]);

/** Rule metadata by id. */
export const RULES_BY_ID: ReadonlyMap<string, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));
