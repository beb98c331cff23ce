import { expect, test, type Page } from '@playwright/test';

/**
 * The core story, as a learner does it: the bookshop runs on the worker nodes; delete a catalog
 * pod from the inspector; watch it terminate and the ReplicaSet replace it; see who owns the new
 * pod. Deterministic: seed 1, started paused, time moved only with the controls.
 */

const catalogChips = (page: Page) => page.locator('[data-node] [data-pod^="catalog-"], .pending-strip [data-pod^="catalog-"]');

/** The terminal's text as drawn (xterm's buffer, exposed by src/ui/terminal/Terminal.tsx; a string: no DOM types here). */
const terminalText = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.text() : ""');

async function shot(page: Page, name: string, path: (n: string) => string) {
  await page.screenshot({ path: path(`${name}.png`) });
}

test('delete a catalog pod: it terminates, the ReplicaSet replaces it, the owner graph shows why', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  const out = (n: string) => testInfo.outputPath(n);

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1');

  // 1. The bookshop's pods run on the worker nodes, with the status kubectl would print.
  // The kind cluster boots first (fast-forwarded), then pauses as ?paused=1 asks.
  const workers = page.locator('[data-node*="worker"]');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  await expect(workers.locator('[data-pod^="catalog-"]')).toHaveCount(2);
  for (const chip of await workers.locator('[data-pod^="catalog-"]').all()) await expect(chip).toContainText('Running');
  await expect(workers.locator('[data-pod^="web-"]')).toHaveCount(2);
  await expect(workers.locator('[data-pod^="orders-"]')).toHaveCount(1);
  const firstPodsMs = await page.evaluate(() => performance.getEntriesByName('first-pods-drawn')[0]?.startTime ?? -1);
  testInfo.annotations.push({ type: 'first-pods-drawn-ms', description: String(Math.round(firstPodsMs)) });
  console.log(`time to first pods drawn: ${Math.round(firstPodsMs)} ms after navigation start`);
  await shot(page, '1-bookshop-running', out);

  // 2. Select a catalog pod: the inspector shows it and its owner chain.
  const initial = await workers.locator('[data-pod^="catalog-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-pod')!));
  const victimName = initial[0];
  await page.locator(`[data-pod="${victimName}"]`).click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toContainText(victimName);
  const crumbs = inspector.getByRole('navigation', { name: 'Owner chain' });
  await expect(crumbs).toContainText('Deployment catalog');
  await expect(crumbs).toContainText('ReplicaSet catalog-');
  await shot(page, '2-catalog-selected', out);

  // 3. Delete it from the inspector: the same kubectl line a person would type.
  await inspector.getByRole('button', { name: 'Delete pod' }).click();
  await expect(page.locator(`[data-pod="${victimName}"]`)).toContainText('Terminating');
  await expect.poll(() => terminalText(page)).toContain(`kubectl delete pod ${victimName} -n bookshop`);
  await expect(page.locator('.tl-action').first()).toContainText(`kubectl delete pod ${victimName} -n bookshop`);
  await shot(page, '3-terminating', out);

  // 4. Step event by event until the ReplicaSet controller has created the replacement.
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 400 && (await catalogChips(page).count()) < 3; i++) await step.click();
  await expect(catalogChips(page)).toHaveCount(3);
  const three = await catalogChips(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-pod')!));
  const newPod = three.find((n) => !initial.includes(n))!;
  expect(newPod).toMatch(/^catalog-/);
  await expect(page.locator(`[data-pod="${victimName}"]`)).toContainText('Terminating');
  await expect(page.locator('.timeline')).toContainText('has 1 of 2 -> create 1');
  await shot(page, '4-replacement-created', out);

  // 5. Fast-forward one minute: the old pod is gone, the new one Running.
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(page.getByTestId('cluster-time')).toHaveText(/^06:01:/);
  await expect(page.locator(`[data-pod="${victimName}"]`)).toHaveCount(0);
  const running = workers.locator('[data-pod^="catalog-"]');
  await expect(running).toHaveCount(2);
  for (const chip of await running.all()) await expect(chip).toContainText('Running');
  await expect(page.locator(`[data-node*="worker"] [data-pod="${newPod}"]`)).toContainText('Running');
  await shot(page, '5-replacement-running', out);

  // 6. Select the new pod and open the owner graph: Pod <- ReplicaSet <- Deployment.
  await page.locator(`[data-pod="${newPod}"]`).click();
  await page.getByRole('tab', { name: 'Owner graph' }).click();
  const chain = page.getByTestId('graph-chain');
  await expect(chain).toContainText('Deployment catalog');
  await expect(chain).toContainText('ReplicaSet catalog-');
  await expect(chain).toContainText(`Pod ${newPod}`);
  const rsNode = page.locator('[data-graph-node^="ReplicaSet/catalog-"].hl-on');
  await expect(rsNode).toHaveCount(1);
  await expect(page.locator('[data-graph-node="Deployment/catalog"].hl-on')).toHaveCount(1);
  await expect(page.locator(`[data-graph-node="Pod/${newPod}"].hl-on`)).toHaveCount(1);
  await expect(page.locator('.react-flow__edge.g-edge-on')).toHaveCount(2);
  await shot(page, '6-owner-graph', out);

  // The projector view of the same two screens.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await shot(page, '7-owner-graph-1920', out);
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(page.locator(`[data-pod="${newPod}"]`)).toContainText('Running');
  await shot(page, '8-map-1920', out);

  expect(errors).toEqual([]);
});

