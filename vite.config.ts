import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
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
