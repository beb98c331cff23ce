import { expect, test } from '@playwright/test';
import { after, focusTerminal, openPausedTerminal, promptNow, typeLine } from './helpers';

/**
 * `kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- sh` in the browser terminal:
 * the debugging idiom of the tutorials. The pod starts (time moved by the controls), the prompt
 * becomes busybox's `/ # `, a Service resolves from inside, `cd` keeps the directory, and `exit`
 * deletes the pod and brings the laptop's prompt back. Deterministic: seed 1, started paused.
 */
test('kubectl run --rm -it busybox sh: a throwaway pod attached to the terminal until exit', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPausedTerminal(page);
  const line = 'kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- sh';
  await typeLine(page, line);
  // The image pull and the start take cluster time.
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect.poll(() => promptNow(page), { timeout: 30_000 }).toBe('/ # ');
  expect(await after(page, `$ ${line}`)).toContain("If you don't see a command prompt, try pressing enter.");
  await focusTerminal(page);
  await typeLine(page, 'nslookup catalog.bookshop');
  await expect.poll(() => after(page, '/ # nslookup catalog.bookshop')).toMatch(/Name:\s+catalog\.bookshop/);
  await typeLine(page, 'cd /tmp');
  await expect.poll(() => promptNow(page)).toBe('/tmp # ');
  await page.screenshot({ path: testInfo.outputPath('kubectl-run-it-1280.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('kubectl-run-it-1920.png') });
  await typeLine(page, 'exit');
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect.poll(() => promptNow(page), { timeout: 30_000 }).toBe('$ ');
  await expect.poll(() => after(page, '/tmp # exit')).toContain('pod "tmp" deleted from default namespace');
  expect(errors).toEqual([]);
});
