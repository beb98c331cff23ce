import { expect, test } from '@playwright/test';

/**
 * The simulation worker crashes (for real: `?debug=1` lets the page ask it to throw an exception
 * nothing catches). The page says so, starts a new worker and replays what the person did, so
 * the cluster comes back as it was, without a reload: the deleted pod stays deleted, its
 * replacement is there, the clock shows the same time.
 */
test('a worker crash: the page says so, restarts the worker, and the cluster comes back as it was', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1&debug=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });

  // Delete a catalog pod from the inspector, then let a minute of cluster time pass.
  const workers = page.locator('[data-node*="worker"]');
  const catalogs = workers.locator('[data-pod^="catalog-"]');
  await expect(catalogs).toHaveCount(2);
  const victim = (await catalogs.first().getAttribute('data-pod'))!;
  await page.locator(`[data-pod="${victim}"]`).click();
  await page.getByTestId('inspector').getByRole('button', { name: 'Delete pod' }).click();
  await expect(page.locator(`[data-pod="${victim}"]`)).toContainText('Terminating');
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(page.locator(`[data-pod="${victim}"]`)).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 30_000 });
  await expect(catalogs).toHaveCount(2);
  for (const chip of await catalogs.all()) await expect(chip).toContainText('Running');
  const before = (await catalogs.evaluateAll((els) => els.map((e) => e.getAttribute('data-pod')))).sort();
  expect(before).not.toContain(victim);
  const clockBefore = await page.getByTestId('cluster-time').textContent();

  // Crash the worker. A marker on the page shows it is not reloaded.
  await page.evaluate(() => {
    (globalThis as unknown as { __notReloaded: boolean }).__notReloaded = true;
    (globalThis as unknown as { __playground: { crash(): void } }).__playground.crash();
  });
  const crashedAt = Date.now();
  const banner = page.locator('[data-recovery]');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('The simulation worker stopped');
  await expect(banner).toContainText('debugCrash');
  await page.screenshot({ path: testInfo.outputPath('recovery-1-restarting-or-restored-1280x720.png') });

  // Restored: the same pods (the deletion still done, the replacement running), the same time.
  await expect(banner).toHaveAttribute('data-recovery', 'restored', { timeout: 60_000 });
  testInfo.annotations.push({ type: 'crash-to-restored-ms', description: String(Date.now() - crashedAt) });
  console.log(`crash to restored: ${Date.now() - crashedAt} ms`);
  await expect(banner).toHaveRole('status');
  await expect(banner).toContainText('restarted without reloading the page');
  await expect(banner).toContainText('1 command was replayed');
  await expect(banner).not.toContainText('Warning');
  await expect(page.locator(`[data-pod="${victim}"]`)).toHaveCount(0);
  await expect(catalogs).toHaveCount(2);
  const after = (await catalogs.evaluateAll((els) => els.map((e) => e.getAttribute('data-pod')))).sort();
  expect(after).toEqual(before);
  for (const chip of await catalogs.all()) await expect(chip).toContainText('Running');
  await expect(page.getByTestId('cluster-time')).toHaveText(clockBefore!);
  await expect(page.getByTestId('cluster-state')).toHaveText('paused');
  expect(await page.evaluate(() => (globalThis as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('recovery-2-restored-1280x720.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: testInfo.outputPath('recovery-2-restored-1920x1080.png') });

  // The new worker works: a fresh command runs against the restored cluster.
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect(page.getByTestId('cluster-time')).not.toHaveText(clockBefore!, { timeout: 30_000 });
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a worker that stops answering is noticed by the watchdog and replaced the same way', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  // The small test cluster (no boot) keeps this one short.
  await page.goto('/?seed=1&paused=1&debug=1&cluster=test');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  const web = page.locator('[data-node*="worker"] [data-pod^="web-"]');
  await expect(web).toHaveCount(2);
  const victim = (await web.first().getAttribute('data-pod'))!;
  await page.locator(`[data-pod="${victim}"]`).click();
  await page.getByTestId('inspector').getByRole('button', { name: 'Delete pod' }).click();
  await expect(page.locator(`[data-pod="${victim}"]`)).toContainText('Terminating');
  const clockBefore = await page.getByTestId('cluster-time').textContent();

  // The worker spins forever: no error event, just silence.
  await page.evaluate(() => (globalThis as unknown as { __playground: { crash(hang: boolean): void } }).__playground.crash(true));
  const banner = page.locator('[data-recovery]');
  await expect(banner).toContainText('stopped answering for 10 s', { timeout: 30_000 });
  await expect(banner).toHaveAttribute('data-recovery', 'restored', { timeout: 60_000 });
  await expect(banner).toContainText('1 command was replayed');
  // The deletion is still in progress, exactly as it was.
  await expect(page.locator(`[data-pod="${victim}"]`)).toContainText('Terminating');
  await expect(page.getByTestId('cluster-time')).toHaveText(clockBefore!);
});
