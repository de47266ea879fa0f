/**
 * PowerShell user data for self-managed Windows nodes: runs the EKS bootstrap script shipped in the EKS-optimized
 * Windows AMIs (and in custom AMIs built from them) with the kubelet arguments of reference §6.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/eks-optimized-windows-ami.html#bootstrap-script-configuration-parameters
 * @see https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html
 */
import type { Taint } from '../../core/target';
import { taintToString } from '../node-pool';

/** The bootstrap script, as AWS's own templates call it (`$env:ProgramFiles` holds a space: keep it quoted). */
export const EKS_BOOTSTRAP_SCRIPT = '$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1';
/** Reserve memory for Windows itself: it takes about 3.5 GB at idle (reference §6: at least 2Gi). */
export const DEFAULT_SYSTEM_RESERVED_MEMORY = '2Gi';
/** Runs the kubelet above normal priority so busy pods cannot starve it (reference §6). */
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
   * `-APIServerEndpoint`: saves the script a DescribeCluster call.
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
  /** `-KubeletExtraArgs`, see `windowsKubeletArgs`. */
  readonly kubeletArgs: readonly string[];
}

/**
 * The `<powershell>` user data (plain text; EC2 launch templates want it base64-encoded). Every value is a
 * single-quoted PowerShell string, so nothing in it is expanded.
 */
export function renderWindowsUserData(options: WindowsUserDataOptions): string {
  const params: string[] = [`-EKSClusterName ${psQuote(options.clusterName)}`];
  if (options.apiServerEndpoint !== undefined) params.push(`-APIServerEndpoint ${psQuote(options.apiServerEndpoint)}`);
  if (options.certificateAuthority !== undefined)
    params.push(`-Base64ClusterCA ${psQuote(options.certificateAuthority)}`);
  if (options.dnsClusterIp !== undefined) params.push(`-DNSClusterIP ${psQuote(options.dnsClusterIp)}`);
  params.push(`-KubeletExtraArgs ${psQuote(options.kubeletArgs.join(' '))}`);
  return [
    '<powershell>',
    // Streams 3-6 (warning, verbose, debug, information) go to the EC2Launch log with the output, as in AWS's templates.
    `& "${EKS_BOOTSTRAP_SCRIPT}" ${params.join(' ')} 3>&1 4>&1 5>&1 6>&1`,
    '</powershell>',
    '',
  ].join('\n');
}

/** Base64 of the user data, as `aws.ec2.LaunchTemplate.userData` expects. */
export function encodeUserData(userData: string): string {
  return Buffer.from(userData, 'utf8').toString('base64');
}

/** A single-quoted PowerShell string; PowerShell also treats the typographic quotes ‘ ’ ‚ ‛ as quotes. */
function psQuote(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}
