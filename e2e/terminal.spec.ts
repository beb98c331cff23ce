import { expect, test } from '@playwright/test';
import { after, count, focusTerminal, openPausedTerminal, promptNow, run, terminalText, typeLine } from './helpers';

/**
 * The terminal under the map (issue #7, "Terminal"), as a learner uses it: list the bookshop's
 * pods, delete a catalog pod, see the replacement in the next listing; Ctrl-C ends a watch; Tab
 * completes; `docker exec -it k8s-lab-control-plane bash` moves the prompt into the node.
 * What is asserted is the terminal's text as drawn (xterm's buffer, exposed as
 * `window.__terminal`). Deterministic: seed 1, started paused, time moved only by the controls.
 */


test('kubectl in the terminal: get, delete, the replacement; Ctrl-C; Tab; the node prompt', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.addInitScript('localStorage.clear()');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });

  // The terminal replaced the command bar and shows the laptop's prompt.
  const term = page.getByRole('region', { name: 'Terminal' });
  await expect(term.locator('.xterm')).toBeVisible();
  await expect.poll(() => promptNow(page)).toBe('$ ');
  await term.locator('.xterm').click();

  // 1. The bookshop's pods, as kubectl prints them.
  const listing = await run(page, 'kubectl get pods -n bookshop');
  expect(listing).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
  const catalog = [...listing.matchAll(/^(catalog-\S+)\s+1\/1\s+Running/gm)].map((m) => m[1]);
  expect(catalog).toHaveLength(2);
  await page.screenshot({ path: testInfo.outputPath('terminal-1-get-pods-1280.png') });

  // 2. Delete one: kubectl waits for it to go (in cluster time), so move time on.
  const victim = catalog[0];
  await typeLine(page, `kubectl delete pod ${victim} -n bookshop`);
  await expect.poll(() => after(page, `$ kubectl delete pod ${victim} -n bookshop`)).toContain(`pod "${victim}" deleted`);
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect.poll(() => promptNow(page), { timeout: 30_000 }).toBe('$ ');
  await focusTerminal(page);

  // 3. The listing again: the victim is gone, a new catalog pod replaced it.
  const again = await run(page, 'kubectl get pods -n bookshop');
  const catalogAgain = [...again.matchAll(/^(catalog-\S+)\s+\d\/1/gm)].map((m) => m[1]);
  expect(catalogAgain).not.toContain(victim);
  expect(catalogAgain).toHaveLength(2);
  expect(catalogAgain.filter((n) => !catalog.includes(n))).toHaveLength(1);

  // 4. A watch runs until Ctrl-C ends it; the prompt comes back.
  await page.getByRole('button', { name: 'Play' }).click();
  await focusTerminal(page);
  await typeLine(page, 'kubectl get pods -n bookshop -w');
  await expect.poll(() => after(page, '$ kubectl get pods -n bookshop -w')).toMatch(/NAME\s+READY\s+STATUS/);
  await expect.poll(() => promptNow(page)).toBe('');
  await page.keyboard.press('Control+C');
  await expect.poll(() => promptNow(page)).toBe('$ ');
  expect(await after(page, '$ kubectl get pods -n bookshop -w')).toContain('^C');
  await page.getByRole('button', { name: 'Pause' }).click();
  await focusTerminal(page);

  // 5. Tab completes a resource type.
  await page.keyboard.type('kubectl get depl');
  await page.keyboard.press('Tab');
  await expect.poll(async () => (await terminalText(page)).split('\n').at(-1)).toBe('$ kubectl get deployments');
  await page.keyboard.type('-n bookshop');
  await page.keyboard.press('Enter');
  await expect.poll(() => after(page, '$ kubectl get deployments -n bookshop')).toMatch(/catalog\s+2\/2/);
  await expect.poll(() => promptNow(page)).toBe('$ ');

  // Several candidates: the first Tab adds what they share, the second lists them (as bash does).
  await page.keyboard.type('kubectl get pods -n bookshop cat');
  await page.keyboard.press('Tab');
  const rs = catalogAgain[0].replace(/-[a-z0-9]{5}$/, '-');
  await expect.poll(async () => (await terminalText(page)).split('\n').at(-1)).toBe(`$ kubectl get pods -n bookshop ${rs}`);
  await page.keyboard.press('Tab');
  await expect.poll(async () => (await terminalText(page)).split('\n').slice(-2)).toEqual([
    expect.stringMatching(new RegExp(`^${catalogAgain.toSorted().join('\\s+')}$`)),
    `$ kubectl get pods -n bookshop ${rs}`,
  ]);
  await page.keyboard.press('Control+U');

  // 6. Into the control-plane node: the prompt says where the shell is; exit leaves.
  await typeLine(page, 'docker exec -it k8s-lab-control-plane bash');
  await expect.poll(() => promptNow(page)).toBe('root@k8s-lab-control-plane:/# ');
  await expect.poll(async () => (await terminalText(page)).split('\n').at(-1)).toBe('root@k8s-lab-control-plane:/#');
  await page.screenshot({ path: testInfo.outputPath('terminal-2-node-prompt-1280.png') });
  await typeLine(page, 'hostname');
  await expect.poll(() => after(page, 'root@k8s-lab-control-plane:/# hostname')).toContain('k8s-lab-control-plane');
  await typeLine(page, 'exit');
  await expect.poll(() => promptNow(page)).toBe('$ ');

  // 7. History: Up brings back the last line.
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await terminalText(page)).split('\n').at(-1)).toBe('$ exit');
  await page.keyboard.press('Control+U');

  // 8. Ctrl-L clears the screen down to the prompt.
  await page.keyboard.press('Control+L');
  await expect.poll(() => terminalText(page)).toBe('$');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: testInfo.outputPath('terminal-3-1920.png') });
  expect(errors).toEqual([]);
});

