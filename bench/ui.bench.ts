/**
 * The built app in headless Chromium (Playwright's library API, not its test runner).
 *
 * - `ui.cold_start_ms`: navigation start to the bookshop's pods drawn (a chip for a pod of each
 *   bookshop workload: catalog, orders, web, postgres), median of 5 loads, each in a fresh browser
 *   context, at the default URL (`/`: the kind cluster boots, then the bookshop). Goal 400 ms.
 *   The moment is the first animation frame after the DOM holds those chips (a MutationObserver
 *   installed before the page's own scripts, then `requestAnimationFrame`).
 *   At the default URL the page draws the build's boot view (src/ui/state/bootView.ts: the worker's
 *   own snapshot of that cluster as its boot ends) while the worker boots the same cluster, so:
 * - `ui.live_ms`: navigation start to the worker's booted cluster in the store (the `sim-live`
 *   mark: time runs from here), median of the same 5 loads. Goal 1,000 ms (this file's own: the
 *   issue sets none; a second to a running cluster).
 * - `ui.initial_js_gzip_kb`: gzip size (zlib level 6, what a web server sends) of every
 *   JavaScript file requested until that moment (the page's resource timing), and of a worker
 *   created by then with its imports. Goal 200 KB.
 * - `ui.p95_frame_ms_1000_pods` / `ui.main_thread_busy_pct_1000_pods`: once the cluster runs,
 *   `kubectl create deployment bench --replicas=0 -n bookshop` then
 *   `kubectl scale deployment bench --replicas=1000 -n bookshop` (sent through the store's
 *   `runLine`, exposed with `?debug=1`), with the cluster map shown; measured over 10 s of wall
 *   time from the scale line (or until 1,000 `bench-` chips are drawn, if that takes longer;
 *   the cluster plays at speed 1 meanwhile): the 95th percentile of `requestAnimationFrame`
 *   intervals, and the main thread's busy share: the larger of the long tasks' sum
 *   (PerformanceObserver 'longtask', tasks over 50 ms) and CDP `Performance.getMetrics`
 *   TaskDuration, over the window. Goals 16.7 ms and 20 %.
 *   The same with the owner graph tab shown: `ui.p95_frame_ms_1000_pods_graph` and
 *   `ui.main_thread_busy_pct_1000_pods_graph`.
 *
 * The app is built into node_modules/.cache/cluster-playground/bench-dist (not dist/, which the
 * e2e runner rebuilds concurrently) when that build is missing or older than any source file,
 * then served by `vite preview` on a free port. Chromium: the one scripts/ensure-chromium.mjs
 * records (Debian's /usr/bin/chromium with SYSTEM_CHROMIUM_ARGS here).
 *
 * Wall time is what this bench measures; it comes from the browser (`performance.now()`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { BenchResult } from './run.ts';
import { readChromiumChoice, SYSTEM_CHROMIUM_ARGS } from '../scripts/ensure-chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'cluster-playground', 'bench-dist');
const COLD_LOADS = 5;
const SCALE_TO = 1000;
/** Wall ms the load is measured over, from the scale line (the cluster keeps running meanwhile). */
const LOAD_WINDOW_MS = 10_000;
/** Bookshop workloads whose pods count as "the bookshop drawn". */
const BOOKSHOP_PREFIXES = ['catalog-', 'orders-', 'web-', 'postgres-'];

