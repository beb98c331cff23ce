/**
 * `kind create cluster` after the node containers have started, and the bookshop's `make up`,
 * as processes and steps on the virtual clock:
 *
 * 1. **kubeadm init** (a process on the control-plane node, `kubeadm init --config=/kind/kubeadm.conf
 *    --skip-token-print --v=6`): the static pod manifests are already on disk, so the kubelet runs
 *    etcd and kube-apiserver; kubeadm waits for kube-apiserver (`[control-plane-check]`, polling
 *    every 500 ms), then `upload-config` (kubeadm-config, kubelet-config), `mark-control-plane`
 *    (once the kubelet has registered the Node: the `node-role.kubernetes.io/control-plane` and
 *    `node.kubernetes.io/exclude-from-external-load-balancers` labels and the
 *    `node-role.kubernetes.io/control-plane:NoSchedule` taint, patched through the API),
 *    `bootstrap-token` (token Secret, cluster-info, RBAC) and `addon` (CoreDNS, kube-proxy), and
 *    exits 0. Every API call is retried every 500 ms while it fails, as kubeadm's apiclient does.
 * 2. **Installing CNI**: kind reads /kind/manifests/default-cni.yaml from the node, fills in the
 *    pod subnet, adds CONTROL_PLANE_ENDPOINT, and `kubectl create -f -` on the control plane.
 * 3. **Installing StorageClass**: `kubectl apply -f /kind/manifests/default-storage.yaml`.
 * 4. **Joining worker nodes**: a `kubeadm join` process on each worker: discovery (cluster-info),
 *    kubelet-start (writes /var/lib/kubelet/config.yaml from the kubelet-config ConfigMap,
 *    kubeadm-flags.env and kubelet.conf, then `systemctl restart kubelet`), and waits for its Node.
 *    Until then kubelet.service is skipped at boot (`ConditionPathExists=/var/lib/kubelet/config.yaml`).
 * 5. **make up** (unless bare): `kind load docker-image` of bookshop:v1, bookshop:v2 and the
 *    shelf-controller image onto every node, `kubectl create namespace bookshop --dry-run=client
 *    -o yaml | kubectl apply -f -`, the Secret the same way, then `kubectl apply -k
 *    manifests/bookshop` (kustomize built by src/shell/kustomize.ts).
 *
 * None of this writes cluster state directly: every object goes through kube-apiserver, and
 * every pod is scheduled by kube-scheduler and run by a kubelet.
 *
 * Units: virtual ms.
 */
import type { Clock } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { parseManifests } from '../api/yaml';
import { applyJsonPatch } from '../api/patch';
import type { Program, ProcessContext } from '../node/process';
import type { TraceFn } from '../trace';
import { kustomizeBuild, mapFs } from '../../shell/kustomize';
import type { ClusterNode } from './node';
import { corednsAddon, kubeadmClusterAdminsBinding, kubeadmInitObjects, kubeProxyAddon, type ManifestParams } from './manifests';
import { BOOKSHOP_FILES, BOOKSHOP_IMAGES, BOOKSHOP_KUSTOMIZATION_DIR, BOOKSHOP_NAMESPACE, BOOKSHOP_SECRET_LITERALS, SHELF_CONTROLLER_IMAGE } from './bookshop';
import { base64 } from '../node/fs';

/** kubeadm's API polling and retry interval (apiclient `APICallRetryInterval` = 500 ms). Source: cmd/kubeadm/app/constants/constants.go. */
export const KUBEADM_RETRY_MS = 500;
/** Time between kubeadm init phases once the API answers (writing files, generating tokens). Source: observed `kubeadm init --v=6` timings. */
export const KUBEADM_PHASE_MS = 200;
/** kubeadm join discovery retry (`discovery` retries cluster-info every 5 s; in practice it answers at once). */
export const KUBEADM_DISCOVERY_RETRY_MS = 1_000;
/** kind's own work between actions (docker exec round trips, reading manifests). Source: observed `kind create cluster` logs. */
export const KIND_ACTION_MS = 300;
/** `kind load docker-image`: per image and node (`docker save | ctr images import`). Source: observed, ~1-2 s for a 15 MB image. */
export const KIND_LOAD_MS_PER_IMAGE = 1_200;

