/**
 * `explainPod` and `explainOwner` on pods, workloads and events as the components write them: one exact finding per
 * cause (rule, our words, the fix, the evidence verbatim and where it was read), the newest evidence of each cause,
 * and silence for Ready pods, Linux pods and text about other objects.
 */
import { diagnosePod, explainOwner, explainPod, isWindowsPod } from '../../../lib/core/cluster/explain';
import {
  MIXED_NODES,
  NAMESPACE,
  POD,
  READY_STATUS,
  linuxPod,
  node,
  ownerEvent,
  podEvent,
  pullError,
  startError,
  unschedulable,
  windowsPod,
  type Json,
} from './fixtures';

const RESOURCE = { kind: 'Pod', namespace: NAMESPACE, name: POD };
const OWNER = { kind: 'ReplicaSet', name: 'web-7d4b9c8f6' };
const SCHEDULER = { component: 'default-scheduler' };

const TAINTED =
  "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {os: windows}. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.";

describe('scheduler: untolerated Windows taints', () => {
  test('the FailedScheduling event names the taint: add its toleration', () => {
    const pod = windowsPod({}, unschedulable(TAINTED));
    expect(explainPod(pod, [podEvent('FailedScheduling', TAINTED, SCHEDULER)])).toEqual([
      {
        ruleId: 'doctor-untolerated-taint',
        severity: 'error',
        message:
          'The pod does not tolerate the taint {os: windows} that 3 node(s) carry (a Windows node taint), so the scheduler places it on none of them.',
        fix: 'Add to spec.tolerations: {key: "os", operator: "Equal", value: "windows"} (with no effect it tolerates NoSchedule and NoExecute alike).',
        evidence: { text: TAINTED, from: 'event FailedScheduling by default-scheduler', at: '2026-12-07T10:02:00Z' },
        resource: RESOURCE,
        path: 'spec.tolerations',
        patternId: 'scheduler-untolerated-taint',
        owner: OWNER,
      },
    ]);
  });

  test('only the newest evidence: the condition when it is newer than the event', () => {
    const pod = windowsPod({}, unschedulable(TAINTED, '2026-12-07T10:10:00Z'));
    const [finding] = explainPod(pod, [podEvent('FailedScheduling', TAINTED, SCHEDULER)]);
    expect(finding.evidence).toEqual({ text: TAINTED, from: 'status.conditions[0]', at: '2026-12-07T10:10:00Z' });
  });

  test('without events the PodScheduled condition is the evidence', () => {
    const findings = explainPod(windowsPod({}, unschedulable(TAINTED)));
    expect(findings.map((f) => [f.ruleId, f.evidence.from])).toEqual([
      ['doctor-untolerated-taint', 'status.conditions[0]'],
    ]);
  });

  test('a control-plane taint is no Windows cause; a custom taint the Windows nodes carry is', () => {
    const text =
      "0/6 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {dedicated: win-pool}. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.";
    const pod = windowsPod({}, unschedulable(text));
    expect(explainPod(pod)).toEqual([]);
    const nodes = [
      node('control-plane', 'linux', {
        taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      }),
      node('linux-1', 'linux'),
      node('linux-2', 'linux'),
      ...['win-1', 'win-2', 'win-3'].map((n) =>
        node(n, 'windows', {
          build: '10.0.26100',
          taints: [{ key: 'dedicated', value: 'win-pool', effect: 'NoExecute' }],
        }),
      ),
    ];
    const findings = explainPod(pod, [], { nodes });
    expect(findings.map((f) => [f.ruleId, f.message, f.fix])).toEqual([
      [
        'doctor-untolerated-taint',
        'The pod does not tolerate the taint {dedicated: win-pool} that 3 node(s) carry (Windows nodes), so the scheduler places it on none of them.',
        'Add to spec.tolerations: {key: "dedicated", operator: "Equal", value: "win-pool"} (with no effect it tolerates NoSchedule and NoExecute alike).',
      ],
    ]);
  });

  test('a taint without a value asks for operator Exists; a toleration of the key that does not match is named', () => {
    const text =
      '0/2 nodes are available: 2 node(s) had untolerated taint {windows: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    const pod = windowsPod(
      { tolerations: [{ key: 'windows', operator: 'Equal', value: 'true', effect: 'NoSchedule' }] },
      unschedulable(text),
    );
    expect(explainPod(pod).map((f) => [f.message, f.fix])).toEqual([
      [
        'The pod does not tolerate the taint {windows: } that 2 node(s) carry (a Windows node taint), so the scheduler places it on none of them. spec.tolerations[0] names the key but does not tolerate the taint: check its operator, value and effect.',
        'Add to spec.tolerations: {key: "windows", operator: "Exists"} (with no effect it tolerates NoSchedule and NoExecute alike).',
      ],
    ]);
  });

  test("the older scheduler's wording is read too", () => {
    const text = "0/3 nodes are available: 3 node(s) had taint {os: windows}, that the pod didn't tolerate.";
    expect(explainPod(windowsPod({}, unschedulable(text))).map((f) => [f.ruleId, f.patternId])).toEqual([
      ['doctor-untolerated-taint', 'scheduler-untolerated-taint-older-wording'],
    ]);
  });

  test('a truncated event (" ..." at 1 KiB) still names its taints', () => {
    const reasons = Array.from({ length: 40 }, (_, i) => `1 node(s) had untolerated taint {team-${i}: x}`).join(', ');
    const text =
      `0/43 nodes are available: 3 node(s) had untolerated taint {os: windows}, ${reasons}`.slice(0, 1020) + ' ...';
    const findings = explainPod(windowsPod(), [podEvent('FailedScheduling', text, SCHEDULER)]);
    expect(findings.map((f) => f.fix)).toEqual([
      'Add to spec.tolerations: {key: "os", operator: "Equal", value: "windows"} (with no effect it tolerates NoSchedule and NoExecute alike).',
    ]);
  });
});

