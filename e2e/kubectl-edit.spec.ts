import { expect, test, type Page } from '@playwright/test';

/**
 * `kubectl edit` typed in the terminal, as a learner does it: the YAML editor tab opens in its
 * edit mode on the catalog Deployment (the browser is kubectl's $EDITOR), the line ends without an
 * error, replicas 2 -> 3 is applied there (`deployment.apps/catalog edited`), and the terminal's
 * next `kubectl get` and the cluster map show the third replica. Seed 1, started paused.
 */

// (Page functions as strings: the e2e tsconfig has no DOM types.)
const terminalText = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.text() : ""');
const promptNow = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.prompt() : ""');

/** What the page's functions use of the browser (this file is typechecked without the DOM library). */
interface BrowserGlobals {
  navigator: { clipboard: { writeText(t: string): Promise<void>; readText(): Promise<string> } };
}

const editorPanel = (page: Page) => page.getByTestId('yaml-editor');
const monacoText = (page: Page) => page.getByTestId('monaco-host').locator('.view-lines');
const count = (text: string, marker: string) => text.split(marker).length - 1;

/** Type `line` at the laptop's prompt, wait until the prompt is back; returns its output. */
async function run(page: Page, line: string): Promise<string> {
  const marker = `$ ${line}`;
  const before = count(await terminalText(page), marker);
  await page.getByRole('region', { name: 'Terminal' }).locator('.xterm').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await expect.poll(async () => {
    const t = await terminalText(page);
    return count(t, marker) === before + 1 && t.endsWith('\n$') && (await promptNow(page)) === '$ ';
  }).toBe(true);
  const t = await terminalText(page);
  const out = t.slice(t.lastIndexOf(marker) + marker.length);
  return out.slice(0, out.lastIndexOf('\n$')).trim();
}

/** Replace the buffer with `text` as a person does: select all, paste. */
async function pasteBuffer(page: Page, text: string) {
  await page.evaluate((t) => (globalThis as unknown as BrowserGlobals).navigator.clipboard.writeText(t), text);
  await page.getByTestId('monaco-host').click({ position: { x: 120, y: 12 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

/** The buffer's text, as a person copies it (select all, copy). */
async function copyBuffer(page: Page): Promise<string> {
  await page.getByTestId('monaco-host').click({ position: { x: 120, y: 12 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+C');
  return (await page.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText())).replace(/\r\n/g, '\n');
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
  const out = await run(page, 'kubectl edit deployment catalog -n bookshop');
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
  const get = await run(page, 'kubectl get deploy catalog -n bookshop');
  expect(get).toMatch(/^catalog\s+3\/3\s+3\s+3\s/m);
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(page.locator('[data-node*="worker"] [data-pod^="catalog-"]')).toHaveCount(3);

  // 4. Several objects at once: kubectl's error, the editor is not opened on either.
  const several = await run(page, 'kubectl edit deploy catalog web -n bookshop');
  expect(several).toContain("error: this terminal has no text editor: open objects in the playground's YAML editor");
  await expect(page.getByRole('tab', { name: 'Cluster map' })).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});
