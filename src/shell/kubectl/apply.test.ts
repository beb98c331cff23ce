import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

const BAD = `apiVersion: v1
kind: ConfigMap
metadata:
  name: okA
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ok-b
---
apiVersion: v1
kind: Foo
metadata:
  name: foo
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad-labels
spec:
  selector:
    matchLabels:
      app: a
  template:
    metadata:
      labels:
        app: b
    spec:
      containers:
      - name: c
        image: nginx
`;

const RFC1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('kubectl apply', () => {
  it('created, unchanged, and configured when it undoes a manual scale (C16)', () => {
    const b = bench({ files: { 'nginx.yaml': deploymentYaml('nginx-deployment', 3) } });
    expect(b.run('kubectl apply -f nginx.yaml')).toEqual({ stdout: 'deployment.apps/nginx-deployment created\n', stderr: '', code: 0 });
    b.c.run(5000);
    expect(b.run('kubectl apply -f nginx.yaml').stdout).toBe('deployment.apps/nginx-deployment unchanged\n');
    expect(b.run('kubectl scale deploy nginx-deployment --replicas=5').stdout).toBe('deployment.apps/nginx-deployment scaled\n');
    expect(b.c.api.get('deployments', 'default', 'nginx-deployment').spec.replicas).toBe(5);
    expect(b.run('kubectl apply -f nginx.yaml')).toEqual({ stdout: 'deployment.apps/nginx-deployment configured\n', stderr: '', code: 0 });
    expect(b.c.api.get('deployments', 'default', 'nginx-deployment').spec.replicas).toBe(3);
  });

  it('reports each object on its own line and the errors at the end, mapping errors first (as kubectl 1.32 did)', () => {
    const b = bench({ files: { 'bad2.yaml': BAD } });
    expect(b.run('kubectl apply -f bad2.yaml')).toEqual({
      stdout: 'configmap/ok-b created\n',
      stderr:
        'resource mapping not found for name: "foo" namespace: "" from "bad2.yaml": no matches for kind "Foo" in version "v1"\nensure CRDs are installed first\n' +
        `Error from server (Invalid): error when creating "bad2.yaml": ConfigMap "okA" is invalid: metadata.name: Invalid value: "okA": ${RFC1123}\n` +
        'Error from server (Invalid): error when creating "bad2.yaml": Deployment.apps "bad-labels" is invalid: spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`\n',
      code: 1,
    });
  });

  it('a single invalid object prints the Invalid form', () => {
    const b = bench({ files: { 'bad.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: My_App\n' } });
    expect(b.run('kubectl apply -f bad.yaml')).toEqual({ stdout: '', stderr: `The ConfigMap "My_App" is invalid: metadata.name: Invalid value: "My_App": ${RFC1123}\n`, code: 1 });
  });

  it('directories, stdin, the missing-annotation warning and parse errors', () => {
    const b = bench({
      files: {
        'dir/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
        'dir/b.yml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
        'dir/notes.txt': 'ignored',
        'broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n   a: b\n  c: d\n d: e\n',
      },
    });
    expect(b.run('kubectl apply -f dir').stdout).toBe('configmap/a created\nnamespace/shop created\n');
    expect(b.run('kubectl apply -f -', { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n' }).stdout).toBe('configmap/s created\n');
    b.run('kubectl create configmap plain');
    expect(b.run('kubectl apply -f -', { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\ndata:\n  k: v\n' })).toEqual({
      stdout: 'configmap/plain configured\n',
      stderr:
        'Warning: resource configmaps/plain is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
      code: 0,
    });
    const r = b.run('kubectl apply -f broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: error parsing broken\.yaml: error converting YAML to JSON: yaml: line \d+: /);
    expect(b.run('kubectl apply -f nope.yaml').stderr).toBe('error: the path "nope.yaml" does not exist\n');
    expect(b.run('kubectl apply').stderr).toBe('error: must specify one of -f and -k\n');
    b.files.write('empty/notes.txt', 'not a manifest');
    expect(b.run('kubectl apply -f empty').stderr).toBe('error: no objects passed to apply\n');
  });

  it('-o name / yaml and --dry-run', () => {
    const b = bench({ files: { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n' } });
    expect(b.run('kubectl apply -f cm.yaml --dry-run=client').stdout).toBe('configmap/c created (dry run)\n');
    expect(b.c.api.tryGet('configmaps', 'default', 'c')).toBeUndefined();
    expect(b.run('kubectl apply -f cm.yaml --dry-run=server').stdout).toBe('configmap/c created (server dry run)\n');
    expect(b.run('kubectl apply -f cm.yaml -o name').stdout).toBe('configmap/c\n');
    expect(b.run('kubectl apply -f cm.yaml -o yaml').stdout).toMatch(/^apiVersion: v1\ndata:\n {2}k: v\nkind: ConfigMap\nmetadata:\n {2}annotations:\n {4}kubectl\.kubernetes\.io\/last-applied-configuration: \|/);
    expect(b.run('kubectl apply -f cm.yaml --dry-run').stderr).toBe('error: --dry-run flag without a value was specified. A value must be set: "none", "server", or "client".\n');
  });

  it('-n must match the namespace in the file', () => {
    const b = bench({ files: { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: shop\n' } });
    expect(b.run('kubectl apply -f cm.yaml -n other').stderr).toBe(
      'error: the namespace from the provided object "shop" does not match the namespace "other". You must pass \'--namespace=shop\' to perform this operation.\n',
    );
  });

  it('-k builds the kustomization', () => {
    const b = bench({
      files: {
        'k/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: shop\nresources:\n  - ns.yaml\n  - cm.yaml\n',
        'k/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
        'k/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: b\n',
      },
    });
    expect(b.run('kubectl apply -k k')).toEqual({ stdout: 'namespace/shop created\nconfigmap/cfg created\n', stderr: '', code: 0 });
    expect(b.c.api.get('configmaps', 'shop', 'cfg').data).toEqual({ a: 'b' });
  });

  it('while kube-apiserver is down, validation fails downloading the OpenAPI schema', () => {
    const b = bench({ files: { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' } });
    b.c.api.setAvailability('down');
    expect(b.run('kubectl apply -f cm.yaml').stderr).toBe(
      'error: error validating "cm.yaml": error validating data: failed to download openapi: Get "https://127.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false\n',
    );
    expect(b.run('kubectl apply -f cm.yaml --validate=false').stderr.split('\n').slice(-2)[0]).toBe(
      'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?',
    );
  });
});

describe('kubectl create', () => {
  // Expected outputs copied from kubectl v1.32 `--dry-run=client`.
  it('create deployment --dry-run=client -o yaml|json', () => {
    const b = bench();
    expect(b.run('kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=80 --dry-run=client -o yaml').stdout).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  strategy: {}
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.27
        name: nginx
        ports:
        - containerPort: 80
        resources: {}
status: {}
`);
    expect(b.run('kubectl create deployment web --image=nginx --dry-run=client -o json').stdout).toBe(`{
    "kind": "Deployment",
    "apiVersion": "apps/v1",
    "metadata": {
        "name": "web",
        "creationTimestamp": null,
        "labels": {
            "app": "web"
        }
    },
    "spec": {
        "replicas": 1,
        "selector": {
            "matchLabels": {
                "app": "web"
            }
        },
        "template": {
            "metadata": {
                "creationTimestamp": null,
                "labels": {
                    "app": "web"
                }
            },
            "spec": {
                "containers": [
                    {
                        "name": "nginx",
                        "image": "nginx",
                        "resources": {}
                    }
                ]
            }
        },
        "strategy": {}
    },
    "status": {}
}
`);
    expect(b.run('kubectl create deployment web --image=nginx --dry-run=client').stdout).toBe('deployment.apps/web created (dry run)\n');
    expect(b.run('kubectl create deployment web --image=nginx -n foo --dry-run=client -o yaml').stdout).toContain('  name: web\n  namespace: foo\nspec:');
  });

  it('create secret generic / configmap / service / job / namespace --dry-run=client -o yaml', () => {
    const b = bench({ files: { 'f.txt': 'hello world\n' } });
    expect(b.run('kubectl create secret generic s --from-literal=user=admin --from-literal=pw=s3cr=et --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  pw: czNjcj1ldA==\n  user: YWRtaW4=\nkind: Secret\nmetadata:\n  creationTimestamp: null\n  name: s\n',
    );
    expect(b.run('kubectl create secret generic s --from-file=f.txt --from-file=k2=f.txt --type=Opaque --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  f.txt: aGVsbG8gd29ybGQK\n  k2: aGVsbG8gd29ybGQK\nkind: Secret\nmetadata:\n  creationTimestamp: null\n  name: s\ntype: Opaque\n',
    );
    expect(b.run('kubectl create configmap c --from-literal=a=1 --from-literal=b=two --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  a: "1"\n  b: two\nkind: ConfigMap\nmetadata:\n  creationTimestamp: null\n  name: c\n',
    );
    expect(b.run('kubectl create configmap c --from-file=f.txt --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  f.txt: |\n    hello world\nkind: ConfigMap\nmetadata:\n  creationTimestamp: null\n  name: c\n',
    );
    expect(b.run('kubectl create service clusterip web --tcp=80 --tcp=443:8443 --dry-run=client -o yaml').stdout).toBe(`apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  labels:
    app: web
  name: web
spec:
  ports:
  - name: "80"
    port: 80
    protocol: TCP
    targetPort: 80
  - name: 443-8443
    port: 443
    protocol: TCP
    targetPort: 8443
  selector:
    app: web
  type: ClusterIP
status:
  loadBalancer: {}
`);
    expect(b.run('kubectl create service nodeport web --tcp=80:8080 --node-port=30080 --dry-run=client -o yaml').stdout).toContain(
      '  - name: 80-8080\n    nodePort: 30080\n    port: 80\n    protocol: TCP\n    targetPort: 8080\n',
    );
    expect(b.run('kubectl create service nodeport web --tcp=80:8080 --dry-run=client -o json').stdout).toContain(
      '        "ports": [\n            {\n                "name": "80-8080",\n                "protocol": "TCP",\n                "port": 80,\n                "targetPort": 8080\n            }\n        ],',
    );
    expect(b.run('kubectl create job pi --image=perl:5.34 --dry-run=client -o yaml -- perl -e print').stdout).toBe(`apiVersion: batch/v1
kind: Job
metadata:
  creationTimestamp: null
  name: pi
spec:
  template:
    metadata:
      creationTimestamp: null
    spec:
      containers:
      - command:
        - perl
        - -e
        - print
        image: perl:5.34
        name: pi
        resources: {}
      restartPolicy: Never
status: {}
`);
    expect(b.run('kubectl create namespace foo --dry-run=client -o json').stdout).toBe(
      '{\n    "kind": "Namespace",\n    "apiVersion": "v1",\n    "metadata": {\n        "name": "foo",\n        "creationTimestamp": null\n    },\n    "spec": {},\n    "status": {}\n}\n',
    );
  });

  it('generator errors as kubectl prints them', () => {
    const b = bench();
    expect(b.run('kubectl create deployment --image=x').stderr).toBe("error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n");
    expect(b.run('kubectl create deployment a b --image=x').stderr).toBe("error: exactly one NAME is required, got 2\nSee 'kubectl create deployment -h' for help and examples\n");
    expect(b.run('kubectl create service clusterip x').stderr).toBe('error: at least one tcp port specifier must be provided\n');
    expect(b.run('kubectl create job j').stderr).toBe('error: either --image or --from must be specified\n');
    expect(b.run('kubectl create deployment x --image=a --image=b -- sleep 1').stderr).toBe('error: cannot specify multiple --image options and command\n');
    expect(b.run('kubectl create configmap c --from-literal=a').stderr).toBe('error: invalid literal source a, expected key=value\n');
    expect(b.run('kubectl create secret generic s --from-literal=a=1 --from-literal=a=2').stderr).toBe('error: cannot add key a, another key by that name already exists\n');
    expect(b.run('kubectl create').stderr).toBe('error: must specify one of -f and -k\n');
  });

  it('creates for real and reports AlreadyExists with the file name', () => {
    const b = bench({ files: { 'web.yaml': deploymentYaml('web', 1) } });
    expect(b.run('kubectl create deployment api --image=nginx:1.27').stdout).toBe('deployment.apps/api created\n');
    expect(b.c.api.get('deployments', 'default', 'api').spec.template.spec.containers[0].name).toBe('nginx');
    // create_deployment.go wraps the server's error: fmt.Errorf("failed to create deployment: %v", err).
    expect(b.run('kubectl create deployment api --image=nginx:1.27').stderr).toBe('error: failed to create deployment: deployments.apps "api" already exists\n');
    expect(b.run('kubectl create -f web.yaml').stdout).toBe('deployment.apps/web created\n');
    expect(b.run('kubectl create -f web.yaml').stderr).toBe('Error from server (AlreadyExists): error when creating "web.yaml": deployments.apps "web" already exists\n');
    expect(b.run('kubectl create namespace shop').stdout).toBe('namespace/shop created\n');
    expect(b.run('kubectl create ns shop2').stdout).toBe('namespace/shop2 created\n');
    expect(b.run('kubectl create cm c -n shop --from-literal=a=b').stdout).toBe('configmap/c created\n');
    expect(b.run('kubectl create secret generic s --from-literal=a=b -n shop').stdout).toBe('secret/s created\n');
    expect(b.c.api.get('secrets', 'shop', 's').data).toEqual({ a: 'Yg==' });
  });
});
