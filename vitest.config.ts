import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    environment: 'node',
    // cron-parser, ajv and the field table load on demand (src/engine/libs.ts); tests get them up front.
    setupFiles: ['src/engine/libs.setup.ts'],
  },
});
