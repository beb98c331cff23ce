/**
 * The playground shells, loaded by the worker on demand (a separate chunk: the shell and kubectl
 * are a large part of the code, and the cluster boots without them).
 */
import type { Cluster } from '../engine/cluster';
import type { TestCluster } from '../engine/testing/cluster';
import { BOOKSHOP_FILES } from '../engine/cluster/bookshop';
import { SHELF_CONTROLLER_FILES } from '../engine/cluster/appcontrollers';
import { Shell } from '../shell/shell';
import { MemoryFiles } from '../shell/files';
import { makeKubectl } from '../shell/kubectl';
import { createPlaygroundShell } from '../shell/playground';
export { completeAgainst } from './completion';

/** The bookshop repository as the shell's working directory (with controller/reconcile.sh for `make controller`'s ConfigMap). */
function bookshopRepo(): MemoryFiles {
  return new MemoryFiles({ ...BOOKSHOP_FILES, ...SHELF_CONTROLLER_FILES });
}

/** The laptop next to the kind cluster: kubectl, docker, kind. */
export function kindShell(c: Cluster): Shell {
  return createPlaygroundShell({ cluster: c, files: bookshopRepo() });
}

/** The test cluster has no node containers: kubectl only. */
export function testShell(c: Pick<TestCluster, 'clock' | 'rng' | 'api'>): Shell {
  return new Shell({ ctx: { clock: c.clock, rng: c.rng, api: c.api, files: bookshopRepo(), env: {} }, commands: { kubectl: makeKubectl() } });
}