/** Boot milestones (virtual ms when reached). */
export interface BootMilestones {
  /** kube-apiserver first answered kubeadm. */
  apiServerUp?: number;
  /** `kubeadm init` exited 0. */
  kubeadmInit?: number;
  cniInstalled?: number;
  storageInstalled?: number;
  /** Every worker's `kubeadm join` exited 0 (`kind create cluster` is done). */
  clusterCreated?: number;
  /** `kind load docker-image` done on every node. */
  imagesLoaded?: number;
  /** `kubectl apply -k manifests/bookshop` done. */
  bookshopApplied?: number;
}

/** What the boot steps need from the cluster. */
export interface BootContext {
  clock: Clock;
  trace: TraceFn;
  params: ManifestParams;
  controlPlane: ClusterNode;
  workers: ClusterNode[];
  /** kube-apiserver as a process on `node` reaches it. */
  apiFor(node: string): ApiServer;
  /** kube-apiserver as the host's kubectl reaches it. */
  hostApi: ApiServer;
  /** Skip `make up`. */
  bare: boolean;
  /** kind `networking.disableDefaultCNI`: no kindnet (nodes stay NotReady until a CNI is installed). */
  disableDefaultCNI: boolean;
  /** kind `networking.kubeProxyMode: none`: kubeadm skips the kube-proxy addon (`--skip-phases=addon/kube-proxy`). */
  skipKubeProxy: boolean;
  milestones: BootMilestones;
  /** Files written back on a worker by `kubeadm join` (what kindNodeFilesystem had put there). */
  joinFiles: Map<string, Map<string, string>>;
}

/** Is `e` an API failure a client retries (anything the server or the network answered)? */
function isApiFailure(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Objects of a multi-document YAML text (errors are engine bugs: the texts are ours). */
export function objectsOf(yaml: string, source: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const d of parseManifests(yaml, source)) {
    if (d.error) throw new Error(`${source}: ${d.error}`);
    if (d.object) out.push(d.object);
  }
  return out;
}

/** kubeadm's CreateOrUpdate: create, or replace the live object's content (keeping its resourceVersion). */
export function createOrUpdate(api: ApiServer, obj: KubeObject, fieldManager: string): void {
  try {
    api.create(obj, { fieldManager });
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 409) throw e;
    const t = api.typeOfObject(obj);
    const cur = api.get(t, obj.metadata.namespace, obj.metadata.name!);
    api.update({ ...obj, metadata: { ...cur.metadata, labels: obj.metadata.labels, annotations: obj.metadata.annotations } } as KubeObject, { fieldManager });
  }
}

/** How kubectl names an object in its output: `deployment.apps/catalog`, `service/web`. */
export function printName(o: KubeObject): string {
  const slash = o.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : o.apiVersion.slice(0, slash);
  return `${o.kind.toLowerCase()}${group ? `.${group}` : ''}/${o.metadata.name}`;
}

/**
 * A step runner: each step is retried every `retryMs` while it returns false or throws an
 * ApiError, and the next starts `gapMs` after it succeeded. Stops when `alive()` turns false.
 */
function runSteps(clock: Clock, label: string, steps: { name: string; run: () => boolean | void }[], o: { retryMs: number; gapMs: number; alive: () => boolean; onError?: (step: string, e: ApiError) => void; done: () => void }): void {
  let i = 0;
  const next = (): void => {
    if (!o.alive()) return;
    if (i >= steps.length) {
      o.done();
      return;
    }
    const step = steps[i];
    let ok = false;
    try {
      ok = step.run() !== false;
    } catch (e) {
      if (!isApiFailure(e)) throw e;
      o.onError?.(step.name, e);
    }
    if (ok) {
      i++;
      clock.schedule(i < steps.length ? o.gapMs : 0, next, { label: `${label}: ${steps[i]?.name ?? 'done'}` });
    } else {
      clock.schedule(o.retryMs, next, { label: `${label}: retry ${step.name}` });
    }
  };
  clock.schedule(0, next, { label: `${label}: ${steps[0]?.name ?? 'done'}` });
}

