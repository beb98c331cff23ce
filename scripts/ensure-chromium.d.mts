/** Types for ensure-chromium.mjs (plain Node, imported by playwright.config.ts). */
export interface ChromiumChoice {
  /** "system": a Chromium on this machine, launched with `executablePath`; "playwright": Playwright's own. */
  kind: 'system' | 'playwright';
  executablePath: string | null;
}
export const CHOICE_FILE: string;
export const SYSTEM_CHROMIUM_ARGS: string[];
export function findSystemChromium(): string | null;
export function findPlaywrightChromium(): string | null;
export function findChromium(): ChromiumChoice | null;
export function readChromiumChoice(): ChromiumChoice | null;
export function ensureChromium(): number;
