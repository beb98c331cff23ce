#!/usr/bin/env node
/**
 * Make sure a Chromium exists for the Playwright e2e specs, and record which one.
 *
 * Run by `npm run test:e2e` before `playwright test`. Plain Node, no dependencies beyond
 * the `playwright-core` that @playwright/test already installs (only to ask where its own
 * browser lives and to run its installer).
 *
 * Order:
 *   1. A system Chromium: $CHROMIUM_PATH if set (then only that path is tried), otherwise
 *      `chromium` / `chromium-browser` on PATH and Debian's /usr/bin/chromium. A candidate
 *      counts only if `<path> --version` runs.
 *   2. Playwright's own Chromium, if it was downloaded earlier (`npx playwright install`).
 *   3. As root with apt-get: `apt-get update` then `apt-get install -y chromium fonts-liberation`,
 *      then step 1 again.
 *   4. `npx playwright install chromium` (a download from Playwright's CDN).
 *   5. Otherwise: one line saying what to install, exit status 1. (Also when Playwright's
 *      browser exists but cannot start, e.g. for missing system libraries.)
 *
 * The choice is written to node_modules/.cache/cluster-playground/chromium.json as
 * `{ "kind": "system" | "playwright", "executablePath": string | null }` and read by
 * playwright.config.ts (`readChromiumChoice`). With kind "playwright" the config passes no
 * executablePath and Playwright launches its own browser.
 *
 * Test knobs (environment):
 *   CHROMIUM_PATH=/path           only this system Chromium is considered
 *   ENSURE_CHROMIUM_NOT_ROOT=1    behave as a non-root user (never call apt-get)
 *   ENSURE_CHROMIUM_NO_DOWNLOAD=1 never run `playwright install`
 *   ENSURE_CHROMIUM_NO_PLAYWRIGHT_BROWSER=1  ignore an already downloaded Playwright browser
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'cluster-playground');
/** Where the choice is recorded for playwright.config.ts. */
export const CHOICE_FILE = join(CACHE_DIR, 'chromium.json');
const INSTALL_LOG = join(CACHE_DIR, 'playwright-install.log');
const PREFIX = 'ensure-chromium:';

/** Flags Debian's Chromium needs here: root without a sandbox, no GPU, no network chatter. */
export const SYSTEM_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const flag = (name) => {
  const v = process.env[name];
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
};

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The system Chromium candidates, in order of preference. */
function systemCandidates() {
  if (process.env.CHROMIUM_PATH) return [process.env.CHROMIUM_PATH];
  const out = [];
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser']) {
    for (const dir of dirs) out.push(join(dir, name));
  }
  out.push('/usr/bin/chromium', '/usr/lib/chromium/chromium');
  return [...new Set(out)];
}

/** True when `path --version` runs and prints something like "Chromium 156...". */
function runsVersion(path) {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 && /chrom/i.test(r.stdout ?? '');
}

/** First system Chromium that runs, or null. */
export function findSystemChromium() {
  for (const p of systemCandidates()) {
    if (existsSync(p) && isExecutable(p) && runsVersion(p)) return p;
  }
  return null;
}

/** Path of Playwright's own Chromium if it has been downloaded, else null. */
export function findPlaywrightChromium() {
  if (flag('ENSURE_CHROMIUM_NO_PLAYWRIGHT_BROWSER')) return null;
  try {
    const require = createRequire(join(ROOT, 'package.json'));
    const { chromium } = require('playwright-core');
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/** Detection only (no installs): what would be used right now, or null. */
export function findChromium() {
  const system = findSystemChromium();
  if (system) return { kind: 'system', executablePath: system };
  const own = findPlaywrightChromium();
  if (own) return { kind: 'playwright', executablePath: null };
  return null;
}

/**
 * The recorded choice for playwright.config.ts; falls back to detection when the file is
 * missing or stale (e.g. `npx playwright test` run directly). Null when nothing is found.
 */
export function readChromiumChoice() {
  try {
    const c = JSON.parse(readFileSync(CHOICE_FILE, 'utf8'));
    if (c.kind === 'playwright') return c;
    if (c.kind === 'system' && typeof c.executablePath === 'string' && existsSync(c.executablePath)) return c;
  } catch {
    // no file yet: detect below
  }
  return findChromium();
}

function isRoot() {
  if (flag('ENSURE_CHROMIUM_NOT_ROOT')) return false;
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function aptInstall() {
  console.log(`${PREFIX} no Chromium found; running as root, installing Debian's chromium with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    console.log(`${PREFIX} $ apt-get ${args.join(' ')}`);
    return spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  };
  return run(['update']) && run(['install', '-y', 'chromium', 'fonts-liberation']);
}

function playwrightInstall() {
  console.log(`${PREFIX} no Chromium found; trying Playwright's own browser (npx playwright install chromium)`);
  const cli = join(ROOT, 'node_modules', 'playwright', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'install', 'chromium'], {
    encoding: 'utf8',
    timeout: 15 * 60_000,
    env: process.env,
  });
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(INSTALL_LOG, `${r.stdout ?? ''}\n${r.stderr ?? ''}\n${r.error ? String(r.error) : ''}\n`);
  return r.status === 0;
}

function record(choice) {
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(CHOICE_FILE, JSON.stringify(choice, null, 2) + '\n');
  const what =
    choice.kind === 'system'
      ? `system Chromium ${choice.executablePath}`
      : `Playwright's own Chromium ${findPlaywrightChromium() ?? ''}`.trimEnd();
  console.log(`${PREFIX} using ${what} (recorded in ${CHOICE_FILE.slice(ROOT.length + 1)})`);
}

/** Find or install a Chromium; record it; return the exit status. */
export function ensureChromium() {
  let choice = findChromium();

  if (!choice && isRoot() && hasCommand('apt-get')) {
    if (aptInstall()) {
      const system = findSystemChromium() ?? (runsVersion('/usr/bin/chromium') ? '/usr/bin/chromium' : null);
      if (system) choice = { kind: 'system', executablePath: system };
    } else {
      console.log(`${PREFIX} apt-get could not install chromium`);
    }
  }

  if (!choice && !flag('ENSURE_CHROMIUM_NO_DOWNLOAD')) {
    if (playwrightInstall() && findPlaywrightChromium()) choice = { kind: 'playwright', executablePath: null };
  }

  // Playwright's browser needs the system libraries a desktop Chromium needs; a bare machine may lack them.
  if (choice?.kind === 'playwright') {
    const own = findPlaywrightChromium();
    if (own && !runsVersion(own)) {
      console.error(
        `${PREFIX} Playwright's Chromium (${own}) is installed but cannot start, probably for missing system libraries: run \`sudo npx playwright install-deps chromium\` or \`sudo apt-get install -y chromium\`, then rerun.`,
      );
      return 1;
    }
  }

  if (!choice) {
    const env = process.env.CHROMIUM_PATH ? ` (CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not run)` : '';
    const apt = isRoot() ? 'apt-get install -y chromium' : 'sudo apt-get install -y chromium';
    const log = existsSync(INSTALL_LOG) && !flag('ENSURE_CHROMIUM_NO_DOWNLOAD') ? ` (download log: ${INSTALL_LOG.slice(ROOT.length + 1)})` : '';
    console.error(
      `${PREFIX} no Chromium found${env} and none could be installed: install Debian's chromium (\`${apt}\`) or run \`npx playwright install chromium\` with network access, then rerun${log}.`,
    );
    return 1;
  }

  record(choice);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureChromium();
}