/** The `kubeadm init` process on the control-plane node. */
function kubeadmInitProgram(b: BootContext, onDone: () => void): Program {
  const api = b.apiFor(b.controlPlane.name);
  const cpName = b.controlPlane.name;
  let alive = true;
  let ctxRef: ProcessContext | undefined;
  const started = b.clock.now();
  const say = (line: string) => ctxRef?.log(line);
  return {
    start(ctx) {
      ctxRef = ctx;
      ctx.setMemory(60 * 1024 * 1024);
      say(`[init] Using Kubernetes version: ${b.params.version}`);
      say('[wait-control-plane] Waiting for the kubelet to boot up the control plane as static Pods from directory "/etc/kubernetes/manifests"');
      runSteps(
        b.clock,
        'kubeadm init',
        [
          {
            name: 'control-plane-check',
            run: () => {
              api.get('namespaces', undefined, 'kube-system');
              b.milestones.apiServerUp ??= b.clock.now();
              say(`[control-plane-check] kube-apiserver is healthy after ${((b.clock.now() - started) / 1000).toFixed(3)}s`);
              b.trace('kubeadm', `init: kube-apiserver is healthy after ${((b.clock.now() - started) / 1000).toFixed(1)}s`);
              // initData.Client() -> EnsureAdminClusterRoleBinding: the first client kubeadm builds
              // from admin.conf binds its group to cluster-admin (no output line of its own).
              for (const o of objectsOf(kubeadmClusterAdminsBinding(), 'kubeadm')) createOrUpdate(api, o, 'kubeadm');
            },
          },
          {
            name: 'upload-config',
            run: () => {
              const objs = objectsOf(kubeadmInitObjects(b.params), 'kubeadm');
              for (const o of objs.filter((x) => x.metadata.namespace === 'kube-system' && x.kind !== 'Secret')) createOrUpdate(api, o, 'kubeadm');
              say('[upload-config] Storing the configuration used in ConfigMap "kubeadm-config" in the "kube-system" Namespace');
              say('[kubelet] Creating a ConfigMap "kubelet-config" in namespace kube-system with the configuration for the kubelets in the cluster');
            },
          },
          {
            name: 'mark-control-plane',
            run: () => {
              const node = api.tryGet('nodes', undefined, cpName);
              if (!node) return false; // the kubelet has not registered it yet
              const labels = { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' };
              const taints = ((node.spec?.taints ?? []) as { key: string; effect: string }[]).filter((t) => t.key !== 'node-role.kubernetes.io/control-plane');
              api.patch('nodes', undefined, cpName, 'strategic', { metadata: { labels }, spec: { taints: [...taints, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } }, { fieldManager: 'kubeadm' });
              say(`[mark-control-plane] Marking the node ${cpName} as control-plane by adding the labels: [node-role.kubernetes.io/control-plane node.kubernetes.io/exclude-from-external-load-balancers]`);
              say(`[mark-control-plane] Marking the node ${cpName} as control-plane by adding the taints [node-role.kubernetes.io/control-plane:NoSchedule]`);
              b.trace('kubeadm', `mark-control-plane: labelled and tainted ${cpName} (node-role.kubernetes.io/control-plane:NoSchedule)`, { kind: 'Node', name: cpName });
            },
          },
          {
            name: 'bootstrap-token',
            run: () => {
              const objs = objectsOf(kubeadmInitObjects(b.params), 'kubeadm');
              for (const o of objs.filter((x) => !(x.metadata.namespace === 'kube-system' && x.kind !== 'Secret'))) createOrUpdate(api, o, 'kubeadm');
              say('[bootstrap-token] Using token: abcdef.0123456789abcdef');
              say('[bootstrap-token] Creating the "cluster-info" ConfigMap in the "kube-public" namespace');
            },
          },
          {
            name: 'addon',
            run: () => {
              for (const o of objectsOf(corednsAddon(b.params), 'coredns')) createOrUpdate(api, o, 'kubeadm');
              say('[addons] Applied essential addon: CoreDNS');
              if (!b.skipKubeProxy) {
                for (const o of objectsOf(kubeProxyAddon(b.params), 'kube-proxy')) createOrUpdate(api, o, 'kubeadm');
                say('[addons] Applied essential addon: kube-proxy');
              }
              b.trace('kubeadm', `addons: applied CoreDNS${b.skipKubeProxy ? '' : ' and kube-proxy'}`);
            },
          },
        ],
        {
          retryMs: KUBEADM_RETRY_MS,
          gapMs: KUBEADM_PHASE_MS,
          alive: () => alive,
          done: () => {
            say('Your Kubernetes control-plane has initialized successfully!');
            b.milestones.kubeadmInit = b.clock.now();
            b.trace('kubeadm', `init: control plane initialized (${(b.clock.now() / 1000).toFixed(1)}s after boot)`);
            ctx.exit(0);
            onDone();
          },
        },
      );
    },
    stop() {
      alive = false;
    },
  };
}

/** The `kubeadm join` process on a worker. */
function kubeadmJoinProgram(b: BootContext, node: ClusterNode, onDone: () => void): Program {
  const api = b.apiFor(node.name);
  let alive = true;
  return {
    start(ctx) {
      ctx.setMemory(45 * 1024 * 1024);
      const say = (line: string) => ctx.log(line);
      say('[preflight] Running pre-flight checks');
      runSteps(
        b.clock,
        `kubeadm join ${node.name}`,
        [
          {
            name: 'discovery',
            run: () => {
              api.get('configmaps', 'kube-public', 'cluster-info');
              say('[preflight] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...');
            },
          },
          {
            name: 'kubelet-start',
            run: () => {
              const cm = api.get('configmaps', 'kube-system', 'kubelet-config');
              const files = b.joinFiles.get(node.name) ?? new Map<string, string>();
              node.fs.writeFile('/var/lib/kubelet/config.yaml', String((cm as KubeObject & { data?: Record<string, string> }).data?.kubelet ?? files.get('/var/lib/kubelet/config.yaml') ?? ''));
              say('[kubelet-start] Writing kubelet configuration to file "/var/lib/kubelet/config.yaml"');
              const flags = files.get('/var/lib/kubelet/kubeadm-flags.env');
              if (flags !== undefined) node.fs.writeFile('/var/lib/kubelet/kubeadm-flags.env', flags);
              say('[kubelet-start] Writing kubelet environment file with flags to file "/var/lib/kubelet/kubeadm-flags.env"');
              const conf = files.get('/etc/kubernetes/kubelet.conf');
              if (conf !== undefined) node.fs.writeFile('/etc/kubernetes/kubelet.conf', conf, { mode: 0o600 });
              say('[kubelet-start] Starting the kubelet');
              node.machine.systemctl(['restart', 'kubelet']);
              b.trace('kubeadm', `join ${node.name}: wrote the kubelet configuration, started kubelet.service`, { kind: 'Node', name: node.name });
            },
          },
          {
            name: 'kubelet-check',
            run: () => !!api.tryGet('nodes', undefined, node.name),
          },
        ],
        {
          retryMs: KUBEADM_DISCOVERY_RETRY_MS,
          gapMs: KUBEADM_PHASE_MS,
          alive: () => alive,
          done: () => {
            say('This node has joined the cluster:');
            say('* Certificate signing request was sent to apiserver and a response was received.');
            say('* The Kubelet was informed of the new secure connection details.');
            b.trace('kubeadm', `join ${node.name}: this node has joined the cluster`, { kind: 'Node', name: node.name });
            ctx.exit(0);
            onDone();
          },
        },
      );
    },
    stop() {
      alive = false;
    },
  };
}

/** Spawn a one-shot command on a node (a `docker exec` session: no parent inside the node). */
function execOnNode(node: ClusterNode, command: string, args: string[], program: Program): void {
  node.machine.processes.spawn({ command, args, ppid: 0, program });
}

/** kind's installcni: render and patch the node image's manifest, then `kubectl create -f -`. */
function installCni(b: BootContext): boolean | void {
  const api = b.apiFor(b.controlPlane.name);
  let manifest = b.controlPlane.fs.readFile('/kind/manifests/default-cni.yaml');
  if (manifest.includes('would you kindly template this file')) manifest = manifest.replace(/\{\{\s*\.PodSubnet\s*\}\}/g, b.params.podSubnet);
  let objs = objectsOf(manifest, '/kind/manifests/default-cni.yaml');
  if (manifest.includes('would you kindly patch this file')) {
    objs = objs.map((o) =>
      o.kind === 'DaemonSet'
        ? (applyJsonPatch(o, [{ op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'CONTROL_PLANE_ENDPOINT', value: `${b.params.clusterName}-control-plane:6443` } }]) as KubeObject)
        : o,
    );
  }
  for (const o of objs) {
    try {
      api.create(o, { fieldManager: 'kubectl-create' });
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 409) throw e;
    }
  }
}

