/**
 * Layer 4: app controllers as programs. Each one is an ordinary container of an ordinary
 * Deployment or Job; it reconciles only while its process runs, talks to kube-apiserver only
 * through the Service IP as its pod's ServiceAccount (RBAC applies, rbac.ts), and keeps nothing
 * across restarts: a new process lists everything again and catches up.
 *
 * - **shelf-controller** (engineers-musings/k8s-bookshop `manifests/shelf-controller`, image
 *   `bookshop-controller:v1` = alpine + kubectl, `command: ["sh", "/src/reconcile.sh"]`, the script
 *   mounted from ConfigMap `controller-src`). The program is a model of that script (SOURCE.md):
 *   `kubectl get shelves` in its own namespace; for each Shelf count `spec.isbns`, `kubectl create
 *   configmap shelf-<name> --from-literal=count=<n> --dry-run=client -o yaml | kubectl apply -f -`,
 *   `kubectl patch shelf <name> --subresource=status --type=merge -p {"status":{"bookCount":<n>}}`,
 *   `echo "reconciled shelf/<name> -> bookCount=<n>"`; then `sleep 5`, forever. (A script that
 *   is not this loop, mounted in its place, runs in the node layer's sh interpreter instead; see
 *   `isShelfLoop`.) A failing kubectl prints its error on stderr and the loop goes on (no
 *   `set -e`; the echo still runs): with kube-apiserver down the
 *   log shows `The connection to the server 10.96.0.1:443 was refused - did you specify the right
 *   host or port?` every 5 s until it is back. Without the script on disk, busybox sh says
 *   `sh: can't open '/src/reconcile.sh': No such file or directory` and exits 2. As PID 1 with no
 *   `trap`, sh ignores SIGTERM, so deleting its pod takes the full grace period (30 s) and ends
 *   in SIGKILL (exit 137), as on a real cluster.
 * - **kube-webhook-certgen** (ingress-nginx's admission Jobs): `create` makes Secret
 *   `ingress-nginx-admission` (ca, cert, key) unless it exists; `patch` reads its CA and writes it
 *   into the ValidatingWebhookConfiguration's `caBundle` (and `failurePolicy`), or dies with
 *   `no secret with 'ingress-nginx-admission' in 'ingress-nginx'` (exit 1: the Job's pod is
 *   restarted, restartPolicy OnFailure). logrus JSON lines on stderr.
 * - **ingress-nginx controller** (`/nginx-ingress-controller`): the data model's process (banner,
 *   `/healthz` on 10254, ports 80/443/8443) plus the controller: informers on Ingresses,
 *   IngressClasses; leader election on Lease `<ns>/<--election-id>`; Ingresses of its class
 *   (`spec.ingressClassName` naming an IngressClass whose `spec.controller` is its
 *   `--controller-class`, or the `kubernetes.io/ingress.class` annotation equal to
 *   `--ingress-class`) get `"Found valid IngressClass"`, an Event `Sync` `Scheduled for sync`, and
 *   a backend reload (`Configuration changes detected, backend reload required`, `Backend
 *   successfully reloaded`, Event `RELOAD` on the pod), at most one sync per 1/0.3 s. The leader
 *   syncs `status.loadBalancer` at start and every 60 s from `--publish-service`: for a
 *   LoadBalancer Service its `status.loadBalancer.ingress` (and `spec.externalIPs`). On kind
 *   with no cloud the Service stays `<pending>`, so the address list is empty and ADDRESS stays
 *   empty (internal/ingress/status/status.go `statusAddressFromService`); once something gives
 *   the Service an address, the Ingresses get it at the next sync.
 *
 * How the shelf-controller gets onto a cluster, as the repository does it: `make up` does not
 * install it; `make controller` builds `bookshop-controller:v1` and `kind load`s it, creates
 * ConfigMap `controller-src` from controller/reconcile.sh (`kubectl create configmap --from-file`,
 * because kustomize refuses files outside its directory: manifests/shelf-controller/
 * kustomization.yaml generates no ConfigMap), then `kubectl apply -k manifests/shelf-controller`.
 * In the playground the image is already in every node's cache (bootstrap.ts loads it with the
 * bookshop images at `make up`, as if the image half of `make controller` had run); the
 * ConfigMap and the kustomization are left to the user, and the working directory has
 * controller/reconcile.sh for it (`SHELF_CONTROLLER_FILES`). `kubectl apply -k` alone leaves the
 * pod in ContainerCreating with `FailedMount ... configmap "controller-src" not found`.
 *
 * Not modelled: kube-apiserver calling admission webhooks (the ValidatingWebhookConfiguration is
 * stored and patched, never called), nginx actually proxying by the Ingress rules.
 *
 * Units: virtual ms.
 */
import type { Clock, Timer } from '../clock';
import { formatRfc3339 } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { EventRecorder } from '../client/events';
import { SharedInformerFactory, type Informer } from '../client/informer';
import { LeaderElector } from '../client/leaderelection';
import type { Program } from '../node/process';
import { flagValue, type ContainerProgram, type ContainerRunSpec, type ContainerServices, type ProgramFactory } from '../node/programs';
import { ProgramRegistry } from '../node/programs';
import { klogLine } from '../node/kubelet/util';
import { base64 } from '../node/fs';
import { syntheticDigestHex } from '../node/registry';
import type { ComponentEnv } from './components';
import { withSidecar } from './sidecar';
import { authorize, type RequestAttributes, type ServiceAccountUser } from './rbac';

const MiB = 1024 * 1024;