describe('scheduler: no node matches the OS or build selector', () => {
  const text =
    "0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.";

  test('with the nodes: the label no node has, and the values the Windows nodes have', () => {
    const pod = windowsPod(
      { nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' } },
      unschedulable(text),
    );
    expect(explainPod(pod, [podEvent('FailedScheduling', text, SCHEDULER)], { nodes: MIXED_NODES })).toEqual([
      {
        ruleId: 'doctor-no-node-matches-selector',
        severity: 'error',
        message:
          "No node matches the pod's node selector (kubernetes.io/os=windows, node.kubernetes.io/windows-build=10.0.17763): all 5 nodes were rejected for it; no node has node.kubernetes.io/windows-build=10.0.17763 (Windows nodes have 10.0.20348).",
        fix: 'Change spec.nodeSelector["node.kubernetes.io/windows-build"] (10.0.17763) to a value the Windows nodes carry, or add nodes labelled node.kubernetes.io/windows-build=10.0.17763.',
        evidence: { text, from: 'event FailedScheduling by default-scheduler', at: '2026-12-07T10:02:00Z' },
        resource: RESOURCE,
        path: 'spec.nodeSelector',
        patternId: 'scheduler-node-affinity',
        owner: OWNER,
      },
    ]);
  });

  test('without the nodes: what the pod asks for, and how to compare it with the nodes', () => {
    const pod = windowsPod({}, unschedulable(text));
    expect(explainPod(pod).map((f) => [f.message, f.fix, f.path])).toEqual([
      [
        "No node matches the pod's node selector (kubernetes.io/os=windows): all 5 nodes were rejected for it.",
        'Make spec.nodeSelector ask only for labels the Windows nodes carry (kubectl get nodes -l kubernetes.io/os=windows --show-labels): kubernetes.io/os: windows, and a node.kubernetes.io/windows-build the nodes run.',
        'spec.nodeSelector',
      ],
    ]);
  });

  test('in a mixed cluster the Linux nodes failing the selector are no cause', () => {
    expect(explainPod(windowsPod({}, unschedulable(TAINTED))).map((f) => f.ruleId)).toEqual([
      'doctor-untolerated-taint',
    ]);
  });
});

describe('kubelet and containerd: an image without a Windows manifest', () => {
  const image = 'ghcr.io/nginx/nginx-gateway-fabric:2.0.2';
  const event = `Failed to pull image "${image}": rpc error: code = NotFound desc = failed to pull and unpack image "${image}": no match for platform in manifest: not found`;
  const waiting = `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": no match for platform in manifest: not found`;

  test('a pod with no OS that landed on a Windows node: pin it to Linux', () => {
    const pod = windowsPod(
      {
        os: undefined,
        nodeSelector: undefined,
        nodeName: 'akswin000001',
        containers: [{ name: 'cert-generator', image }],
      },
      pullError('cert-generator', image, waiting),
    );
    const events = [podEvent('Failed', event, { fieldPath: 'spec.containers{cert-generator}' })];
    expect(explainPod(pod, events, { nodes: MIXED_NODES })).toEqual([
      {
        ruleId: 'doctor-image-linux-only',
        severity: 'error',
        message: `Image "${image}" has no manifest a Windows node can run (no windows/amd64 entry): the image is published for Linux only (or for other platforms), so node akswin000001 (Windows Server 2022, 10.0.20348) cannot pull it.`,
        fix: 'The pod is not pinned to an OS and landed on a Windows node: set spec.nodeSelector kubernetes.io/os: linux, or use an image published for Windows.',
        evidence: { text: event, from: 'event Failed by kubelet', at: '2026-12-07T10:02:00Z' },
        resource: RESOURCE,
        path: 'spec.containers[0].image',
        patternId: 'containerd-no-match-for-platform',
        owner: OWNER,
      },
    ]);
    // Without the nodes nothing says the pod is a Windows pod: doctor stays silent.
    expect(explainPod(pod, events)).toEqual([]);
  });

  test('a declared Windows pod with a Linux image: use a Windows image (from the waiting state alone)', () => {
    const pod = windowsPod({ containers: [{ name: 'web', image }] }, pullError('web', image, waiting));
    expect(explainPod(pod).map((f) => [f.ruleId, f.fix, f.evidence.from, f.path])).toEqual([
      [
        'doctor-image-linux-only',
        "Use an image published for Windows in spec.containers[0].image (a manifest list with a windows/amd64 entry for the node's build, or an image built FROM a Windows base image); a Linux-only image cannot run on a Windows node.",
        'status.containerStatuses[0].state.waiting',
        'spec.containers[0].image',
      ],
    ]);
  });

  test('a Windows image without an entry for the node build is a build mismatch', () => {
    const win = 'mcr.microsoft.com/windows/servercore:ltsc2019';
    const text = `Failed to pull image "${win}": rpc error: code = NotFound desc = failed to pull and unpack image "${win}": no match for platform in manifest: not found`;
    const pod = windowsPod({ nodeName: 'akswin000002', containers: [{ name: 'web', image: win }] });
    expect(
      explainPod(pod, [podEvent('Failed', text, { fieldPath: 'spec.containers{web}' })], { nodes: MIXED_NODES }).map(
        (f) => [f.ruleId, f.message, f.fix],
      ),
    ).toEqual([
      [
        'doctor-image-os-mismatch',
        `Image "${win}" is a Windows image, but it has no manifest for the Windows build of node akswin000002 (Windows Server 2022, 10.0.20348): containerd on Windows pulls only an entry whose build the host can run.`,
        "Use a tag of the image built for the node's Windows release (tag ltsc2022) in spec.containers[0].image, or pin the pod to nodes of the image's build (spec.nodeSelector node.kubernetes.io/windows-build).",
      ],
    ]);
  });
});

describe('hcsshim: an image built for another Windows build', () => {
  const image = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
  const text =
    'failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem 7b5a9d0c3e8f4a1b9c2d6e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b: The container operating system does not match the host operating system.: unknown';

  test('the kubelet event and the StartError: the newest is the evidence, the node build names the tag', () => {
    const pod = windowsPod(
      { nodeName: 'akswin000000', containers: [{ name: 'web', image }] },
      startError('web', image, text),
    );
    const events = [podEvent('Failed', `Error: ${text}`, { fieldPath: 'spec.containers{web}' })];
    expect(explainPod(pod, events, { nodes: MIXED_NODES })).toEqual([
      {
        ruleId: 'doctor-image-os-mismatch',
        severity: 'error',
        message: `Image "${image}" is built for Windows Server 2019 (10.0.17763) and cannot run on node akswin000000 (Windows Server 2022, 10.0.20348): with process isolation Windows runs a container only on a host whose build supports the image's.`,
        fix: 'Use the image\'s ltsc2022 tag (built for Windows Server 2022) in spec.containers[0].image, or pin the pod to nodes of the image\'s build (spec.nodeSelector node.kubernetes.io/windows-build: "10.0.17763").',
        evidence: { text: `Error: ${text}`, from: 'event Failed by kubelet', at: '2026-12-07T10:02:00Z' },
        resource: RESOURCE,
        path: 'spec.containers[0].image',
        patternId: 'hcs-os-mismatch',
        owner: OWNER,
      },
    ]);
  });

  test('without nodes or events: the StartError, in general words', () => {
    const pod = windowsPod({ containers: [{ name: 'web', image }] }, startError('web', image, text));
    expect(explainPod(pod).map((f) => [f.message, f.fix, f.evidence.from])).toEqual([
      [
        `Image "${image}" is built for Windows Server 2019 (10.0.17763) and cannot run on the pod's node: with process isolation Windows runs a container only on a host whose build supports the image's.`,
        'Use the image tag built for the node\'s Windows release in spec.containers[0].image, or pin the pod to nodes of the image\'s build (spec.nodeSelector node.kubernetes.io/windows-build: "10.0.17763").',
        'status.containerStatuses[0].lastState.terminated',
      ],
    ]);
  });

  test('the older dockershim wording (0xc0370101) is read too', () => {
    const old =
      'Error response from daemon: container 0238a43119b6 encountered an error during CreateContainer: failure in a Windows system call: The operating system of the container does not match the operating system of the host. (0xc0370101)';
    const pod = windowsPod({ containers: [{ name: 'web', image }] });
    expect(
      explainPod(pod, [podEvent('Failed', `Error: ${old}`, { fieldPath: 'spec.containers{web}' })]).map(
        (f) => f.ruleId,
      ),
    ).toEqual(['doctor-image-os-mismatch']);
  });
});

describe('CreateProcess: the command is not in the image', () => {
  const id = '544494bda2d94405c85025aadab41c328224baa1edd2055afb0fee163ae3c50d';
  const text = `failed to start containerd task "${id}": hcs::System::CreateProcess ${id}: The system cannot find the file specified.: unknown`;

  test('Windows PowerShell in a Nano Server container', () => {
    const image = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';
    const pod = windowsPod(
      { containers: [{ name: 'shell', image, command: ['powershell', '-Command', 'Start-Sleep -Seconds 3600'] }] },
      startError('shell', image, text),
    );
    const events = [
      podEvent('Failed', `Error: ${text}`, { fieldPath: 'spec.containers{shell}', last: '2026-12-07T10:01:31Z' }),
    ];
    expect(explainPod(pod, events)).toEqual([
      {
        ruleId: 'doctor-nanoserver-powershell',
        severity: 'error',
        message: `Container "shell" runs "powershell", but its image "${image}" is Nano Server, which has no Windows PowerShell: Windows cannot find the file.`,
        fix: 'Run the command with cmd /c in spec.containers[0].command ("cmd", "/c", …), or use an image that ships PowerShell 7 (mcr.microsoft.com/powershell with a nanoserver tag for the node\'s build) and run pwsh.',
        evidence: { text: `Error: ${text}`, from: 'event Failed by kubelet', at: '2026-12-07T10:01:31Z' },
        resource: RESOURCE,
        path: 'spec.containers[0].command',
        patternId: 'hcs-create-process-file-not-found',
        owner: OWNER,
      },
    ]);
  });

  test('the dockershim wording, powershell.exe by its full path', () => {
    const image = 'mcr.microsoft.com/windows/nanoserver:1809';
    const docker =
      'Error response from daemon: container windows encountered an error during hcsshim::System::CreateProcess: failure in a Windows system call: The system cannot find the file specified. (0x2)';
    const pod = windowsPod({
      containers: [
        {
          name: 'windows',
          image,
          command: ['C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'],
          args: ['Start-Sleep', '999999'],
        },
      ],
    });
    expect(
      explainPod(pod, [
        podEvent('Failed', `Error: failed to start container "windows": ${docker}`, {
          fieldPath: 'spec.containers{windows}',
        }),
      ]).map((f) => f.ruleId),
    ).toEqual(['doctor-nanoserver-powershell']);
  });

  test('another command missing from the image', () => {
    const image = 'contoso/orders:1.4.2-ltsc2022';
    const pod = windowsPod(
      { containers: [{ name: 'orders', image, command: ['C:\\app\\orders.exe'] }] },
      startError('orders', image, text),
    );
    expect(explainPod(pod).map((f) => [f.ruleId, f.message, f.fix, f.path])).toEqual([
      [
        'doctor-command-not-found',
        `Container "orders" runs "C:\\app\\orders.exe", which its image "${image}" does not have: Windows cannot find the file.`,
        "Set spec.containers[0].command to an executable the image has (its full path, or one on the image's PATH).",
        'spec.containers[0].command',
      ],
    ]);
  });
});

describe('HostProcess', () => {
  const hostProcessSpec = (extra: Json = {}): Json => ({
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [{ name: 'agent', image: 'contoso/node-agent:2.3.0', command: ['install-agent.exe'] }],
    ...extra,
  });

  test('the logon fails: the user and how containerd must run', () => {
    const text =
      'failed to create containerd task: failed to create shim task: failed to create user process token: failed to logon user: Access is denied.: unknown';
    const pod = windowsPod(hostProcessSpec(), startError('agent', 'contoso/node-agent:2.3.0', text));
    expect(explainPod(pod).map((f) => [f.ruleId, f.message, f.fix, f.path])).toEqual([
      [
        'doctor-hostprocess-failed',
        'HostProcess container "agent" could not log on as "NT AUTHORITY\\SYSTEM" (Access is denied): containerd must run as LocalSystem or LocalService, and the user must be a service account or a local group of the node.',
        'Set spec.securityContext.windowsOptions.runAsUserName to NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service, NT AUTHORITY\\NetworkService or a local group of the node, and run containerd as LocalSystem or LocalService.',
        'spec.securityContext.windowsOptions.runAsUserName',
      ],
    ]);
  });

  test('the executable is not found', () => {
    const text =
      'failed to start containerd task "0d2b8b6a6f4e": failed to find executable "install-agent.exe": unknown';
    const pod = windowsPod(hostProcessSpec(), startError('agent', 'contoso/node-agent:2.3.0', text));
    expect(explainPod(pod).map((f) => [f.ruleId, f.message, f.fix])).toEqual([
      [
        'doctor-hostprocess-failed',
        'HostProcess container "agent": its command "install-agent.exe" was not found in the working directory, the container\'s PATH or the node\'s system directories.',
        "Give the executable's full path in spec.containers[0].command (a file of the image is under %CONTAINER_SANDBOX_MOUNT_POINT%), or set workingDir or PATH to its folder.",
      ],
    ]);
  });

  test('a HostProcess pod under Hyper-V isolation', () => {
    const text =
      'failed to create containerd task: failed to create shim task: UVM does not support HostProcess containers: unknown';
    const pod = windowsPod(hostProcessSpec({ runtimeClassName: 'windows-hyperv' }));
    expect(
      explainPod(pod, [podEvent('Failed', `Error: ${text}`, { fieldPath: 'spec.containers{agent}' })]).map((f) => [
        f.message,
        f.path,
      ]),
    ).toEqual([
      [
        'The pod runs HostProcess containers with Hyper-V isolation (RuntimeClass "windows-hyperv"): the utility VM does not support HostProcess containers.',
        'spec.runtimeClassName',
      ],
    ]);
  });

  test('the API server refuses a DaemonSet pod without hostNetwork', () => {
    const daemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'node-agent', namespace: NAMESPACE, uid: '1d2c3b4a' },
      spec: {
        template: { metadata: { labels: { app: 'node-agent' } }, spec: { ...hostProcessSpec(), hostNetwork: false } },
      },
    };
    const text =
      'Error creating: Pod "node-agent-7xk2p" is invalid: spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers';
    expect(explainOwner(daemonSet, [ownerEvent('DaemonSet', 'node-agent', text, 'daemonset-controller')])).toEqual([
      {
        ruleId: 'doctor-hostprocess-failed',
        severity: 'error',
        message: 'The API server refuses the pod: a pod with HostProcess containers must use the host network.',
        fix: 'Set spec.template.spec.hostNetwork: true.',
        evidence: { text, from: 'event FailedCreate by daemonset-controller', at: '2026-12-07T10:05:00Z' },
        resource: { kind: 'DaemonSet', namespace: NAMESPACE, name: 'node-agent' },
        path: 'spec.template.spec.hostNetwork',
        patternId: 'apiserver-hostprocess-host-network',
      },
    ]);
  });
});

