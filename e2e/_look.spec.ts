import { expect, test } from '@playwright/test';
import { promptNow, run } from './helpers';

test('look', async ({ page }) => {
  test.setTimeout(240_000);
  await page.addInitScript('localStorage.clear()');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&speed=20');
  await page.waitForTimeout(3000);
  const term = page.getByRole('region', { name: 'Terminal' });
  await expect.poll(() => promptNow(page)).toBe('$ ');
  await term.locator('.xterm').click();
  await run(page, `kubectl run big --image=nginx:1.27 --overrides='{"spec":{"containers":[{"name":"big","image":"nginx:1.27","resources":{"requests":{"cpu":"100"}}}]}}'`);
  await run(page, 'docker exec k8s-lab-worker pkill -9 -x kubelet');
  await run(page, 'sleep 30');
  await run(page, 'kubectl describe pod big | tail -4');
  await page.screenshot({ path: '/tmp/look1.png' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: '/tmp/look2.png' });
});