/** kind's installstorage: `kubectl apply -f /kind/manifests/default-storage.yaml` on the control plane. */
function installStorage(b: BootContext): void {
  const api = b.apiFor(b.controlPlane.name);
  for (const o of objectsOf(b.controlPlane.fs.readFile('/kind/manifests/default-storage.yaml'), '/kind/manifests/default-storage.yaml')) api.apply(o);
}

/**
 * `kind load docker-image IMAGE... --name CLUSTER [--nodes a,b]`: copy locally built images into
 * the nodes' containerd. Returns kind's output lines; unknown images fail before anything is loaded.
 * Errors: throws Error with kind's message (`ERROR: image: "x" not present locally`), or for a
 * node that is not running (`ERROR: ... failed to load image: command "docker exec --privileged -i
 * <node> ctr ..." failed with error: exit status 1`).
 */
export function kindLoad(nodes: ClusterNode[], images: string[]): string[] {
  const lines: string[] = [];
  for (const node of nodes) {
    if (!node.machine.running || !node.containerd.running) {
      throw new Error(`ERROR: failed to load image: command "docker exec --privileged -i ${node.name} ctr --namespace=k8s.io images import --all-platforms --digests --snapshotter=overlayfs -" failed with error: exit status 1`);
    }
  }
  for (const image of images) {
    for (const node of nodes) {
      const had = node.containerd.imageStatus(image);
      const info = node.containerd.loadImage(image);
      if (!had) lines.push(`Image: "${image}" with ID "${info.id}" not yet present on node "${node.name}", loading...`);
      else lines.push(`Image: "${image}" with ID "${info.id}" found to be already present on all nodes.`);
    }
  }
  return lines;
}

