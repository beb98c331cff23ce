import { expect, test, type Page } from '@playwright/test';

/**
 * Many pods, as a class sees them (issue #6): a Deployment scaled past what the two workers hold
 * (kind's kubelet: maxPods 110). The map draws every pod with its STATUS and shows the scheduler's
 * one FailedScheduling message once for the pods that wait on it; the owner graph folds the
 * ReplicaSet's pods into one box with their counts, and a selected pod still gets its own box and
 * chain.
 */

const REPLICAS = 260;

// (Page functions as strings: the e2e tsconfig has no DOM types.)
const terminalText = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.text() : ""');

/** Type `line` at the terminal's prompt and wait until it printed `expected`. */
async function run(page: Page, line: string, expected: string) {
  await page.getByRole('region', { name: 'Terminal' }).locator('.xterm').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toContain(expected);
}

test('a Deployment of 260 pods: every pod on the map, the wait reason once, one group box in the owner graph', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('running', { timeout: 60_000 });

  await run(page, 'kubectl create deployment many --image=nginx:1.27 --replicas=0 -n bookshop', 'deployment.apps/many created');
  await run(page, `kubectl scale deployment many --replicas=${REPLICAS} -n bookshop`, 'deployment.apps/many scaled');

  // Every pod is drawn (on a node or in the pending strip), each with its STATUS.
  const chips = page.locator('[data-pod^="many-"]');
  await expect(chips).toHaveCount(REPLICAS, { timeout: 60_000 });
  // The workers fill up (110 pods each, the bookshop's included): the rest wait, with one message.
  const pending = page.locator('.pending-strip [data-pod^="many-"]');
  await expect(pending.first()).toContainText('Pending', { timeout: 60_000 });
  const reason = page.locator('.pending-reason', { hasText: 'Too many pods' });
  await expect(reason).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('.pending-strip .pod-reason')).toHaveCount(0);
  const waiting = await pending.count();
  await expect(reason.locator('.count')).toHaveText(String(waiting));
  await page.screenshot({ path: testInfo.outputPath('1-map-many-pods.png') });

  // The owner graph: Deployment -> ReplicaSet -> one box for its 260 pods, with their counts.
  await page.getByRole('tab', { name: 'Owner graph' }).click();
  const group = page.locator('[data-graph-node^="Pods/many-"]');
  await expect(group).toHaveCount(1, { timeout: 30_000 });
  await expect(group).toHaveAttribute('data-pod-count', String(REPLICAS));
  await expect(group).toContainText(`${REPLICAS} pods`);
  await expect(group).toContainText('Pending');
  await expect(page.locator('[data-graph-node^="Pod/many-"]')).toHaveCount(0);
  await expect(page.locator('[data-graph-node^="ReplicaSet/many-"]')).toHaveCount(1);
  await expect(page.locator('[data-graph-node="Deployment/many"]')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('2-graph-group.png') });

  // Select one running pod on the map: on the graph it stands on its own, its chain lit.
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  const one = page.locator('[data-node*="worker"] [data-pod^="many-"][data-status="Running"]').first();
  const name = (await one.getAttribute('data-pod'))!;
  await one.click();
  await page.getByRole('tab', { name: 'Owner graph' }).click();
  await expect(page.locator(`[data-graph-node="Pod/${name}"].hl-on`)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('[data-graph-node="Deployment/many"].hl-on')).toHaveCount(1);
  await expect(group).toHaveAttribute('data-pod-count', String(REPLICAS - 1));
  await expect(page.getByTestId('graph-chain')).toContainText(name);
  await page.screenshot({ path: testInfo.outputPath('3-graph-selected-pod.png') });
});
