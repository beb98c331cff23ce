/**
 * What several e2e specs do the same way: read the terminal as drawn (xterm's buffer, exposed by
 * the page as `window.__terminal`), type a line at the laptop's prompt and wait for it, and
 * replace or copy the YAML editor's buffer as a person does (select all, paste / copy).
 * Page functions are strings or typed through `BrowserGlobals`: the e2e tsconfig has no DOM types.
 */
import { expect, type Page } from '@playwright/test';

/** What the page's functions use of the browser (this folder is typechecked without the DOM library). */
export interface BrowserGlobals {
  navigator: { clipboard: { writeText(t: string): Promise<void>; readText(): Promise<string> } };
  localStorage: { getItem(key: string): string | null };
}

/** The terminal's whole text as drawn. */
export const terminalText = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.text() : ""');
/** The prompt the terminal shows now (`$ ` on the laptop, the node's prompt after `docker exec -it`). */
export const promptNow = (page: Page) => page.evaluate<string>('window.__terminal ? window.__terminal.prompt() : ""');

/** How many times `marker` occurs in `text`. */
export const count = (text: string, marker: string) => text.split(marker).length - 1;

/** The text printed after the last occurrence of `marker` ('' when absent). */
export async function after(page: Page, marker: string): Promise<string> {
  const t = await terminalText(page);
  const i = t.lastIndexOf(marker);
  return i < 0 ? '' : t.slice(i + marker.length);
}

/** Focus the terminal (a click on a control takes the focus away). */
export async function focusTerminal(page: Page) {
  await page.getByRole('region', { name: 'Terminal' }).locator('.xterm').click();
}

/** Type `line` and press Enter (into whatever has the focus). */
export async function typeLine(page: Page, line: string) {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/**
 * Type `line` at the laptop's prompt (the terminal must have the focus) and wait until it has run
 * and the prompt is back; returns its output (without the echoed line and the next prompt).
 */
export async function run(page: Page, line: string): Promise<string> {
  const marker = `$ ${line}`;
  const before = count(await terminalText(page), marker);
  await typeLine(page, line);
  await expect.poll(async () => {
    const t = await terminalText(page);
    // Echoed once (the typing is the echo), then the output, then the prompt again.
    return count(t, marker) === before + 1 && t.endsWith('\n$') && (await promptNow(page)) === '$ ';
  }).toBe(true);
  const out = await after(page, marker);
  return out.slice(0, out.lastIndexOf('\n$'));
}

/** The YAML editor's panel. */
export const editorPanel = (page: Page) => page.getByTestId('yaml-editor');
/** The lines Monaco draws. */
export const monacoText = (page: Page) => page.getByTestId('monaco-host').locator('.view-lines');

/** Replace the editor's buffer with `text` as a person does: select all, paste. */
export async function pasteBuffer(page: Page, text: string) {
  await page.evaluate((t) => (globalThis as unknown as BrowserGlobals).navigator.clipboard.writeText(t), text);
  await page.getByTestId('monaco-host').click({ position: { x: 120, y: 12 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

/** The editor buffer's text, as a person copies it (select all, copy). */
export async function copyBuffer(page: Page): Promise<string> {
  await page.getByTestId('monaco-host').click({ position: { x: 120, y: 12 } });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+C');
  return (await page.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText())).replace(/\r\n/g, '\n');
}

/**
 * Open the default cluster paused (`/?seed=1&paused=1`: deterministic, time moves only by the
 * controls), wait for it, and focus the terminal at the laptop's prompt.
 */
export async function openPausedTerminal(page: Page): Promise<void> {
  await page.goto('/?seed=1&paused=1');
  await expect(page.getByTestId('cluster-state')).toHaveText('paused', { timeout: 60_000 });
  const xterm = page.getByRole('region', { name: 'Terminal' }).locator('.xterm');
  await expect(xterm).toBeVisible();
  await xterm.click();
  await expect.poll(() => promptNow(page)).toBe('$ ');
}
