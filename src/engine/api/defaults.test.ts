import { describe, it, expect } from 'vitest';
import { applyDefaults, addDefaultTolerations, addServiceAccountVolume, qosClass, defaultImagePullPolicy, base64EncodeUtf8 } from './defaults';
import { Rng, NAME_ALPHABET } from '../clock';
import type { KubeObject } from './types';

const ctx = () => ({ rng: new Rng(7) });

function pod(spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec },
  };
}

function deployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  };
}

describe('Pod defaults (pkg/apis/core/v1/defaults.go; reference section 12)', () => {
  it('a bare pod gets the section-12 defaults', () => {
    const p = pod();
    applyDefaults(p, ctx());
    expect(p.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      securityContext: {},
      enableServiceLinks: true,
      serviceAccountName: 'default',
      serviceAccount: 'default',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(p.spec.containers[0]).toEqual({
      name: 'web',
      image: 'nginx:1.27',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
    });
  });

  it('imagePullPolicy: Always for :latest or no tag, IfNotPresent otherwise (SetDefaults_Container)', () => {
    // The seed's chapter-two trap: `:latest` ignores the node's image cache.
    expect(defaultImagePullPolicy('bookshop:latest')).toBe('Always');
    expect(defaultImagePullPolicy('nginx')).toBe('Always');
    expect(defaultImagePullPolicy('nginx:1.27')).toBe('IfNotPresent');
    expect(defaultImagePullPolicy('localhost:5000/app')).toBe('Always');
    expect(defaultImagePullPolicy('localhost:5000/app:v2')).toBe('IfNotPresent');
    expect(defaultImagePullPolicy('nginx@sha256:abcd')).toBe('IfNotPresent');
    expect(defaultImagePullPolicy('nginx:latest@sha256:abcd')).toBe('Always');
    const p = pod({ containers: [{ name: 'a', image: 'app', imagePullPolicy: 'Never' }] });
    applyDefaults(p, ctx());
    expect(p.spec.containers[0].imagePullPolicy).toBe('Never');
  });

  it('requests default to limits on Pods only, per resource', () => {
    const c = () => ({ name: 'a', image: 'x:1', resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } } });
    const p = pod({ containers: [c()] });
    applyDefaults(p, ctx());
    expect(p.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '128Mi' });
    const d = deployment();
    d.spec.template.spec.containers = [c()];
    applyDefaults(d, ctx());
    expect(d.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: '100m' });
  });

  it('ports get protocol TCP; probes get timeout 1, period 10, success 1, failure 3, httpGet scheme HTTP', () => {
    const p = pod({
      containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 80 }], readinessProbe: { httpGet: { path: '/healthz', port: 80 } }, livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 } }],
    });
    applyDefaults(p, ctx());
    const c = p.spec.containers[0];
    expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(c.readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 80, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.livenessProbe.periodSeconds).toBe(5);
  });

  it('hostNetwork pods get hostPort = containerPort (SetDefaults_Pod)', () => {
    const p = pod({ hostNetwork: true, containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 6443 }] }] });
    applyDefaults(p, ctx());
    expect(p.spec.containers[0].ports[0].hostPort).toBe(6443);
  });

  it('env fieldRef apiVersion v1; volumes: configMap/secret defaultMode 420, no source -> emptyDir {}', () => {
    const p = pod({
      containers: [{ name: 'a', image: 'x:1', env: [{ name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }] }],
      volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'sec', secret: { secretName: 's' } }, { name: 'scratch' }],
    });
    applyDefaults(p, ctx());
    expect(p.spec.containers[0].env[0].valueFrom.fieldRef).toEqual({ apiVersion: 'v1', fieldPath: 'metadata.namespace' });
    expect(p.spec.volumes).toEqual([
      { name: 'cfg', configMap: { name: 'c', defaultMode: 420 } },
      { name: 'sec', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
    ]);
  });

  it('mirror pods get no service account', () => {
    const p = pod({}, { 'kubernetes.io/config.mirror': 'abc' });
    applyDefaults(p, ctx());
    expect(p.spec.serviceAccountName).toBeUndefined();
  });

  it('is idempotent', () => {
    const p = pod();
    applyDefaults(p, ctx());
    const once = JSON.stringify(p);
    applyDefaults(p, ctx());
    expect(JSON.stringify(p)).toBe(once);
  });
});

