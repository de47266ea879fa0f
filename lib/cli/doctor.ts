/**
 * `k8s-windows doctor`: reads a live cluster (read-only: list on nodes, pods, events, RuntimeClasses and the
 * workload controllers) and explains every Windows pod that is not Ready from what the scheduler, the kubelet and the
 * runtime wrote; judges the running workloads with lint's rules against the nodes they can land on (or the release
 * of --upgrade-to); judges the nodes. `--facts` prints the WindowsClusterFacts of the nodes instead. Exit codes as
 * lint's: 0 clean, 1 findings at --fail-on, 2 when the cluster could not be read.
 */
import { ClusterError } from '../cluster/errors';
import { connect } from '../cluster/connect';
import { doctorRbac } from '../cluster/rbac';
import { readCluster, type ClusterSnapshot } from '../cluster/read';
import { stringify } from 'yaml';
import { diagnosePod, explainOwner, type PodFinding } from '../core/cluster/explain';
import { clusterFactsFromNodes } from '../core/cluster/facts';
import { nodeFacts, nodeFindings } from '../core/cluster/nodes';
import { judgeWorkloads } from '../core/cluster/workloads';
import { locatePodSpec } from '../core/workloads';
import { WindowsValidationError } from '../core/errors';
import type { Diagnostic, Severity } from '../core/model/types';
import { clusterFactsObject } from '../core/policies/cluster-facts';
import type { WindowsRelease } from '../core/releases';
import { RULES } from '../core/validate';
import { formatSeconds } from '../registry/deadline';
import type { DoctorCommand } from './args';
import { workflowCommand } from './format-github';
import { formatSarif } from './format-sarif';
import { printable } from './format-text';
import { writeJson } from './json-out';
import { packageInfo, TOOL_NAME } from './package-info';

export interface DoctorIO {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory SARIF's `%SRCROOT%` names. @default process.cwd() */
  readonly cwd?: string;
}

/** A finding with what the cluster said, verbatim. */
export type DoctorFinding = Diagnostic & { readonly evidence?: PodFinding['evidence'] };

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