describe('gMSA webhook denials', () => {
  const replicaSet = (windowsOptions: Json): Json => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'webapp-5d8f7b6c4', namespace: NAMESPACE },
    spec: {
      template: {
        metadata: { labels: { app: 'webapp' } },
        spec: {
          serviceAccountName: 'webapp',
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          containers: [
            {
              name: 'iis',
              image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
              securityContext: { windowsOptions },
            },
          ],
        },
      },
    },
  });
  const denied = (why: string) =>
    ownerEvent(
      'ReplicaSet',
      'webapp-5d8f7b6c4',
      `Error creating: admission webhook "admission-webhook.windows-gmsa.sigs.k8s.io" denied the request: ${why}`,
      'replicaset-controller',
    );

  test('the service account may not use the credential spec', () => {
    const event = denied('service account "webapp" is not authorized to `use` GMSA cred spec "gmsa-webapp1"');
    expect(explainOwner(replicaSet({ gmsaCredentialSpecName: 'gmsa-webapp1' }), [event])).toEqual([
      {
        ruleId: 'doctor-gmsa-failed',
        severity: 'error',
        message:
          'The gMSA webhook refuses the pod: service account "webapp" may not use the GMSACredentialSpec "gmsa-webapp1".',
        fix: 'Bind service account "webapp" (namespace shop) to a Role or ClusterRole with the rule {apiGroups: ["windows.k8s.io"], resources: ["gmsacredentialspecs"], verbs: ["use"], resourceNames: ["gmsa-webapp1"]}.',
        evidence: {
          text: event.message,
          from: 'event FailedCreate by replicaset-controller',
          at: '2026-12-07T10:05:00Z',
        },
        resource: { kind: 'ReplicaSet', namespace: NAMESPACE, name: 'webapp-5d8f7b6c4' },
        path: 'spec.template.spec.serviceAccountName',
        patternId: 'gmsa-webhook-not-authorized',
      },
    ]);
  });

  test('the credential spec does not exist: the field that names it', () => {
    const findings = explainOwner(replicaSet({ gmsaCredentialSpecName: 'gmsa-webap1' }), [
      denied('cred spec gmsa-webap1 does not exist'),
    ]);
    expect(findings.map((f) => [f.message, f.fix, f.path])).toEqual([
      [
        'The gMSA webhook refuses the pod: the GMSACredentialSpec "gmsa-webap1" it names does not exist.',
        'Create the GMSACredentialSpec "gmsa-webap1", or correct spec.template.spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName (kubectl get gmsacredentialspecs).',
        'spec.template.spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName',
      ],
    ]);
  });

  test('inline contents that differ from the resource', () => {
    const findings = explainOwner(replicaSet({ gmsaCredentialSpecName: 'gmsa-webapp1', gmsaCredentialSpec: '{}' }), [
      denied(
        'the GMSA cred spec contents for container "iis" does not match the contents of GMSA resource "gmsa-webapp1"',
      ),
    ]);
    expect(findings.map((f) => f.path)).toEqual([
      'spec.template.spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec',
    ]);
  });
});