/** reconcile.sh's `sleep 5` between passes. Source: engineers-musings/k8s-bookshop controller/reconcile.sh, SOURCE.md ("a shell loop every 5 s"). Setting `shelfControllerLoopMs`. */
export const SHELF_LOOP_SLEEP_MS = 5_000;
/** One `kubectl` invocation from inside a pod (process start, in-cluster config, TLS, one request). Source: observed, 0.1-0.2 s. Setting `kubectlCallMs`. */
export const KUBECTL_CALL_MS = 150;
/**
 * The API server as in-cluster clients reach it: the `kubernetes` Service, the first address of
 * kind's serviceSubnet 10.96.0.0/16, port 443 (`KUBERNETES_SERVICE_HOST`/`_PORT`). Source:
 * client-go rest.InClusterConfig; kind's default networking.
 */
export const IN_CLUSTER_API_SERVER = '10.96.0.1:443';
/** Where the kubelet mounts the ServiceAccount token (kube-api-access volume). Source: client-go rest.InClusterConfig (`tokenFile`). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** kube-webhook-certgen's run time (generate a CA and a serving cert, one or two requests). Source: observed admission Job pods (~1 s). */
export const CERTGEN_RUN_MS = 800;
/** ingress-nginx status sync period (`UpdateInterval = 60` seconds). Source: internal/ingress/status/status.go. */
export const INGRESS_STATUS_UPDATE_INTERVAL_MS = 60_000;
/** ingress-nginx sync rate limit (`--sync-rate-limit` default 0.3 per second: one sync per 3.33 s). Source: cmd/nginx/flags.go, internal/ingress/controller/nginx.go (`syncRateLimiter`). */
export const INGRESS_SYNC_MIN_INTERVAL_MS = Math.round(1000 / 0.3);
/** ingress-nginx from process start to its informers running (flags, API client, fake SSL certificate). Source: the model's start-up lines (programs.ts `ingress-nginx-controller`). */
export const INGRESS_CONTROLLER_START_MS = 600;
/** client-go `WaitForCacheSync` polling period (100 ms). Source: staging/src/k8s.io/client-go/tools/cache/shared_informer.go (`syncedPollPeriod`). */
export const INFORMER_SYNC_POLL_MS = 100;
/** ingress-nginx waits this long after the other caches synced before starting the Ingress informer. Source: internal/ingress/controller/store/store.go (`time.Sleep(1 * time.Second)` in Informer.Run). */
export const INGRESS_INFORMER_DELAY_MS = 1_000;
/** Time an nginx reload takes (`nginx -s reload` and the dynamic configuration POST). Source: observed, ~0.1-0.3 s. */
export const INGRESS_RELOAD_MS = 200;
/** ingress-nginx leader election: ttl 30 s, renew deadline ttl/2, retry ttl/4. Source: internal/ingress/controller/leaderelection.go. */
export const INGRESS_LEASE_DURATION_MS = 30_000;

// ------------------------------------------------------------------------------ shared helpers

/** Timers owned by one program, cancelled when it stops. */
class Timers {
  private set = new Set<Timer>();
  constructor(
    private readonly clock: Clock,
    private readonly label: string,
  ) {}
  after(ms: number, fn: () => void): void {
    const t = this.clock.schedule(
      ms,
      () => {
        this.set.delete(t);
        fn();
      },
      { label: this.label },
    );
    this.set.add(t);
  }
  cancelAll(): void {
    for (const t of this.set) t.cancel();
    this.set.clear();
  }
}