export default async function uiBench(): Promise<BenchResult[]> {
  ensureBuilt();
  const port = await freePort();
  const server = startPreview(port);
  const base = `http://127.0.0.1:${port}`;
  let browser: Browser | undefined;
  try {
    await waitForServer(base, 30_000);
    const choice = readChromiumChoice() as { kind: string; executablePath: string | null } | null;
    browser = await chromium.launch(choice?.kind === 'system' && choice.executablePath ? { executablePath: choice.executablePath, args: SYSTEM_CHROMIUM_ARGS } : {});
    const cold: number[] = [];
    const live: number[] = [];
    const js: number[] = [];
    for (let i = 0; i < COLD_LOADS; i++) {
      const r = await coldStart(browser, base);
      cold.push(r.ms);
      live.push(r.liveMs);
      js.push(r.jsGzipBytes);
    }
    const results: BenchResult[] = [
      { name: 'ui.cold_start_ms', value: Math.round(median(cold)), unit: 'ms', goal: 400 },
      { name: 'ui.live_ms', value: Math.round(median(live)), unit: 'ms', goal: 1000 },
      { name: 'ui.initial_js_gzip_kb', value: Math.round(median(js) / 102.4) / 10, unit: 'KB', goal: 200 },
    ];
    if (process.env.UI_BENCH_VERBOSE) console.error(`ui.bench: cold starts ${cold.map((x) => Math.round(x)).join(", ")} ms; live ${live.map((x) => Math.round(x)).join(", ")} ms`);
    for (const view of ['map', 'graph'] as const) {
      const load = await scaleLoad(browser, base, view);
      const suffix = view === 'map' ? '' : '_graph';
      results.push(
        { name: `ui.p95_frame_ms_1000_pods${suffix}`, value: Math.round(load.p95FrameMs * 10) / 10, unit: 'ms', goal: 16.7 },
        { name: `ui.main_thread_busy_pct_1000_pods${suffix}`, value: Math.round(load.busyPct * 10) / 10, unit: '%', goal: 20 },
      );
      if (process.env.UI_BENCH_VERBOSE) console.error(`ui.bench: ${view}: ${JSON.stringify(load)}`);
    }
    return results;
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
  }
}

// ------------------------------------------------------------------------------------- build