test('the Delete key deletes the selected pod; Scale in the inspector scales its Deployment', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));

  await page.goto('/?seed=2&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  const web = page.locator('[data-node*="worker"] [data-pod^="web-"]');
  await expect(web).toHaveCount(2);
  const victim = (await web.first().getAttribute('data-pod'))!;
  await web.first().click();
  await page.keyboard.press('Delete');
  await expect(page.locator(`[data-pod="${victim}"]`)).toContainText('Terminating');
  await expect.poll(() => terminalText(page)).toContain(`kubectl delete pod ${victim} -n bookshop`);

  // The owner chain leads to the Deployment; scale it from there.
  await page.getByTestId('inspector').getByRole('button', { name: /Deployment web/ }).click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toContainText('Deployment');
  await inspector.getByRole('button', { name: 'One replica more' }).click();
  await expect(inspector.getByRole('textbox', { name: 'Replicas' }).or(inspector.getByRole('spinbutton', { name: 'Replicas' }))).toHaveValue('3');
  await inspector.getByRole('button', { name: 'Scale', exact: true }).click();
  await expect.poll(() => terminalText(page)).toContain('kubectl scale deployment web --replicas=3 -n bookshop');
  await expect.poll(() => terminalText(page)).toContain('deployment.apps/web scaled');

  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(page.locator(`[data-pod="${victim}"]`)).toHaveCount(0);
  await expect(web).toHaveCount(3);
  for (const chip of await web.all()) await expect(chip).toContainText('Running');
  await expect(inspector).toContainText('3/3');
  // What the Deployment controller did about it, in the inspector (newest first).
  const recent = inspector.getByRole('list', { name: 'Timeline entries about Deployment web, newest first' });
  await expect(recent.locator('li').first()).toContainText('deployment-controller');
  await expect(recent).toContainText(/scaled up ReplicaSet web-[a-z0-9]+ from 2 to 3/);
  await inspector.getByRole('button', { name: 'Show all in the timeline' }).click();
  await expect(page.getByRole('searchbox', { name: 'Filter the timeline by text' })).toHaveValue('web');

  // The timeline filter finds what the ReplicaSet controller did.
  await page.getByRole('searchbox', { name: 'Filter the timeline by text' }).fill('web-');
  await expect(page.locator('.timeline')).toContainText('replicaset-controller');
  await page.screenshot({ path: testInfo.outputPath('scaled.png') });
  expect(errors).toEqual([]);
});