function base(p: string | undefined): string {
  if (!p) return '';
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** Read an absolute path of the container from its volume mounts (undefined when no mount holds it). */
export function readFromMounts(spec: Pick<ContainerRunSpec, 'mounts' | 'workingDir'>, path: string): string | undefined {
  const abs = path.startsWith('/') ? path : `${(spec.workingDir ?? '/').replace(/\/$/, '')}/${path}`;
  const mounts = [...spec.mounts].sort((a, b) => b.path.length - a.path.length);
  for (const m of mounts) {
    const mp = m.path.replace(/\/+$/, '');
    if (abs.startsWith(`${mp}/`)) return m.source.read(abs.slice(mp.length + 1));
  }
  return undefined;
}

function hasMount(spec: ContainerRunSpec, path: string): boolean {
  return spec.mounts.some((m) => m.path.replace(/\/+$/, '') === path);
}


/**
 * A pod's client of kube-apiserver: through its node's network, as its ServiceAccount (the
 * token's identity is the pod's `spec.serviceAccountName`). Every call is authorized with RBAC
 * first. Without a token mounted, in-cluster config fails and clients fall back to
 * `localhost:8080` (kubectl's famous refusal).
 */
class PodClient {
  private sa: ServiceAccountUser | undefined;
  readonly api: ApiServer;
  constructor(
    private readonly env: ComponentEnv,
    private readonly spec: ContainerRunSpec,
  ) {
    this.api = env.apiFor(spec.pod.nodeName);
  }

  /** Whether the ServiceAccount token is mounted (in-cluster config works). */
  get inCluster(): boolean {
    return hasMount(this.spec, SERVICE_ACCOUNT_DIR);
  }

  /** The server address clients print in errors. */
  get server(): string {
    return this.inCluster ? IN_CLUSTER_API_SERVER : 'localhost:8080';
  }

  private user(): ServiceAccountUser {
    if (!this.sa) {
      const pod = this.api.tryGet('pods', this.spec.pod.namespace, this.spec.pod.name);
      const name: string = pod?.spec?.serviceAccountName ?? pod?.spec?.serviceAccount ?? 'default';
      this.sa = { namespace: this.spec.pod.namespace, name };
    }
    return this.sa;
  }

  /** Run `fn` as the ServiceAccount after RBAC allows `attrs`. Errors: ApiError (refused, unreachable, Forbidden, the call's own). */
  call<T>(attrs: RequestAttributes, fn: (api: ApiServer) => T): T {
    if (!this.inCluster)
      throw new ApiError(
        {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
          reason: 'ServiceUnavailable',
          code: 503,
        },
        true,
      );
    authorize(this.api, this.user(), attrs);
    return fn(this.api);
  }

  /** What kubectl (in this pod) prints for an error. */
  kubectlError(e: ApiError): string {
    if (e.connectionRefused) {
      if (/was refused/.test(e.message)) return `The connection to the server ${this.server} was refused - did you specify the right host or port?`;
      return `Unable to connect to the server: dial tcp ${this.server}: connect: network is unreachable`;
    }
    if (/^the server doesn't have a resource type/.test(e.message)) return `error: ${e.message}`;
    return e.kubectlMessage();
  }
}


// ------------------------------------------------------------------------------ shelf-controller

/** The Shelf resource (crd.yaml: group bookshop.engineers-musings.dev, plural shelves). */
const SHELF_GROUP = 'bookshop.engineers-musings.dev';

/** `echo "$isbns" | wc -w`: the words of `spec.isbns[*]` as jsonpath prints them (space-joined). */
export function countIsbns(shelf: KubeObject): number {
  const isbns = (shelf.spec?.isbns ?? []) as unknown[];
  return isbns
    .map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
    .join(' ')
    .split(/\s+/)
    .filter((w) => w.length > 0).length;
}

/**
 * The shelf-controller's container: `sh /src/reconcile.sh` in `bookshop-controller:v1`.
 * See the file comment for what a pass does; settings `shelfControllerLoopMs`, `kubectlCallMs`.
 */
export function shelfControllerProgram(env: ComponentEnv, spec: ContainerRunSpec, services: ContainerServices): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const timers = new Timers(env.clock, `shelf-controller[${spec.pod.name}]`);
  const client = new PodClient(env, spec);
  const ns = spec.pod.namespace;
  const loopMs = env.settings.shelfControllerLoopMs ?? SHELF_LOOP_SLEEP_MS;
  const callMs = env.settings.kubectlCallMs ?? KUBECTL_CALL_MS;
  const podRef = { kind: 'Pod', namespace: ns, name: spec.pod.name };
  const component = 'shelf-controller';
  let failing = false;
  let alive = false;

  const stderr = (e: unknown): void => {
    if (!(e instanceof ApiError)) throw e;
    services.log('stderr', client.kubectlError(e));
  };

  /** One `kubectl get shelves -o jsonpath=...` and the `while read` loop over its output. */
  const pass = (): void => {
    let shelves: KubeObject[];
    try {
      shelves = client.call(
        {
          verb: 'list',
          group: SHELF_GROUP,
          resource: 'shelves',
          namespace: ns,
        },
        (api) => api.list('shelves', { namespace: ns }).items,
      );
      if (failing) {
        failing = false;
        env.trace(component, `${ns}/${spec.pod.name}: kubectl get shelves works again; catching up`, podRef, 'Normal');
      }
    } catch (e) {
      stderr(e);
      if (!failing) {
        failing = true;
        env.trace(component, `${ns}/${spec.pod.name}: kubectl get shelves failed (${e instanceof ApiError ? client.kubectlError(e) : ''}); retrying every ${loopMs / 1000} s`, podRef, 'Warning');
      }
      timers.after(callMs + loopMs, pass);
      return;
    }
    const rows = shelves.map((s) => ({
      name: s.metadata.name!,
      count: countIsbns(s),
    }));
    const next = (i: number): void => {
      if (i >= rows.length) {
        timers.after(loopMs, () => timers.after(callMs, pass));
        return;
      }
      const { name, count } = rows[i];
      // kubectl create configmap ... --dry-run=client -o yaml | kubectl apply -f - >/dev/null
      timers.after(2 * callMs, () => {
        let wrote = false;
        try {
          const cmName = `shelf-${name}`;
          // As `kubectl create configmap --dry-run=client -o yaml` prints it (creationTimestamp: null).
          const manifest = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: cmName, namespace: ns, creationTimestamp: null },
            data: { count: String(count) },
          } as unknown as KubeObject;
          client.call(
            {
              verb: 'get',
              group: '',
              resource: 'configmaps',
              namespace: ns,
              name: cmName,
            },
            () => undefined,
          );
          const exists = client.api.tryGet('configmaps', ns, cmName) !== undefined;
          const r = client.call(
            {
              verb: exists ? 'patch' : 'create',
              group: '',
              resource: 'configmaps',
              namespace: ns,
              name: exists ? cmName : '',
            },
            (api) => api.apply(manifest, { namespace: ns }),
          );
          wrote = r.verb !== 'unchanged';
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          if (e.connectionRefused && /was refused/.test(e.message)) {
            services.log(
              'stderr',
              `error: error validating "STDIN": error validating data: failed to download openapi: Get "https://${client.server}/openapi/v2?timeout=32s": dial tcp ${client.server}: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false`,
            );
          } else if (e.reason === 'Forbidden') {
            services.log('stderr', `Error from server (Forbidden): error when creating "STDIN": ${e.message}`);
          } else stderr(e);
        }
        // kubectl patch shelf <name> --subresource=status --type=merge -p '{"status":{"bookCount":<n>}}' >/dev/null
        timers.after(callMs, () => {
          try {
            const before = client.api.tryGet('shelves', ns, name);
            client.call(
              {
                verb: 'patch',
                group: SHELF_GROUP,
                resource: 'shelves',
                subresource: 'status',
                namespace: ns,
                name,
              },
              (api) => api.patch('shelves', ns, name, 'merge', { status: { bookCount: count } }, { subresource: 'status', fieldManager: 'kubectl-patch' }),
            );
            if (before?.status?.bookCount !== count) wrote = true;
          } catch (e) {
            stderr(e);
          }
          // echo "reconciled shelf/$name -> bookCount=$count"
          services.log('stdout', `reconciled shelf/${name} -> bookCount=${count}`);
          if (wrote) env.trace(component, `reconciled shelf/${name} -> bookCount=${count} (ConfigMap shelf-${name}, status.bookCount)`, { kind: 'Shelf', namespace: ns, name }, 'Normal');
          next(i + 1);
        });
      });
    };
    next(0);
  };

  return {
    start(ctx) {
      alive = true;
      ctx.setMemory(Math.round(1.2 * MiB));
      const script = spec.argv[1];
      if (!script || readFromMounts(spec, script) === undefined) {
        // busybox ash: the script file is missing (ConfigMap without the key, or not mounted).
        services.log('stderr', `sh: can't open '${script ?? ''}': No such file or directory`);
        env.trace(component, `${ns}/${spec.pod.name}: sh: can't open '${script ?? ''}': No such file or directory`, podRef, 'Warning');
        ctx.exit(2);
        return;
      }
      env.trace(component, `${ns}/${spec.pod.name} started: lists Shelves every ${loopMs / 1000} s`, podRef);
      timers.after(callMs, pass);
    },
    // sh as PID 1 with no trap: SIGTERM, SIGINT and SIGHUP are ignored (the kernel does not
    // deliver default-action signals to a namespace's init); only SIGKILL ends it.
    onSignal: () => true,
    stop() {
      if (!alive) return;
      alive = false;
      timers.cancelAll();
    },
    listening: () => false,
    ready: () => alive,
  };
}

