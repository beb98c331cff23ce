import { expect, test, type Page } from '@playwright/test';

/**
 * The seed's supervision story in the browser (issue #6, "Shown by"): open the Supervision tab,
 * kill the kubelet on k8s-lab-worker from its action menu -> systemd shows kubelet.service
 * `activating (auto-restart)`, restarting in 10 s; a minute of virtual time later it runs again
 * with a new PID and the node stayed Ready. Then stop the kubelet -> nobody restarts it, and the
 * node turns NotReady on the cluster map after the node monitor's grace period (~50 s).
 * Deterministic: seed 1, started paused, time moved only with the controls.
 */

const NODE = 'k8s-lab-worker';

async function shots(page: Page, name: string, out: (n: string) => string) {
  await page.screenshot({ path: out(`${name}-1280.png`) });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: out(`${name}-1920.png`) });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('kill the kubelet: systemd restarts it 10 s later; stop it: the node goes NotReady', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  const out = (n: string) => testInfo.outputPath(n);

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 90_000 });

  // The Supervision tab: the four layers of every node.
  await page.getByRole('tab', { name: 'Supervision' }).click();
  const node = page.locator(`[data-sup-node="${NODE}"]`);
  await expect(node).toBeVisible();
  await expect(node.locator('[data-power]')).toHaveText('powered on');
  await expect(node.locator('[data-ready]')).toHaveText('Node Ready');
  const kubelet = node.locator('[data-unit="kubelet.service"]');
  await expect(kubelet.locator('.sup-state')).toHaveText('running');
  await expect(kubelet).toContainText('active (running)');
  const pidOf = async () => Number(/PID (\d+)/.exec((await kubelet.textContent()) ?? '')?.[1]);
  const pid0 = await pidOf();
  expect(pid0).toBeGreaterThan(1);
  await expect(node.locator('[data-sup-pod^="catalog-"]')).toContainText('running');
  // The control plane: static pods, the components they run, the controllers.
  const cp = page.locator('[data-sup-node="k8s-lab-control-plane"]');
  await expect(cp.locator('[data-sup-pod="kube-apiserver-k8s-lab-control-plane"]')).toContainText('static pod · mirror pod in the API');
  await expect(cp.locator('[data-controller="deployment-controller"]')).toContainText('bookshop/catalog');
  await shots(page, '1-supervision', out);

  // Show only that node (what a teacher points at), then kill the kubelet from its action menu:
  // the shell line runs and shows in the timeline.
  await page.getByRole('group', { name: 'Nodes shown' }).getByRole('button', { name: NODE, exact: true }).click();
  await expect(page.locator('[data-sup-node]')).toHaveCount(1);
  await kubelet.getByRole('button', { name: `Actions on kubelet.service on ${NODE}` }).click();
  await page.getByRole('menuitem', { name: /Kill kubelet \(SIGKILL\)/ }).click();
  await expect(page.locator('.tl-action').first()).toContainText(`docker exec ${NODE} pkill -9 -x kubelet`);
  await expect(kubelet.locator('.sup-state')).toHaveText('restarting in 10 s');
  await expect(kubelet.locator('.sup-state')).toHaveAttribute('data-state', 'restarting');
  await expect(kubelet).toContainText('activating (auto-restart)');
  await expect(kubelet).toContainText(`last exit: code=killed, status=9/KILL (PID ${pid0})`);
  await expect(node.locator('[data-kubelet]')).toContainText('nobody restarts them');
  await expect(node.locator('[data-sup-pod^="catalog-"]')).toContainText('unsupervised');
  await shots(page, '2-kubelet-killed', out);

  // A minute of virtual time: systemd started it again (new PID), the node never went NotReady.
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(kubelet.locator('.sup-state')).toHaveText('running', { timeout: 30_000 });
  await expect(kubelet).toContainText('restarts 1');
  const pid1 = await pidOf();
  expect(pid1).toBeGreaterThan(pid0);
  await expect(node.locator('[data-ready]')).toHaveText('Node Ready');
  await shots(page, '3-kubelet-back', out);

  // Stop it: inactive (dead), no restart; after ~50 s the node is NotReady on the map.
  await kubelet.getByRole('button', { name: `Actions on kubelet.service on ${NODE}` }).click();
  await page.getByRole('menuitem', { name: /Stop kubelet\.service/ }).click();
  await expect(page.locator('.tl-action').first()).toContainText(`docker exec ${NODE} systemctl stop kubelet`);
  // Paused: systemd has sent SIGTERM and waits for the kubelet to exit (deactivating).
  await expect(kubelet.locator('.sup-state')).toHaveText('stopping');
  await expect(kubelet).toContainText('deactivating (stop-sigterm)');
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(kubelet.locator('.sup-state')).toHaveText('stopped', { timeout: 30_000 });
  await expect(kubelet).toContainText('inactive (dead)');
  await expect(kubelet).not.toContainText('restarting');
  await expect(node.locator('[data-ready]')).toContainText('NotReady', { timeout: 30_000 });
  await shots(page, '4-kubelet-stopped', out);
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(page.locator(`[data-node="${NODE}"] .node-status`)).toContainText('NotReady');
  await shots(page, '5-map-notready', out);

  // The node's actions on the map: the same menu, keyboard-driven.
  const mapMenu = page.locator(`[data-node="${NODE}"]`).getByRole('button', { name: `Actions on node ${NODE}` });
  await mapMenu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: `Actions on node ${NODE}` })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /Power off the node/ })).toBeFocused();
  await shots(page, '6-map-node-menu', out);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(mapMenu).toBeFocused();

  // Right-click a pod in the Supervision view: its menu, with the bookshop's break switches.
  await page.getByRole('tab', { name: 'Supervision' }).click();
  await page.getByRole('group', { name: 'Nodes shown' }).getByRole('button', { name: 'Whole cluster' }).click();
  const pod = page.locator('[data-sup-node="k8s-lab-worker2"] [data-sup-pod^="catalog-"]');
  const podName = await pod.getAttribute('data-sup-pod');
  await pod.locator('.sup-pod-head').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: `Actions on pod bookshop/${podName}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem')).toHaveText([/Delete pod/, /Kill container catalog/, /Make it unready/, /Break it/, /Eat 200 MiB/]);
  await shots(page, '7-pod-menu', out);
  await menu.getByRole('menuitem', { name: /Make it unready/ }).click();
  await expect(page.locator('.tl-action').first()).toContainText(`kubectl exec -n bookshop ${podName} -- curl -s localhost:8080/debug/unready`);

  expect(errors).toEqual([]);
});
