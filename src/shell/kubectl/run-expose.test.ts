import { describe, expect, it } from 'vitest';
import { bench } from './testing';

// staging/src/k8s.io/kubectl/pkg/cmd/run/run.go: `--expose` needs `--port`; the pod is created
// first, then generateService (generate/versioned/service.go, ServiceV2) creates and prints the
// Service; the pod is printed last.

describe('kubectl run --expose', () => {
  it('creates a ClusterIP Service selecting run=NAME, printed before the pod', () => {
    const b = bench();
    expect(b.run('kubectl run web --image=nginx --port=80 --expose')).toMatchObject({ stdout: 'service/web created\npod/web created\n', stderr: '', code: 0 });
    const svc = b.c.api.get('services', 'default', 'web');
    expect(svc.metadata.labels).toBeUndefined();
    expect(svc.spec.selector).toEqual({ run: 'web' });
    expect(svc.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(svc.spec.type).toBe('ClusterIP');
    expect(b.c.api.get('pods', 'default', 'web').metadata.labels).toEqual({ run: 'web' });
  });

  it('--labels are the Service labels and selector; --port is required', () => {
    const b = bench();
    expect(b.run('kubectl run w4 --image=nginx --port=8080 --expose -l app=w4,tier=fe').stdout).toBe('service/w4 created\npod/w4 created\n');
    const svc = b.c.api.get('services', 'default', 'w4');
    expect(svc.metadata.labels).toEqual({ app: 'w4', tier: 'fe' });
    expect(svc.spec.selector).toEqual({ app: 'w4', tier: 'fe' });
    expect(b.run('kubectl run w2 --image=nginx --expose')).toMatchObject({ stdout: '', stderr: 'error: --port must be set when exposing a service\n', code: 1 });
    expect(b.c.api.tryGet('pods', 'default', 'w2')).toBeUndefined();
  });

  it('client dry run prints both, the Service first (`---` between them in YAML)', () => {
    const b = bench();
    expect(b.run('kubectl run w5 --image=nginx --port=80 --expose --dry-run=client').stdout).toBe('service/w5 created (dry run)\npod/w5 created (dry run)\n');
    expect(b.run('kubectl run w3 --image=nginx --port=80 --expose --labels=app=w3 --dry-run=client -o yaml').stdout).toBe(`apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  labels:
    app: w3
  name: w3
spec:
  ports:
  - port: 80
    protocol: TCP
    targetPort: 80
  selector:
    app: w3
status:
  loadBalancer: {}
---
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    app: w3
  name: w3
spec:
  containers:
  - image: nginx
    name: w3
    ports:
    - containerPort: 80
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {}
`);
    expect(b.c.api.tryGet('services', 'default', 'w3')).toBeUndefined();
  });
});
