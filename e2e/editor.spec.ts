import { expect, test } from '@playwright/test';
import { copyBuffer, editorPanel, monacoText, pasteBuffer, type BrowserGlobals } from './helpers';

/**
 * The YAML editor, as a learner uses it: a misspelled field is flagged by the schema (so a broken
 * Monaco worker cannot pass silently), the catalog Deployment is edited (replicas 2 -> 3: a third
 * pod; image bookshop:v2: a rolling update with a new ReplicaSet), and a pasted Deployment whose
 * selector does not match its labels is rejected with the API server's words at the right line
 * while nothing changes. Seed 1, started paused, time moved only with the controls.
 */

const MISSPELLED = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
spec:
  replcas: 2
  selector:
    matchLabels:
      app: typo
  template:
    metadata:
      labels:
        app: typo
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;

const MISMATCH = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: mismatch
  namespace: bookshop
spec:
  replicas: 1
  selector:
    matchLabels:
      app: mismatch
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;



test('the YAML editor: schema markers, kubectl edit of the catalog Deployment, an API error at its line', async ({ page, context }, testInfo) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
    // monaco-yaml's worker failing falls back silently with only this warning.
    if (msg.text().includes('Could not create web worker')) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(String(err)));
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`) });

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  const catalog = page.locator('[data-node*="worker"] [data-pod^="catalog-"]');
  await expect(catalog).toHaveCount(2);

  // 1. A misspelled field is flagged by the Kubernetes schema (monaco-yaml's worker).
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  await expect(editorPanel(page)).toBeVisible({ timeout: 30_000 });
  await expect(monacoText(page)).toContainText('kind: Deployment');
  await pasteBuffer(page, MISSPELLED);
  const problems = page.getByTestId('editor-problems');
  await expect(problems).toContainText('Property replcas is not allowed.', { timeout: 20_000 });
  await expect(problems).toContainText('line 6:3');
  await expect(page.getByTestId('monaco-host').locator('.squiggly-error, .squiggly-warning').first()).toBeVisible();
  // Hover shows the field's documentation from the schema.
  await page.getByTestId('monaco-host').locator('.view-line span', { hasText: /^selector$/ }).hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'Label selector for pods' }).first()).toBeVisible({ timeout: 10_000 });
  await shot('1-misspelled-field');

  // 2. Edit the catalog Deployment from the inspector: replicas 2 -> 3.
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await catalog.first().click();
  const inspector = page.getByTestId('inspector');
  await inspector.getByRole('button', { name: /Deployment catalog/ }).click();
  await expect(inspector.locator('.insp-kind')).toContainText('Deployment');
  await inspector.getByRole('button', { name: 'Edit YAML' }).click();
  await expect(editorPanel(page)).toContainText('Editing Deployment bookshop/catalog');
  await expect(monacoText(page)).toContainText('app: catalog');
  const live = await copyBuffer(page);
  expect(live).toContain('\n  replicas: 2\n');
  expect(live).toMatch(/\n {2}resourceVersion: "\d+"\n/);
  await pasteBuffer(page, live.replace('\n  replicas: 2\n', '\n  replicas: 3\n'));
  await editorPanel(page).getByRole('button', { name: 'Apply' }).click();
  const results = editorPanel(page).getByRole('region', { name: 'Apply results' });
  await expect(results).toContainText('deployment.apps/catalog edited');
  await expect(page.locator('.timeline')).toContainText('kubectl edit deployment.apps/catalog (YAML editor): edited');
  await shot('2-catalog-edited');
  await page.getByRole('button', { name: '+1 min' }).click();
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(catalog).toHaveCount(3);
  for (const chip of await catalog.all()) await expect(chip).toContainText('Running');
  await shot('3-third-catalog-pod');

  // 3. Image bookshop:v2: a rolling update, with a new ReplicaSet.
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  await expect(monacoText(page)).toContainText('generation: 2'); // reloaded after the save
  const now = await copyBuffer(page);
  expect(now).toContain('\n  replicas: 3\n');
  expect(now).toContain('image: bookshop:v1');
  await pasteBuffer(page, now.replace('image: bookshop:v1', 'image: bookshop:v2'));
  await editorPanel(page).getByRole('button', { name: 'Diff' }).click();
  const diffHost = page.getByTestId('diff-host');
  await expect(diffHost).toContainText('generation: 3'); // the dry run's result, on the right
  await diffHost.hover();
  for (let i = 0; i < 10 && !((await diffHost.textContent()) ?? '').includes('bookshop:v2'); i++) await page.mouse.wheel(0, 120);
  await expect(diffHost).toContainText('image: bookshop:v2');
  await shot('4-diff-before-apply');
  await editorPanel(page).getByRole('button', { name: 'Back to editing' }).click();
  await editorPanel(page).getByRole('button', { name: 'Apply' }).click();
  await expect(results).toContainText('deployment.apps/catalog edited');
  await page.getByRole('tab', { name: 'Owner graph' }).click();
  const replicaSets = page.locator('[data-graph-node^="ReplicaSet/catalog-"]');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let i = 0; i < 300 && (await replicaSets.count()) < 2; i++) await step.click();
  await expect(replicaSets).toHaveCount(2);
  await shot('5-rolling-update-graph');
  await page.getByRole('button', { name: '+1 min' }).click();
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(catalog).toHaveCount(3);

  // 4. Someone scales the Deployment while it is open: saving is a conflict, not an overwrite.
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  await expect(monacoText(page)).toContainText('generation: 3');
  const before = await copyBuffer(page);
  await inspector.getByRole('button', { name: 'One replica more' }).click();
  await inspector.getByRole('button', { name: 'Scale', exact: true }).click();
  await expect(inspector).toContainText('/4');
  await pasteBuffer(page, before.replace('revisionHistoryLimit: 10', 'revisionHistoryLimit: 5'));
  await editorPanel(page).getByRole('button', { name: 'Apply' }).click();
  const conflict = editorPanel(page).getByRole('alert');
  await expect(conflict).toContainText('Conflict: the object changed in the cluster since you loaded it');
  await expect(results).toContainText('the object has been modified; please apply your changes to the latest version and try again');
  await conflict.getByRole('button', { name: 'Show the difference' }).click();
  await expect(page.getByTestId('diff-host')).toContainText('revisionHistoryLimit');
  await shot('6-conflict');
  await conflict.getByRole('button', { name: 'Re-apply my changes onto the current version' }).click();
  await expect(results).toContainText('deployment.apps/catalog edited');
  const merged = await copyBuffer(page);
  expect(merged).toContain('\n  replicas: 4\n'); // the other change is kept
  expect(merged).toContain('\n  revisionHistoryLimit: 5\n'); // and so is ours

  // 5. A Deployment whose selector does not match its labels: the API server's message at the
  // line of spec.template.metadata.labels, and nothing changes in the cluster.
  await page.getByRole('tab', { name: 'YAML editor' }).click();
  await editorPanel(page).getByRole('button', { name: 'New buffer' }).click();
  await expect(editorPanel(page)).toContainText('New objects');
  await pasteBuffer(page, MISMATCH);
  await editorPanel(page).getByRole('button', { name: 'Apply' }).click();
  const message = 'spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`';
  await expect(results).toContainText(`Rejected`);
  await expect(results).toContainText(`The Deployment "mismatch" is invalid: ${message}`);
  await expect(problems).toContainText(`line 13:7${message}`);
  await expect(monacoText(page)).toContainText('app: other'); // the buffer is kept
  await shot('7-selector-mismatch');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await shot('8-selector-mismatch-1920');
  await page.getByRole('tab', { name: 'Cluster map' }).click();
  await expect(page.locator('[data-pod^="mismatch-"]')).toHaveCount(0);
  await expect(page.locator('.timeline')).toContainText('kubectl apply -f - (YAML editor): The Deployment "mismatch" is invalid');

  // The rejected buffer is kept as a draft in the browser (restored on the next visit).
  const draft = await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.getItem('cluster-playground:yaml-draft:new'));
  expect(JSON.parse(draft!).text).toContain('app: other');

  expect(errors).toEqual([]);
});
