/**
 * The cluster the worker hosts, behind one small interface: the virtual clock, the API server,
 * the trace, how to tell that it has booted, and the shell that runs lines against it.
 *
 * Two clusters:
 * - `booted` (the default): the kind cluster of src/engine/cluster.ts (`createCluster`):
 *   machines, systemd, containerd and kubelets, the control plane as static pods, then `make up`
 *   applying the bookshop. The host runs its boot fast (the same stop condition as
 *   `bootedCluster`: kube-system ready and the bookshop Available, checked every 250 ms of
 *   virtual time) while the UI draws it.
 * - `test` (`?cluster=test`): the test cluster of src/engine/testing/cluster.ts (API server,
 *   controller-manager, scheduler and KWOK-style fake kubelets on `cp-1`, `worker-1`,
 *   `worker-2`) with the bookshop applied the way `make up` applies it.
 */
import type { Clock } from '../engine/clock';
import type { ApiServer } from '../engine/api/server';
import type { Trace } from '../engine/trace';
import type { KubeObject } from '../engine/api/types';
import { parseManifests } from '../engine/api/yaml';
import { newTestCluster } from '../engine/testing/cluster';
import { createCluster } from '../engine/cluster';
import { buildSupervisionTree, type SupervisionTree } from '../engine/supervision';
import type { Shell } from '../shell/shell';

/** The shell factories (src/worker/shells.ts), loaded on demand. */
export type ShellModule = typeof import('./shells');

/** What the host drives. */
export interface HostCluster {
  kind: 'booted' | 'test';
  clock: Clock;
  api: ApiServer;
  trace: Trace;
  /** Virtual ms to run at once before the first snapshot. */
  warmupMs: number;
  /** The boot is over (the host runs the clock fast, in `bootStepMs` steps, until it holds). */
  booted?: () => boolean;
  bootStepMs?: number;
  /** Give up booting after this much virtual time. */
  bootTimeoutMs?: number;
  /** The supervision tree now (engine/supervision.ts); absent for a cluster without a node layer. */
  supervision?: () => SupervisionTree;
  /** The playground shell next to this cluster (undefined: the host's fallback runs lines). */
  shell?: (m: ShellModule) => Shell;
}

/** Which cluster to build. */
export type ClusterKind = HostCluster['kind'];

/** The bookshop's manifests, as `kubectl apply -k manifests/bookshop` reads them (file name -> YAML). */
export type ManifestFiles = Record<string, string>;

/** Namespace of the bookshop (kustomization.yaml `namespace:`). */
export const BOOKSHOP_NAMESPACE = 'bookshop';

/**
 * The Secret `make up` creates before applying (fixtures/k8s-bookshop/SOURCE.md: keys API_KEY,
 * PGPASSWORD). The values are placeholders; nothing in the playground reads them.
 */
const BOOKSHOP_SECRET: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'bookshop-secrets', namespace: BOOKSHOP_NAMESPACE },
  type: 'Opaque',
  stringData: { API_KEY: 'sk-live-abcd1234', PGPASSWORD: 's3cret' },
};

/** The resources of kustomization.yaml, in its order. */
const KUSTOMIZATION_ORDER = ['config.yaml', 'catalog.yaml', 'orders.yaml', 'web.yaml', 'postgres.yaml'];

/** The kustomization's `labels: [{pairs: {part-of: bookshop}, includeSelectors: false}]`: metadata labels only. */
function withKustomizeLabels(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, labels: { ...(obj.metadata.labels ?? {}), 'part-of': 'bookshop' } } };
}

/** Create the bookshop namespace, its Secret and default ServiceAccount, then apply the manifests. */
export function applyBookshop(api: ApiServer, files: ManifestFiles): void {
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: BOOKSHOP_NAMESPACE } });
  api.create(BOOKSHOP_SECRET);
  // The serviceaccount controller would create it a moment later; pods need it at admission.
  if (!api.tryGet('serviceaccounts', BOOKSHOP_NAMESPACE, 'default')) {
    api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: BOOKSHOP_NAMESPACE } });
  }
  const names = [...KUSTOMIZATION_ORDER.filter((n) => files[n] !== undefined), ...Object.keys(files).filter((n) => !KUSTOMIZATION_ORDER.includes(n) && n !== 'kustomization.yaml').sort()];
  for (const name of names) {
    for (const doc of parseManifests(files[name], name)) {
      if (doc.error) throw new Error(`${name}: ${doc.error}`);
      if (doc.object) api.apply(withKustomizeLabels(doc.object), { namespace: BOOKSHOP_NAMESPACE, fieldManager: 'kubectl-client-side-apply' });
    }
  }
}

/** The test cluster with the bookshop applied; its shell has `kubectl` only. */
export function newHostTestCluster(seed: number, files: ManifestFiles): HostCluster {
  const c = newTestCluster({ seed });
  applyBookshop(c.api, files);
  return {
    kind: 'test',
    clock: c.clock,
    api: c.api,
    trace: c.trace,
    warmupMs: 10_000,
    shell: (m) => m.testShell(c),
  };
}

/** The kind cluster `k8s-lab` (1 control plane, 2 workers), booting from virtual time 0. */
export function newHostBootedCluster(seed: number): HostCluster {
  const c = createCluster({ seed });
  return {
    kind: 'booted',
    clock: c.clock,
    api: c.api,
    trace: c.trace,
    warmupMs: 0,
    booted: () => c.kubeSystemReady() && c.bookshopAvailable(),
    bootStepMs: 250,
    bootTimeoutMs: 10 * 60_000,
    supervision: () => buildSupervisionTree(c),
    shell: (m) => m.kindShell(c),
  };
}
