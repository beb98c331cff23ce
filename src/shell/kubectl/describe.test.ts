import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';
import { describeProbe, podQOS, rfc1123z, smartLabelFor } from './describe';

// Layouts checked against kubectl v1.32 describing the same simulated objects (plus the 1.35+
// fieldPath prefix on event messages and the newer DaemonSet `Namespace:` line).

function cluster() {
  const b = bench({ files: { 'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n    targetPort: 8080\n' } });
  b.c.apply(deploymentYaml('web', 2, 'nginx:1.27', '        ports:\n        - containerPort: 8080\n'));
  b.c.run(5000);
  b.run('kubectl apply -f svc.yaml');
  b.c.run(2000);
  return b;
}

describe('kubectl describe', () => {
  it('deployment', () => {
    const b = cluster();
    const rs = b.c.api.list('replicasets', { namespace: 'default' }).items[0].metadata.name;
    expect(b.run('kubectl describe deploy web')).toEqual({
      stdout: `Name:                   web
Namespace:              default
CreationTimestamp:      Mon, 05 Jan 2026 06:00:00 +0000
Labels:                 app=web
Annotations:            deployment.kubernetes.io/revision: 1
Selector:               app=web
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=web
  Containers:
   web:
    Image:         nginx:1.27
    Port:          8080/TCP
    Host Port:     0/TCP
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   ${rs} (2/2 replicas created)
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  7s    deployment-controller  Scaled up replica set ${rs} from 0 to 2
`,
      stderr: '',
      code: 0,
    });
  });

  it('service, namespace and replicaset', () => {
    const b = cluster();
    const svc = b.c.api.get('services', 'default', 'web');
    const ips = b.c.pods().map((p) => `${p.status.podIP}:8080`).sort();
    expect(b.run('kubectl describe svc web').stdout).toBe(`Name:                     web
Namespace:                default
Labels:                   <none>
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       ${svc.spec.clusterIP}
IPs:                      ${svc.spec.clusterIP}
Port:                     <unset>  80/TCP
TargetPort:               8080/TCP
Endpoints:                ${ips.join(',')}
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>
`);
    expect(b.run('kubectl describe ns default').stdout).toBe(
      'Name:         default\nLabels:       kubernetes.io/metadata.name=default\nAnnotations:  <none>\nStatus:       Active\n\nNo resource quota.\n\nNo LimitRange resource.\n',
    );
    const rs = b.run('kubectl describe rs').stdout;
    expect(rs).toMatch(/^Controlled By: {2}Deployment\/web$/m);
    expect(rs).toContain('Replicas:       2 current / 2 desired\nPods Status:    2 Running / 0 Waiting / 0 Succeeded / 0 Failed\n');
  });

  it('pod: the seed lines (Controlled By, Tolerations, container state)', () => {
    const b = cluster();
    const pod = b.c.pods()[0];
    const out = b.run(`kubectl describe pod ${pod.metadata.name}`).stdout;
    const rs = pod.metadata.ownerReferences![0].name;
    expect(out).toContain(`IP:               ${pod.status.podIP}\nIPs:\n  IP:           ${pod.status.podIP}\nControlled By:  ReplicaSet/${rs}\nContainers:\n  web:\n`);
    expect(out).toContain('    State:          Running\n      Started:      Mon, 05 Jan 2026 06:00:01 +0000\n    Ready:          True\n    Restart Count:  0\n');
    expect(out).toContain('Conditions:\n  Type                        Status\n  PodReadyToStartContainers   True \n');
    expect(out).toContain(
      'QoS Class:                   BestEffort\nNode-Selectors:              <none>\nTolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n',
    );
    expect(out).toContain('Events:\n  Type    Reason     Age   From               Message\n  ----    ------     ----  ----               -------\n');
    // kube-scheduler's Event has an eventTime to the microsecond (events.k8s.io/v1), not a
    // firstTimestamp truncated to the second: its age is 6.x s, printed `6s`.
    expect(out).toMatch(/\n {2}Normal {2}Scheduled {2}6s {4}default-scheduler {2}Successfully assigned default\/web-\S+ to worker-\d\n$/);
  });

  it('a terminating pod', () => {
    const b = cluster();
    const pod = b.c.pods()[0].metadata.name!;
    b.c.api.delete('pods', 'default', pod);
    // deletionTimestamp lies in the future (now + grace), hence kubectl's well-known `<invalid>`.
    expect(b.run(`kubectl describe pod ${pod}`).stdout).toMatch(/^Status: {20}Terminating \(lasts <invalid>\)\nTermination Grace Period: {2}30s\n/m);
  });

  it('events: counts, series ages and the container field path', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    const cm = b.c.api.get('configmaps', 'default', 'c');
    b.c.run(300_000);
    const ev = (name: string, reason: string, type: string, first: number, last: number, count: number, message: string, fieldPath?: string) =>
      b.c.api.create({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: 'default' },
        involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'c', uid: cm.metadata.uid, apiVersion: 'v1', ...(fieldPath ? { fieldPath } : {}) },
        reason,
        type,
        message,
        source: { component: 'kubelet', host: 'worker-1' },
        firstTimestamp: b.c.clock.rfc3339(first),
        lastTimestamp: b.c.clock.rfc3339(last),
        count,
      } as never);
    ev('c.1', 'BackOff', 'Warning', 10_000, 280_000, 4, 'Back-off restarting failed container app in pod x  ', 'spec.containers{app}');
    ev('c.2', 'Pulled', 'Normal', 5_000, 5_000, 1, 'Container image "nginx" already present on machine');
    expect(b.run('kubectl describe cm c').stdout).toBe(`Name:         c
Namespace:    default
Labels:       <none>
Annotations:  <none>

Data
====

BinaryData
====

Events:
  Type     Reason   Age                  From     Message
  ----     ------   ----                 ----     -------
  Normal   Pulled   4m55s                kubelet  Container image "nginx" already present on machine
  Warning  BackOff  20s (x4 over 4m50s)  kubelet  spec.containers{app}: Back-off restarting failed container app in pod x
`);
  });

  it('configmap data and secret sizes', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { greeting: 'hello', b: 'line1\nline2\n' } });
    b.c.api.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec', namespace: 'default' }, data: { 'api-key': 'YWJjMTIz' } });
    expect(b.run('kubectl describe cm cfg').stdout).toBe(
      'Name:         cfg\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nData\n====\nb:\n----\nline1\nline2\n\n\ngreeting:\n----\nhello\n\n\nBinaryData\n====\n\nEvents:  <none>\n',
    );
    expect(b.run('kubectl describe secret sec').stdout).toBe('Name:         sec\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\napi-key:  6 bytes\n');
  });

  it('the generic describer for kinds without one', () => {
    const b = bench();
    b.c.run(1000);
    expect(b.run('kubectl describe lease -n kube-node-lease worker-1').stdout).toBe(`Name:         worker-1
Namespace:    kube-node-lease
Labels:       <none>
Annotations:  <none>
API Version:  coordination.k8s.io/v1
Kind:         Lease
Metadata:
  Creation Timestamp:  2026-01-05T06:00:00Z
  Resource Version:    ${b.c.api.get('leases', 'kube-node-lease', 'worker-1').metadata.resourceVersion}
  UID:                 ${b.c.api.get('leases', 'kube-node-lease', 'worker-1').metadata.uid}
Spec:
  Holder Identity:         worker-1
  Lease Duration Seconds:  40
  Renew Time:              2026-01-05T06:00:00.000000Z
Events:                    <none>
`);
  });

  it('names are prefixes; several objects are separated by a blank line; errors', () => {
    const b = cluster();
    const out = b.run('kubectl describe pods web').stdout;
    expect(out.match(/^Name:/gm)).toHaveLength(2);
    expect(out).toContain('\n\n\nName:');
    expect(b.run('kubectl describe pods nosuch')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nosuch" not found\n', code: 1 });
    expect(b.run('kubectl describe')).toEqual({
      stdout: '',
      stderr: 'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
      code: 1,
    });
    expect(b.run('kubectl describe pods -l app=nope').stderr).toBe('No resources found in default namespace.\n');
  });

  it('node', () => {
    const b = bench();
    b.c.run(1000);
    const out = b.run('kubectl describe node cp-1').stdout;
    expect(out).toContain('Name:               cp-1\nRoles:              control-plane\n');
    expect(out).toContain('Taints:             node-role.kubernetes.io/control-plane:NoSchedule\nUnschedulable:      false\nLease:\n  HolderIdentity:  cp-1\n  AcquireTime:     <unset>\n');
    expect(out).toContain('Non-terminated Pods:          (0 in total)\n  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n');
    expect(out).toContain('  Resource           Requests  Limits\n  --------           --------  ------\n  cpu                0 (0%)    0 (0%)\n');
  });
});