describe('forbidden fields', () => {
  const replicaSet: Json = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-7d4b9c8f6', namespace: NAMESPACE },
    spec: {
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          os: { name: 'windows' },
          securityContext: { runAsUser: 1000 },
          containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
        },
      },
    },
  };
  const text =
    'Error creating: Pod "web-7d4b9c8f6-x2x9k" is invalid: [spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod, spec.containers[0].securityContext.seccompProfile: Forbidden: cannot be set for a windows pod]';

  test('one finding per refused field; a field the template lacks was added by a webhook', () => {
    const evidence = { text, from: 'event FailedCreate by replicaset-controller', at: '2026-12-07T10:05:00Z' };
    const resource = { kind: 'ReplicaSet', namespace: NAMESPACE, name: 'web-7d4b9c8f6' };
    expect(
      explainOwner(replicaSet, [ownerEvent('ReplicaSet', 'web-7d4b9c8f6', text, 'replicaset-controller')]),
    ).toEqual([
      {
        ruleId: 'doctor-forbidden-field',
        severity: 'error',
        message:
          "The API server refuses the pod: spec.containers[0].securityContext.seccompProfile cannot be set on a Windows pod (spec.os.name: windows). The ReplicaSet's template does not set it: an admission webhook or policy adds it.",
        fix: 'Exclude Windows pods from the mutating webhook or policy that adds seccompProfile.',
        evidence,
        resource,
        path: 'spec.template.spec.containers[0].securityContext.seccompProfile',
        patternId: 'apiserver-windows-forbidden-field',
      },
      {
        ruleId: 'doctor-forbidden-field',
        severity: 'error',
        message:
          'The API server refuses the pod: spec.securityContext.runAsUser cannot be set on a Windows pod (spec.os.name: windows).',
        fix: "Remove spec.template.spec.securityContext.runAsUser; a Windows container's user is securityContext.windowsOptions.runAsUserName.",
        evidence,
        resource,
        path: 'spec.template.spec.securityContext.runAsUser',
        patternId: 'apiserver-windows-forbidden-field',
      },
    ]);
  });

  test('a Linux template, another object, or a kind without a template: nothing', () => {
    const event = ownerEvent('ReplicaSet', 'web-7d4b9c8f6', text, 'replicaset-controller');
    const linux = JSON.parse(JSON.stringify(replicaSet)) as { spec: { template: { spec: Json } } };
    linux.spec.template.spec.os = { name: 'linux' };
    expect(explainOwner(linux, [event])).toEqual([]);
    expect(
      explainOwner(replicaSet, [ownerEvent('ReplicaSet', 'api-6c7d8e9f0', text, 'replicaset-controller')]),
    ).toEqual([]);
    expect(explainOwner({ ...replicaSet, kind: 'Deployment' }, [event])).toEqual([]);
  });
});

