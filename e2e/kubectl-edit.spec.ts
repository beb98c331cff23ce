import { expect, test, type Page } from '@playwright/test';
import { copyBuffer, editorPanel, focusTerminal, monacoText, pasteBuffer, promptNow, run } from './helpers';

/**
 * `kubectl edit` typed in the terminal, as a learner does it: the YAML editor tab opens in its
 * edit mode on the catalog Deployment (the browser is kubectl's $EDITOR), the line ends without an
 * error, replicas 2 -> 3 is applied there (`deployment.apps/catalog edited`), and the terminal's
 * next `kubectl get` and the cluster map show the third replica. Seed 1, started paused.
 */

/** Focus the terminal, type `line` at the laptop's prompt, wait for the prompt; its output, trimmed. */
async function runLine(page: Page, line: string): Promise<string> {
  await focusTerminal(page);
  return (await run(page, line)).trim();
}

test('kubectl edit in the terminal opens the YAML editor on the object; Apply edits it', async ({ page, context }, testInfo) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.addInitScript('localStorage.clear()');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  await expect.poll(() => promptNow(page)).toBe('$ ');

  // 1. The line opens the editor tab in edit mode on the Deployment, and ends without an error.
  const out = await runLine(page, 'kubectl edit deployment catalog -n bookshop');
  expect(out).toBe('deployment.apps/catalog opened in the YAML editor (Apply saves the edit)');
  await expect(page.getByRole('tab', { name: 'YAML editor' })).toHaveAttribute('aria-selected', 'true');
  await expect(editorPanel(page)).toContainText('Editing Deployment bookshop/catalog', { timeout: 30_000 });
  await expect(monacoText(page)).toContainText('app: catalog');
  await page.screenshot({ path: testInfo.outputPath('kubectl-edit-1280.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: testInfo.outputPath('kubectl-edit-1920.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  // 2. replicas 2 -> 3, Apply: kubectl edit's line in the results.
  const live = await copyBuffer(page);
  expect(live).toContain('\n  replicas: 2\n');
  await pasteBuffer(page, live.replace('\n  replicas: 2\n', '\n  replicas: 3\n'));
  await editorPanel(page).getByRole('button', { name: 'Apply' }).click();
  await expect(editorPanel(page).getByRole('region', { name: 'Apply results' })).toContainText('deployment.apps/catalog edited');

  // 3. The cluster has the change: the terminal's kubectl sees it, the map draws a third pod.
  await page.getByRole('button', { name: '+1 min' }).click();
  const get = await runLine(page, 'kubectl get deploy catalog -n bookshop');
  expect(get).toMatch(/^catalog\s+3\/3\s+3\s+3\s/m);
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(page.locator('[data-node*="worker"] [data-pod^="catalog-"]')).toHaveCount(3);

  // 4. Several objects at once: kubectl's error, the editor is not opened on either.
  const several = await runLine(page, 'kubectl edit deploy catalog web -n bookshop');
  expect(several).toContain("error: this terminal has no text editor: open objects in the playground's YAML editor");
  await expect(page.getByRole('tab', { name: 'Cluster map' })).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});