describe('describe helpers', () => {
  it('formats times as RFC 1123 with a numeric zone', () => {
    expect(rfc1123z('2026-01-05T06:00:00Z')).toBe('Mon, 05 Jan 2026 06:00:00 +0000');
    expect(rfc1123z('2026-11-29T16:36:19Z')).toBe('Sun, 29 Nov 2026 16:36:19 +0000');
  });

  it('probes', () => {
    expect(describeProbe({ httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 })).toBe(
      'http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3',
    );
    expect(describeProbe({ exec: { command: ['cat', '/tmp/ready'] }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 })).toBe(
      'exec [cat /tmp/ready] delay=0s timeout=1s period=10s #success=1 #failure=3',
    );
    expect(describeProbe({ tcpSocket: { port: 'http' }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 })).toBe(
      'tcp-socket :http delay=0s timeout=1s period=5s #success=1 #failure=3',
    );
  });

  it('QoS classes', () => {
    expect(podQOS({ spec: { containers: [{}] } })).toBe('BestEffort');
    expect(podQOS({ spec: { containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }] } })).toBe('Guaranteed');
    expect(podQOS({ spec: { containers: [{ resources: { requests: { cpu: '100m' } } }] } })).toBe('Burstable');
  });

  it('smart labels', () => {
    expect(smartLabelFor('resourceVersion')).toBe('Resource Version');
    expect(smartLabelFor('uid')).toBe('UID');
    expect(smartLabelFor('apiVersion')).toBe('API Version');
    expect(smartLabelFor('leaseDurationSeconds')).toBe('Lease Duration Seconds');
  });
});