/**
 * A playground copy of the shelf-controller's program for `kubectl create configmap
 * controller-src --from-file=reconcile.sh=controller/reconcile.sh` (what the repository's
 * `make controller` does). Written for the playground after SOURCE.md; the program that runs is
 * `shelfControllerProgram`, which models it step by step.
 */
export const SHELF_CONTROLLER_SCRIPT = `#!/bin/sh
# shelf-controller, playground edition: observe -> act -> report, every 5 seconds.
# (The book's original is controller/reconcile.sh in engineers-musings/k8s-bookshop.)
# In-cluster kubectl talks to the API as ServiceAccount shelf-controller, whose Role only
# covers this namespace.

reconcile() {            # $1 = the Shelf's name, the other arguments = its ISBNs
  shelf=$1; shift
  n=$#
  kubectl create configmap "shelf-$shelf" --from-literal=count="$n" -o yaml --dry-run=client \\
    | kubectl apply -f - >/dev/null
  kubectl patch shelf "$shelf" --type=merge --subresource=status \\
    -p "{\\"status\\":{\\"bookCount\\":$n}}" >/dev/null
  echo "reconciled shelf/$shelf -> bookCount=$n"
}

while :; do
  kubectl get shelves \\
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.isbns[*]}{"\\n"}{end}' \\
  | while read -r line; do
      [ -n "$line" ] && reconcile $line
    done
  sleep 5
done
`;

/**
 * Is `script` the shelf-controller's loop (a script that runs `kubectl get shelves`)? A missing
 * script counts too (sh then fails to open it). Any other script a user mounts instead runs in
 * the node layer's sh interpreter like every other shell command.
 */
export function isShelfLoop(script: string | undefined): boolean {
  return script === undefined || /kubectl\s+get\s+(shelves|shelf|sh)\b/.test(script);
}

/** Files the playground's working directory adds for `make controller` (`controller/reconcile.sh`). */
export const SHELF_CONTROLLER_FILES: Readonly<Record<string, string>> = {
  'controller/reconcile.sh': SHELF_CONTROLLER_SCRIPT,
};

// ------------------------------------------------------------------------------ kube-webhook-certgen