describe('admission additions', () => {
  it('DefaultTolerationSeconds adds not-ready and unreachable NoExecute for 300 s', () => {
    // plugin/pkg/admission/defaulttolerationseconds: --default-not-ready-toleration-seconds=300
    const p = pod();
    addDefaultTolerations(p);
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    addDefaultTolerations(p);
    expect(p.spec.tolerations).toHaveLength(2);
  });

  it('keeps a pod’s own toleration for the key, and a tolerate-everything toleration suppresses both', () => {
    const p = pod({ tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }] });
    addDefaultTolerations(p);
    expect(p.spec.tolerations.map((t: { key: string; tolerationSeconds: number }) => [t.key, t.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/unreachable', 30],
      ['node.kubernetes.io/not-ready', 300],
    ]);
    const all = pod({ tolerations: [{ operator: 'Exists' }] });
    addDefaultTolerations(all);
    expect(all.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('ServiceAccount admission mounts kube-api-access-xxxxx into every container', () => {
    // plugin/pkg/admission/serviceaccount/admission.go TokenVolumeSource; reference section 1.3.
    const p = pod({ initContainers: [{ name: 'init', image: 'busybox:1.36' }] });
    addServiceAccountVolume(p, new Rng(1));
    const vol = p.spec.volumes[0];
    expect(vol.name).toMatch(new RegExp(`^kube-api-access-[${NAME_ALPHABET}]{5}$`));
    expect(vol.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
      ],
    });
    for (const c of [...p.spec.containers, ...p.spec.initContainers]) {
      expect(c.volumeMounts).toEqual([{ name: vol.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    }
    expect(p.spec.serviceAccountName).toBe('default');
    // Same seed, same name: the suffix comes from the engine's generator.
    const q = pod({ initContainers: [{ name: 'init', image: 'busybox:1.36' }] });
    addServiceAccountVolume(q, new Rng(1));
    expect(q.spec.volumes[0].name).toBe(vol.name);
  });

  it('automountServiceAccountToken: false mounts nothing', () => {
    const p = pod({ automountServiceAccountToken: false });
    addServiceAccountVolume(p, new Rng(1));
    expect(p.spec.volumes).toBeUndefined();
    const q = pod();
    addServiceAccountVolume(q, new Rng(1), { automountServiceAccountToken: false });
    expect(q.spec.volumes).toBeUndefined();
  });
});

describe('qosClass (pkg/apis/core/v1/helper/qos GetPodQOS)', () => {
  const withRes = (...res: Record<string, unknown>[]) => pod({ containers: res.map((r, i) => ({ name: `c${i}`, image: 'x:1', resources: r })) });
  it('BestEffort, Burstable, Guaranteed', () => {
    expect(qosClass(withRes({}))).toBe('BestEffort');
    expect(qosClass(withRes({ requests: { cpu: '100m' } }))).toBe('Burstable');
    expect(qosClass(withRes({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } }))).toBe('Guaranteed');
    // Only limits: defaulting copies them to requests, so the pod is Guaranteed.
    const p = withRes({ limits: { cpu: '500m', memory: '256Mi' } });
    applyDefaults(p, ctx());
    expect(qosClass(p)).toBe('Guaranteed');
    // One container without memory limit makes it Burstable.
    expect(qosClass(withRes({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }, { limits: { cpu: '1' }, requests: { cpu: '1' } }))).toBe('Burstable');
  });
});

describe('workload defaults (pkg/apis/apps/v1/defaults.go, batch/v1/defaults.go)', () => {
  it('Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600 (reference 3.1)', () => {
    const d = deployment();
    applyDefaults(d, ctx());
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(d.spec.revisionHistoryLimit).toBe(10);
    expect(d.spec.progressDeadlineSeconds).toBe(600);
    expect(d.spec.minReadySeconds).toBeUndefined();
    // The template gets PodSpec defaults but not pod-only ones.
    const t = d.spec.template.spec;
    expect(t).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 });
    expect(t.enableServiceLinks).toBeUndefined();
    expect(t.serviceAccountName).toBeUndefined();
    expect(t.containers[0].imagePullPolicy).toBe('Always');
  });

  it('Deployment Recreate gets no rollingUpdate', () => {
    const d = deployment();
    d.spec.strategy = { type: 'Recreate' };
    applyDefaults(d, ctx());
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('StatefulSet (reference 8.1)', () => {
    const s: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } },
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    };
    applyDefaults(s, ctx());
    expect(s.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(s.spec.volumeClaimTemplates[0].spec.volumeMode).toBe('Filesystem');
    expect(s.spec.volumeClaimTemplates[0].status).toEqual({ phase: 'Pending' });
  });

  it('DaemonSet (reference 8.2) and ReplicaSet', () => {
    const ds: KubeObject = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } } };
    applyDefaults(ds, ctx());
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    const rs: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { template: { spec: { containers: [] } } } };
    applyDefaults(rs, ctx());
    expect(rs.spec.replicas).toBe(1);
  });

  it('Job (reference 8.3): completions/parallelism 1 when both unset, backoffLimit 6, NonIndexed, suspend false, TerminatingOrFailed', () => {
    const j: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34.0' }] } } },
    };
    applyDefaults(j, ctx());
    expect(j.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed' });
    expect(j.spec.manualSelector).toBeUndefined();
    expect(j.spec.template.spec.restartPolicy).toBe('Never');
    const par: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'p' }, spec: { parallelism: 3, podFailurePolicy: { rules: [] }, template: { spec: {} } } };
    applyDefaults(par, ctx());
    expect(par.spec.completions).toBeUndefined();
    expect(par.spec.podReplacementPolicy).toBe('Failed');
  });

  it('CronJob (reference 8.4)', () => {
    const c: KubeObject = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: 'busybox' }] } } } } } };
    applyDefaults(c, ctx());
    expect(c.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(c.spec.jobTemplate.spec.backoffLimit).toBeUndefined();
    expect(c.spec.jobTemplate.spec.template.spec.restartPolicy).toBe('Always');
  });
});

