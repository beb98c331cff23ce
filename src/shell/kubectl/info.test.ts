import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';
import type { NodeAccess } from './node-access';

describe('kubectl wait', () => {
  it('--for=condition, --for=delete, --for=jsonpath, timeouts and errors', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    const h = b.start('kubectl wait --for=condition=Available deploy/web');
    expect(h.out.stdout).toBe('');
    expect(h.advance(5000)).toBe(0);
    expect(h.out.stdout).toBe('deployment.apps/web condition met\n');
    const pod = b.c.pods()[0].metadata.name!;
    expect(b.run(`kubectl wait --for=jsonpath={.status.phase}=Running pod/${pod}`).stdout).toBe(`pod/${pod} condition met\n`);
    expect(b.run('kubectl wait --for=condition=Ready pod -l app=web').stdout).toBe(`pod/${pod} condition met\n`);
    b.c.api.delete('pods', 'default', pod);
    expect(b.run(`kubectl wait --for=delete pod/${pod}`).stdout).toBe(`pod/${pod} condition met\n`);
    expect(b.run('kubectl wait --for=delete pod/nope --timeout=2s')).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl wait --for=condition=Foo deploy/web --timeout=2s')).toEqual({ stdout: '', stderr: 'error: timed out waiting for the condition on deployments/web\n', code: 1 });
    expect(b.run('kubectl wait --for=condition=Available deploy/nope').stderr).toBe('Error from server (NotFound): deployments.apps "nope" not found\n');
    expect(b.run('kubectl wait --for=foo deploy/web').stderr).toBe('error: unrecognized condition: "foo"\n');
    expect(b.run('kubectl wait deploy/web').stderr).toBe('error: unrecognized condition: ""\n');
    expect(b.run('kubectl wait --for=delete pod -l app=nope').stderr).toBe('error: no matching resources found\n');
  });
});

