/**
 * The Web Worker entry: owns the simulated cluster (src/worker/host.ts) and speaks the protocol of
 * src/protocol/messages.ts with the UI. Nothing else runs the engine in the browser.
 */
/// <reference lib="webworker" />
import { isToWorker, type FromWorker } from '../protocol/messages';
import { SimHost } from './host';
import { newHostBootedCluster, newHostTestCluster, type ManifestFiles } from './cluster';
import configYaml from '../../fixtures/k8s-bookshop/manifests/bookshop/config.yaml?raw';
import catalogYaml from '../../fixtures/k8s-bookshop/manifests/bookshop/catalog.yaml?raw';
import ordersYaml from '../../fixtures/k8s-bookshop/manifests/bookshop/orders.yaml?raw';
import webYaml from '../../fixtures/k8s-bookshop/manifests/bookshop/web.yaml?raw';
import postgresYaml from '../../fixtures/k8s-bookshop/manifests/bookshop/postgres.yaml?raw';

declare const self: DedicatedWorkerGlobalScope;

const BOOKSHOP: ManifestFiles = {
  'config.yaml': configYaml,
  'catalog.yaml': catalogYaml,
  'orders.yaml': ordersYaml,
  'web.yaml': webYaml,
  'postgres.yaml': postgresYaml,
};

const host = new SimHost({
  env: {
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  },
  post: (msg: FromWorker) => self.postMessage(msg),
  makeCluster: (seed, kind) => (kind === 'test' ? newHostTestCluster(seed, BOOKSHOP) : newHostBootedCluster(seed)),
});

/** `?debug=1` on the page (sent with reset/restore): `debugCrash` is honoured. */
let debug = false;

self.onmessage = (ev: MessageEvent<unknown>) => {
  if (!isToWorker(ev.data)) {
    self.postMessage({ type: 'error', message: `unknown message: ${JSON.stringify(ev.data).slice(0, 200)}` } satisfies FromWorker);
    return;
  }
  const msg = ev.data;
  if (msg.type === 'reset' || msg.type === 'restore') debug = msg.debug === true;
  if (msg.type === 'debugCrash') {
    // Crash recovery is tested by crashing for real: an exception nothing catches, as a bug would throw.
    if (debug && msg.hang) {
      // A worker stuck in a loop: it never fails, it stops answering (the page's watchdog notices).
      for (;;) {
        /* spin */
      }
    }
    if (debug) {
      setTimeout(() => {
        throw new Error('debugCrash: the simulation worker was crashed on purpose (?debug=1)');
      }, 0);
    }
    return;
  }
  host.handle(msg);
};