export async function runDoctor(command: DoctorCommand, io: DoctorIO): Promise<number> {
  if (command.printRbac) {
    io.stdout.write(doctorRbac());
    return 0;
  }
  // One deadline over the whole run: connecting (an exec credential plugin included) and every page of every list.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), command.timeoutMs);
  timer.unref();
  const deadline = `the deadline of ${formatSeconds(command.timeoutMs)} (--timeout)`;
  let snapshot: ClusterSnapshot;
  let context: string;
  try {
    const connection = await connect({
      env: io.env,
      ...(command.kubeconfig !== undefined ? { kubeconfig: command.kubeconfig } : {}),
      ...(command.context !== undefined ? { context: command.context } : {}),
    });
    context = connection.context;
    snapshot = await readCluster(connection, {
      signal: controller.signal,
      deadline,
      ...(command.namespace !== undefined ? { namespace: command.namespace } : {}),
      read: command.facts ? 'facts' : 'all',
    });
  } catch (err) {
    if (!(err instanceof ClusterError)) throw err;
    io.stderr.write(`${TOOL_NAME} doctor: ${printable(err.message)}\n`);
    return 2;
  } finally {
    clearTimeout(timer);
  }
  if (command.facts) return printFacts(snapshot, context, io);
  const report = diagnose(snapshot, {
    ...(command.upgradeTo !== undefined ? { upgradeTo: command.upgradeTo } : {}),
    ...(command.kubernetesVersion !== undefined ? { kubernetesVersion: command.kubernetesVersion } : {}),
  });
  switch (command.format) {
    case 'text':
      io.stdout.write(formatDoctorText(report, context));
      break;
    case 'json':
      io.stdout.write(`${JSON.stringify(doctorJson(report, context), null, 2)}\n`);
      break;
    case 'sarif':
      writeJson(doctorSarif(report, io.cwd ?? process.cwd()), io.stdout);
      break;
    case 'github':
      for (const f of report.findings) io.stdout.write(`${githubLine(f)}\n`);
      break;
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
  return report.findings.some((f) => RANK[f.severity] <= RANK[command.failOn]) ? 1 : 0;
}

/** `doctor --facts`: the WindowsClusterFacts object of the nodes and RuntimeClasses, as YAML for kubectl apply. */
function printFacts(snapshot: ClusterSnapshot, context: string, io: DoctorIO): number {
  let object: Record<string, unknown>;
  try {
    object = clusterFactsObject(clusterFactsFromNodes(snapshot.nodes.map(nodeFacts), snapshot.runtimeClasses));
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    for (const i of err.issues) {
      io.stderr.write(
        `${TOOL_NAME} doctor --facts: ${printable(`${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`)}\n`,
      );
    }
    return 2;
  }
  io.stdout.write(
    `# WindowsClusterFacts read from the nodes and RuntimeClasses of context ${printable(context)} by ${TOOL_NAME} doctor --facts.\n# Apply it with the policies (k8s-windows policies --cluster-facts FILE), or on its own with kubectl apply -f.\n${stringify(object, { lineWidth: 0 })}`,
  );
  return 0;
}

/** What doctor found in a snapshot. */
export interface DoctorReport {
  readonly nodes: { readonly total: number; readonly windows: number };
  readonly pods: { readonly total: number; readonly windows: number; readonly notReady: number };
  /** The top-level workloads (and bare pods) the rules judged. */
  readonly workloads: number;
  /** The release the workloads were judged as running on (`--upgrade-to`), when one was given. */
  readonly upgradeTo?: WindowsRelease;
  readonly findings: readonly DoctorFinding[];
  /** Findings a suppression annotation hides, as lint lists them. */
  readonly suppressed: readonly DoctorFinding[];
}

export interface DiagnoseOptions {
  /** Judge the workloads as if every Windows node ran this release (`--upgrade-to`). @default - as they run */
  readonly upgradeTo?: WindowsRelease;
  /** The Kubernetes minor the rules judge by (`--kubernetes-version`). @default - the oldest Windows kubelet's */
  readonly kubernetesVersion?: string;
  /** The day support and retirements are judged at. @default - today */
  readonly date?: string;
}

/**
 * Every Windows pod that is not Ready explained, the workloads judged by lint's rules against the nodes they can land
 * on, then the nodes judged. Pure: the tests feed it snapshots.
 */
export function diagnose(snapshot: ClusterSnapshot, options: DiagnoseOptions = {}): DoctorReport {
  const nodes = snapshot.nodes.map(nodeFacts);
  const windowsNodes = new Set(nodes.filter((n) => n.os === 'windows').map((n) => n.name));
  // Events by the object they are about: `Pod/ns/name`, `ReplicaSet/ns/name`.
  const eventsOf = new Map<string, Record<string, unknown>[]>();
  const keyOf = (kind: unknown, metadata: unknown): string => {
    const m = (metadata ?? {}) as { namespace?: string; name?: string };
    return `${String(kind)}/${m.namespace ?? ''}/${m.name ?? ''}`;
  };
  for (const event of snapshot.events) {
    const involved = event.involvedObject as { kind?: string } | undefined;
    const key = keyOf(involved?.kind, involved);
    const list = eventsOf.get(key);
    if (list === undefined) eventsOf.set(key, [event]);
    else list.push(event);
  }
  const findings: DoctorFinding[] = [];
  let windowsPods = 0;
  let notReady = 0;
  for (const pod of snapshot.pods) {
    const events = eventsOf.get(keyOf('Pod', pod.metadata)) ?? [];
    const explained = diagnosePod(pod, events, { nodes: snapshot.nodes, windowsNodes });
    if (explained.windows) windowsPods++;
    if (explained.windows && !explained.ready) notReady++;
    findings.push(...explained.findings);
  }
  // Pods the API server refused never exist: their controllers' FailedCreate events say why.
  for (const owner of snapshot.owners) {
    const events = eventsOf.get(keyOf(owner.kind, owner.metadata)) ?? [];
    if (events.length > 0) findings.push(...explainOwner(owner, events, { nodes: snapshot.nodes, windowsNodes }));
  }
  const judged = judgeWorkloads([...snapshot.owners, ...snapshot.pods], {
    nodes,
    runtimeClasses: snapshot.runtimeClasses,
    ...options,
  });
  // What the cluster itself said (a refusal, with its evidence) wins over the rules' reading of the same field.
  const explained = new Set(findings.map((f) => findingKey(f)));
  findings.push(...judged.findings.filter((f) => !explained.has(findingKey(f))));
  findings.push(
    ...nodeFindings(nodes, {
      ...(options.date !== undefined ? { date: options.date } : {}),
      hostProcessWorkloads: hostProcessWorkloads(snapshot),
    }),
  );
  findings.sort((a, b) => RANK[a.severity] - RANK[b.severity]);
  return {
    nodes: { total: nodes.length, windows: windowsNodes.size },
    pods: { total: snapshot.pods.length, windows: windowsPods, notReady },
    workloads: judged.workloads,
    ...(options.upgradeTo !== undefined ? { upgradeTo: options.upgradeTo } : {}),
    findings,
    suppressed: judged.suppressed,
  };
}

/** The controllers, and the pods no controller owns, whose pods run HostProcess containers: `DaemonSet ns/name`. */
function hostProcessWorkloads(snapshot: ClusterSnapshot): string[] {
  const hostProcess = (o: unknown): boolean => {
    const spec = locatePodSpec(o)?.spec as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (spec === undefined) return false;
    const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])] as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    return (
      spec.securityContext?.windowsOptions?.hostProcess === true ||
      containers.some((c) => c?.securityContext?.windowsOptions?.hostProcess === true)
    );
  };
  const bare = snapshot.pods.filter((p) => {
    const refs = (p.metadata as { ownerReferences?: unknown[] } | undefined)?.ownerReferences;
    return !Array.isArray(refs) || refs.length === 0;
  });
  return [...snapshot.owners.filter((o) => o.kind !== 'ReplicaSet' && o.kind !== 'Job'), ...bare]
    .filter(hostProcess)
    .map((o) => {
      const m = (o.metadata ?? {}) as { namespace?: string; name?: string };
      return `${String(o.kind)} ${m.namespace ?? ''}/${m.name ?? ''}`;
    });
}

