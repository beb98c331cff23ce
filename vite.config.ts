import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Cold start (issue #6): in the built page, start the simulation worker from a tiny inline script
 * at the top of <head>, while the main bundle is still being fetched and parsed, instead of after
 * it ran. src/ui/state/bridge.ts adopts that worker (`window.__simWorker`) for its first start; in
 * `vite dev` nothing is injected and the bridge starts the worker itself.
 *
 * Not at the URLs that draw the build's boot view (src/ui/state/bootView.ts: the default seed, the
 * kind cluster): there the page draws first and the bridge starts the worker right after (a
 * URL this check misreads only moves when the worker starts, never what it runs).
 */
function startWorkerEarly(): Plugin {
  return {
    name: 'cluster-playground:start-worker-early',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        let file: string | undefined;
        for (const out of Object.values(ctx.bundle ?? {})) {
          const m = out.type === 'chunk' ? /new Worker\(new URL\(`([^`]*sim\.worker-[\w-]+\.js)`/.exec(out.code) : null;
          if (m) file = m[1];
        }
        if (!file) return html;
        const viewSeed = (JSON.parse(readFileSync(new URL('./src/ui/state/boot-view.json', import.meta.url), 'utf8')) as { seed: number }).seed;
        const skip = `var q=new URLSearchParams(location.search),s=q.get("seed");if((s===null||s==="${viewSeed}")&&q.get("cluster")!=="test")return;`;
        const script = `(function(){${skip}try{var w=new Worker(${JSON.stringify(file)},{type:"module",name:"simulation"});w.addEventListener("error",function(e){window.__simWorkerError=e.message||"it could not start"});window.__simWorker=w}catch(e){}})()`;
        // Before any stylesheet: a classic script waits for the stylesheets above it to load.
        const charset = /<meta charset[^>]*>/i;
        if (charset.test(html)) return html.replace(charset, (m) => `${m}\n    <script>${script}</script>`);
        return { html, tags: [{ tag: 'script', children: script, injectTo: 'head-prepend' }] };
      },
    },
  };
}

/**
 * Cold start (issue #6): the built index.html holds the App rendered on the boot view
 * (src/ui/state/bootView.ts, the worker's own snapshot of the default cluster as its boot ends),
 * so the cluster is drawn as soon as the HTML and CSS are in; src/main.tsx hydrates it when the
 * page starts on that view, else renders afresh. The render runs src/entry-server.tsx through a
 * Vite SSR module loader (middleware mode, no HTTP server) during the build.
 */
function prerenderBootView(): Plugin {
  return {
    name: 'cluster-playground:prerender-boot-view',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const server = await createServer({
          configFile: false,
          root: fileURLToPath(new URL('.', import.meta.url)),
          plugins: [react()],
          server: { middlewareMode: true, hmr: false, ws: false },
          appType: 'custom',
          logLevel: 'error',
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const mod = (await server.ssrLoadModule('/src/entry-server.tsx')) as { render(): string };
          const body = mod.render();
          return body ? html.replace('<div id="root"></div>', `<div id="root">${body}</div>`) : html;
        } finally {
          await server.close();
        }
      },
    },
  };
}

/**
 * Cross-origin isolation (COOP same-origin + COEP require-corp) for `vite dev` and `vite preview`.
 * Everything the page loads is its own (no CDN), so nothing breaks; in exchange the page's timers
 * are precise (`performance.now()` and animation-frame times to 5 us instead of 100 us), so a frame
 * interval reads 16.67 ms, not 16.6 or 16.8 (ui.p95_frame_ms in `npm run bench` measures them).
 * A static host may send the same two headers; without them the app runs the same.
 */
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react(), startWorkerEarly(), prerenderBootView()],
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Monaco (and monaco-yaml) load only with the YAML editor: their own chunk, never the
        // entry chunk (ecosystem-notes.md section (c); rolldown's successor of `manualChunks`).
        // The preload helper, shared by every lazy import, gets its own group first: captured
        // with Monaco's dependencies, the entry would import the whole Monaco chunk to get it.
        codeSplitting: {
          groups: [
            { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 2 },
            { name: 'monaco', test: /[\\/]node_modules[\\/](monaco-editor|monaco-yaml|monaco-worker-manager|monaco-marker-data-provider|monaco-languageserver-types)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