/** Newest mtime (ms) of the files under `dir` (recursively). */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** Build the app into OUT_DIR unless a build newer than every source file is there. */
function ensureBuilt(): void {
  const stamp = join(OUT_DIR, 'index.html');
  const sources = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'fixtures')), newest(join(ROOT, 'public')), ...['index.html', 'vite.config.ts', 'package.json'].map((f) => statSync(join(ROOT, f)).mtimeMs));
  if (existsSync(stamp) && statSync(stamp).mtimeMs > sources) return;
  console.error('ui.bench: building the app (vite build) ...');
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function startPreview(port: number): ChildProcess {
  return spawn(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview', '--outDir', OUT_DIR, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore' });
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer at ${url}`);
}

// ------------------------------------------------------------------------------------- cold start

/**
 * Installed before the page's scripts: records the first animation frame after the DOM holds a
 * chip of every bookshop workload, as `window.__bookshopDrawn` (ms since navigation start).
 * A string, not a function: tsx compiles functions with helpers (`__name`) the page lacks.
 */
const WATCH_BOOKSHOP = `(() => {
  const prefixes = ${JSON.stringify(BOOKSHOP_PREFIXES)};
  const check = () => prefixes.every((p) => document.querySelector('[data-pod^="' + p + '"]'));
  const obs = new MutationObserver(() => {
    if (window.__bookshopDrawn !== undefined || !check()) return;
    obs.disconnect();
    requestAnimationFrame((t) => { window.__bookshopDrawn = t; });
  });
  obs.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-pod'] });
})();`;

/**
 * Installed before the page's scripts: every `new Worker(url)` noted with its page time, as
 * `window.__workersCreated` ({url, t}[]), so a worker started before the bookshop was drawn counts
 * towards ui.initial_js_gzip_kb and one started after it does not.
 */
const WATCH_WORKERS = `(() => {
  const W = window.Worker;
  window.__workersCreated = [];
  window.Worker = class extends W {
    constructor(url, opts) {
      super(url, opts);
      window.__workersCreated.push({ url: String(new URL(url, location.href)), t: performance.now() });
    }
  };
})();`;

/**
 * Run in the page when the load starts: animation-frame intervals and long tasks into
 * `window.__load` until `window.__load.stop`.
 */
const WATCH_FRAMES = `(() => {
  const w = window;
  w.__load = { frames: [], longTasks: 0, start: performance.now(), stop: false };
  let last = performance.now();
  const frame = (t) => {
    if (w.__load.stop) return;
    w.__load.frames.push(t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!w.__load.stop) w.__load.longTasks += e.duration;
  }).observe({ type: 'longtask' });
})()`;

/** Count of `bench-` pods: chips drawn on the map, or records in the store (the graph view). */
const BENCH_PODS_DRAWN = (view: 'map' | 'graph') =>
  view === 'map'
    ? `document.querySelectorAll('[data-pod^="bench-"]').length >= ${SCALE_TO}`
    : `Object.values(window.__playground.store.getState().objects).filter((o) => o.kind === 'Pod' && o.name.startsWith('bench-')).length >= ${SCALE_TO}`;

async function coldStart(browser: Browser, base: string): Promise<{ ms: number; liveMs: number; jsGzipBytes: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: WATCH_BOOKSHOP });
    await page.addInitScript({ content: WATCH_WORKERS });
    const scripts = new Map<string, number>();
    // Set once the page has drawn the bookshop AND no worker was created before that moment: the
    // page's own scripts are then counted by their resource timing, which is exact. (Counting what
    // Node saw before it noticed the drawing counted a worker started just after the first paint:
    // Node polls every 50 ms.)
    // Responses are recorded only until Node learns the bookshop was drawn; a body that arrives
    // after that (the await) is not recorded either, so a script dropped below cannot come back
    // (it did: a worker started just after the drawing was counted in some runs).
    let drawn = false;
    const onResponse = async (url: string, type: string, body: () => Promise<Buffer>) => {
      if (drawn || !(type === 'script' || url.endsWith('.js'))) return;
      if (scripts.has(url)) return;
      scripts.set(url, 0);
      try {
        const n = gzipSync(await body()).length;
        if (!drawn) scripts.set(url, n);
      } catch {
        // a response without a body (redirect): nothing to count
      }
    };
    page.on('response', (r) => void onResponse(r.url(), r.request().resourceType(), () => r.body()));
    await page.goto(base, { waitUntil: 'commit' });
    const handle = await page.waitForFunction('window.__bookshopDrawn', undefined, { timeout: 60_000, polling: 50 });
    const ms = (await handle.jsonValue()) as number;
    drawn = true;
    // Workers created before that moment (page time, from the wrapped constructor): their scripts
    // count, with what they imported by then (as far as Node saw it).
    const workersBefore = (await page.evaluate(`window.__workersCreated.filter((w) => w.t <= window.__bookshopDrawn).map((w) => w.url)`)) as string[];
    if (workersBefore.length === 0) scripts.clear();
    // The page's scripts requested before that moment (resource timing), and the workers'.
    const loadedBefore = (await page.evaluate(`performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__bookshopDrawn && e.name.endsWith('.js')).map((e) => e.name)`)) as string[];
    for (const url of [...loadedBefore, ...workersBefore]) {
      if (scripts.get(url)) continue; // recorded with its size (0: its body came too late)
      const file = join(OUT_DIR, new URL(url).pathname);
      if (existsSync(file)) scripts.set(url, gzipSync(readFileSync(file)).length);
    }
    const liveHandle = await page.waitForFunction(`performance.getEntriesByName('sim-live')[0]?.startTime`, undefined, { timeout: 60_000, polling: 50 });
    const liveMs = (await liveHandle.jsonValue()) as number;
    if (process.env.UI_BENCH_VERBOSE) {
      // Where the time went: scripts fetched, the worker's first snapshot, the first pods, the bookshop.
      const steps = (await page.evaluate(`(() => {
        const out = [];
        for (const e of performance.getEntriesByType('resource')) if (e.name.endsWith('.js')) out.push([new URL(e.name).pathname.replace('/assets/', ''), Math.round(e.responseEnd)]);
        for (const n of ['sim-first-snapshot', 'first-pods-drawn', 'sim-live']) { const m = performance.getEntriesByName(n)[0]; if (m) out.push([n, Math.round(m.startTime)]); }
        const nav = performance.getEntriesByType('navigation')[0];
        if (nav) out.push(['domContentLoaded', Math.round(nav.domContentLoadedEventEnd)]);
        return out;
      })()`)) as [string, number][];
      console.error(`ui.bench: steps ${steps.sort((a, b) => a[1] - b[1]).map(([n, t]) => `${n}@${t}`).join(' ')}`);
    }
    if (process.env.UI_BENCH_VERBOSE) console.error(`ui.bench: ${Math.round(ms)} ms; js: ${[...scripts].map(([u, n]) => `${new URL(u).pathname} ${(n / 1024).toFixed(1)} KB`).join(', ')}`);
    return { ms, liveMs, jsGzipBytes: [...scripts.values()].reduce((a, b) => a + b, 0) };
  } finally {
    await context.close();
  }
}

// ------------------------------------------------------------------------------------- load

interface LoadResult {
  p95FrameMs: number;
  busyPct: number;
  longTaskPct: number;
  taskDurationPct: number;
  windowMs: number;
  /** From the scale line until the 1,000 pods were drawn. */
  drawnMs: number;
  frames: number;
}

async function scaleLoad(browser: Browser, base: string, view: 'map' | 'graph'): Promise<LoadResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/?debug=1`);
    await page.getByTestId('cluster-state').filter({ hasText: 'running' }).waitFor({ timeout: 120_000 });
    await runLine(page, 'kubectl create deployment bench --image=nginx:1.27 --replicas=0 -n bookshop');
    if (view === 'graph') {
      await page.getByRole('tab', { name: 'Owner graph' }).click();
      await page.locator('.react-flow').first().waitFor({ timeout: 30_000 });
    }
    await page.waitForTimeout(1000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskDuration = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
    await page.evaluate(WATCH_FRAMES);
    const td0 = await taskDuration();
    await runLine(page, `kubectl scale deployment bench --replicas=${SCALE_TO} -n bookshop`);
    await page.waitForFunction(BENCH_PODS_DRAWN(view), undefined, { timeout: 180_000, polling: 100 });
    const drawnMs = (await page.evaluate('performance.now() - window.__load.start')) as number;
    // The window: LOAD_WINDOW_MS from the scale line (longer if drawing took longer), so a
    // faster draw does not shrink the window the busy share is taken over.
    if (drawnMs < LOAD_WINDOW_MS) await page.waitForTimeout(LOAD_WINDOW_MS - drawnMs);
    const td1 = await taskDuration();
    const r = (await page.evaluate(`(() => {
      window.__load.stop = true;
      return { frames: window.__load.frames, longTasks: window.__load.longTasks, windowMs: performance.now() - window.__load.start };
    })()`)) as { frames: number[]; longTasks: number; windowMs: number };
    const sorted = [...r.frames].sort((a, b) => a - b);
    const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : Number.NaN;
    const longTaskPct = (100 * r.longTasks) / r.windowMs;
    const taskDurationPct = (100 * (td1 - td0)) / r.windowMs;
    return { p95FrameMs: p95, busyPct: Math.max(longTaskPct, taskDurationPct), longTaskPct, taskDurationPct, windowMs: r.windowMs, drawnMs, frames: r.frames.length };
  } finally {
    await context.close();
  }
}

/** Run a shell line through the store (`?debug=1` exposes it) and wait for it to finish. */
async function runLine(page: Page, line: string): Promise<void> {
  await page.waitForFunction('!!window.__playground', undefined, { timeout: 30_000 });
  const l = JSON.stringify(line);
  await page.evaluate(`window.__playground.store.getState().runLine(${l})`);
  await page.waitForFunction(`window.__playground.store.getState().shell.some((e) => e.line === ${l} && e.done)`, undefined, { timeout: 60_000 });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
