/**
 * Defects a fresh user found by comparing the playground with real Kubernetes 1.32-1.36 and
 * kubectl v1.32 (helper 5's fidelity pass). Each test types what the user typed and checks what
 * they see.
 */
import { describe, expect, it } from 'vitest';
import { bench } from './testing';

describe('CronJob schedules are checked as kube-apiserver checks them (robfig/cron ParseStandard)', () => {
  it('rejects out-of-range fields, a wrong field count, a weekday 7, a zero step and unknown descriptors', () => {
    const b = bench();
    const create = (schedule: string) => b.run(`kubectl create cronjob c --image=busybox --schedule='${schedule}' -- echo hi`).stderr;
    const invalid = (schedule: string, detail: string) =>
      `error: failed to create cronjob: CronJob.batch "c" is invalid: spec.schedule: Invalid value: "${schedule}": ${detail}\n`;
    expect(create('61 * * * *')).toBe(invalid('61 * * * *', 'end of range (61) above maximum (59): 61'));
    expect(create('0 24 * * *')).toBe(invalid('0 24 * * *', 'end of range (24) above maximum (23): 24'));
    expect(create('0 0 0 * *')).toBe(invalid('0 0 0 * *', 'beginning of range (0) below minimum (1): 0'));
    expect(create('* * *')).toBe(invalid('* * *', 'expected exactly 5 fields, found 3: [* * *]'));
    expect(create('0 0 * * 7')).toBe(invalid('0 0 * * 7', 'end of range (7) above maximum (6): 7'));
    expect(create('*/0 * * * *')).toBe(invalid('*/0 * * * *', 'step of range should be a positive number: */0'));
    expect(create('5-1 * * * *')).toBe(invalid('5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'));
    expect(create('x * * * *')).toBe(invalid('x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'));
    expect(create('@fortnightly')).toBe(invalid('@fortnightly', 'unrecognized descriptor: @fortnightly'));
    expect(create('CRON_TZ=Europe/Paris 0 9 * * *')).toBe(
      invalid('CRON_TZ=Europe/Paris 0 9 * * *', 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
    );
    expect(b.c.api.list('cronjobs', { namespace: 'default' }).items).toHaveLength(0);
  });

  it('accepts names, ranges, lists, steps and descriptors', () => {
    const b = bench();
    for (const [i, schedule] of ['0 9 * * MON-FRI', '*/15 0-6,22 1 jan,Jul ?', '@hourly', '@every 90s', '30 4 1-31/2 * sun'].entries()) {
      expect(b.run(`kubectl create cronjob c${i} --image=busybox --schedule='${schedule}' -- echo hi`).stdout).toBe(`cronjob.batch/c${i} created\n`);
    }
  });

  it('checks spec.timeZone: an IANA zone, never Local', () => {
    const b = bench();
    expect(b.run("kubectl create cronjob c --image=busybox --schedule='0 9 * * *' -- echo hi").stdout).toBe('cronjob.batch/c created\n');
    expect(b.run(`kubectl patch cronjob c -p '{"spec":{"timeZone":"Mars/Olympus"}}'`).stderr).toBe(
      'The CronJob "c" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus\n',
    );
    expect(b.run(`kubectl patch cronjob c -p '{"spec":{"timeZone":"Local"}}'`).stderr).toBe(
      'The CronJob "c" is invalid: spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones\n',
    );
    // Go's tzdata names are case-sensitive.
    expect(b.run(`kubectl patch cronjob c -p '{"spec":{"timeZone":"AMERICA/new_york"}}'`).stderr).toBe(
      'The CronJob "c" is invalid: spec.timeZone: Invalid value: "AMERICA/new_york": unknown time zone AMERICA/new_york\n',
    );
    expect(b.run(`kubectl patch cronjob c -p '{"spec":{"timeZone":"Europe/Paris"}}'`).stdout).toBe('cronjob.batch/c patched\n');
  });
});

describe('kubectl create generators wrap the server error as kubectl does', () => {
  it('deployment, configmap, secret, service, serviceaccount, job: "error: failed to create ...", namespace: the API status', () => {
    const b = bench();
    b.run('kubectl create deployment web --image=nginx:1.27');
    b.run('kubectl create configmap cm --from-literal=a=b');
    b.run('kubectl create secret generic s --from-literal=a=b');
    b.run('kubectl create service clusterip web --tcp=80');
    b.run('kubectl create job j --image=busybox');
    b.run('kubectl create namespace shop');
    expect(b.run('kubectl create deployment web --image=nginx:1.27').stderr).toBe('error: failed to create deployment: deployments.apps "web" already exists\n');
    expect(b.run('kubectl create configmap cm --from-literal=a=b').stderr).toBe('error: failed to create configmap: configmaps "cm" already exists\n');
    // create_secret.go has no colon: fmt.Errorf("failed to create secret %v", err).
    expect(b.run('kubectl create secret generic s --from-literal=a=b').stderr).toBe('error: failed to create secret secrets "s" already exists\n');
    expect(b.run('kubectl create service clusterip web --tcp=80').stderr).toBe('error: failed to create ClusterIP service: services "web" already exists\n');
    expect(b.run('kubectl create serviceaccount default').stderr).toBe('error: failed to create serviceaccount: serviceaccounts "default" already exists\n');
    expect(b.run('kubectl create job j --image=busybox').stderr).toBe('error: failed to create job: jobs.batch "j" already exists\n');
    expect(b.run('kubectl create job j2 --image=busybox -n nope').stderr).toBe('error: failed to create job: namespaces "nope" not found\n');
    // create_namespace.go returns the error as it is.
    expect(b.run('kubectl create namespace shop').stderr).toBe('Error from server (AlreadyExists): namespaces "shop" already exists\n');
  });
});

describe('client-side errors as kubectl v1.32 prints them', () => {
  it('create service --tcp: ParsePort and parsePorts wording', () => {
    const b = bench();
    expect(b.run('kubectl create service clusterip s --tcp=abc').stderr).toBe('error: strconv.ParseUint: parsing "abc": invalid syntax\n');
    expect(b.run('kubectl create service clusterip s --tcp=99999').stderr).toBe('error: strconv.ParseUint: parsing "99999": value out of range\n');
    expect(b.run('kubectl create service clusterip s --tcp=80:0').stderr).toBe('error: must be between 1 and 65535, inclusive\n');
    expect(b.run('kubectl create service clusterip s --tcp=80:abc_').stderr).toBe('error: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)\n');
    expect(b.run('kubectl create service clusterip s --tcp=80:http --dry-run=client -o jsonpath={.spec.ports}').stdout).toBe(
      '[{"name":"80-http","port":80,"protocol":"TCP","targetPort":"http"}]',
    );
  });

  it('--from-env-file with --from-literal/--from-file is refused before any file is read', () => {
    const b = bench();
    expect(b.run('kubectl create configmap c --from-env-file=/nope --from-literal=a=b').stderr).toBe('error: from-env-file cannot be combined with from-file or from-literal\n');
    expect(b.run('kubectl create secret generic s --from-env-file=/nope --from-file=/x').stderr).toBe('error: from-env-file cannot be combined with from-file or from-literal\n');
  });

  it('expose, set image and edit without a resource print the builder error, taint its plain errors', () => {
    const b = bench();
    const noResources =
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n";
    expect(b.run('kubectl expose').stderr).toBe(noResources);
    expect(b.run('kubectl set image nginx=nginx:1.27').stderr).toBe(noResources);
    expect(b.run('kubectl edit').stderr).toBe(noResources);
    expect(b.run('kubectl taint').stderr).toBe('error: one or more resources must be specified as <resource> <name>\n');
    expect(b.run('kubectl taint nodes').stderr).toBe('error: at least one taint update is required\n');
    expect(b.run('kubectl taint nodes k=v:NoSchedule').stderr).toBe("error: at least one resource name must be specified since 'all' parameter is not set\n");
    // parseTaints errors stay usage errors (cmdutil.UsageErrorf).
    expect(b.run('kubectl taint nodes worker-1 k=v:Bogus').stderr).toBe("error: invalid taint effect: Bogus, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n");
  });
});

describe('kubectl run: its own flag checks and label parsing (run.go, generate.ParseLabels)', () => {
  it('checks -t without -i, --rm without attach and --dry-run with attach before anything else', () => {
    const b = bench();
    expect(b.run('kubectl run c --image=nginx -t').stderr).toBe("error: -i/--stdin is required for containers with -t/--tty=true\nSee 'kubectl run -h' for help and examples\n");
    expect(b.run('kubectl run c --image=nginx --restart=Never --rm').stderr).toBe("error: --rm should only be used for attached containers\nSee 'kubectl run -h' for help and examples\n");
    expect(b.run('kubectl run c --image=nginx --attach --restart=Never --dry-run=client').stderr).toBe(
      "error: --dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)\nSee 'kubectl run -h' for help and examples\n",
    );
  });

  it('parses --labels as ParseLabels does', () => {
    const b = bench();
    expect(b.run("kubectl run e --image=nginx --labels='a=b,c'").stderr).toBe('error: unexpected label spec: c\n');
    expect(b.run('kubectl run e --image=nginx --labels=a=b=c').stderr).toBe('error: unexpected label spec: a=b=c\n');
    expect(b.run('kubectl run e --image=nginx --labels==b').stderr).toBe('error: unexpected empty label key\n');
    expect(b.run('kubectl run e --image=nginx --labels=a=b,c=d --dry-run=client -o jsonpath={.metadata.labels}').stdout).toBe('{"a":"b","c":"d"}');
  });
});

describe('more client-side answers of kubectl v1.32', () => {
  it('duration flags report Go time.ParseDuration errors', () => {
    const b = bench();
    const since = (v: string, why: string) => `Error: invalid argument "${v}" for "--since" flag: ${why}\nSee 'kubectl logs --help' for usage.\n`;
    expect(b.run('kubectl logs --since=5x p').stderr).toBe(since('5x', 'time: unknown unit "x" in duration "5x"'));
    expect(b.run('kubectl logs --since=5 p').stderr).toBe(since('5', 'time: missing unit in duration "5"'));
    expect(b.run('kubectl logs --since=.s p').stderr).toBe(since('.s', 'time: invalid duration ".s"'));
    expect(b.run('kubectl logs --since=1.5.h p').stderr).toBe(since('1.5.h', 'time: missing unit in duration "1.5.h"'));
  });

  it('bare command groups print their help and exit 1 (rollout on stdout, the others on stderr)', () => {
    const b = bench();
    const rollout = b.run('kubectl rollout');
    expect([rollout.code, rollout.stderr]).toEqual([1, '']);
    expect(rollout.stdout).toContain('Manage the rollout of one or many resources.');
    const set = b.run('kubectl set');
    expect([set.code, set.stdout]).toEqual([1, '']);
    expect(set.stderr).toContain('Configure application resources.');
    expect(b.run('kubectl rollout --help').code).toBe(0);
  });

  it('kubectl top checks its subcommand and --sort-by before asking for metrics', () => {
    const b = bench();
    const bare = b.run('kubectl top');
    expect([bare.code, bare.stdout]).toEqual([1, '']);
    expect(bare.stderr).toMatch(/^Display resource \(CPU\/memory\) usage\.\n/);
    expect(b.run('kubectl top nope').stderr).toBe("error: unknown command \"nope\"\nSee 'kubectl top -h' for help and examples\n");
    expect(b.run('kubectl top pods --sort-by=bad').stderr).toBe('error: --sort-by accepts only cpu or memory\n');
    expect(b.run('kubectl top pods --sort-by=cpu').stderr).toBe('error: Metrics API not available\n');
  });

  it('explain, scale, create job and create quota say what kubectl says', () => {
    const b = bench();
    expect(b.run('kubectl explain').stderr).toBe('error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n');
    expect(b.run('kubectl scale --replicas=2').stderr).toBe(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
    );
    expect(b.run('kubectl create job j --image=busybox --from=cronjob/x').stderr).toBe('error: either --image or --from must be specified\n');
    expect(b.run('kubectl create quota q --hard=cpu=abc').stderr).toBe(
      "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n",
    );
    expect(b.run('kubectl create quota q --hard=cpu=4,pods=20').stdout).toBe('resourcequota/q created\n');
  });
});

describe('kubectl create secret docker-registry (create_secret_docker.go)', () => {
  it('builds the .dockerconfigjson kubectl builds, byte for byte', () => {
    const b = bench();
    // The same bytes kubectl v1.32 prints for these flags.
    expect(b.run('kubectl create secret docker-registry d --docker-username=u --docker-password=p --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  .dockerconfigjson: eyJhdXRocyI6eyJodHRwczovL2luZGV4LmRvY2tlci5pby92MS8iOnsidXNlcm5hbWUiOiJ1IiwicGFzc3dvcmQiOiJwIiwiYXV0aCI6ImRUcHcifX19\nkind: Secret\nmetadata:\n  creationTimestamp: null\n  name: d\ntype: kubernetes.io/dockerconfigjson\n',
    );
    expect(b.run('kubectl create secret docker-registry regcred --docker-server=r.io --docker-username=u --docker-password=p --docker-email=e@x').stdout).toBe('secret/regcred created\n');
    const s = b.c.api.get('secrets', 'default', 'regcred');
    expect(s.type).toBe('kubernetes.io/dockerconfigjson');
    expect((s.data as Record<string, string>)['.dockerconfigjson']).toBe('eyJhdXRocyI6eyJyLmlvIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicCIsImVtYWlsIjoiZUB4IiwiYXV0aCI6ImRUcHcifX19');
    expect(b.run('kubectl get secret regcred').stdout).toMatch(/^NAME\s+TYPE\s+DATA\s+AGE\nregcred\s+kubernetes\.io\/dockerconfigjson\s+1\s+/);
    expect(b.run('kubectl create secret docker-registry regcred --docker-username=u --docker-password=p').stderr).toBe('error: failed to create secret secrets "regcred" already exists\n');
  });

  it('needs credentials or a file, and the server checks the file is JSON', () => {
    const b = bench({ files: { 'cfg.json': 'hello\n', 'arr.json': '[1]\n' } });
    expect(b.run('kubectl create secret docker-registry d').stderr).toBe(
      'error: either --from-file or the combination of --docker-username, --docker-password and --docker-server is required\n',
    );
    expect(b.run('kubectl create secret docker-registry d --from-file=cfg.json').stderr).toBe('error: failed to create secret Secret "d" is invalid: data[.dockerconfigjson]: Required value\n');
    expect(b.run('kubectl create secret docker-registry d --from-file=.dockerconfigjson=cfg.json').stderr).toBe(
      'error: failed to create secret Secret "d" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'h\' looking for beginning of value\n',
    );
    expect(b.run('kubectl create secret docker-registry d --from-file=.dockerconfigjson=arr.json').stderr).toBe(
      'error: failed to create secret Secret "d" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}\n',
    );
  });
});

describe('kubectl replace (replace.go)', () => {
  const cm = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {colour: ${v}}\n`;
  const pod = (container: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: ${container}, image: nginx:1.27}]\n`;

  it('PUTs the file over the live object, and reports a missing one with the file name', () => {
    const b = bench({ files: { 'cm.yaml': cm('red'), 'cm2.yaml': cm('blue') } });
    expect(b.run('kubectl replace').stderr).toBe('error: must specify one of -f and -k\n');
    expect(b.run('kubectl replace -f cm.yaml').stderr).toBe('Error from server (NotFound): error when replacing "cm.yaml": configmaps "cfg" not found\n');
    expect(b.run('kubectl create -f cm.yaml').stdout).toBe('configmap/cfg created\n');
    expect(b.run('kubectl replace -f cm2.yaml').stdout).toBe('configmap/cfg replaced\n');
    expect(b.c.api.get('configmaps', 'default', 'cfg').data).toEqual({ colour: 'blue' });
    expect(b.run('kubectl replace -f cm.yaml --dry-run=client').stdout).toBe('configmap/cfg replaced (dry run)\n');
    expect(b.run('kubectl replace -f cm.yaml -o name').stdout).toBe('configmap/cfg\n');
  });

  it('--force deletes, waits for the pod to be gone, and creates it again (a pod field an update may not change)', () => {
    const b = bench({ files: { 'p.yaml': pod('c'), 'p2.yaml': pod('c2') } });
    expect(b.run('kubectl create -f p.yaml').stdout).toBe('pod/p created\n');
    b.c.run(10_000);
    const uid = b.c.api.get('pods', 'default', 'p').metadata.uid;
    expect(b.run('kubectl replace -f p2.yaml').stderr).toMatch(/^The Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than /);
    expect(b.run('kubectl replace -f p2.yaml --grace-period=1').stderr).toBe('error: --grace-period must have --force specified\n');
    expect(b.run('kubectl replace -f p2.yaml --force --dry-run=client').stderr).toBe('error: --dry-run can not be used when --force is set\n');
    expect(b.run('kubectl replace --force -f p2.yaml')).toEqual({ stdout: 'pod "p" deleted from default namespace\npod/p replaced\n', stderr: '', code: 0 });
    const p = b.c.api.get('pods', 'default', 'p');
    expect(p.metadata.uid).not.toBe(uid);
    expect(p.spec.containers[0].name).toBe('c2');
  });
});

describe('--overrides on kubectl run and expose (override_options.go)', () => {
  it('merge (the default) patches the generated pod; a containers list is replaced whole', () => {
    const b = bench();
    const out = b.run(
      `kubectl run vip --image=nginx:1.27 --overrides='{"spec":{"priorityClassName":"high","containers":[{"name":"vip","image":"nginx:1.27","resources":{"requests":{"cpu":"1500m"}}}]}}' --dry-run=client -o jsonpath='{.spec.priorityClassName} {.spec.containers[0].resources.requests.cpu}'`,
    );
    expect(out.stdout).toBe('high 1500m');
    // The merge patch replaces the list: the container has no image left, and the server says so.
    expect(b.run(`kubectl run v2 --image=nginx:1.27 --overrides='{"spec":{"containers":[{"name":"v2","resources":{"requests":{"cpu":"1"}}}]}}'`).stderr).toBe(
      'The Pod "v2" is invalid: spec.containers[0].image: Required value\n',
    );
    expect(b.run(`kubectl run pinned --image=nginx:1.27 --overrides='{"spec":{"nodeName":"worker-2"}}'`).stdout).toBe('pod/pinned created\n');
    expect(b.c.api.get('pods', 'default', 'pinned').spec.nodeName).toBe('worker-2');
  });

  it('strategic merges containers by name, json applies RFC 6902 operations, and bad input is refused', () => {
    const b = bench();
    expect(
      b.run(
        `kubectl run s --image=nginx:1.27 --override-type=strategic --overrides='{"spec":{"containers":[{"name":"s","resources":{"requests":{"cpu":"100m"}}}]}}' --dry-run=client -o jsonpath='{.spec.containers[0].image} {.spec.containers[0].resources.requests.cpu}'`,
      ).stdout,
    ).toBe('nginx:1.27 100m');
    expect(
      b.run(`kubectl run j --image=nginx --override-type=json --overrides='[{"op":"add","path":"/spec/hostNetwork","value":true}]' --dry-run=client -o jsonpath='{.spec.hostNetwork}'`).stdout,
    ).toBe('true');
    expect(b.run(`kubectl run bad --image=nginx --overrides='{nope'`).stderr).toBe('error: Invalid JSON Patch\n');
    expect(b.run(`kubectl run bad --image=nginx --override-type=yaml --overrides='{}'`).stderr).toBe('error: invalid override type: yaml\n');
  });

  it('kubectl expose applies them to the generated Service', () => {
    const b = bench();
    b.run('kubectl run web --image=nginx:1.27 --port=80');
    expect(b.run(`kubectl expose pod web --overrides='{"spec":{"type":"NodePort"}}'`).stdout).toBe('service/web exposed\n');
    expect(b.c.api.get('services', 'default', 'web').spec.type).toBe('NodePort');
  });
});

describe('a third sweep of client-side checks against kubectl v1.32', () => {
  it('kubectl run checks the image reference, the pull policy and the restart policy', () => {
    const b = bench();
    expect(b.run("kubectl run x --image='nginx:latest@bad'").stderr).toBe('error: Invalid image name "nginx:latest@bad": invalid reference format\n');
    expect(b.run('kubectl run x --image=UPPER').stderr).toBe('error: Invalid image name "UPPER": invalid reference format\n');
    expect(b.run('kubectl run x --image=nginx --image-pull-policy=Sometimes').stderr).toBe("error: invalid image pull policy: Sometimes\nSee 'kubectl run -h' for help and examples\n");
    expect(b.run('kubectl run x --image=nginx --restart=Bogus').stderr).toBe("error: invalid restart policy: Bogus\nSee 'kubectl run -h' for help and examples\n");
    expect(b.run('kubectl run x --image=localhost:5000/app:v1 --image-pull-policy=Never --dry-run=client').stdout).toBe('pod/x created (dry run)\n');
  });

  it('duplicate keys: ConfigMap and Secret generators word them differently', () => {
    const b = bench();
    expect(b.run('kubectl create configmap a --from-literal=a=b --from-literal=a=c').stderr).toBe(
      'error: cannot add key "a", another key by that name already exists in Data for ConfigMap "a"\n',
    );
    expect(b.run('kubectl create secret generic a --from-literal=a=b --from-literal=a=c').stderr).toBe('error: cannot add key a, another key by that name already exists\n');
  });

  it('delete with only a selector, wait without resources, rollout status --revision=-1, drain --pod-selector', () => {
    const b = bench();
    expect(b.run('kubectl delete --all').stderr).toBe('error: at least one resource must be specified to use a selector\n');
    expect(b.run('kubectl delete -l a=b').stderr).toBe('error: at least one resource must be specified to use a selector\n');
    expect(b.run('kubectl wait --for=condition=Ready').stderr).toBe(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
    );
    expect(b.run('kubectl rollout status deploy/x --revision=-1').stderr).toBe('error: revision must be a positive integer: -1\n');
    expect(b.run("kubectl drain worker-1 --pod-selector='a in (b'").stderr).toBe('error: --pod-selector=<pod_selector> must be a valid label selector\n');
  });
});

describe('kubectl config get-contexts / use-context (get_contexts.go, use_context.go)', () => {
  it('prints the header and the known contexts before the errors for unknown ones', () => {
    const b = bench();
    expect(b.run('kubectl config get-contexts nope')).toEqual({ stdout: 'CURRENT   NAME   CLUSTER   AUTHINFO   NAMESPACE\n', stderr: 'error: context nope not found\n', code: 1 });
    expect(b.run('kubectl config get-contexts a b').stderr).toBe('context a not found\ncontext b not found\n');
  });

  it('use-context without exactly one name prints its help, then the error', () => {
    const b = bench();
    const r = b.run('kubectl config use-context');
    expect(r.stdout).toMatch(/^Set the current-context in a kubeconfig file\.\n/);
    expect([r.stderr, r.code]).toEqual(['error: Unexpected args: []\n', 1]);
    expect(b.run('kubectl config use-context a b').stderr).toBe('error: Unexpected args: [a b]\n');
  });
});
