import { defineConfig, devices } from '@playwright/test';
import { readChromiumChoice, SYSTEM_CHROMIUM_ARGS } from './scripts/ensure-chromium.mjs';

// `npm run test:e2e` runs scripts/ensure-chromium.mjs first, which finds (or installs) a Chromium
// and records the choice; here we only read it. A system Chromium (Debian's) is launched by path
// with the flags it needs on these machines; Playwright's own browser needs no executablePath.
const chromium = readChromiumChoice();
const launchOptions =
  chromium?.kind === 'system' && chromium.executablePath
    ? { executablePath: chromium.executablePath, args: SYSTEM_CHROMIUM_ARGS }
    : {};

const PORT = 4173;
const HOST = '127.0.0.1';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  forbidOnly: !!process.env.CI,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: `http://${HOST}:${PORT}`,
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions } }],
  webServer: {
    command: `npm run build && npx vite preview --port ${PORT} --strictPort --host ${HOST}`,
    url: `http://${HOST}:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
