import { expect, test } from '@playwright/test';

test('the page loads with its heading, the cluster draws, and no console errors', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));

  await page.goto('/');

  await expect(page).toHaveTitle('Cluster Playground');
  await expect(page.getByRole('heading', { level: 1, name: 'Cluster Playground' })).toBeVisible();
  await expect(page.getByText('A Kubernetes cluster you can break, in a browser tab')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Cluster map', selected: true })).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Simulation controls' })).toBeVisible();
  // The cluster boots and then plays in real time: its nodes are drawn, the control plane first.
  await expect(page.locator('[data-node]').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('cluster-state')).toHaveText('running', { timeout: 60_000 });
  await expect(page.locator('[data-pod^="web-"]').first()).toContainText('Running');
  // Real time drives it: the cluster clock moves, nothing goes wrong while it does.
  const t0 = await page.getByTestId('cluster-time').textContent();
  await expect(page.getByTestId('cluster-time')).not.toHaveText(t0!, { timeout: 5_000 });
  await page.getByLabel('Speed of virtual time').selectOption('10');
  await page.waitForTimeout(1500);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.screenshot({ path: testInfo.outputPath('smoke-1280x720.png'), fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: testInfo.outputPath('smoke-1920x1080.png'), fullPage: true });

  expect(errors).toEqual([]);
});

test('the built page arrives with the booted cluster drawn (prerendered), then hydrates and runs without errors', async ({ page, request }) => {
  // The HTML itself holds the bookshop's pods (vite.config.ts prerenderBootView), before any script runs.
  const html = await (await request.get('/')).text();
  for (const app of ['catalog-', 'orders-', 'web-', 'postgres-']) expect(html).toContain(`data-pod="${app}`);
  expect(html).toContain('>starting<');
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto('/');
  await expect(page.getByTestId('cluster-state')).toHaveText('running', { timeout: 60_000 });
  // Hydrated: the controls work (Pause is React's button, not dead prerendered markup).
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('cluster-state')).toHaveText('paused');
  await expect(page.locator('[data-pod^="catalog-"]')).toHaveCount(2);
  expect(errors).toEqual([]);
});