/**
 * `make deploy`'s commands against the host API: namespace and Secret as `kubectl create ...
 * --dry-run=client -o yaml | kubectl apply -f -`, then `kubectl apply -k manifests/bookshop`.
 * Returns kubectl's output lines. Errors: ApiError from the server, KustomizeError from the build.
 */
export function deployBookshop(api: ApiServer): string[] {
  const out: string[] = [];
  const ns = api.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: BOOKSHOP_NAMESPACE } });
  out.push(`namespace/${BOOKSHOP_NAMESPACE} ${ns.verb}`);
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(BOOKSHOP_SECRET_LITERALS)) data[k] = base64(v);
  const sec = api.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bookshop-secrets', namespace: BOOKSHOP_NAMESPACE }, data } as KubeObject);
  out.push(`secret/bookshop-secrets ${sec.verb}`);
  for (const o of kustomizeBuild(mapFs(BOOKSHOP_FILES), BOOKSHOP_KUSTOMIZATION_DIR)) {
    const r = api.apply(o);
    out.push(`${printName(o)} ${r.verb}`);
  }
  return out;
}

/**
 * Start the boot: kubeadm init on the control plane now; CNI, storage and joins after it; then
 * `make up` unless bare. Milestones are recorded in `b.milestones`.
 */
export function startBoot(b: BootContext): void {
  b.trace('kind', `Creating cluster "${b.params.clusterName}" ... Starting control-plane`, undefined, 'action');
  execOnNode(b.controlPlane, '/usr/bin/kubeadm', ['init', '--config=/kind/kubeadm.conf', '--skip-token-print', '--v=6'], kubeadmInitProgram(b, () => afterInit(b)));
}