describe('other kinds', () => {
  it('Service (reference 8.5): ClusterIP, None affinity, TCP, targetPort = port, SingleStack IPv4, Cluster policies', () => {
    const s: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }, { port: 443, targetPort: 'https' }] } };
    applyDefaults(s, ctx());
    expect(s.spec).toEqual({
      selector: { app: 'a' },
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 443, targetPort: 'https', protocol: 'TCP' },
      ],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    const np: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'n' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } };
    applyDefaults(np, ctx());
    expect(np.spec.externalTrafficPolicy).toBe('Cluster');
    const ext: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'e' }, spec: { type: 'ExternalName', externalName: 'example.com' } };
    applyDefaults(ext, ctx());
    expect(ext.spec.ipFamilies).toBeUndefined();
    expect(ext.spec.internalTrafficPolicy).toBeUndefined();
  });

  it('Namespace: finalizers [kubernetes] at create only, phase Active', () => {
    const n: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
    applyDefaults(n, ctx());
    expect(n.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(n.status).toEqual({ phase: 'Active' });
    const finalized: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', creationTimestamp: '2026-01-05T06:00:00Z' }, spec: {} };
    applyDefaults(finalized, ctx());
    expect(finalized.spec).toEqual({});
  });

  it('PVC and PV', () => {
    const pvc: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'] } };
    applyDefaults(pvc, ctx());
    expect(pvc.spec.volumeMode).toBe('Filesystem');
    expect(pvc.status.phase).toBe('Pending');
    const pv: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec: { hostPath: { path: '/data' } } };
    applyDefaults(pv, ctx());
    expect(pv.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', hostPath: { path: '/data', type: '' } });
  });

  it('Secret: type Opaque; stringData folds into base64 data (v1 conversion)', () => {
    const s: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'eA==' }, stringData: { password: 'hunter2', b: 'ü' } };
    applyDefaults(s, ctx());
    expect(s.type).toBe('Opaque');
    expect(s.data).toEqual({ a: 'eA==', password: 'aHVudGVyMg==', b: 'w7w=' });
    expect(s.stringData).toBeUndefined();
    expect(base64EncodeUtf8('abc')).toBe('YWJj');
  });

  it('EndpointSlice ports get name "" and TCP; RoleBinding User subjects get the rbac apiGroup', () => {
    const es: KubeObject = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'e' }, ports: [{ port: 80 }] };
    applyDefaults(es, ctx());
    expect(es.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
    const rb: KubeObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'r' }, subjects: [{ kind: 'User', name: 'jane' }] };
    applyDefaults(rb, ctx());
    expect((rb.subjects as { apiGroup: string }[])[0].apiGroup).toBe('rbac.authorization.k8s.io');
  });

  it('ConfigMap is left alone', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    applyDefaults(cm, ctx());
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } });
  });
});