function findingKey(f: Diagnostic): string {
  return `${f.resource.kind ?? ''}/${f.resource.namespace ?? ''}/${f.resource.name ?? ''}\u0000${f.path}`;
}

function resourceName(f: Diagnostic): string {
  const r = f.resource;
  return `${r.kind ?? '(no kind)'} ${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name ?? '(no name)'}`;
}

export function formatDoctorText(report: DoctorReport, context: string): string {
  const lines: string[] = [];
  const upgrade = report.upgradeTo !== undefined ? `, workloads judged as on Windows Server ${report.upgradeTo}` : '';
  const suppressed = report.suppressed.length > 0 ? `, ${report.suppressed.length} suppressed` : '';
  const scope = `${report.pods.windows} Windows pod${report.pods.windows === 1 ? '' : 's'} (${report.pods.notReady} not Ready) of ${report.pods.total}, ${report.nodes.windows} Windows node${report.nodes.windows === 1 ? '' : 's'} of ${report.nodes.total}${upgrade}${suppressed}, context ${context}`;
  for (const f of report.findings) {
    lines.push(`${resourceName(f)}`);
    lines.push(`  ${f.severity.padEnd(7)}  ${printable(f.message)}  ${f.ruleId}`);
    if (f.evidence !== undefined)
      lines.push(`           evidence (${printable(f.evidence.from)}): ${printable(f.evidence.text)}`);
    if (f.fix !== undefined) lines.push(`           fix: ${printable(f.fix)}`);
    lines.push('');
  }
  if (report.findings.length === 0) lines.push(`✔ No problems: ${scope}.`);
  else lines.push(`✖ ${report.findings.length} problem${report.findings.length === 1 ? '' : 's'}: ${scope}.`);
  return `${lines.join('\n')}\n`;
}

export function doctorJson(report: DoctorReport, context: string): Record<string, unknown> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of report.findings) counts[f.severity]++;
  return {
    tool: { name: TOOL_NAME, version: packageInfo().version },
    context,
    ...(report.upgradeTo !== undefined ? { upgradeTo: report.upgradeTo } : {}),
    summary: {
      nodes: report.nodes,
      pods: report.pods,
      workloads: report.workloads,
      ...counts,
      suppressed: report.suppressed.length,
    },
    // As lint's JSON: the suppressed findings too, each with its suppression.
    findings: [...report.findings, ...report.suppressed],
  };
}

/** SARIF 2.1.0 as lint writes it: objects of the cluster as logical locations, the evidence in the message. */
export function doctorSarif(report: DoctorReport, cwd: string): ReturnType<typeof formatSarif> {
  const withEvidence = (f: DoctorFinding): Diagnostic => {
    const { evidence, ...d } = f as DoctorFinding & Record<string, unknown>;
    return evidence !== undefined ? { ...d, message: `${f.message} Evidence (${evidence.from}): ${evidence.text}` } : d;
  };
  return formatSarif(
    [...report.findings, ...report.suppressed].map((f) => ({ diagnostic: withEvidence(f) })),
    { rules: RULES, tool: packageInfo(), cwd, inputProblems: [] },
  );
}

function githubLine(f: DoctorFinding): string {
  const command = f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
  const evidence = f.evidence !== undefined ? ` Evidence (${f.evidence.from}): ${f.evidence.text}` : '';
  return workflowCommand(
    command,
    { title: `k8s-windows ${f.ruleId}` },
    `${resourceName(f)}: ${f.message}${evidence}${f.fix !== undefined ? ` Fix: ${f.fix}` : ''}`,
  );
}
