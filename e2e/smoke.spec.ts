import { expect, test } from '@playwright/test';

test('the page loads with its heading and no console errors', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));

  await page.goto('/');

  await expect(page).toHaveTitle('Cluster Playground');
  await expect(page.getByRole('heading', { level: 1, name: 'Cluster Playground' })).toBeVisible();
  await expect(page.getByText('A Kubernetes cluster you can break, in a browser tab')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The simulation engine is being built' })).toBeVisible();

  await page.screenshot({ path: testInfo.outputPath('smoke-1280x720.png'), fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: testInfo.outputPath('smoke-1920x1080.png'), fullPage: true });

  expect(errors).toEqual([]);
});