/** A PEM block of deterministic filler (the simulation does no cryptography). */
function fakePem(kind: string, seed: string): string {
  let body = '';
  for (let i = 0; body.length < 640; i++) body += syntheticDigestHex(`${seed}/${i}`);
  const b64 = base64(body).slice(0, 640);
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${kind}-----\n${lines.join('\n')}\n-----END ${kind}-----\n`;
}

/**
 * kube-webhook-certgen (`create` / `patch`), see the file comment. Logs are logrus JSON on
 * stderr; `log.Fatal` exits 1. Source: ingress-nginx images/kube-webhook-certgen/rootfs
 * (cmd/create.go, cmd/patch.go, pkg/k8s/k8s.go).
 */
export function certgenProgram(env: ComponentEnv, spec: ContainerRunSpec, services: ContainerServices): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const timers = new Timers(env.clock, `kube-webhook-certgen[${spec.pod.name}]`);
  const client = new PodClient(env, spec);
  const mode = spec.argv.includes('patch') ? 'patch' : 'create';
  const namespace = flagValue(spec, 'namespace') ?? '';
  const secretName = flagValue(spec, 'secret-name') ?? '';
  const webhookName = flagValue(spec, 'webhook-name') ?? '';
  const patchMutating = (flagValue(spec, 'patch-mutating') ?? 'true') !== 'false';
  const patchValidating = (flagValue(spec, 'patch-validating') ?? 'true') !== 'false';
  const failurePolicy = flagValue(spec, 'patch-failure-policy') ?? '';
  const podRef = {
    kind: 'Pod',
    namespace: spec.pod.namespace,
    name: spec.pod.name,
  };
  const log = (level: string, msg: string, source: string, err?: string): void => {
    const time = formatRfc3339(env.clock.epochMs + env.clock.now());
    services.log(
      'stderr',
      JSON.stringify({
        ...(err !== undefined ? { err } : {}),
        level,
        msg,
        source,
        time,
      }),
    );
  };
  class Fatal extends Error {}
  const fatal = (msg: string, source: string, err?: string): never => {
    log('fatal', msg, source, err);
    throw new Fatal(msg);
  };

  /** `GetCaFromSecret`: the "ca" of the Secret, or undefined when there is none. */
  const caFromSecret = (): string | undefined => {
    try {
      const s = client.call(
        {
          verb: 'get',
          group: '',
          resource: 'secrets',
          namespace,
          name: secretName,
        },
        (api) => api.get('secrets', namespace, secretName),
      );
      const ca: string | undefined = (s as KubeObject & { data?: Record<string, string> }).data?.ca;
      if (!ca) fatal("got secret, but it did not contain a 'ca' key", 'k8s/k8s.go:236');
      return ca;
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) {
        log('info', 'no secret found', 'k8s/k8s.go:229', e.message);
        return undefined;
      }
      if (e instanceof ApiError) fatal('error getting secret', 'k8s/k8s.go:232', e.message);
      throw e;
    }
  };

  const run = (): number => {
    if (mode === 'create') {
      const ca = caFromSecret();
      if (ca !== undefined) {
        log('info', 'secret already exists', 'cmd/create.go:31');
        return 0;
      }
      log('info', 'creating new secret', 'cmd/create.go:28');
      const seed = `${spec.pod.uid}/${secretName}`;
      const secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secretName, namespace },
        data: {
          ca: base64(fakePem('CERTIFICATE', `${seed}/ca`)),
          cert: base64(fakePem('CERTIFICATE', `${seed}/cert`)),
          key: base64(fakePem('EC PRIVATE KEY', `${seed}/key`)),
        },
      } as unknown as KubeObject;
      try {
        client.call({ verb: 'create', group: '', resource: 'secrets', namespace }, (api) => api.create(secret, { fieldManager: 'kube-webhook-certgen' }));
      } catch (e) {
        if (e instanceof ApiError) fatal('failed creating secret', 'k8s/k8s.go:254', e.message);
        throw e;
      }
      env.trace('kube-webhook-certgen', `created Secret ${namespace}/${secretName} (webhook CA and serving certificate)`, { kind: 'Secret', namespace, name: secretName }, 'Normal');
      return 0;
    }
    const ca = caFromSecret();
    if (ca === undefined) fatal(`no secret with '${secretName}' in '${namespace}'`, 'cmd/patch.go:63');
    log('info', `patching webhook configurations '${webhookName}' mutating=${patchMutating}, validating=${patchValidating}, failurePolicy=${failurePolicy}`, 'k8s/k8s.go:118');
    const patchOne = (resource: string): void => {
      let hook: KubeObject;
      try {
        hook = client.call(
          {
            verb: 'get',
            group: 'admissionregistration.k8s.io',
            resource,
            name: webhookName,
          },
          (api) => api.get(resource, undefined, webhookName),
        );
      } catch (e) {
        if (e instanceof ApiError) fatal(resource.startsWith('validating') ? 'failed getting validating webhook' : 'failed getting mutating webhook', 'k8s/k8s.go:129', e.message);
        throw e;
      }
      const webhooks = ((hook as KubeObject & { webhooks?: Record<string, unknown>[] }).webhooks ?? []).map((w) => ({
        ...w,
        clientConfig: {
          ...((w.clientConfig as Record<string, unknown> | undefined) ?? {}),
          caBundle: ca,
        },
        ...(failurePolicy ? { failurePolicy } : {}),
      }));
      try {
        client.call(
          {
            verb: 'update',
            group: 'admissionregistration.k8s.io',
            resource,
            name: webhookName,
          },
          (api) =>
            api.update({ ...hook, webhooks } as KubeObject, {
              fieldManager: 'kube-webhook-certgen',
            }),
        );
      } catch (e) {
        if (e instanceof ApiError) fatal(resource.startsWith('validating') ? 'failed patching validating webhook' : 'failed patching mutating webhook', 'k8s/k8s.go:145', e.message);
        throw e;
      }
    };
    if (patchValidating) patchOne('validatingwebhookconfigurations');
    if (patchMutating) patchOne('mutatingwebhookconfigurations');
    log('info', 'Patched hook(s)', 'k8s/k8s.go:138');
    env.trace(
      'kube-webhook-certgen',
      `patched ValidatingWebhookConfiguration ${webhookName}: caBundle from Secret ${namespace}/${secretName}`,
      { kind: 'ValidatingWebhookConfiguration', name: webhookName },
      'Normal',
    );
    return 0;
  };

  let alive = false;
  return {
    start(ctx) {
      alive = true;
      ctx.setMemory(10 * MiB);
      timers.after(CERTGEN_RUN_MS, () => {
        let code: number;
        try {
          code = run();
        } catch (e) {
          if (!(e instanceof Fatal)) throw e;
          code = 1;
          env.trace('kube-webhook-certgen', `${spec.pod.namespace}/${spec.pod.name}: ${e.message} (exit 1)`, podRef, 'Warning');
        }
        ctx.exit(code);
      });
    },
    stop() {
      if (!alive) return;
      alive = false;
      timers.cancelAll();
    },
    listening: () => false,
    ready: () => alive,
  };
}

// ------------------------------------------------------------------------------ ingress-nginx

/** The annotation older Ingresses name their class with. Source: k8s.io/api networking/v1 (`kubernetes.io/ingress.class`, deprecated). */
const ANN_INGRESS_CLASS = 'kubernetes.io/ingress.class';

type LbIngress = { ip?: string; hostname?: string };

/** `statusAddressFromService` of internal/ingress/status/status.go. Errors: the Get's ApiError; Error for an unknown type. */
function statusAddressFromService(svc: KubeObject): LbIngress[] {
  const type: string = svc.spec?.type ?? 'ClusterIP';
  const externalIPs = (svc.spec?.externalIPs ?? []) as string[];
  switch (type) {
    case 'ExternalName':
      return [{ hostname: svc.spec?.externalName }];
    case 'ClusterIP':
      return [{ ip: svc.spec?.clusterIP }];
    case 'NodePort':
      return externalIPs.length === 0 ? [{ ip: svc.spec?.clusterIP }] : externalIPs.map((ip) => ({ ip }));
    case 'LoadBalancer': {
      const out: LbIngress[] = ((svc.status?.loadBalancer?.ingress ?? []) as LbIngress[]).map((i) => (i.ip ? { ip: i.ip } : { hostname: i.hostname }));
      for (const ip of externalIPs) if (!out.some((a) => a.ip === ip || a.hostname === ip)) out.push({ ip });
      return out;
    }
  }
  throw new Error(`unable to extract IP address/es from service ${svc.metadata.namespace}/${svc.metadata.name}`);
}

const lbLess = (a: LbIngress, b: LbIngress): number => (a.hostname ?? '').localeCompare(b.hostname ?? '') || (a.ip ?? '').localeCompare(b.ip ?? '');
const lbEqual = (a: LbIngress[], b: LbIngress[]): boolean => a.length === b.length && a.every((x, i) => (x.ip ?? '') === (b[i].ip ?? '') && (x.hostname ?? '') === (b[i].hostname ?? ''));

/**
 * The ingress-nginx controller's control loop, added to the data model's process.
 * See the file comment. Flags read: `--ingress-class`, `--controller-class`, `--election-id`,
 * `--publish-service` (with `$(POD_NAMESPACE)` expanded).
 */
export function ingressNginxProgram(env: ComponentEnv, spec: ContainerRunSpec, services: ContainerServices, inner: ContainerProgram): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const ns = spec.pod.namespace;
  const ingressClass = flagValue(spec, 'ingress-class') ?? 'nginx';
  const controllerClass = flagValue(spec, 'controller-class') ?? 'k8s.io/ingress-nginx';
  const electionId = flagValue(spec, 'election-id') ?? 'ingress-controller-leader';
  const publishService = flagValue(spec, 'publish-service');
  const timers = new Timers(env.clock, `ingress-nginx[${spec.pod.name}]`);
  const client = new PodClient(env, spec);
  const component = 'ingress-nginx';
  const podRef = { kind: 'Pod', namespace: ns, name: spec.pod.name };
  let factory: SharedInformerFactory | undefined;
  let elector: LeaderElector | undefined;
  let recorder: EventRecorder | undefined;
  let ingresses: Informer | undefined;
  let classes: Informer | undefined;
  let leading = false;
  let lastSyncAt = -Infinity;
  let syncPending = false;
  let lastConfig = '[]';

  const now = (): number => env.clock.epochMs + env.clock.now();
  const klog = (sev: 'I' | 'W' | 'E', file: string, msg: string, kv: Record<string, unknown> = {}): void => services.log('stderr', klogLine(sev, now(), 1, file, msg, kv));
  /** An unstructured klog line (`klog.Infof`): the text is not quoted. */
  const klogf = (sev: 'I' | 'W' | 'E', file: string, text: string): void => services.log('stderr', klogLine(sev, now(), 1, file, '').slice(0, -2) + text);
  const eventLine = (o: KubeObject, type: string, reason: string, message: string): void => {
    const m = o.metadata;
    klogf(
      'I',
      'event.go:377',
      `Event(v1.ObjectReference{Kind:"${o.kind}", Namespace:"${m.namespace ?? ''}", Name:"${m.name}", UID:"${m.uid ?? ''}", APIVersion:"${o.apiVersion}", ResourceVersion:"${m.resourceVersion ?? ''}", FieldPath:""}): type: '${type}' reason: '${reason}' ${message}`,
    );
    recorder?.event(o, type as 'Normal' | 'Warning', reason, message);
  };

  /** Why an Ingress is not ours (undefined: it is). Mirrors store.go's ingress class checks. */
  const classError = (ing: KubeObject): string | undefined => {
    const byName: string | undefined = ing.spec?.ingressClassName;
    if (byName) {
      const cls = classes?.lister.get(undefined, byName);
      if (!cls) return `no object matching key "${byName}" in local store`;
      if (cls.spec?.controller !== controllerClass) return `ingress class "${byName}" is not handled by ${controllerClass}`;
      return undefined;
    }
    const ann = ing.metadata.annotations?.[ANN_INGRESS_CLASS];
    if (ann !== undefined) return ann === ingressClass ? undefined : `annotation ${ANN_INGRESS_CLASS} is "${ann}", not "${ingressClass}"`;
    return 'ingress does not contain a valid IngressClass';
  };

  const valid = (): KubeObject[] => (ingresses?.lister.list() ?? []).filter((i) => !i.metadata.deletionTimestamp && classError(i) === undefined);

  /** `syncIngress`: render the configuration; reload nginx when it changed. */
  const sync = (): void => {
    syncPending = false;
    lastSyncAt = env.clock.now();
    const config = JSON.stringify(valid().map((i) => [i.metadata.namespace, i.metadata.name, i.spec]));
    if (config === lastConfig) return;
    lastConfig = config;
    klog('I', 'controller.go:193', 'Configuration changes detected, backend reload required');
    timers.after(INGRESS_RELOAD_MS, () => {
      klog('I', 'controller.go:213', 'Backend successfully reloaded');
      const pod = (() => {
        try {
          return client.api.tryGet('pods', ns, spec.pod.name);
        } catch {
          return undefined;
        }
      })();
      if (pod) eventLine(pod, 'Normal', 'RELOAD', 'NGINX reload triggered due to a change in configuration');
      env.trace(component, `${ns}/${spec.pod.name}: nginx reloaded (${valid().length} Ingress(es) of class ${ingressClass})`, podRef, 'Normal');
    });
  };
  const requestSync = (): void => {
    if (syncPending) return;
    syncPending = true;
    timers.after(Math.max(0, lastSyncAt + INGRESS_SYNC_MIN_INTERVAL_MS - env.clock.now()), sync);
  };

  /** The status syncer (leader only): addresses of the published Service onto every valid Ingress. */
  const syncStatus = (): void => {
    if (!leading) return;
    let addrs: LbIngress[] = [];
    try {
      if (publishService) {
        const [sns, sname] = publishService.includes('/') ? publishService.split('/', 2) : [ns, publishService];
        const svc = client.call(
          {
            verb: 'get',
            group: '',
            resource: 'services',
            namespace: sns,
            name: sname,
          },
          (api) => api.get('services', sns, sname),
        );
        addrs = statusAddressFromService(svc);
      } else {
        addrs = [{ ip: spec.pod.hostIP }];
      }
    } catch (e) {
      if (e instanceof ApiError)
        klog('E', 'queue.go:131', 'requeuing', {
          err: e.message,
          key: 'sync status',
        });
      else
        klog('E', 'queue.go:131', 'requeuing', {
          err: (e as Error).message,
          key: 'sync status',
        });
      return;
    }
    addrs = addrs.slice().sort(lbLess);
    for (const ing of valid()) {
      const cur = ((ing.status?.loadBalancer?.ingress ?? []) as LbIngress[]).slice().sort(lbLess);
      if (lbEqual(cur, addrs)) continue;
      const ins = ing.metadata.namespace!;
      const name = ing.metadata.name!;
      try {
        const live = client.call(
          {
            verb: 'get',
            group: 'networking.k8s.io',
            resource: 'ingresses',
            namespace: ins,
            name,
          },
          (api) => api.get('ingresses', ins, name),
        );
        klog('I', 'status.go:304', 'updating Ingress status', {
          namespace: ins,
          ingress: name,
          currentValue: cur.length ? cur : null,
          newValue: addrs.length ? addrs : null,
        });
        client.call(
          {
            verb: 'update',
            group: 'networking.k8s.io',
            resource: 'ingresses',
            subresource: 'status',
            namespace: ins,
            name,
          },
          (api) =>
            api.updateStatus(
              {
                ...live,
                status: {
                  ...(live.status ?? {}),
                  loadBalancer: addrs.length ? { ingress: addrs } : {},
                },
              } as KubeObject,
              { fieldManager: 'nginx-ingress-controller' },
            ),
        );
        env.trace(component, `Ingress ${ins}/${name}: status.loadBalancer = ${addrs.map((a) => a.ip ?? a.hostname).join(',') || '(none)'}`, { kind: 'Ingress', namespace: ins, name }, 'Normal');
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        klog('W', 'status.go:320', `error updating ingress rule: ${e.message}`);
      }
    }
  };
  let statusGen = 0;
  const statusLoop = (gen = ++statusGen): void => {
    if (!leading || gen !== statusGen) return;
    syncStatus();
    timers.after(INGRESS_STATUS_UPDATE_INTERVAL_MS, () => statusLoop(gen));
  };

  const key = (ing: KubeObject): string => `${ing.metadata.namespace}/${ing.metadata.name}`;
  const ingRef = (ing: KubeObject) => ({ kind: 'Ingress', namespace: ing.metadata.namespace, name: ing.metadata.name! });
  const scheduled = (ing: KubeObject): void => {
    eventLine(ing, 'Normal', 'Sync', 'Scheduled for sync');
    env.trace(component, `Ingress ${key(ing)}: Scheduled for sync (class ${ingressClass})`, ingRef(ing), 'Normal');
  };

  /** store.go's AddFunc: an Ingress of our class is announced and scheduled; others are ignored, with the reason. */
  const onIngressAdd = (ing: KubeObject): void => {
    const err = classError(ing);
    if (err !== undefined) {
      klog('I', 'store.go:432', 'Ignoring ingress because of error while validating ingress class', { ingress: key(ing), error: err });
      return;
    }
    klog('I', 'store.go:440', 'Found valid IngressClass', { ingress: key(ing), ingressclass: ing.spec?.ingressClassName ?? ingressClass });
    scheduled(ing);
    requestSync();
  };

  /** store.go's UpdateFunc: becoming ours, ceasing to be ours, or any change to one of ours (its status too) schedules a sync. */
  const onIngressUpdate = (old: KubeObject, cur: KubeObject): void => {
    const validOld = classError(old) === undefined;
    const validCur = classError(cur) === undefined;
    if (!validOld && validCur) {
      klog('I', 'store.go:477', 'creating ingress', { ingress: key(cur), ingressclass: cur.spec?.ingressClassName ?? ingressClass });
      scheduled(cur);
    } else if (validOld && !validCur) {
      klog('I', 'store.go:484', 'removing ingress', { ingress: key(cur) });
    } else if (validCur && old.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      scheduled(cur);
    } else return;
    requestSync();
  };

  /** Leader election on Lease `<ns>/<--election-id>`; losing it stops the status sync and campaigns again. */
  const startElection = (): void => {
    const lease = `${ns}/${electionId}`;
    klogf('I', 'leaderelection.go:257', `attempting to acquire leader lease ${lease}...`);
    elector = new LeaderElector({
      api: client.api,
      clock: env.clock,
      namespace: ns,
      name: electionId,
      identity: spec.pod.name,
      leaseDurationMs: INGRESS_LEASE_DURATION_MS,
      renewDeadlineMs: INGRESS_LEASE_DURATION_MS / 2,
      retryPeriodMs: INGRESS_LEASE_DURATION_MS / 4,
      onStartedLeading: () => {
        leading = true;
        klogf('I', 'leaderelection.go:271', `successfully acquired lease ${lease}`);
        klog('I', 'status.go:85', 'New leader elected', {
          identity: spec.pod.name,
        });
        env.trace(component, `${spec.pod.name} leads (Lease ${lease}): syncs Ingress status every ${INGRESS_STATUS_UPDATE_INTERVAL_MS / 1000} s`, podRef);
        statusLoop(++statusGen);
      },
      onStoppedLeading: () => {
        leading = false;
        klogf('I', 'leaderelection.go:297', `failed to renew lease ${lease}: context deadline exceeded`);
        elector?.stop();
        timers.after(INGRESS_LEASE_DURATION_MS / 4, startElection);
      },
    });
    elector.start();
  };

  return withSidecar(inner, {
    start() {
      timers.after(INGRESS_CONTROLLER_START_MS, () => {
        const api = client.api;
        factory = new SharedInformerFactory({
          api,
          clock: env.clock,
          rng: env.rng,
          name: `ingress-nginx[${spec.pod.name}]`,
        });
        recorder = new EventRecorder({
          api,
          clock: env.clock,
          rng: env.rng,
          component: 'nginx-ingress-controller',
          sink: env.eventSink,
        });
        // store.go Informer.Run: the other caches (IngressClasses here) first; once synced, one
        // more second ("deltas can keep arriving even after HasSynced"), then the Ingress informer,
        // whose add events need those caches.
        classes = factory.informer('ingressclasses');
        classes.addEventHandler({
          onAdd: () => requestSync(),
          onUpdate: () => requestSync(),
          onDelete: () => requestSync(),
        });
        factory.start();
        const startIngresses = (): void => {
          if (!classes?.hasSynced()) {
            timers.after(INFORMER_SYNC_POLL_MS, startIngresses);
            return;
          }
          timers.after(INGRESS_INFORMER_DELAY_MS, () => {
            ingresses = factory!.informer('ingresses');
            ingresses.addEventHandler({
              onAdd: onIngressAdd,
              onUpdate: onIngressUpdate,
              onDelete: () => requestSync(),
            });
            factory!.start();
          });
        };
        startIngresses();
        startElection();
      });
    },
    stop() {
      leading = false;
      timers.cancelAll();
      elector?.stop();
      factory?.stop();
      recorder?.stop();
    },
  });
}

// ------------------------------------------------------------------------------ registration

/**
 * Register the layer-4 programs on `registry`: the shelf-controller (image family
 * `bookshop-controller` running `sh <script>`), kube-webhook-certgen, and the ingress-nginx
 * controller (`/nginx-ingress-controller`). Checked before the built-in data models.
 */
export function registerAppControllerPrograms(registry: ProgramRegistry, env: ComponentEnv): void {
  const models = new ProgramRegistry();
  const reg = (name: string, match: (spec: ContainerRunSpec) => boolean, f: ProgramFactory) => registry.registerProgramFactory((_i, _c, _a, spec) => match(spec), f, name);
  reg(
    'shelf-controller',
    (spec) =>
      spec.image.family === 'bookshop-controller' &&
      ['sh', 'ash'].includes(base(spec.argv[0])) &&
      spec.argv.length >= 2 &&
      !spec.argv[1].startsWith('-') &&
      isShelfLoop(readFromMounts(spec, spec.argv[1])),
    (spec, services) => shelfControllerProgram(env, spec, services),
  );
  reg(
    'kube-webhook-certgen',
    (spec) => spec.image.family === 'kube-webhook-certgen' && (spec.argv.includes('create') || spec.argv.includes('patch')),
    (spec, services) => certgenProgram(env, spec, services),
  );
  reg(
    'ingress-nginx-controller',
    (spec) => spec.image.family === 'ingress-nginx' && spec.argv.some((a) => base(a) === 'nginx-ingress-controller'),
    (spec, services) => ingressNginxProgram(env, spec, services, models.create(spec, services)),
  );
}