test('a line run from the inspector is echoed in the terminal with its output', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/?seed=2&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Terminal' }).locator('.xterm')).toBeVisible();
  const web = page.locator('[data-node*="worker"] [data-pod^="web-"]');
  const victim = (await web.first().getAttribute('data-pod'))!;
  await web.first().click();
  await page.getByTestId('inspector').getByRole('button', { name: 'Delete pod' }).click();
  await expect.poll(() => after(page, `$ kubectl delete pod ${victim} -n bookshop`)).toContain(`pod "${victim}" deleted`);
  expect(count(await terminalText(page), `$ kubectl delete pod ${victim} -n bookshop`)).toBe(1);
  await page.getByRole('button', { name: '+1 min' }).click();
  await expect.poll(() => promptNow(page), { timeout: 30_000 }).toBe('$ ');
  await focusTerminal(page);
  const pods = await run(page, 'kubectl get pods -n bookshop');
  expect(pods).not.toContain(victim);
  await page.screenshot({ path: testInfo.outputPath('terminal-4-inspector-echo-1920.png') });
});

test('a here-document pasted whole is applied as one input', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  const xterm = page.getByRole('region', { name: 'Terminal' }).locator('.xterm');
  await expect(xterm).toBeVisible();
  await xterm.click();
  const doc = ['kubectl apply -f - <<EOF', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: pasted', '  namespace: bookshop', 'data:', '  greeting: hello', 'EOF', 'kubectl get configmap pasted -n bookshop', ''].join('\n');
  // Paste as the browser delivers it: a paste event on xterm's textarea.
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', ${JSON.stringify(doc)});
    document.querySelector('.xterm-helper-textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  })()`);
  await expect.poll(() => terminalText(page)).toContain('configmap/pasted created');
  await expect.poll(() => after(page, '$ kubectl get configmap pasted -n bookshop')).toMatch(/pasted\s+1\s+/);
  expect(await terminalText(page)).toContain('> EOF');

  // The history survives a reload: Up brings back the last line typed.
  await page.reload();
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  await expect.poll(() => promptNow(page)).toBe('$ ');
  await focusTerminal(page);
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalText(page)).toBe('$ kubectl get configmap pasted -n bookshop');
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalText(page)).toBe('$ kubectl apply -f - <<EOF');
});

test('kubectl exec -it into a catalog pod: the prompt is the container shell until exit', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPausedTerminal(page);
  const pod = (await run(page, 'kubectl get pods -n bookshop -l app=catalog -o name')).trim().split('\n')[0].replace('pod/', '').trim();
  await typeLine(page, `kubectl exec -it -n bookshop ${pod} -- sh`);
  // Alpine's ash as the image's non-root user.
  await expect.poll(() => promptNow(page)).toBe('/ $ ');
  await typeLine(page, 'hostname');
  await expect.poll(() => after(page, '/ $ hostname')).toContain(pod);
  await typeLine(page, 'cd /tmp');
  await expect.poll(() => promptNow(page)).toBe('/tmp $ ');
  await page.screenshot({ path: testInfo.outputPath('terminal-exec-it-1280.png') });
  await typeLine(page, 'exit');
  await expect.poll(() => promptNow(page)).toBe('$ ');
});

test('an HPA without metrics warns every 15 s: the timeline shows one row with the count, not one row per warning', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openPausedTerminal(page);
  await run(page, 'kubectl autoscale deploy web -n bookshop --cpu=50% --max=4');
  await page.getByRole('button', { name: '+5 min' }).click();
  await expect(page.getByTestId('cluster-time')).toHaveText(/^06:05:/, { timeout: 60_000 });
  // Created at 06:00:36, first reconciled 15 s later (the HPA queue's resync period), then every 15 s: 20 warnings by 06:05:36.
  const hpaRows = page.locator('.tl-row', { hasText: 'failed to compute desired number of replicas' });
  await expect(hpaRows).toHaveCount(1);
  await expect(hpaRows.locator('.tl-count')).toHaveText('×20');
  await expect(hpaRows.locator('.tl-time')).toHaveText('06:05:36');
  await expect(hpaRows.locator('.tl-count')).toHaveAttribute('title', '20 times, the first at 06:00:51, the latest at 06:05:36');
  // The person's command stays its own row, under the warnings.
  await expect(page.locator('.tl-action').first()).toContainText('kubectl autoscale deploy web -n bookshop --cpu=50% --max=4');
  await page.screenshot({ path: testInfo.outputPath('timeline-hpa-folded.png') });

  // The row selects the HPA: the page keeps no record of HPAs, which is no reason to call it deleted.
  await hpaRows.getByRole('button').click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toContainText('HorizontalPodAutoscaler in bookshop');
  await expect(page.locator('.inspector')).not.toContainText('no longer exists');
  await expect(inspector).toContainText('kubectl describe horizontalpodautoscaler web -n bookshop');
  await expect(inspector.getByRole('list', { name: 'Timeline entries about HorizontalPodAutoscaler web, newest first' })).toContainText('×20');
  await inspector.getByRole('button', { name: 'Edit YAML' }).click();
  await expect(page.getByTestId('yaml-editor')).toContainText('Editing HorizontalPodAutoscaler bookshop/web', { timeout: 30_000 });
  await expect(page.getByTestId('monaco-host').locator('.view-lines')).toContainText('kind: HorizontalPodAutoscaler');
  await page.screenshot({ path: testInfo.outputPath('timeline-hpa-inspector.png') });
});