describe('version, api-resources, config, cluster-info', () => {
  it('version', () => {
    const b = bench({ kubectl: { clientVersion: 'v1.36.1' } });
    expect(b.run('kubectl version --client')).toEqual({ stdout: 'Client Version: v1.36.1\nKustomize Version: v5.7.1\n', stderr: '', code: 0 });
    // The fake kubelet registers v1.33.1 nodes: kubectl warns about the skew as it would.
    expect(b.run('kubectl version')).toEqual({
      stdout: 'Client Version: v1.36.1\nKustomize Version: v5.7.1\nServer Version: v1.33.1\n',
      stderr: 'WARNING: version difference between client (1.36) and server (1.33) exceeds the supported minor version skew of +/-1\n',
      code: 0,
    });
    expect(JSON.parse(b.run('kubectl version -o json --client').stdout)).toMatchObject({ clientVersion: { major: '1', minor: '36', gitVersion: 'v1.36.1' }, kustomizeVersion: 'v5.7.1' });
    b.c.api.setAvailability('down');
    expect(b.run('kubectl version')).toEqual({
      stdout: 'Client Version: v1.36.1\nKustomize Version: v5.7.1\n',
      stderr: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      code: 1,
    });
  });

  it('api-resources and api-versions', () => {
    const b = bench();
    const r = b.run('kubectl api-resources');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND');
    expect(lines[1]).toBe('bindings                                         v1                                true         Binding');
    expect(lines[2]).toBe('componentstatuses                   cs           v1                                false        ComponentStatus');
    expect(lines).toContain('deployments                         deploy       apps/v1                           true         Deployment');
    expect(b.run('kubectl api-resources --namespaced=false -o name').stdout.split('\n')).toContain('nodes');
    expect(b.run('kubectl api-resources --api-group=apps -o name').stdout).toBe('controllerrevisions.apps\ndaemonsets.apps\ndeployments.apps\nreplicasets.apps\nstatefulsets.apps\n');
    expect(b.run('kubectl api-resources -o wide').stdout.split('\n')[3]).toBe(
      'configmaps                          cm           v1                                true         ConfigMap                          create,delete,deletecollection,get,list,patch,update,watch   ',
    );
    expect(b.run('kubectl api-versions').stdout.split('\n').slice(0, 3)).toEqual(['admissionregistration.k8s.io/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1']);
  });

  it('config and cluster-info', () => {
    const b = bench();
    expect(b.run('kubectl config current-context').stdout).toBe('kind-k8s-lab\n');
    expect(b.run('kubectl config view').stdout).toBe(`apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: DATA+OMITTED
    server: https://127.0.0.1:6443
  name: kind-k8s-lab
contexts:
- context:
    cluster: kind-k8s-lab
    user: kind-k8s-lab
  name: kind-k8s-lab
current-context: kind-k8s-lab
kind: Config
preferences: {}
users:
- name: kind-k8s-lab
  user:
    client-certificate-data: DATA+OMITTED
    client-key-data: DATA+OMITTED
`);
    expect(b.run('kubectl config get-contexts').stdout).toBe('CURRENT   NAME           CLUSTER        AUTHINFO       NAMESPACE\n*         kind-k8s-lab   kind-k8s-lab   kind-k8s-lab   \n');
    expect(b.run('kubectl config use-context foo').stderr).toBe('error: no context exists with the name: "foo"\n');
    expect(b.run('kubectl config set-context --current --namespace=bookshop').stdout).toBe('Context "kind-k8s-lab" modified.\n');
    expect(b.run('kubectl get pods').stderr).toBe('No resources found in bookshop namespace.\n');
    expect(b.run("kubectl config view --minify -o jsonpath='{..namespace}'").stdout).toBe('bookshop');
    expect(b.run('kubectl config get-contexts').stdout).toBe('CURRENT   NAME           CLUSTER        AUTHINFO       NAMESPACE\n*         kind-k8s-lab   kind-k8s-lab   kind-k8s-lab   bookshop\n');
    b.run('kubectl config set-context --current --namespace=default');
    b.c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' } },
      spec: { selector: { 'k8s-app': 'kube-dns' }, clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 }] },
    });
    expect(b.run('kubectl cluster-info').stdout).toBe(
      "Kubernetes control plane is running at https://127.0.0.1:6443\nCoreDNS is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
    );
  });

  it('explain', () => {
    const b = bench();
    const r = b.run('kubectl explain pods');
    expect(r.stdout.startsWith('KIND:       Pod\nVERSION:    v1\n\nDESCRIPTION:\n    Pod is a collection of containers that can run on a host. This resource is\n    created by clients and scheduled onto hosts.\n    \nFIELDS:\n  apiVersion\t<string>\n')).toBe(true);
    expect(b.run('kubectl explain deploy.spec.replicas').stdout).toBe(
      'GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n\nFIELD: replicas <integer>\n\n\nDESCRIPTION:\n    Number of desired pods. This is a pointer to distinguish between explicit\n    zero and not specified. Defaults to 1.\n    \n\n',
    );
    expect(b.run('kubectl explain pod.spec.containers').stdout).toContain('  name\t<string> -required-\n');
    expect(b.run('kubectl explain foo')).toEqual({ stdout: '', stderr: 'the server doesn\'t have a resource type "foo"\n', code: 1 });
    expect(b.run('kubectl explain pods.spec.nope').stderr).toBe('error: field "nope" does not exist\n');
  });

  it('edit points to the YAML editor', () => {
    const b = bench();
    expect(b.run('kubectl edit pod x')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "x" not found\n', code: 1 });
    b.c.apply(deploymentYaml('web', 1));
    const r = b.run('kubectl edit deploy web');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: this terminal has no text editor: open deployment.apps/web in the playground's YAML editor to edit it (or use kubectl apply, scale, label, annotate or set image)\n",
    );
  });
});

