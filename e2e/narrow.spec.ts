import { expect, test } from '@playwright/test';

/**
 * A learner on a small laptop window (1024x640): the workspace tabs stay on one line and whole, and the
 * owner graph opens on the top of the bookshop (the catalog Deployment, where the story starts)
 * rather than on the middle of a graph too tall to fit at a readable zoom. The tabs follow the
 * WAI-ARIA tabs pattern (one Tab stop, arrow keys between tabs).
 */
test('narrow window: one-line tabs, arrow keys between them; the owner graph opens at the catalog Deployment', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });

  // Every tab label on a single line: all four tabs as tall as the first.
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(4);
  const heights = await tabs.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(new Set(heights).size).toBe(1);
  // One line of label is about 44 px tall with its padding; a wrapped label ("Cluster / map") about 66.
  expect(heights[0]).toBeLessThan(56);
  // All four whole inside the workspace: the last one not cut off by its edge.
  const workspace = (await page.locator('.workspace').boundingBox())!;
  const lastTab = (await page.getByRole('tab', { name: 'YAML editor' }).boundingBox())!;
  expect(lastTab.x + lastTab.width).toBeLessThanOrEqual(workspace.x + workspace.width);

  // Keyboard: the tablist is one Tab stop (the selected tab); the arrow keys move to another tab and open it.
  await expect(page.getByRole('tab', { name: 'Cluster map' })).toHaveAttribute('tabindex', '0');
  await expect(page.getByRole('tab', { name: 'Owner graph' })).toHaveAttribute('tabindex', '-1');
  await page.getByRole('tab', { name: 'Cluster map' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'YAML editor' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'YAML editor' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Owner graph' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Owner graph' })).toHaveAttribute('aria-selected', 'true');

  const canvas = page.locator('.graph-canvas');
  const catalog = page.locator('.react-flow__node', { hasText: /Deployment\s*catalog/i }).first();
  await expect(catalog).toBeVisible();
  await expect
    .poll(async () => {
      const c = await canvas.boundingBox();
      const n = await catalog.boundingBox();
      return !!c && !!n && n.y >= c.y && n.y + n.height <= c.y + c.height;
    })
    .toBe(true);
  await page.screenshot({ path: testInfo.outputPath('narrow-owner-graph.png') });

  // The same browser on a 1080p projector: the terminal takes the projector's default height (a
  // fifth of the window), not the laptop's, which was never chosen, only shown.
  const panel = page.getByRole('region', { name: 'Terminal' }).first();
  await expect(page.locator('.term-panel')).toHaveCSS('height', '128px');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.reload();
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  await expect(panel).toBeVisible();
  await expect(page.locator('.term-panel')).toHaveCSS('height', '216px');
});