function afterInit(b: BootContext): void {
  runSteps(
    b.clock,
    'kind',
    [
      {
        // kind's kubeadminit action: with no worker nodes, `kubectl taint nodes --all
        // node-role.kubernetes.io/control-plane-` so that workloads can run.
        name: 'untaint single node',
        run: () => {
          if (b.workers.length > 0) return;
          const api = b.apiFor(b.controlPlane.name);
          const node = api.get('nodes', undefined, b.controlPlane.name);
          const taints = ((node.spec?.taints ?? []) as { key: string }[]).filter((t) => t.key !== 'node-role.kubernetes.io/control-plane');
          api.patch('nodes', undefined, b.controlPlane.name, 'merge', { spec: { taints: taints.length ? taints : null } }, { fieldManager: 'kubectl-taint' });
          b.trace('kind', `single-node cluster: removed taint node-role.kubernetes.io/control-plane from ${b.controlPlane.name}`, { kind: 'Node', name: b.controlPlane.name }, 'action');
        },
      },
      {
        name: 'Installing CNI',
        run: () => {
          if (b.disableDefaultCNI) return;
          installCni(b);
          b.milestones.cniInstalled = b.clock.now();
          b.trace('kind', 'Installing CNI: kindnet DaemonSet created', undefined, 'action');
        },
      },
      {
        name: 'Installing StorageClass',
        run: () => {
          installStorage(b);
          b.milestones.storageInstalled = b.clock.now();
          b.trace('kind', 'Installing StorageClass: local-path-provisioner and StorageClass "standard" applied', undefined, 'action');
        },
      },
      {
        name: 'Joining worker nodes',
        run: () => {
          b.trace('kind', `Joining worker nodes: ${b.workers.map((w) => w.name).join(', ') || '(none)'}`, undefined, 'action');
          let left = b.workers.length;
          const joined = () => {
            left--;
            if (left === 0) clusterCreated(b);
          };
          if (left === 0) clusterCreated(b);
          for (const w of b.workers) {
            const token = 'abcdef.0123456789abcdef';
            execOnNode(w, '/usr/bin/kubeadm', ['join', `${b.params.clusterName}-control-plane:6443`, `--token=${token}`, '--discovery-token-unsafe-skip-ca-verification', '--skip-phases=preflight', '--v=6'], kubeadmJoinProgram(b, w, joined));
          }
        },
      },
    ],
    { retryMs: KUBEADM_RETRY_MS, gapMs: KIND_ACTION_MS, alive: () => true, done: () => undefined },
  );
}

function clusterCreated(b: BootContext): void {
  b.milestones.clusterCreated = b.clock.now();
  b.trace('kind', `Cluster "${b.params.clusterName}" created (${(b.clock.now() / 1000).toFixed(1)}s)`, undefined, 'action');
  if (b.bare) return;
  // make up: build (images exist on the host), load, deploy.
  const images = [...BOOKSHOP_IMAGES, SHELF_CONTROLLER_IMAGE];
  const nodes = [b.controlPlane, ...b.workers];
  const loadMs = KIND_LOAD_MS_PER_IMAGE * images.length;
  b.clock.schedule(
    loadMs,
    () => {
      for (const l of kindLoad(nodes, images)) b.trace('kind', l, undefined, 'action');
      b.milestones.imagesLoaded = b.clock.now();
      runSteps(
        b.clock,
        'make deploy',
        [
          {
            name: 'kubectl apply -k manifests/bookshop',
            run: () => {
              for (const l of deployBookshop(b.hostApi)) b.trace('kubectl', l, undefined, 'action');
              b.milestones.bookshopApplied = b.clock.now();
            },
          },
        ],
        { retryMs: 2_000, gapMs: 0, alive: () => true, done: () => undefined },
      );
    },
    { label: 'make load: kind load docker-image' },
  );
}