describe('logs and exec', () => {
  const TWO = `apiVersion: v1
kind: Pod
metadata:
  name: two
spec:
  containers:
  - name: app
    image: nginx
  - name: side
    image: busybox
    command: ["sleep", "3600"]
`;

  it('without a node layer: the checks kubectl and the API server make, then a clear message', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.apply(deploymentYaml('broken', 1, 'nginx:does-not-exist'));
    expect(b.run('kubectl logs')).toEqual({
      stdout: '',
      stderr: "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n",
      code: 1,
    });
    b.c.run(8000);
    const web = b.c.pods(undefined, 'app=web')[0].metadata.name!;
    const broken = b.c.pods(undefined, 'app=broken')[0].metadata.name!;
    expect(b.run(`kubectl logs ${broken}`).stderr).toBe(`Error from server (BadRequest): container "broken" in pod "${broken}" is waiting to start: trying and failing to pull image\n`);
    expect(b.run(`kubectl logs ${web} -p`).stderr).toBe(`Error from server (BadRequest): previous terminated container "web" in pod "${web}" not found\n`);
    expect(b.run(`kubectl logs ${web} -c foo`).stderr).toBe(`error: container foo is not valid for pod ${web}\n`);
    expect(b.run(`kubectl logs ${web}`).stderr).toBe('error: container logs are not available: this playground has no node layer connected to kubectl yet\n');
    expect(b.run(`kubectl exec ${web} ls`).stderr).toBe("error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n");
    expect(b.run(`kubectl exec ${web}`).stderr).toBe('error: you must specify at least one command for the container\n');
    expect(b.run(`kubectl exec ${broken} -- ls`).stderr).toBe('error: unable to upgrade connection: container not found ("broken")\n');
  });

  it('through NodeAccess: defaulted containers, tails, exit codes', () => {
    const calls: string[] = [];
    const nodeAccess: NodeAccess = {
      logs: (ns, pod, c, o) => {
        calls.push(`logs ${ns}/${pod}/${c} tail=${o.tail} prev=${!!o.previous}`);
        return ['line 1', 'line 2'];
      },
      exec: (_ns, _pod, _c, argv) => (argv[0] === 'false' ? { stdout: '', stderr: '', exitCode: 1 } : { stdout: `ran ${argv.join(' ')}\n`, stderr: '', exitCode: 0 }),
    };
    const b = bench({ kubectl: { nodeAccess } });
    b.c.apply(TWO);
    b.c.apply(deploymentYaml('web', 2));
    b.c.run(5000);
    expect(b.run('kubectl logs two')).toEqual({ stdout: 'line 1\nline 2\n', stderr: 'Defaulted container "app" out of: app, side\n', code: 0 });
    expect(b.run('kubectl logs two -c side --tail=5').stderr).toBe('');
    expect(calls[calls.length - 1]).toBe('logs default/two/side tail=5 prev=false');
    const r = b.run('kubectl logs deploy/web');
    expect(r.stderr).toMatch(/^Found 2 pods, using pod\/web-\S+\n$/);
    expect(b.run('kubectl exec two -c side -- ls /')).toEqual({ stdout: 'ran ls /\n', stderr: '', code: 0 });
    expect(b.run('kubectl exec two -c side -- false')).toEqual({ stdout: '', stderr: 'command terminated with exit code 1\n', code: 1 });
  });
});

describe('the API server is down', () => {
  it('every API command ends with the connection-refused line', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.api.setAvailability('down');
    for (const line of ['kubectl describe pod x', 'kubectl delete pod x', 'kubectl scale deploy web --replicas=2', 'kubectl rollout status deploy/web', 'kubectl cordon n1', 'kubectl logs x', 'kubectl get deploy/web', 'kubectl cluster-info']) {
      const r = b.run(line);
      expect(r.code, line).toBe(1);
      expect(r.stderr.endsWith('The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n'), line).toBe(true);
      expect(r.stderr, line).toMatch(/memcache\.go:265\] "Unhandled Error"/);
    }
    expect(b.run('kubectl api-resources')).toMatchObject({ stdout: 'NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n', code: 1 });
    expect(b.run('kubectl create deployment x --image=y').stderr).toBe(
      'error: failed to create deployment: Post "https://127.0.0.1:6443/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict": dial tcp 127.0.0.1:6443: connect: connection refused\n',
    );
  });

  it("names the kubeconfig's server (kind's host port), and cluster-info still prints its dump hint", () => {
    // kind maps the API server to a random host port; the API's own error knows only 6443
    const b = bench({ kubectl: { server: '127.0.0.1:54876' } });
    b.c.api.setAvailability('down');
    const refused = 'The connection to the server 127.0.0.1:54876 was refused - did you specify the right host or port?\n';
    expect(b.run('kubectl version')).toMatchObject({ stdout: 'Client Version: v1.36.1\nKustomize Version: v5.7.1\n', stderr: refused, code: 1 });
    // clusterinfo.go Run writes the hint after the failed listing, then returns its error
    const r = b.run('kubectl cluster-info');
    expect(r.stdout).toBe("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n");
    expect(r.stderr.split('\n').slice(0, 5).every((l) => l.includes('memcache.go:265] "Unhandled Error"') && l.includes('https://127.0.0.1:54876/api?timeout=32s'))).toBe(true);
    expect(r.stderr.endsWith(refused)).toBe(true);
    expect(r.code).toBe(1);
  });
});
