/**
 * Layer 4 on the booted kind cluster: app controllers that reconcile only while their pod runs
 * (seed 000's "Part 3"; issue 4, "Layer 3 and 4").
 *
 * - The bookshop's shelf-controller, installed as the repository's `make controller` does it
 *   (ConfigMap controller-src from controller/reconcile.sh, then `kubectl apply -k
 *   manifests/shelf-controller`): ConfigMap shelf-<name>, status.bookCount and the log line;
 *   its pod deleted while kube-controller-manager is away (nothing reconciles, then the
 *   replacement catches up); kube-apiserver stopped (the loop logs the refusal and recovers).
 * - ingress-nginx from the corpus manifest (INDEX.md row 32): the admission Jobs create the
 *   Secret and patch the webhook, the controller waits in ContainerCreating with FailedMount until
 *   then, the Jobs vanish (ttlSecondsAfterFinished: 0), EXTERNAL-IP stays <pending>; an Ingress of
 *   class nginx (corpus row 41) is reconciled, and gets an ADDRESS once the Service has one.
 *
 * Each describe boots its own cluster (about a second of wall time); everything is asserted the
 * way a user sees it: kubectl output, objects, container logs.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { createPlaygroundShell } from '../../shell/playground';
import { MemoryFiles } from '../../shell/files';
import { runToCompletion, type Shell } from '../../shell/shell';
import { BOOKSHOP_FILES } from './bookshop';
import { SHELF_CONTROLLER_FILES } from './appcontrollers';

const CP = 'k8s-lab-control-plane';
const corpus = (name: string) => readFileSync(new URL(`../../../fixtures/corpus/manifests/${name}`, import.meta.url), 'utf8');

type Cond = { type: string; status: string };
const ready = (p: KubeObject) => p.status?.phase === 'Running' && ((p.status?.conditions ?? []) as Cond[]).some((c) => c.type === 'Ready' && c.status === 'True');

function setup(seed: number): {
  c: Cluster;
  run: (line: string) => { text: string; exitCode: number };
  files: MemoryFiles;
} {
  const c = bootedCluster({ seed });
  const files = new MemoryFiles({
    ...BOOKSHOP_FILES,
    ...SHELF_CONTROLLER_FILES,
    'ingress-nginx.yaml': corpus('ingress-nginx__deploy-static-provider-cloud.yaml'),
    'ingress-tls.yaml': corpus('cert-manager-website__acme-example-ingress-tls.yaml'),
  });
  const shell: Shell = createPlaygroundShell({ cluster: c, files });
  return { c, run: (line) => runToCompletion(shell, line), files };
}

const shelf = (name: string, isbns: string[]) =>
  `apiVersion: bookshop.engineers-musings.dev/v1\nkind: Shelf\nmetadata:\n  name: ${name}\n  namespace: bookshop\nspec:\n  displayName: "${name}"\n  isbns:\n${isbns.map((i) => `    - "${i}"`).join('\n')}\n`;

describe('the shelf-controller: a layer-4 program', () => {
  let c: Cluster;
  let run: (line: string) => { text: string; exitCode: number };
  let files: MemoryFiles;
  const controllerPods = () =>
    c.api.list('pods', {
      namespace: 'bookshop',
      labelSelector: 'app=shelf-controller',
    }).items;
  const liveControllerPod = () => controllerPods().find((p) => !p.metadata.deletionTimestamp && ready(p));
  const cm = (name: string) => c.api.tryGet('configmaps', 'bookshop', name) as (KubeObject & { data?: Record<string, string> }) | undefined;
  const bookCount = (name: string) => c.api.tryGet('shelves', 'bookshop', name)?.status?.bookCount as number | undefined;

  beforeAll(() => {
    ({ c, run, files } = setup(11));
  });

  it('kubectl apply -k alone leaves the pod waiting for controller-src; `make controller` starts it and the example Shelf is reconciled within seconds', () => {
    expect(run('kubectl apply -k manifests/shelf-controller').exitCode).toBe(0);
    c.runUntil(() => controllerPods().length === 1, { stepMs: 100 });
    c.run(5_000);
    const events = run('kubectl get events -n bookshop --field-selector reason=FailedMount').text;
    expect(events).toContain('MountVolume.SetUp failed for volume "src" : configmap "controller-src" not found');
    expect(run('kubectl get pods -n bookshop -l app=shelf-controller').text).toMatch(/shelf-controller-\S+ +0\/1 +ContainerCreating/);

    // The Makefile's `controller` target: the ConfigMap from the script, then the kustomization.
    expect(run('kubectl create configmap controller-src -n bookshop --from-file=reconcile.sh=controller/reconcile.sh --dry-run=client -o yaml | kubectl apply -f -').text).toBe(
      'configmap/controller-src created\n',
    );
    expect(
      c.runUntil(() => liveControllerPod() !== undefined, {
        stepMs: 100,
        timeoutMs: 60_000,
      }),
    ).toBe(true);

    // Before a Shelf exists the loop has nothing to say; the BOOKS column is empty.
    expect(run('kubectl logs deploy/shelf-controller -n bookshop').text).toBe('');
    expect(run('kubectl apply -f manifests/shelf-controller/example-shelf.yaml').text).toBe('shelf.bookshop.engineers-musings.dev/staff-picks created\n');
    const applied = c.clock.now();
    expect(c.runUntil(() => cm('shelf-staff-picks') !== undefined && bookCount('staff-picks') === 3, { stepMs: 100, timeoutMs: 10_000 })).toBe(true);
    expect(c.clock.now() - applied).toBeLessThanOrEqual(6_000);
    expect(cm('shelf-staff-picks')!.data).toEqual({ count: '3' });
    expect(run('kubectl get shelves -n bookshop').text).toBe('NAME          DISPLAY       BOOKS\nstaff-picks   Staff Picks   3\n');
    expect(run('kubectl logs deploy/shelf-controller -n bookshop').text).toContain('reconciled shelf/staff-picks -> bookCount=3\n');
    // What `kubectl create --dry-run=client -o yaml | kubectl apply -f -` leaves on the ConfigMap.
    expect(cm('shelf-staff-picks')!.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"v1","data":{"count":"3"},"kind":"ConfigMap","metadata":{"annotations":{},"creationTimestamp":null,"name":"shelf-staff-picks","namespace":"bookshop"}}\n',
    );
    // The timeline names the controller and the object it wrote.
    expect(c.trace.list().some((e) => e.component === 'shelf-controller' && e.object?.kind === 'Shelf' && e.message.startsWith('reconciled shelf/staff-picks -> bookCount=3'))).toBe(true);

    // Every 5 s, whether or not anything changed (a loop, not a watch).
    const before = run('kubectl logs deploy/shelf-controller -n bookshop').text.split('\n').filter(Boolean).length;
    c.run(15_000);
    const after = run('kubectl logs deploy/shelf-controller -n bookshop').text.split('\n').filter(Boolean).length;
    // One pass is `kubectl get`, then per Shelf three kubectl runs, then `sleep 5`: a little over 5 s.
    expect(after - before).toBeGreaterThanOrEqual(2);
    expect(after - before).toBeLessThanOrEqual(3);
  });

  it('it reads only its own namespace, as its Role allows', () => {
    expect(run('kubectl create namespace elsewhere').exitCode).toBe(0);
    files.write('other.yaml', shelf('far-away', ['1', '2']).replace('namespace: bookshop', 'namespace: elsewhere'));
    expect(run('kubectl apply -f other.yaml').exitCode).toBe(0);
    c.run(12_000);
    expect(c.api.tryGet('configmaps', 'elsewhere', 'shelf-far-away')).toBeUndefined();
    expect(c.api.tryGet('shelves', 'elsewhere', 'far-away')?.status?.bookCount).toBeUndefined();
  });

  it('its pod deleted while kube-controller-manager is away: nothing reconciles; the replacement catches up', () => {
    // Layer 3 out: the static pod's manifest moved away, the kubelet stops it.
    expect(c.mv(CP, '/etc/kubernetes/manifests/kube-controller-manager.yaml', '/root/').exitCode).toBe(0);
    expect(c.runUntil(() => c.pgrep(CP, 'kube-controller-manager', { full: true }).length === 0, { timeoutMs: 60_000 })).toBe(true);

    const old = liveControllerPod()!;
    const t0 = c.clock.now();
    expect(run(`kubectl delete pod ${old.metadata.name} -n bookshop`).text).toBe(`pod "${old.metadata.name}" deleted from bookshop namespace\n`);
    // sh as PID 1 has no trap: SIGTERM is ignored, the kubelet waits the 30 s grace period and kills it.
    expect(c.clock.now() - t0).toBeGreaterThanOrEqual(30_000);
    expect(controllerPods()).toEqual([]);

    // While nobody runs the loop: a new Shelf and a changed one get nothing.
    files.write('new.yaml', shelf('new-arrivals', ['978-0596007126', '978-1098116743']));
    expect(run('kubectl apply -f new.yaml').exitCode).toBe(0);
    expect(run(`kubectl patch shelf staff-picks -n bookshop --type=merge -p '{"spec":{"isbns":["a","b","c","d"]}}'`).exitCode).toBe(0);
    c.run(30_000);
    expect(controllerPods()).toEqual([]);
    expect(cm('shelf-new-arrivals')).toBeUndefined();
    expect(bookCount('new-arrivals')).toBeUndefined();
    expect(run('kubectl get shelves -n bookshop').text).toBe('NAME           DISPLAY        BOOKS\nnew-arrivals   new-arrivals   \nstaff-picks    Staff Picks    3\n');

    // Layer 3 back: the ReplicaSet controller makes a new pod, whose new process relists.
    expect(c.mv(CP, '/root/kube-controller-manager.yaml', '/etc/kubernetes/manifests/').exitCode).toBe(0);
    expect(
      c.runUntil(() => liveControllerPod() !== undefined, {
        stepMs: 100,
        timeoutMs: 120_000,
      }),
    ).toBe(true);
    const fresh = liveControllerPod()!;
    expect(fresh.metadata.name).not.toBe(old.metadata.name);
    const running = c.clock.now();
    expect(c.runUntil(() => cm('shelf-new-arrivals') !== undefined && bookCount('staff-picks') === 4, { stepMs: 100, timeoutMs: 10_000 })).toBe(true);
    expect(c.clock.now() - running).toBeLessThanOrEqual(5_000);
    expect(cm('shelf-new-arrivals')!.data).toEqual({ count: '2' });
    expect(cm('shelf-staff-picks')!.data).toEqual({ count: '4' });
    expect(run('kubectl get shelves -n bookshop').text).toBe('NAME           DISPLAY        BOOKS\nnew-arrivals   new-arrivals   2\nstaff-picks    Staff Picks    4\n');
    // A new process: its log starts empty and holds only what it did.
    const log = run(`kubectl logs ${fresh.metadata.name} -n bookshop`).text;
    expect(log.split('\n')[0]).toBe('reconciled shelf/new-arrivals -> bookCount=2');
    expect(log.split('\n')[1]).toBe('reconciled shelf/staff-picks -> bookCount=4');
  });

  it('kube-apiserver stopped: the loop logs the refusal every 5 s, keeps running, and recovers', () => {
    const pod = liveControllerPod()!;
    expect(c.mv(CP, '/etc/kubernetes/manifests/kube-apiserver.yaml', '/root/').exitCode).toBe(0);
    expect(
      c.runUntil(() => c.api.getAvailability() === 'down', {
        timeoutMs: 60_000,
      }),
    ).toBe(true);
    const down = c.clock.now();
    c.run(20_000);
    expect(c.mv(CP, '/root/kube-apiserver.yaml', '/etc/kubernetes/manifests/').exitCode).toBe(0);
    expect(c.runUntil(() => c.api.getAvailability() === 'up', { timeoutMs: 60_000 })).toBe(true);
    expect(c.clock.now() - down).toBeGreaterThan(20_000);

    // Changed during the outage window's aftermath: caught up on the next pass.
    expect(run(`kubectl patch shelf new-arrivals -n bookshop --type=merge -p '{"spec":{"isbns":["x"]}}'`)).toMatchObject({ exitCode: 0 });
    expect(
      c.runUntil(() => bookCount('new-arrivals') === 1, {
        stepMs: 100,
        timeoutMs: 10_000,
      }),
    ).toBe(true);
    expect(cm('shelf-new-arrivals')!.data).toEqual({ count: '1' });

    const lines = run(`kubectl logs ${pod.metadata.name} -n bookshop`).text.split('\n');
    const refused = lines.filter((l) => l === 'The connection to the server 10.96.0.1:443 was refused - did you specify the right host or port?');
    expect(refused.length).toBeGreaterThanOrEqual(4);
    const lastRefusal = lines.lastIndexOf(refused[0]);
    expect(lines.slice(lastRefusal + 1)).toContain('reconciled shelf/new-arrivals -> bookCount=1');
    // Same pod, same container: the program never stopped.
    const now = c.api.get('pods', 'bookshop', pod.metadata.name!);
    expect(now.status?.containerStatuses?.[0]?.restartCount).toBe(0);
    expect(ready(now)).toBe(true);
  });
  it('the program is the mounted script: another script in controller-src runs as plain sh and reconciles nothing', () => {
    expect(run(`kubectl create configmap controller-src -n bookshop --from-literal=reconcile.sh='echo my own loop; sleep 3600' --dry-run=client -o yaml | kubectl apply -f -`).text).toBe(
      'configmap/controller-src configured\n',
    );
    const old = liveControllerPod()!;
    expect(run('kubectl rollout restart deployment/shelf-controller -n bookshop').text).toBe('deployment.apps/shelf-controller restarted\n');
    expect(
      c.runUntil(
        () => {
          const p = liveControllerPod();
          return p !== undefined && p.metadata.name !== old.metadata.name;
        },
        { stepMs: 100, timeoutMs: 60_000 },
      ),
    ).toBe(true);
    c.runUntil(() => controllerPods().length === 1, { timeoutMs: 60_000 });
    const pod = liveControllerPod()!;
    expect(run(`kubectl patch shelf staff-picks -n bookshop --type=merge -p '{"spec":{"isbns":["only-one"]}}'`).exitCode).toBe(0);
    c.run(12_000);
    expect(run(`kubectl logs ${pod.metadata.name} -n bookshop`).text).toBe('my own loop\n');
    expect(bookCount('staff-picks')).toBe(4);
    // Back to the real program.
    expect(run('kubectl create configmap controller-src -n bookshop --from-file=reconcile.sh=controller/reconcile.sh --dry-run=client -o yaml | kubectl apply -f -').exitCode).toBe(0);
    expect(run('kubectl rollout restart deployment/shelf-controller -n bookshop').exitCode).toBe(0);
    expect(
      c.runUntil(() => bookCount('staff-picks') === 1, {
        stepMs: 100,
        timeoutMs: 90_000,
      }),
    ).toBe(true);
    c.runUntil(() => controllerPods().length === 1, { timeoutMs: 60_000 });
  });

  it("as its ServiceAccount: without its RoleBinding every list is Forbidden, in the API server's words", () => {
    const pod = liveControllerPod()!;
    expect(run('kubectl delete rolebinding shelf-controller -n bookshop').exitCode).toBe(0);
    c.run(12_000);
    const log = run(`kubectl logs ${pod.metadata.name} -n bookshop --tail=1`).text;
    expect(log).toBe(
      'Error from server (Forbidden): shelves.bookshop.engineers-musings.dev is forbidden: User "system:serviceaccount:bookshop:shelf-controller" cannot list resource "shelves" in API group "bookshop.engineers-musings.dev" in the namespace "bookshop"\n',
    );
    expect(run('kubectl apply -k manifests/shelf-controller').text).toContain('rolebinding.rbac.authorization.k8s.io/shelf-controller created');
    c.run(6_000);
    expect(run(`kubectl logs ${pod.metadata.name} -n bookshop --tail=1`).text).toBe('reconciled shelf/staff-picks -> bookCount=1\n');
  });
  it('evicted by kubectl drain: the Deployment brings it back on another node, where it picks up where the cluster is', () => {
    const old = liveControllerPod()!;
    const node = old.spec.nodeName as string;
    const t0 = c.clock.now();
    const out = run(`kubectl drain ${node} --ignore-daemonsets --delete-emptydir-data`).text;
    expect(out).toContain(`evicting pod bookshop/${old.metadata.name}\n`);
    expect(out).toContain(`pod/${old.metadata.name} evicted\n`);
    // The eviction is a graceful delete; sh ignores SIGTERM, so the drain waits out the 30 s grace period.
    expect(c.clock.now() - t0).toBeGreaterThanOrEqual(30_000);
    expect(c.runUntil(() => liveControllerPod() !== undefined, { stepMs: 100, timeoutMs: 60_000 })).toBe(true);
    const fresh = liveControllerPod()!;
    expect(fresh.spec.nodeName).not.toBe(node);
    expect(run(`kubectl patch shelf new-arrivals -n bookshop --type=merge -p '{"spec":{"isbns":["p","q","r","s","t"]}}'`).exitCode).toBe(0);
    const patched = c.clock.now();
    expect(c.runUntil(() => bookCount('new-arrivals') === 5 && cm('shelf-new-arrivals')?.data?.count === '5', { stepMs: 100, timeoutMs: 10_000 })).toBe(true);
    expect(c.clock.now() - patched).toBeLessThanOrEqual(6_000);
    expect(run(`kubectl uncordon ${node}`).text).toBe(`node/${node} uncordoned\n`);
  });
});

describe('ingress-nginx from the corpus: a layer-4 program', () => {
  let c: Cluster;
  let run: (line: string) => { text: string; exitCode: number };
  const NS = 'ingress-nginx';
  const controllerReady = () =>
    c.api
      .list('pods', {
        namespace: NS,
        labelSelector: 'app.kubernetes.io/component=controller',
      })
      .items.some(ready);

  beforeAll(() => {
    ({ c, run } = setup(12));
  });

  it('the 19 objects; the admission Jobs make the Secret and patch the webhook, then vanish; the controller waits for the Secret, then runs', () => {
    const out = run('kubectl apply -f ingress-nginx.yaml').text.trim().split('\n');
    expect(out).toHaveLength(19);
    expect(out.every((l) => l.endsWith(' created'))).toBe(true);
    expect(c.runUntil(controllerReady, { stepMs: 250, timeoutMs: 5 * 60_000 })).toBe(true);

    const events = run(`kubectl get events -n ${NS} --field-selector reason=FailedMount`).text;
    expect(events).toContain('MountVolume.SetUp failed for volume "webhook-cert" : secret "ingress-nginx-admission" not found');
    const secret = c.api.get('secrets', NS, 'ingress-nginx-admission') as KubeObject & { data: Record<string, string> };
    expect(Object.keys(secret.data).sort()).toEqual(['ca', 'cert', 'key']);
    const hook = c.api.get('validatingwebhookconfigurations', undefined, 'ingress-nginx-admission') as KubeObject & {
      webhooks: {
        clientConfig: { caBundle?: string };
        failurePolicy?: string;
      }[];
    };
    expect(hook.webhooks[0].clientConfig.caBundle).toBe(secret.data.ca);
    expect(hook.webhooks[0].failurePolicy).toBe('Fail');

    // ttlSecondsAfterFinished: 0 -> the Jobs (and their pods) are deleted as soon as they finish.
    c.run(5_000);
    expect(run(`kubectl get jobs -n ${NS}`).text).toBe(`No resources found in ${NS} namespace.\n`);
    const pods = run(`kubectl get pods -n ${NS}`).text.split('\n').filter(Boolean);
    expect(pods).toHaveLength(2);
    expect(pods[1]).toMatch(/^ingress-nginx-controller-\S+ +1\/1 +Running +0 /);
    expect(run(`kubectl get svc ingress-nginx-controller -n ${NS}`).text).toMatch(/LoadBalancer +\S+ +<pending> +80:\d+\/TCP,443:\d+\/TCP/);
    const log = run(`kubectl logs deploy/ingress-nginx-controller -n ${NS}`).text;
    expect(log).toContain('successfully acquired lease ingress-nginx/ingress-nginx-leader');
  });

  it('an Ingress of class nginx is reconciled; ADDRESS stays empty while the LoadBalancer is <pending>, then shows its address', () => {
    expect(run('kubectl apply -f ingress-tls.yaml').text).toBe('ingress.networking.k8s.io/kuard created\n');
    c.run(5_000);
    const log = run(`kubectl logs deploy/ingress-nginx-controller -n ${NS}`).text;
    expect(log).toMatch(/store\.go:440\] "Found valid IngressClass" ingress="default\/kuard" ingressclass="nginx"/);
    expect(log).toMatch(/reason: 'Sync' Scheduled for sync/);
    expect(log).toMatch(/"Configuration changes detected, backend reload required"\n.*"Backend successfully reloaded"/);
    expect(run('kubectl get events --field-selector involvedObject.kind=Ingress').text).toMatch(/Normal +Sync +ingress\/kuard +Scheduled for sync/);

    // --publish-service: the address is the Service's, and on kind without a cloud it has none.
    c.run(65_000);
    expect(run('kubectl get ingress kuard').text).toMatch(/^NAME +CLASS +HOSTS +ADDRESS +PORTS +AGE\nkuard +nginx +example\.example\.com +80, 443 +\d+s\n$/);

    // Give the Service an address (as a cloud controller or MetalLB would): the next status sync copies it.
    expect(run(`kubectl patch svc ingress-nginx-controller -n ${NS} --subresource=status --type=merge -p '{"status":{"loadBalancer":{"ingress":[{"ip":"172.18.0.200"}]}}}'`).exitCode).toBe(0);
    expect(c.runUntil(() => c.api.get('ingresses', 'default', 'kuard').status?.loadBalancer?.ingress?.[0]?.ip === '172.18.0.200', { timeoutMs: 61_000, stepMs: 500 })).toBe(true);
    expect(run('kubectl get ingress kuard').text).toMatch(/kuard +nginx +example\.example\.com +172\.18\.0\.200 +80, 443 /);
    const lines = run(`kubectl logs deploy/ingress-nginx-controller -n ${NS} --tail=2`).text.split('\n');
    expect(lines[0]).toMatch(/status\.go:304\] "updating Ingress status" namespace="default" ingress="kuard" currentValue=null newValue=\[\{"ip":"172\.18\.0\.200"\}\]$/);
    // The status write is a change to an Ingress of its class: scheduled for sync again (client-go aggregates the Event).
    expect(lines[1]).toMatch(/event\.go:377\] Event\(v1\.ObjectReference\{Kind:"Ingress", Namespace:"default", Name:"kuard", .*\): type: 'Normal' reason: 'Sync' Scheduled for sync$/);
    expect(run('kubectl describe ingress kuard').text).toMatch(
      /Events:\n {2}Type {4}Reason {2}Age +From +Message\n {2}---- {4}------ {2}---- +---- +-------\n {2}Normal {2}Sync {4}\S+ \(x2 over \S+\) {2}nginx-ingress-controller {2}Scheduled for sync\n/,
    );
  });

  it('an Ingress of another class is left alone', () => {
    const other = corpus('cert-manager-website__acme-example-ingress-tls.yaml').replace('name: kuard', 'name: other').replace('ingressClassName: nginx', 'ingressClassName: traefik');
    const shell = createPlaygroundShell({
      cluster: c,
      files: new MemoryFiles({ 'o.yaml': other }),
    });
    expect(runToCompletion(shell, 'kubectl apply -f o.yaml').exitCode).toBe(0);
    c.run(65_000);
    expect(c.api.get('ingresses', 'default', 'other').status?.loadBalancer?.ingress).toBeUndefined();
    expect(run(`kubectl logs deploy/ingress-nginx-controller -n ${NS}`).text).toContain(
      '"Ignoring ingress because of error while validating ingress class" ingress="default/other" error="no object matching key \\"traefik\\" in local store"',
    );
  });
  it('no controller running: a new Ingress waits; a new controller process relists, schedules it and gives it the address', () => {
    expect(run(`kubectl scale deployment ingress-nginx-controller -n ${NS} --replicas=0`).exitCode).toBe(0);
    expect(c.runUntil(() => c.api.list('pods', { namespace: NS, labelSelector: 'app.kubernetes.io/component=controller' }).items.length === 0, { timeoutMs: 5 * 60_000 })).toBe(true);
    const late = corpus('cert-manager-website__acme-example-ingress-tls.yaml').replace('name: kuard', 'name: late');
    const shell = createPlaygroundShell({ cluster: c, files: new MemoryFiles({ 'late.yaml': late }) });
    expect(runToCompletion(shell, 'kubectl apply -f late.yaml').exitCode).toBe(0);
    c.run(70_000);
    expect(run('kubectl get events --field-selector involvedObject.name=late').text).toBe('No resources found in default namespace.\n');
    expect(c.api.get('ingresses', 'default', 'late').status?.loadBalancer?.ingress).toBeUndefined();

    expect(run(`kubectl scale deployment ingress-nginx-controller -n ${NS} --replicas=1`).exitCode).toBe(0);
    expect(c.runUntil(controllerReady, { stepMs: 250, timeoutMs: 5 * 60_000 })).toBe(true);
    expect(c.runUntil(() => c.api.get('ingresses', 'default', 'late').status?.loadBalancer?.ingress?.[0]?.ip === '172.18.0.200', { timeoutMs: 2 * 60_000 })).toBe(true);
    const log = run(`kubectl logs deploy/ingress-nginx-controller -n ${NS}`).text;
    expect(log).toContain('"Found valid IngressClass" ingress="default/kuard" ingressclass="nginx"');
    expect(log).toContain('"Found valid IngressClass" ingress="default/late" ingressclass="nginx"');
    expect(run('kubectl get events --field-selector involvedObject.name=late').text).toMatch(/Normal +Sync +ingress\/late +Scheduled for sync/);
  });

  it('kube-webhook-certgen patch without its Secret dies as log.Fatal does and the Job restarts it (restartPolicy OnFailure)', () => {
    const job = corpus('ingress-nginx__deploy-static-provider-cloud.yaml')
      .split('\n---\n')
      .find((d) => d.includes('name: ingress-nginx-admission-patch\n  namespace'))!
      .replace(/ingress-nginx-admission-patch/g, 'certgen-demo')
      .replace('--secret-name=ingress-nginx-admission', '--secret-name=nope')
      .replace('ttlSecondsAfterFinished: 0', 'ttlSecondsAfterFinished: 600');
    const shell = createPlaygroundShell({
      cluster: c,
      files: new MemoryFiles({ 'j.yaml': job }),
    });
    expect(runToCompletion(shell, 'kubectl apply -f j.yaml').text).toBe('job.batch/certgen-demo created\n');
    c.run(30_000);
    const pod = c.api.list('pods', {
      namespace: NS,
      labelSelector: 'batch.kubernetes.io/job-name=certgen-demo',
    }).items[0];
    expect(pod.status?.containerStatuses?.[0]?.restartCount).toBeGreaterThanOrEqual(1);
    const lines = run(`kubectl logs ${pod.metadata.name} -n ${NS}`)
      .text.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines.map((l) => [l.level, l.msg, l.err])).toEqual([
      ['info', 'no secret found', 'secrets "nope" not found'],
      ['fatal', "no secret with 'nope' in 'ingress-nginx'", undefined],
    ]);
    expect(lines[1].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
