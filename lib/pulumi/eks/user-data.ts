/**
 * PowerShell user data for self-managed Windows nodes: runs the EKS bootstrap script shipped in the EKS-optimized
 * Windows AMIs (and in custom AMIs built from them) with the kubelet arguments of https://kubernetes.io/docs/concepts/configuration/windows-resource-management/.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters
 * @see https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html
 */
import { WindowsValidationError, type ValidationIssue } from '../../core/errors';
import type { Taint } from '../../core/target';
import { taintToString } from '../node-pool';

/** The bootstrap script, as AWS's own templates call it (`$env:ProgramFiles` holds a space: keep it quoted). */
export const EKS_BOOTSTRAP_SCRIPT = '$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1';
/** Reserve memory for Windows itself: it takes about 3.5 GB at idle (at least 2Gi: https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const DEFAULT_SYSTEM_RESERVED_MEMORY = '2Gi';
/** Runs the kubelet above normal priority so busy pods cannot starve it (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const KUBELET_WINDOWS_PRIORITY_CLASS = 'ABOVE_NORMAL_PRIORITY_CLASS';

export interface WindowsKubeletArgsOptions {
  /** Node labels to register (not the kubelet's own `kubernetes.io/os` and build labels). */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints to register, Kubernetes spelling. */
  readonly taints: readonly Taint[];
  /**
   * Memory reserved for the OS (`--system-reserved=memory=...`).
   * @default DEFAULT_SYSTEM_RESERVED_MEMORY ('2Gi')
   */
  readonly systemReservedMemory?: string;
  /**
   * More kubelet arguments, appended last.
   * @default []
   */
  readonly extraArgs?: readonly string[];
}

/** The kubelet arguments for a Windows node, in a stable order. */
export function windowsKubeletArgs(options: WindowsKubeletArgsOptions): string[] {
  const args: string[] = [];
  const labels = Object.entries(options.labels).sort(([a], [b]) => a.localeCompare(b));
  if (labels.length > 0) args.push(`--node-labels=${labels.map(([k, v]) => `${k}=${v}`).join(',')}`);
  if (options.taints.length > 0) args.push(`--register-with-taints=${options.taints.map(taintToString).join(',')}`);
  args.push(`--system-reserved=memory=${options.systemReservedMemory ?? DEFAULT_SYSTEM_RESERVED_MEMORY}`);
  args.push(`--windows-priorityclass=${KUBELET_WINDOWS_PRIORITY_CLASS}`);
  args.push(...(options.extraArgs ?? []));
  return args;
}

export interface WindowsUserDataOptions {
  /** `-EKSClusterName`. */
  readonly clusterName: string;
  /**
   * `-APIServerEndpoint`: saves the script a DescribeCluster call. Only valid together with
   * `certificateAuthority` (`-Base64ClusterCA`), per the bootstrap parameter table.
   * @default - looked up by the script
   */
  readonly apiServerEndpoint?: string;
  /**
   * `-Base64ClusterCA`: the cluster's certificate authority data, base64.
   * @default - looked up by the script
   */
  readonly certificateAuthority?: string;
  /**
   * `-DNSClusterIP`: the cluster DNS service IP.
   * @default - derived by the script from the service CIDR
   */
  readonly dnsClusterIp?: string;
  /**
   * `-ServiceCIDR`: the cluster's service IPv4 range. Without it the script guesses `10.100.0.0/16` or
   * `172.20.0.0/16` from the node's own address, which breaks nodes of clusters with a custom service CIDR.
   * @default - guessed by the script
   */
  readonly serviceCidr?: string;
  /** `-KubeletExtraArgs`, see `windowsKubeletArgs`. */
  readonly kubeletArgs: readonly string[];
}

/**
 * The `<powershell>` user data (plain text; EC2 launch templates want it base64-encoded). Every value is a
 * single-quoted PowerShell string, so nothing in it is expanded.
 */
export function renderWindowsUserData(options: WindowsUserDataOptions): string {
  const problems = userDataProblems(options);
  if (problems.length > 0) throw new WindowsValidationError(problems, 'EKS Windows user data');
  const params: string[] = [`-EKSClusterName ${psQuote(options.clusterName)}`];
  if (options.apiServerEndpoint !== undefined) params.push(`-APIServerEndpoint ${psQuote(options.apiServerEndpoint)}`);
  if (options.certificateAuthority !== undefined)
    params.push(`-Base64ClusterCA ${psQuote(options.certificateAuthority)}`);
  if (options.dnsClusterIp !== undefined) params.push(`-DNSClusterIP ${psQuote(options.dnsClusterIp)}`);
  if (options.serviceCidr !== undefined) params.push(`-ServiceCIDR ${psQuote(options.serviceCidr)}`);
  params.push(`-KubeletExtraArgs ${psQuote(options.kubeletArgs.join(' '))}`);
  return [
    '<powershell>',
    // Streams 3-6 (warning, verbose, debug, information) go to the EC2Launch log with the output, as in AWS's templates.
    `& "${EKS_BOOTSTRAP_SCRIPT}" ${params.join(' ')} 3>&1 4>&1 5>&1 6>&1`,
    '</powershell>',
    '',
  ].join('\n');
}

/** An IPv4 CIDR such as `172.20.0.0/16`. */
const IPV4_CIDR = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/(\d|[12]\d|3[0-2])$/;

/**
 * What the bootstrap script would refuse or misread: an endpoint without the CA (`-APIServerEndpoint` is only
 * valid with `-Base64ClusterCA`), the CA without the endpoint, a service CIDR that is not an IPv4 CIDR. Paths are
 * the pool's arg names.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters
 */
export function userDataProblems(options: {
  readonly apiServerEndpoint?: unknown;
  readonly certificateAuthority?: unknown;
  readonly serviceCidr?: unknown;
}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const has = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
  if (has(options.apiServerEndpoint) && !has(options.certificateAuthority)) {
    issues.push({
      path: 'clusterCertificateAuthority',
      message:
        'clusterEndpoint is set without clusterCertificateAuthority; the bootstrap script takes -APIServerEndpoint only with -Base64ClusterCA.',
      fix: 'Pass clusterCertificateAuthority: cluster.certificateAuthority.data too, or neither (the script calls DescribeCluster).',
    });
  } else if (!has(options.apiServerEndpoint) && has(options.certificateAuthority)) {
    issues.push({
      path: 'clusterEndpoint',
      message: 'clusterCertificateAuthority is set without clusterEndpoint; the bootstrap script takes them together.',
      fix: 'Pass clusterEndpoint: cluster.endpoint too, or neither.',
    });
  }
  const cidr = options.serviceCidr;
  if (cidr !== undefined && (typeof cidr !== 'string' || !IPV4_CIDR.test(cidr))) {
    issues.push({
      path: 'serviceIpv4Cidr',
      message: `Service CIDR ${JSON.stringify(cidr)} is not an IPv4 CIDR.`,
      fix: "Write the cluster's kubernetesNetworkConfig.serviceIpv4Cidr, e.g. '172.20.0.0/16'.",
    });
  }
  return issues;
}

/** Base64 of the user data, as `aws.ec2.LaunchTemplate.userData` expects. */
export function encodeUserData(userData: string): string {
  return Buffer.from(userData, 'utf8').toString('base64');
}

/** A single-quoted PowerShell string; PowerShell also treats the typographic quotes ‘ ’ ‚ ‛ as quotes. */
function psQuote(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}
