import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

// Expected texts copied from kubectl v1.32.
describe('kubectl run / expose / patch / taint / top', () => {
  it('run --dry-run=client -o yaml|json, and for real', () => {
    const b = bench();
    expect(b.run('kubectl run nginx --image=nginx --dry-run=client -o yaml').stdout).toBe(`apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    run: nginx
  name: nginx
spec:
  containers:
  - image: nginx
    name: nginx
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {}
`);
    expect(b.run('kubectl run nginx --image=nginx --port=80 --labels=app=web,tier=fe --env=A=1 --dry-run=client -o json').stdout).toBe(`{
    "kind": "Pod",
    "apiVersion": "v1",
    "metadata": {
        "name": "nginx",
        "creationTimestamp": null,
        "labels": {
            "app": "web",
            "tier": "fe"
        }
    },
    "spec": {
        "containers": [
            {
                "name": "nginx",
                "image": "nginx",
                "ports": [
                    {
                        "containerPort": 80
                    }
                ],
                "env": [
                    {
                        "name": "A",
                        "value": "1"
                    }
                ],
                "resources": {}
            }
        ],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst"
    },
    "status": {}
}
`);
    expect(b.run('kubectl run bb --image=busybox --restart=Never --dry-run=client -o yaml -- sleep 3600').stdout).toContain('  - args:\n    - sleep\n    - "3600"\n    image: busybox\n');
    expect(b.run('kubectl run bb --image=busybox --command --dry-run=client -o yaml -- sleep 3600').stdout).toContain('  - command:\n    - sleep\n    - "3600"\n');
    expect(b.run('kubectl run --image=n').stderr).toBe("error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n");
    expect(b.run('kubectl run x').stderr).toMatch(/run\.go:72\] "command failed" err="required flag\(s\) \\"image\\" not set"\n$/);
    expect(b.run('kubectl run solo --image=nginx')).toEqual({ stdout: 'pod/solo created\n', stderr: '', code: 0 });
    expect(b.c.api.get('pods', 'default', 'solo').metadata.labels).toEqual({ run: 'solo' });
  });

  it('expose', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1, 'nginx:1.27', '        ports:\n        - containerPort: 80\n'));
    expect(b.run('kubectl expose deployment web --port=80 --target-port=8080 --dry-run=client -o yaml').stdout).toBe(`apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  ports:
  - port: 80
    protocol: TCP
    targetPort: 8080
  selector:
    app: web
status:
  loadBalancer: {}
`);
    expect(b.run('kubectl expose deployment web --port=80 --type=NodePort --name=web-np --dry-run=client').stdout).toBe('service/web-np exposed (dry run)\n');
    expect(b.run('kubectl expose deploy/web')).toEqual({ stdout: 'service/web exposed\n', stderr: '', code: 0 });
    expect(b.c.api.get('services', 'default', 'web').spec.ports[0]).toMatchObject({ port: 80, targetPort: 80, protocol: 'TCP' });
  });

  it('patch', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 3));
    expect(b.run("kubectl patch deploy web -p '{\"spec\":{\"replicas\":3}}'").stdout).toBe('deployment.apps/web patched (no change)\n');
    expect(b.run("kubectl patch deploy web -p '{\"spec\":{\"replicas\":4}}'").stdout).toBe('deployment.apps/web patched\n');
    expect(b.run("kubectl patch deploy web --type=merge -p '{\"metadata\":{\"labels\":{\"x\":\"y\"}}}'").stdout).toBe('deployment.apps/web patched\n');
    expect(b.c.api.get('deployments', 'default', 'web').metadata.labels).toEqual({ app: 'web', x: 'y' });
    expect(b.run('kubectl patch deploy web').stderr).toBe('error: must specify --patch or --patch-file containing the contents of the patch\n');
    expect(b.run("kubectl patch deploy web -p '{}' --type foo").stderr).toBe('error: --type must be one of [json merge strategic], not "foo"\n');
  });

  it('taint', () => {
    const b = bench();
    // taint.go returns fmt.Errorf here, not UsageErrorf: kubectl v1.32 prints no usage hint.
    expect(b.run('kubectl taint nodes worker-1').stderr).toBe('error: at least one taint update is required\n');
    expect(b.run('kubectl taint nodes worker-1 k=v:NoSchedule').stdout).toBe('node/worker-1 tainted\n');
    expect(b.run('kubectl taint nodes worker-1 k=v:NoSchedule').stderr).toBe('error: node worker-1 already has k taint(s) with same effect(s) and --overwrite is false\n');
    expect(b.run('kubectl taint nodes worker-1 k=w:NoSchedule --overwrite').stdout).toBe('node/worker-1 modified\n');
    expect(b.run('kubectl taint nodes worker-1 k:NoSchedule-').stdout).toBe('node/worker-1 untainted\n');
    expect(b.run('kubectl taint nodes worker-1 k:NoSchedule-').stderr).toBe('error: taint "k:NoSchedule" not found\n');
    expect(b.run('kubectl taint nodes worker-1 k=v:Bad').stderr).toBe("error: invalid taint effect: Bad, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n");
    expect(b.c.api.get('nodes', undefined, 'worker-1').spec.taints).toBeUndefined();
  });

  it('top', () => {
    const b = bench();
    expect(b.run('kubectl top pods')).toEqual({ stdout: '', stderr: 'error: Metrics API not available\n', code: 1 });
  });
});