describe('silence', () => {
  const texts = [
    TAINTED,
    'Failed to pull image "nginx:1.27": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27": no match for platform in manifest: not found',
    'failed to start containerd task "544494bd": hcs::System::CreateProcess 544494bd: The system cannot find the file specified.: unknown',
  ];

  test('a Ready pod, whatever its events say', () => {
    const events = texts.map((t) => podEvent('Failed', t));
    expect(explainPod(windowsPod({}, READY_STATUS), events)).toEqual([]);
    expect(diagnosePod(windowsPod({}, READY_STATUS), events)).toEqual({ windows: true, ready: true, findings: [] });
  });

  test('a Succeeded pod', () => {
    expect(
      explainPod(
        windowsPod({}, { phase: 'Succeeded' }),
        texts.map((t) => podEvent('Failed', t)),
      ),
    ).toEqual([]);
  });

  test('a Linux pod with the same messages', () => {
    const events = texts.map((t) => podEvent('Failed', t));
    expect(explainPod(linuxPod({}, unschedulable(TAINTED)), events)).toEqual([]);
    expect(diagnosePod(linuxPod({}, unschedulable(TAINTED)), events)).toEqual({
      windows: false,
      ready: false,
      findings: [],
    });
    expect(
      explainPod(windowsPod({ nodeName: 'aks-system-12345678-vmss000000' }), events, { nodes: MIXED_NODES }),
    ).toEqual([]);
  });

  test('events about another pod', () => {
    const other = {
      ...podEvent('FailedScheduling', TAINTED, SCHEDULER),
      involvedObject: { kind: 'Pod', namespace: NAMESPACE, name: 'api-0' },
    };
    expect(explainPod(windowsPod(), [other])).toEqual([]);
  });

  test('malformed input', () => {
    for (const pod of [null, undefined, 42, 'pod', [], {}, { spec: null }, { spec: { containers: 'web' } }]) {
      expect(explainPod(pod, [null, 1, { message: 7 }])).toEqual([]);
    }
    expect(explainOwner(null)).toEqual([]);
  });
});

describe('isWindowsPod', () => {
  test('the node it runs on decides; else the spec', () => {
    expect(isWindowsPod(windowsPod())).toBe(true);
    expect(isWindowsPod(linuxPod())).toBe(false);
    const unpinned = windowsPod({
      os: undefined,
      nodeSelector: undefined,
      containers: [{ name: 'app', image: 'nginx:1.27' }],
    });
    expect(isWindowsPod(unpinned)).toBe(false);
    expect(
      isWindowsPod({ ...unpinned, spec: { ...(unpinned.spec as Json), nodeName: 'akswin000000' } }, MIXED_NODES),
    ).toBe(true);
    expect(
      isWindowsPod(
        { ...unpinned, spec: { ...(unpinned.spec as Json), nodeName: 'akswin000000' } },
        [],
        new Set(['akswin000000']),
      ),
    ).toBe(true);
    expect(isWindowsPod(windowsPod({ nodeName: 'aks-system-12345678-vmss000000' }), MIXED_NODES)).toBe(false);
    expect(isWindowsPod(windowsPod({ os: undefined, nodeSelector: undefined }))).toBe(true); // a Windows image
  });
});
